"""Same behaviour, proven (issue 10): 300 seeded AI battles per ruleset — the examples and random scenarios
over every terrain, size, variant option and starting condition — play to byte-identical event logs.

The hashes in ``hashes.json`` were recorded before rulesets became compositions of policy components; a
refactoring must keep every one. A change that is *meant* to change play re-records them
(``python -m tests.golden.record``) and says so in its commit.
"""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from tests.golden.corpus import PER_RULESET, RULESETS, corpus, digest, play_log

HASHES: dict[str, dict[str, str]] = json.loads(Path(__file__).with_name("hashes.json").read_text())


def _one(args: tuple[str, int]) -> tuple[str, str]:
    ruleset, index = args
    name, data, seed = corpus(ruleset)[index]
    return name, digest(play_log(data, seed))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_recorded_battles_replay_byte_identically(ruleset: str) -> None:
    recorded = HASHES[ruleset]
    assert len(recorded) == PER_RULESET
    with ProcessPoolExecutor(2) as pool:
        played = dict(pool.map(_one, [(ruleset, i) for i in range(PER_RULESET)], chunksize=10))
    changed = sorted(name for name, h in played.items() if recorded.get(name) != h)
    assert not changed, f"{len(changed)} of {PER_RULESET} {ruleset} battles play differently: {changed[:10]}"


def test_the_corpus_covers_every_option_and_terrain() -> None:
    """The random battles reach every sampled option value, every map character and, where a ruleset has a
    condition table, starting conditions."""
    from tests.golden.corpus import CHARS, CONDITIONS, option_values

    for ruleset in RULESETS:
        items = corpus(ruleset)
        seen: dict[str, set[str]] = {}
        chars: set[str] = set()
        conditions = 0
        for _, data, _ in items:
            for k, v in data.get("variants", {}).items():
                seen.setdefault(k, set()).add(repr(v))
            for row in data["map"].get("rows", []):
                chars |= set(row)
            conditions += sum(1 for c in data["combatants"] if c.get("conditions"))
        for name, values in option_values(ruleset).items():
            assert seen.get(name, set()) == {repr(v) for v in values}, (ruleset, name)
        assert set(CHARS) <= chars
        assert conditions > 20 or ruleset not in CONDITIONS
