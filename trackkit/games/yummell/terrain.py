"""Terrain and its Movement Point cost, as the rulebook states them (p. 3)."""

from __future__ import annotations

from enum import StrEnum


class Terrain(StrEnum):
    """The four terrains of Yummell; every square has exactly one."""

    PLAIN = "plain"
    WOODS = "woods"
    HILLS = "hills"
    SWAMP = "swamp"

    @property
    def cost(self) -> int:
        """Movement Points needed to enter a square of this terrain."""
        return TERRAIN_COST[self]


TERRAIN_COST: dict[Terrain, int] = {
    Terrain.PLAIN: 1,
    Terrain.WOODS: 2,
    Terrain.HILLS: 2,
    Terrain.SWAMP: 3,
}
