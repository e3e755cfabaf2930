"""The six presets: their files, and the reconstruction honouring the rulebook's descriptions."""

from __future__ import annotations

from itertools import pairwise

import pytest

from trackkit.errors import TrackkitError
from trackkit.games.tilekit.graph import TrackGraph, compose
from trackkit.games.tilekit.tiles import TileSet
from trackkit.games.yummell.core.presets import PRESET_SLUGS, list_presets, load_preset
from trackkit.games.yummell.core.terrain import route_cost

# SPEC.md §2: each preset's path order.
PATHS = {
    "first-run": [1, 10, 7, 2],
    "swamps-of-the-king": [1, 3, 5, 9, 2],
    "horrgrups-path": [1, 8, 9, 3, 2],
    "forest-run": [1, 10, 6, 4, 2],
    "forest-of-goosh": [1, 9, 4, 3, 7, 2],
    "king-of-toads": [1, 9, 3, 6, 10, 5, 2],
}
# SPEC.md §2: the grids as printed, top row first.
GRIDS = {
    "first-run": ["2 7 10", ". . 1"],
    "swamps-of-the-king": ["9 5 3 1", "2 . . ."],
    "horrgrups-path": ["2 3 9", ". . 8", ". . 1"],
    "forest-run": ["10 1 .", "6 4 2"],
    "forest-of-goosh": ["2 7 3 4 9", ". . . . 1"],
    "king-of-toads": [". . 6 3 9", "2 5 10 . 1"],
}


def test_the_six_presets_ship() -> None:
    assert [p.slug for p in list_presets()] == list(PATHS)


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_preset_lies_as_printed_in_the_rulebook(slug: str) -> None:
    track = load_preset(slug)
    assert list(track.tiles) == PATHS[slug]
    printed = {
        int(t): (x, y)
        for y, row in enumerate(GRIDS[slug])
        for x, t in enumerate(row.split())
        if t != "."
    }
    assert {p.tile: p.cell for p in track.placements} == printed


def test_unknown_preset_lists_the_slugs() -> None:
    with pytest.raises(TrackkitError, match="first-run"):
        load_preset("first_run")


# --- the reconstruction honours the presets' descriptions (SPEC.md §2) --------------------


def _greedy_route(composed: TrackGraph) -> list[str]:
    """The start path SPEC §4's greedy policy takes: lowest total MP, first on ties."""
    return min(composed.routes(), key=lambda r: route_cost(composed, r))


def _figures(tileset: TileSet) -> dict[str, dict[str, float]]:
    figures = {}
    for slug in PRESET_SLUGS:
        composed = compose(load_preset(slug), tileset)
        route = _greedy_route(composed)
        terrains = [composed.graph.nodes[s]["terrain"] for s in route]
        mp = route_cost(composed, route)
        figures[slug] = {
            "mp": mp,
            "mp_per_square": mp / len(route),
            "woods": terrains.count("woods") / len(route),
            "swamp": terrains.count("swamp") / len(route),
            "changes": sum(a != b for a, b in pairwise(terrains)) / (len(route) - 1),
        }
    return figures


def _rank(figures: dict[str, dict[str, float]], key: str) -> list[str]:
    return sorted(figures, key=lambda slug: figures[slug][key], reverse=True)


def test_first_run_is_the_shortest_and_king_of_toads_the_longest(tileset: TileSet) -> None:
    ranking = _rank(_figures(tileset), "mp")
    assert ranking[-1] == "first-run"
    assert ranking[0] == "king-of-toads"


def test_horrgrups_path_has_the_lowest_mp_per_square(tileset: TileSet) -> None:
    assert _rank(_figures(tileset), "mp_per_square")[-1] == "horrgrups-path"


def test_forest_run_and_goosh_are_the_woodiest(tileset: TileSet) -> None:
    assert set(_rank(_figures(tileset), "woods")[:2]) == {"forest-run", "forest-of-goosh"}


def test_the_swamps_of_the_king_are_the_marshiest(tileset: TileSet) -> None:
    assert _rank(_figures(tileset), "swamp")[0] == "swamps-of-the-king"


def test_king_of_toads_is_swampy_with_continual_changes(tileset: TileSet) -> None:
    figures = _figures(tileset)
    assert _rank(figures, "swamp")[1] == "king-of-toads"
    assert _rank(figures, "changes")[0] == "king-of-toads"
