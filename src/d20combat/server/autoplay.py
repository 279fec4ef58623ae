"""The tactical AI plays for the game master (issue 13, item 2): one action, the rest of a turn, or every turn until
the players' side is to act. Each action is its own write, so each undoes alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from d20combat.controllers import TacticalAI
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.server.inputs import Json, Rejected
from d20combat.server.live import Live

AI_MAX_WRITES = 500
"""The most actions one AI request plays (a whole round of a big battle is far fewer)."""

Resolve = Callable[[Live, Callable[[Encounter], list[ev.Event]], list[Any], list[str], str], Json]
"""``Service._resolve``: commits one write of the live encounter and answers its result."""


def play(live: Live, until: str, resolve: Resolve) -> Json:
    """Play with the AI (the caller holds the encounter's lock and checked the version); stops at a reaction the
    players' side must answer and when the encounter ends (``reaction``: :func:`answer_reaction`). The answer: the
    last write's result with every event the AI's writes made."""
    enc = live.enc
    if enc.state.ended:
        raise Rejected("the encounter is over")
    if until == "reaction":
        return answer_reaction(live, resolve)
    if enc.state.actor is None:
        raise Rejected("no one's turn")
    ai, first = TacticalAI(), enc.state.actor  # the creature declaring (a declaration phase) or acting
    events: list[Json] = []
    result: Json | None = None
    for _ in range(AI_MAX_WRITES):
        s = enc.state
        if s.ended or s.actor is None:
            break
        if enc.pending is not None:
            prompt = enc.pending.prompt
            if enc.creature(prompt.reactor).side == live.players:
                break  # the players answer their own reactions
            answer = ai.react(enc, prompt)

            def respond(e: Encounter, answer: str = answer) -> list[ev.Event]:
                return e.respond(answer)

            result = resolve(live, respond, [], [], "reaction")
        else:
            actor = s.actor
            if result is not None and ((until == "action")
                                       or (until == "turn" and actor != first)
                                       or (until == "players" and enc.creature(actor).side == live.players)):
                break
            if until == "players" and enc.creature(actor).side == live.players:
                raise Rejected(f"it is {actor}'s turn, on the players' side: the AI plays the others")
            action = ai.choose(enc)

            def act(e: Encounter, action: ax.Action = action) -> list[ev.Event]:
                return e.act(action)

            result = resolve(live, act, [], [], action.kind)
        events += result["events"]
    if result is None:
        raise Rejected("the AI had nothing to do")
    return {**result, "events": events}



def answer_reaction(live: Live, resolve: Resolve) -> Json:
    """The AI answers the reaction being asked for now — on either side: the GM asked it to (a dodge, a block, an aid,
    an attack of opportunity: the ruleset orders the options so that the first is the AI's preference). One answer,
    one write; a reaction the engine asks next waits for its own answer."""
    enc = live.enc
    if enc.pending is None:
        raise Rejected("until: no reaction is being asked for")
    answer = TacticalAI().react(enc, enc.pending.prompt)

    def respond(e: Encounter) -> list[ev.Event]:
        return e.respond(answer)

    return resolve(live, respond, [], [], "reaction")
