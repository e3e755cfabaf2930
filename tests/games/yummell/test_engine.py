"""The race engine: reproducible, one implementation, and the rules hold in every race.

Whole races are checked through their records: every row the engine writes is replayed
and the rules that must hold after it are asserted (capacity, encounters only after
advancing, none after finishing, challenge outcomes, placings).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from conftest import race_state, stand, straight_board

from trackkit.games.yummell.core.engine import placings
from trackkit.games.yummell.core.options import RaceOptions
from trackkit.games.yummell.core.presets import load_preset
from trackkit.games.yummell.core.record import RaceRecord, record_race
from trackkit.games.yummell.core.state import Board
from trackkit.sim.montecarlo import simulate


def test_same_seed_same_races_different_seed_different_races() -> None:
    track = load_preset("forest-run")
    a = simulate(track, RaceOptions(players=4), races=600, seed=11)
    b = simulate(track, RaceOptions(players=4), races=600, seed=11)
    c = simulate(track, RaceOptions(players=4), races=600, seed=12)
    assert np.array_equal(a.rounds, b.rounds) and np.array_equal(a.placing, b.placing)
    assert not np.array_equal(a.rounds, c.rounds)


def test_any_number_of_workers_gives_the_same_numbers() -> None:
    track = load_preset("horrgrups-path")
    one = simulate(track, RaceOptions(players=5), races=1100, seed=5, workers=1)
    two = simulate(track, RaceOptions(players=5), races=1100, seed=5, workers=2)
    three = simulate(track, RaceOptions(players=5), races=1100, seed=5, workers=3)
    for other in (two, three):
        assert np.array_equal(one.rounds, other.rounds)
        assert np.array_equal(one.placing, other.placing)
        assert np.array_equal(one.node_count("time"), other.node_count("time"))


@pytest.mark.slow  # trackkit in a process of its own (the conformance suite's workers stay quick): about 3 s
def test_another_process_gives_the_same_numbers() -> None:
    track = load_preset("first-run")
    here = simulate(track, RaceOptions(players=3), races=700, seed=9)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "trackkit.cli",
            "simulate",
            "first-run",
            "--players",
            "3",
            "--races",
            "700",
            "--seed",
            "9",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    there = json.loads(out)
    assert there["mean_rounds"] == here.mean_rounds
    assert there["rounds_histogram"] == {str(k): v for k, v in here.histogram().items()}


@pytest.mark.slow  # smart racers as plain Python (the conformance suite's check stays quick): about 2 s
def test_compiled_and_plain_python_play_the_same_race() -> None:
    """One implementation: with numba's JIT disabled the same code plays the same race."""
    options = RaceOptions(players=4, policy="smart")
    compiled = record_race(load_preset("first-run"), options, seed=4).to_json()
    code = (
        "import json; from trackkit.games.yummell.core.presets import load_preset; "
        "from trackkit.games.yummell.core.record import record_race; from trackkit.games.yummell.core.course import RaceOptions; "
        "print(json.dumps(record_race(load_preset('first-run'), "
        "RaceOptions(players=4, policy='smart'), seed=4).to_json()))"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out) == compiled


def test_the_recorded_race_is_race_zero_of_the_simulation() -> None:
    track = load_preset("king-of-toads")
    options = RaceOptions(players=5)
    record = record_race(track, options, seed=21)
    result = simulate(track, options, races=3, seed=21)
    assert record.rounds == result.rounds[0]
    assert list(record.placings) == list(result.placing[0])


# --- the rules hold in every recorded race ----------------------------------------------


def _replay(record: RaceRecord, finish: str) -> None:
    """Walk the record and assert the rules after every step."""
    where = ["start"] * len(record.characters)
    moved_ahead: dict[int, int] = {}  # player -> round it last advanced in
    finished: list[int] = []
    first_finish_round = None
    for step in record.steps:
        p = step.player
        assert p not in finished, f"{step.text}: a finished character is out of play"
        if step.action == "move":
            if step.square_to != step.square_from and step.square_from is not None:
                moved_ahead[p] = step.round
            where[p] = step.square_to
        elif step.action in ("challenge", "artefact", "event"):
            assert moved_ahead.get(p) == step.round, f"{step.text}: encounter without advancing"
            assert step.square_from != finish, "no encounter on the last square"
            where[p] = step.square_to
            if step.action == "challenge" and "loses" in step.text:
                assert step.square_to != step.square_from or step.square_from == "start"
        elif step.action == "steal":
            assert step.square_from == where[p], f"{step.text}: stolen where it stands"
        elif step.action == "play-event":
            assert step.target is not None
            where[step.target] = step.square_to
        elif step.action == "finish":
            finished.append(p)
            first_finish_round = first_finish_round or step.round
            where[p] = finish
        crowd = Counter(s for s in where if s not in ("start", finish))
        assert max(crowd.values(), default=0) <= 2, f"{step.text}: three on a square"
    assert first_finish_round == record.rounds
    for place, p in enumerate(finished, 1):
        assert record.placings[p] == place


@pytest.mark.parametrize("policy", ["greedy", "smart"])
@pytest.mark.parametrize("deck", ["finite", "infinite"])
def test_rules_hold_through_whole_races(policy: str, deck: str) -> None:
    track = load_preset("king-of-toads")
    options = RaceOptions(players=8, policy=policy, deck=deck)
    finish = "2:5"
    actions: Counter[str] = Counter()
    for seed in range(12):
        record = record_race(track, options, seed=seed)
        _replay(record, finish)
        actions.update(step.action for step in record.steps)
    assert actions["challenge"] and actions["event"] and actions["artefact"]
    assert actions["fall-back"], "eight characters on one track must crowd some square"
    if policy == "greedy":
        assert not actions["rest"] and not actions["play-event"] and not actions["use-artefact"]
    else:
        assert actions["play-event"] and actions["activate"]


def test_smart_players_rest_to_lift_curses() -> None:
    options = RaceOptions(players=6, policy="smart")
    lifted = [
        step
        for seed in range(40)
        for step in record_race(load_preset("king-of-toads"), options, seed=seed).steps
        if step.action == "rest" and "lifting curses" in step.text
    ]
    assert lifted


def test_no_encounters_means_none() -> None:
    record = record_race(
        load_preset("forest-run"), RaceOptions(players=4, encounters=False), seed=3
    )
    assert not {"challenge", "event", "artefact"} & {s.action for s in record.steps}


def test_two_characters_on_one_square_tie_and_finishers_rank_by_arrival() -> None:
    board = straight_board("PPPPPP")
    players, _, tally = race_state(board, 5)
    stand(board, players, tally, 0, 5)
    players.arrival[0] = 2
    stand(board, players, tally, 1, 5)
    players.arrival[1] = 1
    stand(board, players, tally, 2, 3)
    stand(board, players, tally, 3, 3)
    stand(board, players, tally, 4, 1)
    out = np.zeros(5, dtype=np.int64)
    placings(board, players, out)
    assert list(out) == [2, 1, 3, 3, 5]


def _two_start_paths() -> Board:
    """Two start paths of three squares each (0-1-2 and 3-4-5) merging on 6, finish 7."""
    nodes = np.array([[0, 1, 2, 6, 7], [3, 4, 5, 6, 7]], dtype=np.int64)
    base = np.ones(8, dtype=np.int64)
    return Board(
        route_nodes=nodes,
        route_len=np.array([5, 5], dtype=np.int64),
        route_cost=np.array([5, 5], dtype=np.int64),
        route_suffix=np.array([[5, 4, 3, 2, 1, 0]] * 2, dtype=np.int64),
        node_terrain=np.zeros(8, dtype=np.int64),
        node_base=base,
        finish=7,
    )


def test_a_draw_only_on_the_same_square() -> None:
    # p. 7: "Should two characters be side by side in the same square, it will be considered
    # a draw." Two characters as far from the finish on different start paths do not tie:
    # the one that reached its square first is ahead.
    board = _two_start_paths()
    players, _, _ = race_state(board, 4)
    players.route[:] = [0, 1, 0, 1]
    players.pos[:] = [1, 1, 3, -1]  # 0 and 1: squares 1 and 4, three to go each
    players.reached[:] = [7, 5, 9, 0]
    players.pos[2] = 3  # 2 on the merged square 6
    out = np.zeros(4, dtype=np.int64)
    placings(board, players, out)
    assert list(out) == [3, 2, 1, 4]
    players.route[2], players.pos[2] = 1, 1  # 2 joins 1 on square 4: a draw between them
    players.reached[2] = 9
    placings(board, players, out)
    assert list(out) == [3, 1, 1, 4]


# --- what a race counts (its tallies), recounted from its log ----------------------------


def _recount(batch, board: Board, players: int) -> dict[str, int]:
    """The tallies of a one-race batch, counted again from the rows it logged: where each
    character stands after every row, who leads (fewest squares to go) between rounds."""
    from trackkit.games.yummell.core import state

    route, pos = [-1] * players, [-1] * players
    lengths = [int(n) for n in board.route_len]

    def left(p: int) -> int:
        return max(lengths) if route[p] < 0 else lengths[route[p]] - 1 - pos[p]

    def leading() -> set[int]:
        best = min(left(p) for p in range(players))
        return {p for p in range(players) if left(p) == best}

    leaders, changes, current = set(range(players)), 0, 1
    counts = Counter()
    winner, last_round_leaders = None, None
    for row in batch.log[: batch.log_n[0]]:
        rnd, p, action, value, to, other = (int(row[i]) for i in (0, 1, 2, 4, 6, 7))
        if rnd != current:  # a round ended between the rows
            now = leading()
            changes += not (now & leaders)
            leaders, current = now, rnd
        if action == state.LOG_ROUTE:
            route[p] = value
        elif action in (state.LOG_MOVE, state.LOG_CHALLENGE, state.LOG_EVENT):
            pos[p] = to
        elif action in (state.LOG_PLAY_EVENT, state.LOG_USE_ON_RIVAL) and other >= 0:
            pos[other] = to
        elif action == state.LOG_FINISH and winner is None:
            winner, last_round_leaders = p, set(leaders)
        counts["bounces"] += action == state.LOG_BOUNCE
        counts["challenges_lost"] += action == state.LOG_CHALLENGE and value == 0
    assert winner is not None
    rivals = [left(q) for q in range(players) if q != winner]
    return {
        "lead_changes": changes,
        "last_round": int(winner not in last_round_leaders),
        "winner_gap": min(rivals) if rivals else 0,
        **counts,
    }


@pytest.mark.parametrize("policy", ["greedy", "smart"])
def test_race_tallies_match_a_recount_from_the_log(policy: str) -> None:
    from trackkit.games.yummell.core.course import race_board
    from trackkit.games.yummell.core.ruleset import RULESET

    track = load_preset("king-of-toads")
    board = race_board(track)
    seen = Counter()
    for players in (1, 3, 6):
        options = RaceOptions(players=players, policy=policy)
        for seed in range(40):
            batch = RULESET.play_batch(board, options, seed, 0, 1, log_rows=20_000)
            engine = {key: int(values[0]) for key, values in batch.tallies.items()}
            assert engine == _recount(batch, board.board, players), (players, seed)
            seen.update(key for key, value in engine.items() if value)
    # each count was non-zero in some race, so each comparison could have failed
    assert set(seen) == {"lead_changes", "last_round", "winner_gap", "bounces", "challenges_lost"}


def test_a_solo_race_has_no_rival_to_lead_or_trail() -> None:
    result = simulate(load_preset("first-run"), RaceOptions(players=1), races=300, seed=2)
    for key in ("lead_changes", "last_round", "winner_gap"):
        assert result.tally(key)["mean"] == 0
    assert result.tally("challenges_lost")["mean"] > 0
