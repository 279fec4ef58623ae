"""Reaction prompts: the engine asks a creature's controller before an action goes on.

Attacks of opportunity, active defenses (block, dodge), readied actions and combat reactions all
open the same kind of window: a prompt to one creature with named options. The action waits, and
resumes from the answer.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ReactionPrompt:
    reactor: str
    kind: str
    """e.g. "attack_of_opportunity", "active_defense"."""
    trigger: str
    """What happened, in words: "goblin-1 leaves (4,5), which valeros threatens"."""
    options: tuple[str, ...]
    detail: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"reactor": self.reactor, "kind": self.kind, "trigger": self.trigger,
                "options": list(self.options), "detail": self.detail}
