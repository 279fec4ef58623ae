"""WOA-INIT-22..24 in play: the tactical AI readies a counterspell against a foe caster holding a spell it could
counter, and a whole round in which a readied counterspell ruins a fireball and the battle goes on."""

from __future__ import annotations

from typing import Any

from tests.rules._builders import stats
from tests.rules.woa._util import HERO, ORC, declare_all, who, woa

from d20combat.controllers import TacticalAI
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.worlds_of_adventure.ready import Ready, readied_action
from d20combat.rulesets.worlds_of_adventure.spells import CastSpell


def caster(name: str, ref: int = 1, **attributes: int) -> dict[str, Any]:
    """Spellcraft +9; a dagger; initiative +1 (``ref``)."""
    return stats(name, hp=30, attack_bonus=2, abilities={"int": 16, "dex": 10}, saves={"ref": ref},
                 skills={"spellcraft": 9, "concentration": 8}, attributes=attributes,
                 attacks=[{"weapon": "dagger"}])


def pair(wizard: dict[str, Any], shaman: dict[str, Any], dice: list[int] = ()) -> Encounter:  # type: ignore[assignment]
    return woa([who("wizard", wizard, "heroes", (1, 1)), who("shaman", shaman, "monsters", (10, 10))], list(dice))


READY = ax.Declare(standard="ready", move="move", target="shaman")


def test_woa_init_22_the_ai_readies_a_counterspell_against_a_foe_caster() -> None:
    """WOA-INIT-22/24: the wizard holds only dispel magic, the shaman a fireball: the AI declares ready at the shaman
    and, on its turn, readies the counterspell (not a readied attack)."""
    enc = pair(caster("wizard", spell_dispel_magic=1), caster("shaman", spell_fireball=1), [15, 5])
    assert TacticalAI().choose(enc) == READY
    declare_all(enc, READY, ax.Declare(full_round="cast_spell"))
    assert enc.state.actor == "wizard"
    chosen = TacticalAI().choose(enc)
    assert chosen == Ready(trigger="shaman", counterspell=True)
    enc.act(chosen)
    held = readied_action(enc.view(enc.state), "wizard")
    assert held is not None and held.counterspell
    assert TacticalAI().choose(enc) != chosen  # the standard action is spent: not again


def test_woa_init_22_the_ai_casts_what_it_can_rather_than_wait() -> None:
    """WOA-INIT-22: holding a fireball of its own and a target for it, the wizard casts rather than readies."""
    enc = pair(caster("wizard", spell_fireball=1), caster("shaman", spell_fireball=1), [15, 5])
    assert TacticalAI().choose(enc) == ax.Declare(full_round="cast_spell")


def test_woa_init_22_the_ai_never_readies_against_a_readier_nor_without_a_counter() -> None:
    """WOA-INIT-22: no counterspell against a foe that declared ready itself (two readiers would wait forever), nor
    against a foe whose spells it cannot counter (silent image is no fireball, and no dispel magic)."""
    enc = woa([who("shaman", caster("shaman", spell_fireball=1, spell_dispel_magic=1), "monsters", (10, 10)),
               who("wizard", caster("wizard", spell_dispel_magic=1), "heroes", (1, 1))], [5, 15])
    enc.act(ax.Declare(standard="ready", move="move", target="wizard"))
    assert TacticalAI().choose(enc).standard != "ready"  # type: ignore[attr-defined]
    enc = pair(caster("wizard", spell_silent_image=1), caster("shaman", spell_fireball=1), [15, 5])
    assert TacticalAI().choose(enc).standard != "ready"  # type: ignore[attr-defined]


def test_woa_init_22_to_24_ai_battle_goes_on_to_its_end() -> None:
    """A seeded AI battle of the counter-readier against the fireball caster runs to its end (no stalemate of
    readiers), and the log shows a readied counterspell answering a spell."""
    from d20combat.controllers import play
    from d20combat.dice.source import SeededDice
    from d20combat.scenario import battle_from_data

    for seed in (5, 6, 7):  # seeds where the shaman casts after the wizard readied
        data = {"ruleset": "worlds-of-adventure", "map": {"width": 12, "height": 12}, "max_rounds": 30,
                "combatants": [who("wizard", caster("wizard", spell_dispel_magic=3), "heroes", (1, 1)),
                               who("shaman", caster("shaman", spell_fireball=2, spell_magic_missile=2), "monsters",
                                   (10, 10))]}
        enc = play(Encounter(battle_from_data(data), SeededDice(seed)), TacticalAI())
        assert enc.state.ended
        texts = [e.text for e in enc.log if isinstance(e, ev.Note)]
        assert any("readied counterspell answers (WOA-INIT-22)" in t for t in texts)


def test_woa_init_22_23_combined_round_a_fireball_ruined_and_the_round_goes_on() -> None:
    """WOA-INIT-22/23 in a whole round: the wizard readies a counterspell at the shaman; the hero moves; the shaman
    casts fireball at the hero and the wizard's Spellcraft (12 + 9 = 21 vs 18) identifies it — its own fireball
    ruins it; the orc then swings at the hero (d20 15, club 4) and round 2 opens with the declarations."""
    enc = woa([who("wizard", caster("wizard", spell_fireball=1), "heroes", (1, 1)),
               who("hero", HERO, "heroes", (8, 8)),
               who("shaman", caster("shaman", ref=3, spell_fireball=1), "monsters", (11, 11)),
               who("orc", ORC, "monsters", (9, 8))],
              [18, 17, 1, 12, 15, 4], width=12, height=12)
    declare_all(enc, READY, ax.Declare(move="move"), ax.Declare(full_round="cast_spell"),
                ax.Declare(standard="attack", move="move", target="hero"))
    assert list(enc.state.order) == ["hero", "wizard", "shaman", "orc"]
    enc.act(ax.EndTurn())
    enc.act(Ready(trigger="shaman", counterspell=True))
    enc.act(ax.EndTurn())
    enc.act(CastSpell("fireball", "hero"))
    enc.act(ax.EndTurn())
    assert enc.state.actor == "orc"
    enc.act(ax.Attack(target="hero"))
    while enc.pending is not None:
        enc.respond(enc.pending.prompt.options[-1])
    enc.act(ax.EndTurn())
    log = list(enc.log)
    ruined = [e.text for e in log if isinstance(e, ev.Note) and "ruined by wizard's counterspell" in e.text]
    assert ruined and not [e for e in log if isinstance(e, ev.Damaged) and e.source == "shaman"]
    assert [e.amount for e in log if isinstance(e, ev.Damaged)] == [4] and enc.state.get("hero").hp == 26
    assert enc.state.round == 2 and enc.state.declaring
    assert not enc.state.get("wizard").has("readying")
