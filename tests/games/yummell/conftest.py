"""Fixtures for race tests: hand-made boards and characters for the rulebook's examples."""

from __future__ import annotations

import numpy as np

from trackkit.games.yummell.core.content import TERRAINS, Effect
from trackkit.games.yummell.core.course import new_state
from trackkit.games.yummell.core.options import RaceOptions
from trackkit.games.yummell.core.state import Board, Deck, Players, Tally
from trackkit.games.yummell.core.terrain import Terrain

LETTER = {"P": "plain", "W": "woods", "H": "hills", "S": "swamp"}


def straight_board(squares: str) -> Board:
    """One route over squares given by terrain letters (P W H S); the last is the finish."""
    terrain = np.array([TERRAINS.index(LETTER[c]) for c in squares], dtype=np.int64)
    base = np.array([Terrain(LETTER[c]).cost for c in squares], dtype=np.int64)
    n = len(squares)
    suffix = np.append(np.cumsum(base[::-1])[::-1], 0).reshape(1, n + 1)
    return Board(
        route_nodes=np.arange(n, dtype=np.int64).reshape(1, n),
        route_len=np.array([n], dtype=np.int64),
        route_cost=np.array([base.sum()], dtype=np.int64),
        route_suffix=suffix.astype(np.int64),
        node_terrain=terrain,
        node_base=base,
        finish=n - 1,
    )


def character(
    strength: int = 5, ability: Effect = Effect.STEADY, terrain: int = -1, param: int = 0
) -> np.ndarray:
    """A character row: Strength, Agility, Sympathy, Magic, ability, its terrain, its value.

    The default ability (steady) does not touch movement or challenges.
    """
    return np.array([strength, 3, 3, 3, int(ability), terrain, param], dtype=np.int64)


def advantage(effect: Effect = Effect.STEADY, terrain: int = -1, param: int = 0) -> np.ndarray:
    return np.array([int(effect), terrain, param], dtype=np.int64)


HILLS = TERRAINS.index("hills")


def race_state(board: Board, players: int) -> tuple[Players, Deck, Tally]:
    """Players standing off the board on route 0, characters 0..n-1, advantages 0..n-1."""
    state = new_state(board, RaceOptions(players=players))
    state[0].route[:] = 0
    state[0].pos[:] = -1
    state[0].character[:] = np.arange(players)
    state[0].advantage[:] = np.arange(players)
    return state


def stand(board: Board, players: Players, tally: Tally, p: int, index: int) -> None:
    """Put character ``p`` on square ``index`` (keeping the occupancy count)."""
    players.pos[p] = index
    if index >= 0:
        tally.occupancy[board.route_nodes[0, index]] += 1
        tally.tolls[board.route_nodes[0, index]] += players.toll[p]
