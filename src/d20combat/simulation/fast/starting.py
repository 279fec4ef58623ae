"""The starting conditions the kernel plays (issue 14): the magical concealment a creature starts with — ``blur``
(20 %) and ``concealed:N`` (N %, 20 without a number) — under off-guard's stacking concealment, where each is a
source of its own on every attack against the creature (CMV-CONC-06, ``StackingConcealment.concealment_sources``)
and no other rule reads them; and off-guard's ``panicked:<source>:<DC>`` (CMV-COND-27..29, :mod:`.kernel_fear`), one
fear a creature, under off-guard's condition table, injury, saves and tactics. Any other starting condition, and any
starting timed effect, is refused by name."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.encounter.battle import Battle
from d20combat.encounter.state import EncounterState
from d20combat.numbers import total
from d20combat.rulesets.off_guard.concealment import StackingConcealment
from d20combat.rulesets.off_guard.conditions import ConditionTable, parse_condition
from d20combat.rulesets.off_guard.injury import DamageTaken
from d20combat.rulesets.off_guard.saves import TableSaves
from d20combat.rulesets.off_guard.tactics import CmvTactics
from d20combat.simulation.fast.layout import (
    BLUR_PCT,
    CONCEALED_PCT,
    FEAR_DC,
    FEAR_SRC,
    K_FEAR_SAVE,
    K_SHAKEN_DEATH,
    WILL_SAVE,
    NotCompilable,
)

I64 = npt.NDArray[np.int64]

MAGIC = frozenset({"blur", "concealed"})
"""The starting magical concealment (by name) the kernel plays."""
PLAYED = MAGIC | {"panicked"}
"""The starting conditions (by name) the kernel plays."""
BLUR = 20
"""CMV-CONC-06: blur is 20 % concealment."""
MIN_INDEPENDENT_PERCENT = 8
"""Under ``cmv_concealment_stack = independent`` the kernel combines sources of at least this many percent exactly
(as :func:`.components._stacking` for terrain)."""


def check_starting(battle: Battle, also: frozenset[str] = frozenset()) -> None:
    """Refuse, by creature and name, a starting condition or timed effect the kernel does not play (``also``: the
    ones another component's port plays, skill-based's two-weapon mode)."""
    for cid, placement in battle.placements.items():
        other = sorted(c for c in placement.conditions if parse_condition(c)[0] not in PLAYED and c not in also)
        if other:
            raise NotCompilable(f"{cid} starts with conditions ({', '.join(other)}); the kernel plays only "
                                f"{', '.join(sorted(PLAYED | also))}")
        if placement.effects:
            raise NotCompilable(f"{cid} starts with timed effects ({', '.join(e.name for e in placement.effects)})")


def magic_concealment(battle: Battle, ids: tuple[str, ...], cs: I64) -> None:
    """``cs[i, BLUR_PCT]`` and ``cs[i, CONCEALED_PCT]`` from creature ``i``'s starting conditions (the first of each
    name in sorted order, as ``stored_conditions`` reads them), or :class:`NotCompilable` when the concealment
    component is not off-guard's stacking one (the only one the kernel plays them with)."""
    rs = battle.ruleset
    for i, cid in enumerate(ids):
        seen: dict[str, tuple[str, ...]] = {}
        for text in sorted(battle.placements[cid].conditions):
            name, args = parse_condition(text)
            if name in MAGIC:
                seen.setdefault(name, args)
        if not seen:
            continue
        if not isinstance(rs.concealment, StackingConcealment):
            raise NotCompilable(f"{cid} starts with conditions ({', '.join(sorted(seen))}); the kernel plays them "
                                f"only with off-guard's stacking concealment")
        if "blur" in seen:
            cs[i, BLUR_PCT] = BLUR
        if "concealed" in seen:
            args = seen["concealed"]
            pct = int(args[0]) if args and args[0].isdigit() else 20
            independent = rs.concealment.opts.cmv_concealment_stack == "independent"
            if pct > 100 or (independent and 0 < pct < MIN_INDEPENDENT_PERCENT):
                raise NotCompilable(f"{cid} starts concealed {pct} % (the kernel plays 0–100 %, at least "
                                    f"{MIN_INDEPENDENT_PERCENT} % with cmv_concealment_stack=independent)")
            cs[i, CONCEALED_PCT] = pct


FEARS = ("shaken", "frightened", "panicked")


def fear(battle: Battle, ids: tuple[str, ...], state0: EncounterState, cs: I64, kn: I64) -> None:
    """``cs[i, FEAR_SRC]``, ``cs[i, FEAR_DC]`` and ``cs[i, WILL_SAVE]`` of a creature that starts panicked, and the
    fear's knobs, or :class:`NotCompilable` when the panic is not off-guard's (its condition table, injury, saves
    and tactics) or the creature starts with another fear besides. ``cs[i, FEAR_SRC]`` is -2 for a creature that
    is not panicked."""
    rs = battle.ruleset
    cs[:, FEAR_SRC] = -2
    cs[:, FEAR_DC] = -1
    for i, cid in enumerate(ids):
        stored: dict[str, tuple[str, ...]] = {}
        fears = 0
        for text in sorted(battle.placements[cid].conditions):
            name, args = parse_condition(text)
            fears += name in FEARS
            stored.setdefault(name, args)
        if "panicked" not in stored:
            continue
        if fears > 1:
            raise NotCompilable(f"{cid} starts with more than one fear; the kernel plays a single panicked")
        if not (isinstance(rs.conditions, ConditionTable) and isinstance(rs.injury, DamageTaken)
                and isinstance(rs.tactics, CmvTactics) and isinstance(rs.saves, TableSaves)):
            raise NotCompilable(f"{cid} starts panicked; the kernel plays it only with off-guard's condition table, "
                                f"injury, saves and tactics")
        args = stored["panicked"]
        cs[i, FEAR_SRC] = ids.index(args[0]) if args and args[0] in ids else -1
        cs[i, FEAR_DC] = int(args[1]) if len(args) >= 2 and args[1].isdigit() else -1
        creature, st = battle.creatures[cid], state0.get(cid)
        cs[i, WILL_SAVE] = total(0, rs.saves.save_modifiers(creature, st, "will"), stacking=rs.stacking).value
    if isinstance(rs.injury, DamageTaken):
        kn[K_FEAR_SAVE] = int(rs.injury.opts.cmv_fear_save == "end-of-turn")
    if isinstance(rs.saves, TableSaves):
        kn[K_SHAKEN_DEATH] = int(rs.saves.opts.cmv_shaken_death_saves)
