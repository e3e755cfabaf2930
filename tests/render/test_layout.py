"""The drawn scene: what a picture of a track shows."""

from __future__ import annotations

from trackkit.board.geometry import Side
from trackkit.board.graph import compose
from trackkit.board.track import Placement, Track
from trackkit.games import load_tileset
from trackkit.games.yummell.presets import PRESET_SLUGS, load_preset
from trackkit.render.layout import TERRAIN_COLOURS, build_scene, square_name


def test_one_box_per_square_coloured_by_terrain() -> None:
    track = load_preset("king-of-toads")
    scene = build_scene(track)
    graph = compose(track, load_tileset()).graph
    assert len(scene.squares) == graph.number_of_nodes()
    for square in scene.squares:
        assert square.colour == TERRAIN_COLOURS[square.terrain]
        assert square.cost == graph.nodes[square.id]["cost"]


def test_tiles_lie_on_their_table_cells() -> None:
    track = load_preset("first-run")
    scene = build_scene(track)
    assert [(t.number, t.cell) for t in scene.tiles] == [(p.tile, p.cell) for p in track.placements]
    for tile in scene.tiles:
        assert (tile.left, tile.top) == (tile.cell[0] * 5, tile.cell[1] * 5)
        # every square of the tile is drawn inside it
        for square in scene.squares:
            if square.tile == tile.number:
                assert tile.left < square.centre[0] < tile.left + 5
                assert tile.top < square.centre[1] < tile.top + 5


def test_junctions_sit_on_edges_and_meet_their_neighbours() -> None:
    scene = build_scene(load_preset("forest-run"))
    spots = [mark.at for mark in scene.junctions]
    for mark in scene.junctions:
        x, y = mark.at
        on_vertical_edge = mark.side in (Side.E, Side.W) and x % 5 == 0
        on_horizontal_edge = mark.side in (Side.N, Side.S) and y % 5 == 0
        assert on_vertical_edge or on_horizontal_edge
    # the start exit, the finish entry and two per path tile, each meeting its neighbour
    shared = [s for s in spots if spots.count(s) == 2]
    assert len(shared) == len(spots) == 2 * (len(scene.tiles) - 1)


def test_three_start_labels_and_a_finish() -> None:
    scene = build_scene(load_preset("horrgrups-path"))
    assert [label for label, _ in scene.starts] == ["A", "B", "C"]
    assert scene.finish is not None


def test_the_legend_arrow_turns_with_the_tile() -> None:
    track = Track("t", (Placement(1, 0, 0, 90),))
    assert build_scene(track).tiles[0].up is Side.E


def test_a_broken_track_still_draws_what_it_can() -> None:
    track = Track("t", (Placement(1, 0, 0), Placement(42, 0, -1), Placement(7, 3, 3, 45)))
    scene = build_scene(track)
    assert len(scene.tiles) == 1 and scene.finish is None


def test_the_finish_label_goes_where_no_square_lies() -> None:
    for slug in PRESET_SLUGS:
        scene = build_scene(load_preset(slug))
        assert scene.finish is not None and scene.finish_label is not None
        (x, y), side = scene.finish_label
        dx, dy = side.offset
        fx, fy = scene.finish
        assert (x - fx) * dx + (y - fy) * dy >= 0.5  # out past the square, on that side
        assert (fx + dx, fy + dy) not in {s.centre for s in scene.squares}, slug
    # Forest run's finish tile lies unturned: square 4 sits above the finish, so below
    scene = build_scene(load_preset("forest-run"))
    assert scene.finish_label is not None and scene.finish_label[1] is Side.S


def test_squares_are_named_as_players_say_them() -> None:
    assert square_name("10:3") == "tile 10 square 3"
    assert square_name("1:m2") == "tile 1 square m2"
