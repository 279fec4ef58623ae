"""Surprise: each perceiver's Perception against every sneaky creature's Stealth (PFB-SURP-02/03)."""

from __future__ import annotations

from collections.abc import Sequence

from d20combat.dice import DiceSource
from d20combat.model.creature import Creature


def beats(perception: int, p_mod: int, stealth: int, s_mod: int) -> bool | None:
    """Opposed check (d20 SRD convention, proposed default): higher result wins; a tie goes to the
    higher modifier; equal modifiers → ``None`` (re-roll)."""
    if perception != stealth:
        return perception > stealth
    if p_mod != s_mod:
        return p_mod > s_mod
    return None


def determine_surprise(
    sneakers: Sequence[Creature], perceivers: Sequence[Creature], dice: DiceSource, *,
    hider_skill: str = "stealth", observer_skill: str = "perception", aware_when: str = "any",
) -> tuple[list[str], list[str]]:
    """A perceiver is surprised if it fails against *every* sneaky creature (noticed none of them) — or, with
    ``aware_when="all"``, against *any* of them (it must notice them all to be aware). Skill checks have no automatic
    results on 1 or 20 (PFB-NAT-05). Returns (surprised ids, notes)."""
    if aware_when not in ("any", "all"):
        raise ValueError(f"aware_when must be 'any' or 'all', not {aware_when!r}")
    if not sneakers:
        return [], []
    notes: list[str] = []
    hider, observer = hider_skill.replace("_", " ").capitalize(), observer_skill.replace("_", " ").capitalize()
    stealth: dict[str, tuple[int, int]] = {}
    for s in sneakers:
        mod = s.sheet.skills.get(hider_skill, s.dex_mod)
        face = dice.roll(20, f"{hider} {s.id}")
        stealth[s.id] = (face + mod, mod)
        notes.append(f"{s.id} {hider} {face + mod} (d20 {face} {mod:+d})")
    surprised: list[str] = []
    for p in perceivers:
        mod = p.sheet.skills.get(observer_skill, 0)
        face = dice.roll(20, f"{observer} {p.id}")
        result = face + mod
        notes.append(f"{p.id} {observer} {result} (d20 {face} {mod:+d})")
        outcomes: list[bool] = []
        for sid, (s_total, s_mod) in stealth.items():
            outcome = beats(result, mod, s_total, s_mod)
            while outcome is None:
                p2, s2 = dice.roll(20, f"{observer} re-roll {p.id}"), dice.roll(20, f"{hider} re-roll {sid}")
                outcome = beats(p2 + mod, mod, s2 + s_mod, s_mod)
            outcomes.append(outcome)
        if not (any(outcomes) if aware_when == "any" else all(outcomes)):
            surprised.append(p.id)
    return surprised, notes
