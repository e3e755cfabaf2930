"""Terrain and its Movement Point cost, as the rulebook states them (p. 3)."""

from __future__ import annotations

from enum import StrEnum

from trackkit.games.tilekit.graph import TrackGraph


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


def route_cost(composed: TrackGraph, route: list[str]) -> int:
    """The MP of walking ``route`` (square ids) on an empty track."""
    return sum(composed.graph.nodes[s]["cost"] for s in route)


def terrain_totals(composed: TrackGraph) -> dict[str, dict[str, int]]:
    """Squares and MP per terrain over the whole track."""
    totals = {t.value: {"squares": 0, "mp": 0} for t in Terrain}
    for _, data in composed.graph.nodes(data=True):
        totals[data["terrain"]]["squares"] += 1
        totals[data["terrain"]]["mp"] += data["cost"]
    return totals
