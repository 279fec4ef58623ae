"""Skill-based's attacks of opportunity on the fast path (issue 14): :class:`SkillAttacksOfOpportunity` proven event
by event against the reference engine under hybrid rulesets — Pathfinder Beginner's composition with skill-based's
reactions and the economy that refreshes them (SKL-AOO-24), with and without its stat blocks (the unarmed strike),
attack, actions and the rest of the ported areas — on the examples, random battles and small arenas."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from tests.simulation.fast.hybrids import battles, replay
from tests.simulation.fast.skill_hybrids import SkillHybridPathfinder, register, skill_hybrid
from tests.simulation.fast.test_kernel_skill import PORTED, _variants

from d20combat.encounter import events as ev
from d20combat.rulesets import RULESETS, get_ruleset
from d20combat.rulesets.base import Policies
from d20combat.rulesets.components.reactions import ThreatenedSquareAoO
from d20combat.rulesets.skill_based.reactions import SkillAttacksOfOpportunity
from d20combat.scenario import battle_from_data
from d20combat.simulation.fast.compile import NotCompilable, compile_battle, unsupported_components
from d20combat.simulation.fast.layout import K_AOO, K_SKL_AOO, K_SKL_CALM, K_SKL_THREAT, MAX_SKL_OPTIONS, SKL_ACT_FIRE

BASE = ("reactions", "economy")
"""Skill-based's reactions with the economy that gives them back each round (SKL-AOO-24)."""


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    yield from register()


def _spent(log: list[ev.Event]) -> list[str]:
    return [e.reaction for e in log if isinstance(e, ev.ReactionSpent) and e.pool == "aoo"]


def _play(areas: tuple[str, ...], n: int, seed: int) -> list[ev.Event]:
    """Both engines on the examples and ``n`` random battles under the hybrid, dice 0 and 1; battles the hybrid
    refuses for another area's reason (a spellcaster under skill-based's actions) are left out, at most a third."""
    log: list[ev.Event] = []
    played = refused = 0
    for i, (data, rnd) in enumerate(battles(n, seed)):
        hybrid = skill_hybrid(data, areas, _variants(rnd), rnd, dark=i % 3 == 2)
        try:
            compile_battle(battle_from_data(hybrid, "scenario", None))
        except NotCompilable as refusal:
            assert "cast_spell (SKL-CSPL-02)" in str(refusal)
            refused += 1
            continue
        played += 1
        for dice in (0, 1):
            log += replay(hybrid, dice)
    assert played * 3 >= played + refused
    return log


_ABILITIES = {"int": 10, "wis": 10, "cha": 10, "con": 12}
FIST = {"weapon": {"name": "fist", "damage": "1d3", "hands": "light", "skill": "unarmed"}}


def _stats(name: str, dex: int, skills: dict[str, int], attacks: list[dict[str, Any]], wielding: str,
           **more: Any) -> dict[str, Any]:
    return {"name": name, "abilities": {**_ABILITIES, "str": 14, "dex": dex}, "hp": 14,
            "skills": {"defense": 2, "unarmed": 2, **skills}, "attacks": attacks, "wielding": wielding, **more}


SKIRMISH: dict[str, Any] = {
    "name": "skirmish", "map": {"rows": ["..........", "..........", "..........", "..........", ".........."]},
    "combatants": [
        {"id": "brawler", "side": "heroes", "position": [3, 2],
         "stats": _stats("Brawler", 12, {"bow": 3}, [{"weapon": "shortbow"}, FIST], "shortbow")},
        {"id": "duelist", "side": "heroes", "position": [2, 3],
         "stats": _stats("Duelist", 14, {"sword": 3, "dagger": 3, "crossbow": 2},
                         [{"weapon": "light-crossbow"}, {"weapon": "dagger", "off_hand": True}], "light-crossbow")},
        {"id": "goblin", "side": "monsters", "stats": "goblin", "position": [4, 2]},
        {"id": "wolf", "side": "monsters", "stats": "wolf", "position": [3, 3]},
        {"id": "archer", "side": "monsters", "stats": "goblin-archer", "position": [1, 2]},
        {"id": "sniper", "side": "monsters", "stats": "goblin-archer", "position": [3, 1]}]}
"""Shooters next to their foes: a bowman who threatens with his fists, a crossbowman with an off-hand dagger, and
goblin archers next to each."""


def _arena(rnd: random.Random, areas: tuple[str, ...], n: int) -> list[ev.Event]:
    log: list[ev.Event] = []
    for seed in range(n):
        variants = {**_variants(rnd), "skl_auto_reserve": rnd.random() < 0.5}
        log += replay(skill_hybrid(SKIRMISH, areas, variants), seed)
    return log


def test_the_hybrid_plays_skill_based_reactions() -> None:
    """The hybrid's reactions are skill-based's own, which the kernel implements."""
    rs = get_ruleset("test-pfb-skill-based-hybrid", {"hybrid_areas": [*PORTED, "reactions"]})
    assert isinstance(rs.reactions, SkillAttacksOfOpportunity)
    assert unsupported_components(rs) == []


def test_skill_attacks_of_opportunity_replay_the_reference_log() -> None:
    """SKL-AOO-01/10/11/24: leaving a threatened square by a move provokes one free attack of opportunity a round,
    refreshed with the reserve; SKL-AOO-02: never by a creature that cannot act."""
    log = _play(BASE, 30, 31)
    spent = _spent(log)
    assert any("a threatened square)" in r and "leaves" in r for r in spent)


def test_distracting_acts_and_the_threatening_attack_replay_the_reference_log() -> None:
    """SKL-AOO-14/17: firing a ranged weapon or loading a crossbow in a threatened square provokes before it
    happens; SKL-AOO-02: a creature threatens with the melee weapon in hand, else an off-hand weapon, else its
    unarmed strike (``skl_unarmed_threatens``) — the attack of opportunity made with it."""
    rnd = random.Random(3)
    log = _arena(rnd, BASE, 12) + _arena(rnd, (*BASE, "attack"), 12)
    spent = _spent(log)
    assert any("fires a ranged weapon in a threatened square (SKL-AOO-14)" in r for r in spent)
    assert any("loads a crossbow in a threatened square (SKL-AOO-17)" in r for r in spent)
    made = {e.attack for e in log if isinstance(e, ev.AttackResolved)}
    assert "fist" in made and "dagger" in made  # skill-based's attack holds both undrawn


def test_skill_reactions_with_every_ported_area_replay_the_reference_log() -> None:
    """Skill-based's reactions with its stat blocks (everyone's unarmed strike), attack, economy, active defense,
    actions and the rest of the ported areas: the attack of opportunity may itself be blocked or dodged."""
    areas = (*PORTED, "reactions", "sheets")
    log = _play(areas, 30, 32) + _arena(random.Random(4), areas, 12)
    assert _spent(log)


def test_a_feat_makes_a_distracting_act_no_provocation() -> None:
    """SKL-AOO-22: a feat ``no_provoke:<act>`` is an exception — compiled per creature; the battle replays."""
    brawler = SKIRMISH["combatants"][0]
    calm = {**brawler, "stats": {**brawler["stats"], "feats": ["no_provoke:fire_ranged"]}}
    data = {**SKIRMISH, "combatants": [calm, *SKIRMISH["combatants"][1:]]}
    cb = compile_battle(battle_from_data(skill_hybrid(data, BASE, {}), "scenario", None))
    assert cb.kn[K_AOO] == 1 and cb.kn[K_SKL_AOO] == 1
    assert cb.kn[K_SKL_CALM] & SKL_ACT_FIRE and not cb.kn[K_SKL_CALM + 1] & SKL_ACT_FIRE
    rnd = random.Random(3)
    calm_log: list[ev.Event] = []
    plain_log: list[ev.Event] = []
    for seed in range(16):
        variants = {**_variants(rnd), "skl_auto_reserve": rnd.random() < 0.5}
        calm_log += replay(skill_hybrid(data, (*BASE, "attack"), variants), seed)  # shooting next to a foe: SKL's
        plain_log += replay(skill_hybrid(SKIRMISH, (*BASE, "attack"), variants), seed)  # attack allows it
    fires = "against brawler (fires a ranged weapon"
    assert any(fires in r for r in _spent(plain_log)) and not any(fires in r for r in _spent(calm_log))


def test_the_threatening_attack_is_compiled_per_weapon_in_hand() -> None:
    """SKL-AOO-02: the bowman threatens with his fists only while ``skl_unarmed_threatens``; the crossbowman with
    his off-hand dagger; a melee weapon in hand threatens itself."""
    for unarmed in (True, False):
        battle = battle_from_data(skill_hybrid(SKIRMISH, BASE, {"skl_unarmed_threatens": unarmed}), "scenario", None)
        cb = compile_battle(battle)
        row = MAX_SKL_OPTIONS + 1
        assert cb.kn[K_SKL_THREAT + 0 * row + 0 + 1] == (1 if unarmed else -1)  # brawler: shortbow → fist
        assert cb.kn[K_SKL_THREAT + 1 * row + 0 + 1] == 1  # duelist: crossbow → off-hand dagger
        assert cb.kn[K_SKL_THREAT + 2 * row + 0 + 1] == 0  # goblin: its short sword




class _OtherReactions(SkillHybridPathfinder):
    """The hybrid with skill-based's economy but Epic Path's attacks of opportunity in the reactions area."""

    id = "test-skill-economy-other-aoo"

    @classmethod
    def compose(cls, options: Any) -> Policies:
        return super().compose(options).replace(reactions=ThreatenedSquareAoO())


def test_an_economy_refreshing_other_attacks_of_opportunity_is_refused() -> None:
    """SKL-AOO-24: skill-based's economy gives back its own reactions' attack of opportunity; with another
    component's attacks of opportunity in the reactions area the kernel's one pool would serve both — refused,
    and named."""
    RULESETS[_OtherReactions.id] = _OtherReactions
    try:
        data = {**skill_hybrid(SKIRMISH, ("economy",), {}), "ruleset": _OtherReactions.id}
        with pytest.raises(NotCompilable, match=r"attacks of opportunity \(SKL-AOO-24\) of another component"):
            compile_battle(battle_from_data(data, "scenario", None))
    finally:
        del RULESETS[_OtherReactions.id]
