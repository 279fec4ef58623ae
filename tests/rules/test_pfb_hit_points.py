"""Pathfinder Beginner Box: hit points — disabled at 0, dying at −1, dead at −Con.

PFB-HP-01..03 (shared/spec/rules/PFB.md). The disabled and dying procedures are MISSING from the
text; the PF1 defaults (variant pfb_dying = "pf1") are tested, and the "static" variant.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.conftest import illegal, who

from d20combat.dice import ScriptedDice
from d20combat.encounter import actions as A
from d20combat.encounter import events as ev
from d20combat.encounter.apply import apply
from d20combat.encounter.engine import Encounter
from d20combat.rules.health import Health, dying_check, health
from d20combat.scenario import battle_from_data

# ----------------------------------------------------------------------------- helpers


def build(combatants: list[dict[str, Any]], *, dice: tuple[int, ...] | list[int] = (),
          variants: dict[str, Any] | None = None) -> Encounter:
    for i, c in enumerate(combatants):
        c.setdefault("initiative", 100 - i)
    data = {"ruleset": "pathfinder-beginner", "variants": variants or {}, "map": {"width": 12, "height": 12},
            "combatants": combatants, "surprise": {"surprised": []}}
    enc = Encounter(battle_from_data(data), ScriptedDice(dice))
    enc.start()
    return enc


def party(hero_hp: int, *, hero: Any = "wizard", **kw: Any) -> Encounter:
    """Fighter "f" first (far away), then the hero "x" at ``hero_hp`` next to goblin "g" (last)."""
    return build([who("f", "heroes", "fighter", (10, 10)), who("x", "heroes", hero, (1, 1), hp=hero_hp,
                                                               starts_down=hero_hp <= 0),
                  who("g", "goblins", "goblin", (2, 1)), who("h", "goblins", "goblin", (11, 0))], **kw)


def gm(enc: Encounter, *events: ev.Event) -> None:
    """A game-master intervention the engine has no action for (healing)."""
    for event in events:
        enc.state = apply(enc.state, event)
        enc.log.append(event)


def actor(enc: Encounter) -> str | None:
    return enc.state.turn.actor if enc.state.turn else None


def to_turn_of(enc: Encounter, cid: str, round_: int) -> None:
    for _ in range(100):
        if actor(enc) == cid and enc.state.round == round_:
            return
        enc.act(A.EndTurn())
    raise AssertionError(f"never reached {cid} in round {round_}")


def skipped(enc: Encounter, cid: str) -> list[str]:
    return [e.reason for e in enc.log if isinstance(e, ev.TurnEnded) and e.combatant == cid and e.reason]


# ----------------------------------------------------------------------------- HP-01 disabled


def test_pfb_hp_01_zero_hit_points_is_disabled() -> None:
    """PFB-HP-01, derived example: a Con 12 fighter at 5 hp takes 5 → 0 → disabled (not dying)."""
    assert health(5 - 5, 12) is Health.DISABLED
    assert health(1, 12) is Health.OK
    enc = party(4, dice=[18, 3])
    enc.act(A.EndTurn())
    enc.act(A.EndTurn())
    enc.act(A.Attack("x"))  # 18 + 1 ≥ AC 12; 1d4 3 + Str 0 = 3: 4 → 1
    assert enc.state.get("x").hp == 1
    notes = [e.text for e in enc.log if isinstance(e, ev.Note)]
    assert not any("disabled" in n for n in notes)
    enc2 = party(3, dice=[18, 3])
    enc2.act(A.EndTurn())
    enc2.act(A.EndTurn())
    enc2.act(A.Attack("x"))
    assert enc2.state.get("x").hp == 0
    assert any("disabled" in e.text for e in enc2.log if isinstance(e, ev.Note))
    assert not enc2.is_helpless("x")


def test_pfb_hp_01_disabled_creature_takes_a_single_move_or_standard_action() -> None:
    """PFB-HP-01 (PF1 default): at 0 hp one move *or* standard action per turn, no full-round action,
    no double move; moving (move action) keeps it at 0."""
    enc = party(0)
    enc.act(A.EndTurn())
    assert actor(enc) == "x"
    illegal(enc, A.Activity("disable-trap"))
    illegal(enc, A.Charge("h"))
    enc.act(A.Move(to=(1, 3)))
    assert enc.state.get("x").hp == 0
    illegal(enc, A.Move(to=(1, 4)))
    illegal(enc, A.Activity("cast-spell"))


def test_pfb_hp_01_disabled_creature_keeps_its_free_action() -> None:
    """PFB-HP-01 (PF1 default): a free action is still allowed, before or after the single action."""
    enc = party(0)
    enc.act(A.EndTurn())
    enc.act(A.Activity("speak"))
    enc.act(A.Move(to=(1, 3)))
    enc2 = party(0)
    enc2.act(A.EndTurn())
    enc2.act(A.Move(to=(1, 3)))
    enc2.act(A.Activity("speak"))


def test_pfb_hp_01_standard_action_while_disabled_costs_1_hp() -> None:
    """PFB-HP-01 (PF1 default), derived example: a disabled creature at 0 hp attacks (standard) →
    afterwards it takes 1 → −1, unconscious and dying, and its turn ends."""
    enc = party(0, hero="fighter", dice=[2])
    enc.act(A.EndTurn())
    events = enc.act(A.Attack("g"))  # natural 2: a miss, but the strain still costs 1 hp
    assert enc.state.get("x").hp == -1
    strain = [e for e in events if isinstance(e, ev.Damaged) and e.source == "strenuous"]
    assert len(strain) == 1 and strain[0].amount == 1
    assert enc.is_helpless("x")
    assert actor(enc) == "g"


def test_pfb_hp_01_casting_while_disabled_also_strains() -> None:
    """PFB-HP-01 (PF1 default): any standard action (here: casting a spell) costs the 1 hp."""
    enc = party(0)
    enc.act(A.EndTurn())
    enc.act(A.Activity("cast-spell"))
    assert enc.state.get("x").hp == -1


def test_pfb_hp_01_healing_above_zero_restores_full_function() -> None:
    """PFB-HP-01: healed from 0 to 1, the creature has its full budget again (move and attack)."""
    enc = party(0, hero="fighter", dice=[2])
    gm(enc, ev.Healed("x", 1, "potion"))
    enc.act(A.EndTurn())
    enc.act(A.Move(to=(1, 2)))
    enc.act(A.Attack("g"))
    assert enc.state.get("x").hp == 1


# ----------------------------------------------------------------------------- HP-02 dying


def test_pfb_hp_02_below_zero_is_unconscious_dying_and_helpless() -> None:
    """PFB-HP-02: at −1 or lower the creature is dying and helpless; it takes no actions (its turn is
    skipped) but keeps its place in the initiative order."""
    assert health(-1, 12) is Health.DYING
    enc = party(-1, variants={"pfb_dying": "static"})
    assert enc.is_helpless("x")
    order = enc.state.order
    enc.act(A.EndTurn())
    assert actor(enc) == "g"
    assert skipped(enc, "x") == ["dying"]
    assert enc.state.order == order and enc.state.get("x").initiative == 99


def test_pfb_hp_02_dying_check_fails_and_loses_one_hp() -> None:
    """PFB-HP-02 (PF1 default), derived example: dying at −3 with Con Mod +1; on its turn d20 11 →
    11 + 1 − 3 = 9 < DC 10 → it loses 1 → −4."""
    assert dying_check(11, 1, -3) == (False, 9)
    enc = party(-3, dice=[11])
    enc.act(A.EndTurn())
    assert enc.state.get("x").hp == -4 and not enc.state.get("x").stable
    assert actor(enc) == "g"
    assert [r.purpose for r in enc.dice.rolls] == ["dying check x"]


def test_pfb_hp_02_dying_check_success_stabilizes() -> None:
    """PFB-HP-02 (PF1 default), derived example: d20 12 → 12 + 1 − 3 = 10 → stable at −3; a stable
    creature makes no more checks and loses nothing, but stays unconscious."""
    assert dying_check(12, 1, -3) == (True, 10)
    enc = party(-3, dice=[12])
    enc.act(A.EndTurn())
    assert enc.state.get("x").stable and enc.state.get("x").hp == -3
    to_turn_of(enc, "g", 3)  # two more of x's turns pass with no die (scripted dice would run out)
    assert enc.state.get("x").hp == -3 and enc.is_helpless("x")
    assert skipped(enc, "x") == ["stable", "stable", "stable"]  # unconscious, no longer dying (issue 11, item 9)


def test_pfb_hp_02_natural_20_always_stabilizes() -> None:
    """PFB-HP-02 (PF1 default): a natural 20 succeeds even when the total is below 10 (Con 18 at −16:
    20 + 4 − 16 = 8); a 19 there fails."""
    assert dying_check(20, 4, -16) == (True, 8)
    assert dying_check(19, 4, -16) == (False, 7)
    tough = {"name": "tough", "hp": 20, "abilities": {"con": 18}, "attacks": [{"weapon": "dagger"}],
             "wielding": "dagger"}
    enc = party(-16, hero=tough, dice=[20])
    enc.act(A.EndTurn())
    assert enc.state.get("x").stable and enc.state.get("x").hp == -16
    enc2 = party(-16, hero=tough, dice=[19])
    enc2.act(A.EndTurn())
    assert enc2.state.get("x").hp == -17 and not enc2.state.get("x").stable


def test_pfb_hp_02_first_check_comes_on_the_next_turn_after_falling() -> None:
    """PFB-HP-02 (PF1 default): a creature that falls below 0 on the goblin's turn makes no check then;
    its first check is on its own next turn."""
    enc = party(2, dice=[18, 4, 15])
    enc.act(A.EndTurn())
    enc.act(A.EndTurn())
    enc.act(A.Attack("x"))  # 19 ≥ 12; 4 damage → −2
    assert enc.state.get("x").hp == -2 and enc.dice.remaining == 1
    to_turn_of(enc, "g", 2)
    assert enc.dice.remaining == 0
    assert enc.state.get("x").stable  # 15 + 1 − 2 = 14 ≥ 10


def test_pfb_hp_02_static_variant_loses_nothing() -> None:
    """PFB-HP-02 variant pfb_dying = "static": a dying creature rolls nothing and loses nothing."""
    enc = party(-3, variants={"pfb_dying": "static"})
    to_turn_of(enc, "f", 4)
    assert enc.state.get("x").hp == -3
    assert enc.dice.rolls == []


def test_pfb_hp_02_healing_a_stable_creature() -> None:
    """PFB-HP-02 (PF1 default), derived example: stable at −3, healed for 3 → 0: conscious and
    disabled (one action); healed for 4 → 1: fully functional."""
    enc = party(-3, dice=[12])
    enc.act(A.EndTurn())
    assert enc.state.get("x").stable
    gm(enc, ev.Healed("x", 3, "cure"))
    assert enc.ruleset.injury.health(enc.creature("x"), enc.state.get("x")) is Health.DISABLED
    to_turn_of(enc, "x", 2)
    enc.act(A.Move(to=(1, 3)))
    illegal(enc, A.Move(to=(1, 5)))
    enc2 = party(-3, dice=[12])
    enc2.act(A.EndTurn())
    gm(enc2, ev.Healed("x", 4, "cure"))
    to_turn_of(enc2, "x", 2)
    enc2.act(A.Move(to=(1, 3)))
    enc2.act(A.Move(to=(1, 5)))


# ----------------------------------------------------------------------------- HP-03 dead


@pytest.mark.parametrize(
    ("hp", "con", "expected"),
    [(0, 12, Health.DISABLED), (-1, 12, Health.DYING), (-11, 12, Health.DYING), (-12, 12, Health.DEAD),
     (-9, 10, Health.DYING), (-10, 10, Health.DEAD), (-30, 10, Health.DEAD)],
)
def test_pfb_hp_03_dead_at_negative_constitution_score(hp: int, con: int, expected: Health) -> None:
    """PFB-HP-03, derived examples: Con 12: −11 dying, −12 dead; Con 10: −9 dying, −10 dead."""
    assert health(hp, con) is expected


def test_pfb_hp_03_engine_kills_at_minus_con() -> None:
    """PFB-HP-03: a dying goblin (Con 12) at −4 takes 8 → −12: dead; it can't be attacked again and
    its turns pass without a dying check."""
    enc = build([who("f", "heroes", "fighter", (1, 1)), who("g", "goblins", "goblin", (2, 1), hp=-4, starts_down=True),
                 who("h", "goblins", "goblin", (11, 11))], dice=[15, 5])
    enc.act(A.Attack("g"))  # 15 + 5 hits the helpless goblin; 1d8 5 + Str 3 = 8
    assert enc.state.get("g").hp == -12 and enc.is_dead("g")
    assert any("is dead" in e.text for e in enc.log if isinstance(e, ev.Note))
    assert "dead" in (enc.check(A.Attack("g")) or "")
    enc.act(A.EndTurn())  # g's slot passes without a die; h's turn
    assert actor(enc) == "h" and skipped(enc, "g") == ["dead"]
