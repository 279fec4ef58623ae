"""EP-TIME-12: XP and treasure only after all combat, only for defeated enemies, never twice — the engine records
who defeated whom once per creature, whatever resets happen (the "Not mechanizable" table's reading)."""

from __future__ import annotations

from tests.rules.ep._util import ep, texts
from tests.rules.ep.test_ep_melee import GUARD, VETERAN

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.encounter.gm_actions import GmDamage, GmHeal
from d20combat.rulesets.epic_path.rewards import defeated_by


def fight(dice: list[int], **variants: object) -> Encounter:
    return ep([{"id": "v", "side": "a", "stats": VETERAN, "position": [2, 2]},
               {"id": "g", "side": "b", "stats": {**GUARD, "hp": 3}, "position": [3, 2]},
               {"id": "h", "side": "b", "stats": GUARD, "position": [9, 9]}], dice=dice,
              variants={"ep_defeated": "dead", **variants})


def test_ep_time_12_a_defeated_creature_is_reported_once_across_resets() -> None:
    """EP-TIME-12: g falls to v's club in round 1; two 10-round resets later the ledger still holds it once and the
    log says it once."""
    enc = fight([15, 3, 12, 8, 12, 8], max_encounter_rounds=3)
    events = enc.act(ax.Attack("g"))
    assert "g is defeated by v: its XP and treasure are counted once" in texts(events)
    resets = 0
    while enc.state.round < 8:
        for e in enc.act(ax.EndTurn()):
            events.append(e)
            resets += isinstance(e, ev.EncounterClockSet)
    assert resets == 2
    assert defeated_by(enc.state) == {"g": "v"}
    assert texts(events).count("is defeated by") == 1


def test_ep_time_12_healed_and_defeated_again_counts_once() -> None:
    """EP-TIME-12: a creature healed and defeated a second time (here by the GM's damage) is still one entry, under
    whoever defeated it first."""
    enc = fight([15, 3], ep_defeated="unconscious")
    enc.act(ax.Attack("g"))
    enc.gm(GmHeal("g", 3))
    assert enc.state.get("g").hp > 0
    again = enc.gm(GmDamage("g", 5))
    assert enc.state.get("g").hp <= 0 and "is defeated by" not in texts(again)
    assert defeated_by(enc.state) == {"g": "v"}


def test_ep_time_12_nobody_defeated_nothing_recorded() -> None:
    """EP-TIME-12: a hit that leaves the foe standing records nothing."""
    enc = fight([15, 2])
    enc.act(ax.Attack("g"))
    assert enc.state.get("g").hp == 1 and defeated_by(enc.state) == {}
