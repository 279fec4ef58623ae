"""Record the golden corpus's log hashes: ``python -m tests.golden.record [RULESET …]``.

Run it only when a change is *meant* to change how battles play, and say so in the commit."""

from __future__ import annotations

import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from tests.golden.corpus import RULESETS, corpus, digest, play_log

HASHES = Path(__file__).with_name("hashes.json")


def _one(args: tuple[str, int]) -> tuple[str, str, str]:
    ruleset, index = args
    name, data, seed = corpus(ruleset)[index]
    return ruleset, name, digest(play_log(data, seed))


def main(rulesets: list[str]) -> None:
    known: dict[str, dict[str, str]] = json.loads(HASHES.read_text()) if HASHES.exists() else {}
    jobs = [(r, i) for r in rulesets for i in range(len(corpus(r)))]
    for r in rulesets:
        known[r] = {}
    with ProcessPoolExecutor(2) as pool:
        for ruleset, name, h in pool.map(_one, jobs, chunksize=8):
            known[ruleset][name] = h
    HASHES.write_text(json.dumps(known, indent=1, sort_keys=True) + "\n")
    print({r: len(v) for r, v in known.items()})


if __name__ == "__main__":
    main(sys.argv[1:] or list(RULESETS))
