"""WOA-INIT-06..20: readying — a declared standard action whose attack fires when its trigger starts its turn."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.woa._util import HERO, ORC, declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.rulesets.worlds_of_adventure.reactions import READYING
from d20combat.rulesets.worlds_of_adventure.ready import TRIGGER_MISSED, Ready, readied

READY = ax.Declare(standard="ready", move="move", target="orc")
SWING = ax.Declare(standard="attack", move="move", target="hero")


def duel(dice: list[int], **kw: Any) -> Encounter:
    return woa([who("hero", HERO, "heroes", (2, 2)), who("orc", ORC, "monsters", (3, 2))], dice, **kw)


def notes(enc: Encounter) -> list[str]:
    return [e.text for e in enc.log if isinstance(e, ev.Note)]


def test_woa_init_06_and_09_ready_is_the_declared_standard_action() -> None:
    """WOA-INIT-06, WOA-INIT-09: ready is declared as the standard action with its trigger; taken on the turn it spends
    the
    standard action and leaves the move action."""
    enc = duel([10, 3])  # hero 14, orc 4
    declare_all(enc, READY, SWING)
    enc.act(Ready())
    turn = enc.state.turn
    assert turn is not None and not turn.standard and turn.move
    held = readied(enc.view(enc.state), "hero")
    assert held is not None and (held.trigger, held.target, held.attack) == ("orc", "orc", "longsword")


def test_woa_init_07_the_ready_declaration_is_no_attack_on_the_turn() -> None:
    """WOA-INIT-07: the readied attack waits for its trigger; declared ready, the hero may not simply attack."""
    enc = duel([10, 3])
    declare_all(enc, READY, SWING)
    with pytest.raises(IllegalAction, match="WOA-INIT-07/11"):
        enc.act(ax.Attack(target="orc"))


def test_woa_init_07_and_08_fires_when_the_trigger_starts_its_turn_and_interrupts() -> None:
    """WOA-INIT-07, WOA-INIT-08: after the hero's slot the orc starts its turn: the readied attack interrupts first
    (d20 15,
    d8 5), then the orc acts."""
    enc = duel([10, 3, 15, 5])
    declare_all(enc, READY, SWING)
    enc.act(Ready())
    enc.act(ax.EndTurn())
    hits = [e for e in enc.log if isinstance(e, ev.AttackResolved)]
    assert [(h.attacker, h.target, h.hit) for h in hits] == [("hero", "orc", True)]
    assert enc.state.get("orc").hp == 5 and enc.state.actor == "orc"
    assert any("interrupts (WOA-INIT-07/08)" in n for n in notes(enc))
    assert readied(enc.view(enc.state), "hero") is None


def test_woa_init_11_a_missed_trigger_allows_the_attack_on_the_turn() -> None:
    """WOA-INIT-11: the orc (20) acts before the hero (14): the trigger is missed; on its turn the hero may make the
    readied attack anyway, without interrupting."""
    enc = duel([10, 19, 15, 5])
    declare_all(enc, READY, ax.Declare())
    assert enc.state.actor == "orc" and enc.state.get("hero").has(TRIGGER_MISSED)
    enc.act(ax.EndTurn())
    enc.act(ax.Attack(target="orc"))
    assert enc.state.get("orc").hp == 5


def test_woa_init_12_14_15_keep_readying_and_win_initiative_next_round() -> None:
    """WOA-INIT-12, WOA-INIT-14, WOA-INIT-15: the missed hero keeps readying; declared again in round 2 it fires as the
    orc starts its
    turn — though the orc (20) rolled above the hero (9) again."""
    enc = duel([10, 19, 5, 19, 15, 5])
    declare_all(enc, READY, ax.Declare())
    enc.act(ax.EndTurn())
    enc.act(Ready())  # (b): continue into the next round; the standard action is spent
    turn = enc.state.turn
    assert turn is not None and not turn.standard
    enc.act(ax.EndTurn())
    declare_all(enc, READY, ax.Declare())
    assert enc.state.order == ("orc", "hero")
    assert enc.state.get("orc").hp == 5
    assert any("WOA-INIT-15" in n for n in notes(enc))


def test_woa_init_16_each_round_of_readying_spends_the_standard_action() -> None:
    """WOA-INIT-16: carried over, ready is again the round's standard action (and only the same readied attack)."""
    enc = duel([10, 19, 5, 3])  # round 2: hero 9 before orc 4
    declare_all(enc, READY, ax.Declare())
    enc.act(ax.EndTurn())
    enc.act(Ready())
    enc.act(ax.EndTurn())
    declare_all(enc, READY, ax.Declare())
    assert enc.state.actor == "hero"
    enc.act(Ready())
    turn = enc.state.turn
    assert turn is not None and not turn.standard and turn.move


def test_woa_init_13_not_declared_again_the_readied_attack_is_abandoned() -> None:
    """WOA-INIT-13: a readied attack not declared again is given up."""
    enc = duel([10, 19, 5, 19])
    declare_all(enc, READY, ax.Declare())
    enc.act(ax.EndTurn())
    enc.act(Ready())
    enc.act(ax.EndTurn())
    declare_all(enc)
    assert readied(enc.view(enc.state), "hero") is None
    assert any("abandoned (WOA-INIT-13)" in n for n in notes(enc))


def test_woa_init_17_readying_creatures_make_no_reactions() -> None:
    """WOA-INIT-17: from the declaration on, a readying creature carries the condition the reactions read."""
    enc = duel([10, 3])
    declare_all(enc, READY, SWING)
    assert enc.state.get("hero").has(READYING) and not enc.state.get("orc").has(READYING)


def three(dice: list[int], **variants: Any) -> Encounter:
    return woa([who("hero", HERO, "heroes", (2, 2)), who("goblin", ORC, "monsters", (2, 3)),
                who("orc", ORC, "monsters", (3, 2))], dice,
               variants={"woa_monster_initiative": "individual", **variants})


def test_woa_init_20_damage_forces_a_concentration_check_at_10_plus_damage() -> None:
    """WOA-INIT-20: the goblin hits the readying hero for 4: concentration d20 3 + Con 0 vs DC 14 fails — the
    readied attack is lost and does not fire on the orc."""
    enc = three([10, 8, 3, 15, 4, 3])  # hero 14, goblin 9, orc 4; goblin hits (18), 4 damage; check 3
    declare_all(enc, READY, ax.Declare(standard="attack", move="move", target="hero"), ax.Declare())
    enc.act(Ready())
    enc.act(ax.EndTurn())
    enc.act(ax.Attack(target="hero"))
    enc.respond("none")  # WOA-REACT-05: the orc does not aid the goblin's attack
    assert any("DC 14 = 10 + 4" in n and "no longer readied" in n for n in notes(enc))
    enc.act(ax.EndTurn())
    assert enc.state.actor == "orc" and enc.state.get("orc").hp == 10


def test_woa_init_20_a_miss_checks_at_dc_10_by_default() -> None:
    """WOA-INIT-20 (AMBIGUOUS): a miss forces the check at DC 10 + 0 (``woa_ready_check_on_miss``); 12 keeps it."""
    enc = three([10, 8, 3, 2, 12])
    declare_all(enc, READY, ax.Declare(standard="attack", move="move", target="hero"), ax.Declare())
    enc.act(Ready())
    enc.act(ax.EndTurn())
    enc.act(ax.Attack(target="hero"))
    enc.respond("none")  # WOA-REACT-05: the orc does not aid the goblin's attack
    assert any("DC 10 = 10 + 0" in n and "kept" in n for n in notes(enc))
    assert readied(enc.view(enc.state), "hero") is not None


def test_woa_init_20_option_no_check_on_a_miss() -> None:
    """WOA-INIT-20 with ``woa_ready_check_on_miss: false``: only damage forces the check."""
    enc = three([10, 8, 3, 2], woa_ready_check_on_miss=False)
    declare_all(enc, READY, ax.Declare(standard="attack", move="move", target="hero"), ax.Declare())
    enc.act(Ready())
    enc.act(ax.EndTurn())
    enc.act(ax.Attack(target="hero"))
    enc.respond("none")  # WOA-REACT-05: the orc does not aid the goblin's attack
    assert not any("WOA-INIT-20" in n for n in notes(enc))


def test_woa_init_06_bad_ready_is_refused() -> None:
    """WOA-INIT-06: the trigger is the declared one; the target a creature of the fight, not the readier."""
    enc = duel([10, 3])
    declare_all(enc, READY, SWING)
    for bad, msg in ((Ready(trigger="ghost"), "declared its ready against orc"),
                     (Ready(target="ghost"), "no creature 'ghost'"), (Ready(target="hero"), "not itself"),
                     (Ready(attack="axe"), "no attack 'axe'")):
        with pytest.raises(IllegalAction, match=msg):
            enc.act(bad)
    assert enc.state.turn is not None and enc.state.turn.standard


def test_woa_init_14_a_readied_attack_that_cannot_be_made_is_not_taken() -> None:
    """WOA-INIT-14: the trigger starts its turn out of reach: the readied attack is not taken and stays held, to be
    kept into the next round."""
    enc = woa([who("hero", HERO, "heroes", (2, 2)), who("orc", ORC, "monsters", (8, 2))], [10, 3])
    declare_all(enc, READY)
    enc.act(Ready())
    enc.act(ax.EndTurn())
    assert enc.state.actor == "orc" and readied(enc.view(enc.state), "hero") is not None
    assert any("stays readied" in n for n in notes(enc))


def apart(dice: list[int]) -> Encounter:
    return woa([who("hero", HERO, "heroes", (2, 2)), who("orc", ORC, "monsters", (4, 2))], dice)


def test_woa_init_10_a_short_step_as_part_of_the_readied_attack() -> None:
    """WOA-INIT-10: the orc 10 ft away starts its turn: the hero steps to (3, 2) and makes its readied attack."""
    enc = apart([10, 3, 15, 4])
    declare_all(enc, READY)
    enc.act(Ready(step=(3, 2)))
    enc.act(ax.EndTurn())
    assert enc.state.get("hero").position == (3, 2) and enc.state.get("orc").hp == 6
    assert any("short step to (3, 2) as part of its readied attack (WOA-INIT-10)" in n for n in notes(enc))


def test_woa_init_10_no_short_step_after_other_movement() -> None:
    """WOA-INIT-10: only if the readier does not otherwise move that round — before the ready it is refused; moving
    after it, the step is not taken when the trigger comes (and the attack, out of reach, stays readied)."""
    enc = apart([10, 3])
    declare_all(enc, READY)
    enc.act(ax.Move(to=(2, 3)))
    with pytest.raises(IllegalAction, match=r"ready.step: it moves otherwise this round \(WOA-INIT-10\)"):
        enc.act(Ready(step=(3, 3)))
    enc = apart([10, 3])
    declare_all(enc, READY)
    enc.act(Ready(step=(3, 2)))
    enc.act(ax.Move(to=(1, 2)))
    enc.act(ax.EndTurn())
    assert enc.state.get("hero").position == (1, 2)
    assert any("takes no short step" in n for n in notes(enc))
    assert readied(enc.view(enc.state), "hero") is not None
