"""Tiles: the bundled set honours SPEC.md, files are checked field by field, rotation."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trackkit.errors import TileFileError
from trackkit.games import load_tileset
from trackkit.games.tilekit.geometry import Side
from trackkit.games.tilekit.tiles import TileRole, TileSet, parse_tile
from trackkit.games.yummell.core.ruleset import YummellSquare
from trackkit.games.yummell.core.terrain import Terrain

STRAIGHTS = {3, 4, 5, 7, 8}
CURVES = {6, 9, 10}


def test_bundled_set_has_the_ten_tiles_of_the_box(tileset: TileSet) -> None:
    assert sorted(tileset) == list(range(1, 11))
    assert tileset.start.number == 1
    assert tileset.finish.number == 2
    assert {t.number for t in tileset.path_tiles} == STRAIGHTS | CURVES


def test_topology_follows_spec(tileset: TileSet) -> None:
    assert {t.number for t in tileset.path_tiles if t.shape == "straight"} == STRAIGHTS
    assert {t.number for t in tileset.path_tiles if t.shape == "curve"} == CURVES


def test_path_tiles_carry_six_to_twelve_squares(tileset: TileSet) -> None:
    for tile in tileset.path_tiles:
        assert 6 <= len(tile.squares) <= 12, tile.number


def test_start_tile_has_three_paths_on_different_squares_merging_into_one_exit(
    tileset: TileSet,
) -> None:
    start = tileset.start
    assert len(start.sources) == 3
    assert len(start.sinks) == 1
    assert start.sinks[0] == start.junctions[0].square


def test_every_bundled_tile_is_marked_as_a_reconstruction(tileset: TileSet) -> None:
    for tile in tileset.values():
        assert tile.reconstructed
        assert "reconstruct" in tile.provenance.lower()
        assert "RECONSTRUCTION" in Path(tile.source).read_text()


def test_terrain_costs_are_the_rulebooks() -> None:
    assert {t.value: t.cost for t in Terrain} == {"plain": 1, "woods": 2, "hills": 2, "swamp": 3}


def test_junctions_sit_in_the_middle_of_an_edge_in_every_rotation(tileset: TileSet) -> None:
    for tile in tileset.values():
        for rotation in (0, 90, 180, 270):
            for junction, side in zip(tile.junctions, tile.junction_sides(rotation), strict=True):
                column, row = tile.cell(junction.square, rotation)
                expected = {Side.N: (2, 0), Side.E: (4, 2), Side.S: (2, 4), Side.W: (0, 2)}
                assert (column, row) == expected[side]


def test_rotation_turns_clockwise(tileset: TileSet) -> None:
    curve = tileset[9]  # canonical: west to north
    assert set(curve.junction_sides(0)) == {Side.W, Side.N}
    assert set(curve.junction_sides(90)) == {Side.N, Side.E}
    assert set(curve.junction_sides(180)) == {Side.E, Side.S}
    assert set(curve.junction_sides(270)) == {Side.S, Side.W}


def test_a_path_tile_is_walked_backwards_when_entered_by_its_far_junction(
    tileset: TileSet,
) -> None:
    straight = tileset[7]
    forward = straight.traversal(0, Side.W)
    backward = straight.traversal(0, Side.E)
    assert not forward.reversed and backward.reversed
    assert backward.links == tuple((b, a) for a, b in forward.links)
    assert backward.entry is not None and backward.entry.side is Side.E


def test_installed_package_finds_its_tiles_outside_the_source_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert len(load_tileset()) == 10


# --- tile files: clear errors naming the file and the field ------------------------------


def _read(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text())


def _rewrite(path: Path, data: dict[str, Any]) -> None:
    path.write_text(tomli_w.dumps(data))


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (lambda d: d["squares"][2].update(terrain="lava"), "squares[2].terrain", "plain"),
        (lambda d: d["squares"][1].update(at=[9, 9]), "squares[1].at", "outside"),
        (lambda d: d["squares"][1].update(at=d["squares"][0]["at"]), "squares[1].at", "already"),
        (lambda d: d["squares"][1].update(id=d["squares"][0]["id"]), "squares[1].id", "twice"),
        (lambda d: d["paths"][0].append("zz"), "paths[0][7]", "no square"),
        (lambda d: d["junctions"][1].update(edge="S"), "junctions[1].square", "middle"),
        (lambda d: d["junctions"].pop(), "junctions", "2 junction"),
        (lambda d: d.pop("provenance"), "provenance", "missing"),
        (lambda d: d.update(colour="red"), "colour", "unknown field"),
        (lambda d: d["paths"][0].reverse() or d["paths"][0].insert(3, "1"), "paths", ""),
    ],
)
def test_a_broken_tile_file_names_file_field_and_problem(
    tile_folder: Path, change: Any, field: str, words: str
) -> None:
    path = tile_folder / "tile-07.toml"
    data = _read(path)
    change(data)
    _rewrite(path, data)
    with pytest.raises(TileFileError) as caught:
        load_tileset(tile_folder)
    assert caught.value.path == str(path)
    assert caught.value.field is not None and caught.value.field.startswith(field)
    assert words in str(caught.value)


def test_unreadable_toml_is_reported_with_its_file(tile_folder: Path) -> None:
    (tile_folder / "tile-03.toml").write_text("number = [unclosed")
    with pytest.raises(TileFileError, match="tile-03.toml: is not valid TOML"):
        load_tileset(tile_folder)


def test_a_set_without_a_finish_tile_is_refused(tile_folder: Path) -> None:
    (tile_folder / "tile-02.toml").unlink()
    with pytest.raises(TileFileError, match="exactly one finish tile"):
        load_tileset(tile_folder)


def test_two_files_with_one_number_are_refused(tile_folder: Path) -> None:
    (tile_folder / "tile-11.toml").write_text((tile_folder / "tile-07.toml").read_text())
    with pytest.raises(TileFileError, match="also defined"):
        load_tileset(tile_folder)


def test_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(TileFileError, match="not a folder"):
        load_tileset(tmp_path / "nowhere")


def test_a_custom_tile_with_a_branch_loads(tileset: TileSet) -> None:
    """The format allows branches: a short cut that leaves the path and rejoins it."""
    data = {
        "number": 11,
        "role": "path",
        "reconstructed": False,
        "provenance": "house rule",
        "squares": [
            {"id": "a", "terrain": "plain", "at": [0, 2]},
            {"id": "b", "terrain": "swamp", "at": [1, 2]},
            {"id": "c", "terrain": "plain", "at": [2, 2]},
            {"id": "d", "terrain": "plain", "at": [3, 2]},
            {"id": "e", "terrain": "plain", "at": [4, 2]},
            {"id": "u", "terrain": "plain", "at": [1, 1]},
            {"id": "v", "terrain": "plain", "at": [2, 1]},
        ],
        "paths": [["a", "b", "c", "d", "e"], ["b", "u", "v", "c"]],
        "junctions": [{"edge": "W", "square": "a"}, {"edge": "E", "square": "e"}],
    }
    tile = parse_tile(data, grid=5, source="custom.toml", square_schema=YummellSquare)
    assert tile.role is TileRole.PATH and tile.shape == "straight"
    assert ("b", "u") in tile.links and ("b", "c") in tile.links


# --- property: any corruption of a tile file is a TileFileError, never a crash -----------

_BASE = None


def _base_tile() -> dict[str, Any]:
    global _BASE
    if _BASE is None:
        _BASE = tomllib.loads((Path(load_tileset()[9].source)).read_text())
    return _BASE


_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 10),
    st.text(max_size=4),
    st.lists(st.integers(-2, 6), max_size=3),
    st.dictionaries(st.sampled_from(["id", "at", "edge", "x"]), st.integers(0, 4), max_size=2),
)


@st.composite
def _corrupted_tiles(draw: st.DrawFn) -> dict[str, Any]:
    data = tomllib.loads(tomli_w.dumps(_base_tile()))
    for _ in range(draw(st.integers(1, 3))):
        target = draw(st.sampled_from(["top", "square", "path", "junction"]))
        if target == "top":
            key = draw(st.sampled_from([*data.keys(), "extra"]))
            if draw(st.booleans()):
                data.pop(key, None)
            else:
                data[key] = draw(_values)
        elif target == "square" and isinstance(data.get("squares"), list) and data["squares"]:
            square = data["squares"][draw(st.integers(0, len(data["squares"]) - 1))]
            if isinstance(square, dict):
                square[draw(st.sampled_from(["id", "terrain", "at", "x"]))] = draw(_values)
        elif target == "path" and isinstance(data.get("paths"), list) and data["paths"]:
            path = data["paths"][0]
            if isinstance(path, list) and path:
                path[draw(st.integers(0, len(path) - 1))] = draw(st.sampled_from(["1", "5", "9"]))
        elif target == "junction" and isinstance(data.get("junctions"), list) and data["junctions"]:
            junction = data["junctions"][0]
            if isinstance(junction, dict):
                junction[draw(st.sampled_from(["edge", "square"]))] = draw(
                    st.sampled_from(["N", "E", "S", "W", "Q", "1", "9"])
                )
    return data


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_corrupted_tiles())
def test_a_corrupted_tile_loads_or_fails_with_a_located_error(data: dict[str, Any]) -> None:
    try:
        tile = parse_tile(data, grid=5, source="tile-09.toml", square_schema=YummellSquare)
    except TileFileError as error:
        assert str(error).startswith("tile-09.toml")
        assert error.problem
    else:
        # What loads is a usable tile: every square on a path, junctions on edges.
        assert tile.junctions and all(tile.square_by_id[j.square] for j in tile.junctions)
