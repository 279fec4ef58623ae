"""WOA-REACT-26: a ranged weapon attack blocked with a shield that hits and whose damage overcomes the shield's
hardness lodges in the shield — noted, with no mechanical effect (the text leaves it unquantified)."""

from __future__ import annotations

import pytest
from tests.rules.woa._react import fight, fighter, orc, orc_first
from tests.rules.woa._util import who

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.worlds_of_adventure.block import shield_hardness


def lodged(events: list[ev.Event]) -> list[str]:
    return [e.text for e in events if isinstance(e, ev.Note) and "WOA-REACT-26" in e.text]


def shot_at(shield: str, damage_face: int, *, weapon: str = "longbow", answer: str = "block") -> list[ev.Event]:
    """The archer (or the orc beside the hero, ``weapon`` "club") hits the warrior, who answers ``answer``."""
    shooter = orc("archer", weapon=weapon)
    where = (2, 6) if weapon == "longbow" else (3, 2)
    enc: Encounter = fight([who("hero", fighter("hero", warrior=4, shield=shield), "heroes", (2, 2)),
                            who("orc", shooter, "monsters", where)], [1, 20, 18, damage_face])
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    events = enc.respond(answer)
    assert any(isinstance(e, ev.Damaged) and e.target == "hero" for e in events)  # the attack hit
    return events


def test_woa_react_26_the_hardness_comes_from_the_data() -> None:
    """WOA-REACT-26 (the assumption in data/woa_armor.yaml): wood 5, steel 10; an unnamed shield: the default, 5."""
    from d20combat.model.catalog import default_catalog
    from d20combat.model.creature import compile_creature
    from d20combat.model.statblock import StatBlock

    def hardness(shield: object) -> int:
        sheet = StatBlock.model_validate(fighter("hero", warrior=1, shield=shield))
        return shield_hardness(compile_creature("hero", "hero", "heroes", sheet, default_catalog()))[0]

    assert hardness("heavy-wooden-shield") == 5 and hardness("heavy-steel-shield") == 10
    assert hardness({"name": "kite", "shield_bonus": 2}) == 5


@pytest.mark.parametrize(("shield", "face", "noted"), [
    ("heavy-wooden-shield", 8, True),    # 8 damage > hardness 5
    ("heavy-wooden-shield", 5, False),   # 5 does not overcome 5
    ("heavy-steel-shield", 8, False),    # 8 < hardness 10
])
def test_woa_react_26_a_blocked_arrow_lodges_when_its_damage_overcomes_the_hardness(shield: str, face: int,
                                                                                   noted: bool) -> None:
    """WOA-REACT-26: the longbow's 1d8 (face ``face``, Str 0) against the shield's hardness; the note names the
    missile, the shield, the damage and the hardness, and changes nothing else (the damage is the block's)."""
    events = shot_at(shield, face)
    notes = lodged(events)
    assert bool(notes) is noted
    if noted:
        assert notes == [f"longbow lodges in hero's {shield}: its {face} damage overcomes {shield}'s hardness, 5 "
                         "(WOA-REACT-26; the effect on the shield is unquantified in the text, so none is applied)"]
    hit = next(e for e in events if isinstance(e, ev.Damaged) and e.target == "hero")
    assert hit.amount == face - (2 + 2)  # ½ warrior level 4 + the shield's AC bonus 2, lodged or not


@pytest.mark.parametrize(("weapon", "answer"), [("longbow", "none"), ("club", "block")])
def test_woa_react_26_only_a_blocked_ranged_weapon_lodges(weapon: str, answer: str) -> None:
    """WOA-REACT-26: an arrow not blocked, or a blocked club, lodges in nothing, whatever its damage."""
    assert not lodged(shot_at("heavy-wooden-shield", 6 if weapon == "club" else 8, weapon=weapon, answer=answer))
