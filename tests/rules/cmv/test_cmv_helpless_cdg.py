"""CMV helpless defenders and the coup de grace (CMV-HELP, CMV-CDG). The sleeping guard of the worked
examples: AC 15 = 10 + armor 4 + Dex +1, hp 12, Con +1. The fighter: longsword +6 (BAB 3, Str 16: 1d8+3).
Forced dice: d20 attack, [d20 confirmation], damage, then the target's d20 death save."""

from __future__ import annotations

import pytest

from d20combat.encounter import actions as ax
from d20combat.numbers import total
from d20combat.rulesets.off_guard import CoupDeGrace

from ._util import ac, armored, assert_illegal, cmv, conditions, resolved, ruleset, stats, texts

GUARD = armored("guard", 4, dex=12, hp=12, abilities={"con": 12})
WATCH = {"id": "w", "side": "f", "stats": armored("watch", 2), "position": [10, 10], "conditions": ["stunned"]}
"""A foe who keeps the fight going (stunned: its turns pass by themselves, but it is not out of the fight)."""
KILLER = stats("killer", attack_bonus=3, abilities={"str": 16, "dex": 10},
               attacks=[{"weapon": "longsword"}, {"weapon": "light-crossbow"}, {"weapon": "club"}])


def guard_scene(dice=(), *, conds=("asleep",), hp: int | None = None, variants=None, kpos=(1, 1), gpos=(2, 1),
                weapon: str = "longsword", guard=GUARD):
    spec = {"id": "g", "side": "f", "stats": guard, "position": list(gpos), "conditions": list(conds)}
    if hp is not None:
        spec["hp"] = hp
        spec["starts_down"] = hp <= 0
    killer = {"id": "k", "side": "h", "stats": KILLER, "position": list(kpos), "wielding": weapon}
    return cmv([killer, spec, dict(WATCH)], dice=dice, variants=variants)


@pytest.mark.parametrize("cond", ["bound", "asleep", "paralyzed", "unconscious", "helpless", "dying", "stable"])
def test_cmv_help_01_who_is_helpless(cond: str) -> None:
    """CMV-HELP-01: bound, sleeping, paralyzed, unconscious — and so dying and stable creatures — are helpless."""
    enc = guard_scene(conds=(cond,))
    assert ruleset(enc).injury.is_helpless(enc.creature("g"), enc.state.get("g"))
    awake = guard_scene(conds=())
    assert not ruleset(awake).injury.is_helpless(awake.creature("g"), awake.state.get("g"))


def test_cmv_help_02_03_dex_counts_minus_5_and_minus_4_against_melee() -> None:
    """CMV-HELP-02, CMV-HELP-03 (derived): the sleeping guard: melee 10 + 4 − 5 − 4 = 5, ranged 10 + 4 − 5 = 9
    (a flat −9 would wrongly give 6). Dex −2, AC 12 → ranged 9, melee 5: the −5 replaces the −2."""
    enc = guard_scene()
    assert ac(enc, "k", "g") == 5
    archer = guard_scene(kpos=(0, 1), gpos=(3, 1), weapon="light-crossbow")
    assert ac(archer, "k", "g") == 9
    clumsy = armored("clumsy", 4, dex=6)
    enc2 = guard_scene(guard=clumsy)
    assert ac(enc2, "k", "g") == 5
    assert ac(guard_scene(guard=clumsy, kpos=(0, 1), gpos=(3, 1), weapon="light-crossbow"), "k", "g") == 9
    dex0 = armored("plain", 4)  # AC 14, Dex +0 → 5 melee (−9), 9 ranged (−5)
    assert ac(guard_scene(guard=dex0), "k", "g") == 5


@pytest.mark.parametrize(("variants", "expected"), [({}, 5), ({"cmv_helpless_off_guard_penalty": True}, 3)])
def test_cmv_help_04_worse_than_off_guard_without_its_minus_2(variants: dict[str, object], expected: int) -> None:
    """CMV-HELP-04 (derived): a bound prisoner with AC 15 (Dex +1) → 5 against melee, not 3; the variant
    cmv_helpless_off_guard_penalty adds off-guard's −2. Off-guard's other effects do apply: no Dex bonus on
    Reflex, no reactions."""
    enc = guard_scene(conds=("bound",), variants=variants)
    assert ac(enc, "k", "g") == expected
    rs = ruleset(enc)
    g, gs = enc.creature("g"), enc.state.get("g")
    assert total(0, rs.conditions.save_modifiers(g, gs, "reflex")).value == 0  # Dex +1 lost
    assert not rs.reactions.can_react(g, gs)


def test_cmv_cdg_01_full_round_action() -> None:
    """CMV-CDG-01: a coup de grace takes the standard and the move action; after a move it is refused, and a
    staggered killer (one action a turn) cannot deliver one. Refusals change nothing."""
    enc = guard_scene(kpos=(0, 1), gpos=(3, 1))
    enc.act(ax.Move(to=(2, 1)))
    assert_illegal(enc, CoupDeGrace("g"), "needs both the standard and the move action")
    low = cmv([{"id": "k", "side": "h", "stats": {**KILLER, "hp": 10}, "position": [1, 1], "hp": 0,
                "starts_down": True},
               {"id": "g", "side": "f", "stats": GUARD, "position": [2, 1], "conditions": ["asleep"]}, dict(WATCH)])
    assert "staggered" in conditions(low, "k")
    assert_illegal(low, CoupDeGrace("g"), "only one|full-round")
    enc2 = guard_scene(dice=(10, 5, 20))
    events = enc2.act(CoupDeGrace("g"))
    spent = [e for e in events if e.kind == "budget_spent"]
    assert spent and spent[0].cost == "full-round"  # type: ignore[attr-defined]


def test_cmv_cdg_02_melee_weapon_on_a_helpless_foe_in_reach() -> None:
    """CMV-CDG-02: only against a helpless opponent, within melee reach."""
    awake = guard_scene(conds=())
    assert_illegal(awake, CoupDeGrace("g"), "not helpless")
    far = guard_scene(kpos=(0, 1), gpos=(3, 1))
    assert_illegal(far, CoupDeGrace("g"), "beyond")


def test_cmv_cdg_03_projectile_only_from_an_adjacent_square() -> None:
    """CMV-CDG-03, CMV-CDG-05 (derived): a crossbow coup de grace from an adjacent square: AC 10 + 4 − 5 = 9 (no
    −4, which is against melee), attack at +4; one square away there is no coup de grace, only an ordinary
    shot at AC 9."""
    enc = guard_scene(dice=(5, 3, 1), weapon="light-crossbow")  # 5 + 0 + 4 = 9 ≥ 9 → hit
    attack = resolved(enc.act(CoupDeGrace("g")))
    assert attack.hit and "coup de grace 4" in attack.lines[-1] and "AC 9" in attack.lines[-1]
    far = guard_scene(kpos=(0, 1), gpos=(2, 1), weapon="light-crossbow")
    assert_illegal(far, CoupDeGrace("g"), "only from an adjacent square")
    assert ac(far, "k", "g") == 9
    thrown = guard_scene(weapon="club")
    thrown_dagger = cmv([{"id": "k", "side": "h", "stats": stats("t", attacks=[{"weapon": "dagger-thrown"}]),
                          "position": [1, 1]},
                         {"id": "g", "side": "f", "stats": GUARD, "position": [2, 1], "conditions": ["asleep"]},
                         dict(WATCH)])
    assert_illegal(thrown_dagger, CoupDeGrace("g"), "neither a melee nor a projectile")
    assert thrown.check(CoupDeGrace("g")) is None


@pytest.mark.parametrize(("face", "hit"), [(1, False), (2, True)])
def test_cmv_cdg_04_an_attack_roll_at_plus_4_not_an_automatic_hit(face: int, hit: bool) -> None:
    """CMV-CDG-04 (derived): natural 1 → miss (the inherited core); d20 2 → 2 + 6 + 4 = 12 ≥ 5 → hit."""
    enc = guard_scene(dice=(face, 6, 1))
    events = enc.act(CoupDeGrace("g"))
    attack = resolved(events)
    assert attack.hit is hit
    assert "coup de grace 4" in attack.lines[-1]
    assert ("dead" in conditions(enc, "g")) is hit


@pytest.mark.parametrize(("variants", "expected"), [({}, "AC 5"), ({"cmv_cdg_flat_minus_nine": True}, "AC 6")])
def test_cmv_cdg_05_the_text_minus_9_is_not_applied_flat(variants: dict[str, object], expected: str) -> None:
    """CMV-CDG-05: the helpless rules give the guard AC 5 (Dex +1 counts −5, −4 melee), not the text's flat
    −9 (→ 6), which the variant cmv_cdg_flat_minus_nine applies."""
    enc = guard_scene(dice=(10, 1, 20), variants=variants)
    attack = resolved(enc.act(CoupDeGrace("g")))
    assert expected in attack.lines[-1]


def test_cmv_cdg_06_a_hit_kills_unless_the_death_save_succeeds() -> None:
    """CMV-CDG-06: even a 4-damage hit on an unhurt guard kills it if the death save (DC 14) fails."""
    enc = guard_scene(dice=(10, 1, 2))  # damage 1d8 1 + 3 = 4; save 2 + 1 = 3 < 14
    events = enc.act(CoupDeGrace("g"))
    assert "dead" in conditions(enc, "g")
    assert "DC 14" in texts(events) and "slain by a coup de grace" in texts(events)
    assert ruleset(enc).injury.health(enc.creature("g"), enc.state.get("g")).value == "dead"


@pytest.mark.parametrize(("save", "dead"), [(12, True), (18, False)])
def test_cmv_cdg_07_death_save_dc_10_plus_damage(save: int, dead: bool) -> None:
    """CMV-CDG-07, CMV-CDG-08, CMV-CDG-09 (derived): damage taken 5, the coup de grace hits (d20 2) for 1d8 6 + 3
    = 9 → DC 19. Guard d20 12 → 13 < 19 → dead; d20 18 → 19 → survives, staggered, damage 5 + 9 = 14
    lowered to 12."""
    enc = guard_scene(dice=(2, 6, save), hp=7)
    events = enc.act(CoupDeGrace("g"))
    assert "DC 19" in texts(events) and f"d20 {save} + Con 1" in texts(events)
    assert ("dead" in conditions(enc, "g")) is dead
    if not dead:
        assert enc.state.get("g").hp == 0  # damage taken = hp 12
        assert "staggered" in conditions(enc, "g") and "staggered" in enc.state.get("g").conditions


@pytest.mark.parametrize(("variants", "dead"), [({}, False), ({"cmv_death_save_bonus": "none"}, True)])
def test_cmv_cdg_07_variant_death_save_bonus(variants: dict[str, object], dead: bool) -> None:
    """CMV-CDG-07 (MISSING bonus): d20 + Con by default (18 + 1 = 19 passes DC 19); a plain d20 with
    cmv_death_save_bonus = none (18 < 19)."""
    enc = guard_scene(dice=(2, 6, 18), hp=7, variants=variants)
    enc.act(CoupDeGrace("g"))
    assert ("dead" in conditions(enc, "g")) is dead


def test_cmv_cdg_08_09_survivor_damage_is_raised_to_hp() -> None:
    """CMV-CDG-08, CMV-CDG-09 (derived): the unhurt guard survives a 6-damage coup de grace → damage set to 12
    (raised from 6) → staggered."""
    enc = guard_scene(dice=(10, 3, 20))
    enc.act(CoupDeGrace("g"))
    gs = enc.state.get("g")
    assert gs.hp == 0 and "staggered" in conditions(enc, "g") and "dead" not in conditions(enc, "g")


@pytest.mark.parametrize(("variants", "still_dying"), [({}, False), ({"cmv_cdg_survivor_keeps_state": True}, True)])
def test_cmv_cdg_09_dying_survivor_wakes_up_or_keeps_dying(variants: dict[str, object], still_dying: bool) -> None:
    """CMV-CDG-09 (AMBIGUOUS): a dying guard that survives has damage = hp: no longer above hp, so by default it
    is conscious and staggered; cmv_cdg_survivor_keeps_state keeps it dying."""
    enc = guard_scene(dice=(10, 3, 20), conds=("dying",), hp=-2, variants=variants)
    enc.act(CoupDeGrace("g"))
    got = conditions(enc, "g")
    assert ("dying" in got) is still_dying
    assert enc.state.get("g").hp == 0
    assert ruleset(enc).injury.is_helpless(enc.creature("g"), enc.state.get("g")) is still_dying


def test_cmv_cdg_10_massive_or_bizarre_creatures() -> None:
    """CMV-CDG-10: a creature marked immune cannot be slain by a coup de grace; a DC modifier raises the save."""
    immune = guard_scene(conds=("asleep", "cdg_immune"))
    assert_illegal(immune, CoupDeGrace("g"), "cannot be slain so")
    tough = guard_scene(dice=(10, 1, 20), conds=("asleep", "cdg_dc:-5"))
    events = tough.act(CoupDeGrace("g"))
    assert "DC 9" in texts(events)  # 10 + 4 damage − 5


@pytest.mark.parametrize(("variants", "pct", "struck"), [({}, None, True),
                                                         ({"cmv_cdg_find_removes_miss_chance": False}, 50, False)])
def test_cmv_cdg_11_total_concealment_find_then_strike(variants: dict[str, object], pct: int | None,
                                                       struck: bool) -> None:
    """CMV-CDG-11 (derived): an invisible sleeping guard: turn 1 "find" (a full-round action); turn 2 the coup
    de grace, with no miss chance by default (with the variant: the 50 % remains, d% 50 → miss)."""
    dice = [10, 1, 2] if pct is None else [10, pct]
    enc = guard_scene(dice=dice, conds=("asleep", "invisible"), variants=variants)
    assert_illegal(enc, CoupDeGrace("g"), "name the square")
    events = enc.act(CoupDeGrace("g", square=(2, 1)))
    assert not any(e.kind == "attack_resolved" for e in events) and "gropes" in texts(events)
    assert enc.check(ax.Attack("g", square=(2, 1))) is not None  # the whole round is spent
    enc.act(ax.EndTurn())
    assert enc.state.turn is not None and enc.state.turn.actor == "k"
    events = enc.act(CoupDeGrace("g", square=(2, 1)))
    assert resolved(events).hit is struck
    assert ("dead" in conditions(enc, "g")) is struck


def test_cmv_cdg_11_a_wrong_find_is_a_plain_miss() -> None:
    """CMV-CDG-11, CMV-CONC-14: searching the wrong square and striking there next turn is only 'misses'."""
    enc = guard_scene(dice=[18, 90], conds=("asleep", "invisible"))
    enc.act(CoupDeGrace("g", square=(1, 2)))
    enc.act(ax.EndTurn())
    attack = resolved(enc.act(CoupDeGrace("g", square=(1, 2))))
    assert not attack.hit and attack.lines[-1] == "  misses"


def test_cmv_cdg_critical_coup_de_grace_raises_the_dc() -> None:
    """CMV-CDG-07 (derived): a natural 20 confirmed under the inherited PFB crit rule, ×2 damage = 18 → DC 28."""
    brute = stats("brute", attack_bonus=3, abilities={"str": 16}, attacks=[{"weapon": "club"}])
    enc = cmv([{"id": "k", "side": "h", "stats": brute, "position": [1, 1]},
               {"id": "g", "side": "f", "stats": GUARD, "position": [2, 1], "conditions": ["asleep"]}, dict(WATCH)],
              dice=(20, 15, 6, 6, 20))
    events = enc.act(CoupDeGrace("g"))
    assert resolved(events).critical and "DC 28" in texts(events)
