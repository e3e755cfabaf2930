"""Composing a track into one graph of squares."""

from __future__ import annotations

from itertools import islice

import networkx as nx
from hypothesis import given
from hypothesis import strategies as st

from trackkit.games.tilekit.graph import compose, simple_paths
from trackkit.games.tilekit.tiles import TileSet
from trackkit.games.tilekit.track import Placement, Track
from trackkit.games.yummell.core.presets import PRESET_SLUGS, load_preset
from trackkit.games.yummell.core.terrain import route_cost


def test_every_square_of_every_tile_is_a_node(tileset: TileSet) -> None:
    track = load_preset("king-of-toads")
    graph = compose(track, tileset).graph
    assert graph.number_of_nodes() == sum(len(tileset[t].squares) for t in track.tiles)


def test_the_graph_runs_from_three_start_squares_to_the_finish(tileset: TileSet) -> None:
    composed = compose(load_preset("forest-run"), tileset)
    graph = composed.graph
    assert composed.start_squares == ("1:a1", "1:b1", "1:c1")
    assert composed.finish == "2:5"
    assert nx.is_directed_acyclic_graph(graph)
    assert [n for n in graph if graph.in_degree(n) == 0] == list(composed.start_squares)
    assert [n for n in graph if graph.out_degree(n) == 0] == [composed.finish]


def test_tiles_are_linked_junction_to_junction_in_placing_order(tileset: TileSet) -> None:
    track = load_preset("first-run")
    graph = compose(track, tileset).graph
    crossings = [(a, b) for a, b in graph.edges if graph.nodes[a]["tile"] != graph.nodes[b]["tile"]]
    order = {tile: i for i, tile in enumerate(track.tiles)}
    assert len(crossings) == len(track.placements) - 1
    for a, b in crossings:
        assert order[graph.nodes[b]["tile"]] == order[graph.nodes[a]["tile"]] + 1
        # the two junction squares are neighbours on the table
        (ax, ay), (bx, by) = graph.nodes[a]["cell"], graph.nodes[b]["cell"]
        assert abs(ax - bx) + abs(ay - by) == 1


def test_consecutive_squares_are_neighbours_on_the_table(tileset: TileSet) -> None:
    for slug in PRESET_SLUGS:
        graph = compose(load_preset(slug), tileset).graph
        for a, b in graph.edges:
            (ax, ay), (bx, by) = graph.nodes[a]["cell"], graph.nodes[b]["cell"]
            assert abs(ax - bx) + abs(ay - by) == 1, (slug, a, b)


def test_a_straight_turned_round_is_walked_backwards(tileset: TileSet) -> None:
    start = Placement(1, 0, 1, 90)  # exit to the east
    forward = Track("f", (start, Placement(7, 1, 1, 0), Placement(2, 2, 1, 0)))
    backward = Track("b", (start, Placement(7, 1, 1, 180), Placement(2, 2, 1, 0)))
    route_f = compose(forward, tileset).routes()[0]
    route_b = compose(backward, tileset).routes()[0]
    on_7 = lambda route: [s for s in route if s.startswith("7:")]  # noqa: E731
    assert on_7(route_f) == [f"7:{i}" for i in range(1, 8)]
    assert on_7(route_b) == [f"7:{i}" for i in range(7, 0, -1)]


def test_square_attributes(tileset: TileSet) -> None:
    graph = compose(load_preset("first-run"), tileset).graph
    node = graph.nodes["10:7"]
    assert node["terrain"] == "swamp" and node["cost"] == 3 and node["tile"] == 10
    assert node["placement"] == 1


def test_routes_follow_each_start_path(tileset: TileSet) -> None:
    composed = compose(load_preset("horrgrups-path"), tileset)
    routes = composed.routes()
    assert [r[0] for r in routes] == list(composed.start_squares)
    assert all(r[-1] == composed.finish for r in routes)
    assert all(
        route_cost(composed, r) == sum(composed.graph.nodes[s]["cost"] for s in r) for r in routes
    )


def test_json_lists_squares_with_successors(tileset: TileSet) -> None:
    data = compose(load_preset("first-run"), tileset).to_json()
    by_id = {s["id"]: s for s in data["squares"]}
    assert data["start"] == ["1:a1", "1:b1", "1:c1"]
    assert by_id[data["finish"]]["next"] == []
    assert by_id["1:m2"]["next"] == ["10:1"]
    assert {"id", "tile", "terrain", "cost", "next"} <= set(by_id["1:a1"])


def test_composition_of_a_broken_track_does_not_fail(tileset: TileSet) -> None:
    track = Track("b", (Placement(1, 0, 0), Placement(42, 0, -1), Placement(7, 5, 5, 45)))
    composed = compose(track, tileset)
    assert composed.graph.number_of_nodes() == len(tileset[1].squares)
    assert composed.finish is None and composed.routes() == []


@given(
    edges=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=30),
    source=st.integers(0, 7),
    target=st.integers(0, 7),
    limit=st.integers(1, 6),
)
def test_simple_paths_are_networkx_s(
    edges: list[tuple[int, int]], source: int, target: int, limit: int
) -> None:
    # the same paths in the same order as networkx's, on any graph (cycles, branches,
    # loops, a source with no way out), the first ``limit`` of them
    graph = nx.DiGraph()
    graph.add_nodes_from(range(8))
    graph.add_edges_from(edges)
    expected = list(islice(nx.all_simple_paths(graph, source, target), limit))
    assert simple_paths(graph, source, target, limit) == expected  # type: ignore[arg-type]
