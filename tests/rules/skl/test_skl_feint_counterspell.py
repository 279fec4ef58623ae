"""SKL feint (SKL-FEINT-01..05) and counterspell (SKL-CSPL-01..07)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.skl.helpers import attacks, damage, duel, encounter, fighter, illegal, notes, resolve, sheet

from d20combat.controllers import TacticalAI
from d20combat.encounter import events as ev
from d20combat.encounter.actions import Attack, EndTurn
from d20combat.rulesets.skill_based import CastSpell, Feint


def feinter(**kw: Any) -> dict[str, Any]:
    """Sword skill 5, Int +1 (a feint at +6)."""
    kw.setdefault("skills", {"sword": 5})
    return sheet("a", int=1, **kw)


DEFENDER = sheet("b", skills={"defense": 3, "sword": 2}, wis=2)  # resists a feint at +5


# ---------------------------------------------------------------------------- FEINT
def test_skl_feint_01_only_against_a_foe_you_threaten() -> None:
    """SKL-FEINT-01 (MISSING "engaged": a threatened target; worked example): a foe 10 ft away from a sword is
    refused; a longspear, which threatens 10 ft away, may feint it."""
    enc = duel(feinter(), DEFENDER, b_at=(3, 1))
    assert "not engaged in melee" in illegal(enc, Feint("b"))
    spear = feinter(skills={"spear": 5}, weapon="longspear")
    assert duel(spear, DEFENDER, b_at=(3, 1)).check(Feint("b")) is None
    assert "not an enemy" in illegal(encounter([
        {"id": "a", "side": "x", "stats": feinter(), "position": [1, 1]},
        {"id": "c", "side": "x", "stats": sheet("c"), "position": [2, 1]},
        {"id": "b", "side": "y", "stats": DEFENDER, "position": [9, 9]}]), Feint("c"))


def test_skl_feint_02_a_feint_costs_the_complex_action() -> None:
    """SKL-FEINT-02 (worked example): a feint after an attack this round is refused; a feint is a complex action."""
    enc = duel(feinter(), DEFENDER, dice=[2])
    resolve(enc, Attack("b"))
    assert "no complex action left" in illegal(enc, Feint("b"))
    enc = duel(feinter(), DEFENDER, dice=[1, 20])
    events = resolve(enc, Feint("b"))
    assert [(e.action, e.cost) for e in events if isinstance(e, ev.BudgetSpent)] == [("feint b", "complex")]


def test_skl_feint_03_feinter_rolls_weapon_skill_plus_intelligence() -> None:
    """SKL-FEINT-03: d20 + the wielded weapon's skill + Int."""
    enc = duel(feinter(), DEFENDER, dice=[10, 11])
    assert "16 = d20 10 + sword skill 5 + Int 1" in notes(resolve(enc, Feint("b")))[0]


@pytest.mark.parametrize(("face", "tie_variant", "wins"), [(10, False, False), (12, False, True), (10, True, True),
                                                         (9, True, False)])
def test_skl_feint_04_defender_rolls_defense_plus_wisdom_and_wins_ties(face: int, tie_variant: bool,
                                                                       wins: bool) -> None:
    """SKL-FEINT-04 (AMBIGUOUS; worked example): 16 vs Defense 3 + Wis 2 + d20 11 = 16 → a tie fails; 18 > 16
    succeeds. ``skl_feint_tie_succeeds`` gives ties to the feinter."""
    enc = duel(feinter(), DEFENDER, dice=[face, 11], variants={"skl_feint_tie_succeeds": tie_variant})
    text = notes(resolve(enc, Feint("b")))[0]
    assert "16 = d20 11 + Defense skill 3 + Wis 2" in text
    assert ("succeeds" in text) is wins
    assert any(e.name == "feinted by a" for e in enc.state.get("b").effects) is wins


def test_skl_feint_05_the_feinters_next_attack_cannot_be_blocked_or_dodged() -> None:
    """SKL-FEINT-05 (worked example): after the success the feinter's attack comes next round; the target holds
    its reserve but may not block or dodge; the opening is then used up; others' attacks are defended normally."""
    enc = encounter([{"id": "a", "side": "x", "stats": feinter(), "position": [1, 1]},
                     {"id": "b", "side": "y", "stats": DEFENDER, "position": [2, 1]},
                     {"id": "c", "side": "x", "stats": fighter("c"), "position": [3, 1]}],
                    dice=[12, 11, 2, 15, 4, 15])
    resolve(enc, Feint("b"))
    resolve(enc, EndTurn())
    resolve(enc, EndTurn())  # b keeps its action in reserve
    resolve(enc, Attack("b"))  # c's miss (2): the opening is a's, not c's
    resolve(enc, EndTurn())
    assert enc.state.round == 2 and enc.state.get("b").reactions["reserve"] == 1
    events = enc.act(Attack("b"))  # a's attack: 15 + 5 = 20 hits, and no prompt
    assert enc.pending is None and damage(events)
    assert "could not block or dodge: a's feint (SKL-FEINT-05)" in "\n".join(notes(events))
    assert not enc.state.get("b").effects
    resolve(enc, EndTurn())
    resolve(enc, EndTurn())
    enc.act(Attack("b"))  # c's attack in round 2 may be dodged: its window opens
    assert enc.pending is not None and enc.pending.prompt.reactor == "b"


def test_skl_feint_05_an_unused_opening_lapses_at_the_end_of_the_next_round() -> None:
    """SKL-FEINT-05 (reading): the opening lasts until the end of the next round (``skl_feint_opening_rounds``)."""
    for rounds, lapses_in in ((1, 2), (0, 1)):
        enc = duel(feinter(), DEFENDER, dice=[12, 11], variants={"skl_feint_opening_rounds": rounds})
        resolve(enc, Feint("b"))
        lapsed_at = None
        for _ in range(6):
            events = resolve(enc, EndTurn())
            if any("lapses unused (SKL-FEINT-05)" in n for n in notes(events)) and lapsed_at is None:
                lapsed_at = enc.state.round - 1
        assert lapsed_at == lapses_in and not enc.state.get("b").effects


# ---------------------------------------------------------------------------- CSPL
def _magic(caster: dict[str, Any], counter: dict[str, Any] | None, *, at: int = 4, dice: list[int] | None = None,
           **kw: Any) -> Any:
    """w (caster) acts first; t is its target 3 squares away; c stands ``at`` squares from w."""
    combatants = [{"id": "w", "side": "x", "stats": caster, "position": [0, 0]},
                  {"id": "t", "side": "y", "stats": sheet("t"), "position": [3, 0]}]
    if counter is not None:
        combatants.append({"id": "c", "side": "y", "stats": counter, "position": [at, 2 if at < 4 else 0]})
    return encounter(combatants, dice=dice or [], width=16, height=4, **kw)


WIZARD = sheet("w", skills={"sorcery": 5}, weapon="ray-of-frost")
COUNTER = sheet("c", skills={"sorcery": 4})


def test_skl_cspl_01_a_counterspell_needs_a_held_complex_action() -> None:
    """SKL-CSPL-01 (worked example): a counterspeller who attacked on its own turn holds nothing → no counter."""
    enc = encounter([{"id": "c", "side": "y", "stats": fighter("c", skills={"sword": 4, "sorcery": 4}),
                      "position": [1, 0]},
                     {"id": "w", "side": "x", "stats": WIZARD, "position": [0, 0]},
                     {"id": "t", "side": "y", "stats": sheet("t"), "position": [3, 0]}],
                    dice=[2, 15, 2], width=16, height=4)
    resolve(enc, Attack("w"))
    resolve(enc, EndTurn())
    enc.act(CastSpell("ray-of-frost", "t"))
    assert enc.pending is None or enc.pending.prompt.kind != "counterspell"


def test_skl_cspl_02_it_targets_another_creatures_spell() -> None:
    """SKL-CSPL-02: the window opens when another creature casts; the caster's allies are not asked."""
    enc = encounter([{"id": "w", "side": "x", "stats": WIZARD, "position": [0, 0]},
                     {"id": "ally", "side": "x", "stats": COUNTER, "position": [0, 2]},
                     {"id": "t", "side": "y", "stats": sheet("t"), "position": [3, 0]},
                     {"id": "c", "side": "y", "stats": COUNTER, "position": [4, 0]}], dice=[9, 12], width=16, height=4)
    enc.act(CastSpell("ray-of-frost", "t"))
    assert enc.pending is not None and enc.pending.prompt.kind == "counterspell"
    assert enc.pending.prompt.reactor == "c" and "w casts ray-of-frost (sorcery)" in enc.pending.prompt.trigger


@pytest.mark.parametrize(("at", "asked"), [(12, True), (13, False)])
def test_skl_cspl_03_within_60_feet(at: int, asked: bool) -> None:
    """SKL-CSPL-03 (worked example): 60 ft → allowed; 65 ft → refused (no prompt)."""
    enc = _magic(WIZARD, COUNTER, at=at, dice=[15, 2])
    enc.act(CastSpell("ray-of-frost", "t"))
    prompt = enc.pending.prompt if enc.pending else None
    assert (prompt is not None and prompt.kind == "counterspell") is asked


def test_skl_cspl_04_contested_roll_with_the_casters_skill() -> None:
    """SKL-CSPL-04 (worked example): caster Sorcery 5, d20 9 → 14; counterspeller Sorcery 4, d20 12 → 16 →
    countered: the spell fizzles, no attack roll. Illusion is countered with Illusion."""
    enc = _magic(WIZARD, COUNTER, dice=[9, 12])
    events = resolve(enc, CastSpell("ray-of-frost", "t"), "counterspell")
    text = "\n".join(notes(events))
    assert "c counters with sorcery 16 = d20 12 + sorcery skill 4 vs w's 14 = d20 9 + sorcery skill 5" in text
    assert "fizzles" in text and not attacks(events)
    illusionist = sheet("w", skills={"illusion": 3})
    enc = _magic(illusionist, sheet("c", skills={"illusion": 1}), dice=[5, 20])
    events = resolve(enc, CastSpell("phantasm", skill="illusion"), "counterspell")
    assert "illusion skill 1" in "\n".join(notes(events)) and "fizzles" in "\n".join(notes(events))


def test_skl_cspl_05_a_tie_lets_the_spell_go_off_and_the_action_is_spent_anyway() -> None:
    """SKL-CSPL-05 (AMBIGUOUS; worked example): 14 vs 14 → not countered; a countered spell still costs the
    caster its complex action; ``skl_counterspell_tie_counters`` makes the tie a counter."""
    enc = _magic(WIZARD, COUNTER, dice=[9, 10, 15, 2])
    events = resolve(enc, CastSpell("ray-of-frost", "t"), "counterspell")
    assert "a tie is not a win" in "\n".join(notes(events)) and attacks(events)[0].hit
    enc = _magic(WIZARD, COUNTER, dice=[9, 12])
    events = resolve(enc, CastSpell("ray-of-frost", "t"), "counterspell")
    assert [e.cost for e in events if isinstance(e, ev.BudgetSpent)] == ["complex"]
    assert not enc.can_afford("standard")
    enc = _magic(WIZARD, COUNTER, dice=[9, 10], variants={"skl_counterspell_tie_counters": True})
    assert "fizzles" in "\n".join(notes(resolve(enc, CastSpell("ray-of-frost", "t"), "counterspell")))


def test_skl_cspl_06_magic_needs_training() -> None:
    """SKL-CSPL-06 (MISSING "training" = a rating of 1 or more): an untrained caster cannot cast; an untrained
    counterspeller is not asked."""
    enc = _magic(sheet("w", skills={"sorcery": 0}, weapon="ray-of-frost"), None)
    assert "not trained in sorcery" in illegal(enc, CastSpell("ray-of-frost", "t"))
    enc = _magic(WIZARD, sheet("c", skills={"sorcery": 0}), dice=[15, 2])
    enc.act(CastSpell("ray-of-frost", "t"))
    assert enc.pending is None or enc.pending.prompt.kind != "counterspell"


def test_skl_cspl_07_only_schools_the_counterspeller_is_trained_in() -> None:
    """SKL-CSPL-07 (worked example): Sorcery 4 but Illusion 0 against an Illusion spell → no counterspell."""
    illusionist = sheet("w", skills={"illusion": 3})
    enc = _magic(illusionist, COUNTER)
    events = resolve(enc, CastSpell("phantasm", skill="illusion"))
    assert "w's phantasm (illusion) takes effect" in notes(events)


def test_skl_cspl_the_ai_counters_and_spells_go_through_cast_spell() -> None:
    """SKL-CSPL-02: a spell attack is cast with :class:`CastSpell` (a plain Attack with it is refused, so enemies
    always get their window); the AI counters every spell it is offered."""
    enc = _magic(WIZARD, COUNTER, dice=[9, 12])
    assert "cast_spell" in illegal(enc, Attack("t", "ray-of-frost"))
    enc.act(CastSpell("ray-of-frost", "t"))
    assert enc.pending is not None and TacticalAI().react(enc, enc.pending.prompt) == "counterspell"
