"""The tactical AI's turn under worlds-of-adventure: what the ruleset's own rules recommend (P20 tactics).

- A creature that declared a refocus (WOA-INIT-26) refocuses first, while its standard action is unspent; the rest
  of its turn is the core AI's (it moves toward its foes with the move action it declared). Its declarations are
  :mod:`.declare_ai`'s.
- A creature that declared a casting, a touch or a potion uses it (:mod:`.ai_spells`: the spell, the touch or the
  potion it would choose now, if its declaration allows it and it can afford it); a touch spell's charge is touched
  in the casting round (free, WOA-SPELL-18); threatened where casting provokes, it disengages defensively first.
"""

from __future__ import annotations

from typing import Any

from d20combat.rulesets.components.tactics import CoreTactics
from d20combat.rulesets.worlds_of_adventure.ai_spells import choose_spell_action, first_escape, fits_declaration
from d20combat.rulesets.worlds_of_adventure.special_initiative import Refocus


class WoaTactics(CoreTactics):
    """WOA-INIT-26: carry out a declared refocus."""

    def ai_suggestion(self, enc: Any, actor: str) -> Any:
        declared = enc.state.declarations.get(actor) or {}
        if declared.get("standard") == "refocus" and enc.can_afford("standard"):
            return Refocus()
        magic = choose_spell_action(enc, actor)
        if magic is not None and fits_declaration(magic, declared):
            return first_escape(enc, actor, magic) or magic
        return None
