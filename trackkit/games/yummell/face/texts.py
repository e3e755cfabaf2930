"""Tracks and tiles as the ``presets``, ``tiles`` and ``show`` commands print them.

Each ``*_summary`` returns the JSON-able data (what ``--json`` prints); each ``*_text``
turns that data into the lines a player reads. A square is written ``id:terrain+cost``:
``a1:P1`` is square a1, plain, 1 MP.

>>> rows = presets_summary()
>>> rows[0]["slug"], rows[0]["tiles"], rows[0]["squares"]
('first-run', 4, 34)
>>> print(presets_text(rows).splitlines()[1])
first-run                4      34  First run
"""

from __future__ import annotations

from typing import Any

from trackkit.errors import shown
from trackkit.games import tileset_of
from trackkit.games.tilekit.graph import TrackGraph, compose, start_path_label
from trackkit.games.tilekit.tiles import TileSet
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.presets import list_presets
from trackkit.games.yummell.core.terrain import route_cost, terrain_totals

TERRAIN_LETTER = {"plain": "P", "woods": "W", "hills": "H", "swamp": "S"}


def start_labels(composed: TrackGraph) -> dict[str, str]:
    """Each start square's start path letter, in the start tile's order: A, B, C…"""
    return {s: start_path_label(i) for i, s in enumerate(composed.start_squares)}


# --- presets ---------------------------------------------------------------------------


def presets_summary() -> list[dict[str, Any]]:
    """The rulebook's preset tracks: slug, name, tiles, path tiles, squares, description."""
    rows = []
    for preset in list_presets():
        composed = compose(preset.track, tileset_of(preset.track))
        rows.append(
            {
                "slug": preset.slug,
                "name": preset.track.name,
                "tiles": len(preset.track.placements),
                "path_tiles": len(preset.track.placements) - 2,
                "squares": composed.graph.number_of_nodes(),
                "description": preset.track.description,
            }
        )
    return rows


def presets_text(rows: list[dict[str, Any]]) -> str:
    """A table of :func:`presets_summary`: slug, tiles, squares and name."""
    lines = [f"{'slug':<20} {'tiles':>5} {'squares':>7}  name"]
    lines += [f"{r['slug']:<20} {r['tiles']:>5} {r['squares']:>7}  {r['name']}" for r in rows]
    return "\n".join(lines)


# --- tiles -----------------------------------------------------------------------------


def tiles_summary(tileset: TileSet) -> dict[str, Any]:
    """A tile set's name, folder and one row per tile: shape, squares, MP, terrain letters
    along its squares, whether it is a reconstruction and its file."""
    rows = [
        {
            "number": t.number,
            "role": t.role.value,
            "shape": t.shape,
            "squares": len(t.squares),
            "mp": sum(s["cost"] for s in t.squares),
            "terrain": "".join(TERRAIN_LETTER[s["terrain"]] for s in t.squares),
            "reconstructed": t.reconstructed,
            "file": t.source,
        }
        for t in tileset.values()
    ]
    return {"name": tileset.name, "folder": tileset.folder, "tiles": rows}


def tiles_text(data: dict[str, Any], *, provenance: str) -> str:
    """A table of :func:`tiles_summary` under the set's name, folder and ``provenance``
    (names and paths shown safely: they come from the user's files)."""
    lines = [f"{shown(data['name'])} ({shown(data['folder'])})", shown(provenance), ""]
    lines.append(f"{'tile':>4} {'shape':<8} {'squares':>7} {'MP':>3}  terrain (P W H S)")
    for r in data["tiles"]:
        mark = "  (reconstructed)" if r["reconstructed"] else ""
        lines.append(
            f"{r['number']:>4} {r['shape']:<8} {r['squares']:>7} {r['mp']:>3}  {r['terrain']}{mark}"
        )
    return "\n".join(lines)


# --- one track -------------------------------------------------------------------------


def show_summary(track: Track, tileset: TileSet) -> dict[str, Any]:
    """``track`` composed from ``tileset``: the graph's JSON (``name``, ``squares``,
    ``start``, ``finish``), then ``tiles`` in placing order, ``routes`` (one per start path
    to the finish, with its letter, squares and MP) and ``terrain`` totals."""
    composed = compose(track, tileset)
    labels = start_labels(composed)
    data = composed.to_json()
    data["tiles"] = [
        {
            "tile": p.tile,
            "x": p.x,
            "y": p.y,
            "rotation": p.rotation,
            "shape": tileset[p.tile].shape if p.tile in tileset else None,
        }
        for p in track.placements
    ]
    data["routes"] = [
        {
            "start_path": labels[route[0]],
            "squares": len(route),
            "mp": route_cost(composed, route),
            "route": route,
        }
        for route in composed.routes()
    ]
    data["terrain"] = terrain_totals(composed)
    return data


def show_text(data: dict[str, Any], *, tileset_name: str) -> str:
    """:func:`show_summary` in words: the tiles in placing order, each start path's squares
    tile by tile, and the terrain over the whole track."""
    squares = {square["id"]: square for square in data["squares"]}
    lines = [f"{data['name']}: {len(data['tiles'])} tiles, {len(squares)} squares"]
    lines.append(f"Tile set: {tileset_name}")
    lines.append("Tiles in placing order:")
    for n, tile_row in enumerate(data["tiles"], 1):
        shape = tile_row["shape"] or "unknown"
        lines.append(
            f"  {n}. tile {tile_row['tile']:>2} {shape:<8} at ({tile_row['x']}, {tile_row['y']})"
            f" rotated {tile_row['rotation']}°"
        )
    for route in data["routes"]:
        lines.append(
            f"Start path {route['start_path']}: {route['squares']} squares, {route['mp']} MP"
        )
        by_tile: dict[int, list[str]] = {}
        for node in route["route"]:
            square = squares[node]
            cell = f"{square['square']}:{TERRAIN_LETTER[square['terrain']]}{square['cost']}"
            by_tile.setdefault(square["tile"], []).append(cell)
        for tile_number, cells in by_tile.items():
            lines.append(f"  tile {tile_number:>2}  " + " ".join(cells))
    if not data["routes"]:
        lines.append("No route reaches the finish: run `trackkit validate` to see why.")
    lines.append("Terrain over the whole track:")
    for terrain, totals in data["terrain"].items():
        lines.append(f"  {terrain:<6} {totals['squares']:>3} squares {totals['mp']:>4} MP")
    lines.append("(squares written id:terrain+cost, e.g. a1:P1 = square a1, plain, 1 MP)")
    return "\n".join(lines)
