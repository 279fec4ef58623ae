"""Shared test builders: small inline scenarios with forced dice."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from d20combat.dice import ScriptedDice
from d20combat.encounter.actions import Action
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.scenario import battle_from_data


def make_encounter(
    combatants: list[dict[str, Any]],
    *,
    rows: list[str] | None = None,
    width: int = 12,
    height: int = 12,
    dice: Iterable[int] = (),
    variants: dict[str, Any] | None = None,
    start: bool = True,
    ruleset: str = "pathfinder-beginner",
    **extra: Any,
) -> Encounter:
    """Build an encounter from inline combatant specs (scenario format).

    Initiative: give every combatant an ``initiative`` so no dice are needed to start; the order is
    then by those numbers. ``dice`` are the forced faces used afterwards, in order.
    """
    for i, c in enumerate(combatants):
        c.setdefault("initiative", 100 - i)
    map_spec: dict[str, Any] = {"rows": rows} if rows is not None else {"width": width, "height": height}
    data = {"ruleset": ruleset, "variants": variants or {}, "map": map_spec, "combatants": combatants, **extra}
    data.setdefault("surprise", {"surprised": []})
    enc = Encounter(battle_from_data(data), ScriptedDice(dice))
    if start:
        enc.start()
    return enc


def who(cid: str, side: str, stats: Any, pos: tuple[int, int], **extra: Any) -> dict[str, Any]:
    """A combatant entry of the scenario format."""
    return {"id": cid, "side": side, "stats": stats, "position": list(pos), **extra}


def illegal(enc: Encounter, action: Action) -> str:
    """The action is refused by ``check`` and by ``act``, with a message, and nothing changes (state and
    log). Returns the message."""
    before, log_len = enc.state, len(enc.log)
    reason = enc.check(action)
    assert reason is not None, f"{action} should be illegal"
    with pytest.raises(IllegalAction) as info:
        enc.act(action)
    assert enc.state is before and len(enc.log) == log_len
    return str(info.value)


@pytest.fixture
def encounter_factory() -> Any:
    return make_encounter


BROWSER_SKIPPED = "browser tests skipped"
"""The prefix of tests/browser's skip reason when Chromium is missing."""


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Say so at the end of the run when the browser tests were skipped (``make test`` then did not check the
    game master's table in a browser)."""
    reasons = set()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        if isinstance(longrepr, tuple) and len(longrepr) == 3 and BROWSER_SKIPPED in str(longrepr[2]):
            reasons.add(str(longrepr[2]).removeprefix("Skipped: "))
    for reason in sorted(reasons):
        terminalreporter.write_line(f"NOTE {reason}", yellow=True, bold=True)
