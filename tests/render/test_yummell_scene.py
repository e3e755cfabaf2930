"""A Yummell track's scene: what its picture and figure show, as shapes."""

from __future__ import annotations

from trackkit.games import get_ruleset, load_tileset
from trackkit.games.shapes import Circle, Polygon, Rectangle, Scene, Spot, Text
from trackkit.games.tilekit.graph import compose
from trackkit.games.tilekit.track import Placement, Track
from trackkit.games.yummell.core.presets import PRESET_SLUGS, load_preset
from trackkit.games.yummell.core.scene import TERRAIN_COLOURS, finish_label, track_scene
from trackkit.render.layout import square_name


def _of(scene: Scene, kind: type, group: str | None = None) -> list:  # type: ignore[type-arg]
    return [s for s in scene.shapes if isinstance(s, kind) and (group is None or s.group == group)]


def test_the_ruleset_draws_its_tracks_as_shapes() -> None:
    track = load_preset("first-run")
    assert get_ruleset("yummell").scene(track) == track_scene(track)


def test_one_box_and_one_cost_per_square_coloured_by_terrain() -> None:
    track = load_preset("king-of-toads")
    scene = track_scene(track)
    graph = compose(track, load_tileset()).graph
    boxes = {s.node: s for s in _of(scene, Rectangle, "square")}
    costs = {s.node: s for s in _of(scene, Text, "squares")}
    assert set(boxes) == set(costs) == set(scene.places) == set(graph.nodes)
    for node, data in graph.nodes(data=True):
        assert boxes[node].fill == TERRAIN_COLOURS[data["terrain"]]
        assert costs[node].text == str(data["cost"])
        assert costs[node].hover.endswith(f"{data['terrain']}, {data['cost']} MP")
        assert scene.places[node] == boxes[node].centre


def test_tiles_lie_on_their_table_cells_with_their_numbers() -> None:
    track = load_preset("first-run")
    scene = track_scene(track)
    tiles = _of(scene, Rectangle, "tile")
    assert len(tiles) == len(track.placements)
    for tile, placement in zip(tiles, track.placements, strict=True):
        assert abs(tile.left - placement.x * 5) < 0.1 and abs(tile.top - placement.y * 5) < 0.1
    numbers = [t.text for t in _of(scene, Text) if t.group is None]
    assert numbers == [str(p.tile) for p in track.placements]
    assert scene.bounds == (0.0, 0.0, 15.0, 10.0)
    # where each placed tile lies, for a page to outline one a problem names
    assert [(t.number, t.index, t.left, t.top, t.size) for t in scene.tiles] == [
        (p.tile, i, p.x * 5, p.y * 5, 5) for i, p in enumerate(track.placements)
    ]


def test_links_arrows_junctions_starts_and_finish() -> None:
    track = load_preset("forest-run")
    scene = track_scene(track)
    graph = compose(track, load_tileset()).graph
    arrows = [s for s in scene.shapes if getattr(s, "arrow", 0)]
    assert len(arrows) == graph.number_of_edges()
    # the start exit, the finish entry and two per path tile, each meeting its neighbour
    assert len(_of(scene, Polygon, "junction")) == 2 * (len(track.placements) - 1)
    assert [t.text for t in _of(scene, Text, "start")] == ["A", "B", "C"]
    assert [t.text for t in _of(scene, Text, "finish")] == ["FINISH"]
    assert len(_of(scene, Rectangle, "finish")) == 1


def test_the_legend_arrow_turns_with_the_tile() -> None:
    def arrow(rotation: int) -> tuple:  # type: ignore[type-arg]
        scene = track_scene(Track("t", (Placement(1, 0, 0, rotation),)))
        return next(s for s in _of(scene, Polygon) if s.group is None).points

    (tip, *_), turned = arrow(0), arrow(90)
    assert tip[1] < 0.55 - 0.5  # pointing up
    assert turned[0][0] > 0.55 + 0.5  # pointing right


def test_a_broken_track_still_draws_what_it_can() -> None:
    track = Track("t", (Placement(1, 0, 0), Placement(42, 0, -1), Placement(7, 3, 3, 45)))
    scene = track_scene(track)
    assert len(_of(scene, Rectangle, "tile")) == 1 and not _of(scene, Text, "finish")


def test_clickable_cells_are_spots_keyed_by_their_cell() -> None:
    scene = track_scene(
        load_preset("first-run"), clickable_cells=[(3, 0)], highlight_cells=[(3, 0)]
    )
    spots = _of(scene, Spot)
    assert len(spots) == 25 and {s.key for s in spots} == {(3, 0)}
    assert len(_of(scene, Rectangle, "highlight")) == 1
    assert scene.bounds[2] == 20.0  # widened to the cell
    assert not any(s.key for s in scene.shapes if not isinstance(s, Spot))


def test_the_finish_label_goes_where_no_square_lies() -> None:
    for slug in PRESET_SLUGS:
        scene = track_scene(load_preset(slug))
        frame = _of(scene, Rectangle, "finish")[0]
        fx, fy = frame.centre
        label = _of(scene, Text, "finish")[0]
        (x, y), side = finish_label((fx, fy), set(scene.places.values()))
        assert label.at == (x, y)
        dx, dy = side.offset
        assert (x - fx) * dx + (y - fy) * dy >= 0.5  # out past the square, on that side
        assert (round(fx + dx, 6), round(fy + dy, 6)) not in set(scene.places.values()), slug
    # Forest run's finish tile lies unturned: square 4 sits above the finish, so below
    scene = track_scene(load_preset("forest-run"))
    assert _of(scene, Text, "finish")[0].anchor == "middle"
    (fx, fy) = _of(scene, Rectangle, "finish")[0].centre
    assert _of(scene, Text, "finish")[0].at[1] > fy


def test_a_palette_thumbnail_is_the_tile_alone(tileset) -> None:  # type: ignore[no-untyped-def]
    tile = tileset[7]
    scene = track_scene(Track("Tile 7", (Placement(7, 0, 0, 90),)), palette=True)
    assert scene.bounds == (0.0, 0.0, 5.0, 5.0) and not scene.legend
    assert len(_of(scene, Text)) == len(tile.squares)
    assert len(_of(scene, Circle)) == len(tile.junctions)


def test_squares_are_named_as_players_say_them() -> None:
    assert square_name("10:3") == "tile 10 square 3"
    assert square_name("1:m2") == "tile 1 square m2"
