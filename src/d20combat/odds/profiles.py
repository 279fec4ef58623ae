"""Attack profiles for the exact odds: from plain numbers (``+8 vs AC 18, 1d8+5, 19-20/x2``) or from an encounter
(the same plan, defense, cover, concealment and ruleset policies the engine rolls with)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from d20combat.battlefield.cover import CoverDegree
from d20combat.dice.expression import DiceExpr, DiceSyntaxError, parse_dice
from d20combat.encounter.engine import Encounter, IllegalAction, Tx
from d20combat.encounter.state import EncounterState
from d20combat.model.creature import AttackOption
from d20combat.model.statblock import Weapon, WeaponKind
from d20combat.numbers import total
from d20combat.odds.attack import FACES, AttackProfile, OddsError, Policies, _crit_text
from d20combat.rules.damage import DamageDistribution
from d20combat.rulesets.base import Ruleset
from d20combat.rulesets.components import NoActiveDefense

_CRIT = re.compile(r"^\s*(?:(\d+)(?:\s*-\s*20)?)?\s*(?:/?\s*[x×*]\s*(\d+))?\s*$", re.IGNORECASE)


def parse_crit(text: str) -> tuple[int, int]:
    """``"19-20/x2"`` → (19, 2); ``"20/x3"``, ``"18-20"``, ``"x3"`` work too (defaults 20 and ×2)."""
    m = _CRIT.match(text)
    if not m or not text.strip() or (m.group(1) is None and m.group(2) is None):
        raise OddsError(f"crit {text!r}: expected a threat range and multiplier like 19-20/x2")
    threat = int(m.group(1)) if m.group(1) else 20
    mult = int(m.group(2)) if m.group(2) else 2
    if not 2 <= threat <= 20:
        raise OddsError(f"crit {text!r}: the threat range must start between 2 and 20")
    if not 2 <= mult <= 6:
        raise OddsError(f"crit {text!r}: the multiplier must be ×2 to ×6")
    return threat, mult


def parse_iteratives(text: str) -> tuple[int, ...]:
    """``"+8/+3"`` → (8, 3): the attack bonus of each attack of a full attack."""
    try:
        bonuses = tuple(int(part) for part in text.split("/"))
    except ValueError:
        raise OddsError(f"iteratives {text!r}: expected attack bonuses separated by '/', like +8/+3") from None
    if not bonuses:
        raise OddsError(f"iteratives {text!r}: no attack bonus given")
    return bonuses


def _dice(text: str | DiceExpr, what: str) -> DiceExpr:
    if isinstance(text, DiceExpr):
        return text
    try:
        expr = parse_dice(text)
    except DiceSyntaxError as exc:
        raise OddsError(f"{what}: {exc}") from None
    if expr.count and expr.sides < 1:
        raise OddsError(f"{what}: {text!r} has no die size")
    return expr


# ---------------------------------------------------------------------------------- building profiles
def profile_from_numbers(
    bonus: int,
    ac: int,
    damage: str | DiceExpr,
    *,
    crit: str | tuple[int, int] = "20/x2",
    concealment: int = 0,
    once: Sequence[str | DiceExpr] = (),
    ruleset: Ruleset | None = None,
    spell: bool = False,
    minimum_damage: int | None = None,
    mitigate: Callable[[int], int] | None = None,
) -> AttackProfile:
    """A profile from raw numbers (the CLI's flags). The ruleset (default: the core rules, i.e. PFB)
    supplies the policies; the attack is a stand-in weapon with the given damage and critical —
    a ``spell`` gets the ruleset's spell critical instead (PFB-CRIT-16: 20/×2)."""
    expr = _dice(damage, "damage")
    threat_min, mult = parse_crit(crit) if isinstance(crit, str) else crit
    extra = tuple(_dice(e, "extra damage") for e in once)
    if ruleset is None:
        from d20combat.rulesets import get_ruleset

        ruleset = get_ruleset("pathfinder-beginner")
    weapon = Weapon.model_validate({
        "name": "spell" if spell else "weapon", "damage": str(expr),
        "kind": WeaponKind.SPELL if spell else WeaponKind.MELEE, "threat_min": threat_min,
        "crit_mult": max(mult, 2), "range_increment_ft": 5 if spell else 0})
    option = AttackOption(weapon.name, weapon, expr, None, 0, False)
    threat_min, mult = ruleset.criticals.crit_profile(option) if spell else (threat_min, mult)
    policies = Policies.from_ruleset(ruleset, option, mitigate=mitigate)
    if minimum_damage is not None:
        policies = Policies(policies.natural, policies.effective_face, policies.threatens, policies.mitigate,
                            policies.concealment_before_roll, minimum_damage)
    when = "before the roll" if policies.concealment_before_roll else "after a hit"
    details = (f"attack {bonus:+d} vs {ruleset.defense.name} {ac} ({ruleset.title} policies)",
               _damage_line(expr, extra, threat_min, mult, policies.minimum_damage),
               *([f"concealment {concealment} % {when}"] if concealment else []))
    return AttackProfile(bonus, ac, expr, threat_min, mult, concealment, extra, policies,
                         label=f"{bonus:+d} vs {ruleset.defense.name} {ac}, {expr}", details=details)


def _damage_line(damage: DiceExpr, once: tuple[DiceExpr, ...], threat_min: int, mult: int, minimum: int) -> str:
    extra = "".join(f" + {e} once" for e in once)
    return f"damage {damage}{extra}, critical {_crit_text(threat_min, mult)}, minimum {minimum}"


def combatant_id(enc: Encounter, who: str, role: str = "combatant") -> str:
    """The id of ``who`` (an id, or a unique display name, case-insensitive); OddsError otherwise."""
    creatures = {cid: enc.creature(cid) for cid in enc.state.combatants}
    if who in creatures:
        return who
    by_name = [cid for cid, c in creatures.items() if c.name.lower() == who.lower()]
    if len(by_name) == 1:
        return by_name[0]
    raise OddsError(f"{role} {who!r}: no such combatant; known ids: {', '.join(creatures)}")


def profile_from_encounter(enc: Encounter, attacker: str, target: str, attack: str | None = None,
                           state: EncounterState | None = None) -> AttackProfile:
    """The profile of ``attacker`` attacking ``target`` now, asked of the engine exactly as an
    attack action would be: :meth:`Encounter.plan_attack` (legality, modifiers, cover, concealment),
    :meth:`Encounter.target_ac` and the ruleset's policies. Raises :class:`OddsError` with the
    engine's reason when the attack is illegal."""
    s = state or enc.state
    rs = enc.ruleset
    a_id, t_id = combatant_id(enc, attacker, "attacker"), combatant_id(enc, target, "target")
    try:
        plan = enc.plan_attack(a_id, t_id, attack, state=s)
    except IllegalAction as exc:
        raise OddsError(f"{a_id} cannot attack {t_id}: {exc}") from None
    view = Tx(s, enc)
    ac, ac_text = enc.target_ac(plan, s, view)
    roll = total(0, plan.modifiers, stacking=rs.stacking)
    bonus = roll.value
    a, t, ts = enc.creature(a_id), enc.creature(t_id), s.get(t_id)
    option = plan.option
    threat_min, mult = rs.criticals.crit_profile(option)
    static = option.dice.bonus + rs.damage.damage_strength(a, option, state=s.get(a_id)) + option.weapon.enhancement
    damage = DiceExpr(option.dice.count, option.dice.sides, static)
    once: list[DiceExpr] = []
    if option.energy is not None:
        once.append(option.energy)
    precision = rs.damage.precision_dice(a, rs.injury.is_helpless(t, ts))
    if precision:
        once.append(DiceExpr(precision, 6))

    def mitigate(amount: int) -> int:
        return rs.damage.mitigate(t, ts, amount)[0]

    strength = rs.damage.damage_strength(a, option, state=s.get(a_id))
    own = [rs.damage.distribution(view, plan, a, critical=c, multiplier=mult, precision_d6=precision,
                                  strength=strength) for c in (False, True)]
    distributions = (own[0], own[1]) if own[0] is not None and own[1] is not None else None

    policies = Policies.from_ruleset(rs, option, mitigate=mitigate)
    concealment = 100 if plan.guessed_wrong else plan.concealment
    notes: list[str] = []
    best = max(rs.attack.effective_face(f) for f in FACES) + bonus
    if rs.active_defense.active_defense_options(view, plan, best) or \
            type(rs.active_defense).before_attack_roll is not NoActiveDefense.before_attack_roll:
        notes.append("the defender's active defenses are not modelled (assumed declined)")
    parts = " ".join(f"{'+' if m.value > 0 else '−'} {m.source} {abs(m.value)}" for m in roll.parts if m.value)
    details = [f"attack {bonus:+d} ({parts.removeprefix('+ ') or 'no modifiers'})",
               f"{rs.defense.name} {ac} ({ac_text})",
               _damage_line(damage, tuple(once), threat_min, mult, rs.damage.minimum_damage)]
    if concealment:
        when = "before the roll" if rs.concealment.before_roll else "after a hit"
        details.append(f"concealment {concealment} % {when} ({plan.concealment_reason})")
    if plan.cover.degree is not CoverDegree.NONE:
        details.append(f"cover: {plan.cover.reason}")
    if distributions is not None:
        details.append(f"damage as {rs.title} deals it: a hit {_dist_text(distributions[0])}, a critical "
                       f"{_dist_text(distributions[1])}")
    return AttackProfile(bonus, ac, damage, threat_min, mult, concealment, tuple(once), policies,
                         label=f"{a_id} → {t_id} with {option.name} ({rs.id})", details=tuple(details),
                         notes=tuple(notes), distributions=distributions)


def _dist_text(dist: DamageDistribution) -> str:
    """``"2d8 + 9"``; a die whose outcomes are not 1..N reads ``"d10 (2–10)"``."""
    sizes: dict[str, int] = {}
    for outcomes in dist.dice:
        n = len(outcomes)
        name = f"d{n}" if tuple(sorted(outcomes)) == tuple(range(1, n + 1)) else \
            f"d{n} ({min(outcomes)}–{max(outcomes)})"
        sizes[name] = sizes.get(name, 0) + 1
    parts = [f"{count}{name}" for name, count in sizes.items()]
    if dist.constant or not parts:
        parts.append(str(dist.constant))
    return " + ".join(parts)
