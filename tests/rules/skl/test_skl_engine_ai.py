"""The skill-based ruleset in the whole engine: stat-block checks (the CLI's ``--ruleset skill-based``), the
shipped bestiary, the example scenario, replay, the action registry, variants, and the AI's choices (reserve,
critical attack, feint, block or dodge) through ``controllers.play``."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from tests.rules.skl.helpers import SKL, duel, encounter, fighter, illegal, resolve, sheet
from typer.testing import CliRunner

from d20combat.cli import app
from d20combat.controllers import Scripted, TacticalAI, play
from d20combat.dice import SeededDice
from d20combat.encounter import events as ev
from d20combat.encounter.actions import Attack, EndTurn, Move, action_from_dict
from d20combat.encounter.engine import Encounter
from d20combat.model.catalog import default_catalog
from d20combat.replay import encounter_from_log
from d20combat.rulesets import RULESETS, get_ruleset
from d20combat.rulesets.skill_based import CastSpell, Feint, Reserve, SkillBased, SkillBasedOptions
from d20combat.scenario import ScenarioError, battle_from_data, load_battle

runner = CliRunner()


# ---------------------------------------------------------------------------- stat blocks and data
def test_skl_atk_08_a_stat_block_without_the_ratings_is_rejected_by_name() -> None:
    """SKL-ATK-08 / SKL-DEF-06: every weapon's skill and Defense must be rated; the message names what is missing."""
    data = {"ruleset": SKL, "map": {"width": 6, "height": 6}, "combatants": [
        {"id": "a", "side": "x", "position": [1, 1],
         "stats": {"name": "bare", "hp": 5, "attacks": [{"weapon": "longsword"}, {"weapon": "shortbow"}]}},
        {"id": "b", "side": "y", "stats": "goblin", "position": [3, 3]}]}
    with pytest.raises(ScenarioError) as info:
        battle_from_data(data)
    text = str(info.value)
    assert "combatants[0].stats: no 'sword' skill rating for longsword" in text
    assert "no 'bow' skill rating for shortbow" in text and "no 'defense' skill rating" in text
    assert "(needed by the skill-based ruleset)" in text and "combatants[1]" not in text


def test_skl_cli_ruleset_override_rejects_unready_sheets_and_runs_the_bestiary(tmp_path: Path) -> None:
    """The CLI's ``--ruleset skill-based``: a clear error for a sheet without ratings; the shipped scenarios,
    whose bestiary creatures all carry SKL ratings, play to the end."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump({"map": {"width": 6, "height": 6}, "combatants": [
        {"id": "a", "side": "x", "position": [1, 1], "stats": {"name": "bare", "hp": 5,
                                                               "attacks": [{"weapon": "club"}]}},
        {"id": "b", "side": "y", "stats": "goblin", "position": [3, 3]}]}))
    result = runner.invoke(app, ["run", str(bad), "--ruleset", "skill-based"])
    assert result.exit_code == 2 and "no 'club' skill rating for club" in result.output
    assert runner.invoke(app, ["run", str(bad)]).exit_code == 0  # PFB needs no ratings
    result = runner.invoke(app, ["run", "examples/goblin-ambush.yaml", "--ruleset", "skill-based", "--seed", "2"])
    assert result.exit_code == 0 and "Passive Defense" in result.output and "Result after" in result.output


def test_skl_every_bestiary_creature_is_ready_and_pfb_numbers_are_unchanged() -> None:
    """SKL-DMG-03: the shipped creatures carry ratings and armor; the Pathfinder attack bonus stays BAB + Str +
    Weapon Focus."""
    rs = get_ruleset(SKL)
    for name, block in default_catalog().bestiary.items():
        assert rs.sheets.check_stat_block(block) == [], name
        assert block.armor_rating is not None and "defense" in block.skills
    enc = encounter([{"id": "f", "side": "x", "stats": "fighter", "position": [1, 1]},
                     {"id": "g", "side": "y", "stats": "goblin", "position": [2, 1]}])
    assert [m.source for m in enc.plan_attack("f", "g").modifiers] == ["sword skill", "Str"]
    from tests.conftest import make_encounter

    pfb = make_encounter([{"id": "f", "side": "x", "stats": "fighter", "position": [1, 1]},
                          {"id": "g", "side": "y", "stats": "goblin", "position": [2, 1]}])
    assert sum(m.value for m in pfb.plan_attack("f", "g").modifiers) == 1 + 3 + 1
    assert pfb.target_ac(pfb.plan_attack("f", "g"), pfb.state)[0] == 15  # 10 + leather 2 + shield 1 + Dex 2


def test_skl_variants_are_named_documented_and_validated() -> None:
    """Every AMBIGUOUS/MISSING reading is a documented ``skl_`` option; an unknown one is rejected."""
    for name, field in SkillBasedOptions.model_fields.items():
        assert name.startswith("skl_") and field.description, name
    assert RULESETS["skill-based"] is SkillBased
    data = {"ruleset": SKL, "variants": {"skl_bogus": True}, "map": {"width": 6, "height": 6}, "combatants": [
        {"id": "a", "side": "x", "stats": "fighter", "position": [1, 1]},
        {"id": "b", "side": "y", "stats": "goblin", "position": [3, 3]}]}
    with pytest.raises(ScenarioError, match=r"variants\.skl_bogus"):
        battle_from_data(data)


def test_skl_ruleset_actions_are_registered() -> None:
    """The ruleset's own actions come from JSON like the core's (API, replays of decisions), through the
    encounter's registry: off-guard has a cast_spell too, and each ruleset's registry holds its own."""
    from d20combat.encounter.registry import ActionRegistry
    from d20combat.rulesets.off_guard import CastSpell as CmvCastSpell

    skl = ActionRegistry(get_ruleset(SKL))
    assert skl.from_dict({"kind": "reserve", "count": 1}) == Reserve(1)
    assert skl.from_dict({"kind": "feint", "target": "b"}) == Feint("b")
    assert skl.from_dict({"kind": "cast_spell", "spell": "ray-of-frost", "target": "b"}) == CastSpell(
        "ray-of-frost", "b")
    cmv = ActionRegistry(get_ruleset("off-guard")).from_dict({"kind": "cast_spell", "spell": "ray-of-frost"})
    assert isinstance(cmv, CmvCastSpell) and not isinstance(cmv, CastSpell)
    with pytest.raises(ValueError, match="unknown action kind 'feint'"):  # no ruleset given: the core's kinds only
        action_from_dict({"kind": "feint", "target": "b"})


# ---------------------------------------------------------------------------- the example and replay
def test_skl_example_skill_duel_plays_to_the_end_with_explained_numbers(tmp_path: Path) -> None:
    """examples/skill-duel.yaml: reserve, block/dodge, critical attacks, armor and attacks of opportunity, every
    number explained; the log replays to the same result."""
    log = tmp_path / "duel.jsonl"
    result = runner.invoke(app, ["run", "examples/skill-duel.yaml", "--seed", "1", "--log", str(log)])
    assert result.exit_code == 0, result.output
    out = result.output
    for words in ("ruleset skill-based", "vs Passive Defense", "− armor rating", "critical attack", "in reserve",
                  "lapses (SKL-RES-06)", "attack of opportunity", "blocks:", "natural 1 counts as -10",
                  "Result after"):
        assert words in out, words
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0
    assert out[out.index("Result after"):].split("event log:")[0].strip() in replayed.output


def test_skl_replay_rebuilds_the_state_from_the_log() -> None:
    enc = Encounter(load_battle("examples/skill-duel.yaml"), SeededDice(4))
    play(enc, TacticalAI())
    again = encounter_from_log(enc.log)
    assert again.state.combatants == enc.state.combatants and again.state.ended


# ---------------------------------------------------------------------------- AI
def _ai_battle(seed: int) -> Encounter:
    return play(Encounter(load_battle("examples/skill-duel.yaml"), SeededDice(seed)), TacticalAI())


def test_skl_ai_battles_end_and_are_reproducible() -> None:
    logs = ["\n".join(e.to_json() for e in _ai_battle(seed).log) for seed in (3, 3)]
    assert logs[0] == logs[1]
    kinds: set[str] = set()
    for seed in range(1, 7):
        enc = _ai_battle(seed)
        assert enc.state.ended and enc.pending is None
        for e in enc.log:
            if isinstance(e, ev.ReactionSpent):
                kinds.add(e.reaction.split()[0])
            if isinstance(e, ev.BudgetSpent):
                kinds.add(e.action.split()[0])
    assert {"block", "dodge", "attack", "reserve", "feint", "off-hand"} <= kinds


def test_skl_ai_reaction_preference_takes_the_better_bonus_or_none() -> None:
    """SKL-DEF-04/06 for the AI: the better of block and dodge; nothing when it cannot reach the total, and before
    its own turn nothing against a harmless hit (the held action is also its attack)."""
    blocker = sheet("b", skills={"sword": 6, "defense": 0}, str=2, dex=1, hp=12)
    enc = duel(fighter(), blocker, dice=[12])
    enc.act(Attack("b"))
    assert enc.pending is not None and TacticalAI().react(enc, enc.pending.prompt) == "block"
    dodger = sheet("b", skills={"sword": 0, "defense": 6}, dex=2, hp=12)
    enc = duel(fighter(), dodger, dice=[12])
    enc.act(Attack("b"))
    assert enc.pending is not None and TacticalAI().react(enc, enc.pending.prompt) == "dodge"
    pin = sheet("a", skills={"dagger": 8}, weapon="dagger")
    enc = duel(pin, sheet("b", skills={"defense": 6}, hp=40, armor_rating=2), dice=[12])
    enc.act(Attack("b"))
    assert enc.pending is not None and TacticalAI().react(enc, enc.pending.prompt) == "none"


def test_skl_ai_answers_prompts_through_play() -> None:
    """``controllers.play`` answers active-defense prompts with the ruleset's preference."""
    enc = duel(fighter(), sheet("b", skills={"defense": 8}, dex=2, hp=12), start=False)
    enc = Encounter(enc.battle, SeededDice(11))
    play(enc, TacticalAI())
    assert enc.state.ended
    assert any(isinstance(e, ev.ReactionSpent) and e.reaction.startswith("dodge") for e in enc.log)


def test_skl_scripted_controllers_answer_prompts_from_a_list() -> None:
    enc = duel(fighter(), sheet("b", skills={"defense": 8}, hp=60), dice=[15, 20], start=False)
    enc.start()
    play(enc, {"heroes": Scripted([Attack("b")]), "foes": Scripted([], answers=["dodge"])}, max_actions=3)
    assert any(isinstance(e, ev.ReactionSpent) for e in enc.log) and enc.state.get("b").hp == 60


def test_skl_ai_takes_a_critical_attack_against_armor() -> None:
    """SKL-CRIT-04 for the AI: against armor rating 6 a plain dagger hit does nothing; −5 buys 5 damage."""
    enc = duel(sheet("a", skills={"dagger": 6}, weapon="dagger"), sheet("b", armor_rating=6))
    action = TacticalAI().choose(enc)
    assert isinstance(action, Attack) and action.critical == -5
    enc = duel(sheet("a", skills={"sword": 2}, weapon="longsword"), sheet("b", dex=8))
    action = TacticalAI().choose(enc)
    assert isinstance(action, Attack) and action.critical == 0  # a hard target: no penalty


def test_skl_ai_feints_a_foe_whose_defense_would_spoil_the_attack() -> None:
    """SKL-FEINT for the AI: a foe holding a reserve and a dodge far above our attack is feinted first."""
    slippery = sheet("b", skills={"defense": 12}, dex=4, wis=-2)
    enc = duel(sheet("a", skills={"sword": 6}, int=4), slippery)
    assert isinstance(TacticalAI().choose(enc), Feint)


def test_skl_ai_holds_its_action_before_walking_out_of_a_threatened_square() -> None:
    """SKL-RES-02 / SKL-AOO-11 for the AI: nothing in reach and a foe threatening it → Reserve, then move."""
    spear = fighter("b", skills={"spear": 4}, weapon="longspear")
    enc = duel(sheet("a"), spear, a_at=(1, 1), b_at=(3, 1))
    action = TacticalAI().choose(enc)
    assert action == Reserve(1)
    resolve(enc, action)
    assert isinstance(TacticalAI().choose(enc), Move | EndTurn)


def test_skl_ai_casts_spells_with_cast_spell() -> None:
    wizard = sheet("a", skills={"sorcery": 4}, weapon="ray-of-frost", dex=2)
    enc = duel(wizard, sheet("b"), b_at=(4, 1))
    assert TacticalAI().choose(enc) == CastSpell("ray-of-frost", "b")


def test_skl_illegal_actions_change_nothing() -> None:
    """Refused actions leave the state, the log and any pending prompt untouched (checked in every SKL test via
    ``illegal``); here a refusal in the middle of a reaction window."""
    enc = duel(fighter(), sheet("b"), dice=[15])
    enc.act(Attack("b"))
    assert enc.pending is not None
    illegal(enc, Reserve(1))
    with pytest.raises(ValueError, match="not one of"):
        enc.respond("parry")
    assert enc.pending is not None and enc.pending.prompt.kind == "active_defense"


def test_skl_legal_actions_offer_the_rulesets_own_actions() -> None:
    """The decision lists reserve declarations, feints and spells (for a person or a web page to pick from)."""
    enc = duel(sheet("a", skills={"sorcery": 2}, attacks=[{"weapon": "longsword"}, {"weapon": "ray-of-frost"}]),
               sheet("b"))
    options = enc.decision().options  # type: ignore[union-attr]
    assert Reserve(0) in options and Reserve(1) in options and Feint("b") in options
    assert CastSpell("ray-of-frost", "b") in options and Reserve(2) not in options


def test_skl_surprise_round_inherits_pfb_with_no_reserve_for_the_surprised() -> None:
    """rules-diff P4 (inherited): PFB's surprise round, one complex *or* basic action; the surprised hold nothing,
    so they cannot block or dodge in it."""
    enc = encounter([{"id": "a", "side": "x", "stats": fighter("a"), "position": [1, 1]},
                     {"id": "b", "side": "y", "stats": sheet("b", skills={"defense": 9}), "position": [2, 1]}],
                    dice=[15, 3], surprise={"surprised": ["b"]})
    assert enc.state.surprise_round and enc.state.get("b").reactions.get("reserve", 0) == 0
    events = enc.act(Attack("b"))
    assert enc.pending is None and events
    assert "only one complex or basic action" in illegal(enc, Move(to=(1, 3)))
