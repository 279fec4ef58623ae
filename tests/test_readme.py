"""The README's Python examples work as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

BLOCKS = re.findall(r"```python\n(.*?)```", Path("README.md").read_text(encoding="utf-8"), flags=re.S)


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_python_block_runs(code: str) -> None:
    exec(compile(code, "README.md", "exec"), {})
