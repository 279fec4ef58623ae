"""Pathfinder Beginner Box: combat flow, rounds, durations, initiative and surprise.

PFB-RND-01..12, PFB-TIME-01..08, PFB-INIT-01..07, PFB-SURP-01..09 (shared/spec/rules/PFB.md).
Every test forces its dice; ScriptedDice raises when an unexpected die is rolled, so "no die
needed" is itself an assertion.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.conftest import illegal, who

from d20combat.dice import DiceError, ScriptedDice
from d20combat.encounter import actions as A
from d20combat.encounter import events as ev
from d20combat.encounter.apply import apply
from d20combat.encounter.engine import Encounter, IllegalAction, action_catalogue
from d20combat.model.catalog import default_catalog
from d20combat.model.creature import compile_creature
from d20combat.model.statblock import StatBlock
from d20combat.rules.armor_class import DefenseContext, armor_class
from d20combat.rules.initiative import initiative_modifiers, order_by_initiative
from d20combat.rules.surprise import determine_surprise
from d20combat.scenario import battle_from_data
from d20combat.scenario.loader import ScenarioError

# ----------------------------------------------------------------------------- helpers


def plain(name: str, **changes: Any) -> dict[str, Any]:
    """A minimal inline stat block: all abilities 10, a dagger in hand."""
    sheet: dict[str, Any] = {"name": name, "hp": 10, "attacks": [{"weapon": "dagger"}], "wielding": "dagger"}
    sheet.update(changes)
    return sheet


def build(
    combatants: list[dict[str, Any]],
    *,
    dice: tuple[int, ...] | list[int] = (),
    variants: dict[str, Any] | None = None,
    fixed_initiative: bool = True,
    surprised: list[str] | None = None,
    roll_surprise: bool = False,
    start: bool = True,
    width: int = 12,
    height: int = 12,
) -> Encounter:
    """Like conftest.make_encounter, but initiative may be rolled and surprise may be checked."""
    if fixed_initiative:
        for i, c in enumerate(combatants):
            c.setdefault("initiative", 100 - i)
    data: dict[str, Any] = {"ruleset": "pathfinder-beginner", "variants": variants or {},
                            "map": {"width": width, "height": height}, "combatants": combatants}
    if not roll_surprise:
        data["surprise"] = {"surprised": list(surprised or [])}
    enc = Encounter(battle_from_data(data), ScriptedDice(dice))
    if start:
        enc.start()
    return enc


def gm(enc: Encounter, *events: ev.Event) -> None:
    """A game-master intervention the engine has no action for (a spell's effect, healing)."""
    for event in events:
        enc.state = apply(enc.state, event)
        enc.log.append(event)


def pass_to(enc: Encounter, actor: str, round_: int, limit: int = 400) -> None:
    """End turns until it is ``actor``'s turn in round ``round_``."""
    for _ in range(limit):
        s = enc.state
        if s.turn is not None and s.turn.actor == actor and s.round == round_:
            return
        assert not s.ended, "the combat ended first"
        enc.act(A.EndTurn())
    raise AssertionError(f"never reached {actor} in round {round_}")


def effect_names(enc: Encounter, cid: str) -> list[str]:
    return [e.name for e in enc.state.get(cid).effects]


def turns_in_round(enc: Encounter, round_: int) -> list[tuple[str, str]]:
    """(actor, end reason) of every turn of ``round_`` as logged."""
    out: list[tuple[str, str]] = []
    current = 0
    for e in enc.log:
        if isinstance(e, ev.RoundStarted):
            current = e.round
        elif isinstance(e, ev.TurnEnded) and current == round_:
            out.append((e.combatant, e.reason))
    return out


def of_kind(enc: Encounter, cls: type[ev.Event]) -> list[Any]:
    return [e for e in enc.log if isinstance(e, cls)]


def duel(**kw: Any) -> Encounter:
    """Fighter (first) next to a goblin (second)."""
    return build([who("f", "heroes", "fighter", (1, 1)), who("g", "goblins", "goblin", (2, 1))], **kw)


# ----------------------------------------------------------------------------- RND


def test_pfb_rnd_01_combat_begins_when_two_sides_fight() -> None:
    """PFB-RND-01: combat (and the ruleset) starts when creatures of two sides decide to fight:
    nothing can be done before the start, start() opens round 1, and a scenario with a single side
    is no combat at all."""
    enc = duel(start=False)
    with pytest.raises(IllegalAction):
        enc.act(A.EndTurn())
    enc.start()
    assert isinstance(enc.log[0], ev.EncounterStarted)
    assert enc.state.round == 1 and enc.state.turn is not None
    with pytest.raises(ScenarioError, match="two sides"):
        build([who("a", "heroes", "fighter", (1, 1)), who("b", "heroes", "wizard", (3, 3))])


def test_pfb_rnd_02_no_action_outside_ones_own_turn() -> None:
    """PFB-RND-02: creatures act only on their own turn; there are no reactions: a goblin that walks
    away from the fighter provokes nothing, and the catalogue has no ready/delay/reaction action."""
    enc = duel()
    enc.act(A.EndTurn())
    assert enc.state.turn is not None and enc.state.turn.actor == "g"
    events = enc.act(A.Move(to=(5, 4)))
    assert [type(e) for e in events] == [ev.BudgetSpent, ev.Moved]
    assert all(getattr(e, "combatant", "g") == "g" for e in events)
    assert not {"ready", "delay", "reaction", "attack_of_opportunity"} & set(A.ACTION_TYPES)


def test_pfb_rnd_03_everyone_rolls_initiative_when_combat_starts() -> None:
    """PFB-RND-03: at the start everyone makes an initiative check, which fixes the order."""
    enc = duel(fixed_initiative=False, dice=[5, 17])
    rolled = of_kind(enc, ev.InitiativeRolled)
    assert [r.combatant for r in rolled] == ["f", "g"]
    assert enc.state.order == ("g", "f")  # goblin 17 + 2 = 19 beats fighter 5 + 1 = 6


def test_pfb_rnd_04_count_down_from_the_highest() -> None:
    """PFB-RND-04: the count goes from the highest initiative to the lowest; the called creature acts."""
    enc = build([who("a", "heroes", "fighter", (1, 1), initiative=7),
                 who("b", "goblins", "goblin", (5, 5), initiative=21),
                 who("c", "heroes", "wizard", (1, 5), initiative=13)])
    assert enc.state.order == ("b", "c", "a")
    seen = []
    for _ in range(3):
        assert enc.state.turn is not None
        seen.append(enc.state.turn.actor)
        enc.act(A.EndTurn())
    assert seen == ["b", "c", "a"]


def test_pfb_rnd_05_a_turn_holds_all_of_a_creatures_actions() -> None:
    """PFB-RND-05: the creature takes all its actions on its turn; only when it is done does the count
    move on."""
    enc = duel(dice=[2])
    enc.act(A.Attack("g"))  # natural 2 + 5 misses AC 15: no damage die
    assert enc.state.turn is not None and enc.state.turn.actor == "f"
    enc.act(A.Move(to=(1, 3)))
    assert enc.state.turn is not None and enc.state.turn.actor == "f"
    enc.act(A.EndTurn())
    assert enc.state.turn is not None and enc.state.turn.actor == "g"


def test_pfb_rnd_06_new_round_restarts_at_the_highest() -> None:
    """PFB-RND-06: when everyone has had a turn a new round starts, again from the highest initiative."""
    enc = build([who("a", "heroes", "fighter", (1, 1), initiative=20),
                 who("b", "goblins", "goblin", (5, 5), initiative=10),
                 who("c", "goblins", "goblin", (7, 7), initiative=5)])
    for _ in range(3):
        enc.act(A.EndTurn())
    assert enc.state.round == 2
    assert enc.state.turn is not None and enc.state.turn.actor == "a"
    assert [r.round for r in of_kind(enc, ev.RoundStarted)] == [1, 2]


def test_pfb_rnd_07_combat_ends_when_one_side_is_down_or_fled() -> None:
    """PFB-RND-07 (proposed automatic end), worked example: one goblin has fled, one is dying at −3,
    one dead at −12; the fighter drops the last one to −3 → the combat ends, heroes win."""
    enc = build([who("f", "heroes", "fighter", (1, 1)),
                 who("g1", "goblins", "goblin", (2, 1), hp=1),
                 who("g2", "goblins", "goblin", (8, 8), conditions=["fled"]),
                 who("g3", "goblins", "goblin", (9, 9), hp=-3, starts_down=True),
                 who("g4", "goblins", "goblin", (10, 10), hp=-12, starts_down=True)],
                dice=[15, 1])  # 15 + 5 = 20 hits AC 15; 1d8 1 + Str 3 = 4 → 1 − 4 = −3
    assert not enc.state.ended
    enc.act(A.Attack("g1"))
    assert enc.state.ended
    assert enc.state.winner == "heroes"
    assert isinstance(enc.log[-1], ev.EncounterEnded)


def test_pfb_rnd_07_surrendered_side_ends_combat() -> None:
    """PFB-RND-07: a side whose every creature has surrendered is out of the fight at once."""
    enc = build([who("f", "heroes", "fighter", (1, 1)),
                 who("g", "goblins", "goblin", (5, 5), conditions=["surrendered"])])
    assert enc.state.ended and enc.state.winner == "heroes"


def test_pfb_rnd_07_disabled_creature_keeps_the_combat_going() -> None:
    """PFB-RND-07 / PFB-HP-01, worked example: the last goblin at exactly 0 hp is disabled but
    conscious, so the combat does not end; it then gets its turn."""
    enc = build([who("f", "heroes", "fighter", (1, 1)),
                 who("g1", "goblins", "goblin", (2, 1), hp=4),
                 who("g2", "goblins", "goblin", (8, 8), conditions=["fled"]),
                 who("g3", "goblins", "goblin", (10, 10), hp=-3, starts_down=True)],
                dice=[15, 1], variants={"pfb_dying": "static"})
    enc.act(A.Attack("g1"))  # 4 damage: 4 → 0
    assert enc.state.get("g1").hp == 0
    assert not enc.state.ended
    enc.act(A.EndTurn())
    assert enc.state.turn is not None and enc.state.turn.actor == "g1"


def test_pfb_rnd_08_surprise_is_settled_before_initiative() -> None:
    """PFB-RND-08: step 1 (is anyone surprised?) comes before step 2 (initiative): the Stealth and
    Perception dice are rolled first, and the surprise event precedes every initiative event."""
    enc = build([who("f", "heroes", "fighter", (1, 1)),
                 who("g", "goblins", "goblin", (8, 8), sneaky=True)],
                roll_surprise=True, fixed_initiative=False, dice=[10, 3, 12, 12])
    purposes = [r.purpose for r in enc.dice.rolls]
    assert purposes == ["Stealth g", "Perception f", "initiative f", "initiative g"]
    kinds = [type(e) for e in enc.log]
    assert kinds.index(ev.SurpriseDetermined) < kinds.index(ev.InitiativeRolled)


def test_pfb_rnd_09_surprised_creatures_roll_initiative_too() -> None:
    """PFB-RND-09: everyone rolls initiative, those who will be surprised included."""
    enc = build([who("f", "heroes", "fighter", (1, 1)), who("g", "goblins", "goblin", (8, 8))],
                fixed_initiative=False, surprised=["f"], dice=[14, 3])
    assert enc.state.surprised == frozenset({"f"})
    assert {r.combatant for r in of_kind(enc, ev.InitiativeRolled)} == {"f", "g"}
    assert enc.state.get("f").initiative == 15
    assert enc.state.order == ("f", "g")


def test_pfb_rnd_10_gm_puts_everyone_in_initiative_order() -> None:
    """PFB-RND-10: one order holds every combatant, sorted by initiative."""
    enc = build([who("a", "heroes", "fighter", (1, 1)), who("b", "heroes", "wizard", (1, 3)),
                 who("c", "goblins", "goblin", (8, 8))], fixed_initiative=False, dice=[4, 9, 16])
    (order_set,) = of_kind(enc, ev.OrderSet)
    # fighter 4 + 1 = 5, wizard 9 + 2 + 4 = 15, goblin 16 + 2 = 18
    assert order_set.order == ["c", "b", "a"]
    assert enc.state.order == ("c", "b", "a")


def test_pfb_rnd_11_everyone_takes_a_turn_surprised_skip_round_one() -> None:
    """PFB-RND-11: in initiative order everyone takes a turn; surprised creatures don't act in round 1."""
    enc = build([who("g", "goblins", "goblin", (8, 8)), who("w", "heroes", "wizard", (1, 5)),
                 who("f", "heroes", "fighter", (1, 1))], surprised=["f"])
    pass_to(enc, "g", 2)
    round1 = turns_in_round(enc, 1)
    assert [a for a, _ in round1] == ["g", "w", "f"]
    assert "surprised" in dict(round1)["f"]
    assert dict(round1)["g"] == "" and dict(round1)["w"] == ""


def test_pfb_rnd_12_end_of_round_no_new_initiative_or_surprise() -> None:
    """PFB-RND-12, worked example: three goblins and two PCs roll initiative once; round 2 starts at
    the same highest roll with no new rolls (the scripted dice would run out) and no new surprise."""
    combatants = [who("f", "heroes", "fighter", (1, 1)), who("w", "heroes", "wizard", (1, 3)),
                  who("g1", "goblins", "goblin", (8, 8)), who("g2", "goblins", "goblin", (9, 8)),
                  who("g3", "goblins", "goblin", (10, 8))]
    enc = build(combatants, fixed_initiative=False, dice=[10, 2, 18, 5, 7])
    order = enc.state.order
    assert order == ("g1", "f", "g3", "w", "g2")  # 20, 11, 9, 8, 7
    pass_to(enc, order[0], 3)
    assert enc.dice.remaining == 0
    assert len(of_kind(enc, ev.InitiativeRolled)) == 5
    assert len(of_kind(enc, ev.OrderSet)) == 1 and len(of_kind(enc, ev.SurpriseDetermined)) == 1
    assert enc.state.order == order
    assert [r.round for r in of_kind(enc, ev.RoundStarted)] == [1, 2, 3]


# ----------------------------------------------------------------------------- TIME


def test_pfb_time_01_a_round_holds_a_move_and_one_swing_or_spell() -> None:
    """PFB-TIME-01: a round (6 s) is "enough time to move a bit and either swing a weapon or cast a
    spell": move + attack fits in a turn; attack and cast a spell does not."""
    enc = duel(dice=[2])
    enc.act(A.Move(to=(1, 2)))
    enc.act(A.Attack("g"))
    illegal(enc, A.Activity("cast-spell"))
    enc.act(A.EndTurn())
    enc.act(A.EndTurn())
    assert enc.state.round == 2 and enc.state.turn is not None and enc.state.turn.actor == "f"


def test_pfb_time_02_ten_rounds_is_one_minute() -> None:
    """PFB-TIME-02, derived example: a 1-minute (10-round) effect started in round 4 on initiative 9
    is active through round 13 and ends just before initiative 9 of round 14."""
    enc = build([who("a", "heroes", "fighter", (1, 1), initiative=15),
                 who("b", "heroes", "wizard", (1, 3), initiative=9),
                 who("c", "goblins", "goblin", (9, 9), initiative=5)])
    pass_to(enc, "b", 4)
    rounds_per_minute = 60 // 6
    gm(enc, ev.EffectAdded("b", "minute spell", "b", enc.state.round + rounds_per_minute))
    pass_to(enc, "c", 13)
    assert effect_names(enc, "b") == ["minute spell"]
    pass_to(enc, "a", 14)
    assert effect_names(enc, "b") == ["minute spell"]
    enc.act(A.EndTurn())  # initiative 9 of round 14 is called
    assert enc.state.turn is not None and enc.state.turn.actor == "b"
    assert effect_names(enc, "b") == []


def test_pfb_time_03_one_round_ends_just_before_the_same_initiative() -> None:
    """PFB-TIME-03, text example (sanctuary): a 1-round effect cast on initiative 15 lasts until an
    instant before the caster's turn on initiative 15 of the next round."""
    enc = build([who("g", "goblins", "goblin", (9, 9), initiative=20),
                 who("w", "heroes", "wizard", (1, 1), initiative=15),
                 who("h", "goblins", "goblin", (9, 11), initiative=3)])
    pass_to(enc, "w", 1)
    gm(enc, ev.EffectAdded("w", "sanctuary", "w", enc.state.round + 1))
    pass_to(enc, "g", 2)
    assert effect_names(enc, "w") == ["sanctuary"]
    enc.act(A.EndTurn())
    assert enc.state.turn is not None and enc.state.turn.actor == "w"
    assert effect_names(enc, "w") == []
    kinds = [(type(e), getattr(e, "combatant", None)) for e in enc.log]
    last_w_turn = len(kinds) - 1 - kinds[::-1].index((ev.TurnStarted, "w"))
    assert isinstance(enc.log[last_w_turn + 1], ev.EffectEnded)  # at w's slot, before w does anything


def test_pfb_time_03_charge_penalty_lasts_until_the_chargers_next_turn() -> None:
    """PFB-TIME-03 with an engine-made 1-round effect: the charge's −2 AC holds through the goblin's
    turn and is gone when the fighter's next turn starts."""
    enc = build([who("f", "heroes", "fighter", (1, 1)), who("g", "goblins", "goblin", (1, 5))], dice=[1])
    enc.act(A.Charge("g"))  # natural 1: a miss, no damage
    assert effect_names(enc, "f") == ["charging"]
    enc.act(A.EndTurn())
    assert enc.state.turn is not None and enc.state.turn.actor == "g"
    ac = armor_class(enc.creature("f"), enc.state.get("f"), DefenseContext()).value
    assert ac == 15  # 17 − 2
    enc.act(A.EndTurn())
    assert enc.state.round == 2 and enc.state.turn is not None and enc.state.turn.actor == "f"
    assert effect_names(enc, "f") == []
    assert armor_class(enc.creature("f"), enc.state.get("f"), DefenseContext()).value == 17


def test_pfb_time_04_n_rounds_end_before_the_slot_n_rounds_later() -> None:
    """PFB-TIME-04, text example: a 2-round effect started on initiative 15 ends just before
    initiative 15 two rounds later (round 3), not in round 2."""
    enc = build([who("g", "goblins", "goblin", (9, 9), initiative=20),
                 who("w", "heroes", "wizard", (1, 1), initiative=15)])
    pass_to(enc, "w", 1)
    gm(enc, ev.EffectAdded("w", "two rounds", "w", enc.state.round + 2))
    pass_to(enc, "w", 2)
    assert effect_names(enc, "w") == ["two rounds"]
    pass_to(enc, "g", 3)
    assert effect_names(enc, "w") == ["two rounds"]
    enc.act(A.EndTurn())
    assert effect_names(enc, "w") == []


def test_pfb_time_05_tie_expiry_follows_the_originating_creature() -> None:
    """PFB-TIME-05(a), derived example: A and B both rolled 15 and A won the roll-off. B's 1-round
    effect is still active during A's round-2 turn and ends just before B's turn."""
    enc = build([who("a", "heroes", plain("a"), (1, 1)), who("b", "heroes", plain("b"), (1, 3)),
                 who("c", "goblins", "goblin", (9, 9))],
                fixed_initiative=False, dice=[15, 15, 10, 14, 7])
    assert enc.state.order == ("a", "b", "c")
    assert enc.state.get("a").initiative == enc.state.get("b").initiative == 15
    pass_to(enc, "b", 1)
    gm(enc, ev.EffectAdded("b", "shield of faith", "b", enc.state.round + 1))
    pass_to(enc, "a", 2)
    assert effect_names(enc, "b") == ["shield of faith"]
    enc.act(A.EndTurn())
    assert enc.state.turn is not None and enc.state.turn.actor == "b"
    assert effect_names(enc, "b") == []


def test_pfb_time_05_dead_originator_still_marks_the_expiry() -> None:
    """PFB-TIME-05(b): the originating creature died; its initiative slot still ends the effect."""
    enc = build([who("a", "heroes", "fighter", (1, 1)), who("b", "heroes", "wizard", (1, 3)),
                 who("g", "goblins", "goblin", (9, 9)), who("h", "goblins", "goblin", (10, 9))])
    pass_to(enc, "b", 1)
    gm(enc, ev.EffectAdded("a", "bless", "b", enc.state.round + 1))
    gm(enc, ev.Damaged("b", 30, "gm", "b is slain"))
    assert enc.is_dead("b")
    pass_to(enc, "a", 2)
    assert effect_names(enc, "a") == ["bless"]
    enc.act(A.EndTurn())  # b's slot passes (dead), then g's turn
    assert enc.state.turn is not None and enc.state.turn.actor == "g"
    assert effect_names(enc, "a") == []
    assert ("b", "dead") in turns_in_round(enc, 2)


def test_pfb_time_06_full_round_activation_spans_to_the_same_initiative() -> None:
    """PFB-TIME-06, text example: a "full round" activation started on the wizard's turn in round 1
    is pending through the others' turns and completes at the wizard's initiative in round 2."""
    assert action_catalogue()["cast-spell-full-round"] == "full-round-activation"
    enc = build([who("g", "goblins", "goblin", (9, 9)), who("w", "heroes", "wizard", (1, 1))])
    pass_to(enc, "w", 1)
    enc.act(A.Activity("cast-spell-full-round"))
    assert effect_names(enc, "w") == ["activating cast-spell-full-round"]
    pass_to(enc, "g", 2)
    assert effect_names(enc, "w") == ["activating cast-spell-full-round"]
    enc.act(A.EndTurn())
    assert enc.state.turn is not None and enc.state.turn.actor == "w" and enc.state.round == 2
    assert effect_names(enc, "w") == []
    assert any("takes effect" in n.text for n in of_kind(enc, ev.Note))


def test_pfb_time_07_full_round_activation_uses_up_the_first_turn() -> None:
    """PFB-TIME-07: the activation uses up the turn: no attack and no move after it."""
    enc = build([who("w", "heroes", "wizard", (1, 1)), who("g", "goblins", "goblin", (9, 9))])
    enc.act(A.Activity("cast-spell-full-round"))
    assert enc.state.turn is not None
    assert not enc.state.turn.standard and not enc.state.turn.move
    illegal(enc, A.Move(to=(1, 2)))
    illegal(enc, A.Activity("cast-spell"))
    # it cannot be started once the move action is spent either
    enc2 = build([who("w", "heroes", "wizard", (1, 1)), who("g", "goblins", "goblin", (9, 9))])
    enc2.act(A.Move(to=(1, 2)))
    illegal(enc2, A.Activity("cast-spell-full-round"))


def test_pfb_time_08_activation_completes_before_the_second_turn_which_is_normal() -> None:
    """PFB-TIME-08: the effect happens just before the creature's round-2 turn (before it acts), and
    that turn has the full budget: the full round uses up one round, not two."""
    enc = build([who("w", "heroes", "wizard", (1, 1)), who("g", "goblins", "goblin", (9, 9))])
    enc.act(A.Activity("cast-spell-full-round"))
    enc.act(A.EndTurn())
    enc.act(A.EndTurn())
    turn = enc.state.turn
    assert turn is not None and turn.actor == "w" and enc.state.round == 2
    assert turn.standard and turn.move and turn.free_used == 0
    note = next(n for n in of_kind(enc, ev.Note) if "takes effect" in n.text)
    round2 = of_kind(enc, ev.RoundStarted)[-1]
    assert enc.log.index(round2) < enc.log.index(note)
    enc.act(A.Move(to=(1, 3)))
    enc.act(A.Activity("cast-spell"))


def test_pfb_time_08_activation_fails_if_the_caster_cannot_act() -> None:
    """PFB-TIME-08 (engine proposal): a caster knocked unconscious before its next turn does not
    complete the activation."""
    enc = build([who("w", "heroes", "wizard", (1, 1), hp=1), who("g", "goblins", "goblin", (2, 1)),
                 who("f", "heroes", "fighter", (10, 10))],
                dice=[18, 2], variants={"pfb_dying": "static"})
    enc.act(A.Activity("cast-spell-full-round"))
    enc.act(A.EndTurn())
    enc.act(A.Attack("w"))  # 18 + 1 = 19 ≥ AC 12; 1d4 2 → 1 − 2 = −1
    assert enc.state.get("w").hp == -1
    pass_to(enc, "g", 2)
    notes = [n.text for n in of_kind(enc, ev.Note)]
    assert not any("takes effect" in t for t in notes)
    assert any("fails" in t and "cast-spell-full-round" in t for t in notes)
    assert effect_names(enc, "w") == []


# ----------------------------------------------------------------------------- INIT


def test_pfb_init_01_each_combatant_makes_one_initiative_check() -> None:
    """PFB-INIT-01: each combatant rolls one d20 for initiative at the start of the battle."""
    enc = build([who("a", "heroes", "fighter", (1, 1)), who("b", "heroes", "rogue", (1, 3)),
                 who("c", "goblins", "goblin", (8, 8))], fixed_initiative=False, dice=[3, 11, 19])
    assert [r.purpose for r in enc.dice.rolls] == ["initiative a", "initiative b", "initiative c"]
    assert [enc.state.get(c).initiative for c in "abc"] == [3 + 1, 11 + 3, 19 + 2]


def test_pfb_init_02_initiative_is_d20_plus_dex_and_a_natural_1_is_no_failure() -> None:
    """PFB-INIT-02 (and PFB-NAT-05), derived example: a natural 1 with DEX +3 totals 4."""
    enc = build([who("a", "heroes", plain("a", abilities={"dex": 16}), (1, 1)),
                 who("b", "goblins", "goblin", (8, 8))], fixed_initiative=False, dice=[1, 1])
    assert enc.state.get("a").initiative == 4
    assert enc.state.get("b").initiative == 3
    assert enc.state.order == ("a", "b")


def test_pfb_init_03_improved_initiative_counts_once() -> None:
    """PFB-INIT-03, derived example: DEX +2 with Improved Initiative, d20 11 → 17; a sheet that
    already lists Init +6 (feat included) also gives 17, not 21."""
    enc = build([who("a", "heroes", plain("a", abilities={"dex": 14}, feats=["improved_initiative"]), (1, 1)),
                 who("b", "goblins", plain("b", abilities={"dex": 14}, feats=["improved_initiative"],
                                           init_modifier=6), (8, 8)),
                 who("c", "goblins", plain("c", abilities={"dex": 14}), (9, 8))],
                fixed_initiative=False, dice=[11, 11, 11, 5, 3])
    assert enc.state.get("a").initiative == 17
    assert enc.state.get("b").initiative == 17
    assert enc.state.get("c").initiative == 13
    catalog = default_catalog()
    sheet = StatBlock.model_validate(plain("x", abilities={"dex": 14}, feats=["improved_initiative"],
                                           init_modifier=6))
    mods = initiative_modifiers(compile_creature("x", "x", "s", sheet, catalog))
    assert sum(m.value for m in mods) == 6


def test_pfb_init_04_higher_initiative_acts_first() -> None:
    """PFB-INIT-04: ordered from highest to lowest."""
    order, notes = order_by_initiative([("a", 3), ("b", 19), ("c", 11), ("d", -1)], ScriptedDice([]))
    assert order == ["b", "c", "a", "d"] and notes == []


def test_pfb_init_05_ties_roll_off_and_keep_their_numbers() -> None:
    """PFB-INIT-05, derived example: A = 15, B = 15, C = 12. Roll-off A 7, B 14 → B, A, C; both
    keep initiative 15. A roll-off tie (9 and 9) rolls again."""
    order, _ = order_by_initiative([("a", 15), ("b", 15), ("c", 12)], ScriptedDice([7, 14]))
    assert order == ["b", "a", "c"]
    dice = ScriptedDice([9, 9, 3, 11])
    order, notes = order_by_initiative([("a", 15), ("b", 15), ("c", 12)], dice)
    assert order == ["b", "a", "c"] and dice.remaining == 0 and len(notes) == 2
    # in an encounter: the roll-off orders only the tied pair and changes no initiative
    enc = build([who("a", "heroes", plain("a"), (1, 1)), who("b", "heroes", plain("b"), (1, 3)),
                 who("c", "goblins", plain("c", abilities={"dex": 14}), (9, 9)),
                 who("d", "goblins", plain("d"), (9, 11))],
                fixed_initiative=False, dice=[15, 15, 10, 16, 7, 14])
    assert enc.state.order == ("d", "b", "a", "c")
    assert [enc.state.get(c).initiative for c in "abcd"] == [15, 15, 12, 16]


def test_pfb_init_06_initiative_never_changes() -> None:
    """PFB-INIT-06, derived example: a creature on initiative 17 is knocked out in round 2 and healed
    in round 4 → it acts on 17 in round 4; skipping a turn doesn't move it either."""
    enc = build([who("f", "heroes", "fighter", (1, 1), initiative=20),
                 who("w", "heroes", "wizard", (2, 1), initiative=17, hp=1),
                 who("g", "goblins", "goblin", (3, 1), initiative=9)],
                dice=[18, 3], variants={"pfb_dying": "static"})
    pass_to(enc, "g", 2)
    enc.act(A.Attack("w"))  # 19 ≥ 12; 3 damage → −2: unconscious and dying
    assert enc.state.get("w").hp == -2
    pass_to(enc, "f", 4)
    assert ("w", "dying") in turns_in_round(enc, 3)
    gm(enc, ev.Healed("w", 5, "cure light wounds"))
    enc.act(A.EndTurn())
    assert enc.state.turn is not None and enc.state.turn.actor == "w"
    assert enc.state.get("w").initiative == 17
    assert enc.state.order == ("f", "w", "g")


def test_pfb_init_07_initiative_loops_like_a_clock() -> None:
    """PFB-INIT-07: after the lowest number the count loops back to the highest, every round."""
    enc = build([who("a", "heroes", "fighter", (1, 1), initiative=5),
                 who("b", "goblins", "goblin", (9, 9), initiative=18)])
    actors = []
    for _ in range(6):
        assert enc.state.turn is not None
        actors.append((enc.state.round, enc.state.turn.actor))
        enc.act(A.EndTurn())
    assert actors == [(1, "b"), (1, "a"), (2, "b"), (2, "a"), (3, "b"), (3, "a")]


# ----------------------------------------------------------------------------- SURP


def ambush(**kw: Any) -> Encounter:
    """Goblin (first), wizard, fighter; the fighter is surprised (set by the GM)."""
    kw.setdefault("surprised", ["f"])
    return build([who("g", "goblins", "goblin", (2, 1)), who("w", "heroes", "wizard", (1, 6)),
                  who("f", "heroes", "fighter", (1, 1))], **kw)


def test_pfb_surp_01_combat_may_open_with_one_side_surprised() -> None:
    """PFB-SURP-01: an ambush: the GM marks the heroes surprised → the combat opens with a surprise
    round."""
    enc = ambush(surprised=["w", "f"])
    first = of_kind(enc, ev.RoundStarted)[0]
    assert first.round == 1 and first.surprise
    assert enc.state.surprise_round and enc.state.surprised == frozenset({"w", "f"})


def _sneak(name: str, stealth: int) -> dict[str, Any]:
    return plain(name, skills={"stealth": stealth})


def _watcher(name: str, perception: int = 1) -> dict[str, Any]:
    return plain(name, skills={"perception": perception})


def test_pfb_surp_02_opposed_stealth_against_perception() -> None:
    """PFB-SURP-02, derived example: goblins' Stealth 14 and 9; the fighter's Perception 8 fails against
    both → surprised; the wizard's 12 beats 9 → not surprised (noticing one sneaker is enough)."""
    enc = build([who("g1", "goblins", _sneak("g1", 10), (8, 8), sneaky=True),
                 who("g2", "goblins", _sneak("g2", 5), (9, 8), sneaky=True),
                 who("f", "heroes", _watcher("f"), (1, 1)), who("w", "heroes", _watcher("w"), (1, 3))],
                roll_surprise=True, dice=[4, 4, 7, 11])
    assert enc.state.surprised == frozenset({"f"})
    assert enc.dice.remaining == 0


def test_pfb_surp_02_ties_go_to_the_higher_modifier_then_reroll() -> None:
    """PFB-SURP-02 (proposed default): a tie goes to the higher modifier; equal modifiers re-roll."""
    catalog = default_catalog()

    def creature(cid: str, sheet: dict[str, Any], side: str) -> Any:
        return compile_creature(cid, cid, side, StatBlock.model_validate(sheet), catalog, sneaky=side == "goblins")

    sneaker = creature("g", _sneak("g", 5), "goblins")
    wizard = creature("w", _watcher("w", 1), "heroes")
    # 9 against 9: Stealth +5 beats Perception +1 → the wizard noticed nothing → surprised
    surprised, _ = determine_surprise([sneaker], [wizard], ScriptedDice([4, 8]))
    assert surprised == ["w"]
    # equal modifiers (+1/+1), 9 against 9 → re-roll: 12 vs 5 → noticed
    even = creature("g", _sneak("g", 1), "goblins")
    dice = ScriptedDice([8, 8, 12, 5])
    surprised, _ = determine_surprise([even], [wizard], dice)
    assert surprised == [] and dice.remaining == 0


def test_pfb_surp_03_those_who_fail_are_surprised_in_round_one() -> None:
    """PFB-SURP-03: everyone who fails the Perception check is surprised for the first round."""
    enc = build([who("g", "goblins", _sneak("g", 10), (8, 8), sneaky=True),
                 who("f", "heroes", _watcher("f"), (1, 1)), who("w", "heroes", _watcher("w"), (1, 3))],
                roll_surprise=True, dice=[5, 2, 3])
    assert enc.state.surprised == frozenset({"f", "w"})
    assert enc.state.round == 1 and enc.state.surprise_round


def test_pfb_surp_04_surprised_creatures_take_no_action_in_the_surprise_round() -> None:
    """PFB-SURP-04: the surprised fighter gets no turn at all in the surprise round."""
    enc = ambush()
    enc.act(A.EndTurn())
    enc.act(A.EndTurn())
    assert enc.state.round == 2  # the fighter's turn was skipped
    assert ("f", "surprised: no actions in the surprise round") in turns_in_round(enc, 1)
    assert not [e for e in of_kind(enc, ev.BudgetSpent) if e.combatant == "f"]


def test_pfb_surp_05_one_standard_or_move_action_only() -> None:
    """PFB-SURP-05, derived example: in the surprise round the wizard may cast (standard) or move
    (move), not both; no double move, no charge, no full-round action."""
    enc = ambush(dice=[2])
    enc.act(A.Attack("f"))  # the goblin attacks: natural 2 + 1 misses
    illegal(enc, A.Move(to=(4, 1)))
    enc.act(A.EndTurn())
    # the wizard moves, then cannot cast or move again
    enc.act(A.Move(to=(1, 7)))
    illegal(enc, A.Activity("cast-spell"))
    illegal(enc, A.Move(to=(1, 8)))
    illegal(enc, A.Draw("quarterstaff"))


def test_pfb_surp_05_no_charge_or_full_round_in_the_surprise_round() -> None:
    """PFB-SURP-05: charge and full-round actions need both actions, impossible in the surprise round."""
    enc = build([who("g", "goblins", "goblin", (1, 6)), who("f", "heroes", "fighter", (1, 1))],
                surprised=["f"])
    assert "one action" in illegal(enc, A.Charge("f"))
    illegal(enc, A.Activity("disable-trap"))
    illegal(enc, A.Activity("cast-spell-full-round"))
    enc.act(A.Activity("cast-spell"))  # a standard action alone is fine


def test_pfb_surp_05_no_free_action_by_default() -> None:
    """PFB-SURP-05 (literal default), derived example: the wizard moves and tries to shout "Ambush!"
    as a free action → refused; drop and 5-foot step are refused too."""
    enc = ambush()
    enc.act(A.EndTurn())
    illegal(enc, A.Activity("speak"))
    enc.act(A.Move(to=(1, 7)))
    illegal(enc, A.Activity("speak"))
    illegal(enc, A.DropItem("ray-of-frost"))
    illegal(enc, A.DropProne())


def test_pfb_surp_05_no_five_foot_step_besides_the_one_action() -> None:
    """PFB-SURP-05: "exactly one standard or move action and nothing else": the goblin that attacks
    cannot add a 5-foot step (a free action, L74), before or after."""
    enc = ambush(dice=[2])
    illegal(enc, A.Step((3, 1)))
    enc.act(A.Attack("f"))
    illegal(enc, A.Step((3, 1)))


def test_pfb_surp_05_variant_allows_free_actions() -> None:
    """PFB-SURP-05 variant pfb_surprise_free_actions (PF1): free actions are allowed besides the one
    action, in either order, but still only one standard or move action."""
    enc = ambush(variants={"pfb_surprise_free_actions": True})
    enc.act(A.EndTurn())
    enc.act(A.Activity("speak"))
    enc.act(A.Move(to=(1, 7)))
    illegal(enc, A.Activity("cast-spell"))
    illegal(enc, A.Activity("speak"))  # still one free action per turn (PFB-ACT-13)


def test_pfb_surp_06_after_the_surprise_round_everyone_acts_normally() -> None:
    """PFB-SURP-06: from round 2 nobody is surprised: the fighter moves and attacks."""
    enc = ambush(dice=[2])
    pass_to(enc, "f", 2)
    assert not enc.state.surprise_round
    enc.act(A.Move(to=(1, 2)))
    enc.act(A.Attack("g"))
    assert enc.state.turn is not None and not enc.state.turn.standard and not enc.state.turn.move


def test_pfb_surp_07_no_surprise_round_when_nobody_is_surprised() -> None:
    """PFB-SURP-07, derived example: every PC beats every Stealth result → no surprise round; round 1
    is normal: the goblin may move and attack."""
    enc = build([who("g", "goblins", _sneak("g", 0), (1, 3), sneaky=True),
                 who("f", "heroes", _watcher("f"), (1, 1)), who("w", "heroes", _watcher("w"), (5, 1))],
                roll_surprise=True, dice=[3, 15, 16, 2])
    assert enc.state.surprised == frozenset()
    first = of_kind(enc, ev.RoundStarted)[0]
    assert first.round == 1 and not first.surprise and not enc.state.surprise_round
    enc.act(A.Move(to=(1, 2)))
    enc.act(A.Attack("f"))  # 2 + 0 misses the inline fighter's AC 10


def test_pfb_surp_08_the_surprise_round_is_round_one() -> None:
    """PFB-SURP-08 (and TIME derived example): the surprise round is round 1, not an extra round; an
    effect started in it on initiative 12 for 3 rounds ends just before initiative 12 of round 4."""
    enc = build([who("g", "goblins", "goblin", (9, 9), initiative=12),
                 who("f", "heroes", "fighter", (1, 1), initiative=8)], surprised=["f"])
    assert enc.state.round == 1 and enc.state.surprise_round
    gm(enc, ev.EffectAdded("g", "three rounds", "g", enc.state.round + 3))
    enc.act(A.EndTurn())
    assert enc.state.round == 2 and not enc.state.surprise_round
    pass_to(enc, "f", 3)
    assert effect_names(enc, "g") == ["three rounds"]
    enc.act(A.EndTurn())
    assert enc.state.round == 4 and enc.state.turn is not None and enc.state.turn.actor == "g"
    assert effect_names(enc, "g") == []


def test_pfb_surp_09_surprised_creature_is_flat_footed_in_the_surprise_round_only() -> None:
    """PFB-SURP-09, derived example: the surprised fighter (AC 17 with DEX +1) has AC 16 against the
    goblin's surprise-round attack and AC 17 again from round 2 — the same roll hits, then misses."""
    enc = build([who("g", "goblins", "goblin", (2, 1)), who("f", "heroes", "fighter", (1, 1))],
                surprised=["f"], dice=[15, 1, 15])
    plan = enc.plan_attack("g", "f")
    assert enc.target_ac(plan, enc.state)[0] == 16
    enc.act(A.Attack("f"))  # 15 + 1 = 16 ≥ 16: hit for 1
    hits = of_kind(enc, ev.AttackResolved)
    assert hits[-1].hit and enc.state.get("f").hp == 11
    pass_to(enc, "g", 2)
    assert enc.target_ac(enc.plan_attack("g", "f"), enc.state)[0] == 17
    enc.act(A.Attack("f"))  # 16 < 17
    assert not of_kind(enc, ev.AttackResolved)[-1].hit
    with pytest.raises(DiceError):
        enc.dice.roll(20, "nothing left")
