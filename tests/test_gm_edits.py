"""Issue 13, item 2: the game master's writes in the engine — damage, healing and hp by hand, conditions, timed
effects with a duration tied to a creature's turn, creatures added and removed — evented, undoable, verified on
import, refused in words with nothing changed, under every ruleset."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from d20combat.controllers import TacticalAI, play
from d20combat.dice import SeededDice, TypedDice
from d20combat.encounter import events as ev
from d20combat.encounter import gm_actions as gm
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.encounter.verify import verify_batches
from d20combat.scenario import ScenarioError, battle_from_data
from d20combat.scenario.reinforcements import creature_to_add

RULESETS = ["pathfinder-beginner", "off-guard", "skill-based"]


def duel(ruleset: str = "pathfinder-beginner", **extra: Any) -> dict[str, Any]:
    more = extra.pop("more", [])
    return {
        "name": "duel", "ruleset": ruleset, "map": {"width": 10, "height": 8},
        "combatants": [
            {"id": "valeros", "name": "Valeros", "side": "heroes", "stats": "fighter", "position": [2, 2],
             "initiative": 20},
            {"id": "goblin", "side": "goblins", "stats": "goblin", "position": [3, 2], "initiative": 5},
            *more,
        ],
        "surprise": {"surprised": []}, **extra,
    }


def started(ruleset: str = "pathfinder-beginner", seed: int = 1, **extra: Any) -> Encounter:
    enc = Encounter(battle_from_data(duel(ruleset, **extra)), SeededDice(seed))
    enc.start()
    return enc


def kinds(events: list[ev.Event]) -> list[str]:
    return [e.kind for e in events]


# ------------------------------------------------------------------------------------------ hit points
@pytest.mark.parametrize("ruleset", RULESETS)
def test_gm_damage_follows_the_rulesets_injury_rules(ruleset: str) -> None:
    enc = started(ruleset)
    before = enc.state.get("goblin").hp
    events = enc.gm(gm.GmDamage("goblin", 2, "falling rock"))
    assert kinds(events)[:2] == ["gm_edited", "damaged"]
    assert isinstance(events[0], ev.GmEdited) and events[0].by == "GM" and "falling rock" in events[0].text
    assert enc.state.get("goblin").hp == before - 2
    assert enc.state.actor == "valeros"  # a GM write spends nobody's turn


def test_gm_damage_that_drops_the_last_foe_ends_the_combat() -> None:
    enc = started()
    enc.gm(gm.GmDamage("goblin", 100))
    assert enc.state.ended and enc.state.winner == "heroes"
    with pytest.raises(IllegalAction, match="over"):
        enc.gm(gm.GmHeal("goblin", 1))
    assert enc.undo() and not enc.state.ended


def test_gm_damage_to_the_creature_whose_turn_it_is_ends_its_turn_when_it_cannot_act() -> None:
    """PFB-HP-02: a dying creature cannot act, so its turn ends and the next begins, in the same write."""
    enc = started(more=[{"id": "kyra", "side": "heroes", "stats": "cleric", "position": [1, 5],
                         "initiative": 1}])
    events = enc.gm(gm.GmDamage("valeros", enc.state.get("valeros").hp + 1))
    assert "turn_ended" in kinds(events) and enc.state.actor == "goblin"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_gm_heal_is_capped_at_the_maximum_and_refused_at_full_hp(ruleset: str) -> None:
    enc = started(ruleset)
    with pytest.raises(IllegalAction, match=r"full|no damage"):
        enc.gm(gm.GmHeal("goblin", 3))
    enc.gm(gm.GmDamage("goblin", 2))
    events = enc.gm(gm.GmHeal("goblin", 50, "potion"))
    healed = [e for e in events if isinstance(e, ev.Healed)]
    assert healed and healed[0].amount == 2
    assert enc.state.get("goblin").hp == enc.creature("goblin").sheet.hp


def test_pfb_gm_heal_brings_a_dying_creature_back_up() -> None:
    """PFB-HP-02 with the GM's healing (proposed reading: hp above 0 is up again)."""
    enc = started(more=[{"id": "kyra", "side": "heroes", "stats": "cleric", "position": [1, 5],
                         "initiative": 1}])
    enc.gm(gm.GmSetHp("kyra", -2))
    assert enc.view().state.get("kyra").hp == -2 and enc.is_helpless("kyra")
    events = enc.gm(gm.GmHeal("kyra", 5))
    assert enc.state.get("kyra").hp == 3 and not enc.is_helpless("kyra")
    assert any("back on its feet" in e.explain() for e in events)


def test_cmv_gm_heal_ends_dying_when_damage_falls_below_hp() -> None:
    """CMV-INJ-12 with the GM's healing (proposed reading): dying and stable end once damage < hp."""
    enc = started("off-guard")
    hp = enc.creature("goblin").sheet.hp
    enc.dice = TypedDice()
    enc.dice.enter(1, 20)  # the death save fails: dying
    enc.gm(gm.GmDamage("goblin", hp + 1))
    assert enc.state.get("goblin").has("dying") or enc.state.ended
    if enc.state.ended:
        enc.undo()
        return
    enc.gm(gm.GmHeal("goblin", hp))
    assert not enc.state.get("goblin").has("dying")


def test_gm_set_hp_damages_or_heals_by_the_difference_and_refuses_nonsense() -> None:
    enc = started()
    enc.gm(gm.GmSetHp("goblin", 1))
    assert enc.state.get("goblin").hp == 1
    enc.gm(gm.GmSetHp("goblin", 4))
    assert enc.state.get("goblin").hp == 4
    top = enc.creature("goblin").sheet.hp
    for bad, words in ((top + 1, "maximum"), (4, "already")):
        version = enc.state.version
        with pytest.raises(IllegalAction, match=words):
            enc.gm(gm.GmSetHp("goblin", bad))
        assert enc.state.version == version
    with pytest.raises(IllegalAction, match="no combatant 'nobody'"):
        enc.gm(gm.GmDamage("nobody", 1))
    with pytest.raises(IllegalAction, match="amount: 0"):
        enc.gm(gm.GmDamage("goblin", 0))


# ------------------------------------------------------------------------------------------ conditions, effects
def test_gm_condition_added_and_removed_and_undone() -> None:
    enc = started()
    enc.gm(gm.GmCondition("goblin", "prone"))
    assert enc.state.get("goblin").has("prone")
    with pytest.raises(IllegalAction, match="already has"):
        enc.gm(gm.GmCondition("goblin", "prone"))
    enc.gm(gm.GmCondition("goblin", "prone", present=False))
    assert not enc.state.get("goblin").has("prone")
    enc.undo()
    assert enc.state.get("goblin").has("prone")
    enc.redo()
    assert not enc.state.get("goblin").has("prone")


def test_pfb_time_03_a_gm_effect_ends_just_before_its_anchors_turn_n_rounds_later() -> None:
    """PFB-TIME-03..05: "for 2 rounds" put on during valeros's turn in round 1 ends just before valeros's turn in
    round 3; its condition goes with it."""
    enc = started()
    events = enc.gm(gm.GmEffect("goblin", "blur", 2, ac=0, condition="concealed:20"))
    assert enc.state.get("goblin").has("concealed:20")
    assert any(isinstance(e, ev.EffectAdded) and e.anchor == "valeros" and e.until_round == 3 for e in events)
    ended_at: tuple[int, str | None] | None = None
    for _ in range(12):
        enc.act(next(a for a in enc.legal_actions() if a.kind == "end_turn"))
        if not any(e.name == "blur" for e in enc.state.get("goblin").effects) and ended_at is None:
            ended_at = (enc.state.round, enc.state.actor)
    assert ended_at == (3, "valeros")
    assert not enc.state.get("goblin").has("concealed:20")


def test_gm_effect_attack_bonus_counts_on_the_attack_roll() -> None:
    """An effect's attack modifier (bless +1) is a named term of the attack's total."""
    enc = started()
    enc.gm(gm.GmEffect("valeros", "bless", 3, attack=1))
    plan = enc.plan_attack("valeros", "goblin")
    assert any(m.source == "bless" and m.value == 1 for m in plan.modifiers)


def test_gm_effect_can_be_ended_early_and_refuses_duplicates() -> None:
    enc = started()
    enc.gm(gm.GmEffect("goblin", "slow", 5, ac=-1))
    with pytest.raises(IllegalAction, match="already has an effect"):
        enc.gm(gm.GmEffect("goblin", "slow", 2))
    enc.gm(gm.GmEndEffect("goblin", "slow"))
    assert not enc.state.get("goblin").effects
    with pytest.raises(IllegalAction, match="no effect 'slow'"):
        enc.gm(gm.GmEndEffect("goblin", "slow"))


def test_scenario_effects_start_in_place_and_end_on_time() -> None:
    """Scenario ``effects:``: in place before round 1, ending just before the anchor's turn in round rounds + 1."""
    data = duel()
    data["combatants"][0]["effects"] = [{"name": "bless", "rounds": 1, "attack": 1}]
    enc = Encounter(battle_from_data(data), SeededDice(1))
    enc.start()
    assert [e.name for e in enc.state.get("valeros").effects] == ["bless"]
    enc.act(next(a for a in enc.legal_actions() if a.kind == "end_turn"))
    enc.act(next(a for a in enc.legal_actions() if a.kind == "end_turn"))
    assert enc.state.round == 2 and not enc.state.get("valeros").effects


def test_scenario_effects_are_checked_by_field() -> None:
    data = duel()
    data["combatants"][0]["effects"] = [{"name": "bless", "rounds": 0}]
    with pytest.raises(ScenarioError, match=r"combatants\[0\]\.effects\[0\]\.rounds"):
        battle_from_data(data)
    data["combatants"][0]["effects"] = [{"name": "x", "rounds": 1, "anchor": "gobbo"},
                                        {"name": "y", "rounds": 1, "condition": "panicked:nobody"}]
    with pytest.raises(ScenarioError) as err:
        battle_from_data(data)
    text = str(err.value)
    assert "combatants[0].effects[0].anchor: no combatant 'gobbo'" in text
    assert "combatants[0].effects[1].condition" in text


# ------------------------------------------------------------------------------------------ creatures
@pytest.mark.parametrize("ruleset", RULESETS)
def test_gm_adds_a_creature_from_the_bestiary_that_takes_its_turn(ruleset: str) -> None:
    enc = started(ruleset)
    add = creature_to_add({"id": "gob-2", "side": "goblins", "stats": "goblin", "position": [6, 6],
                           "initiative": 10})
    events = enc.gm(add)
    assert "creature_added" in kinds(events)
    assert enc.state.order == ("valeros", "gob-2", "goblin")
    assert enc.creature("gob-2").name == "goblin" and enc.state.actor == "valeros"
    enc.act(next(a for a in enc.legal_actions() if a.kind == "end_turn"))
    assert enc.state.actor == "gob-2"
    assert enc.undo() and enc.undo()
    assert "gob-2" not in enc.state.combatants and enc.state.order == ("valeros", "goblin")


def test_gm_adds_an_inline_creature_of_a_new_side_and_the_fight_goes_on_until_one_side_stands() -> None:
    enc = started()
    enc.gm(creature_to_add({"id": "wolf", "side": "wolves", "position": [8, 6],
                            "stats": {"name": "Wolf", "hp": 13, "natural_armor": 2, "abilities": {"str": 13, "dex": 15},
                                      "attacks": [{"weapon": "bite"}]}}))
    enc.gm(gm.GmDamage("goblin", 100))
    assert not enc.state.ended  # the wolves still stand
    play(enc, TacticalAI())
    assert enc.state.ended


def test_gm_add_creature_is_refused_in_words() -> None:
    enc = started()
    with pytest.raises(IllegalAction, match="occupied by"):
        enc.gm(creature_to_add({"id": "g2", "side": "goblins", "stats": "goblin", "position": [3, 2]}))
    with pytest.raises(IllegalAction, match="taken"):
        enc.gm(creature_to_add({"id": "goblin", "side": "goblins", "stats": "goblin", "position": [5, 5]}))
    with pytest.raises(IllegalAction, match="outside"):
        enc.gm(creature_to_add({"id": "g3", "side": "goblins", "stats": "goblin", "position": [30, 5]}))
    with pytest.raises(ScenarioError, match="no stat block named 'gobbo'"):
        creature_to_add({"id": "g4", "side": "goblins", "stats": "gobbo", "position": [5, 5]})
    with pytest.raises(ScenarioError, match="position"):
        creature_to_add({"id": "g5", "side": "goblins", "stats": "goblin"})
    assert len(enc.writes) == 0


def test_gm_removes_the_creature_whose_turn_it_is_and_the_next_one_acts() -> None:
    enc = started(more=[{"id": "kyra", "side": "heroes", "stats": "cleric", "position": [1, 5],
                         "initiative": 1}])
    enc.gm(gm.GmRemoveCreature("valeros"))
    assert enc.state.actor == "goblin" and "valeros" not in enc.state.order
    assert not enc.on_map("valeros")
    enc.undo()
    assert enc.state.actor == "valeros" and enc.on_map("valeros")


def test_gm_writes_are_refused_while_a_reaction_is_asked_for_and_as_actions() -> None:
    enc = started()
    with pytest.raises(IllegalAction, match="game master's write"):
        enc.act(gm.GmDamage("goblin", 1))


# ------------------------------------------------------------------------------------------ verified replays
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_session_with_gm_writes_verifies_event_for_event(ruleset: str) -> None:
    """Every GM write is recorded with its dice (a rolled initiative included): the export replays exactly."""
    enc = started(ruleset, seed=7)
    enc.gm(creature_to_add({"id": "gob-2", "side": "goblins", "stats": "goblin", "position": [6, 6]}))
    enc.gm(gm.GmEffect("gob-2", "haste", 2, ac=1))
    enc.gm(gm.GmCondition("valeros", "shaken"))
    enc.gm(gm.GmDamage("valeros", 3))
    play(enc, TacticalAI(), max_actions=40)
    batches = enc.batches()
    writes = [w.to_dict() for w in enc.writes]
    events = [e.to_dict() for e in enc.log]
    again, _, _ = verify_batches(battle_from_data(duel(ruleset)), enc.start_faces,
                                 writes, copy.deepcopy(events), [len(b) for b in batches])
    assert [e.to_json() for e in again.log] == [e.to_json() for e in enc.log]


# ------------------------------------------------------------------------------------------ saves and checks
def _typed(enc: Encounter, *faces: int) -> None:
    enc.dice = TypedDice()
    for face in faces:
        enc.dice.enter(face, 20)


def test_pfb_nat_03_a_called_save_succeeds_on_a_natural_20_whatever_the_dc() -> None:
    """PFB-NAT-03/04 through the GM's call: natural 20 succeeds, natural 1 fails."""
    enc = started()
    _typed(enc, 20)
    events = enc.gm(gm.GmSave("goblin", "will", 40, "fear"))
    rolled = next(e for e in events if isinstance(e, ev.SaveRolled))
    assert rolled.success and rolled.dc == 40 and "natural 20" in rolled.explanation
    _typed(enc, 1)
    rolled = next(e for e in enc.gm(gm.GmSave("goblin", "will", 0)) if isinstance(e, ev.SaveRolled))
    assert not rolled.success and "natural 1" in rolled.explanation


def test_pfb_nat_05_a_called_check_has_no_automatic_result() -> None:
    """PFB-NAT-05/06: a skill check's natural 20 does not beat an impossible DC."""
    enc = started()
    _typed(enc, 20)
    rolled = next(e for e in enc.gm(gm.GmCheck("valeros", "climb", 60)) if isinstance(e, ev.SaveRolled))
    assert not rolled.success and rolled.check == "climb"


def test_cmv_cond_24_a_shaken_creature_saves_at_minus_2_when_the_gm_calls() -> None:
    """CMV-COND-24: shaken −2 on saves, named in the explanation of the GM's call."""
    enc = started("off-guard")
    enc.gm(gm.GmCondition("goblin", "shaken"))
    _typed(enc, 10)
    rolled = next(e for e in enc.gm(gm.GmSave("goblin", "will", 10)) if isinstance(e, ev.SaveRolled))
    assert "shaken" in rolled.explanation
    plain = started("off-guard")
    _typed(plain, 10)
    other = next(e for e in plain.gm(gm.GmSave("goblin", "will", 10)) if isinstance(e, ev.SaveRolled))
    assert rolled.total == other.total - 2


def test_skl_a_called_save_under_skill_based_has_no_natural_result() -> None:
    """SKL-ATK-07 (no natural results in the skill-based variant) through the GM's call."""
    enc = started("skill-based")
    _typed(enc, 20)
    rolled = next(e for e in enc.gm(gm.GmSave("goblin", "fort", 60)) if isinstance(e, ev.SaveRolled))
    assert not rolled.success


def test_called_saves_are_refused_in_words() -> None:
    enc = started()
    with pytest.raises(IllegalAction, match=r"gm_save\.dc"):
        enc.gm(gm.GmSave("goblin", "will", -1))
    with pytest.raises(IllegalAction, match="no 'juggling' skill"):
        enc.gm(gm.GmCheck("goblin", "juggling", 10))
    assert not enc.writes
