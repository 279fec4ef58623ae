"""Equipment and other actions: draw, sheathe, shields, drop, prone, reload, named activities
(PFB-ITEM, PFB-ACT)."""

from __future__ import annotations

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.core import EncounterCore
from d20combat.encounter.resolution import (
    Cost,
    IllegalAction,
    Tx,
    action_catalogue,
)
from d20combat.encounter.state import EncounterState
from d20combat.model.creature import AttackOption

# ------------------------------------------------------------------ equipment

def _option(enc: EncounterCore, actor: str, name: str | None, state: EncounterState) -> AttackOption:
    creature = enc.creature(actor)
    name = name or state.get(actor).wielding
    if name is None:
        raise IllegalAction(f"{actor} holds no weapon; draw one first (a move action, PFB-ITEM-01)")
    try:
        return creature.attack(name)
    except KeyError as exc:
        raise IllegalAction(str(exc.args[0])) from None


def _change_wielding(enc: EncounterCore, tx: Tx, actor: str, name: str | None, dry: bool) -> None:
    if name is not None:
        _option(enc, actor, name, tx.state)
    if dry:
        return
    cs = tx.state.get(actor)
    note = f"draws {name}" if name else f"puts away {cs.wielding}"
    tx.emit(ev.EquipmentChanged(actor, name, cs.shield_state, sorted(cs.loaded), note))


def _change_shield(enc: EncounterCore, tx: Tx, actor: str, op: str, dry: bool) -> None:
    cs = tx.state.get(actor)
    if not enc.creature(actor).shield_bonus and enc.creature(actor).sheet.shield is None:
        raise IllegalAction(f"{actor} has no shield")
    new = {"strap": "strapped", "remove": "held", "drop": "dropped"}[op]
    if op == "strap" and cs.shield_state == "strapped":
        raise IllegalAction("the shield is already strapped on")
    if cs.shield_state == "dropped":
        raise IllegalAction("the shield was dropped and lies on the ground")
    if op == "remove" and cs.shield_state != "strapped":
        raise IllegalAction("the shield is not strapped on")
    if op == "drop" and cs.shield_state != "held":
        raise IllegalAction("only a shield carried in the hand can be dropped as a free action (PFB-ITEM-12)")
    if dry:
        return
    tx.emit(ev.EquipmentChanged(actor, cs.wielding, new, sorted(cs.loaded), f"shield: {op}"))


def do_draw(enc: EncounterCore, tx: Tx, actor: str, a: ax.Draw, dry: bool) -> None:
    """PFB-ITEM-01: drawing a weapon is a move action."""
    if tx.state.get(actor).wielding == a.attack:
        raise IllegalAction(f"draw: {actor} already holds {a.attack}")
    _option(enc, actor, a.attack, tx.state)
    enc._pay(tx, actor, f"draw {a.attack}", "move", dry)
    _change_wielding(enc, tx, actor, a.attack, dry)


def do_sheathe(enc: EncounterCore, tx: Tx, actor: str, a: ax.Sheathe, dry: bool) -> None:
    """PFB-ITEM-02: putting a weapon away is a move action."""
    if tx.state.get(actor).wielding is None:
        raise IllegalAction("sheathe: nothing in hand")
    enc._pay(tx, actor, "sheathe", "move", dry)
    _change_wielding(enc, tx, actor, None, dry)


def do_shield(enc: EncounterCore, tx: Tx, actor: str, a: ax.ShieldAction, dry: bool) -> None:
    """PFB-ITEM-09/10/12."""
    cost: Cost = "free" if a.op == "drop" else "move"
    _change_shield(enc, tx, actor, a.op, True)
    enc._pay(tx, actor, f"shield {a.op}", cost, dry)
    _change_shield(enc, tx, actor, a.op, dry)


def do_drop_item(enc: EncounterCore, tx: Tx, actor: str, a: ax.DropItem, dry: bool) -> None:
    """PFB-ACT-15: drop a held item (free)."""
    cs = tx.state.get(actor)
    if a.item != cs.wielding:
        raise IllegalAction(f"drop: {actor} is not holding {a.item!r}")
    enc._pay(tx, actor, f"drop {a.item}", "free", dry)
    if not dry:
        tx.emit(ev.EquipmentChanged(actor, None, cs.shield_state, sorted(cs.loaded), f"drops {a.item}"))


def do_drop_prone(enc: EncounterCore, tx: Tx, actor: str, a: ax.DropProne, dry: bool) -> None:
    """PFB-ACT-16: drop prone in your square (free)."""
    if tx.state.get(actor).has("prone"):
        raise IllegalAction("drop prone: already prone")
    enc._pay(tx, actor, "drop prone", "free", dry)
    if not dry:
        tx.emit(ev.ConditionSet(actor, "prone", True, "drops prone"))


def do_stand_up(enc: EncounterCore, tx: Tx, actor: str, a: ax.StandUp, dry: bool) -> None:
    """PFB-ACT-21: standing up is a move action."""
    if not tx.state.get(actor).has("prone"):
        raise IllegalAction("stand up: not prone")
    enc._pay(tx, actor, "stand up", "move", dry)
    if not dry:
        tx.emit(ev.ConditionSet(actor, "prone", False, "stands up"))


def do_reload(enc: EncounterCore, tx: Tx, actor: str, a: ax.Reload, dry: bool) -> None:
    """PFB-ITEM-08: a light crossbow reloads as a move action, a heavy one as a full round."""
    option = _option(enc, actor, a.attack or None, tx.state)
    if option.weapon.reload == "none":
        raise IllegalAction(f"reload: {option.name} needs no reloading (PFB-ITEM-06)")
    cs = tx.state.get(actor)
    if option.name in cs.loaded:
        raise IllegalAction(f"reload: {option.name} is already loaded")
    enc._pay(tx, actor, f"reload {option.name}", "move" if option.weapon.reload == "move" else "full-round",
              dry)
    if not dry:
        tx.emit(ev.EquipmentChanged(actor, cs.wielding, cs.shield_state, sorted(cs.loaded | {option.name}),
                                    f"reloads {option.name}"))


def do_activity(enc: EncounterCore, tx: Tx, actor: str, a: ax.Activity, dry: bool) -> None:
    """PFB-ACT-11/17/20/22..27, PFB-TIME-06..08: the catalogue gives the cost; unknown → standard."""
    if not a.name:
        raise IllegalAction("activity: give a name")
    kind = action_catalogue().get(a.name, "standard")
    if kind == "full-round-activation":
        enc._pay(tx, actor, a.name, "full-round", dry)
        if not dry:
            tx.emit(ev.EffectAdded(actor, f"activating {a.name}", actor, tx.state.round + 1))
        return
    if kind not in ("standard", "move", "full-round", "free"):
        raise IllegalAction(f"activity {a.name}: bad catalogue cost {kind!r}")
    enc._pay(tx, actor, a.name, kind, dry)  # type: ignore[arg-type]
    if not dry and tx.state.turn is not None:
        _strenuous(enc, tx, actor, kind)


def _strenuous(enc: EncounterCore, tx: Tx, actor: str, cost: str) -> None:
    """P14 after a strenuous action (a disabled creature's standard action costs 1 hp in PFB)."""
    enc.ruleset.injury.strenuous(tx, actor, cost)

