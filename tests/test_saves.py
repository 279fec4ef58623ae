"""Saving throws and checks as a policy area (issue 13, items 2 and 6): ``ruleset.saves`` — the modifiers of a save
and of a skill or ability check, natural 1 and 20 per ruleset, the explained bonus — and stat blocks' printed saves.
Forced dice where a roll is made."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError
from tests.conftest import make_encounter

from d20combat.battlefield.cover import CoverDegree
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.limits import MAX_MODIFIER
from d20combat.model.catalog import default_catalog
from d20combat.model.statblock import StatBlock
from d20combat.numbers import total
from d20combat.rulesets import get_ruleset
from d20combat.rulesets.base import AREAS
from d20combat.rulesets.components import RuleError
from d20combat.rulesets.off_guard.conditions import CmvCover
from d20combat.scenario import Scenario
from d20combat.scenario.loader import ScenarioError, parse_scenario_text, validate_scenario

PFB, CMV, SKL = "pathfinder-beginner", "off-guard", "skill-based"


def one(stats: Any, ruleset: str = PFB, conditions: tuple[str, ...] = (), dice: tuple[int, ...] = (),
        first: bool = False, **extra: Any) -> Encounter:
    """A creature ``a`` (the stat block given) and a distant foe ``t`` whose turn it is (``first``: ``a``'s turn)."""
    a = {"id": "a", "side": "h", "stats": stats, "position": [1, 1], "conditions": list(conditions), **extra}
    t = {"id": "t", "side": "f", "stats": {"name": "t", "hp": 20, "skills": {"defense": 0}}, "position": [9, 9]}
    return make_encounter([a, t] if first else [t, a], ruleset=ruleset, dice=dice)


def save(enc: Encounter, kind: str, cid: str = "a", **kw: Any) -> int:
    return total(0, enc.ruleset.saves.save_modifiers(enc.creature(cid), enc.state.get(cid), kind, **kw)).value


def check(enc: Encounter, skill: str, cid: str = "a") -> int:
    return total(0, enc.ruleset.saves.check_modifiers(enc.creature(cid), enc.state.get(cid), skill)).value


def explain(enc: Encounter, kind: str, cid: str = "a") -> str:
    return enc.ruleset.saves.describe_save(enc.creature(cid), enc.state.get(cid), kind).explain


ROGUE = {"name": "rogue", "hp": 20, "abilities": {"dex": 16, "wis": 12, "con": 12}, "saves": {"fort": 1, "ref": 5,
                                                                                              "will": 1},
         "skills": {"stealth": 8, "perception": 5}}


# ------------------------------------------------------------------------------------------ the area
def test_saves_is_a_policy_area_each_ruleset_composes() -> None:
    assert "saves" in AREAS
    kinds = {rid: get_ruleset(rid).saves.kinds for rid in (PFB, CMV, SKL)}
    assert kinds == {PFB: ("fort", "ref", "will"), CMV: ("fort", "ref", "will", "death"),
                     SKL: ("fort", "ref", "will")}
    assert {rid: type(get_ruleset(rid).saves).__name__ for rid in (PFB, CMV, SKL)} == {
        PFB: "D20Saves", CMV: "TableSaves", SKL: "SkillSaves"}


# ------------------------------------------------------------------------------------------ natural 1 and 20
@pytest.mark.parametrize("ruleset", [PFB, CMV])
def test_pfb_nat_03_04_natural_20_and_1_decide_a_save(ruleset: str) -> None:
    """PFB-NAT-03/04 (derived): Reflex +1 against DC 25, natural 20 → success; Will +10 against DC 5, natural 1 →
    failure. CMV keeps PFB's saves (CMV-CDG-07), death saves too."""
    saves = get_ruleset(ruleset).saves
    assert saves.succeeds("ref", 20, 21, 25)
    assert not saves.succeeds("will", 1, 11, 5)
    assert saves.succeeds("fortitude", 10, 15, 15) and not saves.succeeds("fort", 10, 14, 15)
    if ruleset == CMV:
        assert saves.succeeds("death", 20, 21, 30) and not saves.succeeds("death", 1, 30, 10)


@pytest.mark.parametrize("ruleset", [PFB, CMV])
def test_pfb_nat_05_06_no_automatic_results_on_checks(ruleset: str) -> None:
    """PFB-NAT-05/06 (derived): Climb +2 against DC 25, natural 20 → 22 → failure; Perception +10 against 5,
    natural 1 → 11 → success."""
    saves = get_ruleset(ruleset).saves
    assert not saves.succeeds("climb", 20, 22, 25)
    assert saves.succeeds("perception", 1, 11, 5)
    assert not saves.succeeds("dex", 20, 20, 21)


def test_skl_atk_07_no_natural_results_outside_attack_rolls() -> None:
    """SKL-ATK-07: a natural 20 or 1 changes only attack rolls — a save or a check meets its DC or not."""
    saves = get_ruleset(SKL).saves
    assert not saves.succeeds("will", 20, 15, 16)
    assert saves.succeeds("will", 1, 16, 16)
    assert not saves.succeeds("stealth", 20, 10, 11)


# ------------------------------------------------------------------------------------------ save bonuses
@pytest.mark.parametrize("ruleset", [PFB, CMV, SKL])
def test_printed_saves_split_into_base_and_ability(ruleset: str) -> None:
    """A stat block's saves are printed totals: base = total − the ability modifier (PFB-NAT-03: bonuses from data)."""
    enc = one("goblin", ruleset)  # Fort +3 (Con 12), Ref +2 (Dex 15), Will −1 (Wis 9)
    assert (save(enc, "fort"), save(enc, "ref"), save(enc, "will")) == (3, 2, -1)
    assert explain(enc, "fort") == "Fort +3 = base 2 + Con 1"
    assert explain(enc, "will") == "Will −1 = Wis −1"


@pytest.mark.parametrize("ruleset", [PFB, CMV])
def test_without_printed_saves_the_ability_alone(ruleset: str) -> None:
    enc = one({"name": "a", "hp": 10, "abilities": {"con": 14, "dex": 8, "wis": 13}}, ruleset)
    assert (save(enc, "fort"), save(enc, "ref"), save(enc, "will")) == (2, -1, 1)
    assert explain(enc, "ref") == "Ref −1 = Dex −1"


def test_skl_saves_are_skill_checks() -> None:
    """SKL-CSPL-04 (proposed form of a skill check), read for saves the text lacks: a skill named after the save
    + its attribute; unrated → the attribute alone; a printed save wins."""
    enc = one({"name": "a", "hp": 10, "abilities": {"wis": 14, "con": 12}, "skills": {"will": 3, "defense": 1}}, SKL)
    assert save(enc, "will") == 5 and explain(enc, "will") == "Will +5 = Will skill 3 + Wis 2"
    assert save(enc, "fort") == 1
    printed = one({"name": "a", "hp": 10, "abilities": {"wis": 14}, "skills": {"will": 3, "defense": 1},
                   "saves": {"will": 1}}, SKL)
    assert save(printed, "will") == 1


def test_unknown_save_kinds_are_refused_naming_the_known_ones() -> None:
    enc = one("goblin")
    with pytest.raises(RuleError, match="unknown saving throw 'courage'; known: fort, ref, will"):
        save(enc, "courage")
    with pytest.raises(RuleError, match="no 'death' saving throw under this ruleset; known: fort, ref, will"):
        save(enc, "death")


# ------------------------------------------------------------------------------------------ off-guard's table
def test_cmv_cond_12_sickened_minus_2_on_saves_not_death_saves() -> None:
    """CMV-COND-12 (derived): sickened: Fortitude +3 → +1; the death save is unaffected."""
    enc = one({**ROGUE, "saves": {"fort": 3}}, CMV, ("sickened",))
    assert save(enc, "fort") == 1 and save(enc, "death") == 1
    assert explain(enc, "fort") == "Fort +1 = base 2 + Con 1 − sickened 2"


def test_cmv_cond_24_shaken_minus_2_on_saves_and_checks() -> None:
    """CMV-COND-24 (derived): a shaken rogue: Reflex +5 → +3; Stealth +8 → +6; death save −2 (Con +1 → −1)."""
    enc = one(ROGUE, CMV, ("shaken",))
    assert save(enc, "ref") == 3 and check(enc, "stealth") == 6 and save(enc, "death") == -1


def test_cmv_inj_02_bloodied_minus_1_on_checks_not_saves() -> None:
    """CMV-INJ-02: bloodied −1 on checks; saving throws are not checks."""
    enc = one(ROGUE, CMV, hp=10)
    assert save(enc, "will") == 1 and check(enc, "perception") == 4
    assert enc.ruleset.saves.describe_check(enc.creature("a"), enc.state.get("a"), "perception").explain == \
        "Perception +4 = Perception 5 − bloodied 1"


@pytest.mark.parametrize("condition", ["off-guard", "blinded", "asleep"])
def test_cmv_cond_38_help_04_no_dex_bonus_on_reflex(condition: str) -> None:
    """CMV-COND-38: off-guard (blinded brings it, CMV-COND-02) loses its Dex bonus on Reflex; CMV-HELP-04: so does a
    helpless creature. Ref +5 with Dex +3 → +2."""
    enc = one(ROGUE, CMV, (condition,))
    assert save(enc, "ref") == 2
    assert "no Dex bonus (off-guard) 3" in explain(enc, "ref")


def test_cmv_cond_38_a_negative_dex_still_counts() -> None:
    """CMV-COND-38 (reading): only a positive Dex is lost."""
    enc = one({"name": "a", "hp": 10, "abilities": {"dex": 6}}, CMV, ("off-guard",))
    assert save(enc, "ref") == -2


def test_cmv_cond_17_19_fatigue_lowers_every_save_and_check() -> None:
    """CMV-COND-17: fatigued −2 to every ability score (Wis 12 → 10: Will +1 → +0); CMV-COND-19: exhausted −4."""
    fatigued = one(ROGUE, CMV, ("fatigued",))
    assert (save(fatigued, "fort"), save(fatigued, "ref"), save(fatigued, "will")) == (0, 4, 0)
    assert check(fatigued, "stealth") == 7
    assert check(fatigued, "wis") == 0
    exhausted = one(ROGUE, CMV, ("exhausted",))
    assert (save(exhausted, "ref"), check(exhausted, "stealth")) == (3, 6)


def test_cmv_cov_09_12_18_cover_on_reflex() -> None:
    """CMV-COV-09: cover +2 on Reflex; CMV-COV-18: improved +4; CMV-COV-12: soft cover nothing."""
    enc = one(ROGUE, CMV)

    def cover(**kw: Any) -> CmvCover:
        return CmvCover(CoverDegree.COVER, None, "a wall", **kw)

    assert save(enc, "ref", cover_fact=cover()) == 7
    assert save(enc, "ref", cover_fact=cover(improved=True)) == 9
    assert save(enc, "ref", cover_fact=cover(soft=True)) == 5
    assert save(enc, "will", cover_fact=cover()) == 1


def test_cmv_cond_23_the_fear_save_rolls_through_the_saves_area() -> None:
    """CMV-COND-23: the end-of-turn Will save against the fear is the saves area's: the printed Will +4 (base 3 +
    Wis 1), shaken −2; d20 = 8 → 10 ≥ DC 10 → the fear ends; logged with its explanation."""
    enc = one({**ROGUE, "saves": {"will": 4}}, CMV, ("shaken:t:10",), dice=(8,), first=True)
    enc.act(ax.EndTurn())
    note = next(e.text for e in enc.log if isinstance(e, ev.Note) and "Will save" in e.text)
    assert "10 = d20 8 + base 3 + Wis 1 − shaken 2 vs DC 10" in note and "succeeds" in note
    assert not any(c.startswith("shaken") for c in enc.state.get("a").conditions)


def test_cmv_death_save_natural_20_succeeds_through_the_area() -> None:
    """CMV-CDG-07 / CMV-INJ-12 (proposed): the death save, d20 + Con, natural 20 succeeds against any DC."""
    enc = one(ROGUE, CMV)
    rs = enc.ruleset
    assert rs.saves.succeeds("death", 20, 21, 40)
    assert rs.conditions.save_modifiers(enc.creature("a"), enc.state.get("a"), "death") == \
        rs.saves.save_modifiers(enc.creature("a"), enc.state.get("a"), "death")


# ------------------------------------------------------------------------------------------ checks
def test_pfb_checks_use_the_printed_skill_or_the_key_ability() -> None:
    """PFB-SURP-02: Stealth and Perception are sheet bonuses (totals). A skill the sheet does not list is a plain
    check of its key ability (Climb → Str, PFB-MOVE-07); an ability's name is an ability check."""
    enc = one({**ROGUE, "abilities": {**ROGUE["abilities"], "str": 8}})
    assert check(enc, "Stealth") == 8 and check(enc, "climb") == -1 and check(enc, "strength") == -1
    assert check(enc, "dex") == 3
    with pytest.raises(RuleError, match=r"has no 'juggling' skill .* its skills: perception, stealth"):
        check(enc, "juggling")


def test_skl_cspl_04_a_check_is_rating_plus_attribute() -> None:
    """SKL-CSPL-04 (proposed): 1d20 + the skill rating + the governing attribute where the skill has one; unrated
    skills count 0 (a plain attribute check); a skill with no attribute is the rating alone."""
    enc = one({"name": "a", "hp": 10, "abilities": {"dex": 14, "wis": 8}, "skills": {"stealth": 3, "sorcery": 4,
                                                                                    "defense": 1}}, SKL)
    assert check(enc, "stealth") == 5 and check(enc, "perception") == -1 and check(enc, "sorcery") == 4
    assert check(enc, "juggling") == 0


# ------------------------------------------------------------------------------------------ stat blocks
def test_stat_block_saves_load_and_are_bounded() -> None:
    block = StatBlock.model_validate({"hp": 5, "saves": {"fort": 4, "ref": 1, "will": 0}})
    assert block.saves is not None and (block.saves.get("fort"), block.saves.get("will")) == (4, 0)
    assert StatBlock.model_validate({"hp": 5}).saves is None
    with pytest.raises(ValidationError, match=r"saves\.fort\n.*less than or equal to " + str(MAX_MODIFIER)):
        StatBlock.model_validate({"hp": 5, "saves": {"fort": MAX_MODIFIER + 1}})
    with pytest.raises(ValidationError, match=r"saves\.fortitude\n.*Extra inputs are not permitted"):
        StatBlock.model_validate({"hp": 5, "saves": {"fortitude": 2}})


def test_a_scenario_error_names_the_save_field() -> None:
    text = """
ruleset: pathfinder-beginner
map: {width: 5, height: 5}
combatants:
  - {id: a, side: h, position: [1, 1], stats: {hp: 5, saves: {will: lots}}}
  - {id: b, side: f, position: [3, 3], stats: goblin}
"""
    with pytest.raises(ScenarioError, match=r"combatants\[0\]\.stats\.saves\.will: Input should be a valid integer"):
        validate_scenario(parse_scenario_text(text))


def test_the_json_schema_has_the_saves() -> None:
    schema = Scenario.model_json_schema(by_alias=True)
    saves = schema["$defs"]["Saves"]
    assert set(saves["properties"]) == {"fort", "ref", "will"} and saves["additionalProperties"] is False
    fort = next(s for s in saves["properties"]["fort"]["anyOf"] if s.get("type") == "integer")
    assert (fort["minimum"], fort["maximum"]) == (-MAX_MODIFIER, MAX_MODIFIER)
    assert "saves" in schema["$defs"]["StatBlock"]["properties"]


def test_bestiary_monsters_carry_the_beginner_box_saves() -> None:
    catalog = default_catalog()
    printed = {name: catalog.bestiary[name].saves for name in ("goblin", "goblin-archer", "ogre", "wolf")}
    assert {n: (s.fort, s.ref, s.will) for n, s in printed.items() if s is not None} == {
        "goblin": (3, 2, -1), "goblin-archer": (3, 2, -1), "ogre": (6, 0, 3), "wolf": (5, 5, 1)}
    assert catalog.bestiary["fighter"].saves is None
