"""The epic-path ruleset as composed so far: registered, playable, with Epic Path's attacks of opportunity."""

from __future__ import annotations

from tests.rules.ep._util import FIGHTER, ep, stats

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.rulesets import get_ruleset


def test_ep_ruleset_is_registered() -> None:
    assert get_ruleset("epic-path").id == "epic-path"


def test_ep_aoo_06_leaving_a_threatened_square_provokes_one_aoo() -> None:
    """EP-AOO-06, EP-AOO-12: moving out of a threatened square provokes an attack of opportunity from the
    threatening enemy, and it spends that enemy's one a round."""
    enc = ep([{"id": "mover", "side": "a", "stats": FIGHTER, "position": [2, 2]},
              {"id": "guard", "side": "b", "stats": stats("guard", attack_bonus=5, attacks=[{"weapon": "club"}]),
               "position": [3, 2]}],
             dice=[1])
    assert enc.state.get("guard").reactions["aoo"] == 1
    enc.act(ax.Move(to=(0, 2)))
    assert enc.pending is not None and enc.pending.prompt.reactor == "guard"
    events = enc.respond("attack")
    assert [(e.attacker, e.target, e.hit) for e in events if isinstance(e, ev.AttackResolved)] == \
        [("guard", "mover", False)]
    assert enc.state.get("guard").reactions["aoo"] == 0
    assert enc.state.get("mover").position == (0, 2)
