"""The epic-path ruleset as composed so far: registered, playable, with Epic Path's attacks of opportunity."""

from __future__ import annotations

import re

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


AMBIGUOUS = (
    "EP-INIT-07", "EP-SURP-18", "EP-SURP-26", "EP-ACT-02", "EP-ACT-51", "EP-MOVE-08", "EP-ATK-23", "EP-DMG-04",
    "EP-DMG-10", "EP-DMG-11", "EP-AC-04", "EP-COV-14", "EP-CONC-39", "EP-DEF-05", "EP-DEF-12", "EP-MAN-03",
    "EP-SPLASH-18", "EP-COND-06", "EP-COND-09", "EP-COND-12", "EP-COND-28", "EP-COND-31", "EP-COND-34", "EP-COND-36",
    "EP-CDG-04", "EP-SAVE-03", "EP-TIME-06", "EP-TIME-14", "EP-MISC-11", "EP-MISC-19",
)
"""EP.md's appendix: the 30 rules flagged AMBIGUOUS."""


def test_ep_every_ambiguous_rule_is_a_named_option() -> None:
    """Issue 15: every AMBIGUOUS rule of EP.md is an EpOptions field citing its ID (EP-ACT-51, EP-MOVE-08, EP-ATK-23,
    EP-AC-04, EP-DEF-12, EP-SPLASH-18, EP-COND-31 among them) — except EP-ACT-02, whose reading (the eight action
    types from the headings) has no behavioural alternative."""
    from d20combat.rulesets.epic_path.options import EpOptions

    described = " ".join(f.description or "" for f in EpOptions.model_fields.values())
    cited = {rule for rule in AMBIGUOUS if re.search(rf"{rule}\b", described)}
    assert len(AMBIGUOUS) == 30
    assert set(AMBIGUOUS) - cited == {"EP-ACT-02"}
