"""Issue 13, item 6: every action is offered in words, never as engine syntax ("reserve (count=1, offhand=0)")."""

from __future__ import annotations

import dataclasses

import pytest

from d20combat.encounter import actions as ax
from d20combat.rulesets.off_guard import actions as cmv
from d20combat.rulesets.skill_based import actions as skl

NAMES = {"g": "Goblin", "v": "Valeros"}


def _every_action_class() -> list[type[ax.Action]]:
    out: list[type[ax.Action]] = [*ax.ACTION_TYPES.values()]
    for module in (cmv, skl):
        out += [c for c in vars(module).values() if isinstance(c, type) and issubclass(c, ax.Action)
                and c is not ax.Action and dataclasses.is_dataclass(c) and c.__module__ == module.__name__]
    return out


def _sample(cls: type[ax.Action]) -> ax.Action:
    values = {}
    for f in dataclasses.fields(cls):
        if f.name in ("target", "ally"):
            values[f.name] = "g"
        elif f.name in ("to",):
            values[f.name] = (3, 4)
        elif f.name == "path":
            values[f.name] = ((2, 2), (3, 4))
        elif f.name in ("attack", "spell", "item", "name"):
            values[f.name] = "longsword"
    return cls(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize("cls", _every_action_class(), ids=lambda c: c.kind)
def test_every_action_reads_as_words(cls: type[ax.Action]) -> None:
    text = _sample(cls).label(lambda cid: NAMES.get(cid, cid))
    assert text and not text[0].islower(), text
    assert "=" not in text and "_" not in text, text
    if any(f.name == "target" for f in dataclasses.fields(cls)):
        assert "Goblin" in text, text


def test_the_readings_a_gm_sees() -> None:
    name = NAMES.get
    assert skl.Reserve(1, 0).label() == "Hold 1 complex action in reserve (block, dodge, counterspell)"
    assert skl.TwoWeaponFighting(True).label() == "Fight with two weapons"
    assert ax.Attack("g", "longsword").label(lambda c: name(c, c)) == "Attack Goblin with longsword"
    assert ax.ShieldAction("strap").label() == "Strap on the shield"
    assert cmv.CoupDeGrace("v").label(lambda c: name(c, c)) == "Coup de grâce on Valeros"
