"""The README's examples work as written: every Python block runs, every YAML block is a valid scenario (a block
right after a ``<!-- fragment -->`` comment is a partial example and is skipped)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from d20combat.scenario import battle_from_data
from d20combat.scenario.loader import parse_scenario_text

README = Path("README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)
YAML_BLOCKS = [m.group(2) for m in re.finditer(r"(<!-- fragment -->\s*)?```ya?ml\n(.*?)```", README, flags=re.S)
               if m.group(1) is None]


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_python_block_runs(code: str) -> None:
    exec(compile(code, "README.md", "exec"), {})


def test_the_readme_has_yaml_scenarios() -> None:
    assert YAML_BLOCKS


@pytest.mark.parametrize("text", YAML_BLOCKS, ids=[f"yaml{i}" for i in range(len(YAML_BLOCKS))])
def test_readme_yaml_block_is_a_valid_scenario(text: str) -> None:
    battle = battle_from_data(parse_scenario_text(text, "README.md"), "README.md")
    assert len(battle.creatures) >= 2
