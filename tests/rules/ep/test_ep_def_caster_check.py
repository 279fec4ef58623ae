"""EP-DEF-10: fighting defensively, a spell without attack roll needs a Caster Check (or Maneuver Offense, the
caster's choice, EP-DEF-05) against DC 15 + level; a failed Caster Check loses the spell and the action."""

from __future__ import annotations

import pytest
from tests.rules.ep._util import ep, stats, texts

from d20combat.encounter import actions as ax
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.epic_path.melee import FightDefensively

GUARD = stats("guard", attack_bonus=5, attacks=[{"weapon": "club"}])
SPELL_USES = "per_encounter:cast-spell"


def caster(dice: list[int], caster_check: int | None = 6, **variants: object) -> Encounter:
    """Level 3 (DC 18); Maneuver Offense while defensive: BAB 4 + Str 2 − 4 = +2; Caster Check +6; two casts."""
    attributes: dict[str, int] = {"level": 3, SPELL_USES: 2}
    if caster_check is not None:
        attributes["caster_check"] = caster_check
    hero = stats("hero", attack_bonus=4, abilities={"str": 14}, attacks=[{"weapon": "club"}], attributes=attributes)
    enc = ep([{"id": "h", "side": "a", "stats": hero, "position": [2, 2]},
              {"id": "g", "side": "b", "stats": GUARD, "position": [3, 2]}], dice=dice,
             variants={"ep_offensive_abilities": ["cast-spell"], **variants})
    enc.act(FightDefensively())
    return enc


def test_ep_def_10_a_failed_caster_check_loses_the_spell_and_the_action() -> None:
    """EP-DEF-10: Caster Check 17 against DC 18 fails: the standard action is spent, one of the two casts is gone,
    and the creature still fights defensively."""
    enc = caster([11])
    text = texts(enc.act(ax.Activity("cast-spell")))
    assert "needs Caster Check 17 = d20 11 + Caster Check 6 vs DC 18 (15 + level 3, EP-DEF-05)" in text
    assert "the spell is lost, and the action used to cast it (EP-DEF-10)" in text
    assert enc.state.get("h").reactions[SPELL_USES] == 1
    assert enc.state.turn is not None and enc.state.turn.pools["standard"] == 0
    assert any(e.name == "fighting defensively" for e in enc.state.get("h").effects)


def test_ep_def_10_a_successful_caster_check_keeps_the_spell() -> None:
    """EP-DEF-10: Caster Check 18 against DC 18: the spell goes off; nothing is lost but the cast itself."""
    enc = caster([12])
    text = texts(enc.act(ax.Activity("cast-spell")))
    assert "Caster Check 18" in text and "it goes off" in text
    assert enc.state.get("h").reactions[SPELL_USES] == 2


@pytest.mark.parametrize(("check", "bonus", "used"), [
    ("better", 6, "Caster Check"), ("better", 1, "Maneuver Offense"), ("maneuver", 6, "Maneuver Offense"),
    ("caster", 1, "Caster Check"), ("caster", None, "Maneuver Offense")])
def test_ep_def_05_10_option_which_check(check: str, bonus: int | None, used: str) -> None:
    """EP-DEF-05/10, option ep_defensive_check: the better bonus (default), or always one of them; a creature without
    a Caster Check uses Maneuver Offense; a failed Maneuver Offense check loses no spell (EP-DEF-09)."""
    enc = caster([2], bonus, ep_defensive_check=check)
    text = texts(enc.act(ax.Activity("cast-spell")))
    assert f"needs {used}" in text
    assert enc.state.get("h").reactions[SPELL_USES] == (1 if used == "Caster Check" else 2)
