"""Monte Carlo figures: intervals, distributions, fairness tables, congestion, options."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from trackkit.errors import TrackkitError
from trackkit.games.base import TrackCheck, get_ruleset, rulesets
from trackkit.games.tilekit.track import Placement, Track
from trackkit.games.yummell.core.options import RaceOptions
from trackkit.games.yummell.core.presets import load_preset
from trackkit.limits import CostLimitError
from trackkit.sim.montecarlo import (
    MAX_RACES,
    MIN_TASK_BATCHES,
    TASK_BATCHES,
    check_cost,
    guided_tasks,
    most_races,
    race_cost,
    simulate,
)


@pytest.fixture(scope="module")
def result():  # type: ignore[no-untyped-def]
    return simulate(load_preset("forest-of-goosh"), RaceOptions(players=4), races=3000, seed=2)


def test_interval_brackets_the_mean_and_narrows_with_races(result) -> None:  # type: ignore[no-untyped-def]
    low, high = result.ci95
    assert low < result.mean_rounds < high
    more = simulate(load_preset("forest-of-goosh"), RaceOptions(players=4), races=12000, seed=2)
    assert (more.ci95[1] - more.ci95[0]) < (high - low) * 0.6


def test_histogram_counts_every_race(result) -> None:  # type: ignore[no-untyped-def]
    hist = result.histogram()
    assert sum(hist.values()) == result.races == 3000
    assert sum(k * v for k, v in hist.items()) / 3000 == pytest.approx(result.mean_rounds)


def test_each_race_has_exactly_one_winner(result) -> None:  # type: ignore[no-untyped-def]
    assert ((result.placing == 1).sum(axis=1) == 1).all()
    wins = sum(
        row["win_rate"] * row["entries"] for row in result.by_group("character") if row["entries"]
    )
    assert wins == pytest.approx(result.races)


def test_dealt_characters_are_all_different_in_a_race(result) -> None:  # type: ignore[no-untyped-def]
    for row in result.column("character")[:200]:
        assert len(set(row)) == len(row)
    assert {row["entries"] > 0 for row in result.by_group("advantage")} == {True}


def test_chosen_characters_and_advantages_are_used() -> None:
    options = RaceOptions(players=2, characters=("Flamm", "The Troll"), advantages=(1, 0))
    result = simulate(load_preset("first-run"), options, races=300, seed=1)
    assert (result.column("character") == [0, 1]).all()
    assert (result.column("advantage") == [1, 0]).all()


def test_turn_order_and_start_path_tables(result) -> None:  # type: ignore[no-untyped-def]
    order = result.by_group("order_pos")
    assert [row["entries"] for row in order] == [3000] * 4
    paths = result.by_group("route")
    assert sum(row["share"] for row in paths) == pytest.approx(1.0)


def test_congestion_counts_turns_and_fall_backs(result) -> None:  # type: ignore[no-untyped-def]
    rows = result.congestion()
    assert len(rows) == len(result.board.nodes)
    assert sum(r["bounces"] for r in rows) > 0
    # every turn that ends on the board is counted once
    assert sum(r["turns_per_race"] for r in rows) * result.races == pytest.approx(
        result.node_count("time").sum()
    )


def test_json_has_the_documented_keys(result) -> None:  # type: ignore[no-untyped-def]
    data = result.to_json()
    for key in ("races", "mean_rounds", "ci95", "rounds_histogram", "characters", "start_paths"):
        assert key in data
    assert len(data["ci95"]) == 2


def test_first_run_is_shorter_than_king_of_toads() -> None:
    options = RaceOptions(players=5)
    short = simulate(load_preset("first-run"), options, races=2000, seed=1)
    long = simulate(load_preset("king-of-toads"), options, races=2000, seed=1)
    assert short.ci95[1] < long.ci95[0]


def test_a_smart_player_beats_greedy_ones() -> None:
    seats = ("smart",) + ("greedy",) * 5
    mixed = simulate(
        load_preset("king-of-toads"), RaceOptions(players=6, policies=seats), races=4000, seed=4
    )
    plain = simulate(load_preset("king-of-toads"), RaceOptions(players=6), races=4000, seed=4)
    smart_wins = (mixed.placing[:, 0] == 1).mean()
    seat_wins = (plain.placing[:, 0] == 1).mean()
    margin = 3 * np.sqrt(2 * (1 / 6) * (5 / 6) / 4000)
    assert smart_wins > seat_wins + margin
    assert mixed.placing[:, 0].mean() < plain.placing[:, 0].mean()


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"players": 9}, "1 to 8"),
        ({"deck": "tarot"}, "finite"),
        ({"policy": "psychic"}, "greedy"),
        ({"players": 2, "policies": ("smart",)}, "one each"),
        ({"players": 2, "characters": ("Flamm",)}, "one each"),
        ({"players": 2, "characters": ("Flamm", "Flamm")}, "different"),
        ({"players": 2, "characters": ("Flamm", "Gandalf")}, "unknown character"),
    ],
)
def test_impossible_options_are_clear_errors(kwargs: dict, words: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(TrackkitError, match=words):
        RaceOptions(**kwargs)


def test_an_invalid_track_cannot_be_raced() -> None:
    broken = Track("broken", (Placement(1, 0, 0), Placement(7, 5, 5)))
    with pytest.raises(TrackkitError, match="cannot be raced"):
        simulate(broken, races=10)


@dataclass(frozen=True)
class _MadeUp:
    code: str = "made-up"

    def __str__(self) -> str:
        return "[made-up] a problem the game's own rules found."


@pytest.mark.parametrize("game", rulesets())
def test_every_games_races_pass_its_track_check_first(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one check at the seam: whatever a game's check_track finds, no race is played
    (a Snow Tails track its validator rejected used to be raced and ranked)."""
    ruleset = get_ruleset(game)
    track = ruleset.load_preset(ruleset.presets()[0])
    seen: list[object] = []

    def check_track(track: object, **choices: object) -> TrackCheck:
        seen.append(choices.get("content"))
        return TrackCheck((_MadeUp(),))

    def no_race(*args: object, **kwargs: object) -> None:
        raise AssertionError("raced a track its rules reject")

    monkeypatch.setattr(ruleset, "check_track", check_track)
    monkeypatch.setattr(ruleset, "prepare", no_race)
    options = ruleset.options(players=2)
    with pytest.raises(TrackkitError) as caught:
        simulate(track, options, races=5)
    assert str(caught.value) == (
        f"track {track.name!r} cannot be raced: 1 problem(s), first: [made-up] a problem the "
        "game's own rules found. Run `trackkit validate` for all of them."
    )
    assert seen == [options.content]  # checked against the content the races would use


def test_bad_race_counts_are_refused() -> None:
    with pytest.raises(TrackkitError, match="races"):
        simulate(load_preset("first-run"), races=0)
    with pytest.raises(TrackkitError, match="seed"):
        simulate(load_preset("first-run"), races=1, seed=-1)


def test_progress_is_reported_up_to_the_total() -> None:
    seen: list[tuple[int, int]] = []
    simulate(load_preset("first-run"), races=600, seed=0, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (600, 600) and len(seen) == 3
    assert np.all(np.diff([d for d, _ in seen]) > 0)


def test_figures_cover_every_race_while_rows_are_kept_for_the_first_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ISSUE 7 item 9: ten million races must not hold every race's rows in memory
    import trackkit.sim.montecarlo as montecarlo

    track, options = load_preset("first-run"), RaceOptions(players=3)
    whole = simulate(track, options, races=2000, seed=4)
    monkeypatch.setattr(montecarlo, "KEEP_RACES", 500)
    for workers in (1, 2):
        lean = simulate(track, options, races=2000, seed=4, workers=workers)
        assert lean.races == 2000 and lean.rounds.shape[0] == 500
        assert np.array_equal(lean.rounds, whole.rounds[:500])
        assert lean.to_json() == whole.to_json()
    # the figures are those of the races' rows
    assert whole.mean_rounds == pytest.approx(whole.rounds.mean())
    assert whole.std_error == pytest.approx(whole.rounds.std(ddof=1) / np.sqrt(2000))
    wins = [(whole.placing[whole.column("character") == c] == 1).mean() for c in range(8)]
    assert [row["win_rate"] for row in whole.by_group("character")] == pytest.approx(wins)


@given(st.integers(1, 3000), st.integers(1, 16))
def test_tasks_cover_every_batch_and_shrink_towards_the_end(count: int, workers: int) -> None:
    batches = [(b, 250) for b in range(count)]
    tasks = guided_tasks(batches, workers)
    assert [b for task in tasks for b in task] == batches  # each once, in order
    sizes = [len(task) for task in tasks]
    assert all(0 < size <= TASK_BATCHES for size in sizes)
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[-1] <= MIN_TASK_BATCHES  # the last task is small: no long idle tail
    assert sizes[0] <= -(-count // workers)  # no task above a worker's share


def test_a_long_simulation_ends_with_small_tasks() -> None:
    sizes = [len(task) for task in guided_tasks([(b, 250) for b in range(800)], workers=2)]
    assert sizes[0] == TASK_BATCHES
    assert sum(sizes[-4:]) <= 4 * MIN_TASK_BATCHES  # the last 4,000 races or fewer, split


def test_a_placing_outside_one_to_the_player_count_is_refused(result) -> None:  # type: ignore[no-untyped-def]
    from trackkit.games.base import BatchResult
    from trackkit.sim.montecarlo import Totals

    ruleset = result.ruleset
    totals = Totals.empty(ruleset, result.groups, len(result.board.nodes))
    columns = {g.key: np.zeros((1, 4), dtype=np.int64) for g in result.groups}
    nodes = {c.key: np.zeros(len(result.board.nodes), dtype=np.int64) for c in ruleset.node_counts}
    tallies = {t.key: np.zeros(1, dtype=np.int64) for t in ruleset.tallies}
    good = BatchResult(np.array([3]), np.array([[1, 2, 2, 4]]), columns, nodes, tallies)
    totals.add(good)
    assert totals.groups["character"][:, 0].tolist() == [4, 1, 9]  # 4 entries, 1 win, 1+2+2+4
    bad = BatchResult(np.array([3]), np.array([[1, 2, 3, 5]]), columns, nodes, tallies)
    with pytest.raises(ValueError, match="placings run from 1 to 4"):
        totals.add(bad)


# --- the simulation cost limit (issue 20, finding 5) ---------------------------------------


@contextmanager
def serving_app(limit: int | None = None) -> Iterator[Any]:
    """The app's limits in force (the operator's ``limit`` of simulation cost, if given)."""
    from trackkit import limits

    variable = limits.SIMULATION_COST.env
    before = os.environ.pop(variable, None)
    if limit is not None:
        os.environ[variable] = str(limit)
    limits.serve_app_limits(True)
    try:
        yield limits
    finally:
        limits.serve_app_limits(False)
        os.environ.pop(variable, None)
        if before is not None:
            os.environ[variable] = before


def test_the_command_line_allows_its_documented_races_on_every_preset() -> None:
    """10,000,000 races (``trackkit simulate --races``) of the most players, any preset."""
    from trackkit.games import get_ruleset

    for game in ("yummell", "snowtails"):
        ruleset = get_ruleset(game)
        options = ruleset.options(players=ruleset.players.race_max)
        for slug in ruleset.presets():
            track = ruleset.load_preset(slug)
            per_race = race_cost(ruleset.prepare(track, options), options)
            check_cost(track, options, MAX_RACES, per_race)
            assert most_races(per_race) == MAX_RACES


def test_the_app_refuses_a_simulation_over_its_cost_before_any_race() -> None:
    track, options = load_preset("first-run"), RaceOptions(players=5)
    per_race = 5 * 34  # players × the first-run board's squares
    raced: list[int] = []
    with serving_app() as limits:
        allowed = limits.SIMULATION_COST.app // per_race
        with pytest.raises(CostLimitError) as refused:
            simulate(track, options, races=allowed + 1, progress=lambda d, t: raced.append(d))
        check_cost(track, options, allowed, per_race)  # the most it allows
    assert not raced  # refused before the first batch
    message = str(refused.value)
    assert "\n" not in message
    assert f"{allowed + 1:,} races of 5 players on First run" in message
    assert f"the limit is {limits.SIMULATION_COST.app:,}" in message
    assert "fewer races" in message


@given(races=st.integers(1, 40), players=st.integers(1, 8))
def test_the_limit_is_races_times_players_times_the_board(races: int, players: int) -> None:
    """The operator's limit, exactly: a simulation costing it runs, one race more does not."""
    track, options = load_preset("first-run"), RaceOptions(players=players)
    per_race = race_cost(options.ruleset.prepare(track, options), options)
    assert per_race == players * 34
    with serving_app(races * per_race):
        assert most_races(per_race) == races
        check_cost(track, options, races, per_race)
        with pytest.raises(CostLimitError):
            check_cost(track, options, races + 1, per_race)


@pytest.mark.parametrize(
    ("game", "preset"), [("yummell", "first-run"), ("snowtails", "husky-oval")]
)
def test_a_planning_player_costs_its_playouts(game: str, preset: str) -> None:
    """A seated planner makes a race cost tens or hundreds of plain ones, in proportion to its
    budget, and a simulation of planners is refused before it starts when that is over
    the limit."""
    ruleset = get_ruleset(game)
    track = ruleset.load_preset(preset)
    plain = ruleset.with_policies(ruleset.options(players=3), ("smart",) * 3)
    board = ruleset.prepare(track, plain)
    base = race_cost(board, plain)
    costs = []
    for budget in (8, 16):
        options = ruleset.with_policies(
            ruleset.options(players=3, budget=budget), ("planner", "smart", "smart")
        )
        costs.append(race_cost(board, options))
    assert costs[0] > 10 * base and costs[1] - base == 2 * (costs[0] - base)
    options = ruleset.with_policies(ruleset.options(players=3), ("planner",) * 3)
    with pytest.raises(CostLimitError, match="with planning players .* --budget"):
        simulate(track, options, races=10_000_000, seed=0)
