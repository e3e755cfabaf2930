"""The planning player: played turn by turn, a race is the race the engine plays; its
playouts weigh every option, do not peek at what it cannot see and draw nothing from the
race's own streams; the same seed gives the same races (compiled or not, on any number of
workers); a budget out of bounds is refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from trackkit.errors import TrackkitError
from trackkit.explore.ladder import skill_rungs
from trackkit.games.yummell.core.course import new_state, race_board
from trackkit.games.yummell.core.engine import deal
from trackkit.games.yummell.core.options import RaceOptions
from trackkit.games.yummell.core.planning import (
    C_BEGUN,
    C_ROUND,
    MAX_SHARE,
    SCREEN,
    new_scratch,
    plan_turn,
)
from trackkit.games.yummell.core.policies import LADDER, PLANS, POLICIES
from trackkit.games.yummell.core.presets import load_preset
from trackkit.games.yummell.core.ruleset import RULESET, play_batch
from trackkit.games.yummell.core.state import PLAN_STREAM, Setup, Tables
from trackkit.limits import CostLimitError
from trackkit.sim.montecarlo import simulate

FIRST_RUN = load_preset("first-run")
MIXED = ("planner", "smart", "smart")


def test_the_planner_is_the_ladders_top_rung_and_not_the_skill_figures() -> None:
    assert [r.policy for r in LADDER] == ["greedy", "smart", "planner"] and "planner" in POLICIES
    assert LADDER[-1].plans and not any(r.plans for r in LADDER[:-1])
    assert [r.policy for r in skill_rungs(RULESET)] == ["greedy", "smart"]


def test_played_turn_by_turn_a_race_is_the_engines_race() -> None:
    """The planning driver (stopping before each turn it would plan), on a table with no
    planner, plays exactly the races the engine plays in one go."""
    board = race_board(FIRST_RUN)
    for options in (RaceOptions(players=4, policy="smart"), RaceOptions(players=3)):
        engine = play_batch(board, options, seed=3, batch=0, races=300, planned=False)
        driver = play_batch(board, options, seed=3, batch=0, races=300, planned=True)
        assert np.array_equal(engine.rounds, driver.rounds)
        assert np.array_equal(engine.placing, driver.placing)
        for key, column in engine.tallies.items():
            assert np.array_equal(column, driver.tallies[key]), key


def test_a_planners_table_is_dealt_as_a_smart_table() -> None:
    """The planner draws from a stream of its own: the deals and the first round's turn
    order are those of the same table with a smart player in its seat."""
    smart = simulate(FIRST_RUN, RaceOptions(players=3, policy="smart"), races=200, seed=8)
    planner = simulate(
        FIRST_RUN, RaceOptions(players=3, policies=MIXED, budget=2), races=200, seed=8
    )
    for group in ("character", "advantage"):
        assert np.array_equal(smart.column(group), planner.column(group))
    assert not np.array_equal(smart.placing, planner.placing)  # and it plays otherwise


def test_same_seed_same_races_on_any_number_of_workers() -> None:
    options = RaceOptions(players=3, policies=MIXED, budget=2)
    one = simulate(FIRST_RUN, options, races=1100, seed=5, workers=1)
    again = simulate(FIRST_RUN, options, races=1100, seed=5, workers=1)
    two = simulate(FIRST_RUN, options, races=1100, seed=5, workers=2)
    other = simulate(FIRST_RUN, options, races=1100, seed=6, workers=1)
    for same in (again, two):
        assert np.array_equal(one.rounds, same.rounds)
        assert np.array_equal(one.placing, same.placing)
    assert not np.array_equal(one.placing, other.placing)


def _dealt(pile_order: int = 0, swap: bool = False, budget: int = 6):
    """A first-run table of three dealt race 0 of seed 1, the planner (player 0) to play
    first in round 1; ``pile_order`` reshuffles the draw pile, ``swap`` trades a rival's
    hand with the top of the pile: what the planner cannot see, in other places."""
    options = RaceOptions(players=3, policies=MIXED, budget=budget)
    board = race_board(FIRST_RUN).board
    players, deck, tally = new_state(board, options)
    content = options.content
    tables = Tables(content.cards, content.characters, content.advantages, options.rule_codes())
    setup = Setup(
        options.character_indices(),
        options.advantage_indices(),
        options.route_codes(board.route_len.shape[0]),
        True,
    )
    deal(players, deck, tally, tables, setup, board.route_len.shape[0], np.uint64(12345))
    if pile_order:
        rng = np.random.default_rng(pile_order)
        deck.pile[: deck.counts[0]] = rng.permutation(deck.pile[: deck.counts[0]])
    if swap:
        top = deck.counts[0] - 4
        held = players.hand[1, :4].copy()
        players.hand[1, :4] = deck.pile[top : top + 4]
        deck.pile[top : top + 4] = held
    scratch = new_scratch(players, deck, tally, options.budget)
    tally.order[:] = [0, 1, 2]
    scratch.cursor[C_ROUND], scratch.cursor[C_BEGUN] = 1, 1
    return board, players, deck, tally, tables, scratch


def _plan(pile_order: int = 0, swap: bool = False) -> tuple[int, list[list[int]]]:
    """What the planner plans on :func:`_dealt`'s table, and its playouts' worths; the
    race's state is as it was, but for the planner's own stream."""
    board, players, deck, tally, tables, scratch = _dealt(pile_order, swap)
    before = [a.copy() for a in (*players, *deck, tally.order, tally.occupancy, tally.clock)]
    dice = tally.dice.copy()
    plan = plan_turn(0, board, players, deck, tally, tables, True, scratch)
    after = (*players, *deck, tally.order, tally.occupancy, tally.clock)
    for i, (a, b) in enumerate(zip(before, after, strict=True)):
        assert np.array_equal(a, b), f"planning changed the race's state array {i}"
    assert np.array_equal(dice[:PLAN_STREAM], tally.dice[:PLAN_STREAM])
    assert not np.array_equal(dice[PLAN_STREAM:], tally.dice[PLAN_STREAM:])
    return int(plan), scratch.worth.tolist()


def test_its_playouts_weigh_every_option_and_change_nothing_of_the_race() -> None:
    plan, worth = _plan()
    assert len(worth) == PLANS and all(len(row) == MAX_SHARE * 6 for row in worth)
    assert len({tuple(row) for row in worth}) > 1  # the options' playouts differ
    assert -2 <= plan < PLANS - 1


def test_options_that_play_as_the_smart_turn_leave_the_running_and_the_rest_play_on() -> None:
    """Past SCREEN guesses, an option with the smart turn's worth in every playout is
    dropped, and the options left share the playouts the dropped ones did not spend."""
    budget = 2 * SCREEN
    board, players, deck, tally, tables, scratch = _dealt(budget=budget)
    plan_turn(0, board, players, deck, tally, tables, True, scratch)
    worth, alive = scratch.worth, scratch.alive
    assert alive[0] == 1
    same = [o for o in range(1, PLANS) if np.array_equal(worth[o, :SCREEN], worth[0, :SCREEN])]
    assert same and all(alive[o] == 0 for o in same)
    left = [o for o in range(PLANS) if alive[o]]
    assert len(left) > 1 and np.any(worth[left, budget:] != 0)  # more guesses than budget
    assert not np.any(worth[same, SCREEN:])  # played no further


def test_it_does_not_peek_at_the_pile_or_its_rivals_hands() -> None:
    """The unseen cards in another order, or a rival's hand swapped with the pile's top:
    the same playouts; its own hand is known, so another hand gives other playouts."""
    first = _plan()
    assert _plan(pile_order=7) == first
    assert _plan(swap=True) == first


def test_a_budget_out_of_bounds_is_refused() -> None:
    for budget, says in (
        (0, "1 playout"),
        (-3, "1 playout"),
        (True, "whole number"),
        ("8", "whole number"),
    ):
        with pytest.raises(TrackkitError, match=says):
            RaceOptions(players=3, budget=budget)
    with pytest.raises(CostLimitError, match="budget"):
        RaceOptions(players=3, budget=257)


@pytest.mark.slow  # a process of its own, interpreted: about 3 s
def test_compiled_and_interpreted_planners_play_the_same_race() -> None:
    options = RaceOptions(players=2, policies=("planner", "smart"), budget=1)
    compiled = simulate(FIRST_RUN, options, races=2, seed=4)
    code = (
        "import json; from trackkit.games.yummell.core.presets import load_preset; "
        "from trackkit.games.yummell.core.options import RaceOptions; "
        "from trackkit.sim.montecarlo import simulate; "
        "r = simulate(load_preset('first-run'), RaceOptions(players=2, "
        "policies=('planner', 'smart'), budget=1), races=2, seed=4); "
        "print(json.dumps([r.rounds.tolist(), r.placing.tolist()]))"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out) == [compiled.rounds.tolist(), compiled.placing.tolist()]
