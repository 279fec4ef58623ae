"""Random battles for the fast path's equivalence tests: the shared generator of the golden corpus."""

from tests.golden.corpus import CHARS, STATS, random_battle

__all__ = ["CHARS", "STATS", "random_battle"]
