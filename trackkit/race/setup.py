"""Turning a track, game content and race options into the engine's arrays."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from trackkit.errors import TrackkitError
from trackkit.graph import TrackGraph, compose
from trackkit.race.content import TERRAINS, Content, load_content
from trackkit.race.policies import POLICIES
from trackkit.race.state import (
    LOG_FIELDS,
    MAX_ARTEFACTS,
    MAX_HAND,
    RANDOM_BUFFER,
    Board,
    Deck,
    Players,
    Tally,
)
from trackkit.track import Track
from trackkit.validate import validate

MAX_PLAYERS = 8
DeckModel = Literal["finite", "infinite"]


@dataclass(frozen=True)
class RaceOptions:
    """What kind of race to play.

    ``characters`` and ``advantages`` name one per player (names from the content files,
    or their 0-based indices), or are empty to deal them at random every race.
    ``policies`` gives each player its own policy (one per player), overriding ``policy``.
    """

    players: int = 5
    characters: tuple[str | int, ...] = ()
    advantages: tuple[str | int, ...] = ()
    deck: DeckModel = "finite"
    encounters: bool = True
    policy: str = "greedy"
    policies: tuple[str, ...] = ()
    content: Content = field(default_factory=load_content, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not 1 <= self.players <= MAX_PLAYERS:
            raise TrackkitError(f"a race has 1 to {MAX_PLAYERS} players, not {self.players}")
        if self.deck not in ("finite", "infinite"):
            raise TrackkitError(f"the deck model is 'finite' or 'infinite', not {self.deck!r}")
        for policy in (self.policy, *self.policies):
            if policy not in POLICIES:
                raise TrackkitError(
                    f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}"
                )
        if self.policies and len(self.policies) != self.players:
            raise TrackkitError(
                f"{len(self.policies)} policies given for {self.players} players; give one each"
            )
        for kind, chosen, names in (
            ("characters", self.characters, self.content.character_names),
            ("advantages", self.advantages, self.content.advantage_names),
        ):
            if chosen and len(chosen) != self.players:
                raise TrackkitError(
                    f"{len(chosen)} {kind} given for {self.players} players; give one each "
                    "or none to deal them at random"
                )
            if self.players > len(names):
                raise TrackkitError(
                    f"the content has {len(names)} {kind} for {self.players} players"
                )
            indices = [_index(kind, item, names) for item in chosen]
            if len(set(indices)) != len(indices):
                raise TrackkitError(f"each player needs different {kind}; {list(chosen)} repeats")

    def policy_codes(self) -> np.ndarray:
        chosen = self.policies or (self.policy,) * self.players
        return np.array([POLICIES[p] for p in chosen], dtype=np.int64)

    def character_indices(self) -> np.ndarray:
        names = self.content.character_names
        return _indices("characters", self.characters, names, self.players)

    def advantage_indices(self) -> np.ndarray:
        names = self.content.advantage_names
        return _indices("advantages", self.advantages, names, self.players)


def _index(kind: str, item: str | int, names: tuple[str, ...]) -> int:
    if isinstance(item, int) and 0 <= item < len(names):
        return item
    if isinstance(item, str):
        for i, name in enumerate(names):
            if name.lower() == item.lower() or name.lower().startswith(item.lower()):
                return i
    raise TrackkitError(f"unknown {kind[:-1]} {item!r}; the {kind} are: {', '.join(names)}")


def _indices(
    kind: str, chosen: tuple[str | int, ...], names: tuple[str, ...], n: int
) -> np.ndarray:
    if not chosen:
        return np.full(n, -1, dtype=np.int64)
    return np.array([_index(kind, item, names) for item in chosen], dtype=np.int64)


@dataclass(frozen=True)
class RaceBoard:
    """A valid track's square graph and the engine's :class:`Board` built from it."""

    composed: TrackGraph
    board: Board
    nodes: tuple[str, ...]  # square id of each node index
    routes: tuple[tuple[str, ...], ...]


def race_board(track: Track) -> RaceBoard:
    """The engine's view of ``track``; refuses a track that is not structurally valid."""
    report = validate(track)
    if not report.ok:
        first = report.problems[0]
        raise TrackkitError(
            f"track {track.name!r} cannot be raced: {len(report.problems)} problem(s), "
            f"first: {first}. Run `trackkit validate` for all of them."
        )
    composed = compose(track)
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
        character=ints(n),
        advantage=ints(n),
        policy=options.policy_codes(),
        route=ints(n),
        pos=ints(n),
        arrival=ints(n),
        hand=ints(n, MAX_HAND),
        hand_n=ints(n),
        active=ints(n, MAX_ARTEFACTS),
        active_n=ints(n),
        pending=ints(n, MAX_ARTEFACTS),
        pending_n=ints(n),
        curse=ints(n, 4),
        toll=ints(n),
        order_pos=ints(n),
    )
    deck = Deck(pile=ints(cards), discard=ints(cards), counts=ints(3))
    deck.counts[2] = 1 if options.deck == "infinite" else 0
    dice = ints(RANDOM_BUFFER + 1)
    dice[RANDOM_BUFFER] = RANDOM_BUFFER  # empty: the first draw fills the buffer
    tally = Tally(
        occupancy=ints(nodes),
        tolls=ints(nodes),
        node_time=ints(nodes),
        node_bounce=ints(nodes),
        log=ints(log_rows, LOG_FIELDS),
        log_n=ints(1),
        dice=dice,
    )
    return players, deck, tally
