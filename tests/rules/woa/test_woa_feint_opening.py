"""WOA-FEINT-06: the feint's opening (no Dex, dodge or shield) is against the feinter's next melee attack only — not
an ally's attack on the same foe (nor the feinter's ranged attack: the AC reads the attack)."""

from __future__ import annotations

from tests.rules._builders import ac, stats
from tests.rules.woa._util import HERO, declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.rulesets.worlds_of_adventure.feint import Feint


def test_woa_feint_06_the_opening_is_the_feinters_melee_attacks_only() -> None:
    """WOA-FEINT-06: the duelist (AC 13 = 10 + Dex 2 + dodge 1) is feinted by the hero (17 against 8): AC 10 against
    the hero's longsword; 13 against the ally's."""
    duelist = stats("duelist", hp=20, attack_bonus=2, abilities={"dex": 14, "wis": 12}, dodge_bonus=1,
                    attacks=[{"weapon": "club"}])
    enc = woa([who("hero", HERO, "heroes", (2, 2)), who("ally", HERO, "heroes", (4, 3)),
               who("foe", duelist, "monsters", (3, 2))], [10, 3, 1, 15, 5])
    declare_all(enc, ax.Declare(standard="attack", move="feint", target="foe"))
    assert enc.state.actor == "hero"
    assert ac(enc, "hero", "foe", "longsword") == 13
    enc.act(Feint(target="foe"))
    assert ac(enc, "hero", "foe", "longsword") == 10
    assert ac(enc, "ally", "foe") == 13
