"""Skill-based's components on the fast path (issue 14), each proven event by event against the reference engine
under a hybrid ruleset — Pathfinder Beginner's composition with that area taken from skill-based's, alone and all
together, variants sampled — on the examples and random battles (some darkened: total concealment)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from tests.simulation.fast.hybrids import battles, replay
from tests.simulation.fast.skill_hybrids import SkillHybridPathfinder, register, skill_hybrid

from d20combat.encounter import events as ev
from d20combat.rulesets import get_ruleset
from d20combat.rulesets.skill_based.attack import WeaponSkillAttack
from d20combat.rulesets.skill_based.concealment import NoConcealment
from d20combat.rulesets.skill_based.criticals import DeclaredCriticalAttack
from d20combat.rulesets.skill_based.damage import ArmorRatingDamage
from d20combat.rulesets.skill_based.defense import PassiveDefense
from d20combat.scenario import battle_from_data
from d20combat.simulation.fast.compile import NotCompilable, compile_battle, unsupported_components
from d20combat.simulation.fast.layout import K_SKL_ARMOR, K_SKL_MITIGATE, K_SKL_NO_CONC

PORTED = ("criticals", "damage", "defense", "concealment", "attack")


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    yield from register()


def _variants(rnd: random.Random) -> dict[str, Any]:
    return {"skl_min_damage_1": rnd.random() < 0.3, "skl_ranged_no_str": rnd.random() < 0.3,
            "skl_helpless_defense": rnd.choice(["full", "pfb"]), "skl_concealment": rnd.random() < 0.2}


def _play(areas: tuple[str, ...], n: int, seed: int) -> list[ev.Event]:
    log: list[ev.Event] = []
    for i, (data, rnd) in enumerate(battles(n, seed)):
        hybrid = skill_hybrid(data, areas, _variants(rnd), rnd, dark=i % 2 == 1)
        for dice in (0, 1):
            log += replay(hybrid, dice)
    return log


def _lines(log: list[ev.Event]) -> str:
    return "\n".join(line for e in log if isinstance(e, ev.AttackResolved) for line in e.lines) + "\n".join(
        e.explanation for e in log if isinstance(e, ev.Damaged))


def test_the_hybrid_plays_skill_based_components() -> None:
    """The hybrid's areas are skill-based's own components, and the kernel implements each of them."""
    rs = get_ruleset(SkillHybridPathfinder.id, {"hybrid_areas": list(PORTED)})
    assert isinstance(rs.criticals, DeclaredCriticalAttack) and isinstance(rs.damage, ArmorRatingDamage)
    assert isinstance(rs.defense, PassiveDefense) and isinstance(rs.concealment, NoConcealment)
    assert isinstance(rs.attack, WeaponSkillAttack)
    assert unsupported_components(rs) == []


def test_declared_critical_attack_replays_the_reference_log() -> None:
    """SKL-ATK-07: no critical threats, no confirmation roll, no multiplier (the kernel's AI declares no critical
    attack, SKL-CRIT-01: that is skill-based's tactics, still refused)."""
    log = _play(("criticals",), 30, 11)
    assert any(isinstance(e, ev.AttackResolved) and e.hit for e in log)
    assert "critical threat" not in _lines(log)
    assert not any(isinstance(e, ev.AttackResolved) and e.critical for e in log)


def test_armor_rating_damage_replays_the_reference_log() -> None:
    """SKL-DMG-01..04: dice + Str (negative too; ``skl_ranged_no_str``), less the armor rating, floored at 0
    (``skl_min_damage_1``: 1) after armor."""
    log = _play(("damage",), 40, 12)
    text = _lines(log)
    assert "armor rating" in text and "floored at 0" in text
    assert any(isinstance(e, ev.Damaged) and e.amount == 0 for e in log)


def test_passive_defense_replays_the_reference_log() -> None:
    """SKL-DEF-01: Passive Defense 10 + Dex in every context, armor not counted (``skl_helpless_defense = pfb``:
    PFB-HELP-02/03)."""
    log = _play(("defense",), 30, 13)
    assert "Passive Defense" in _lines(log)


DARK_ARENA: dict[str, Any] = {
    "name": "dark arena", "map": {"rows": ["DDDDDDDD", "DDDDDDDD", "DDD..DDD", "DDDDDDDD", "DDDDDDDD"]},
    "combatants": [{"id": "valeros", "side": "heroes", "stats": "fighter", "position": [2, 2]},
                   {"id": "merisiel", "side": "heroes", "stats": "rogue", "position": [1, 1]},
                   {"id": "goblin", "side": "monsters", "stats": "goblin", "position": [5, 2]},
                   {"id": "ogre", "side": "monsters", "stats": "ogre", "position": [5, 3]}],
}
"""Humans in darkness against a goblin and an ogre that see in it: the humans' foes have total concealment."""


def test_no_concealment_replays_the_reference_log() -> None:
    """Rules-diff P18: no miss chance from concealment, so no d% and no attack into a guessed square: a human's
    miss in the dark shows its roll (under PFB-CONC-12 it would read only "miss"); ``skl_concealment``: PFB's
    strongest concealment, its d% before the roll."""
    _play(("concealment",), 40, 14)
    rnd = random.Random(5)
    arena: list[ev.Event] = []
    for seed in range(12):
        dark = skill_hybrid(DARK_ARENA, ("concealment",), {**_variants(rnd), "skl_concealment": seed % 4 == 3})
        log = replay(dark, seed)
        if seed % 4 != 3:
            arena += log
    humans = [e for e in arena if isinstance(e, ev.AttackResolved) and e.attacker in ("valeros", "merisiel")]
    assert any(not e.hit for e in humans) and all(len(e.lines) > 1 and e.lines[1] != "  misses" for e in humans)
    assert "concealment" not in _lines(arena)


def test_weapon_skill_attack_replays_the_reference_log() -> None:
    """SKL-ATK-01..09: d20 + weapon skill + Str (melee) or Dex (ranged); a natural 20 counts as 30 and a natural 1
    as −10, no automatic hit or miss (SKL-ATK-05..07); no −4 into melee and no minimum range (SKL-AOO-14)."""
    log = _play(("attack",), 40, 16)
    text = _lines(log)
    assert "natural 20 counts as 30" in text and "natural 1 counts as -10" in text
    assert " skill" in text


def test_reach_weapons_and_two_weapon_mode_are_refused() -> None:
    """SKL-AOO-08: a Medium creature's reach weapon reaches a ring 2 squares away, which the kernel's reach is
    not; the refusal names it."""
    data = {**DARK_ARENA, "combatants": [
        {"id": "guard", "side": "heroes", "position": [2, 2],
         "stats": {"name": "Guard", "abilities": {"str": 14, "dex": 12, "con": 12, "int": 10, "wis": 10, "cha": 10},
                   "hp": 12, "skills": {"spear": 2}, "attacks": [{"weapon": "longspear"}], "wielding": "longspear"}},
        {"id": "goblin", "side": "monsters", "stats": "goblin", "position": [5, 2]}]}
    battle = battle_from_data(skill_hybrid(data, ("attack",), {}), "scenario", None)
    with pytest.raises(NotCompilable, match="guard has a reach weapon"):
        compile_battle(battle)


def test_every_ported_component_together_replays_the_reference_log() -> None:
    """Criticals, damage, defense and concealment of skill-based at once, on PFB's turn procedure."""
    log = _play(PORTED, 40, 15)
    assert "armor rating" in _lines(log)


def test_armor_ratings_are_compiled_per_creature() -> None:
    """SKL-DMG-03: each creature's rating is the stat block's, else half its armor bonus rounded up."""
    data = next(iter(battles(0, 0)))[0]
    battle = battle_from_data(skill_hybrid(data, ("damage", "concealment"), {}), "scenario", None)
    cb = compile_battle(battle)
    assert cb.kn[K_SKL_MITIGATE] == 1 and cb.kn[K_SKL_NO_CONC] == 1
    for i, creature in enumerate(battle.creatures.values()):
        assert cb.kn[K_SKL_ARMOR + i] == ArmorRatingDamage.armor_rating(creature)
    assert any(cb.kn[K_SKL_ARMOR + i] for i in range(len(battle.creatures)))
