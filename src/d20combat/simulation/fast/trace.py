"""The two logs side by side: the reference engine's events and the kernel's event rows, each turned into
the same plain tuples — every event, every field that records what happened (who, where, which path,
which pools, the attack's die and total, hit, critical, damage, source, health changes, effects,
equipment, the winner, and the texts of notes and end-of-turn reasons), leaving out only the explanation
strings of attacks, damage, initiative and surprise checks, which the kernel does not build."""

from __future__ import annotations

from d20combat.encounter.engine import initial_state
from d20combat.model.statblock import WeaponKind, ability_mod
from d20combat.numbers import Modifier, total
from d20combat.rulesets.off_guard.conditions import parse_condition
from d20combat.rulesets.skill_based.options import FEINTED
from d20combat.rulesets.skill_based.skills import skill_rating, weapon_skill
from d20combat.simulation.fast import kernel_base as k
from d20combat.simulation.fast import kernel_defense as kd
from d20combat.simulation.fast import kernel_fear as kf
from d20combat.simulation.fast import kernel_injury as ki
from d20combat.simulation.fast import kernel_skill_defense as kdf
from d20combat.simulation.fast import kernel_skill_feint as ksf
from d20combat.simulation.fast import kernel_skill_reactions as ksr
from d20combat.simulation.fast.compile import CompiledBattle
from d20combat.simulation.fast.kernel_base import (
    CB_BLOODIED,
    CB_COWERING,
    CB_DEAD,
    CB_DYING,
    CB_OFF_GUARD,
    CB_PANICKED,
    CB_STABLE,
    CB_STAGGERED,
)
from d20combat.simulation.fast.kernel_skill_economy import E_SKL_HOLD, E_SKL_LAPSE, E_SKL_REACTIONS, E_SKL_RELEASE
from d20combat.simulation.fast.kernel_skill_spells import E_SKL_COUNTER
from d20combat.simulation.fast.kernel_skill_tactics import E_SKL_BONUS
from d20combat.simulation.fast.layout import (
    A_SKL_CAST,
    A_SKL_FEINT,
    CON_MOD,
    CON_SCORE,
    K_DEATH_CON,
    K_SKL_ECON,
    SHEET_HP,
)
from d20combat.simulation.fast.runner import FastResult
from d20combat.simulation.fast.trace_reference import Entry
from d20combat.simulation.fast.trace_reference import reference_entries as reference_entries

_LABELS = {k.L_STANDARD: "standard", k.L_MOVE: "move", k.L_STD_AS_MOVE: "standard-as-move",
           k.L_FULL: "full-round", k.L_FREE: "free", k.L_NONE: "none"}
_SPEND = {"standard": {"standard": 1}, "move": {"move": 1}, "standard-as-move": {"standard": 1},
          "full-round": {"standard": 1, "move": 1}, "free": {"free": 1}, "none": {}}
_SKL_LABELS = {"standard": "complex", "move": "basic", "standard-as-move": "complex-as-basic",
               "full-round": "complex + basic"}
"""Skill-based's economy pays the core's costs from its complex and basic actions (SKL-ACT-11)."""
_SKL_POOLS = {"standard": "complex", "move": "basic", "free": "free"}
_WHY = {ksr.WHY_LEAVES: "leaves {square}, a threatened square",
        ksr.WHY_FIRES: "fires a ranged weapon in a threatened square (SKL-AOO-14)",
        ksr.WHY_RELOADS: "loads a crossbow in a threatened square (SKL-AOO-17)",
        ksr.WHY_CASTS: "casts a spell in a threatened square (SKL-AOO-15)"}
"""Why an attack of opportunity was offered (``SkillAttacksOfOpportunity.provoking_act``'s reasons)."""
_MODES = {k.MODE_MOVE: "move", k.MODE_STEP: "step", k.MODE_CHARGE: "charge"}
_HEALTH = {k.H_OK: "ok", k.H_DISABLED: "disabled", k.H_DYING: "dying", k.H_DEAD: "dead", k.H_STABLE_REASON: "stable"}


def _health_note(cid: str, now: int, con_score: int) -> str:
    texts = {
        k.H_DISABLED: "is disabled at 0 hp (PFB-HP-01)",
        k.H_DYING: "falls unconscious and is dying (PFB-HP-02)",
        k.H_DEAD: f"is dead (hp ≤ −{con_score}, PFB-HP-03)",
        k.H_OK: "is back on its feet",
    }
    return f"{cid} {texts[now]}"


_CMV_CANNOT = {k.H_CMV_DEAD: "dead (CMV-INJ-17)", k.H_CMV_DYING: "dying: unconscious and helpless (CMV-INJ-10)",
               k.H_CMV_STABLE: "stable: unconscious and helpless (CMV-INJ-14)"}
_CONDITIONS = {CB_BLOODIED: "bloodied", CB_STAGGERED: "staggered", CB_DYING: "dying", CB_STABLE: "stable",
               CB_DEAD: "dead", CB_OFF_GUARD: "off-guard"}
_REASONS = {
    ki.RC_DYING: "damage past hp and a failed death save: unconscious and helpless (CMV-INJ-12)",
    ki.RC_STABLE_DYING_SAVE: "passed its dying death save (CMV-INJ-16)",
    ki.RC_STABLE_PASSED: "passed its death save (cmv_death_save_pass = stable, CMV-INJ-13)",
    ki.RC_NONE: "",
    ki.RC_DEAD_START: "failed its dying death save (CMV-INJ-11)",
    ki.RC_DEAD_WHILE_DYING: "failed a death save while dying (CMV-INJ-15)",
    ki.RC_DEAD_WHILE_STABLE: "failed a death save while stable (CMV-INJ-15)",
    ki.RC_SLAIN: "slain by a coup de grace (CMV-CDG-06)",
    ki.RC_SURVIVES_CDG: "survives the coup de grace (CMV-CDG-09)",
    kd.RC_SURPRISED: "surprised (CMV-COND-40)",
    kd.RC_CHANCE_TO_ACT: "gets a chance to act (CMV-COND-41)",
    kf.RC_CORNERED: "panicked and cornered (CMV-COND-29)",
    kf.RC_NOT_CORNERED: "no longer cornered",
    kf.RC_NOT_PANICKED: "no longer panicked",
    kf.RC_OVERCOMES: "overcomes its fear (CMV-COND-23)",
}
_INJURY_ROWS = (k.E_CONDITION, k.E_SAVE, k.E_HEALED, k.E_SURVIVES, k.E_DYING_GM, k.E_FOUND_ADD, k.E_FOUND_END,
                k.E_FIND_NOTE, k.E_CDG_SURVIVES)
_CDG_DAMAGE = "survived a coup de grace: damage set to hp (CMV-CDG-09)"


def _fear_text(cb: CompiledBattle, cid: str) -> str:
    """The stored text of the creature's starting panic (``stored_conditions`` reads the first in sorted order)."""
    return next(c for c in sorted(cb.battle.placements[cid].conditions) if parse_condition(c)[0] == "panicked")


def _will_save(cb: CompiledBattle, cid: str, face: int, dc: int, ok: int) -> Entry:
    """``ConditionTable.saving_throw(…, "will", DC, "to overcome being panicked (CMV-COND-23)")``'s note
    (``Fear.overcome``): the save's modifiers while panicked, as the creature started."""
    rs = cb.battle.ruleset
    st = initial_state(cb.battle).get(cid)
    t = total(face, rs.saves.save_modifiers(cb.battle.creatures[cid], st, "will"), base_label="d20",
              stacking=rs.stacking)
    nat = " (natural 20)" if face == 20 else " (natural 1)" if face == 1 else ""
    return ("note", f"{cid} Will save (to overcome being panicked (CMV-COND-23)): {t.explain()} vs DC {dc}{nat} — "
                    f"{'succeeds' if ok else 'fails'}")


def _injury_entry(cb: CompiledBattle, code: int, a: int, b: int, c: int, d: int, e: int, f: int,
                  g: int = 0) -> Entry:
    """Off-guard's injury rows (kernel_injury) as the reference's events, in its words (DamageTaken)."""
    cid = cb.ids[a]
    if code == k.E_CONDITION:
        name = ("cowering:cornered" if b == CB_COWERING else _fear_text(cb, cid) if b == CB_PANICKED
                else _CONDITIONS[b])
        if d == ki.RC_SYNC_ON:
            reason = (f"damage {e} ≥ half of hp {f} (CMV-INJ-03)" if name == "bloodied" else
                      f"damage {e} ≥ hp {f}: one minor or major action, half speed (CMV-INJ-09)")
        else:
            reason = f"damage {e}" if d == ki.RC_SYNC_OFF else _REASONS[d]
        return ("condition", cid, name, bool(c), reason)
    if code == k.E_SAVE:
        why = {ki.W_START: "dying, at the start of its turn (CMV-INJ-11)",
               ki.W_WHILE_DYING: f"{e} damage while dying (CMV-INJ-15)",
               ki.W_WHILE_STABLE: f"{e} damage while stable (CMV-INJ-15)",
               ki.W_PAST_HP: f"damage {e} > hp {int(cb.cs[a, SHEET_HP])} (CMV-INJ-12)",
               ki.W_CDG: f"coup de grace, DC 10 + {e} damage (CMV-CDG-07)"}[d]
        con = int(cb.cs[a, CON_MOD]) if cb.kn[K_DEATH_CON] else 0
        mods = [Modifier(con, "Con")] if con else []
        if g:  # a panicked creature is shaken (CMV-COND-24, cmv_shaken_death_saves)
            mods.append(Modifier(g, "shaken"))
        t = total(b, mods, base_label="d20", stacking=cb.battle.ruleset.stacking)
        nat = " (natural 20)" if b == 20 else " (natural 1)" if b == 1 else ""
        return ("note", f"{cid} death save ({why}): {t.explain()} vs DC {c}{nat} — {'succeeds' if f else 'fails'}")
    if code == k.E_HEALED:
        why = _CDG_DAMAGE if c == ki.HEAL_CDG else "death save passed: damage set to hp (CMV-INJ-13)"
        return ("healed", cid, b, why)
    if code in (k.E_FOUND_ADD, k.E_FOUND_END):
        name = f"found {cb.ids[b]} at ({c},{d})"
        return ("effect_added", cid, name, cid, e, 0, 0) if code == k.E_FOUND_ADD else ("effect_ended", cid, name)
    if code == k.E_FIND_NOTE:
        return ("note", f"{cid} gropes about ({c},{d}) to find {cb.ids[b]} for a coup de grace (a full-round action, "
                        f"CMV-CDG-11)")
    if code == k.E_CDG_SURVIVES:
        kept = "" if not c else f" — still {'dying' if c == 1 else 'stable'} (cmv_cdg_survivor_keeps_state)"
        return ("note", f"{cid} survives the coup de grace: staggered, damage {b} = hp (CMV-CDG-08/09){kept}")
    if code == k.E_SURVIVES:
        return ("note", f"{cid} survives, staggered: damage {b} = hp (CMV-INJ-13)")
    return ("note", f"{cid} is dying; the GM decides whether it slips away (cmv_dying = gm)")


_CHOICES = {kdf.CHOICE_BLOCK: "block", kdf.CHOICE_BLOCK_OFF: "block-off-hand", kdf.CHOICE_DODGE: "dodge"}


def _skill_entries(cb: CompiledBattle, reactions: list[dict[str, int]], wielding: list[str | None],
                   row: tuple[int, ...]) -> list[Entry]:
    """Skill-based's rows (kernel_skill_economy, kernel_skill_defense) as the reference's events, keeping each
    creature's reactions as the reference's state holds them (``reactions``): the round's reserve and attacks of
    opportunity (ComplexBasicEconomy.start_of_round: a ranged weapon's block count is kept), a reserve kept at the
    end of a turn (hold), or a block or dodge paid from it (BlockAndDodge._spend and _ranged_block)."""
    code, a, b, c, d, e, f = row[:7]
    cid = cb.ids[a]
    if code == E_SKL_REACTIONS:
        kept = {key: n for key, n in reactions[a].items() if key.startswith("blocks:")}
        reactions[a] = {**kept, "reserve": b, **({"aoo": c} if c or d else {}), **({"offhand": e} if e else {})}
        return [("reactions_set", cid, tuple(sorted(reactions[a].items())))]
    if code == E_SKL_RELEASE:  # ComplexBasicEconomy.release
        reactions[a] = {**reactions[a], "reserve": 0, "offhand": 0}
        return [("reactions_set", cid, tuple(sorted(reactions[a].items())))]
    if code == E_SKL_LAPSE:  # ComplexBasicEconomy.lapse: every held pool present goes to 0
        held = [key for key in reactions[a] if key.startswith("reserve") or key == "offhand"]
        reactions[a] = {**reactions[a], **dict.fromkeys(held, 0)}
        return [("reactions_set", cid, tuple(sorted(reactions[a].items()))),
                ("note", f"{cid}'s unspent reserve ({b}) lapses (SKL-RES-06)")]
    if code == E_SKL_HOLD:  # d: declared (Reserve, SKL-RES-02), else kept at the end of the turn
        reactions[a] = {**reactions[a], "reserve": b, "offhand": e}
        declared = [("budget", cid, f"reserve {b}", "none", (("complex", b), ("declare", 1), ("offhand", e)))]
        extra = " and the off-hand bonus action" if e else ""
        return [*(declared if d else []), ("reactions_set", cid, tuple(sorted(reactions[a].items()))),
                ("note", f"{cid} {'declares' if d else 'keeps'} {b} complex action(s){extra} held in reserve for "
                         f"block, dodge or counterspell until the end of the round (SKL-RES-02/03)")]
    if code in (ksf.E_SKL_FEINT, ksf.E_SKL_OPEN, ksf.E_SKL_OPEN_END):
        return _feint_entries(cb, row)
    if code == E_SKL_COUNTER:  # Counterspelling.counterspell_window: the reserve spent, the contest
        reactions[a] = {**reactions[a], "reserve": reactions[a].get("reserve", 0) - 1}
        caster = cb.ids[b]
        who = cb.battle.creatures
        spell = who[caster].attacks[c]
        skill = weapon_skill(spell.weapon)
        mine = total(d, [Modifier(skill_rating(who[caster], skill), f"{skill} skill")], base_label="d20")
        theirs = total(e, [Modifier(skill_rating(who[cid], skill), f"{skill} skill")], base_label="d20")
        verdict = (f"countered: {spell.name} fizzles out without effect (SKL-CSPL-05)" if f
                   else "the spell goes off" + (" (a tie is not a win, SKL-CSPL-05)" if mine.value == theirs.value
                                               else ""))
        return [("reaction_spent", cid, "reserve", f"counterspell against {caster}'s {spell.name}"),
                ("note", f"{cid} counters with {skill} {theirs.explain()} vs {caster}'s {mine.explain()}: {verdict}")]
    choice = _CHOICES[c]
    pool = "offhand" if row[7] else "reserve"  # BlockAndDodge.pool_for: the off hand's action first
    reactions[a] = {**reactions[a], pool: reactions[a].get(pool, 0) - 1}
    out: list[Entry] = [("reaction_spent", cid, pool, f"{choice} against {cb.ids[b]}'s attack ({pool})")]
    name = wielding[a]
    option = cb.battle.creatures[cid].attack(name) if choice == "block" and name is not None else None
    if option is not None and option.is_ranged and option.kind is not WeaponKind.SPELL:
        key = f"blocks:{name}"
        count = reactions[a].get(key, 0) + 1
        reactions[a] = {**reactions[a], key: count}
        out += [("reactions_set", cid, tuple(sorted(reactions[a].items()))),
                ("note", f"{cid} has blocked with its {name} {count} time(s); ranged weapons misused so soon break "
                         f"(SKL-RNG-03)")]
    return [*out, ("defense", cid, d, e, bool(f))]


def _feint_entries(cb: CompiledBattle, row: tuple[int, ...]) -> list[Entry]:
    """Skill-based's feint rows (kernel_skill_feint) as the reference's events (Feinting.feint and lapse,
    BlockAndDodge.attack_rolled)."""
    code, a, b, c, d, e, f = row[:7]
    cid, other = cb.ids[a], cb.ids[b]
    if code == ksf.E_SKL_OPEN:
        return [("effect_added", cid, FEINTED + other, "", c, 0, 0)]
    if code == ksf.E_SKL_OPEN_END:
        out: list[Entry] = [("effect_ended", cid, FEINTED + other)]
        if c == ksf.OPEN_USED:
            out.append(("note", f"{cid} could not block or dodge: {other}'s feint (SKL-FEINT-05)"))
        elif c == ksf.OPEN_LAPSED:
            out.append(("note", f"the opening {cid} gave by being {FEINTED + other} lapses unused (SKL-FEINT-05)"))
        return out
    creature, target = cb.battle.creatures[cid], cb.battle.creatures[other]
    skill = weapon_skill(creature.attacks[f].weapon)
    mine = total(c, [Modifier(skill_rating(creature, skill), f"{skill} skill"),
                     Modifier(ability_mod(creature.sheet.abilities.int), "Int")], base_label="d20")
    theirs = total(d, [Modifier(skill_rating(target, "defense"), "Defense skill"),
                       Modifier(ability_mod(target.sheet.abilities.wis), "Wis")], base_label="d20")
    outcome = ("succeeds: it cannot block or dodge " + cid + "'s next attack (SKL-FEINT-05)" if e
               else "fails" + (" (a tie goes to the defender, SKL-FEINT-04)" if mine.value == theirs.value else ""))
    return [("note", f"{cid} feints {other}: {mine.explain()} vs {theirs.explain()} — {outcome}")]


def fast_entries(cb: CompiledBattle, result: FastResult) -> list[Entry]:
    """The kernel's rows (and the Python set-up) as the same tuples."""
    battle = cb.battle
    ids = cb.ids
    names = cb.option_names
    setup = result.setup
    out: list[Entry] = [("surprise", tuple(setup.surprised))]
    out += [("initiative", cid, value) for cid, value in setup.initiative]
    out.append(("order", tuple(setup.order)))
    state0 = {cid: battle.placements[cid] for cid in ids}
    wielding: list[str | None] = [state0[cid].wielding for cid in ids]
    shield = [state0[cid].shield_state for cid in ids]
    loaded = [{names[i][o] for o in range(len(names[i])) if cb.loaded0[i, o]} for i in range(len(ids))]
    rows = result.events
    skill = bool(cb.kn[K_SKL_ECON])
    reactions: list[dict[str, int]] = [{} for _ in ids]
    j = 0
    while j < len(rows):
        code, a, b, c, d, _e, _f, _g = (int(x) for x in rows[j])
        j += 1
        if code == k.E_ROUND:
            out.append(("round", a, bool(b)))
        elif code == k.E_TURN_START:
            if skill:  # ComplexBasicEconomy.turn_pools
                off = (("offhand", _f),) if _f else ()  # the two-weapon bonus action held (SKL-TWF-01)
                out.append(("turn", ids[a], b, (("basic", d), ("complex", c), ("declare", 1), ("free", _e), *off,
                                                ("twf_switch", 1))))
            else:
                out.append(("turn", ids[a], b, (("free", _e), ("move", d), ("standard", c))))
        elif code == k.E_TURN_END:
            reason = {k.R_NONE: "", k.R_CANNOT: "can no longer act",
                      k.R_SURPRISED: "surprised: no actions in the surprise round",
                      k.R_COWERING: "cowering: takes no actions (CMV-COND-31)"}.get(b)
            out.append(("turn_ended", ids[a], reason if reason is not None else _HEALTH.get(c) or _CMV_CANNOT[c]))
        elif code == k.E_BUDGET:
            action = {k.A_ATTACK: f"attack {ids[c] if b == k.A_ATTACK else ''}", k.A_MOVE: "move",
                      k.A_CHARGE: f"charge {ids[c]}" if b == k.A_CHARGE else "", k.A_STEP: "5-foot step",
                      k.A_DRAW: f"draw {names[a][c]}" if b == k.A_DRAW else "",
                      k.A_RELOAD: f"reload {names[a][c]}" if b == k.A_RELOAD else "",
                      k.A_CDG: f"coup de grace {ids[c]}", k.A_FIND: f"find {ids[c]}",
                      A_SKL_FEINT: f"feint {ids[c]}" if b == A_SKL_FEINT else "",
                      A_SKL_CAST: f"cast {names[a][c]}" if b == A_SKL_CAST else ""}[b]
            label = _LABELS[d]
            spent = _SPEND[label]
            if skill:
                label, spent = _SKL_LABELS.get(label, label), {_SKL_POOLS[p]: n for p, n in spent.items()}
            out.append(("budget", ids[a], action, label, tuple(sorted(spent.items()))))
        elif code == k.E_MOVED:
            path = tuple((int(rows[j + i][1]), int(rows[j + i][2])) for i in range(_e))
            j += _e
            out.append(("moved", ids[a], path, c, d, _MODES[b]))
        elif code == k.E_ATTACK:
            rolled = (_f, _g) if _f else (None, None)  # no roll: the concealment d% missed first
            out.append(("attack", ids[a], ids[b], names[a][c], bool(d), bool(_e), *rolled))
        elif code == k.E_DAMAGED:
            source = ids[c] if c >= 0 else {k.SRC_BLEEDING: "bleeding", k.SRC_STRENUOUS: "strenuous",
                                            k.SRC_CDG: _CDG_DAMAGE}[c]
            out.append(("damaged", ids[a], b, source))
        elif code == k.E_NOTE:
            out.append(("note", _health_note(ids[a], b, int(cb.cs[a, CON_SCORE]))))
        elif code == k.E_STABLE:
            out.append(("stabilized", ids[a]))
        elif code == k.E_EFFECT_ADD:
            out.append(("effect_added", ids[a], "charging", ids[a], b, c, 0))
        elif code == k.E_EFFECT_END:
            out.append(("effect_ended", ids[a], "charging"))
        elif code == k.E_EQUIP:
            option = names[a][d]
            if c == k.NOTE_FIRES:
                loaded[a].discard(option)
                note = f"fires {option}"
            elif c == k.NOTE_DRAWS:
                wielding[a] = option
                note = f"draws {option}"
            else:
                loaded[a].add(option)
                note = f"reloads {option}"
            out.append(("equipment", ids[a], wielding[a], shield[a], tuple(sorted(loaded[a])), note))
        elif code == E_SKL_BONUS:  # TwoWeapons.bonus_attack's BudgetSpent
            out.append(("budget", ids[a], f"off-hand attack {ids[b]} ({names[a][c]})", "bonus complex",
                        (("offhand", 1),)))
        elif code in (E_SKL_REACTIONS, E_SKL_HOLD, E_SKL_RELEASE, E_SKL_LAPSE, kdf.E_SKL_SPENT, ksf.E_SKL_FEINT,
                      ksf.E_SKL_OPEN, ksf.E_SKL_OPEN_END, E_SKL_COUNTER):
            out += _skill_entries(cb, reactions, wielding, (code, a, b, c, d, _e, _f, _g))
        elif code == k.E_REACTIONS_SET:
            out.append(("reactions_set", ids[a], ((battle.ruleset.reactions.pool, b),)))
        elif code == k.E_REACTION_SPENT:
            pool = battle.ruleset.reactions.pool
            out.append(("reaction_spent", ids[a], pool, f"attack of opportunity against {ids[b]} ({_WHY[_e]})"
                        .replace("{square}", f"({c}, {d})")))
            if skill:  # the reference's state: the pool spent (the economy's next ReactionsSet shows it)
                reactions[a] = {**reactions[a], pool: reactions[a].get(pool, 0) - 1}
        elif code in _INJURY_ROWS:
            out.append(_injury_entry(cb, code, a, b, c, d, _e, _f, _g))
        elif code == k.E_FEAR_SAVE:
            out.append(_will_save(cb, ids[a], b, c, d))
        elif code == k.E_POOLS:
            out.append(("pools", ids[a], (("free", d), ("move", c), ("standard", b))))
        elif code == k.E_END:
            if b:
                reason = f"no side won within {battle.max_rounds} rounds"
                out.append(("ended", None, reason))
            else:
                winner = cb.sides[a] if a >= 0 else None
                reason = (f"{winner} win — every foe is down, fled or surrendered" if winner
                          else "no side stands")
                out.append(("ended", winner, reason))
        else:
            raise ValueError(f"unknown kernel event code {code} at row {j - 1}")
    return out
