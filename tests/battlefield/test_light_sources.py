"""PFB-CONC-16: light sources and low-light vision (PF1 default: a torch gives bright light to 20 ft and dim
light 20 ft further; low-light vision doubles both radii)."""

from __future__ import annotations

from d20combat.battlefield.concealment import Vision, concealment_sources
from d20combat.battlefield.grid import Footprint, GameMap, Light

DARK_ROW = {(c, 0): Light.DARK for c in range(20)}
TORCH_MAP = GameMap(20, 2, light=DARK_ROW, lights=(((0, 0), 20, 20),))


def test_pfb_conc_16_torch_radii_for_normal_and_low_light_vision() -> None:
    """PFB-CONC-16: at 30 ft from the torch a human sees dim light, an elf (low-light) bright light; at 50 ft
    the human sees darkness and the elf dim light."""
    assert TORCH_MAP.light_for((4, 0)) is Light.BRIGHT  # 20 ft
    assert TORCH_MAP.light_for((6, 0)) is Light.DIM  # 30 ft
    assert TORCH_MAP.light_for((6, 0), low_light=True) is Light.BRIGHT
    assert TORCH_MAP.light_for((10, 0)) is Light.DARK  # 50 ft
    assert TORCH_MAP.light_for((10, 0), low_light=True) is Light.DIM
    assert TORCH_MAP.light_for((17, 0), low_light=True) is Light.DARK  # 85 ft > 80 ft


def test_pfb_conc_16_low_light_vision_sees_farther_by_torchlight() -> None:
    """PFB-CONC-16 with PFB-CONC-04/11: a goblin 30 ft from the torch has 20 % concealment against a human and
    none against an elf; 50 ft away it has total concealment against the human and none against the elf."""
    human, elf = Vision(), Vision(low_light=True)
    attacker = Footprint((1, 1))
    near, far = Footprint((6, 0)), Footprint((10, 0))
    assert [s.percent for s in concealment_sources(TORCH_MAP, attacker, human, near)] == [20]
    assert concealment_sources(TORCH_MAP, attacker, elf, near) == ()
    assert [(s.percent, s.total) for s in concealment_sources(TORCH_MAP, attacker, human, far)] == [(50, True)]
    assert concealment_sources(TORCH_MAP, attacker, elf, far) == ()
