"""One situation, several rulesets: the same map, the same creatures and the same forced dice resolved
under pathfinder-beginner, off-guard, skill-based (and epic-path: charge distance, critical multiplier,
surprise-round budget), with the text-correct outcomes side by side."""

from __future__ import annotations

from typing import Any

from tests.conftest import make_encounter

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.epic_path.melee import TotalDefense

RULESETS = ("pathfinder-beginner", "off-guard", "skill-based")


def _duel(ruleset: str, dice: list[int], **extra: Any) -> Encounter:
    return make_encounter([
        {"id": "valeros", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "goblin", "side": "goblins", "stats": "goblin", "position": [2, 1]},
    ], dice=dice, ruleset=ruleset, **extra)


def _attack(enc: Encounter, answers: tuple[str, ...] = ()) -> list[ev.Event]:
    events = enc.act(ax.Attack("goblin"))
    for answer in answers:
        assert enc.pending is not None
        events = enc.respond(answer)
    assert enc.pending is None
    return events


def _lines(events: list[ev.Event]) -> str:
    return "\n".join(e.explain() for e in events)


def test_a_surprised_goblin_struck_under_each_ruleset() -> None:
    """d20 7 against a goblin surprised in round 1 (armor 2 + shield 1 + Dex 2).

    - PFB-SURP-09 / PFB-AC-04: flat-footed loses the Dex bonus → AC 13; 12 misses.
    - CMV-SIT-07 / CMV-COND-37: off-guard is −2 AC *and* no Dex → AC 11; 12 hits, 8 damage; damage is
      counted as taken (CMV-INJ-03 bloodied; CMV-INJ-12 death save DC 10 + 8 = 18, d20 5 + Con 1 fails → dying).
    - SKL-DEF-01 / SKL-DMG-01: Passive Defense 10 + Dex = 12 (armor is not in it); d20 7 + sword skill 4 + Str 3
      = 14 hits; damage 1d8 5 + Str 3 − armor rating 1 = 7.
    """
    outcome = {}
    for ruleset in RULESETS:
        enc = _duel(ruleset, [7, 5, 5], surprise={"surprised": ["goblin"]})
        events = _attack(enc)
        attack = next(e for e in events if isinstance(e, ev.AttackResolved))
        damage = sum(e.amount for e in events if isinstance(e, ev.Damaged))
        outcome[ruleset] = (attack.hit, damage, _lines(events))
    hit, damage, text = outcome["pathfinder-beginner"]
    assert not hit and damage == 0 and "vs AC 13 (10 + armor 2 + shield 1)" in text
    hit, damage, text = outcome["off-guard"]
    assert hit and damage == 8 and "vs AC 11 (10 + armor 2 + shield 1 − off-guard 2)" in text
    assert "bloodied" in text and "vs DC 18 — fails" in text and "goblin is dying" in text
    hit, damage, text = outcome["skill-based"]
    assert hit and damage == 7 and "14 = d20 7 + sword skill 4 + Str 3 vs Passive Defense 12 (10 + Dex 2)" in text
    assert "− armor rating 1" in text


def test_a_natural_20_under_each_ruleset() -> None:
    """The dice 20, 8, 6, 5 — a longsword (19–20/×2) against the same goblin, not surprised.

    - PFB-NAT-03 / PFB-CRIT-01..04: a natural 20 hits and threatens; the confirmation 8 + 5 = 13 < AC 15 fails,
      so it is a normal hit: 1d8 (6) + Str 3 = 9.
    - CMV inherits PFB's attack and critical rules: the same normal hit for 9; then its damage-taken model:
      9 > hp 6 → death save DC 19, d20 5 + Con 1 fails → dying (CMV-INJ-12).
    - SKL-ATK-05 / SKL-CRIT-01: the natural 20 counts as 30 and there are no threats; the goblin, which has not
      acted yet, holds its complex action in reserve (SKL-RES-01) and is asked to block or dodge (SKL-DEF-03..05);
      it declines; no confirmation die is rolled, so the 8 is the damage die: 8 + Str 3 − armor rating 1 = 10.
    """
    results = {}
    for ruleset in RULESETS:
        enc = _duel(ruleset, [20, 8, 6, 5])
        answers = ("none",) if ruleset == "skill-based" else ()
        events = _attack(enc, answers)
        attack = next(e for e in events if isinstance(e, ev.AttackResolved))
        damage = sum(e.amount for e in events if isinstance(e, ev.Damaged))
        results[ruleset] = (attack.critical, damage, _lines(events))
    crit, damage, text = results["pathfinder-beginner"]
    assert not crit and damage == 9 and "critical threat; confirmation 13" in text and "not confirmed" in text
    crit, damage, text = results["off-guard"]
    assert not crit and damage == 9 and "not confirmed" in text and "vs DC 19 — fails" in text
    crit, damage, text = results["skill-based"]
    assert not crit and damage == 10 and "natural 20 counts as 30" in text and "critical threat" not in text


# ---------------------------------------------------------------------------------------------------------------
# Epic Path next to the other three: the same situations, and where its answer differs.

ALL_RULESETS = (*RULESETS, "epic-path")


def _charge_from(ruleset: str, goblin_column: int) -> str | None:
    """Valeros (speed 30 ft) charges a goblin on the same row; the engine's verdict (None: legal)."""
    enc = make_encounter([
        {"id": "valeros", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "goblin", "side": "goblins", "stats": "goblin", "position": [goblin_column, 1]},
    ], dice=[15, 5], ruleset=ruleset, width=16)
    return enc.check(ax.Charge("goblin"))


def test_charge_distance_under_each_ruleset() -> None:
    """The goblin 40 ft away (the charge ends 40 ft along, next to it) and 30 ft away.

    - PFB-CHG-02 (and off-guard, which keeps PFB's charge): up to twice the speed — both charges are legal.
    - EP-MOVE-16: at least 10 ft and at most the creature's speed, not double: 30 ft is legal, 40 ft is refused
      naming the rule.
    - skill-based: no charge unless the variant ``skl_charge`` adds it.
    """
    verdicts = {rs: (_charge_from(rs, 8), _charge_from(rs, 10)) for rs in ALL_RULESETS}
    assert verdicts["pathfinder-beginner"] == (None, None)
    assert verdicts["off-guard"] == (None, None)
    near, far = verdicts["epic-path"]
    assert near is None and far is not None and "40 ft is more than 30 ft, its speed (EP-MOVE-16)" in far
    assert all(v is not None and "no charge" in v for v in verdicts["skill-based"])
    # the legal 30-ft charge ends next to the goblin in every ruleset that has one
    for ruleset in ("pathfinder-beginner", "off-guard", "epic-path"):
        enc = make_encounter([
            {"id": "valeros", "side": "heroes", "stats": "fighter", "position": [1, 1]},
            {"id": "goblin", "side": "goblins", "stats": "goblin", "position": [8, 1]},
        ], dice=[1], ruleset=ruleset, width=16)
        enc.act(ax.Charge("goblin"))  # a natural 1: the attack misses, only the distance matters here
        assert enc.state.get("valeros").position[0] == 7, ruleset  # 30 ft along, next to the goblin


def _critical(ruleset: str, dice: list[int]) -> tuple[int, str]:
    """A natural 20 confirmed with a ×3 axe that carries two effects which 'increase' ('double') its multiplier."""
    axe = {"name": "axe", "damage": "1d4", "crit_mult": 3, "skill": "sword",
           "qualities": ["increased-multiplier", "increased-multiplier"]}
    hero = {"name": "hero", "attack_bonus": 1, "abilities": {"str": 17, "dex": 13}, "hp": 12,
            "skills": {"sword": 4, "defense": 2}, "attacks": [{"weapon": axe}], "wielding": "axe"}
    dummy = {"name": "dummy", "hp": 200, "skills": {"club": 1, "defense": 1}, "attacks": [{"weapon": "club"}]}
    enc = make_encounter([{"id": "hero", "side": "heroes", "stats": hero, "position": [1, 1]},
                          {"id": "goblin", "side": "goblins", "stats": dummy, "position": [2, 1]}],
                         dice=dice, ruleset=ruleset)
    events = _attack(enc, ("none",) if ruleset == "skill-based" else ())
    return sum(e.amount for e in events if isinstance(e, ev.Damaged)), _lines(events)


def test_critical_multiplier_under_each_ruleset() -> None:
    """d20 20, confirmation 15, then the damage dice all 1 (1d4 axe, Str +3).

    - PFB-CRIT-12 (off-guard the same): the weapon's ×3 — the Beginner Box has no effect that changes a multiplier,
      so the two 'increases' are not read: 3d4 + 9 = 12.
    - EP-CRIT-12: every effect that increases (even 'doubles') the multiplier adds exactly one step, never
      multiplies: ×3 → ×5 (not ×12): 5d4 + 15 = 20.
    - SKL-ATK-05 / SKL-CRIT-01: a natural 20 counts as 30; there are no threats, confirmations or multipliers
      (a critical attack is a declared trade instead): 1d4 (1) + Str 3 = 4.
    """
    pfb = _critical("pathfinder-beginner", [20, 15, 1, 1, 1])
    assert pfb[0] == 12 and "(×3 critical)" in pfb[1]
    assert _critical("off-guard", [20, 15, 1, 1, 1])[0] == 12
    epic = _critical("epic-path", [20, 15, 1, 1, 1, 1, 1])
    assert epic[0] == 20 and "(×5 critical)" in epic[1]
    skill = _critical("skill-based", [20, 1])
    assert skill[0] == 1 + 3 and "natural 20 counts as 30" in skill[1] and "critical" not in skill[1].split("30")[1]


def test_surprise_round_budget_under_each_ruleset() -> None:
    """Valeros is aware, the goblin 20 ft away surprised; Valeros's surprise-round turn.

    - PFB-SURP-05 (off-guard the same): a standard *or* a move action — the pools offer one of each, spending one
      spends both; a charge (full-round) is refused; there is no Total Defense action.
    - SKL (skill-based): one complex or basic action.
    - EP-SURP-18: a single standard action (the pool has no move action; by the inventory's reading it may be spent
      as a move), no full-round action — EP-SURP-22: except Total Defense, which then costs that standard action —
      and the charge, "the most common tactic" (seed 000 L76, EP-SURP-21), which takes that standard action.
    """
    def surprised(ruleset: str) -> Encounter:
        return make_encounter([
            {"id": "valeros", "side": "heroes", "stats": "fighter", "position": [1, 1]},
            {"id": "goblin", "side": "goblins", "stats": "goblin", "position": [5, 1]},
        ], dice=[15, 5], ruleset=ruleset, width=16, surprise={"surprised": ["goblin"]})

    pools = {}
    for ruleset in ALL_RULESETS:
        enc = surprised(ruleset)
        assert enc.state.surprise_round and enc.state.turn is not None and enc.state.turn.actor == "valeros"
        pools[ruleset] = dict(enc.state.turn.pools)
        charge = enc.check(ax.Charge("goblin"))
        assert (charge is None) is (ruleset == "epic-path"), (ruleset, charge)
        total_defense = enc.check(TotalDefense())
        assert (total_defense is None) is (ruleset == "epic-path"), (ruleset, total_defense)
        enc.act(ax.Move(to=(3, 1)))            # one action spent: nothing else but free actions
        assert enc.check(ax.Move(to=(4, 1))) is not None and enc.check(ax.Attack("goblin")) is not None
    assert pools["pathfinder-beginner"]["standard"] == pools["pathfinder-beginner"]["move"] == 1
    assert pools["epic-path"]["standard"] == 1 and "move" not in pools["epic-path"]
    charging = surprised("epic-path")  # the surprise round's single standard action, spent on a charge
    assert "valeros: charge goblin (standard action)" in _lines(charging.act(ax.Charge("goblin")))
    enc = surprised("epic-path")
    events = enc.act(TotalDefense())
    text = _lines(events)
    assert "valeros: total defense (standard action)" in text and "total defense (AC +4)" in text
    assert "the turn ends (EP-DEF-18)" in text
    assert any(isinstance(e, ev.RoundStarted) and not e.surprise for e in events)  # the surprise round is over
