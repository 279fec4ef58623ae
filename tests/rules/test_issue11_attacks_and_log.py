"""Issue 11, items 4, 7, 9 and 10(d)/(e): where two rules meet in the attack pipeline and in the log.

Forced dice (``ScriptedDice``) in the order the pipeline asks for them: off-guard d20 attack, then the
defender's d% after a hit, then (a threat) the confirmation d20, then damage."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.conftest import make_encounter
from tests.rules.cmv._util import FIGHTER, armored, cmv, resolved, texts
from tests.rules.skl.helpers import encounter as skl_encounter
from tests.rules.skl.helpers import fighter, sheet

from d20combat import render
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import IllegalAction
from d20combat.render import describe_event
from d20combat.rulesets.skill_based import SkillBasedOptions

T15 = armored("target", 5)


def melee(rows: list[str], *, tconds: tuple[str, ...] = (), dice: tuple[int, ...] = (), others=()):
    return cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0]},
                {"id": "t", "side": "f", "stats": T15, "position": [1, 0], "conditions": list(tconds)},
                *others], rows=rows, dice=dice)


# ------------------------------------------------------------------ item 4: a lost hit never threatens

def test_cmv_conc_08_pfb_crit_01_a_natural_20_lost_to_concealment_is_no_threat() -> None:
    """CMV-CONC-08 with PFB-CRIT-01..04: a natural 20 hits the target in fog; the defender's d% 10 ≤ 20 turns the
    hit into a miss. A miss never threatens: no confirmation d20 is rolled, the event is not critical."""
    enc = melee([".f..", "...."], dice=(20, 10))
    events = enc.act(ax.Attack("t"))
    attack = resolved(events)
    assert not attack.hit and not attack.critical
    assert [r.sides for r in enc.dice.rolls] == [20, 100]
    assert "critical threat" not in texts(events)


def test_cmv_conc_14_pfb_crit_01_a_natural_20_into_a_wrong_square_is_no_threat() -> None:
    """CMV-CONC-14 with PFB-CRIT-01: a natural 20 into an empty guessed square is a plain miss, never a threat."""
    enc = melee(["....", "...."], tconds=("invisible",), dice=(20, 90))
    events = enc.act(ax.Attack("t", square=(0, 1)))
    attack = resolved(events)
    assert not attack.hit and not attack.critical
    assert "critical" not in texts(events) and 20 not in [r.sides for r in enc.dice.rolls[1:]]


def test_cmv_cond_08_pfb_crit_01_a_fumbled_spell_with_a_natural_20_is_no_threat() -> None:
    """CMV-COND-08 with PFB-CRIT-01: a deafened caster fumbles its verbal component (d% 5 ≤ 20) and rolls a
    natural 20: the spell fails, and a failed spell does not threaten."""
    caster = {**FIGHTER, "name": "caster", "attacks": [{"weapon": "ray-of-frost"}], "wielding": "ray-of-frost"}
    enc = cmv([{"id": "a", "side": "h", "stats": caster, "position": [0, 0], "conditions": ["deafened"]},
               {"id": "t", "side": "f", "stats": T15, "position": [3, 0]}], dice=(5, 20, 20, 3, 3, 3))
    events = enc.act(ax.Attack("t", attack="ray-of-frost"))
    attack = resolved(events)
    assert not attack.hit and not attack.critical
    assert "critical threat" not in texts(events)


# ------------------------------------------------------------------ item 7: a guessed square leaks nothing

def _guess(square: tuple[int, int], dice: tuple[int, ...], others=()) -> ev.AttackResolved:
    enc = melee(["....", "...."], tconds=("invisible",), dice=dice, others=others)
    return resolved(enc.act(ax.Attack("t", square=square)))


@pytest.mark.parametrize(("square", "dice"), [
    ((0, 1), (18, 90)),     # wrong square, the roll would hit
    ((0, 1), (3,)),         # wrong square, the roll misses
    ((1, 0), (18, 40)),     # the right square, the 50 % miss chance saves the target
    ((1, 0), (3,)),         # the right square, the roll misses its AC
])
def test_pfb_conc_12_cmv_conc_14_a_guessed_attack_that_misses_says_only_miss(square, dice) -> None:
    """PFB-CONC-12, CMV-CONC-14: whatever made a guessed attack miss — an empty square, the roll, the 50 % miss
    chance — the attacker learns only "miss": the same lines, never the real target's AC."""
    attack = _guess(square, dice)
    assert not attack.hit
    assert attack.lines == ["a attacks t with club", "  misses"]


def test_pfb_conc_12_cmv_conc_14_an_occupied_wrong_square_reads_like_an_empty_one() -> None:
    """PFB-CONC-12, CMV-CONC-14: a wrong guess into a square an ally stands in reads exactly like an empty one."""
    ally = {"id": "b", "side": "h", "stats": T15, "position": [0, 1]}
    assert _guess((0, 1), (18, 90), others=[ally]).lines == _guess((0, 1), (18, 90)).lines


def test_pfb_conc_12_a_guessed_square_in_pfb_says_only_miss() -> None:
    """PFB-CONC-12: in PFB (d% before the roll), a right guess whose miss chance fails and a wrong guess read alike."""
    def run(square: tuple[int, int], dice: tuple[int, ...]) -> list[str]:
        enc = make_encounter([{"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0]},
                              {"id": "t", "side": "f", "stats": T15, "position": [1, 0],
                               "conditions": ["invisible"]}], dice=dice)
        return resolved(enc.act(ax.Attack("t", square=square))).lines
    assert run((1, 0), (30,)) == run((0, 1), (90,)) == run((1, 0), (90, 2)) == ["a attacks t with club", "  misses"]


# ------------------------------------------------------------------ item 9: log and view slips

def test_skl_aoo_08_pfb_atk_02_a_reach_weapon_too_close_says_so() -> None:
    """SKL-AOO-08, PFB-ATK-02: a longspear cannot hit an adjacent foe — the refusal says the weapon is too long,
    not that a target 5 ft away is "beyond a reach of 5 ft"."""
    spear = sheet("a", weapon="longspear", skills={"spear": 2})
    enc = skl_encounter([{"id": "a", "side": "x", "stats": spear, "position": [1, 1]},
                         {"id": "b", "side": "y", "stats": sheet("b"), "position": [2, 1]}])
    with pytest.raises(IllegalAction) as exc:
        enc.plan_attack("a", "b")
    text = str(exc.value)
    assert "reach of 5 ft" not in text and "too close" in text and "reach weapon" in text


def test_pfb_hp_02_a_stable_creature_passes_its_turn_as_stable() -> None:
    """PFB-HP-02: a stable creature (at −2 hp) passes its turn; the log says "stable", not "dying"."""
    enc = make_encounter([{"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0], "hp": -2, "starts_down": True},
                          {"id": "b", "side": "h", "stats": FIGHTER, "position": [0, 3]},
                          {"id": "t", "side": "f", "stats": T15, "position": [5, 0]}], dice=[20])
    events = [e for e in enc.log if isinstance(e, ev.TurnEnded) and e.combatant == "a"]
    assert enc.state.get("a").stable and events
    text = describe_event(enc, events[-1])
    assert "stable" in text and "dying" not in text


def _table_js() -> str:
    """The table page's script: table.js and its modules (table-*.js)."""
    static = Path(__file__).parents[2] / "src/d20combat/server/static"
    return "".join(p.read_text(encoding="utf-8") for p in sorted(static.glob("table*.js")))


def test_the_end_banner_names_the_winner_once() -> None:
    """The table's end banner: "heroes win — heroes win — …" repeated the winner; the reason already names it."""
    js = _table_js()
    assert "`: ${st.winner} win` : \"\"}`\n        + `${st.end_reason" not in js


@pytest.mark.parametrize(("text", "label"), [
    ("panicked:valeros:12", "panicked (by valeros, Will DC 12)"),
    ("frightened:ogre:15", "frightened (by ogre, Will DC 15)"),
    ("cowering:cornered", "cowering (cornered)"),
    ("held:18", "held (escape DC 18)"),
    ("concealed:30", "concealed (30%)"),
    ("wound-points:3", "wound points 3"),
    ("off-guard", "off-guard"),
    ("two-weapon fighting", "two-weapon fighting"),
    ("flat_footed", "flat-footed"),
])
def test_condition_chips_have_human_labels(text: str, label: str) -> None:
    """CMV-COND-22..31 and the others: a condition is shown by a label, never its engine syntax."""
    assert render.condition_label(text) == label


def test_condition_labels_reach_the_log_and_the_server_state(tmp_path: Path) -> None:
    """CMV-COND-22..31: the log line and the server's combatant view (a ``labels`` list beside ``conditions``)
    use the label; the chips in ``table.js`` draw the labels."""
    from fastapi.testclient import TestClient

    from d20combat.server.app import create_app
    enc = melee(["....", "...."], tconds=("panicked:a:12",))
    e = ev.ConditionSet("t", "panicked:a:12", False, "overcomes its fear")
    assert "panicked (by a, Will DC 12)" in describe_event(enc, e)
    scenario = {"name": "x", "ruleset": "off-guard", "map": {"width": 6, "height": 4}, "surprise": {"surprised": []},
                "combatants": [{"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0], "initiative": 20},
                               {"id": "t", "side": "f", "stats": T15, "position": [3, 0], "initiative": 5,
                                "conditions": ["panicked:a:12"]}]}
    app = create_app(tmp_path / "t.db")
    with TestClient(app, headers={"Authorization": f"Bearer {app.state.token}"}) as client:
        made = client.post("/api/encounters", json={"scenario": scenario})
        assert made.status_code == 201, made.text
        state = client.get(f"/api/encounters/{made.json()['id']}/state", params={"view": "gm"}).json()
        client.app.state.store.close()  # type: ignore[attr-defined]
    t = next(c for c in state["combatants"] if c["id"] == "t")
    assert t["conditions"] == ["panicked:a:12"] and t["labels"] == ["panicked (by a, Will DC 12)"]
    js = _table_js()
    assert "c.labels" in js


# ------------------------------------------------------------------ item 10(d), 10(e): skill-based readings

def _surprise(variants: dict[str, object] | None):
    archer = sheet("b", weapon="longbow", skills={"bow": 4})
    return skl_encounter([{"id": "a", "side": "x", "stats": sheet("a", skills={"defense": 9}), "position": [1, 1]},
                          {"id": "b", "side": "y", "stats": archer, "position": [6, 1]},
                          {"id": "c", "side": "y", "stats": sheet("c"), "position": [9, 9]}],
                         dice=[15, 3, 3, 3], variants=variants, surprise={"surprised": ["c"]})


@pytest.mark.parametrize(("variants", "offered"), [(None, False), ({"skl_surprise_limit": "turn"}, True)])
def test_skl_res_04_pfb_surp_05_the_surprise_round_limits_actions_per_round(variants, offered) -> None:
    """SKL-RES-04/05 with PFB-SURP-05 (issue 11, 10d): one action in the surprise round is the round's one action
    (``skl_surprise_limit = round``, default): having moved, ``a`` holds nothing and cannot dodge ``b``'s arrow.
    Under ``turn`` the limit is on the turn only and the unspent complex action is held for a dodge."""
    enc = _surprise(variants)
    assert enc.state.surprise_round
    enc.act(ax.Move(to=(1, 2)))
    enc.act(ax.EndTurn())
    assert (enc.state.get("a").reactions.get("reserve", 0) > 0) is offered
    enc.act(ax.Attack("a"))
    assert (enc.pending is not None and enc.pending.prompt.kind == "active_defense") is offered


def test_issue11_10d_10e_skill_based_readings_are_named_options() -> None:
    """Issue 11 10(d), 10(e): the readings are named options; the default is the first value and says why."""
    fields = SkillBasedOptions.model_fields
    assert fields["skl_surprise_limit"].default == "round"
    assert fields["skl_helpless_defense"].default == "full"
    assert "SKL-DEF-01" in (fields["skl_helpless_defense"].description or "")


@pytest.mark.parametrize(("variants", "tn"), [(None, 12), ({"skl_helpless_defense": "pfb"}, 1)])
def test_skl_def_01_pfb_help_02_03_a_dying_target_keeps_its_passive_defense(variants, tn) -> None:
    """SKL-DEF-01 (issue 11, 10e): Passive Defense 10 + Dex is "the TN of every attack roll against it" — a dying
    (helpless) target keeps it (``skl_helpless_defense = full``, default: 12 for Dex +2). Under ``pfb`` PFB-HELP-02/03
    apply: Dex counts as −5 and −4 against melee → 10 − 5 − 4 = 1."""
    enc = skl_encounter([{"id": "a", "side": "x", "stats": fighter("a"), "position": [1, 1]},
                         {"id": "b", "side": "y", "stats": sheet("b", dex=2), "position": [2, 1], "hp": -3,
                          "starts_down": True}],
                        variants=variants)
    plan = enc.plan_attack("a", "b")
    assert enc.target_ac(plan, enc.state)[0] == tn


@pytest.mark.parametrize(("variants", "acts"), [(None, False), ({"skl_surprise_limit": "turn"}, True)])
def test_skl_res_05_pfb_surp_05_a_dodge_in_the_surprise_round_is_its_one_action(variants, acts) -> None:
    """SKL-RES-05 with PFB-SURP-05 (issue 11, 10d): ``a`` dodges ``b``'s arrow before its own turn in the surprise
    round; under ``round`` (default) that dodge was its one action and it cannot move on its turn; under ``turn``
    it still may."""
    archer = sheet("b", weapon="longbow", skills={"bow": 4})
    enc = skl_encounter([{"id": "b", "side": "y", "stats": archer, "position": [6, 1]},
                         {"id": "a", "side": "x", "stats": sheet("a", skills={"defense": 9}), "position": [1, 1]},
                         {"id": "c", "side": "y", "stats": sheet("c"), "position": [9, 9]}],
                        dice=[15, 15, 3], variants=variants, surprise={"surprised": ["c"]})
    enc.act(ax.Attack("a"))
    assert enc.pending is not None
    enc.respond("dodge")
    enc.act(ax.EndTurn())
    assert enc.decision().actor == "a"  # type: ignore[union-attr]
    if acts:
        enc.act(ax.Move(to=(1, 2)))
        assert enc.state.get("a").position == (1, 2)
    else:
        with pytest.raises(IllegalAction):
            enc.act(ax.Move(to=(1, 2)))
