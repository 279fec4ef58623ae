"""WOA part 1's last rule IDs (W8): the attack of opportunity as a combat reaction, the full attack, surprise
attacks (no dodge or block; improved uncanny dodge), the hidden weapon's first attack, Improved Feint as a swift
action, the readying creature's distraction and the DM's concentration check for extended readying."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules._builders import stats
from tests.rules.woa._react import answer, fighter, orc, prompt, spent
from tests.rules.woa._util import HERO, declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.encounter.gm_actions import GmCheck, GmCondition
from d20combat.rulesets.worlds_of_adventure.attack import FullAttack
from d20combat.rulesets.worlds_of_adventure.feint import FEINTED, Feint
from d20combat.rulesets.worlds_of_adventure.items import DrawHidden
from d20combat.rulesets.worlds_of_adventure.ready import Ready


def attacks(events: list[ev.Event]) -> list[ev.AttackResolved]:
    return [e for e in events if isinstance(e, ev.AttackResolved)]


# --- WOA-ATK-03: an attack of opportunity is a combat reaction ------------------------------------------------------
def test_woa_atk_03_an_attack_of_opportunity_spends_a_combat_reaction() -> None:
    """WOA-ATK-03: the orc (BAB +3: one combat reaction) attacks the disengaging hero as a combat reaction — the
    reactions' pool pays for it — so when the hero disengages a second time the orc has none left and is not asked."""
    enc = woa([who("hero", fighter("hero", bab=3), "heroes", (2, 2)), who("orc", orc(), "monsters", (3, 2))],
              [20, 1, 10, 2])
    declare_all(enc, ax.Declare(standard="move", move="move"))
    enc.act(ax.Move(to=(0, 2)))
    assert prompt(enc).reactor == "orc" and prompt(enc).kind == "attack_of_opportunity"
    events = answer(enc, orc="attack")
    paid = spent(events, "orc")
    assert [e.pool for e in paid] == ["reactions"] and paid[0].reaction.endswith("0 reactions left")
    enc.act(ax.Move(path=((1, 1), (2, 1), (1, 0))))  # back into its reach, and out again: it provokes…
    assert enc.pending is None  # …but the orc's combat reaction is spent
    assert enc.state.get("hero").position == (1, 0)


# --- WOA-ACT-11: the full attack -------------------------------------------------------------------------------------
def test_woa_act_11_the_full_attack_is_the_full_round_action_of_several_attacks() -> None:
    """WOA-ACT-11: the full attack — several melee attacks in one round — is a full-round action: at BAB +6 it gives
    two attacks, and neither the standard nor the move action is left."""
    enc = woa([who("hero", stats("hero", hp=30, attack_bonus=6, attacks=[{"weapon": "club"}]), "heroes", (0, 1)),
               who("foe", stats("foe", hp=200, attacks=[{"weapon": "club"}]), "monsters", (1, 1))],
              [20, 1, 10, 3, 10, 3])
    declare_all(enc, ax.Declare(full_round="full_attack", target="foe"))
    first = enc.act(FullAttack("foe"))
    turn = enc.state.turn
    assert turn is not None and not turn.standard and not turn.move
    assert any("full-round" in e.cost for e in first if isinstance(e, ev.BudgetSpent))
    enc.act(FullAttack("foe"))
    assert len(attacks(list(enc.log))) == 2


# --- WOA-ITEM-09, WOA-CYCLE-12/13: a hidden weapon's first attack is a surprise attack ------------------------------
def guard(**kw: Any) -> dict[str, Any]:
    """A warrior 4 orc with Dex 14 (AC 12) holding a club: it could block or dodge (½ warrior 4 = 2)."""
    return orc(warrior=4, abilities={"dex": 14}, hp=40, **kw)


def cutpurse() -> dict[str, Any]:
    return stats("cutpurse", hp=30, attack_bonus=1, abilities={"dex": 10}, saves={"ref": 1},
                 attacks=[{"weapon": "longsword"}, {"weapon": "dagger"}])


def hidden_draw(foe: dict[str, Any]) -> Encounter:
    enc = woa([who("cutpurse", cutpurse(), "heroes", (2, 2)), who("orc", foe, "monsters", (3, 2))], [15, 5, 12, 2],
              variants={"woa_hidden_draw_action": "move"})
    declare_all(enc, ax.Declare(standard="attack", move="move", target="orc"))
    assert enc.state.actor == "cutpurse"
    enc.act(DrawHidden("dagger"))
    return enc


def test_woa_item_09_cycle_12_the_hidden_weapons_first_attack_is_a_surprise() -> None:
    """WOA-ITEM-09: the first attack with the just-drawn hidden dagger is a surprise attack: the orc loses its Dex
    bonus to AC (12 → 10) and — WOA-CYCLE-12 — cannot dodge or block it (it is not even asked, though a warrior 4 with
    a club and a reaction left could); the attack made, the dagger is no surprise any more."""
    enc = hidden_draw(guard())
    events = enc.act(ax.Attack("orc"))
    assert enc.pending is None and not spent(events, "orc")
    line = "\n".join(attacks(events)[0].lines)
    assert "vs AC 10 (10)" in line  # no Dex 2
    assert not enc.state.get("cutpurse").has("drew_hidden:dagger")
    assert any(isinstance(e, ev.ConditionSet) and "WOA-ITEM-09" in e.reason for e in events)


def test_woa_cycle_12_an_expected_attack_may_be_dodged_or_blocked() -> None:
    """WOA-CYCLE-12, the other way: the same orc against an ordinary attack is asked (dodge, block or none)."""
    enc = woa([who("cutpurse", cutpurse(), "heroes", (2, 2)), who("orc", guard(), "monsters", (3, 2))], [15, 5, 12])
    declare_all(enc, ax.Declare(standard="attack", target="orc"))
    enc.act(ax.Attack("orc"))
    assert prompt(enc).reactor == "orc" and {"dodge", "block"} <= set(prompt(enc).options)


def test_woa_cycle_13_improved_uncanny_dodge_keeps_the_full_ac() -> None:
    """WOA-CYCLE-13: with improved uncanny dodge the orc keeps its Dex bonus against the surprise attack (AC 12); the
    reactions stay barred (WOA-CYCLE-12 — the ability speaks of AC only)."""
    enc = hidden_draw(guard(feats=["improved_uncanny_dodge"]))
    events = enc.act(ax.Attack("orc"))
    assert enc.pending is None
    line = "\n".join(attacks(events)[0].lines)
    assert "vs AC 12 (10 + Dex 2)" in line


# --- WOA-FEINT-04: Improved Feint -------------------------------------------------------------------------------------
def duel(hero: dict[str, Any], dice: list[int]) -> Encounter:
    duelist = stats("duelist", hp=20, attack_bonus=2, abilities={"dex": 14, "wis": 12}, dodge_bonus=1,
                    attacks=[{"weapon": "club"}])
    enc = woa([who("hero", hero, "heroes", (2, 2)), who("foe", duelist, "monsters", (3, 2))], dice)
    declare_all(enc, ax.Declare(standard="attack", move="move", target="foe"))
    return enc


def test_woa_feint_04_improved_feint_is_a_swift_action() -> None:
    """WOA-FEINT-04: with Improved Feint the feint is a swift action: not declared, it spends the hero's combat
    reaction (BAB +5: one) and leaves the move action; without a reaction left a second one is refused."""
    hero = stats("hero", hp=30, attack_bonus=5, abilities={"dex": 14}, saves={"ref": 4},
                 attacks=[{"weapon": "longsword"}], feats=["improved_feint"])
    enc = duel(hero, [10, 3, 15, 5])
    events = enc.act(Feint(target="foe"))
    turn = enc.state.turn
    assert turn is not None and turn.move and turn.standard
    assert [e.pool for e in spent(events, "hero")] == ["reactions"]
    assert enc.state.get("hero").reactions["reactions"] == 0
    assert enc.state.get("foe").has(FEINTED)
    with pytest.raises(IllegalAction, match="combat reaction"):
        enc.act(Feint(target="foe"))


def test_woa_feint_04_without_the_feat_a_feint_is_a_declared_move_action() -> None:
    """WOA-FEINT-04, the other way: without Improved Feint the undeclared feint is refused (WOA-FEINT-01/CYCLE-21)."""
    enc = duel(HERO, [10, 3])
    with pytest.raises(IllegalAction, match="declared"):
        enc.act(Feint(target="foe"))


# --- WOA-INIT-18/19: readying distracts; extended readying -----------------------------------------------------------
def readier(dice: list[int]) -> Encounter:
    sentry = stats("sentry", hp=30, attack_bonus=3, abilities={"wis": 12}, skills={"perception": 4,
                   "concentration": 2}, attacks=[{"weapon": "longsword"}])
    enc = woa([who("sentry", sentry, "heroes", (2, 2)), who("orc", orc(), "monsters", (3, 2))], [20, 1, *dice])
    declare_all(enc, ax.Declare(standard="ready", target="orc"))
    enc.act(Ready(trigger="orc"))
    return enc


def check_line(events: list[ev.Event]) -> ev.SaveRolled:
    return next(e for e in events if isinstance(e, ev.SaveRolled))


def test_woa_init_18_a_readying_creature_is_distracted() -> None:
    """WOA-INIT-18: readying, the sentry makes its Perception check at −5: d20 10 + 4 − 5 = 9 (DC 10 fails); before
    readying the same roll makes 14."""
    enc = woa([who("sentry", stats("sentry", hp=30, skills={"perception": 4}, attacks=[{"weapon": "club"}]),
                   "heroes", (2, 2)), who("orc", orc(), "monsters", (3, 2))], [20, 1, 10])
    declare_all(enc, ax.Declare(standard="attack", target="orc"))
    calm = check_line(enc.gm(GmCheck("sentry", "perception", 10)))
    assert calm.total == 14 and calm.success
    ready = readier([10])
    tense = check_line(ready.gm(GmCheck("sentry", "perception", 10)))
    assert tense.total == 9 and not tense.success and "WOA-INIT-18" in tense.explanation


def notes(enc: Encounter) -> list[str]:
    return [e.text for e in enc.log if isinstance(e, ev.Note)]


@pytest.mark.parametrize(("face", "kept"), [(5, False), (13, True)])
def test_woa_init_19_the_dm_calls_a_concentration_check_for_extended_readying(face: int, kept: bool) -> None:
    """WOA-INIT-19 (the DM's call): the GM sets ``ready_check:15`` on the readying sentry; when the next turn starts —
    the orc's, its trigger — the sentry makes concentration d20 + 2 against DC 15 before the trigger fires: 5 + 2 fails
    (no longer readied, no readied attack), 13 + 2 keeps it (the readied attack fires)."""
    enc = readier([face, 10, 3])
    enc.gm(GmCondition("sentry", "ready_check:15"))
    enc.act(ax.EndTurn())
    while enc.pending is not None:
        enc.respond(enc.pending.prompt.options[-1])
    assert any("DC 15 = the DM's DC" in n and "WOA-INIT-19" in n and ("kept" if kept else "no longer readied") in n
               for n in notes(enc))
    assert not enc.state.get("sentry").has("ready_check:15")
    fired = [a for a in attacks(list(enc.log)) if a.attacker == "sentry"]
    assert bool(fired) is kept


def test_woa_init_19_a_bad_dc_is_named_and_changes_nothing() -> None:
    """WOA-INIT-19: ``ready_check:hard`` is no DC — said, lifted, and the sentry stays readied."""
    enc = readier([10, 3])
    enc.gm(GmCondition("sentry", "ready_check:hard"))
    enc.act(ax.EndTurn())
    while enc.pending is not None:
        enc.respond(enc.pending.prompt.options[-1])
    assert any("'ready_check:hard' ignored — the DC must be a whole number" in n for n in notes(enc))
    assert [a for a in attacks(list(enc.log)) if a.attacker == "sentry"]


# --- WOA-INIT-21: readying against a spellcaster -----------------------------------------------------------------
def test_woa_init_21_a_readied_attack_disrupts_the_caster() -> None:
    """WOA-INIT-21 with WOA-SPELL-11: the orc readies an attack for when the wizard starts casting — in the engine,
    when the wizard (who declared a casting) starts its turn; the club hits for 4 and the wizard's casting then needs
    concentration at DC 10 + 4 + 2 × 1 = 16: 7 + 8 = 15 fails, the magic missile fizzles."""
    from tests.rules.woa.test_woa_spells import BRUTE, WIZ

    from d20combat.rulesets.worlds_of_adventure.spells import CastSpell

    enc = woa([who("wizard", WIZ, "heroes", (2, 2)), who("orc", BRUTE, "monsters", (3, 2))], [5, 15, 15, 4, 7])
    declare_all(enc, ax.Declare(standard="cast_spell", move="move"), ax.Declare(standard="ready", target="wizard"))
    assert enc.state.actor == "orc"
    enc.act(Ready(trigger="wizard"))
    enc.act(ax.EndTurn())
    assert enc.state.actor == "wizard" and enc.state.get("wizard").hp == 26
    events = enc.act(CastSpell("magic_missile", "orc"))
    (check,) = [e for e in events if isinstance(e, ev.SaveRolled) and e.check == "concentration"]
    assert check.dc == 16 and check.total == 15 and not check.success
    assert enc.state.get("orc").hp == 60


# --- WOA-CHARGE-17: what applies to a charge applies to an alternative charge -------------------------------------
def test_woa_charge_17_an_alternative_charge_is_a_charge_for_what_applies_to_charges() -> None:
    """WOA-CHARGE-17: after swinging on the chandelier the hero has charged (``charged``: "alternative charge", the
    question charge feats ask), so the short step after a charge is refused as after any charge (WOA-CHARGE-07); a
    new round lifts it."""
    from tests.rules.woa.test_woa_charge import swing

    from d20combat.rulesets.worlds_of_adventure.charge import AlternativeCharge, charged

    enc = swing([10, 3, 8, 4])
    assert charged(enc.state.get("hero")) is None
    enc.act(AlternativeCharge(target="orc", to=(5, 3), how="swings on the chandelier"))
    assert charged(enc.state.get("hero")) == "alternative charge"
    with pytest.raises(IllegalAction, match="an alternative charge too, WOA-CHARGE-17"):
        enc.act(ax.Step(to=(4, 3)))


# --- WOA-REACT-27: feats that modify the block value ---------------------------------------------------------------
@pytest.mark.parametrize(("extra", "dr", "why"), [
    ({"weapon": "longsword", "attributes": {"weapon_block_bonus": 2}}, 4, "+ 2 Two-Weapon Defense (WOA-REACT-27)"),
    ({"weapon": "longsword", "shield": "heavy-steel-shield", "attributes": {"shield_block_bonus": 1}}, 7,
     "+ 1 Shield Focus/Specialization (WOA-REACT-27)"),
    ({"weapon": "longsword"}, 2, ""),
])
def test_woa_react_27_feats_modify_the_block_value(extra: dict[str, Any], dr: int, why: str) -> None:
    """WOA-REACT-27 (MISSING: the feat details): the amounts the feats give are the stat block's
    ``weapon_block_bonus`` (Two-Weapon Defense: ⅓ × 8 + 2 = 4) and ``shield_block_bonus`` (Shield Focus /
    Specialization: ½ × 8 + shield 2 + 1 = 7), added to the block with what they apply to and explained."""
    from tests.rules.woa._react import hero_vs_orc, orc_first

    attrs = {"warrior_level": 8} | extra.pop("attributes", {})
    enc = hero_vs_orc(fighter("hero", attributes=attrs, **extra), [1, 20, 18, 6], orc_block=orc(bab=10))
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    assert f"block: DR {dr} " in prompt(enc).detail and why in prompt(enc).detail
    hit = [e for e in enc.respond("block") if isinstance(e, ev.Damaged)]
    assert hit[0].amount == max(6 - dr, 0)


def test_woa_react_27_a_negative_feat_bonus_is_refused() -> None:
    """WOA-REACT-27: a negative ``weapon_block_bonus`` is named, and the attack does not happen."""
    from tests.rules.woa._react import hero_vs_orc, orc_first

    enc = hero_vs_orc(fighter("hero", attributes={"warrior_level": 8, "weapon_block_bonus": -1}), [1, 20, 18, 6],
                      orc_block=orc(bab=10))
    orc_first(enc)
    with pytest.raises(IllegalAction, match="weapon_block_bonus: -1 is negative"):
        enc.act(ax.Attack("hero"))
    assert enc.state.get("hero").hp == 30


# --- WOA-MOVE-05, WOA-MOVE-25, WOA-CYCLE-27: what hampers movement; a round's time --------------------------------
def test_woa_move_05_difficult_terrain_hampers_movement() -> None:
    """WOA-MOVE-05: difficult terrain hampers movement — 30 ft of speed crosses 3 squares of rubble (10 ft each)
    where it would cross 6 open ones."""
    enc = woa([who("hero", HERO, "heroes", (0, 0)), who("orc", orc(), "monsters", (13, 2))], [20, 1],
              rows=["~" * 14, "." * 14, "." * 14])
    declare_all(enc, ax.Declare(standard="move", move="move"))
    with pytest.raises(IllegalAction):
        enc.act(ax.Move(path=((1, 0), (2, 0), (3, 0), (4, 0))))
    enc.act(ax.Move(path=((1, 0), (2, 0), (3, 0))))
    enc.act(ax.Move(path=((3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 1))))
    assert enc.state.get("hero").position == (8, 1)


def test_woa_cycle_27_move_25_a_round_is_6_seconds_and_a_run_about_12_mph() -> None:
    """WOA-CYCLE-27: a round is 6 seconds — a minute is 10 rounds, 8 seconds take 2; a negative span is refused.
    WOA-MOVE-25 (descriptive): the engine's run — 120 ft a round for a 30-ft human (4 × speed, WOA-MOVE-17; 125 ft is
    refused) — is 120 ft / 6 s ≈ 13.6 mph, "about 12 mph"."""
    from d20combat.rulesets.components import RuleError
    from d20combat.rulesets.worlds_of_adventure.economy import ROUND_SECONDS, rounds_of
    from d20combat.rulesets.worlds_of_adventure.run import Run

    assert (rounds_of(60), rounds_of(8), rounds_of(6), rounds_of(0)) == (10, 2, 1, 0)
    with pytest.raises(RuleError, match="-6 seconds is negative"):
        rounds_of(-6)
    enc = woa([who("hero", HERO, "heroes", (0, 0)), who("orc", orc(), "monsters", (29, 2))], [20, 1],
              width=30, height=3)
    declare_all(enc, ax.Declare(full_round="run"))
    assert enc.check(Run(to=(25, 0))) is not None and enc.check(Run(to=(24, 0))) is None
    mph = 24 * 5 / ROUND_SECONDS * 3600 / 5280
    assert 12 <= mph < 14


@pytest.mark.parametrize(("extra", "shield_hit"), [
    ({"weapon": "longsword", "shield": "heavy-steel-shield"}, True),
    ({"weapon": "greatsword"}, False),
])
def test_woa_react_25_a_shield_block_exposes_the_shield(extra: dict[str, Any], shield_hit: bool) -> None:
    """WOA-REACT-25: a block with the shield subjects the shield to the attack's detrimental effects (said, for the
    GM's item rules); a block with a weapon does not."""
    from tests.rules.woa._react import hero_vs_orc, orc_first

    enc = hero_vs_orc(fighter("hero", warrior=8, **extra), [1, 20, 18, 6], orc_block=orc(bab=10))
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    events = enc.respond("block")
    said = [e.text for e in events if isinstance(e, ev.Note) and "WOA-REACT-25" in e.text]
    assert bool(said) is shield_hit
    if shield_hit:
        assert said[0].startswith("hero's shield takes orc's club")


@pytest.mark.parametrize(("path", "bonus"), [(((2, 1), (3, 1)), True), (((2, 1),), False)])
def test_woa_aoo_24_wind_stance_after_moving_10_ft(path: tuple[tuple[int, int], ...], bonus: bool) -> None:
    """WOA-AOO-24 (AMBIGUOUS threshold: 10 ft; MISSING amount: the stat block's ``wind_stance_ac``): the hero moves
    10 ft within the orc's reach — the orc's attack meets AC 12 with Wind Stance +2; after 5 ft, AC 10."""
    from tests.rules.woa._react import hero_vs_orc

    hero = fighter("hero", attributes={"wind_stance_ac": 2})
    enc = hero_vs_orc(hero, [20, 1, 10, 3])
    declare_all(enc, ax.Declare(move="move"), ax.Declare(standard="attack", target="hero"))
    assert enc.state.actor == "hero"
    enc.act(ax.Move(path=path))
    assert enc.pending is None
    enc.act(ax.EndTurn())
    events = enc.act(ax.Attack("hero"))
    line = "\n".join(attacks(events)[-1].lines)
    assert ("vs AC 12 (10 + Wind Stance: moved 10 ft this round (WOA-AOO-24) 2)" in line) is bonus
    assert ("vs AC 10" in line) is not bonus


@pytest.mark.parametrize(("min_ft", "bonus"), [(10, False), (5, True)])
def test_woa_aoo_24_option_wind_stance_after_any_move(min_ft: int, bonus: bool) -> None:
    """WOA-AOO-24 (AMBIGUOUS, option ``woa_wind_stance_min_ft``): after a 5-ft move Wind Stance gives nothing under
    the default reading (10 ft), its +2 under the other (any move)."""
    from tests.rules.woa._react import hero_vs_orc

    hero = fighter("hero", attributes={"wind_stance_ac": 2})
    enc = hero_vs_orc(hero, [20, 1, 10, 3], variants={"woa_wind_stance_min_ft": min_ft})
    declare_all(enc, ax.Declare(move="move"), ax.Declare(standard="attack", target="hero"))
    enc.act(ax.Move(path=((2, 1),)))
    enc.act(ax.EndTurn())
    line = "\n".join(attacks(enc.act(ax.Attack("hero")))[-1].lines)
    assert ("Wind Stance: moved 5 ft this round (WOA-AOO-24) 2" in line) is bonus
