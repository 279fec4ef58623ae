"""Epic Path's special senses and who sees whom (EP-CONC-12, EP-CONC-14, EP-CONC-18, EP-CONC-19, EP-CONC-37).

A sense is a stat block's ``senses: {name: range_ft}`` entry; what each sense can do is the data file
``data/ep_senses.yaml`` (the seed names the senses but gives no table: the inventory's reading). Pure functions
over the creatures and their states; the concealment component (:mod:`.seeing`) asks them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint
from d20combat.encounter.state import CombatantState
from d20combat.rulesets.components import CoreSheets
from d20combat.rulesets.components.component import View

INVISIBLE_STATES = ("invisible", "faded", "ethereal")
"""States that make a creature invisible: invisible itself, faded (EP-CONC-38) and ethereal (EP-CONC-37)."""


def has_state(cs: CombatantState, name: str) -> bool:
    """The creature is in the state ``name``, stored bare or with arguments (``faded`` or ``faded:5``)."""
    return cs.has(name) or any(c.startswith(name + ":") for c in cs.conditions)


def invisible_state(cs: CombatantState) -> bool:
    """Invisible, faded or ethereal (with or without arguments)."""
    return any(has_state(cs, s) for s in INVISIBLE_STATES)


@dataclass(frozen=True, slots=True)
class Sense:
    name: str
    requires_los: bool
    combat_targeting: bool
    ethereal: bool


@lru_cache(maxsize=1)
def sense_table() -> dict[str, Sense]:
    """The special senses Epic Path knows (``data/ep_senses.yaml``)."""
    text = resources.files("d20combat.data").joinpath("ep_senses.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    return {name: Sense(name, bool(p["requires_los"]), bool(p["combat_targeting"]), bool(p["ethereal"]))
            for name, p in data.items()}


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def senses_of(view: View, cid: str) -> dict[str, int]:
    """The creature's special senses in range order: name → range in feet (unknown names are ignored here; the
    scenario check names them)."""
    table = sense_table()
    return {_key(n): ft for n, ft in view.creature(cid).sheet.senses.items() if _key(n) in table}


def unknown_senses(names: list[str]) -> list[str]:
    """The names that are not one of Epic Path's senses (for the scenario check)."""
    table = sense_table()
    return [n for n in names if _key(n) not in table]


def distance(view: View, a: str, b: str) -> int:
    sa, sb = view.state.get(a), view.state.get(b)
    return footprint_distance_ft(Footprint(sa.position, view.creature(a).space),
                                 Footprint(sb.position, view.creature(b).space))


def targeting_sense(view: View, observer: str, target: str, *, ethereal_list: tuple[str, ...] = ()) -> str | None:
    """The observer's sense that targets ``target`` in combat without needing to see it (EP-CONC-12: blindsense,
    tremorsense…), within its range; or None. Against an ethereal target only the senses flagged ``ethereal`` in
    the data or named in ``ethereal_list`` count (EP-CONC-37)."""
    ethereal = view.state.get(target).has("ethereal")
    table = sense_table()
    d = distance(view, observer, target)
    for name, ft in sorted(senses_of(view, observer).items()):
        sense = table[name]
        if sense.requires_los or not sense.combat_targeting or ft < d:
            continue
        if ethereal and not (sense.ethereal or name in ethereal_list):
            continue
        return f"{name} {ft} ft"
    return None


def is_invisible(view: View, cid: str) -> bool:
    """The creature is invisible (invisible, faded or ethereal)."""
    cs = view.state.get(cid)
    return invisible_state(cs)


def sees_invisible(view: View, observer: str, target: str, *, ethereal_list: tuple[str, ...] = ()) -> str | None:
    """How ``observer`` perceives the invisible ``target`` well enough to cancel invisibility's benefits
    (EP-CONC-14: non-visual targeting senses, see invisibility), or None."""
    ethereal = view.state.get(target).has("ethereal")
    if view.state.get(observer).has("sees_invisible") and not ethereal:
        return "sees invisible"
    table, d = sense_table(), distance(view, observer, target)
    for name, ft in sorted(senses_of(view, observer).items()):
        sense = table[name]
        if sense.requires_los and sense.combat_targeting and ft >= d and (
                not ethereal or sense.ethereal or name in ethereal_list):
            return f"{name} {ft} ft"  # a sight that pierces invisibility (see invisibility, true seeing)
    return targeting_sense(view, observer, target, ethereal_list=ethereal_list)


def unseen_by(view: View, attacker: str, observer: str, *, ethereal_list: tuple[str, ...] = ()) -> bool:
    """``attacker`` is invisible and ``observer`` has nothing that perceives it (EP-CONC-15/18)."""
    return is_invisible(view, attacker) and sees_invisible(view, observer, attacker,
                                                           ethereal_list=ethereal_list) is None


class EpSheets(CoreSheets):
    """PFB's stat blocks, whose ``senses`` must be senses Epic Path knows (``data/ep_senses.yaml``, EP-CONC-12)."""

    def check_stat_block(self, sheet: Any) -> list[str]:
        bad = unknown_senses(list(sheet.senses))
        if not bad:
            return []
        return [f"senses: {', '.join(repr(b) for b in bad)} not a sense Epic Path knows; known: "
                f"{', '.join(sorted(sense_table()))} (data/ep_senses.yaml)"]


ETHEREAL_SIGHT_FT = 60
"""EP-COND-39: an ethereal creature sees and hears the Material Plane only to 60 feet."""


def beyond_ethereal_sight(view: View, observer: str, target: str) -> bool:
    """EP-COND-39: ``observer`` is ethereal, ``target`` material and farther than 60 ft — out of its sight and
    hearing (another ethereal creature it sees as material, EP-COND-43)."""
    os_, ts = view.state.get(observer), view.state.get(target)
    if not os_.has("ethereal") or ts.has("ethereal") or os_.position is None or ts.position is None:
        return False
    return distance(view, observer, target) > ETHEREAL_SIGHT_FT
