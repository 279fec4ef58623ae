"""Effective stats with explanations (issue 13, item 6): ``d20combat.server.stats.effective_stats`` — ability
modifiers, the target numbers, speed and saves under the creature's conditions, each with the words that explain
it, from the rulesets' own policies."""

from __future__ import annotations

from typing import Any

import pytest
from tests.conftest import make_encounter

from d20combat.encounter.engine import Encounter
from d20combat.rulesets.off_guard import Guide
from d20combat.server.stats import effective_stats

PFB, CMV, SKL = "pathfinder-beginner", "off-guard", "skill-based"


def scene(ruleset: str, conditions: tuple[str, ...] = (), stats: Any = "fighter", **extra: Any) -> Encounter:
    """``f`` (the fighter: Str 17, Dex 13, Con 14, Wis 12; chain shirt 4, heavy shield 2) and a goblin ``g`` whose
    turn it is."""
    return make_encounter([
        {"id": "g", "side": "m", "stats": "goblin", "position": [8, 8]},
        {"id": "f", "side": "h", "stats": stats, "position": [1, 1], "conditions": list(conditions), **extra},
    ], ruleset=ruleset)


def explained(stats: dict[str, Any]) -> dict[str, str]:
    out = {"ac": stats["ac"]["explain"], "speed": stats["speed"]["explain"]}
    for group in ("abilities", "defenses", "saves"):
        out.update({k: v["explain"] for k, v in stats[group].items()})
    return out


@pytest.mark.parametrize("ruleset", [PFB, CMV, SKL])
def test_every_number_carries_its_explanation(ruleset: str) -> None:
    stats = effective_stats(scene(ruleset), "f")
    assert stats["abilities"]["str"] == {"value": 3, "explain": "Str +3 (17)"}
    assert stats["abilities"]["cha"] == {"value": -1, "explain": "Cha −1 (8)"}
    assert stats["speed"] == {"value": 30, "explain": "speed 30 ft"}
    assert stats["saves"]["will"] == {"value": 1, "explain": "Will +1 = Wis 1"}
    goblin = effective_stats(scene(ruleset), "g")
    assert goblin["saves"]["fort"] == {"value": 3, "explain": "Fort +3 = base 2 + Con 1"}
    for stat in [stats["ac"], stats["speed"], *(v for g in ("abilities", "defenses", "saves")
                                                for v in stats[g].values())]:
        assert set(stat) == {"value", "explain"} and isinstance(stat["value"], int)


def test_pfb_ac_01_06_ac_flat_footed_and_touch() -> None:
    """PFB-AC-01: AC = 10 + armor + shield + Dex; PFB-AC-04: flat-footed drops a positive Dex; PFB-AC-06: touch
    drops armor and shield."""
    stats = effective_stats(scene(PFB), "f")
    assert stats["ac"] == {"value": 17, "explain": "AC 17 = 10 + armor 4 + shield 2 + Dex 1"}
    assert stats["defenses"] == {
        "flat-footed": {"value": 16, "explain": "flat-footed AC 16 = 10 + armor 4 + shield 2"},
        "touch": {"value": 11, "explain": "touch AC 11 = 10 + Dex 1"}}
    assert set(stats["saves"]) == {"fort", "ref", "will"}


def test_pfb_surp_09_a_surprised_creature_shows_its_flat_footed_ac() -> None:
    """PFB-SURP-09 / PFB-AC-03: in the surprise round the surprised are flat-footed — the AC shown is that one."""
    enc = make_encounter([
        {"id": "g", "side": "m", "stats": "goblin", "position": [8, 8]},
        {"id": "f", "side": "h", "stats": "fighter", "position": [1, 1]},
    ], surprise={"surprised": ["f"]})
    assert enc.state.surprise_round
    assert effective_stats(enc, "f")["ac"] == {"value": 16, "explain": "AC 16 = 10 + armor 4 + shield 2"}


def test_pfb_help_02_04_a_helpless_creature_shows_dex_0() -> None:
    """PFB-HELP-02..04: helpless: Dex counts as 0 (−5) and −4 against melee."""
    stats = effective_stats(scene(PFB, ("paralyzed",)), "f")
    assert stats["ac"]["value"] == 17 - 1 - 5 - 4
    assert "Dex 0 (helpless) 5" in stats["ac"]["explain"] and "helpless vs melee 4" in stats["ac"]["explain"]


def test_cmv_cond_17_18_fatigued() -> None:
    """CMV-COND-17: fatigued −2 to every ability score, so every modifier, save and the AC's Dex drop;
    CMV-COND-18: −5 ft speed."""
    stats = explained(effective_stats(scene(CMV, ("fatigued",)), "f"))
    assert stats["str"] == "Str +2 (17, fatigued −2)"
    assert stats["dex"] == "Dex +0 (13, fatigued −2)"
    assert stats["speed"] == "speed 25 ft (30, fatigued −5 ft)"
    assert stats["fort"] == "Fort +1 = Con 1"
    assert stats["ac"] == "AC 16 = 10 + armor 4 + shield 2"


def test_cmv_cond_19_exhausted_is_fatigued_too() -> None:
    """CMV-COND-19: exhausted brings fatigued: −4 to every ability score, −5 ft once."""
    stats = explained(effective_stats(scene(CMV, ("exhausted",)), "f"))
    assert stats["str"] == "Str +1 (17, exhausted −2, fatigued −2)"
    assert stats["speed"] == "speed 25 ft (30, fatigued −5 ft)"


def test_cmv_cond_24_shaken_on_saves() -> None:
    """CMV-COND-24: shaken −2 on saves, death saves too (by default)."""
    stats = explained(effective_stats(scene(CMV, ("shaken",)), "f"))
    assert stats["will"] == "Will −1 = Wis 1 − shaken 2"
    assert stats["death"] == "death save +0 = Con 2 − shaken 2"


def test_cmv_inj_07_staggered_half_speed_unless_guided() -> None:
    """CMV-INJ-07/09: staggered (damage taken ≥ hp) moves at half speed; CMV-COND-03: an ally's guidance restores it."""
    enc = scene(CMV, hp=0, starts_down=True)
    stats = explained(effective_stats(enc, "f"))
    assert stats["speed"] == "speed 15 ft (30, staggered half)"
    guided = make_encounter([
        {"id": "k", "side": "h", "stats": "cleric", "position": [2, 1]},
        {"id": "g", "side": "m", "stats": "goblin", "position": [8, 8]},
        {"id": "f", "side": "h", "stats": "fighter", "position": [1, 1], "hp": 0, "starts_down": True},
    ], ruleset=CMV)
    guided.act(Guide(ally="f"))
    assert effective_stats(guided, "f")["speed"] == {"value": 30, "explain": "speed 30 ft (30, staggered but guided: "
                                                                             "full)"}


def test_cmv_cond_37_38_off_guard() -> None:
    """CMV-COND-37/38: off-guard: −2 AC and no Dex bonus; the table also shows off-guard AC for every creature."""
    stats = effective_stats(scene(CMV, ("off-guard",)), "f")
    assert stats["ac"] == {"value": 14, "explain": "AC 14 = 10 + armor 4 + shield 2 − off-guard 2"}
    assert effective_stats(scene(CMV), "f")["defenses"]["off-guard"] == {
        "value": 14, "explain": "off-guard AC 14 = 10 + armor 4 + shield 2 − off-guard 2"}


def test_cmv_cond_36_held_stays_put() -> None:
    """CMV-COND-36: held: it cannot leave its square (said beside the speed)."""
    assert effective_stats(scene(CMV, ("held",)), "f")["speed"]["explain"] == \
        "speed 30 ft (30, held: stays in its square)"


def test_skl_def_01_passive_defense_only() -> None:
    """SKL-DEF-01: Passive Defense = 10 + Dex, and no other target number (armor reduces damage, SKL-DMG-03)."""
    stats = effective_stats(scene(SKL), "f")
    assert stats["ac"] == {"value": 11, "explain": "Passive Defense 11 = 10 + Dex 1"}
    assert stats["defenses"] == {}


def test_fly_speed_is_shown_as_the_engine_moves() -> None:
    enc = scene(PFB, stats={"name": "bat", "hp": 4, "fly_speed_ft": 40})
    assert effective_stats(enc, "f")["speed"] == {"value": 40, "explain": "fly 40 ft"}
