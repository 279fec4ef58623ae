"""The guide's smallest ruleset (docs/adding-a-ruleset.md): its code block, executed as written, composes a
ruleset that changes one policy; a battle under it plays to the end, on the reference engine and on the fast
path (the changed policy is a static one), and the changed rule shows."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from d20combat.controllers import TacticalAI, play
from d20combat.dice import SeededDice
from d20combat.encounter.engine import Encounter
from d20combat.rulesets import RULESETS, get_ruleset
from d20combat.scenario import battle_from_data
from d20combat.simulation.fast.compile import compile_battle, unsupported_components
from d20combat.simulation.fast.runner import play_fast
from d20combat.simulation.fast.trace import fast_entries, reference_entries

ROOT = Path(__file__).resolve().parents[1]


def _guide_namespace() -> dict[str, Any]:
    text = (ROOT / "docs" / "adding-a-ruleset.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", text, re.S)
    assert block is not None
    namespace: dict[str, Any] = {"__name__": "guide"}
    exec(compile(block.group(1), "docs/adding-a-ruleset.md", "exec"), namespace)
    return namespace


def test_the_guides_ruleset_changes_one_policy_and_plays() -> None:
    ns = _guide_namespace()
    try:
        rs = get_ruleset("wide-threat-pathfinder")
        base = get_ruleset("pathfinder-beginner")
        changed = [area for area, cls, _ in rs.composition() if cls != dict(
            (a, c) for a, c, _ in base.composition())[area]]
        assert changed == ["criticals"]
        data: dict[str, Any] = yaml.safe_load((ROOT / "examples" / "goblin-ambush.yaml").read_text(encoding="utf-8"))
        data["ruleset"] = "wide-threat-pathfinder"
        battle = battle_from_data(data, "scenario", None)
        longsword = battle.creatures["valeros"].attack("longsword")
        assert rs.criticals.threatens(18, longsword, True) and not base.criticals.threatens(18, longsword, True)
        enc = play(Encounter(battle, SeededDice(3)), TacticalAI())
        assert enc.state.ended
        assert unsupported_components(rs) == []
        cb = compile_battle(battle)
        assert reference_entries(enc.log) == fast_entries(cb, play_fast(cb, 3, log=True))
    finally:
        RULESETS.pop("wide-threat-pathfinder", None)
    assert ns["WideThreatPathfinder"].compose(ns["WideThreatPathfinder"].Options()).criticals.__class__.__name__ \
        == "WideThreats"
