"""Skill-based's components on the fast path (issue 14), each proven event by event against the reference engine
under a hybrid ruleset — Pathfinder Beginner's composition with that area taken from skill-based's, alone and all
together, variants sampled — on the examples and random battles (some darkened: total concealment)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from tests.simulation.fast.hybrids import EXAMPLES, battles, replay
from tests.simulation.fast.skill_hybrids import SkillHybridPathfinder, register, skill_hybrid

from d20combat.encounter import events as ev
from d20combat.rulesets import get_ruleset
from d20combat.rulesets.skill_based.action_set import SkillActions
from d20combat.rulesets.skill_based.active_defense import BlockAndDodge
from d20combat.rulesets.skill_based.attack import WeaponSkillAttack
from d20combat.rulesets.skill_based.concealment import NoConcealment
from d20combat.rulesets.skill_based.criticals import DeclaredCriticalAttack
from d20combat.rulesets.skill_based.damage import ArmorRatingDamage
from d20combat.rulesets.skill_based.defense import PassiveDefense
from d20combat.rulesets.skill_based.economy import ComplexBasicEconomy
from d20combat.scenario import battle_from_data
from d20combat.simulation.fast.compile import NotCompilable, compile_battle, unsupported_components
from d20combat.simulation.fast.layout import K_SKL_ARMOR, K_SKL_MITIGATE, K_SKL_NO_CONC

PORTED = ("criticals", "damage", "defense", "concealment", "attack", "economy", "active_defense", "actions")


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    yield from register()


def _variants(rnd: random.Random) -> dict[str, Any]:
    return {"skl_min_damage_1": rnd.random() < 0.3, "skl_ranged_no_str": rnd.random() < 0.3,
            "skl_helpless_defense": rnd.choice(["full", "pfb"]), "skl_concealment": rnd.random() < 0.2,
            "skl_complex_as_basic": rnd.random() < 0.4, "skl_auto_reserve": rnd.random() < 0.7,
            "skl_surprise_limit": rnd.choice(["round", "turn"]), "skl_max_free_actions": rnd.choice([None, 0, 1, 3]),
            "skl_block_needs_item": rnd.random() < 0.3, "skl_double_weapon_blocks": rnd.random() < 0.7,
            "skl_unarmed_threatens": rnd.random() < 0.7, "skl_charge": rnd.random() < 0.3,
            "skl_pf_actions": rnd.random() < 0.3}


def _play(areas: tuple[str, ...], n: int, seed: int) -> list[ev.Event]:
    """Both engines on ``n`` random battles and the examples under the hybrid; with skill-based's actions, the
    battles with a spellcaster are refused (SKL-CSPL-02) and left out — at least a third of them are played."""
    log: list[ev.Event] = []
    played = refused = 0
    for i, (data, rnd) in enumerate(battles(n, seed)):
        hybrid = skill_hybrid(data, areas, _variants(rnd), rnd, dark=i % 2 == 1)
        if "actions" in areas and _casts(hybrid):
            refused += 1
            continue
        played += 1
        for dice in (0, 1):
            log += replay(hybrid, dice)
    assert played * 3 >= played + refused
    return log


def _casts(data: dict[str, Any]) -> bool:
    """Whether a creature of the battle has a spell attack (skill-based's actions refuse it, SKL-CSPL-02)."""
    try:
        compile_battle(battle_from_data(data, "scenario", None))
    except NotCompilable as refusal:
        assert "cast_spell (SKL-CSPL-02)" in str(refusal)
        return True
    return False


def _lines(log: list[ev.Event]) -> str:
    return "\n".join(line for e in log if isinstance(e, ev.AttackResolved) for line in e.lines) + "\n".join(
        e.explanation for e in log if isinstance(e, ev.Damaged))


def test_the_hybrid_plays_skill_based_components() -> None:
    """The hybrid's areas are skill-based's own components, and the kernel implements each of them."""
    rs = get_ruleset(SkillHybridPathfinder.id, {"hybrid_areas": list(PORTED)})
    assert isinstance(rs.criticals, DeclaredCriticalAttack) and isinstance(rs.damage, ArmorRatingDamage)
    assert isinstance(rs.defense, PassiveDefense) and isinstance(rs.concealment, NoConcealment)
    assert isinstance(rs.attack, WeaponSkillAttack) and isinstance(rs.economy, ComplexBasicEconomy)
    assert isinstance(rs.active_defense, BlockAndDodge) and isinstance(rs.actions, SkillActions)
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


def test_reach_weapons_are_refused() -> None:
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


def test_complex_basic_economy_replays_the_reference_log() -> None:
    """SKL-ACT-01..11: one complex and one basic action a round (standard → complex, move → basic, full-round →
    both; ``skl_complex_as_basic``), free actions up to ``skl_max_free_actions``; SKL-RES-02..04: each round's
    complex action held in reserve with the attack of opportunity (SKL-AOO-24), the surprised holding nothing
    (``skl_surprise_limit``), and what a turn did not spend kept in reserve (``skl_auto_reserve``)."""
    log = _play(("economy",), 40, 17)
    spent = {e.cost for e in log if isinstance(e, ev.BudgetSpent)}
    assert {"complex", "basic", "complex + basic"} <= spent and "standard" not in spent
    assert any(isinstance(e, ev.ReactionsSet) and e.pools.get("reserve") == 0 for e in log)  # the surprised
    assert any(isinstance(e, ev.Note) and "held in reserve" in e.text for e in log)


def test_action_grants_are_refused() -> None:
    """SKL-ACT-03/06: a talent's extra complex or basic action is a pool the kernel's economy does not count; the
    refusal names the creature and the grant."""
    data = {**DARK_ARENA, "combatants": [
        {"id": "adept", "side": "heroes", "position": [2, 2],
         "stats": {"name": "Adept", "abilities": {"str": 14, "dex": 12, "con": 12, "int": 10, "wis": 10, "cha": 10},
                   "hp": 12, "skills": {"longsword": 2}, "feats": ["extra_basic_action"],
                   "attacks": [{"weapon": "longsword"}], "wielding": "longsword"}},
        {"id": "goblin", "side": "monsters", "stats": "goblin", "position": [5, 2]}]}
    battle = battle_from_data(skill_hybrid(data, ("economy",), {}), "scenario", None)
    with pytest.raises(NotCompilable, match="adept has the action grant basic"):
        compile_battle(battle)


_ABILITIES = {"int": 10, "wis": 10, "cha": 10, "con": 12}
BLOCK_ARENA: dict[str, Any] = {
    "name": "block arena", "map": {"rows": ["........"] * 5},
    "combatants": [
        {"id": "warden", "side": "heroes", "position": [2, 2],
         "stats": {"name": "Warden", "abilities": {**_ABILITIES, "str": 18, "dex": 10}, "hp": 14, "armor_rating": 2,
                   "skills": {"sword": 2, "dagger": 6}, "wielding": "longsword",
                   "attacks": [{"weapon": "longsword"}, {"weapon": "dagger", "off_hand": True}]}},
        {"id": "bowman", "side": "heroes", "position": [4, 3],
         "stats": {"name": "Bowman", "abilities": {**_ABILITIES, "str": 16, "dex": 10}, "hp": 12,
                   "skills": {"bow": 8}, "attacks": [{"weapon": "longbow"}], "wielding": "longbow"}},
        {"id": "goblin", "side": "monsters", "stats": "goblin", "position": [5, 3]},
        {"id": "ogre", "side": "monsters", "stats": "ogre", "position": [2, 0]}]}
"""A warden whose off-hand dagger blocks best and a strong bowman who blocks with his bow next to a goblin."""


def test_block_and_dodge_replays_the_reference_log() -> None:
    """SKL-DEF-02..07: a hit may be blocked (weapon skill + Str, the off hand's too) or dodged (Defense + Dex),
    paid from the reserve (SKL-RES-05), negated on matching the total; −6 with a ranged weapon in melee
    (SKL-RNG-01), a ranged weapon's blocks counted (SKL-RNG-02/03); the AI's answer by chance, danger and
    whether its turn is behind it."""
    log = _play(("economy", "active_defense"), 30, 18)
    rnd = random.Random(7)
    for seed in range(16):
        log += replay(skill_hybrid(BLOCK_ARENA, ("economy", "active_defense"), _variants(rnd)), seed)
    spent = [e.reaction for e in log if isinstance(e, ev.ReactionSpent)]
    assert any(r.startswith("dodge") for r in spent) and any(r.startswith("block-off-hand") for r in spent)
    text = "\n".join(line for e in log if isinstance(e, ev.AttackResolved) for line in e.lines)
    assert "negates the attack" in text and "fails (SKL-DEF" in text and "ranged weapon in melee" in text
    assert any(isinstance(e, ev.Note) and "has blocked with its longbow" in e.text for e in log)


def test_a_defense_declared_before_the_roll_is_refused() -> None:
    """SKL-DEF-08 (``skl_declare_before_roll``): committed before the roll — not in the kernel, and named."""
    battle = battle_from_data(skill_hybrid(BLOCK_ARENA, ("economy", "active_defense"),
                                           {"skl_declare_before_roll": True}), "scenario", None)
    with pytest.raises(NotCompilable, match="skl_declare_before_roll"):
        compile_battle(battle)


def test_skill_actions_replay_the_reference_log() -> None:
    """SKL-RES-02/04: the reserve held since the start of the round is released as the turn's own at its start;
    SKL-RES-06: what is held (``skl_auto_reserve``) lapses at the end of the round; rules-diff P7 and SKL-AOO-12:
    no charge (``skl_charge``) and no 5-foot step (``skl_pf_actions``)."""
    log = _play(("economy", "actions"), 40, 19)
    assert any(isinstance(e, ev.Note) and "lapses (SKL-RES-06)" in e.text for e in log)
    assert any(isinstance(e, ev.ReactionsSet) and e.pools == {"reserve": 0, "aoo": 1, "offhand": 0} for e in log)
    moves = {e.mode for e in log if isinstance(e, ev.Moved)}
    assert "move" in moves


def test_skill_actions_refuse_spellcasters() -> None:
    """SKL-CSPL-02: spells are cast only with ``cast_spell``, which the kernel's AI does not use; the refusal
    names the caster and its spell."""
    data = {**BLOCK_ARENA, "combatants": [*BLOCK_ARENA["combatants"][2:],
                                          {"id": "ezren", "side": "heroes", "stats": "wizard", "position": [0, 4]}]}
    battle = battle_from_data(skill_hybrid(data, ("actions",), {}), "scenario", None)
    with pytest.raises(NotCompilable, match=r"ezren's .*cast_spell"):
        compile_battle(battle)


def test_every_ported_component_together_replays_the_reference_log() -> None:
    """Criticals, damage, defense, concealment, attack, economy, active defense and actions of skill-based at
    once, on PFB's turn procedure (its reactions and tactics)."""
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


def test_the_skill_based_ruleset_names_what_the_kernel_still_lacks() -> None:
    """Issue 14: the kernel has every skill-based component (its tactics and the two-weapon mode Merisiel starts in:
    test_kernel_skill_tactics.py); the skill-duel example compiles whole."""
    assert unsupported_components(get_ruleset("skill-based")) == []
    with open(EXAMPLES / "skill-duel.yaml", encoding="utf-8") as f:
        data = yaml.safe_load(f)
    assert compile_battle(battle_from_data(data, "scenario", None)).battle.placements["merisiel"].conditions
