"""WOA-CYCLE-06/07/11/12/13 together: who is aware (the Determining Awareness reading, data/woa_awareness.yaml), and
the surprise attacks before round 1 — one attack from where each aware creature stands, at a creature caught by
surprise, which keeps neither its Dex, shield nor dodge bonus and can neither dodge nor block; then round 1."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules._builders import ac, stats
from tests.rules.woa._react import orc, prompt, spent
from tests.rules.woa._util import HERO, ORC, declare_all, pass_surprise_attacks, who, woa

from d20combat.dice import ScriptedDice
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.rulesets.worlds_of_adventure.awareness import Awareness, AwarenessReading, awareness_reading
from d20combat.scenario import battle_from_data


def ambush(dice: list[int], *, orc_block: dict[str, Any] | None = None, **kw: Any) -> Encounter:
    """hero (2,2) and archer (2,5) are aware; the orc at (3,2) is caught by surprise."""
    archer = stats("archer", hp=12, attack_bonus=2, abilities={"dex": 18}, saves={"ref": 7},
                   attacks=[{"weapon": "shortbow"}], wielding="shortbow")
    return woa([who("hero", HERO, "heroes", (2, 2)), who("archer", archer, "heroes", (2, 5)),
                who("orc", orc_block or ORC, "monsters", (3, 2))], dice,
               surprise={"surprised": ["orc"]}, **kw)


def test_woa_cycle_07_the_aware_attack_first_highest_initiative_modifier_first() -> None:
    """WOA-CYCLE-07: before round 1 the aware make their surprise attacks — the archer (initiative +7: base Ref 3 + Dex
    4) before the hero (+4), no roll; the orc's turn passes; round 1 of the combat is the engine's round 2."""
    enc = ambush([])
    s = enc.state
    assert s.surprise_round and s.round == 1 and s.first_round == 2
    assert list(s.order) == ["archer", "hero", "orc"]
    assert enc.state.actor == "archer" and not s.declaring
    assert not [e for e in enc.log if isinstance(e, ev.InitiativeRolled)]  # no roll for the order
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())  # hero; the orc's turn passes by itself
    passed = [e for e in enc.log if isinstance(e, ev.TurnEnded) and e.combatant == "orc"]
    assert passed and "WOA-CYCLE-07" in passed[0].reason
    assert not enc.state.surprise_round and enc.state.round == 2 and enc.state.declaring


def test_woa_cycle_07_one_attack_from_where_it_stands_at_a_surprised_creature() -> None:
    """WOA-CYCLE-07: the surprise attack is one attack — no move, no charge, only at the unaware."""
    enc = ambush([15, 2])
    for action, words in ((ax.Move(to=(2, 6)), "only make its surprise attack"),
                          (ax.Charge("orc"), "only make its surprise attack"),
                          (ax.Attack("hero"), "")):
        with pytest.raises(IllegalAction) as err:
            enc.act(action)
        assert words in str(err.value)
    assert enc.state.actor == "archer" and enc.state.turn is not None and enc.state.turn.standard  # nothing spent
    enc.act(ax.Attack("orc"))  # one shot…
    with pytest.raises(IllegalAction):
        enc.act(ax.Attack("orc"))  # …and only one


def test_woa_cycle_11_12_the_surprise_attack_costs_dex_and_shield_and_allows_no_dodge_or_block() -> None:
    """WOA-CYCLE-11: against the surprise attack the orc (Dex 14, heavy shield) has AC 10 + armor… without Dex and
    shield; WOA-CYCLE-12: a warrior 4 with a reaction left is not asked to dodge or block it. In round 1 (no longer
    a surprise attack) it keeps them: flat-footed alone does not cost Dex (WOA-CYCLE-11's default reading)."""
    guard = orc(warrior=4, abilities={"dex": 14}, hp=40, shield="heavy-wooden-shield")
    enc = ambush([15, 3], orc_block=guard)
    assert ac(enc, "archer", "orc") == 10
    enc.act(ax.EndTurn())  # archer passes
    events = enc.act(ax.Attack("orc"))
    assert enc.pending is None and not spent(events, "orc")
    line = "\n".join(next(e for e in events if isinstance(e, ev.AttackResolved)).lines)
    assert "vs AC 10 (10)" in line
    pass_surprise_attacks(enc)
    assert enc.state.get("orc").has("flat_footed")  # still, until its turn (WOA-CYCLE-08)
    assert ac(enc, "archer", "orc") == 10 + 2 + 2  # Dex 2 and the heavy shield 2 are back


def test_woa_cycle_12_an_attack_in_round_2_may_be_blocked_once_the_orc_has_acted() -> None:
    """WOA-CYCLE-07/12: after the surprise attacks the attacks are expected: once the orc has had its turn in round 1
    (no longer flat-footed, WOA-CYCLE-08/09) the hero's attack in round 2 is asked about (dodge, block)."""
    guard = orc(warrior=4, abilities={"dex": 14}, hp=40)
    enc = ambush([1, 1, 20, 10, 1, 1], orc_block=guard)
    declare_all(enc)
    while enc.state.round == 2:
        enc.act(ax.EndTurn())
    assert not enc.state.get("orc").has("flat_footed")
    declare_all(enc, ax.Declare(standard="attack", target="orc"))
    assert enc.state.actor == "hero"
    enc.act(ax.Attack("orc"))
    assert prompt(enc).reactor == "orc" and {"dodge", "block"} <= set(prompt(enc).options)


def test_woa_cycle_13_improved_uncanny_dodge_keeps_its_ac_against_the_surprise_attack() -> None:
    """WOA-CYCLE-13: improved uncanny dodge keeps the Dex bonus against the surprise attack (AC 12)."""
    sharp = orc(warrior=4, abilities={"dex": 14}, hp=40, feats=["improved_uncanny_dodge"])
    plain = orc(warrior=4, abilities={"dex": 14}, hp=40)
    assert ac(ambush([], orc_block=sharp), "hero", "orc") == 12
    assert ac(ambush([], orc_block=plain), "hero", "orc") == 10


def test_woa_cycle_08_the_surprised_stay_flat_footed_through_the_surprise_attacks() -> None:
    """WOA-CYCLE-08: the orc's passed turn before round 1 is no chance to act: it is flat-footed into round 1 and
    takes −20 on that initiative check (WOA-CYCLE-03)."""
    enc = ambush([10, 10, 19])
    pass_surprise_attacks(enc)
    assert enc.state.get("orc").has("flat_footed")
    declare_all(enc)
    orc_roll = next(e for e in enc.log if isinstance(e, ev.InitiativeRolled) and e.combatant == "orc")
    assert orc_roll.total == 19 + 1 - 20 and "(round 1)" in orc_roll.explanation


def test_woa_cycle_07_nobody_surprised_no_surprise_attacks() -> None:
    """WOA-CYCLE-06/07: with nobody surprised round 1 opens with the declarations."""
    enc = woa([who("hero", HERO, "heroes", (2, 2)), who("orc", ORC, "monsters", (3, 2))], [])
    assert not enc.state.surprise_round and enc.state.first_round == 1 and enc.state.declaring


def test_woa_cycle_08_flat_footed_is_set_in_the_scenarios_order() -> None:
    """WOA-CYCLE-08: the surprised are marked in the scenario's order (a stable log, whatever the set's order)."""
    orcs = [who(f"orc-{i}", ORC, "monsters", (3, i)) for i in (4, 1, 3, 2)]
    enc = woa([who("hero", HERO, "heroes", (2, 2)), *orcs], [],
              surprise={"surprised": ["orc-2", "orc-1", "orc-4", "orc-3"]})
    marked = [e.target for e in enc.log if isinstance(e, ev.ConditionSet) and e.condition == "flat_footed"]
    assert marked == ["orc-4", "orc-1", "orc-3", "orc-2"]


# --- WOA-CYCLE-06: the Determining Awareness reading (data/woa_awareness.yaml) ----------------------------------------
def battle(sneaky_orcs: int = 2, **extra: Any) -> Any:
    def orc_(i: int) -> dict[str, Any]:
        return {"id": f"orc-{i}", "side": "orcs", "position": [5, i], "sneaky": True,
                "stats": {"name": "orc", "hp": 8, "attack_bonus": 2, "skills": {"stealth": 2},
                          "attacks": [{"weapon": "club"}]}}

    data = {"ruleset": "worlds-of-adventure", "map": {"width": 8, "height": 8},
            "combatants": [{"id": "hero", "side": "heroes", "position": [1, 1],
                            "stats": {"name": "hero", "hp": 10, "attack_bonus": 2, "skills": {"perception": 3},
                                      "attacks": [{"weapon": "longsword"}]}},
                           *[orc_(i) for i in range(1, sneaky_orcs + 1)]], **extra}
    return battle_from_data(data)


def test_woa_cycle_06_the_data_files_reading() -> None:
    """WOA-CYCLE-06 (MISSING sidebar): the reading the engine plays is the data file's — Stealth against Perception,
    aware on noticing any hider, and one surprise attack each in initiative-modifier order."""
    r = awareness_reading()
    assert r == AwarenessReading("stealth", "perception", "any", True, "initiative_modifier")


@pytest.mark.parametrize(("aware_when", "surprised"), [("any", []), ("all", ["hero"])])
def test_woa_cycle_06_an_observer_is_aware_when_it_notices_any_hider(aware_when: str, surprised: list[str]) -> None:
    """WOA-CYCLE-06: orc-1 Stealth 12 + 2 = 14, orc-2 Stealth 18 + 2 = 20; the hero's Perception 13 + 3 = 16 notices
    orc-1 only: aware under the reading ``any`` (the default), surprised under ``all``."""
    settled = Awareness(AwarenessReading(aware_when=aware_when)).settle(battle(), ScriptedDice([12, 18, 13]))
    assert settled.surprised == surprised
    assert any("hero Perception 16" in n for n in settled.notes)
    assert settled.round == bool(surprised)  # the surprise attacks only when someone is caught


def test_woa_cycle_06_the_scenario_is_the_dms_word() -> None:
    """WOA-CYCLE-01/06: a scenario's list is the DM's ruling: nothing is rolled."""
    dice = ScriptedDice([])
    settled = Awareness().settle(battle(surprise={"surprised": ["hero"]}), dice)
    assert settled.surprised == ["hero"] and settled.round and "WOA-CYCLE-01" in settled.notes[0]


def test_woa_cycle_07_the_reading_can_turn_the_surprise_attack_off() -> None:
    """WOA-CYCLE-07 (the data file's ``surprise_attack.attack: false``): the surprised, but no attacks first."""
    settled = Awareness(AwarenessReading(surprise_attack=False)).settle(battle(surprise={"surprised": ["hero"]}),
                                                                       ScriptedDice([]))
    assert settled.surprised == ["hero"] and not settled.round


def test_woa_cycle_06_a_wrong_reading_names_the_field(monkeypatch: pytest.MonkeyPatch) -> None:
    """A data file with a bad value is refused, naming the field."""
    import d20combat.rulesets.worlds_of_adventure.awareness as aw

    class Fake:
        def joinpath(self, _: str) -> Fake:
            return self

        def read_text(self, _: str) -> str:
            return "hider_skill: stealth\nobserver_skill: perception\naware_when: sometimes\n"

    monkeypatch.setattr(aw.resources, "files", lambda _: Fake())
    aw.awareness_reading.cache_clear()
    try:
        with pytest.raises(ValueError, match="aware_when"):
            aw.awareness_reading()
    finally:
        monkeypatch.undo()
        aw.awareness_reading.cache_clear()


def test_woa_cycle_07_a_surprise_attack_that_drops_the_orc() -> None:
    """WOA-CYCLE-07 with damage: the hero's surprise stab (d20 15, 1d8 = 8) leaves the 10-hp orc at 2; the ally
    (aware: it may aid the attack, a combat reaction, and declines) finishes it before round 1 even begins — and the
    fight ends there."""
    enc = woa([who("hero", HERO, "heroes", (2, 2)), who("ally", HERO, "heroes", (4, 2)),
               who("orc", ORC, "monsters", (3, 2))], [15, 8, 15, 8], surprise={"surprised": ["orc"]})
    enc.act(ax.Attack("orc"))
    assert prompt(enc).reactor == "ally" and prompt(enc).kind == "aid_attack"
    enc.respond("none")
    assert enc.state.get("orc").hp == 2
    enc.act(ax.EndTurn())
    enc.act(ax.Attack("orc"))
    if enc.pending is not None:
        enc.respond("none")
    assert enc.state.ended and enc.state.winner == "heroes"
