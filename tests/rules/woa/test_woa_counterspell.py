"""WOA-INIT-22..24: readied counterspells — a Spellcraft check identifies the spell (the DC: data/woa_counterspell.yaml,
an assumption), the same spell ruins it, dispel magic may (a dispel check)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules._builders import stats
from tests.rules.woa._util import declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.encounter.gm_actions import GmDamage
from d20combat.rulesets.worlds_of_adventure.counterspell import counter_rules
from d20combat.rulesets.worlds_of_adventure.ready import TRIGGER_MISSED, Ready, readied, readied_action
from d20combat.rulesets.worlds_of_adventure.spells import CastSpell


def wizard(**attributes: int) -> dict[str, Any]:
    """Initiative +1; Spellcraft +9 (Int 16)."""
    return stats("wizard", hp=30, attack_bonus=2, abilities={"int": 16, "dex": 10}, saves={"ref": 1},
                 skills={"spellcraft": 9, "concentration": 8}, attributes=attributes or {"spell_fireball": 1},
                 attacks=[{"weapon": "dagger"}])


SHAMAN = stats("shaman", hp=30, attack_bonus=2, abilities={"int": 10, "dex": 10}, saves={"ref": 1},
               skills={"concentration": 5}, attributes={"spell_fireball": 2, "spell_magic_missile": 2,
                                                        "caster_level": 7},
               attacks=[{"weapon": "dagger"}])
"""A foe caster of level 7 (the dispel DC: 11 + 7 = 18)."""
READY = ax.Declare(standard="ready", move="move", target="shaman")
FIREBALL = ax.Declare(full_round="cast_spell")
WIZARD_FIRST = [15, 5]
"""The initiative dice: the wizard 16, the shaman 6."""


def duel(dice: list[int], readier: dict[str, Any] | None = None) -> Encounter:
    return woa([who("wizard", readier or wizard(), "heroes", (1, 1)), who("shaman", SHAMAN, "monsters", (10, 10))],
               dice)


def readied_then_cast(dice: list[int], readier: dict[str, Any] | None = None) -> tuple[Encounter, list[ev.Event]]:
    """Round 1: the wizard readies a counterspell; the shaman casts fireball at it."""
    enc = duel([*WIZARD_FIRST, *dice], readier)
    declare_all(enc, READY, FIREBALL)
    enc.act(Ready(trigger="shaman", counterspell=True))
    enc.act(ax.EndTurn())
    assert enc.state.actor == "shaman"
    return enc, enc.act(CastSpell("fireball", "wizard"))


def used(enc: Encounter, cid: str, spell: str) -> int:
    prefix = f"used:spell_{spell}:"
    return next((int(c[len(prefix):]) for c in enc.state.get(cid).conditions if c.startswith(prefix)), 0)


def rolls(events: list[ev.Event], check: str) -> list[ev.SaveRolled]:
    return [e for e in events if isinstance(e, ev.SaveRolled) and e.check == check]


def notes(events: list[ev.Event]) -> list[str]:
    return [e.text for e in events if isinstance(e, ev.Note)]


def pending(enc: Encounter) -> list[str]:
    return sorted(c for c in enc.state.get("shaman").conditions if c.startswith("pending:"))


def test_woa_init_22_23_identified_and_the_same_spell_ruins_it() -> None:
    """WOA-INIT-22: Spellcraft 9 + 9 = 18 vs DC 15 + level 3 = 18 identifies the fireball; WOA-INIT-23: the wizard
    casts its own fireball as a counterspell — the shaman's is ruined: no effect, its full-round action and the use
    spent; the wizard's fireball is spent and its readied counterspell too."""
    enc, events = readied_then_cast([9])
    (check,) = rolls(events, "spellcraft")
    assert (check.dc, check.total, check.success) == (18, 18, True)
    assert any("ruined automatically" in e.reason for e in events if isinstance(e, ev.ConditionSet))
    assert any("fireball is ruined by wizard's counterspell: no effect — its action and the spell are spent "
               "(WOA-INIT-23)" in n for n in notes(events))
    assert used(enc, "wizard", "fireball") == 1 and used(enc, "shaman", "fireball") == 1
    assert pending(enc) == [] and readied_action(enc.view(enc.state), "wizard") is None
    assert next(e for e in events if isinstance(e, ev.BudgetSpent)).cost == "full-round"
    enc.act(ax.EndTurn())
    assert enc.state.get("wizard").hp == 30


def test_woa_init_22_not_identified_the_readied_counterspell_is_spent_for_nothing() -> None:
    """WOA-INIT-22: Spellcraft 8 + 9 = 17 < 18: not identified — the readied counterspell is spent with nothing done,
    the wizard keeps its fireball and the shaman's lands at the end of its turn (5d6 = 10; Reflex 5 + 1 fails)."""
    enc, events = readied_then_cast([8, 2, 2, 2, 2, 2, 5])
    (check,) = rolls(events, "spellcraft")
    assert (check.total, check.success) == (17, False)
    assert any("does not identify the spell: its readied counterspell is spent with nothing done" in n
               for n in notes(events))
    assert used(enc, "wizard", "fireball") == 0 and readied_action(enc.view(enc.state), "wizard") is None
    assert pending(enc) == ["pending:fireball:wizard:end_of_turn:spell"]
    enc.act(ax.EndTurn())
    assert enc.state.get("wizard").hp == 20


def test_woa_init_22_without_spellcraft_an_intelligence_check() -> None:
    """WOA-INIT-22 (the data file's ``untrained: int``): a readier without Spellcraft rolls d20 + Int 3: 15 + 3 = 18
    identifies the fireball."""
    plain = wizard()
    plain["skills"] = {"concentration": 8}
    enc, events = readied_then_cast([15], plain)
    (check,) = rolls(events, "spellcraft")
    assert (check.total, check.success) == (18, True) and "Int check" in check.explanation
    assert pending(enc) == []


def test_woa_init_23_identified_but_no_such_spell_left() -> None:
    """WOA-INIT-23: identified, but the wizard has only magic missile (and no dispel magic): the readied counterspell
    is spent with nothing done, the fireball goes on."""
    enc, events = readied_then_cast([19], wizard(spell_magic_missile=1))
    assert any("identifies fireball but has no fireball left to cast (WOA-INIT-23) nor dispel magic" in n
               for n in notes(events))
    assert used(enc, "wizard", "magic_missile") == 0
    assert pending(enc) == ["pending:fireball:wizard:end_of_turn:spell"]


def test_woa_init_23_the_counterspell_needs_its_components() -> None:
    """WOA-INIT-23 with WOA-SPELL-02: a gagged readier cannot cast the counterspell — spent, nothing done."""
    enc = duel([*WIZARD_FIRST, 19])
    declare_all(enc, READY, FIREBALL)
    enc.act(Ready(trigger="shaman", counterspell=True))
    enc.act(ax.EndTurn())
    from d20combat.encounter.gm_actions import GmCondition

    enc.gm(GmCondition("wizard", "gagged"))
    events = enc.act(CastSpell("fireball", "wizard"))
    assert any("cannot cast fireball: fireball has a verbal component: wizard is gagged" in n for n in notes(events))
    assert used(enc, "wizard", "fireball") == 0 and pending(enc)


@pytest.mark.parametrize(("face", "ruined"), [(13, True), (12, False)])
def test_woa_init_24_dispel_magic_does_not_always_work(face: int, ruined: bool) -> None:
    """WOA-INIT-24: without a fireball of its own the wizard counters with dispel magic — its use spent, then the
    dispel check d20 + caster level 5 vs 11 + the shaman's level 7 = 18 (data/woa_counterspell.yaml, an
    assumption): 13 + 5 counters it, 12 + 5 fails and the fireball goes on."""
    enc, events = readied_then_cast([19, face], wizard(spell_dispel_magic=1, caster_level=5))
    (check,) = rolls(events, "dispel")
    assert (check.dc, check.total, check.success) == (18, face + 5, ruined)
    assert used(enc, "wizard", "dispel_magic") == 1
    assert (pending(enc) == []) is ruined


def test_woa_init_24_the_same_spell_first_and_the_caster_level_capped() -> None:
    """WOA-INIT-24: with both, the same spell counters (automatic, WOA-INIT-23) and dispel magic is kept; with only
    dispel magic a caster level of 14 adds at most +10."""
    enc, events = readied_then_cast([19], wizard(spell_fireball=1, spell_dispel_magic=1))
    assert not rolls(events, "dispel") and used(enc, "wizard", "dispel_magic") == 0 and pending(enc) == []
    enc, events = readied_then_cast([19, 8], wizard(spell_dispel_magic=1, caster_level=14))
    (check,) = rolls(events, "dispel")
    assert check.total == 18 and check.success and "at most +10" in check.explanation


def test_woa_init_24_dispel_magic_is_only_a_counterspell_here() -> None:
    """WOA-INIT-24: dispel magic's other uses are out of scope: cast_spell refuses it and changes nothing."""
    enc = woa([who("shaman", {**SHAMAN, "attributes": {"spell_dispel_magic": 1}}, "heroes", (1, 1)),
               who("wizard", wizard(), "monsters", (10, 10))], WIZARD_FIRST)
    declare_all(enc, ax.Declare(standard="cast_spell", move="move"))
    before = enc.state
    with pytest.raises(IllegalAction, match="dispel magic is used here only as a readied counterspell"):
        enc.act(CastSpell("dispel_magic"))
    assert enc.state is before


def test_woa_init_22_14_15_a_missed_counterspell_is_kept_and_wins_next_round() -> None:
    """WOA-INIT-11/12 then 14/15 for a counterspell: the shaman (20) acts before the wizard (2) and only moves —
    the trigger is missed; the wizard keeps readying into round 2, where the shaman acts first again but the
    readied counterspell answers its fireball (Spellcraft 12 + 9 = 21)."""
    enc = duel([1, 19, 1, 19, 12])
    declare_all(enc, READY, ax.Declare(move="move"))
    assert enc.state.actor == "shaman"
    enc.act(ax.EndTurn())
    assert enc.state.get("wizard").has(TRIGGER_MISSED)
    enc.act(Ready(trigger="shaman", counterspell=True))
    enc.act(ax.EndTurn())
    declare_all(enc, READY, FIREBALL)
    assert enc.state.round == 2 and enc.state.actor == "shaman"
    events = enc.act(CastSpell("fireball", "wizard"))
    assert any("keeps readying: it wins initiative against shaman for its readied counterspell" in n
               for n in notes(list(enc.log)))
    assert rolls(events, "spellcraft")[0].success and pending(enc) == []


def test_woa_init_22_a_readied_counterspell_does_not_fire_on_the_turn_start() -> None:
    """WOA-INIT-22: the trigger is the spell, not the caster's turn: a shaman that only attacks meets no
    counterspell; it stays readied (and is no readied attack)."""
    enc = duel([*WIZARD_FIRST])
    declare_all(enc, READY, ax.Declare(move="move"))
    enc.act(Ready(trigger="shaman", counterspell=True))
    enc.act(ax.EndTurn())
    assert enc.state.actor == "shaman"
    view = enc.view(enc.state)
    held = readied_action(view, "wizard")
    assert held is not None and held.counterspell and readied(view, "wizard") is None
    assert not any(isinstance(e, ev.AttackResolved) for e in enc.log)


def test_woa_init_20_hurt_while_readying_a_counterspell() -> None:
    """WOA-INIT-20 for a counterspell: 6 damage → concentration 1 + 8 vs DC 16 fails: no longer readied."""
    enc = duel([*WIZARD_FIRST, 1])
    declare_all(enc, READY, FIREBALL)
    enc.act(Ready(trigger="shaman", counterspell=True))
    enc.gm(GmDamage("wizard", 6))
    assert readied_action(enc.view(enc.state), "wizard") is None
    assert any("keeps its readied counterspell? concentration" in n for n in notes(list(enc.log)))


@pytest.mark.parametrize(("action", "message"), [
    (Ready(trigger="shaman", counterspell=True, attack="dagger"), "takes no target, attack or step"),
    (Ready(trigger="shaman", counterspell=True, target="shaman"), "takes no target, attack or step"),
])
def test_woa_init_22_bad_counterspell_is_refused(action: Ready, message: str) -> None:
    """Bad input names the problem and changes nothing."""
    enc = duel(WIZARD_FIRST)
    declare_all(enc, READY, FIREBALL)
    before = enc.state
    with pytest.raises(IllegalAction, match=message):
        enc.act(action)
    assert enc.state is before


def test_woa_init_22_no_spell_no_counterspell() -> None:
    """WOA-INIT-23/24: a readier with no spell left cannot ready a counterspell (the readied attack it may)."""
    enc = duel(WIZARD_FIRST, wizard(spell_fireball=0))
    declare_all(enc, READY, FIREBALL)
    before = enc.state
    with pytest.raises(IllegalAction, match="wizard has no spell left to counter with"):
        enc.act(Ready(trigger="shaman", counterspell=True))
    assert enc.state is before
    assert Ready(trigger="shaman", counterspell=True) not in list(enc.legal_actions())


def test_woa_init_22_the_options_list_it_and_it_comes_from_json() -> None:
    """The declaration options list the ready at the caster; the turn's legal actions list the readied
    counterspell beside the readied attack; it is posted as JSON like any action."""
    enc = duel(WIZARD_FIRST)
    assert READY in list(enc.legal_actions())
    declare_all(enc, READY, FIREBALL)
    legal = list(enc.legal_actions())
    assert Ready(trigger="shaman") in legal and Ready(trigger="shaman", counterspell=True) in legal
    assert enc.actions.from_dict({"kind": "ready", "trigger": "shaman", "counterspell": True}) == \
        Ready(trigger="shaman", counterspell=True)
    assert Ready(trigger="shaman", counterspell=True).label() == "Ready a counterspell against shaman"


def test_woa_counterspell_data_reading() -> None:
    """data/woa_counterspell.yaml: the SRD's readings (DC 15 + level; d20 + CL ≤ 10 vs 11 + CL)."""
    r = counter_rules()
    assert (r.skill, r.untrained, r.identify_dc, r.plus_spell_level) == ("spellcraft", "int", 15, True)
    assert (r.dispel_spell, r.caster_level_cap, r.dispel_dc) == ("dispel_magic", 10, 11)
