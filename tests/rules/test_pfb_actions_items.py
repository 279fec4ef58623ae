"""Pathfinder Beginner Box: action types, the per-turn budget, weapons, items and shields.

PFB-ACT-01..27 and PFB-ITEM-01..12 (shared/spec/rules/PFB.md). Dice are forced; an illegal action
must be refused with a message and leave the encounter exactly as it was.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.conftest import illegal, who

from d20combat.dice import ScriptedDice
from d20combat.encounter import actions as A
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, action_catalogue
from d20combat.model.catalog import default_catalog
from d20combat.rules.armor_class import DefenseContext, armor_class
from d20combat.scenario import battle_from_data

# ----------------------------------------------------------------------------- helpers


def sheet(base: str, **changes: Any) -> dict[str, Any]:
    """A bestiary stat block with some fields changed."""
    data: dict[str, Any] = default_catalog().bestiary[base].model_dump(mode="json")
    data.update(changes)
    return data


def build(combatants: list[dict[str, Any]], *, dice: tuple[int, ...] | list[int] = (),
          variants: dict[str, Any] | None = None, surprised: list[str] | None = None) -> Encounter:
    """The first combatant acts first; nobody is surprised unless told."""
    for i, c in enumerate(combatants):
        c.setdefault("initiative", 100 - i)
    data = {"ruleset": "pathfinder-beginner", "variants": variants or {}, "map": {"width": 12, "height": 12},
            "combatants": combatants, "surprise": {"surprised": list(surprised or [])}}
    enc = Encounter(battle_from_data(data), ScriptedDice(dice))
    enc.start()
    return enc


def duel(stats: Any = "fighter", *, foe: tuple[int, int] = (2, 1), **kw: Any) -> Encounter:
    """``stats`` (id "f", at (1,1), acts first) against a goblin "g", a far goblin "h" and a far wizard
    ally "a" (so that one creature going down never ends the combat)."""
    extra = kw.pop("extra", {})
    return build([who("f", "heroes", stats, (1, 1), **extra), who("g", "goblins", "goblin", foe),
                  who("h", "goblins", "goblin", (11, 11)), who("a", "heroes", "wizard", (11, 0))], **kw)


def costs(events: list[ev.Event]) -> list[str]:
    return [e.cost for e in events if isinstance(e, ev.BudgetSpent)]


def turn(enc: Encounter) -> Any:
    assert enc.state.turn is not None
    return enc.state.turn


def ac(enc: Encounter, cid: str) -> int:
    return armor_class(enc.creature(cid), enc.state.get(cid), DefenseContext()).value


# ----------------------------------------------------------------------------- ACT: types and budget


def test_pfb_act_01_three_kinds_of_action_free_move_standard() -> None:
    """PFB-ACT-01: a turn offers a free, a move and a standard action; one of each can be taken."""
    enc = duel(foe=(3, 1), dice=[2])
    t = turn(enc)
    assert (t.standard, t.move, t.free_used) == (True, True, 0)
    spent = enc.act(A.Activity("speak")) + enc.act(A.Move(to=(2, 2))) + enc.act(A.Attack("g"))
    assert costs(spent) == ["free", "move", "standard"]


@pytest.mark.parametrize("action", [A.Activity("speak"), A.DropItem("longsword"), A.DropProne()],
                         ids=["talk", "drop-held-item", "fall-prone"])
def test_pfb_act_02_free_action_examples(action: A.Action) -> None:
    """PFB-ACT-02: talking, dropping a held item and falling prone are free actions: they leave the
    move and the standard action."""
    enc = duel()
    assert costs(enc.act(action)) == ["free"]
    t = turn(enc)
    assert t.standard and t.move and t.free_used == 1


@pytest.mark.parametrize(
    ("extra", "stats", "action"),
    [
        ({}, "fighter", A.Move(to=(1, 4))),
        ({}, "fighter", A.Draw("shortbow")),
        ({}, "fighter", A.Activity("pick-up-item")),
        ({"conditions": ["prone"]}, "fighter", A.StandUp()),
        ({}, "fighter", A.Activity("mount")),
        ({}, sheet("fighter", shield_state="held"), A.ShieldAction("strap")),
    ],
    ids=["move", "draw", "pick-up", "stand-up", "mount", "buckle-shield"],
)
def test_pfb_act_03_move_action_examples(extra: dict[str, Any], stats: Any, action: A.Action) -> None:
    """PFB-ACT-03: moving, drawing a weapon, picking up an item, standing up, getting on a horse and
    buckling on a shield are move actions: the standard action is left."""
    enc = duel(stats, extra=extra)
    assert costs(enc.act(action)) == ["move"]
    t = turn(enc)
    assert t.standard and not t.move and t.free_used == 0


@pytest.mark.parametrize("action", [A.Attack("g"), A.Activity("cast-spell"), A.Activity("use-magic-item"),
                                    A.Activity("channel-energy")],
                         ids=["attack", "cast", "magic-item", "class-feature"])
def test_pfb_act_04_standard_action_examples(action: A.Action) -> None:
    """PFB-ACT-04: an attack, casting a spell, activating a magic item or a class feature are standard
    actions: the move action is left."""
    enc = duel(dice=[2])
    assert costs(enc.act(action)) == ["standard"]
    t = turn(enc)
    assert not t.standard and t.move


def test_pfb_act_05_standard_action_as_a_second_move() -> None:
    """PFB-ACT-05, derived example: move 30 ft (move) + move 30 ft (standard used as move) + speak
    (free) → legal: a double move."""
    enc = duel(foe=(11, 4))
    enc.act(A.Move(to=(1, 7)))
    assert costs(enc.act(A.Move(to=(1, 11)))) == ["standard-as-move"]
    enc.act(A.Activity("speak"))
    assert enc.state.get("f").position == (1, 11)
    illegal(enc, A.Move(to=(2, 11)))


def test_pfb_act_05_standard_as_move_for_a_draw_after_moving() -> None:
    """PFB-ACT-05: the standard action can take a move action even after the move action was used."""
    enc = duel()
    enc.act(A.Move(to=(1, 3)))
    assert costs(enc.act(A.Draw("shortbow"))) == ["standard-as-move"]


def test_pfb_act_06_one_of_each_and_a_move_never_replaces_a_standard() -> None:
    """PFB-ACT-06, derived example: two attacks in one turn (two standard actions) → illegal, though
    the move action is still unused; after free + move + standard nothing is left."""
    enc = duel(dice=[2])
    enc.act(A.Attack("g"))
    assert turn(enc).move
    illegal(enc, A.Attack("g"))
    illegal(enc, A.Activity("cast-spell"))
    enc.act(A.Move(to=(1, 2)))
    enc.act(A.Activity("speak"))
    for action in (A.Move(to=(1, 3)), A.Draw("shortbow"), A.Activity("speak"), A.DropProne()):
        illegal(enc, action)
    assert enc.check(A.EndTurn()) is None


def test_pfb_act_07_not_every_type_must_be_used() -> None:
    """PFB-ACT-07, text example: already holding the sword, attack with the standard action only and
    end the turn; the goblin's turn follows."""
    enc = duel(dice=[2])
    enc.act(A.Attack("g"))
    enc.act(A.EndTurn())
    assert turn(enc).actor == "g"


def test_pfb_act_08_actions_in_any_order() -> None:
    """PFB-ACT-08: attack then move away, or move to an enemy then attack — both legal."""
    enc = duel(dice=[2, 2])
    enc.act(A.Attack("g"))
    enc.act(A.Move(to=(1, 5)))
    enc.act(A.EndTurn())
    enc.act(A.EndTurn())
    enc.act(A.EndTurn())
    enc.act(A.EndTurn())
    assert turn(enc).actor == "f" and enc.state.round == 2
    enc.act(A.Move(to=(1, 2)))
    enc.act(A.Attack("g"))


def test_pfb_act_09_actions_cannot_be_saved_up() -> None:
    """PFB-ACT-09, derived example: a fighter that used nothing in round 1 still has only one move, one
    standard and one free action in round 2."""
    enc = duel(foe=(11, 4))
    for _ in range(4):
        enc.act(A.EndTurn())
    assert enc.state.round == 2 and turn(enc).actor == "f"
    t = turn(enc)
    assert (t.standard, t.move, t.free_used) == (True, True, 0)
    enc.act(A.Move(to=(1, 5)))
    enc.act(A.Move(to=(1, 9)))
    illegal(enc, A.Move(to=(1, 10)))
    enc.act(A.Activity("speak"))
    illegal(enc, A.Activity("speak"))


def test_pfb_act_10_some_turns_cannot_use_every_action() -> None:
    """PFB-ACT-10: in a surprise round the creature gets only one action, move or standard."""
    enc = build([who("g", "goblins", "goblin", (2, 1)), who("f", "heroes", "fighter", (1, 1))],
                surprised=["f"], dice=[2])
    enc.act(A.Attack("f"))
    illegal(enc, A.Move(to=(4, 1)))
    illegal(enc, A.Activity("speak"))


# ----------------------------------------------------------------------------- ACT: full-round and free


@pytest.mark.parametrize("task", ["lift-gate", "disable-trap"])
def test_pfb_act_11_slow_tasks_are_full_round_actions(task: str) -> None:
    """PFB-ACT-11: lifting a heavy gate or disabling a trap takes a full-round action."""
    assert action_catalogue()[task] == "full-round"
    enc = duel()
    assert costs(enc.act(A.Activity(task))) == ["full-round"]
    t = turn(enc)
    assert not t.standard and not t.move


def test_pfb_act_12_full_round_uses_standard_and_move_but_leaves_the_free_action() -> None:
    """PFB-ACT-12, derived example: disable a trap (full-round) + drop an item (free) → legal;
    disable a trap + attack → illegal; and after a move no full-round action is possible."""
    enc = duel()
    enc.act(A.Activity("disable-trap"))
    illegal(enc, A.Attack("g"))
    illegal(enc, A.Move(to=(1, 3)))
    assert costs(enc.act(A.DropItem("longsword"))) == ["free"]
    enc2 = duel()
    enc2.act(A.Move(to=(1, 3)))
    illegal(enc2, A.Activity("disable-trap"))


def test_pfb_act_13_usually_one_free_action_gm_may_allow_more() -> None:
    """PFB-ACT-13, text example: shout a warning and drop the crossbow "at the same time" → two free
    actions: illegal by default, legal when the GM allows more (max_free_actions)."""
    enc = duel("cleric", extra={"wielding": "light-crossbow"})
    enc.act(A.Activity("speak"))
    assert "free action" in illegal(enc, A.DropItem("light-crossbow"))
    enc2 = duel("cleric", extra={"wielding": "light-crossbow"}, variants={"max_free_actions": 2})
    enc2.act(A.Activity("speak"))
    enc2.act(A.DropItem("light-crossbow"))
    illegal(enc2, A.DropProne())


def test_pfb_act_14_more_free_actions_granted_by_data() -> None:
    """PFB-ACT-14: abilities may grant further free actions; the engine's data knob is the free-action
    limit (max_free_actions): with 3, speak + drop item + drop prone all fit, a fourth does not."""
    enc = duel(variants={"max_free_actions": 3})
    enc.act(A.Activity("speak"))
    enc.act(A.DropItem("longsword"))
    enc.act(A.DropProne())
    assert turn(enc).free_used == 3
    illegal(enc, A.Activity("speak"))
    assert turn(enc).standard and turn(enc).move


def test_pfb_act_15_drop_a_held_item() -> None:
    """PFB-ACT-15, text example: drop the crossbow (free), draw the sword (move), attack the goblin
    (standard) → legal. Only a held item can be dropped; the dropper stays in its square."""
    enc = duel("cleric", extra={"wielding": "light-crossbow"}, dice=[2])
    illegal(enc, A.DropItem("heavy-mace"))
    assert costs(enc.act(A.DropItem("light-crossbow"))) == ["free"]
    assert enc.state.get("f").wielding is None and enc.state.get("f").position == (1, 1)
    assert costs(enc.act(A.Draw("heavy-mace"))) == ["move"]
    assert costs(enc.act(A.Attack("g"))) == ["standard"]


def test_pfb_act_16_drop_prone_in_your_square() -> None:
    """PFB-ACT-16: dropping prone is a free action in the creature's own square; a prone creature must
    stand up before moving."""
    enc = duel()
    assert costs(enc.act(A.DropProne())) == ["free"]
    assert enc.state.get("f").has("prone") and enc.state.get("f").position == (1, 1)
    illegal(enc, A.DropProne())
    illegal(enc, A.Move(to=(1, 3)))


def test_pfb_act_17_speaking_is_a_free_action() -> None:
    """PFB-ACT-17: speaking is a free action (catalogue and budget)."""
    assert action_catalogue()["speak"] == "free"
    enc = duel()
    assert costs(enc.act(A.Activity("speak"))) == ["free"]
    assert turn(enc).standard and turn(enc).move


def test_pfb_act_18_speech_is_limited_to_a_free_actions_worth() -> None:
    """PFB-ACT-18 (GM adjudication, not mechanized): speech is one free action; a creature can't go
    on speaking for a second free action in the same 6-second turn unless the GM allows it."""
    enc = duel()
    enc.act(A.Activity("speak"))
    illegal(enc, A.Activity("speak"))
    enc2 = duel(variants={"max_free_actions": 2})
    enc2.act(A.Activity("speak"))
    enc2.act(A.Activity("speak"))


def test_pfb_act_19_speech_in_a_spell_costs_no_free_action() -> None:
    """PFB-ACT-19: the words of a spell are part of casting it: after casting, the free action is
    still unused and the caster can still speak."""
    enc = duel("wizard")
    assert costs(enc.act(A.Activity("cast-spell"))) == ["standard"]
    assert turn(enc).free_used == 0
    assert costs(enc.act(A.Activity("speak"))) == ["free"]


# ----------------------------------------------------------------------------- ACT: other named actions


def test_pfb_act_20_mount_and_dismount_are_move_actions() -> None:
    """PFB-ACT-20: getting on and off a horse are move actions: both in one turn use the standard
    action as the second move, so no attack follows."""
    enc = duel()
    assert costs(enc.act(A.Activity("mount"))) == ["move"]
    assert costs(enc.act(A.Activity("dismount"))) == ["standard-as-move"]
    illegal(enc, A.Attack("g"))


def test_pfb_act_21_standing_up_is_a_move_action() -> None:
    """PFB-ACT-21, derived example: stand up (move) + draw a weapon (standard as move) → legal, but no
    attack that turn."""
    enc = duel(extra={"conditions": ["prone"]})
    illegal(enc, A.Move(to=(1, 3)))
    assert costs(enc.act(A.StandUp())) == ["move"]
    assert not enc.state.get("f").has("prone")
    assert costs(enc.act(A.Draw("shortbow"))) == ["standard-as-move"]
    illegal(enc, A.Attack("g", "longsword"))
    illegal(enc, A.StandUp())


@pytest.mark.parametrize("name", ["bandage-wound", "pull-lever", "shove-crate"])
def test_pfb_act_22_unlisted_activities_are_standard_actions(name: str) -> None:
    """PFB-ACT-22: most things are standard actions; an activity the catalogue doesn't know costs one."""
    assert name not in action_catalogue()
    enc = duel(dice=[2])
    assert costs(enc.act(A.Activity(name))) == ["standard"]
    illegal(enc, A.Attack("g"))
    enc.act(A.Move(to=(1, 2)))


def test_pfb_act_23_casting_a_prepared_spell_is_a_standard_action() -> None:
    """PFB-ACT-23, derived example: a wizard casts a spell (standard) and then moves (move) → legal;
    casting two spells in one turn → illegal."""
    assert action_catalogue()["cast-spell"] == "standard"
    enc = duel("wizard")
    assert costs(enc.act(A.Activity("cast-spell"))) == ["standard"]
    illegal(enc, A.Activity("cast-spell"))
    assert costs(enc.act(A.Move(to=(1, 4)))) == ["move"]


@pytest.mark.parametrize("name", ["drink-potion", "read-scroll", "use-magic-item"])
def test_pfb_act_24_using_a_magic_item_is_a_standard_action(name: str) -> None:
    """PFB-ACT-24: a scroll, potion or elixir is used with a standard action."""
    enc = duel(dice=[2])
    assert costs(enc.act(A.Activity(name))) == ["standard"]
    illegal(enc, A.Attack("g"))


def test_pfb_act_24_potion_from_the_belt_takes_move_and_standard() -> None:
    """PFB-ACT-24 / PFB-ITEM-03, derived example: draw a potion (move) then drink it (standard) → the
    whole turn except the free action."""
    enc = duel()
    assert costs(enc.act(A.Activity("draw-potion"))) == ["move"]
    assert costs(enc.act(A.Activity("drink-potion"))) == ["standard"]
    illegal(enc, A.Move(to=(1, 3)))
    enc.act(A.Activity("speak"))


def test_pfb_act_25_automatic_magic_items_need_no_action() -> None:
    """PFB-ACT-25: a magic sword that adds to attack and damage works all the time: its +1 is in the
    attack roll and the damage with no action spent on it (the attack's standard action is the only
    cost), like the fighter's Weapon Focus +1."""
    hero = {"name": "hero", "hp": 12, "abilities": {"str": 17}, "attack_bonus": 1,
            "attacks": [{"weapon": {"name": "magic-sword", "damage": "1d8", "enhancement": 1}}],
            "wielding": "magic-sword"}
    enc = duel(hero, dice=[10, 1])
    plan = enc.plan_attack("f", "g")
    labels = {m.source: m.value for m in plan.modifiers}
    assert labels.get("enhancement") == 1
    events = enc.act(A.Attack("g"))  # 10 + 1 + 3 + 1 = 15 ≥ AC 15; 1d8 1 + 3 + 1 = 5
    assert costs(events) == ["standard"]
    (hit,) = [e for e in events if isinstance(e, ev.AttackResolved)]
    assert hit.hit
    (dmg,) = [e for e in events if isinstance(e, ev.Damaged)]
    assert dmg.amount == 5
    fighter = duel()
    assert {m.source: m.value for m in fighter.plan_attack("f", "g").modifiers}.get("Weapon Focus") == 1


@pytest.mark.parametrize("name", ["channel-energy", "blinding-ray"])
def test_pfb_act_26_class_features_are_standard_actions(name: str) -> None:
    """PFB-ACT-26: a cleric's channel energy and an illusionist's blinding ray are standard actions."""
    enc = duel("cleric", dice=[2])
    assert costs(enc.act(A.Activity(name))) == ["standard"]
    illegal(enc, A.Attack("g"))
    assert turn(enc).move


def test_pfb_act_27_monster_abilities_are_standard_actions() -> None:
    """PFB-ACT-27: a monster's special ability such as breathing fire is a standard action."""
    assert action_catalogue()["breathe-fire"] == "standard"
    enc = build([who("o", "monsters", "ogre", (1, 1)), who("f", "heroes", "fighter", (3, 1))])
    assert costs(enc.act(A.Activity("breathe-fire"))) == ["standard"]
    illegal(enc, A.Activity("breathe-fire"))
    enc.act(A.Move(to=(1, 5)))


# ----------------------------------------------------------------------------- ITEM


def test_pfb_item_01_drawing_a_weapon_is_a_move_action() -> None:
    """PFB-ITEM-01: a drawn weapon is ready to fight with; the draw costs the move action (then the
    standard as a move); a weapon not in hand can't be used before it is drawn."""
    enc = duel(foe=(1, 6), dice=[2])
    illegal(enc, A.Attack("g", "shortbow"))
    assert costs(enc.act(A.Draw("shortbow"))) == ["move"]
    assert enc.state.get("f").wielding == "shortbow"
    enc.act(A.Attack("g", "shortbow"))
    illegal(enc, A.Draw("longsword"))


def test_pfb_item_02_putting_a_weapon_away_is_a_move_action() -> None:
    """PFB-ITEM-02: sheathing costs the move action; afterwards nothing is in hand."""
    enc = duel()
    assert costs(enc.act(A.Sheathe())) == ["move"]
    assert enc.state.get("f").wielding is None
    illegal(enc, A.Attack("g"))
    illegal(enc, A.Sheathe())


def test_pfb_item_03_drawing_other_objects_in_easy_reach() -> None:
    """PFB-ITEM-03: a potion, wand or scroll in easy reach is drawn with a move action."""
    assert action_catalogue()["draw-potion"] == "move"
    enc = duel()
    assert costs(enc.act(A.Activity("draw-potion"))) == ["move"]
    assert turn(enc).standard


def test_pfb_item_04_backpack_items_need_use_an_item() -> None:
    """PFB-ITEM-04, derived example: a potion in the backpack: Use an Item (move) + drink (standard)."""
    assert action_catalogue()["retrieve-from-backpack"] == "move"
    enc = duel()
    assert costs(enc.act(A.Activity("retrieve-from-backpack"))) == ["move"]
    assert costs(enc.act(A.Activity("drink-potion"))) == ["standard"]
    illegal(enc, A.Activity("draw-potion"))


def test_pfb_item_05_free_draw_while_moving_with_attack_bonus_1() -> None:
    """PFB-ITEM-05, derived example: a fighter with attack bonus +1 moves (move), draws his longsword
    during the move (free) and attacks (standard) → legal; his free action is then spent, so he can't
    also drop something."""
    enc = duel(extra={"wielding": "shortbow"}, foe=(1, 7), dice=[2])
    events = enc.act(A.Move(to=(1, 6), draw="longsword"))
    assert costs(events) == ["move", "free"]
    assert enc.state.get("f").wielding == "longsword" and enc.state.get("f").position == (1, 6)
    assert costs(enc.act(A.Attack("g"))) == ["standard"]
    illegal(enc, A.DropItem("longsword"))


def test_pfb_item_05_attack_bonus_0_cannot_draw_while_moving() -> None:
    """PFB-ITEM-05, derived example: a wizard (attack bonus +0) can't draw while moving; move (move) +
    draw (standard as move) → no attack that turn."""
    enc = duel("wizard", foe=(1, 7))
    assert "+1" in illegal(enc, A.Move(to=(1, 6), draw="quarterstaff"))
    enc.act(A.Move(to=(1, 6)))
    assert costs(enc.act(A.Draw("quarterstaff"))) == ["standard-as-move"]
    illegal(enc, A.Attack("g"))


def test_pfb_item_05_only_the_move_action_qualifies() -> None:
    """PFB-ITEM-05(c): a standard action used as a move does not give the free draw."""
    enc = duel(extra={"wielding": "shortbow"})
    enc.act(A.Activity("pick-up-item"))
    illegal(enc, A.Move(to=(1, 4), draw="longsword"))


def test_pfb_item_05_variant_draw_does_not_use_the_free_action() -> None:
    """PFB-ITEM-05(b) variant pfb_move_draw_uses_free_action = false: the draw is free of charge and
    the free action is still available."""
    enc = duel(extra={"wielding": "shortbow"}, variants={"pfb_move_draw_uses_free_action": False})
    assert costs(enc.act(A.Move(to=(1, 4), draw="longsword"))) == ["move"]
    assert turn(enc).free_used == 0
    enc.act(A.DropItem("longsword"))


def test_pfb_item_06_arrows_need_no_action() -> None:
    """PFB-ITEM-06, derived example: an archer shoots (standard) — the arrow costs nothing, there is
    nothing to reload — and can still move (move) and drop something (free); next round it shoots
    again."""
    enc = duel(extra={"wielding": "shortbow"}, foe=(1, 6), dice=[2, 2])
    assert costs(enc.act(A.Attack("g"))) == ["standard"]
    assert "no reloading" in illegal(enc, A.Reload("shortbow"))
    enc.act(A.Move(to=(2, 1)))
    enc.act(A.Activity("speak"))
    for _ in range(4):
        enc.act(A.EndTurn())
    assert turn(enc).actor == "f"
    enc.act(A.Attack("g"))


@pytest.mark.parametrize("name", ["open-door", "close-door", "retrieve-from-backpack", "knock-over-table"])
def test_pfb_item_07_use_an_item_is_a_move_action(name: str) -> None:
    """PFB-ITEM-07: opening or closing a door, getting something out of a backpack, knocking over a
    table are move actions."""
    enc = duel()
    assert costs(enc.act(A.Activity(name))) == ["move"]
    assert turn(enc).standard


def test_pfb_item_08_light_crossbow_reload_is_a_move_action() -> None:
    """PFB-ITEM-08, derived example: light crossbow: shoot (standard) + reload (move) → one shot per
    turn; no movement beyond a 5-foot step that turn; a spent crossbow can't shoot until reloaded."""
    enc = duel("wizard", extra={"wielding": "light-crossbow"}, foe=(1, 6), dice=[2])
    enc.act(A.Attack("g"))  # 2 + 2 misses AC 15
    assert "light-crossbow" not in enc.state.get("f").loaded
    assert "not loaded" in illegal(enc, A.Attack("g"))
    assert costs(enc.act(A.Reload("light-crossbow"))) == ["move"]
    assert "light-crossbow" in enc.state.get("f").loaded
    illegal(enc, A.Move(to=(1, 3)))
    enc.act(A.Step((2, 1)))


def test_pfb_item_08_heavy_crossbow_reload_is_a_full_round() -> None:
    """PFB-ITEM-08 (MISSING → PF1 default): reloading a heavy crossbow is a full-round action: not in
    the turn it shot, and in the next turn it takes move and standard, leaving the free action."""
    archer = sheet("fighter", attacks=[{"weapon": "heavy-crossbow"}], wielding="heavy-crossbow")
    enc = duel(archer, foe=(1, 6), dice=[2])
    enc.act(A.Attack("g"))
    illegal(enc, A.Reload("heavy-crossbow"))
    for _ in range(4):
        enc.act(A.EndTurn())
    assert turn(enc).actor == "f"
    assert costs(enc.act(A.Reload("heavy-crossbow"))) == ["full-round"]
    illegal(enc, A.Attack("g"))
    enc.act(A.Activity("speak"))


def _held_shield_fighter() -> dict[str, Any]:
    # AC 15 without the shield (10 + chain shirt 4 + DEX 1); a light wooden shield gives +1
    return sheet("fighter", shield="light-wooden-shield", shield_state="held")


def test_pfb_item_09_strapping_a_shield_is_a_move_action() -> None:
    """PFB-ITEM-09, derived example: a fighter with AC 15 straps on a light wooden shield (+1) with a
    move action → AC 16 from then on."""
    enc = duel(_held_shield_fighter())
    assert ac(enc, "f") == 15
    assert costs(enc.act(A.ShieldAction("strap"))) == ["move"]
    assert enc.state.get("f").shield_state == "strapped"
    assert ac(enc, "f") == 16
    illegal(enc, A.ShieldAction("strap"))


def test_pfb_item_10_removing_a_worn_shield_is_a_move_action() -> None:
    """PFB-ITEM-10: removing a worn shield costs a move action and takes its bonus away."""
    enc = duel()
    assert ac(enc, "f") == 17
    assert costs(enc.act(A.ShieldAction("remove"))) == ["move"]
    assert enc.state.get("f").shield_state == "held"
    assert ac(enc, "f") == 15


def test_pfb_item_11_shield_while_moving_with_attack_bonus_1() -> None:
    """PFB-ITEM-11: with attack bonus +1 a shield can be strapped on as a free action while moving
    (move action); with +0 (cleric) it cannot; a standard used as a move does not qualify."""
    enc = duel(_held_shield_fighter())
    assert costs(enc.act(A.Move(to=(1, 4), shield="strap"))) == ["move", "free"]
    assert enc.state.get("f").shield_state == "strapped" and ac(enc, "f") == 16
    cleric = duel("cleric")
    illegal(cleric, A.Move(to=(1, 3), shield="remove"))
    enc2 = duel(_held_shield_fighter())
    enc2.act(A.Activity("pick-up-item"))
    illegal(enc2, A.Move(to=(1, 4), shield="strap"))


def test_pfb_item_12_held_shield_gives_no_bonus_and_drops_for_free() -> None:
    """PFB-ITEM-12, derived example: a shield held in the hand (not strapped) gives no shield bonus and
    can be dropped as a free action; a strapped shield cannot be dropped that way."""
    enc = duel(_held_shield_fighter())
    assert ac(enc, "f") == 15
    assert costs(enc.act(A.ShieldAction("drop"))) == ["free"]
    assert enc.state.get("f").shield_state == "dropped"
    strapped = duel()
    assert "free action" in illegal(strapped, A.ShieldAction("drop"))
