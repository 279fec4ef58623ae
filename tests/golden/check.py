"""Check the golden corpus without pytest, naming the first battles that differ (and any traceback):
``python -m tests.golden.check [RULESET[,RULESET…]] [N]``."""

from __future__ import annotations

import json
import sys
import traceback
from concurrent.futures import ProcessPoolExecutor

from tests.golden.corpus import RULESETS, corpus, digest, play_log
from tests.golden.record import HASHES


def _one(args: tuple[str, int]) -> tuple[str, str, str]:
    ruleset, index = args
    name, data, seed = corpus(ruleset)[index]
    try:
        return ruleset, name, digest(play_log(data, seed))
    except Exception:
        return ruleset, name, "error: " + traceback.format_exc()[-1500:]


def main() -> int:
    rulesets = sys.argv[1].split(",") if len(sys.argv) > 1 else list(RULESETS)
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    recorded = json.loads(HASHES.read_text())
    bad: list[tuple[str, str, str]] = []
    with ProcessPoolExecutor(2) as pool:
        for ruleset, name, h in pool.map(_one, [(r, i) for r in rulesets for i in range(n)], chunksize=5):
            if recorded[ruleset][name] != h:
                bad.append((ruleset, name, h))
    print(f"{len(bad)} of {n * len(rulesets)} battles differ")
    for ruleset, name, h in bad[:5]:
        print(f"  {ruleset} {name}: {h if h.startswith('error') else 'different log'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
