"""The exact solver: an independent check, agreement with the simulator, the presets' order."""

from __future__ import annotations

import numpy as np
import pytest

from trackkit.presets import PRESET_SLUGS, load_preset
from trackkit.race.content import load_content
from trackkit.race.exact import exact_solo
from trackkit.race.montecarlo import simulate
from trackkit.race.setup import RaceOptions
from trackkit.track import Placement, Track

# a track with one start path worth checking by hand: start tile, one straight, finish
SHORT = Track("short", (Placement(1, 0, 1, 90), Placement(7, 1, 1, 0), Placement(2, 2, 1, 0)))


def _brute_force_no_encounters(track: Track, character: int, advantage: int) -> float:
    """An independent solution: a dense linear system over (square, hand of four)."""
    from itertools import combinations_with_replacement
    from math import factorial

    from trackkit.race.policies import greedy_route
    from trackkit.race.rules import terrain_cost
    from trackkit.race.setup import race_board

    content = load_content()
    board = race_board(track).board
    route = greedy_route(board)
    nodes = board.route_nodes[route, : board.route_len[route]]
    zeros = np.zeros(4, dtype=np.int64)
    cost = [
        terrain_cost(
            board.node_base[n],
            board.node_terrain[n],
            content.characters[character],
            content.advantages[advantage],
            zeros,
            zeros,
        )
        for n in nodes
    ]
    q = content.deck_numbers() / content.deck_numbers().sum()
    hands = list(combinations_with_replacement(range(1, 9), 4))
    squares = len(nodes)
    states = [(p, h) for p in range(-1, squares - 1) for h in hands]
    position = {s: i for i, s in enumerate(states)}
    matrix = np.eye(len(states))
    for (p, h), i in position.items():
        for n in range(1, 9):
            five = sorted((*h, n))
            mp, left = five[-1], tuple(five[:-1])
            end = p
            while end + 1 < squares and cost[end + 1] <= mp:
                mp -= cost[end + 1]
                end += 1
            if end < squares - 1:
                matrix[i, position[(end, left)]] -= q[n]
    values = np.linalg.solve(matrix, np.ones(len(states)))
    start = 0.0
    for h in hands:
        ways = factorial(4) / np.prod([factorial(h.count(k)) for k in set(h)])
        start += ways * np.prod([q[k] for k in h]) * values[position[(-1, h)]]
    return start


def test_agrees_with_a_dense_linear_solve() -> None:
    exact = exact_solo(SHORT, character=2, advantage=0, encounters=False)
    assert exact.expected_rounds == pytest.approx(_brute_force_no_encounters(SHORT, 2, 0), abs=1e-9)


@pytest.mark.parametrize("slug", ["first-run", "forest-run", "king-of-toads"])
@pytest.mark.parametrize("encounters", [False, True])
def test_the_simulator_agrees_within_four_standard_errors(slug: str, encounters: bool) -> None:
    track = load_preset(slug)
    exact = exact_solo(track, character="Flamm", advantage="Heroism", encounters=encounters)
    options = RaceOptions(
        players=1,
        deck="infinite",
        encounters=encounters,
        characters=("Flamm",),
        advantages=("Heroism",),
    )
    result = simulate(track, options, races=20_000, seed=17)
    assert abs(result.mean_rounds - exact.expected_rounds) < 4 * result.std_error


def test_dealt_at_random_is_the_average_over_every_pair() -> None:
    content = load_content()
    pairs = [
        exact_solo(SHORT, character=c, advantage=a).expected_rounds
        for c in range(len(content.character_names))
        for a in range(len(content.advantage_names))
    ]
    assert exact_solo(SHORT).expected_rounds == pytest.approx(np.mean(pairs))


def test_first_run_is_the_shortest_and_king_of_toads_the_longest() -> None:
    lengths = {slug: exact_solo(load_preset(slug)).expected_rounds for slug in PRESET_SLUGS}
    assert min(lengths, key=lengths.get) == "first-run"
    assert max(lengths, key=lengths.get) == "king-of-toads"


def test_a_result_says_what_it_covers() -> None:
    result = exact_solo(SHORT, character=0, advantage=0)
    assert "curses stack up to" in result.covers and result.states > 0
    assert result.to_json()["expected_rounds"] == result.expected_rounds
