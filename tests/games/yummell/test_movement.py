"""Movement along a route (rulebook pp. 5-6, SPEC.md §1 and §4): where MP carry a character,
where it lands after falling back off a full square, and who is nearest the finish.

The rulebook's worked examples from a square are in test_rules.py (``furthest``); here they
are played through ``landing``, which the engine and the policies use, from the off-board
start and onto full squares.
"""

from __future__ import annotations

import numpy as np
from conftest import HILLS, advantage, character, race_state, stand, straight_board

from trackkit.games.yummell.core.content import Effect
from trackkit.games.yummell.core.movement import furthest, landing, leader, node_of, remaining
from trackkit.games.yummell.core.state import Board, Players, Tables, Tally

NO_CARDS = np.zeros((0, 8), dtype=np.int64)  # movement reads no card


def _board(squares: str, n: int) -> tuple[Board, Players, Tally, np.ndarray, np.ndarray]:
    board = straight_board(squares)
    players, _, tally = race_state(board, n)
    return board, players, tally, np.array([character()] * n), np.array([advantage()] * n)


def _land(squares: str, mp: int, at: int = -1, crowd: dict[int, int] | None = None) -> int:
    """Where character 0, standing on ``at`` (-1: off the board), lands with ``mp`` MP."""
    count = 1 + sum((crowd or {}).values())
    board, players, tally, characters, advantages = _board(squares, count)
    stand(board, players, tally, 0, at)
    q = 1
    for index, n in (crowd or {}).items():
        for _ in range(n):
            stand(board, players, tally, q, index)
            q += 1
    return landing(board, players, tally, Tables(NO_CARDS, characters, advantages), 0, 0, mp)


def test_the_first_move_enters_the_first_square_of_the_start_path() -> None:
    # §4: characters start off the board; A→C over two hills from there is 1 + 2 + 2
    assert _land("PHHPPP", 0) == -1
    assert _land("PHHPPP", 1) == 0
    assert _land("PHHPPP", 4) == 1
    assert _land("PHHPPP", 5) == 2


def test_unused_mp_are_lost_when_the_next_square_is_too_dear() -> None:
    # the 2 MP left in front of the swamp do not carry it to the plain behind the swamp
    assert _land("PPSPPP", 3, at=0) == 1
    assert _land("PPSPPP", 4, at=0) == 2
    assert _land("PSPPPP", 2, at=0) == 0


def test_ending_on_a_square_holding_two_falls_back_to_the_first_that_can_host() -> None:
    crowd = {3: 2, 2: 1}  # two on square 3, one on square 2
    # 1 (square 1) + 2 (square 2, one there) + 3 (square 3, two there)
    assert _land("PPPPPPP", 5, at=0, crowd=crowd) == 2
    assert _land("PPPPPPP", 6, at=0, crowd=crowd) == 2  # reaches 3, cannot stay there
    assert _land("PPPPPPP", 7, at=0, crowd=crowd) == 4  # passes through it
    assert _land("PPPPPPP", 6, at=0, crowd={3: 2, 2: 2, 1: 2}) == 0  # every square full


def test_the_mover_does_not_crowd_its_own_square() -> None:
    # two on square 1, the mover one of them: a hill it cannot pay for leaves it there
    assert _land("PPHPPP", 1, at=1, crowd={1: 1}) == 1


def test_flamm_passes_a_full_square_for_free_but_cannot_end_on_it() -> None:
    board, players, tally, characters, advantages = _board("PPPPPP", 3)
    characters[0] = character(ability=Effect.FLUTTERING)
    stand(board, players, tally, 0, 0)
    stand(board, players, tally, 1, 2)
    stand(board, players, tally, 2, 2)
    args = (board, players, tally, Tables(NO_CARDS, characters, advantages), 0, 0)
    assert furthest(*args, 0, 2) == 2  # no company cost
    assert landing(*args, 2) == 1
    assert landing(*args, 3) == 3


def test_the_finish_hosts_anyone_and_finishers_add_no_cost() -> None:
    board, players, tally, characters, advantages = _board("PPPP", 4)
    for q in (1, 2, 3):
        stand(board, players, tally, q, 3)
        players.arrival[q] = q
    stand(board, players, tally, 0, 1)
    assert landing(board, players, tally, Tables(NO_CARDS, characters, advantages), 0, 0, 2) == 3


def test_events_and_curses_change_the_price_of_every_square_on_the_way() -> None:
    board, players, tally, characters, advantages = _board("PHHPPP", 2)
    stand(board, players, tally, 0, 0)
    stand(board, players, tally, 1, 0)
    tables = Tables(NO_CARDS, characters, advantages)
    tally.turn_delta[HILLS] = -1  # Hill Guide: hills cost 1 this turn
    assert landing(board, players, tally, tables, 0, 0, 2) == 2
    tally.turn_delta[HILLS] = 0
    players.curse[0, HILLS] = 1  # Mushroom Curse on character 0 only
    assert landing(board, players, tally, tables, 0, 0, 5) == 1
    assert landing(board, players, tally, tables, 0, 0, 6) == 2
    assert landing(board, players, tally, tables, 1, 0, 4) == 2


def _two_routes() -> Board:
    """Start paths 0-1-2 and 3-4 merging on square 5; 6 is the finish."""
    return Board(
        route_nodes=np.array([[0, 1, 2, 5, 6], [3, 4, 5, 6, -1]], dtype=np.int64),
        route_len=np.array([5, 4], dtype=np.int64),
        route_cost=np.array([5, 4], dtype=np.int64),
        route_suffix=np.array([[5, 4, 3, 2, 1, 0], [4, 3, 2, 1, 0, 0]], dtype=np.int64),
        node_terrain=np.zeros(7, dtype=np.int64),
        node_base=np.ones(7, dtype=np.int64),
        finish=6,
    )


def test_squares_to_go_and_the_square_stood_on_follow_the_start_path() -> None:
    board = _two_routes()
    players, _, _ = race_state(board, 4)
    players.route[:] = [-1, 0, 1, 1]
    players.pos[:] = [-1, 1, 1, 3]
    assert [remaining(board, players, p) for p in range(4)] == [5, 3, 2, 0]
    assert [node_of(board, players, p) for p in range(4)] == [-1, 1, 4, 6]


def test_the_leader_is_the_rival_still_racing_with_the_fewest_squares_to_go() -> None:
    board = straight_board("PPPPPPP")
    players, _, _ = race_state(board, 4)
    players.pos[:] = [5, 2, 3, 6]
    players.arrival[3] = 1  # finished: out of play
    assert leader(0, board, players) == 2
    assert leader(2, board, players) == 0
    players.pos[1] = 3
    assert leader(0, board, players) == 1  # the first of equals
    players.arrival[1:3] = [2, 3]
    assert leader(0, board, players) == -1
    solo, _, _ = race_state(board, 1)
    assert leader(0, board, solo) == -1
