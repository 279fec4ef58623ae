"""Issue 13, item 1: the engine names the dice an action rolls, in its own order, one at a time.

Under off-guard the concealment d% comes after a hit (CMV-CONC-08) and a miss rolls none (CMV-CONC-09); the
game master's dialog must offer exactly that order, so the engine is asked, not guessed.
"""

from __future__ import annotations

from tests.conftest import make_encounter, who
from tests.rules.cmv.test_cmv_concealment import melee

from d20combat.encounter import actions as ax
from d20combat.encounter.dice_probe import probe_dice
from d20combat.encounter.engine import Encounter


def _unchanged(enc: Encounter) -> tuple[object, int, object]:
    return enc.state, len(enc.log), enc.pending


def test_cmv_conc_08_the_concealment_d_percent_is_asked_after_the_attack_d20_and_only_on_a_hit() -> None:
    """CMV-CONC-08/09 through the probe: d20 first; on a hit the defender's d%, then the club's d6."""
    enc = melee([".f..", "...."])
    before = _unchanged(enc)
    first = probe_dice(enc, ax.Attack("t"))
    assert (first.next.sides, first.next.purpose) == (20, "attack a->t")  # type: ignore[union-attr]
    hit = probe_dice(enc, ax.Attack("t"), [(20, 15)])
    assert hit.next is not None and hit.next.sides == 100 and hit.next.purpose.startswith("concealment")
    struck = probe_dice(enc, ax.Attack("t"), [(20, 15), (100, 50)])
    assert struck.next is not None and (struck.next.sides, struck.next.purpose) == (6, "damage club")
    done = probe_dice(enc, ax.Attack("t"), [(20, 15), (100, 50), (6, 4)])
    assert done.complete and [d.sides for d in done.typed] == [20, 100, 6]
    miss = probe_dice(enc, ax.Attack("t"), [(20, 2)])
    assert miss.complete and [d.sides for d in miss.typed] == [20]
    assert _unchanged(enc) == before  # nothing changed, nothing rolled


def test_a_typed_die_of_the_wrong_kind_names_the_die_expected() -> None:
    """The honest entry of a d% first (the old dialog's order) is refused naming the d20 the engine rolls."""
    enc = melee([".f..", "...."])
    wrong = probe_dice(enc, ax.Attack("t"), [(100, 50)])
    assert wrong.error is not None and "d20" in wrong.error and "attack a->t" in wrong.error
    too_many = probe_dice(enc, ax.Attack("t"), [(20, 2), (100, 50)])
    assert too_many.error is not None and "more than this action rolls" in too_many.error
    unsided = probe_dice(enc, ax.Attack("t"), [(None, 15), (None, 50), (None, 4)])  # bare faces fit any die
    assert unsided.complete


def test_a_threat_asks_for_its_confirmation_then_the_multiplied_damage() -> None:
    """PFB-CRIT-03/04: a natural 20 threatens; the confirmation d20 comes next, then the weapon's dice twice."""
    enc = make_encounter([who("f", "heroes", "fighter", (1, 1)), who("g", "goblins", "goblin", (2, 1))],
                         dice=[])
    probe = probe_dice(enc, ax.Attack("g"), [(20, 20)])
    assert probe.next is not None and probe.next.purpose.startswith("confirm")
    crit = probe_dice(enc, ax.Attack("g"), [(20, 20), (20, 19)])
    assert crit.next is not None and crit.next.purpose.startswith("damage")


def test_an_illegal_action_is_refused_with_the_engine_reason() -> None:
    enc = make_encounter([who("f", "heroes", "fighter", (1, 1)), who("g", "goblins", "goblin", (8, 8))], dice=[])
    probe = probe_dice(enc, ax.Attack("g", "longsword"))
    assert probe.error and probe.next is None
