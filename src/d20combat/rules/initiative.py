"""Initiative: d20 + Dex (+4 Improved Initiative, counted once), highest first, tied creatures roll off
(PFB-INIT)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from d20combat.dice import DiceSource
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier


def initiative_modifiers(creature: Creature) -> list[Modifier]:
    """PFB-INIT-02/03: the sheet's total if it gives one, else Dex + 4 for Improved Initiative."""
    if creature.sheet.init_modifier is not None:
        return [Modifier(creature.sheet.init_modifier, "Init")]
    mods = [Modifier(creature.dex_mod, "Dex")]
    if creature.has_feat("improved_initiative"):
        mods.append(Modifier(4, "Improved Initiative"))
    return mods


def order_by_initiative(
    totals: Sequence[tuple[str, int]], dice: DiceSource, tiebreak: Mapping[str, int] | None = None,
    tiebreak_rule: str = "",
) -> tuple[list[str], list[str]]:
    """Order from highest to lowest (PFB-INIT-04). A tied group rolls 1d20 each, higher first; those
    still tied roll again. The roll-off orders only the tied group and changes nobody's initiative
    (PFB-INIT-05). ``tiebreak``: a first tie-breaker before the roll-off, higher first (WOA-CYCLE-22: the
    initiative modifier; ``tiebreak_rule`` cites it in the notes). Returns (order, tie-break notes)."""
    by_total: dict[tuple[int, int], list[str]] = {}
    for cid, value in totals:
        by_total.setdefault((value, tiebreak.get(cid, 0) if tiebreak else 0), []).append(cid)
    order: list[str] = []
    notes: list[str] = []
    if tiebreak:
        for value in sorted({v for v, _ in by_total}, reverse=True):
            keys = sorted((k for k in by_total if k[0] == value), reverse=True)
            if len(keys) > 1:
                parts = ", ".join(f"{'/'.join(by_total[k])} ({k[1]:+d})" for k in keys)
                notes.append(f"tie at {value}: the higher initiative modifier first — {parts} {tiebreak_rule}".rstrip())
    for key in sorted(by_total, reverse=True):
        order.extend(_roll_off(by_total[key], key[0], dice, notes))
    return order, notes


def _roll_off(group: list[str], value: int, dice: DiceSource, notes: list[str]) -> list[str]:
    if len(group) == 1:
        return group
    rolls = {cid: dice.roll(20, f"initiative tie {cid}") for cid in group}
    notes.append(f"tie at {value}: " + ", ".join(f"{cid} rolls {r}" for cid, r in rolls.items()))
    result: list[str] = []
    for face in sorted(set(rolls.values()), reverse=True):
        result.extend(_roll_off([c for c in group if rolls[c] == face], value, dice, notes))
    return result
