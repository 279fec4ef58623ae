"""Skill-based's tactics on the fast path (issue 14): :class:`SkillTactics` — the reserve when wounded and engaged,
feints and their openings, the critical-attack penalty by expected damage, spells cast through ``cast_spell`` with
the counterspell window — proven event by event against the reference engine, first under the hybrid ruleset
(Pathfinder Beginner with every skill-based area, so its stat blocks and turn order stay PFB's), then as the
whole skill-based ruleset; and the two-weapon mode a creature may start in, with the off hand's bonus attack and
block; each run checks that the sampled battles met the rules it proves."""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from tests.simulation.fast.hybrids import EXAMPLES, battles, replay
from tests.simulation.fast.skill_hybrids import register, skill_hybrid
from tests.simulation.fast.test_kernel_skill import _variants

from d20combat.encounter import events as ev
from d20combat.model.statblock import ability_mod
from d20combat.rulesets import get_ruleset
from d20combat.rulesets.skill_based.options import OFFHAND, TWO_WEAPON
from d20combat.rulesets.skill_based.skills import skill_rating, weapon_skill
from d20combat.rulesets.skill_based.tactics import SkillTactics
from d20combat.scenario import battle_from_data
from d20combat.simulation.fast.compile import NotCompilable, compile_battle, unsupported_components
from d20combat.simulation.fast.components_skill import starting_conditions
from d20combat.simulation.fast.layout import K_SKL_FACTOR, K_SKL_FEINT, K_SKL_RESIST, K_SKL_TACTICS, MAX_SKL_OPTIONS

EVERY_AREA = ("attack", "defense", "active_defense", "criticals", "damage", "concealment", "economy", "reactions",
              "actions", "tactics")


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    yield from register()


def tactics_variants(rnd: random.Random) -> dict[str, Any]:
    """The ported areas' variants and those of the feint and the counterspell (SKL-FEINT-04/05, SKL-CSPL-05)."""
    return {**_variants(rnd), "skl_feint_tie_succeeds": rnd.random() < 0.4,
            "skl_feint_opening_rounds": rnd.choice([1, 1, 2]),
            "skl_counterspell_tie_counters": rnd.random() < 0.4}


def seen(log: list[ev.Event]) -> Counter[str]:
    """What the tactics did in a log: reserve declarations, feints, openings used and lapsed, critical attacks,
    spells cast and countered."""
    out: Counter[str] = Counter()
    for e in log:
        if isinstance(e, ev.BudgetSpent) and e.action.split(" ")[0] in ("reserve", "feint", "cast", "off-hand"):
            out[e.action.split(" ")[0]] += 1
        elif isinstance(e, ev.Note) and "could not block or dodge" in e.text:
            out["opening used"] += 1
        elif isinstance(e, ev.Note) and "lapses unused (SKL-FEINT-05)" in e.text:
            out["opening lapsed"] += 1
        elif isinstance(e, ev.Note) and " counters with " in e.text:
            out["countered" if "fizzles" in e.text else "counter failed"] += 1
        elif isinstance(e, ev.Damaged) and "critical attack" in e.explanation:
            out["critical attack"] += 1
    return out


def test_the_tactics_under_the_hybrid_replay_the_reference_log() -> None:
    """SKL-RES-02, SKL-FEINT-01..05, SKL-CRIT-01..04, SKL-CSPL-01..07 with PFB's stat blocks: every skill-based area
    at once, the examples and random battles, variants sampled, a third of the maps darkened."""
    count: Counter[str] = Counter()
    for i, (data, rnd) in enumerate(battles(14, 23)):
        hybrid = skill_hybrid(data, EVERY_AREA, tactics_variants(rnd), rnd, dark=i % 3 == 2)
        for dice in (0, 1):
            count += seen(replay(hybrid, dice))
    assert {"reserve", "feint", "cast", "critical attack"} <= set(count), count


def test_the_skill_based_ruleset_plays_whole_on_the_fast_path() -> None:
    """Issue 14: no skill-based component is missing, and a skill-based battle with a spellcaster compiles (its
    tactics cast through ``cast_spell``, SKL-CSPL-02)."""
    assert unsupported_components(get_ruleset("skill-based")) == []
    data, _ = next(battles(0, 0))
    cb = compile_battle(battle_from_data({**data, "ruleset": "skill-based", "variants": {}}, "scenario", None))
    assert cb.kn[K_SKL_TACTICS] == 1
    creature = next(iter(cb.battle.creatures.values()))
    tactics = cb.battle.ruleset.tactics
    assert isinstance(tactics, SkillTactics)
    for o, option in enumerate(creature.attacks):
        assert cb.kn[K_SKL_FACTOR + o] == tactics.criticals.damage_factor(option)
        assert cb.kn[K_SKL_FEINT + o] == skill_rating(creature, weapon_skill(option.weapon)) + ability_mod(
            creature.sheet.abilities.int)
    assert cb.kn[K_SKL_RESIST] == skill_rating(creature, "defense") + ability_mod(creature.sheet.abilities.wis)


def test_the_critical_attack_table_is_weighed_and_dealt() -> None:
    """SKL-CRIT-04 (``skl_crit_damage_table``): a weapon buying 3 damage a point of penalty is tabled so, and the
    AI's choice and the damage replay the reference."""
    data, _ = next(battles(0, 0))
    plain = {**data, "ruleset": "skill-based", "variants": {},
             "combatants": [{k: v for k, v in c.items() if k != "conditions"} for c in data["combatants"]]}
    names = {o.name for c in battle_from_data(plain, "scenario", None).creatures.values() for o in c.attacks}
    table = dict.fromkeys(sorted(names), 3)
    game = {**plain, "variants": {"skl_crit_damage_table": table}}
    cb = compile_battle(battle_from_data(game, "scenario", None))
    for i, creature in enumerate(cb.battle.creatures.values()):
        for o, _option in enumerate(creature.attacks):
            assert cb.kn[K_SKL_FACTOR + i * (MAX_SKL_OPTIONS + 1) + o] == 3
    count: Counter[str] = Counter()
    for dice in range(4):
        count += seen(replay(game, dice))
    assert count["critical attack"], count


def test_tactics_weighing_another_ruleset_s_components_are_refused_by_name() -> None:
    """The tactics weigh their own composition's active defense (BlockAndDodge): a ruleset that gives them another
    is refused, naming the area."""
    data, _ = next(battles(0, 0))
    hybrid = skill_hybrid(data, tuple(a for a in EVERY_AREA if a != "active_defense"), {})
    with pytest.raises(NotCompilable, match="tactics weigh their own active_defense component"):
        compile_battle(battle_from_data(hybrid, "scenario", None))


def test_the_two_weapon_mode_replays_the_reference_log() -> None:
    """SKL-TWF-01..04/08/10: the skill-duel example (Merisiel starts in the two-weapon mode) and a variant where
    her dagger blocks better than her rapier and Valeros (a shield in his off hand) starts in the mode too: the
    off hand's bonus action each round, its attack chosen with the tactics' expected damage, held in reserve with
    the complex actions, spent on an off-hand block before the reserve, and both hands' penalties on every attack
    and block."""
    with open(EXAMPLES / "skill-duel.yaml", encoding="utf-8") as f:
        duel: dict[str, Any] = {**yaml.safe_load(f), "name": "skill-duel"}
    dagger = copy.deepcopy(duel)
    merisiel = dagger["combatants"][2]
    merisiel["stats"] = {**merisiel["stats"], "hp": 30, "skills": {**merisiel["stats"]["skills"], "sword": 1,
                                                                   "dagger": 6}}
    dagger["combatants"][0]["conditions"] = [TWO_WEAPON]
    count: Counter[str] = Counter()
    for game in (duel, dagger):
        assert starting_conditions(battle_from_data(game, "scenario", None)) == {TWO_WEAPON}
        for dice in range(8):
            for e in replay(game, dice):
                if isinstance(e, ev.BudgetSpent) and e.action.startswith("off-hand attack"):
                    count["off-hand attack"] += 1
                elif isinstance(e, ev.ReactionSpent) and e.pool == OFFHAND:
                    count["off-hand block"] += 1
                elif isinstance(e, ev.Note) and "and the off-hand bonus action held" in e.text:
                    count["held"] += 1
    assert {"off-hand attack", "off-hand block", "held"} <= set(count), count


def test_another_starting_condition_is_still_refused() -> None:
    """Only the two-weapon mode is a starting condition the kernel plays, and only under skill-based's own hands."""
    with open(EXAMPLES / "skill-duel.yaml", encoding="utf-8") as f:
        duel: dict[str, Any] = yaml.safe_load(f)
    duel["combatants"][2]["conditions"] = [TWO_WEAPON, "prone"]
    with pytest.raises(NotCompilable, match=r"merisiel starts with conditions \(prone\); the kernel plays only"):
        compile_battle(battle_from_data(duel, "scenario", None))
    hybrid = skill_hybrid({**duel, "combatants": [c for c in duel["combatants"] if c["id"] != "merisiel"]},
                          EVERY_AREA, {})
    assert starting_conditions(battle_from_data(hybrid, "scenario", None)) == {TWO_WEAPON}
    partial = skill_hybrid(duel, ("attack", "economy"), {})
    assert starting_conditions(battle_from_data(partial, "scenario", None)) == frozenset()
