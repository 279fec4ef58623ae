"""CMV conditions (CMV-COND): the table in data/cmv_conditions.yaml and the procedures around it —
confusion, exhaustion, fear and combat conditions with the inventory's worked examples."""

from __future__ import annotations

import pytest

from d20combat.controllers import TacticalAI
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.numbers import total
from d20combat.rulesets.off_guard import CATEGORIES, BlindMove, CastSpell, CmvAllowance, Escape, Guide, cmv_data

from ._util import FIGHTER, ac, armored, assert_illegal, bonus, cmv, conditions, resolved, ruleset, stats, texts

T15 = armored("target", 5)
T16 = armored("target", 4, dex=14)
FOE = armored("foe", 2, attacks=[{"weapon": "club"}])


def pair(aconds=(), tconds=(), *, attacker=FIGHTER, target=T15, apos=(1, 1), tpos=(2, 1), dice=(), variants=None,
         rows=None, extra=(), **kw):
    return cmv([{"id": "a", "side": "h", "stats": attacker, "position": list(apos), "conditions": list(aconds)},
                {"id": "t", "side": "f", "stats": target, "position": list(tpos), "conditions": list(tconds)},
                *extra], dice=dice, variants=variants, rows=rows, **kw)


def speed(enc, cid: str = "a") -> int:
    return enc.speed_ft(cid)


def save(enc, cid: str, kind: str, **kw) -> int:
    rs = ruleset(enc)
    return total(0, rs.conditions.save_modifiers(enc.creature(cid), enc.state.get(cid), kind, **kw)).value  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------ categories
EXPECTED = {
    "confusion": {"blinded", "dazed", "deafened", "debilitated", "disoriented", "sickened", "stunned"},
    "exhaustion": {"fatigued", "exhausted", "unconscious"},
    "injury": {"bloodied", "wounded", "staggered", "dying", "stable", "dead"},
    "fear": {"shaken", "frightened", "panicked", "cowering"},
    "combat": {"flanking", "held", "off-guard", "prone"},
}


@pytest.mark.parametrize("category", CATEGORIES)
def test_cmv_cond_01_16_22_32_conditions_come_in_five_categories(category: str) -> None:
    """CMV-COND-01 (Confusion), CMV-COND-16 (Exhaustion), CMV-INJ-01 (Injury), CMV-COND-22 (Fear),
    CMV-COND-32 (Combat): 24 conditions, each tagged with its category; 'Confusion' is a category, not a
    'confused' condition."""
    table = cmv_data().conditions
    assert {n for n, row in table.items() if row.category == category} == EXPECTED[category]
    assert sum(len(v) for v in EXPECTED.values()) == 24 and "confused" not in table


# ------------------------------------------------------------------------------------ confusion
def test_cmv_cond_02_blinded_is_off_guard() -> None:
    """CMV-COND-02 (derived): a blinded fighter with AC 16 (Dex +2) has AC 12 and makes no reaction attacks."""
    enc = pair(tconds=("blinded",), target=T16)
    assert ac(enc, "a", "t") == 12
    assert not ruleset(enc).reactions.can_react(enc.creature("t"), enc.state.get("t"))


def test_cmv_cond_03_blinded_half_speed_unless_guided() -> None:
    """CMV-COND-03 (derived, proposed 'aided'): speed 30 ft → 15 ft; an adjacent ally's minor action guides it
    at full speed until that ally's next turn."""
    enc = cmv([{"id": "b", "side": "h", "stats": FIGHTER, "position": [1, 2]},
               {"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1], "conditions": ["blinded"]},
               {"id": "t", "side": "f", "stats": T15, "position": [8, 8]}])
    assert speed(enc) == 15
    events = enc.act(Guide("a"))
    assert any(isinstance(e, ev.BudgetSpent) and e.cost == "move" for e in events)
    assert speed(enc) == 30
    assert_illegal(enc, Guide("t"), "not an ally")


@pytest.mark.parametrize(("face", "moved"), [(10, True), (9, False)])
def test_cmv_cond_03_variant_blind_full_speed_check(face: int, moved: bool) -> None:
    """CMV-COND-03 (variant cmv_blind_full_speed_check): full speed after a DC 10 Dex check; on a failure the
    creature falls prone where the move began. Without the variant the action does not exist."""
    enc = pair(aconds=("blinded",), tpos=(8, 8), dice=(face,), variants={"cmv_blind_full_speed_check": True})
    assert enc.check(BlindMove((1, 6))) is None and enc.check(ax.Move(to=(1, 6))) is not None  # 25 ft > 15 ft
    enc.act(BlindMove((1, 6)))
    a = enc.state.get("a")
    assert (a.position == (1, 6)) is moved and a.has("prone") is not moved
    assert_illegal(pair(aconds=("blinded",), tpos=(8, 8)), BlindMove((1, 6)), "only with the variant")


def test_cmv_cond_04_everything_has_total_concealment_from_the_blinded() -> None:
    """CMV-COND-04: the blinded fighter must attack a square, and a hit there has a 50 % miss chance."""
    enc = pair(aconds=("blinded",))
    assert_illegal(enc, ax.Attack("t"), "total concealment")
    assert enc.plan_attack("a", "t", square=(2, 1)).concealment == 50


def test_cmv_cond_05_dazed_takes_no_actions_but_may_react() -> None:
    """CMV-COND-05 (derived): a dazed creature has a turn with no actions — not even a 5-foot step — but it can
    still make a reaction attack."""
    enc = pair(aconds=("dazed",))
    assert enc.state.turn is not None and enc.state.turn.actor == "a"
    assert_illegal(enc, ax.Attack("t"), "dazed: no actions")
    assert_illegal(enc, ax.Step((1, 2)), "dazed")
    enc.act(ax.EndTurn())
    enc.act(ax.Move(to=(5, 5)))  # the target walks away from the dazed fighter
    assert enc.pending is not None and enc.pending.prompt.reactor == "a"


def test_cmv_cond_06_dazed_takes_no_ac_penalty() -> None:
    """CMV-COND-06: dazed is not off-guard: AC 16 stays 16."""
    assert ac(pair(tconds=("dazed",), target=T16), "a", "t") == 16


def test_cmv_cond_07_deafened_minus_4_initiative() -> None:
    """CMV-COND-07 (derived): a deafened wizard's initiative is d20 + Dex +1 − 4 (d20 10 → 7)."""
    wizard = stats("wizard", abilities={"dex": 12})
    enc = cmv([{"id": "w", "side": "h", "stats": wizard, "position": [1, 1], "conditions": ["deafened"],
                "initiative": None},
               {"id": "t", "side": "f", "stats": T15, "position": [5, 5]}], dice=(10,))
    rolled = next(e for e in enc.log if isinstance(e, ev.InitiativeRolled) and e.combatant == "w")
    assert rolled.total == 7 and "deafened 4" in rolled.explanation


@pytest.mark.parametrize(("pct", "fails"), [(20, True), (21, False)])
def test_cmv_cond_08_deafened_caster_fumbles_verbal_components(pct: int, fails: bool) -> None:
    """CMV-COND-08 (derived, proposed): a deafened wizard casts a spell with a verbal component: d% 20 → the spell
    fails and the action is spent; d% 21 → it is cast. A spell without a verbal component, or a caster who
    hears, rolls nothing."""
    enc = pair(aconds=("deafened",), tpos=(6, 6), dice=(pct,))
    events = enc.act(CastSpell("sleep"))
    assert ("the spell fails" in texts(events)) is fails
    assert not enc.state.turn.standard  # type: ignore[union-attr]
    quiet = pair(aconds=("deafened",), tpos=(6, 6))
    assert "casts silent image" in texts(quiet.act(CastSpell("silent image", verbal=False)))
    hearing = pair(tpos=(6, 6))
    assert "casts sleep" in texts(hearing.act(CastSpell("sleep")))


@pytest.mark.parametrize(("variants", "fails"), [({}, True), ({"cmv_deafened_spell_fumble": False}, False)])
def test_cmv_cond_08_deafened_spell_attack_fumbles(variants: dict[str, object], fails: bool) -> None:
    """CMV-COND-08: a ray of frost by a deafened caster: d% 12 ≤ 20 is rolled before the attack roll, and the
    spell fails even though the attack roll hits; the variant turns the fumble off."""
    caster = stats("caster", attack_bonus=5, attacks=[{"weapon": "ray-of-frost"}])
    dice = (12, 15, 2) if fails else (15, 2)
    enc = pair(aconds=("deafened",), attacker=caster, tpos=(4, 1), dice=dice, variants=variants)
    attack = resolved(enc.act(ax.Attack("t", "ray-of-frost")))
    assert attack.hit is not fails
    assert ("verbal component fumbles" in attack.lines[-1]) is fails


def test_cmv_cond_09_debilitated_one_minor_action() -> None:
    """CMV-COND-09 (derived): a debilitated creature takes one move action on its turn; an attack (a standard
    action) is refused, and so is a second action."""
    enc = pair(aconds=("debilitated",), tconds=("stunned",))  # a stunned target makes no reaction attack
    assert_illegal(enc, ax.Attack("t"), "single minor")
    enc.act(ax.Move(to=(1, 3)))
    assert_illegal(enc, ax.Move(to=(1, 5)), "only one standard or move action")


def test_cmv_cond_10_disoriented_minus_2_attack_and_ac() -> None:
    """CMV-COND-10 (derived): disoriented: attack +4 → +2; AC 15 → 13."""
    four = stats("four", attack_bonus=4, attacks=[{"weapon": "club"}])
    enc = pair(aconds=("disoriented",), attacker=four)
    assert bonus(enc, "a", "t") == 2
    assert ac(pair(tconds=("disoriented",)), "a", "t") == 13


def test_cmv_cond_11_sickened_counts_as_bloodied_once() -> None:
    """CMV-COND-11 (derived): sickened: attack +5 → +4 (counts as bloodied); bloodied and sickened → +4, not +3."""
    assert bonus(pair(aconds=("sickened",)), "a", "t") == 4
    both = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1], "hp": 10, "conditions": ["sickened"]},
                {"id": "t", "side": "f", "stats": T15, "position": [2, 1]}])
    assert "bloodied" in conditions(both, "a") and bonus(both, "a", "t") == 4


def test_cmv_cond_12_sickened_minus_2_saves_except_death_saves() -> None:
    """CMV-COND-12 (derived): sickened: Fortitude +3 → +1; the death save is unaffected."""
    enc = pair(aconds=("sickened",))
    assert save(enc, "a", "fortitude", base=3) == 1
    assert save(enc, "a", "death") == save(pair(), "a", "death")


def test_cmv_cond_13_stunned_drops_what_it_holds() -> None:
    """CMV-COND-13 (derived): a stunned creature holding a sword and shield drops both."""
    knight = stats("knight", attacks=[{"weapon": "longsword"}], shield="heavy-wooden-shield")
    enc = pair(tconds=("stunned",), target=knight)
    t = enc.state.get("t")
    assert t.wielding is None and t.shield_state == "dropped"
    assert any(isinstance(e, ev.EquipmentChanged) and "drops" in e.note for e in enc.log)


def test_cmv_cond_14_15_stunned_no_actions_no_reactions_off_guard() -> None:
    """CMV-COND-14, CMV-COND-15 (derived): AC 17 with Dex +3 → 12; its turn passes; no reaction attacks."""
    quick = armored("quick", 4, dex=16)
    enc = pair(tconds=("stunned",), target=quick)
    assert ac(enc, "a", "t") == 12
    enc.act(ax.EndTurn())
    skipped = [e for e in enc.log if isinstance(e, ev.TurnEnded) and e.combatant == "t"]
    assert skipped and "stunned: takes no actions" in skipped[-1].reason
    stunned_guard = pair(aconds=("stunned",), extra=[{"id": "b", "side": "h", "stats": FIGHTER, "position": [5, 5]}])
    assert stunned_guard.state.turn.actor == "t"  # type: ignore[union-attr]
    stunned_guard.act(ax.Move(to=(2, 5)))
    assert stunned_guard.pending is None


# ------------------------------------------------------------------------------------ exhaustion
STRONG = stats("strong", attack_bonus=0, abilities={"str": 15}, attacks=[{"weapon": "club"}])


def test_cmv_cond_17_18_fatigued_minus_2_abilities_minus_5_speed() -> None:
    """CMV-COND-17, CMV-COND-18 (derived): fatigued: Str 15 (+2) → 13 (+1), so attack and damage −1; speed
    30 ft → 25 ft."""
    enc = pair(aconds=("fatigued",), attacker=STRONG, dice=(15, 4))
    assert bonus(enc, "a", "t") == 1 and speed(enc) == 25
    events = enc.act(ax.Attack("t"))
    damage = next(e for e in events if isinstance(e, ev.Damaged))
    assert damage.amount == 4 + 1


@pytest.mark.parametrize(("variants", "attack", "feet"), [({}, 0, 25),
                                                          ({"cmv_exhausted_includes_fatigued": False}, 1, 30)])
def test_cmv_cond_19_exhausted_is_a_further_minus_2(variants: dict[str, object], attack: int, feet: int) -> None:
    """CMV-COND-19 (derived): exhausted: Str 15 → 11 (+0) and speed 25 ft (it brings fatigued); under
    cmv_exhausted_includes_fatigued = false only its own −2 (Str 13, +1) and no speed loss."""
    enc = pair(aconds=("exhausted",), attacker=STRONG, variants=variants)
    assert bonus(enc, "a", "t") == attack and speed(enc) == feet


def test_cmv_cond_20_exhausted_cannot_charge() -> None:
    """CMV-COND-20: an exhausted creature's charge is refused; a fresh one may charge."""
    assert_illegal(pair(aconds=("exhausted",), tpos=(5, 1)), ax.Charge("t"), "can't run or charge")
    assert pair(tpos=(5, 1)).check(ax.Charge("t")) is None


def test_cmv_cond_21_unconscious_is_helpless_and_passes() -> None:
    """CMV-COND-21: unconscious → helpless (AC 5 in melee) and no actions."""
    enc = pair(tconds=("unconscious",), extra=[{"id": "u", "side": "f", "stats": T15, "position": [9, 9]}])
    assert ac(enc, "a", "t") == 6  # 10 + armor 5 − Dex counted −5 − 4 against melee
    assert ruleset(enc).injury.is_helpless(enc.creature("t"), enc.state.get("t"))
    enc.act(ax.EndTurn())
    assert any(isinstance(e, ev.TurnEnded) and e.combatant == "t" and "unconscious" in e.reason for e in enc.log)


# ------------------------------------------------------------------------------------ fear
@pytest.mark.parametrize(("variants", "face", "gone"), [({}, 12, True), ({}, 11, False),
                                                        ({"cmv_fear_save": "gm"}, None, False)])
def test_cmv_cond_23_fear_is_overcome_by_a_save(variants: dict[str, object], face: int | None, gone: bool) -> None:
    """CMV-COND-23 (proposed): a Will save (here d20 + Wis +0, shaken −2) against the fear's DC 10 at the end of
    each turn ends it; with cmv_fear_save = gm nothing is rolled."""
    enc = pair(aconds=("shaken:t:10",), tpos=(6, 6), dice=() if face is None else (face,), variants=variants)
    enc.act(ax.EndTurn())
    assert ("shaken" not in conditions(enc, "a")) is gone


def test_cmv_cond_24_shaken_minus_2_attacks_checks_saves() -> None:
    """CMV-COND-24 (derived): a shaken rogue: attack +6 → +4; Reflex +5 → +3; Stealth +8 → +6; death save −2."""
    rogue = stats("rogue", attack_bonus=6, skills={"stealth": 8}, attacks=[{"weapon": "club"}])
    enc = pair(aconds=("shaken",), attacker=rogue)
    assert bonus(enc, "a", "t") == 4
    assert save(enc, "a", "reflex", base=5) == 3
    assert sum(m.value for m in ruleset(enc).conditions.stealth(enc.creature("a"), enc.state.get("a"))[1]) == 6
    assert save(enc, "a", "death") == -2


def test_cmv_cond_24_variant_shaken_death_saves() -> None:
    """CMV-COND-24 (AMBIGUOUS): cmv_shaken_death_saves = false leaves death saves alone."""
    enc = pair(aconds=("shaken",), variants={"cmv_shaken_death_saves": False})
    assert save(enc, "a", "death") == 0


def fear_scene(cond: str, *, apos=(5, 5), rows=None, dice=()):
    return cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": list(apos), "conditions": [cond]},
                {"id": "t", "side": "f", "stats": T15, "position": [6, 5]}], rows=rows, dice=dice)


def test_cmv_cond_25_27_frightened_and_panicked_are_shaken() -> None:
    """CMV-COND-25, CMV-COND-27: frightened and panicked bring shaken with them."""
    assert "shaken" in conditions(fear_scene("frightened:t"), "a")
    assert "shaken" in conditions(fear_scene("panicked:t"), "a")


def test_cmv_cond_26_frightened_retreats_and_fights_only_if_cornered() -> None:
    """CMV-COND-26 (derived): not cornered, a move ending nearer the source is refused, and so is an attack;
    a move away is fine. Cornered (walls all round), it may fight, shaken (−2)."""
    enc = fear_scene("frightened:t", apos=(3, 5))
    assert_illegal(enc, ax.Move(to=(4, 5)), "may not move nearer to t")
    assert enc.check(ax.Move(to=(1, 5))) is None
    near = fear_scene("frightened:t")
    assert_illegal(near, ax.Attack("t"), "fights only if cornered")
    boxed = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1], "conditions": ["frightened:t"]},
                 {"id": "t", "side": "f", "stats": T15, "position": [2, 1]}], rows=["####", "#..#", "####"])
    assert boxed.check(ax.Attack("t")) is None and bonus(boxed, "a", "t") == 3
    charger = fear_scene("frightened:t", apos=(1, 5))
    assert_illegal(charger, ax.Charge("t"), "never charges")


def test_cmv_cond_28_panicked_flees_and_never_attacks() -> None:
    """CMV-COND-28 (proposed flee policy): a panicked creature never attacks; the AI moves it to the reachable
    square farthest from the source."""
    enc = fear_scene("panicked:t")
    assert_illegal(enc, ax.Attack("t"), "panicked")
    action = TacticalAI().choose(enc)
    assert isinstance(action, ax.Move) and action.to is not None
    assert abs(action.to[0] - 6) + abs(action.to[1] - 5) > 3


def test_cmv_cond_29_30_31_panicked_and_cornered_cowers() -> None:
    """CMV-COND-29, CMV-COND-30, CMV-COND-31 (derived): a panicked creature with no square farther from the
    source within its speed cowers: AC 15 with Dex +2 → 11, and no actions (its turn passes)."""
    nimble = armored("nimble", 3, dex=14)
    enc = cmv([{"id": "t", "side": "f", "stats": FIGHTER, "position": [2, 1]},
               {"id": "a", "side": "h", "stats": nimble, "position": [1, 1], "conditions": ["panicked:t"]},
               {"id": "b", "side": "h", "stats": FIGHTER, "position": [9, 9]}], rows=[
        "####......", "#.........", "####......", *["." * 10 for _ in range(7)]])
    enc.act(ax.EndTurn())  # t passes; a's turn starts cornered
    assert "cowering" in conditions(enc, "a")
    assert any(isinstance(e, ev.TurnEnded) and e.combatant == "a" and "cowering" in e.reason for e in enc.log)
    assert ac(enc, "t", "a") == 11


def test_cmv_cond_30_31_cowering_from_any_source() -> None:
    """CMV-COND-30, CMV-COND-31: cowering is off-guard (AC 16 with Dex +2 → 12) and takes no actions."""
    enc = pair(tconds=("cowering",), target=T16)
    assert ac(enc, "a", "t") == 12
    assert not ruleset(enc).injury.can_act(enc.creature("t"), enc.state.get("t"))


# ------------------------------------------------------------------------------------ combat
def test_cmv_cond_33_flanking_melee_only() -> None:
    """CMV-COND-33 (derived): a fighter and an ally on opposite sides of an orc: the fighter's melee attack
    +5 → +7; his thrown dagger (from 10 ft) stays +5."""
    enc = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
               {"id": "t", "side": "f", "stats": T15, "position": [2, 1]},
               {"id": "b", "side": "h", "stats": FIGHTER, "position": [3, 1]}])
    assert bonus(enc, "a", "t") == 7
    thrower = {**FIGHTER, "feats": ["precise_shot"]}
    far = cmv([{"id": "a", "side": "h", "stats": thrower, "position": [0, 1], "wielding": "dagger-thrown"},
               {"id": "t", "side": "f", "stats": T15, "position": [2, 1]},
               {"id": "b", "side": "h", "stats": FIGHTER, "position": [3, 1]}])
    assert bonus(far, "a", "t") == 5


@pytest.mark.parametrize(("ally", "pos", "flank"), [
    ({}, (3, 1), True),
    ({"conditions": ["unconscious"]}, (3, 1), False),   # a helpless ally does not threaten
    ({"wielding": "longbow"}, (3, 1), False),           # no melee weapon in hand
    ({}, (3, 0), False),                                # a knight's move: not the opposite side
    ({"conditions": ["dazed"]}, (3, 1), False),         # no actions: cannot attack into the square
])
def test_cmv_cond_34_ally_threatens_from_the_opposite_side(ally: dict[str, object], pos: tuple[int, int],
                                                            flank: bool) -> None:
    """CMV-COND-34 (proposed, PF1): the ally must threaten the opponent and stand on its opposite side; with the
    ally unconscious → no flanking."""
    enc = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
               {"id": "t", "side": "f", "stats": T15, "position": [2, 1]},
               {"id": "b", "side": "h", "stats": FIGHTER, "position": list(pos), **ally}])
    assert (bonus(enc, "a", "t") == 7) is flank


def test_cmv_cond_35_36_held_struggles_and_cannot_leave() -> None:
    """CMV-COND-35, CMV-COND-36 (derived, proposed): held in a net, a move out of its square is refused (a
    5-foot step too) and so is an attack; an escape attempt is allowed as its major action: d20 + the better
    of Str and Dex against the hold's DC (12 here)."""
    enc = pair(aconds=("held:12",), dice=(12,))
    assert_illegal(enc, ax.Move(to=(1, 4)), "held and cannot leave")
    assert_illegal(enc, ax.Step((1, 2)), "held")
    assert_illegal(enc, ax.Attack("t"), "held: it can only struggle")
    events = enc.act(Escape())
    assert "breaks free" in texts(events) and "held" not in conditions(enc, "a")
    assert_illegal(enc, Escape(), "not held")
    stuck = pair(aconds=("held",), dice=(14,))  # default DC 15
    stuck.act(Escape())
    assert "held" in conditions(stuck, "a")
    assert_illegal(stuck, Escape(), "standard action is already used")


def test_cmv_cond_36_variant_gm_allows_other_actions() -> None:
    """CMV-COND-36 (AMBIGUOUS 'mostly'): with cmv_held_other_actions the GM lets it attack; it still can't move."""
    enc = pair(aconds=("held",), variants={"cmv_held_other_actions": True})
    assert enc.check(ax.Attack("t")) is None
    assert_illegal(enc, ax.Move(to=(1, 4)), "held")


def test_cmv_cond_37_38_off_guard_minus_2_and_no_dex_bonus_to_ac_or_reflex() -> None:
    """CMV-COND-37, CMV-COND-38: −2 AC, positive Dex lost on AC and Reflex; a negative Dex stays."""
    enc = pair(tconds=("off-guard",), target=T16)
    assert ac(enc, "a", "t") == 12
    assert save(enc, "t", "reflex") == 0 and save(pair(target=T16), "t", "reflex") == 2
    clumsy = armored("clumsy", 7, dex=8)
    assert ac(pair(tconds=("off-guard",), target=clumsy), "a", "t") == 14
    assert save(pair(tconds=("off-guard",), target=clumsy), "t", "reflex") == -1


def test_cmv_cond_39_off_guard_cannot_take_reactions() -> None:
    """CMV-COND-39: an off-guard fighter makes no reaction attack when a foe walks away."""
    def run(conds: tuple[str, ...]):
        enc = cmv([{"id": "t", "side": "f", "stats": T15, "position": [2, 1]},
                   {"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1], "conditions": list(conds)}])
        enc.act(ax.Move(to=(5, 5)))
        return enc.pending

    assert run(("off-guard",)) is None
    assert run(()) is not None


def test_cmv_cond_40_41_surprised_wizard_is_off_guard_until_her_turn() -> None:
    """CMV-COND-40, CMV-COND-41 (derived): a surprised wizard (AC 13 with Dex +3; Reflex +4 with Dex +3) has
    AC 8 and Reflex +1 against the surprising attack, no reaction attacks until her first turn; then AC 13."""
    wizard = armored("wizard", 0, dex=16)
    enc = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
               {"id": "w", "side": "f", "stats": wizard, "position": [2, 1]}],
              surprise={"surprised": ["w"]})
    assert enc.state.surprise_round and "off-guard" in conditions(enc, "w")
    assert ac(enc, "a", "w") == 8
    assert save(enc, "w", "reflex", base=4) == 1
    assert not ruleset(enc).reactions.can_react(enc.creature("w"), enc.state.get("w"))
    enc.act(ax.EndTurn())  # the surprise round: the wizard cannot act and stays off-guard
    enc.act(ax.EndTurn()) if enc.state.turn and enc.state.turn.actor == "a" else None
    assert enc.state.turn is not None and enc.state.turn.actor == "w" and enc.state.round == 2
    assert "off-guard" not in conditions(enc, "w")
    assert ac(enc, "a", "w") == 13


def test_cmv_cond_40_an_unseen_attacker_surprises() -> None:
    """CMV-COND-40 (b, proposed): an attacker with total concealment relative to the defender (invisible)
    makes it off-guard against that attack; cmv_surprise_unseen_attacker = false turns this off."""
    enc = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1], "conditions": ["invisible"]},
               {"id": "t", "side": "f", "stats": T16, "position": [2, 1]}])
    plan = enc.plan_attack("a", "t")
    value, text = enc.target_ac(plan, enc.state)
    assert value == 12 and "unseen attacker" in text
    off = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1], "conditions": ["invisible"]},
               {"id": "t", "side": "f", "stats": T16, "position": [2, 1]}],
              variants={"cmv_surprise_unseen_attacker": False})
    assert ac(off, "a", "t") == 16


def test_cmv_cond_42_43_44_prone() -> None:
    """CMV-COND-42, CMV-COND-43, CMV-COND-44 (derived): prone AC 15 → 11 against melee, 19 against ranged; its own
    melee attack +5 → +1."""
    assert ac(pair(tconds=("prone",)), "a", "t") == 11
    archer = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0], "wielding": "longbow"},
                  {"id": "t", "side": "f", "stats": T15, "position": [4, 0], "conditions": ["prone"]}])
    assert ac(archer, "a", "t") == 19
    assert bonus(pair(aconds=("prone",)), "a", "t") == 1


def test_cmv_cond_45_prone_shoots_only_crossbows_and_stands_with_a_move_action() -> None:
    """CMV-COND-45 (derived, proposed PFB default): a longbow shot while prone is refused, a crossbow shot
    allowed; standing up is a minor (move) action and dropping prone a free one."""
    enc = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0], "wielding": "longbow",
                "conditions": ["prone"]},
               {"id": "t", "side": "f", "stats": T15, "position": [5, 0]}])
    assert_illegal(enc, ax.Attack("t", "longbow"), "crossbow")
    events = enc.act(ax.StandUp())
    assert any(isinstance(e, ev.BudgetSpent) and e.cost == "move" for e in events)
    events = enc.act(ax.DropProne())
    assert any(isinstance(e, ev.BudgetSpent) and e.cost == "free" for e in events)
    enc2 = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0], "wielding": "light-crossbow",
                 "conditions": ["prone"]},
                {"id": "t", "side": "f", "stats": T15, "position": [5, 0]}])
    assert enc2.check(ax.Attack("t", "light-crossbow")) is None


def test_cmv_allowance_records_what_conditions_take_away() -> None:
    """CMV-COND-05, CMV-COND-09, CMV-COND-36: the turn allowance names the condition that limits it."""
    enc = pair(aconds=("debilitated",))
    allow = enc.allowance("a")
    assert isinstance(allow, CmvAllowance) and allow.single_action and "debilitated" in allow.minor_only
