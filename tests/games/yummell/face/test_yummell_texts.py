"""Tracks and tiles as data and text: the presets, a tile set, one track square by square."""

from __future__ import annotations

from trackkit.games import tileset_of
from trackkit.games.tilekit.graph import compose
from trackkit.games.tilekit.tiles import TileSet
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.presets import PRESET_SLUGS, load_preset
from trackkit.games.yummell.face.texts import (
    TERRAIN_LETTER,
    presets_summary,
    presets_text,
    show_summary,
    show_text,
    tiles_summary,
    tiles_text,
)

COST = {"P": 1, "W": 2, "H": 2, "S": 3}  # the rulebook's MP per terrain


def test_presets_summary_counts_every_square_of_each_preset() -> None:
    rows = presets_summary()
    assert [r["slug"] for r in rows] == list(PRESET_SLUGS)
    for row in rows:
        track = load_preset(row["slug"])
        assert row["tiles"] == len(track.placements) and row["path_tiles"] == row["tiles"] - 2
        assert row["squares"] == compose(track, tileset_of(track)).graph.number_of_nodes()


def test_presets_text_has_a_line_per_preset_under_a_header() -> None:
    rows = presets_summary()
    lines = presets_text(rows).splitlines()
    assert lines[0].split() == ["slug", "tiles", "squares", "name"]
    assert len(lines) == 1 + len(rows)
    for row, line in zip(rows, lines[1:], strict=True):
        assert line.split()[:3] == [row["slug"], str(row["tiles"]), str(row["squares"])]
        assert line.endswith(f"  {row['name']}")


def test_tiles_summary_spells_each_square_and_adds_up_its_mp(tileset: TileSet) -> None:
    data = tiles_summary(tileset)
    assert data["name"] == tileset.name and len(data["tiles"]) == len(list(tileset.values()))
    for row in data["tiles"]:
        assert len(row["terrain"]) == row["squares"]
        assert sum(COST[letter] for letter in row["terrain"]) == row["mp"]


def test_tiles_text_names_the_set_and_marks_reconstructions(tileset: TileSet) -> None:
    data = tiles_summary(tileset)
    text = tiles_text(data, provenance="copied from my box")
    lines = text.splitlines()
    assert lines[0].startswith(tileset.name) and lines[1] == "copied from my box"
    marked = sum(row["reconstructed"] for row in data["tiles"])
    assert marked > 0 and text.count("(reconstructed)") == marked
    table = [line.split()[:5] for line in lines[4:]]
    assert table == [
        [str(r["number"]), r["shape"], str(r["squares"]), str(r["mp"]), r["terrain"]]
        for r in data["tiles"]
    ]


def test_show_summary_has_one_route_per_start_path_with_its_mp() -> None:
    track = load_preset("king-of-toads")
    data = show_summary(track, tileset_of(track))
    costs = {square["id"]: square["cost"] for square in data["squares"]}
    assert [r["start_path"] for r in data["routes"]] == ["A", "B", "C"]
    assert [r["route"][0] for r in data["routes"]] == data["start"]
    for route in data["routes"]:
        assert route["route"][-1] == data["finish"]
        assert route["squares"] == len(route["route"])
        assert route["mp"] == sum(costs[s] for s in route["route"])
    assert sum(t["squares"] for t in data["terrain"].values()) == len(data["squares"])
    assert [t["tile"] for t in data["tiles"]] == [p.tile for p in track.placements]


def test_show_text_walks_each_start_path_square_by_square() -> None:
    track = load_preset("first-run")
    tileset = tileset_of(track)
    data = show_summary(track, tileset)
    text = show_text(data, tileset_name="My tiles")
    assert text.splitlines()[:2] == [
        f"First run: 4 tiles, {len(data['squares'])} squares",
        "Tile set: My tiles",
    ]
    # the squares written under each "Start path" heading, in order
    walked: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line.startswith("Start path "):
            heading = line
            walked[heading] = []
        elif line.startswith("  tile ") and walked:
            walked[heading] += line.split()[2:]
    squares = {square["id"]: square for square in data["squares"]}
    assert list(walked) == [
        f"Start path {r['start_path']}: {r['squares']} squares, {r['mp']} MP"
        for r in data["routes"]
    ]
    for route, cells in zip(data["routes"], walked.values(), strict=True):
        assert cells == [
            f"{squares[s]['square']}:{TERRAIN_LETTER[squares[s]['terrain']]}{squares[s]['cost']}"
            for s in route["route"]
        ]


def test_show_text_says_when_no_route_reaches_the_finish() -> None:
    started = Track("Just begun", load_preset("first-run").placements[:2])
    data = show_summary(started, tileset_of(started))
    assert data["routes"] == []
    text = show_text(data, tileset_name="x")
    assert "No route reaches the finish" in text and "Start path" not in text
    assert "Terrain over the whole track:" in text
