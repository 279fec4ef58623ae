"""The concealment components in the kernel: the miss chance an attacker faces, switched by ``kn[K_CONC_STACK]``.

- ``CONC_STRONGEST`` — the core :class:`StrongestConcealment` (PFB-CONC-07): ``concealment_sources`` with the
  strongest source counting.
- ``CONC_ADD`` / ``CONC_INDEPENDENT`` — off-guard's :class:`StackingConcealment` (CMV-CONC): concealing terrain
  counts once at its strongest (the line test through the defender's own squares, CMV-CONC-03/05; in adjacent
  melee only a target entirely inside it, CMV-CONC-04), or once per connected area (``kn[K_CONC_AREAS]``,
  variant ``cmv_terrain_areas_stack``, labels in ``light[AREA_PLANE]``); dim light conceals in adjacent melee
  only a target with no brightly lit square; the sources add (or combine as 1 − Π(1 − p), exactly, as the
  reference's ``Fraction``) up to 50 %.

When the d% is rolled (before the roll or after a hit) is ``kn[K_CONC_BEFORE]``, read by the kernel's attack.
Of the sources from conditions only the defender's starting ``blur`` and ``concealed:N`` occur in a compiled battle
(off-guard's, ``cs[tgt, BLUR_PCT]`` and ``cs[tgt, CONCEALED_PCT]``, :mod:`.starting`); blinded and invisible never.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from d20combat.simulation.fast.concealment import terrain_concealment
from d20combat.simulation.fast.geometry import _in_fp
from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.layout import (
    AREA_PLANE,
    BLUR_PCT,
    CONC_ADD,
    CONC_STRONGEST,
    CONCEALED_PCT,
    DARKVISION,
    K_CONC_AREAS,
    K_CONC_STACK,
    LOW_LIGHT,
)
from d20combat.simulation.fast.lines import _column_rows

I64 = NDArray[np.int64]
I16 = NDArray[np.int16]

CAP = 50
"""CMV-CONC-15: stacked concealment never passes 50 %."""


@njit_borrowing
def light_sources(light: I64, cs: I64, att: int, tc: int, tr: int, tsize: int, dist: int,
                   whole_space: bool) -> tuple[int, int]:
    """Rules 3 and 4 of ``concealment_sources`` as (dim %, dark %): dim light on a defender square the attacker
    cannot see well in (with ``whole_space``, only if no defender square is bright), darkness on all of them;
    nothing when the attacker's darkvision reaches."""
    dv = cs[att, DARKVISION]
    if dv > 0 and dist <= dv:
        return 0, 0
    low = cs[att, LOW_LIGHT]
    dim = False
    bright = False
    dark = 0
    for dc in range(tsize):
        for dr in range(tsize):
            level = light[low, tc + dc, tr + dr]
            if level == 0:
                bright = True
            elif level == 1:
                dim = True
            else:
                dark += 1
    dim_pct = 20 if dim and not low and not (whole_space and bright) else 0
    return dim_pct, 50 if dark == tsize * tsize else 0


@njit_borrowing
def _line_max(concealing: I16, labels: I64, area: int, ac: int, ar: int, asize: int, px: int, py: int, qx: int,
              qy: int) -> int:
    """Strongest percent (> 0) among the squares line ``p``-``q`` crosses outside the attacker's footprint and in
    ``area`` (-1: any), else 0 — ``_between``'s inner loop with ``through_defender`` (CMV-CONC-03)."""
    if qx < px:
        px, qx = qx, px
        py, qy = qy, py
    dx = qx - px
    dy = qy - py
    best = 0
    if dx == 0 or dy == 0:
        return best
    h = concealing.shape[1]
    for c in range(max(px, 0), min(qx, concealing.shape[0])):
        lo, hi = _column_rows(px, py, dx, dy, c, c + 1, dx)
        for r in range(max(lo, 0), min(hi, h)):
            pct = int(concealing[c, r])
            if pct > best and (area < 0 or labels[c, r] == area) and not _in_fp(c, r, ac, ar, asize):
                best = pct
    return best


@njit_borrowing
def _terrain_through(concealing: I16, labels: I64, area: int, ac: int, ar: int, asize: int, tc: int, tr: int,
                     tsize: int) -> int:
    """The strongest terrain source of ``concealment_sources(area map, a, Vision(), t, through_defender=True)``:
    max(inside, between), 0 for none. ``area`` -1 is the whole map."""
    w = concealing.shape[0]
    h = concealing.shape[1]
    inside = 0
    weakest = -1
    for c in range(tc, tc + tsize):
        for r in range(tr, tr + tsize):
            if not (0 <= c < w and 0 <= r < h) or concealing[c, r] < 0 or (area >= 0 and labels[c, r] != area):
                weakest = -2
            elif weakest != -2 and (weakest == -1 or concealing[c, r] < weakest):
                weakest = int(concealing[c, r])
    if weakest > 0:
        inside = weakest
    between = 0
    for i in range(4):
        px = ac + asize * (i & 1)
        py = ar + asize * (i >> 1)
        worst = 0
        for j in range(4):
            qx = tc + tsize * (j & 1)
            qy = tr + tsize * (j >> 1)
            worst = max(worst, _line_max(concealing, labels, area, ac, ar, asize, px, py, qx, qy))
        if worst == 0:
            between = 0
            break  # this corner sees the defender clear
        if i == 0 or worst < between:
            between = worst
    return max(inside, between)


@njit_borrowing
def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


@njit_borrowing
def _stack(independent: bool, p: int, raw: int, num: int, den: int) -> tuple[int, int, int]:
    """One more source of ``p`` % into the running (sum, kept fraction num/den); the fraction stops at the cap."""
    if p <= 0:
        return raw, num, den
    if not independent:
        return raw + p, num, den
    if 2 * num <= den:
        return raw, num, den  # already at the cap: 1 − num/den ≥ ½
    num *= 100 - p
    den *= 100
    g = _gcd(num, den)
    return raw, num // g, den // g


@njit_borrowing
def stacked_concealment(kn: I64, concealing: I16, light: I64, cs: I64, att: int, ac: int, ar: int, asize: int,
                        tc: int, tr: int, tsize: int, dist: int, adjacent: bool, tgt: int) -> tuple[int, bool]:
    """``StackingConcealment.combine(concealment_sources(…))`` from ``(ac, ar)``: (miss chance %, a total source)."""
    independent = kn[K_CONC_STACK] != CONC_ADD
    raw, num, den = 0, 1, 1
    if adjacent:  # CMV-CONC-04: only a target entirely inside concealing terrain
        inside, _between = terrain_concealment(concealing, ac, ar, asize, tc, tr, tsize)
        raw, num, den = _stack(independent, inside, raw, num, den)
    elif not kn[K_CONC_AREAS]:
        raw, num, den = _stack(independent, _terrain_through(concealing, light[AREA_PLANE], -1, ac, ar, asize, tc, tr,
                                                             tsize), raw, num, den)
    else:  # CMV-CONC-10 variant: each area of terrain in the box of both footprints (all lines lie in it)
        labels = light[AREA_PLANE]
        c0, c1 = max(min(ac, tc), 0), min(max(ac + asize, tc + tsize), concealing.shape[0])
        r0, r1 = max(min(ar, tr), 0), min(max(ar + asize, tr + tsize), concealing.shape[1])
        done = -1
        while True:
            area = -1
            for c in range(c0, c1):
                for r in range(r0, r1):
                    label = labels[c, r]
                    if label > done and (area == -1 or label < area):
                        area = label
            if area == -1:
                break
            p = _terrain_through(concealing, labels, area, ac, ar, asize, tc, tr, tsize)
            raw, num, den = _stack(independent, p, raw, num, den)
            done = area
    dim, dark = light_sources(light, cs, att, tc, tr, tsize, dist, adjacent)
    raw, num, den = _stack(independent, dim, raw, num, den)
    raw, num, den = _stack(independent, dark, raw, num, den)
    if tgt >= 0:  # CMV-CONC-06: the defender's magic, against every attack (its starting blur, concealed:N)
        raw, num, den = _stack(independent, cs[tgt, BLUR_PCT], raw, num, den)
        raw, num, den = _stack(independent, cs[tgt, CONCEALED_PCT], raw, num, den)
    if independent:
        raw = CAP if 2 * num <= den else 100 * (den - num) // den
    return min(raw, CAP), dark > 0


@njit_borrowing
def concealment(kn: I64, concealing: I16, light: I64, cs: I64, att: int, ac: int, ar: int, asize: int, tc: int,
                tr: int, tsize: int, dist: int, adjacent: bool, tgt: int) -> tuple[int, bool]:
    """The concealment component's miss chance for an attack from ``(ac, ar)`` on creature ``tgt``: (%, a total
    source among them)."""
    if kn[K_CONC_STACK] != CONC_STRONGEST:
        return stacked_concealment(kn, concealing, light, cs, att, ac, ar, asize, tc, tr, tsize, dist, adjacent, tgt)
    # P18 concealment sources (concealment.concealment_sources) and PFB's strongest-source policy.
    inside, between = terrain_concealment(concealing, ac, ar, asize, tc, tr, tsize)
    dim, dark = light_sources(light, cs, att, tc, tr, tsize, dist, False)
    return max(inside, between, dim, dark), dark > 0
