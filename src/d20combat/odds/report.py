"""The ``d20combat odds`` command's work: read the two input forms, compute, and lay out rich tables.

Kept out of ``cli.py`` so the command there only maps options and errors. Every bad input raises
:class:`OddsError` (or :class:`ScenarioError`) with a one-line message.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from d20combat.dice import SeededDice
from d20combat.encounter.engine import Encounter
from d20combat.odds.attack import (
    AttackOdds,
    AttackProfile,
    KillOdds,
    OddsError,
    RoundOdds,
    attack_odds,
    full_attack,
    iteratives,
    kill_odds,
)
from d20combat.odds.profiles import combatant_id, parse_iteratives, profile_from_encounter, profile_from_numbers

MAX_ROUNDS = 100


@dataclass(frozen=True, slots=True)
class OddsReport:
    title: str
    profile: AttackProfile
    single: AttackOdds
    round: RoundOdds
    kill: KillOdds | None


def pct(p: Fraction | float) -> str:
    return f"{float(p) * 100:.2f}%"


def from_flags(*, bonus: int | None, ac: int | None, damage: str | None, crit: str | None,
               iterative_text: str | None, concealment: int | None, extra: list[str] | None, spell: bool,
               min_damage: int | None, ruleset_id: str | None) -> tuple[AttackProfile, tuple[AttackProfile, ...]]:
    missing = [name for name, value in (("--bonus", bonus), ("--ac", ac), ("--damage", damage)) if value is None]
    if missing:
        raise OddsError(f"missing {', '.join(missing)}: give --bonus, --ac and --damage, "
                        f"or a SCENARIO with --attacker and --target")
    assert bonus is not None and ac is not None and damage is not None
    ruleset = None
    if ruleset_id is not None:
        from d20combat.rulesets import get_ruleset

        try:
            ruleset = get_ruleset(ruleset_id)
        except ValueError as exc:
            raise OddsError(str(exc)) from None
    profile = profile_from_numbers(bonus, ac, damage, crit=crit or "20/x2", concealment=concealment or 0,
                                   once=extra or (), ruleset=ruleset, spell=spell, minimum_damage=min_damage)
    bonuses = parse_iteratives(iterative_text) if iterative_text else (bonus,)
    return profile, iteratives(profile, bonuses)


def from_scenario(path: Path, attacker: str | None, target: str | None, attack: str | None,
                  ruleset_id: str | None) -> tuple[AttackProfile, int]:
    """(profile, the target's current hp). Raises ScenarioError for a bad file, OddsError otherwise."""
    from d20combat.scenario import load_battle

    missing = [name for name, value in (("--attacker", attacker), ("--target", target)) if not value]
    if missing:
        raise OddsError(f"missing {' and '.join(missing)}: a SCENARIO needs --attacker ID and --target ID")
    assert attacker is not None and target is not None
    enc = Encounter(load_battle(path, ruleset_override=ruleset_id), SeededDice(0))
    a_id, t_id = combatant_id(enc, attacker, "attacker"), combatant_id(enc, target, "target")
    return profile_from_encounter(enc, a_id, t_id, attack), enc.state.get(t_id).hp


def compute(title: str, profile: AttackProfile, round_profiles: tuple[AttackProfile, ...], hp: int | None,
            rounds: int) -> OddsReport:
    if not 1 <= rounds <= MAX_ROUNDS:
        raise OddsError(f"--rounds must be 1–{MAX_ROUNDS}, got {rounds}")
    single = attack_odds(profile)
    rnd = full_attack(round_profiles)
    kill = kill_odds(rnd.damage, hp, rounds) if hp is not None else None
    return OddsReport(title, profile, single, rnd, kill)


def render(report: OddsReport) -> list[RenderableType]:
    out: list[RenderableType] = []
    p, s = report.profile, report.single
    head = Text(report.title, style="bold")
    for line in p.details:
        head.append(f"\n  {line}")
    for note in p.notes:
        head.append(f"\n  note: {note}", style="yellow")
    out.append(head)

    t = Table(title="One attack", title_justify="left")
    t.add_column("", style="bold")
    t.add_column("probability", justify="right")
    t.add_column("exact", justify="right")
    for name, value in (("hit", s.p_hit), ("critical threat", s.p_threat), ("critical hit", s.p_crit),
                        ("normal hit", s.p_normal_hit), ("miss", 1 - s.p_hit)):
        t.add_row(name, pct(value), str(value))
    p10, p50, p90 = s.percentiles
    t.add_row("mean damage", f"{float(s.mean):.3f}", str(s.mean))
    t.add_row("damage p10 / p50 / p90", f"{p10} / {p50} / {p90}", "")
    out.append(t)

    d = Table(title="Damage of one attack (misses count 0)", title_justify="left")
    d.add_column("damage", justify="right")
    d.add_column("P(=)", justify="right")
    d.add_column("P(≥)", justify="right")
    d.add_column("")
    probs = dict(zip(s.damage.outcomes(), s.damage.probabilities(), strict=True))
    top = max(probs.values())
    at_least = Fraction(1)
    for outcome, prob in probs.items():
        d.add_row(str(outcome), pct(prob), pct(at_least), "█" * max(1, round(30 * float(prob / top))))
        at_least -= Fraction(prob)
    out.append(d)

    r = report.round
    f = Table(title=f"Damage per round: full attack {'/'.join(f'{a.profile.bonus:+d}' for a in r.attacks)}",
              title_justify="left")
    f.add_column("attack", style="bold")
    f.add_column("hit", justify="right")
    f.add_column("critical", justify="right")
    f.add_column("mean", justify="right")
    f.add_column("p10 / p50 / p90", justify="right")
    for a in r.attacks:
        a10, a50, a90 = a.percentiles
        f.add_row(f"{a.profile.bonus:+d} vs {a.profile.target}", pct(a.p_hit), pct(a.p_crit),
                  f"{float(a.mean):.3f}", f"{a10} / {a50} / {a90}")
    r10, r50, r90 = r.percentiles
    f.add_row("round", pct(1 - Fraction(r.damage.probability(0))) + " any", "", f"{float(r.mean):.3f}",
              f"{r10} / {r50} / {r90}", style="bold")
    out.append(f)

    if report.kill is not None:
        k = report.kill
        kt = Table(title=f"Target of {k.hp} hp brought to 0 hp or below (full attack each round)",
                   title_justify="left")
        kt.add_column("within rounds", justify="right")
        kt.add_column("probability", justify="right")
        for n, prob in enumerate(k.within, 1):
            kt.add_row(str(n), pct(prob))
        out.append(kt)
        if k.expected_rounds is None:
            out.append(Text(f"expected rounds to bring it down: never — {k.note}"))
        else:
            out.append(Text(f"expected rounds to bring it down: {float(k.expected_rounds):.3f} "
                            f"(absorbing Markov chain over remaining hp)"))
    return out
