"""Each creature's off-turn reactions on the tracker (issue 16: "reaction prompts with the budget left shown on
the tracker"): how many it has left this round and how many it was given at the round's start.

Generic over rulesets: a ruleset whose reactions component gives a per-round pool (its ``round_pools``, named by its
``pool`` — worlds-of-adventure's combat reactions, WOA-REACT-02; epic-path's attack of opportunity, EP-AOO-12) shows
it; one without (PFB's ``NoReactions``) shows nothing. The budget is what the round's start set (the first
``ReactionsSet`` of the creature since the round began: restricted activity's halving, WOA-ACT-24, included), else
what the economy would give now. Pure reads (the caller holds the lock).
"""

from __future__ import annotations

from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.server.inputs import Json


def pool_of(enc: Encounter) -> str | None:
    """The name of the reactions component's per-round pool, or None when it budgets none."""
    rx = enc.ruleset.reactions
    pool = getattr(rx, "pool", None)
    return pool if isinstance(pool, str) and callable(getattr(rx, "round_pools", None)) else None


def given_this_round(enc: Encounter, pool: str) -> dict[str, int]:
    """Each creature's ``pool`` as first set since the current round began (by the round's refresh, or on joining)."""
    out: dict[str, int] = {}
    for e in reversed(enc.log):
        if isinstance(e, ev.RoundStarted):
            break
        if isinstance(e, ev.ReactionsSet) and pool in e.pools:
            out[e.combatant] = e.pools[pool]  # walking back: the earliest of the round is kept last
    return out


def budgets(enc: Encounter) -> dict[str, Json]:
    """``{cid: {"pool", "left", "budget"}}`` for every creature with a per-round budget (empty in a ruleset without
    one); ``left`` is never more than ``budget``."""
    pool = pool_of(enc)
    if pool is None:
        return {}
    given = given_this_round(enc, pool)
    s = enc.state
    out: dict[str, Json] = {}
    for cid, cs in s.combatants.items():
        budget = given.get(cid)
        if budget is None:
            budget = enc.ruleset.economy.round_reactions(enc.creature(cid), cs).get(pool)
        left = cs.reactions.get(pool, 0)
        if budget is None and pool not in cs.reactions:
            continue
        out[cid] = {"pool": pool, "left": left, "budget": max(budget or 0, left)}
    return out
