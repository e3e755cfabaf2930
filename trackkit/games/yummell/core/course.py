"""Turning a track, game content and race options into the engine's arrays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from trackkit.errors import TrackkitError
from trackkit.games import tileset_of
from trackkit.games.tilekit.graph import TrackGraph, compose
from trackkit.games.tilekit.structure import check_structure
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.content import (
    TERRAIN_COUNT,
    TERRAINS,
)
from trackkit.games.yummell.core.options import (
    RaceOptions,
)
from trackkit.games.yummell.core.state import (
    LOG_FIELDS,
    MAX_ARTEFACTS,
    MAX_HAND,
    PLAN,
    PLAYER_FIELDS,
    RACE_STATS,
    STREAMS,
    UNPLANNED,
    Board,
    Deck,
    Players,
    Tally,
)


@dataclass(frozen=True)
class RaceBoard:
    """A valid track's square graph and the engine's :class:`Board` built from it."""

    composed: TrackGraph
    board: Board
    nodes: tuple[str, ...]  # square id of each node index
    routes: tuple[tuple[str, ...], ...]


def race_board(track: Track, composed: TrackGraph | None = None) -> RaceBoard:
    """The engine's view of ``track``, from ``composed``, the composition a check of every
    rule made (None: composed here, and refused unless structurally valid; the building
    rule does not matter to a race)."""
    problems = []
    if composed is None:
        tileset = tileset_of(track)
        composed = compose(track, tileset)
        problems = check_structure(track, tileset, composed)
    if problems:
        raise TrackkitError(
            f"track {track.name!r} cannot be raced: {len(problems)} problem(s), "
            f"first: {problems[0]}. Run `trackkit validate` for all of them."
        )
    nodes = tuple(composed.graph.nodes)
    index = {node: i for i, node in enumerate(nodes)}
    routes = [tuple(route) for route in composed.routes()]
    longest = max(len(r) for r in routes)
    route_nodes = np.full((len(routes), longest), -1, dtype=np.int64)
    suffix = np.zeros((len(routes), longest + 1), dtype=np.int64)
    cost = np.array([composed.graph.nodes[n]["cost"] for n in nodes], dtype=np.int64)
    for r, route in enumerate(routes):
        route_nodes[r, : len(route)] = [index[n] for n in route]
        costs = cost[route_nodes[r, : len(route)]]
        suffix[r, : len(route)] = np.cumsum(costs[::-1])[::-1]
    board = Board(
        route_nodes=route_nodes,
        route_len=np.array([len(r) for r in routes], dtype=np.int64),
        route_cost=suffix[:, 0].copy(),
        route_suffix=suffix,
        node_terrain=np.array(
            [TERRAINS.index(composed.graph.nodes[n]["terrain"]) for n in nodes], dtype=np.int64
        ),
        node_base=cost,
        finish=index[composed.finish],
    )
    return RaceBoard(composed, board, nodes, tuple(routes))


def new_state(
    board: Board, options: RaceOptions, *, log_rows: int = 0
) -> tuple[Players, Deck, Tally]:
    """Fresh arrays for ``options.players`` characters (dealt by the engine's ``deal``)."""
    n, cards = options.players, options.content.cards.shape[0]
    nodes = board.node_terrain.shape[0]

    def ints(*shape: int) -> np.ndarray:
        return np.zeros(shape, dtype=np.int64)

    players = Players(
        info=ints(n, PLAYER_FIELDS),
        hand=ints(n, MAX_HAND),
        active=ints(n, MAX_ARTEFACTS),
        pending=ints(n, MAX_ARTEFACTS),
        curse=ints(n, TERRAIN_COUNT),
    )
    players.policy[:] = options.policy_codes()
    players.budget[:] = options.budget
    players.info[:, PLAN] = UNPLANNED
    deck = Deck(pile=ints(cards), discard=ints(cards), counts=ints(3))
    deck.counts[2] = 1 if options.deck == "infinite" else 0
    dice = ints(STREAMS)  # each race starts its own (engine.deal)
    tally = Tally(
        occupancy=ints(nodes),
        tolls=ints(nodes),
        node_time=ints(nodes),
        node_bounce=ints(nodes),
        log=ints(log_rows, LOG_FIELDS),
        log_n=ints(1),
        dice=dice,
        clock=ints(1),
        race=ints(RACE_STATS + 1),
        order=ints(n),
        turn_delta=ints(TERRAIN_COUNT),
        pool=ints(max(options.content.characters.shape[0], options.content.advantages.shape[0])),
    )
    return players, deck, tally
