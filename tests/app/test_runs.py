"""Heavy runs off the script thread (trackkit/app/runs.py): one per session at a time, at
most the operator's number at once on the server, cancelled on request, failures told in
one line."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from trackkit import limits
from trackkit.app.runs import (
    HEAVY_RUNS_VARIABLE,
    REFERENCE_RACES,
    HeavyRuns,
    Progress,
    Run,
    check_profile_cost,
    heavy_run_slots,
    profile_races_allowed,
    reference_cost,
    reference_races,
)
from trackkit.errors import TrackkitError
from trackkit.explore.profile import MAX_PROFILE_RACES, reference_tracks
from trackkit.games import get_ruleset
from trackkit.games.yummell.core.course import race_board
from trackkit.games.yummell.core.options import RaceOptions
from trackkit.games.yummell.core.presets import load_preset
from trackkit.limits import CostLimitError

WAIT = 10.0  # seconds a test waits for a thread at most


def blocked(release: threading.Event, started: threading.Event) -> Callable[[Progress], str]:
    """Work that says it started, then reports progress until ``release`` is set."""

    def work(progress: Progress) -> str:
        started.set()
        while not release.wait(0.01):
            progress(1, 2)
        progress(2, 2)
        return "done"

    return work


def ended(run: Run) -> Run:
    assert run.wait(WAIT), f"the run did not end: {run.state}"
    return run


def test_a_session_runs_one_piece_of_work_at_a_time() -> None:
    runs = HeavyRuns(slots=2)
    release, started = threading.Event(), threading.Event()
    first = runs.start("alice", "the races", "races", "key-1", blocked(release, started))
    assert started.wait(WAIT)
    second_called = threading.Event()
    again = runs.start("alice", "the races", "races", "key-2", lambda p: second_called.set())
    assert again is first  # the second click follows the first run, and starts nothing
    release.set()
    assert ended(first).state == "finished" and first.result == "done"
    assert not second_called.is_set()
    runs.forget(first)
    # once the first has ended and been shown, the session may start another
    third = ended(runs.start("alice", "the races", "races", "key-3", lambda p: "again"))
    assert third is not first and third.result == "again"


def test_the_server_runs_at_most_its_slots_at_once_and_the_others_wait() -> None:
    runs = HeavyRuns(slots=1)
    release, started = threading.Event(), threading.Event()
    first = runs.start("alice", "the races", "races", 1, blocked(release, started))
    assert started.wait(WAIT)
    bob_started = threading.Event()
    second = runs.start("bob", "the races", "races", 2, blocked(threading.Event(), bob_started))
    assert not bob_started.wait(0.5)  # over the cap: waits for a slot
    assert second.state == "waiting" and second.live
    assert runs.running() == 1
    release.set()
    assert ended(first).state == "finished"
    assert bob_started.wait(WAIT)  # the freed slot goes to the waiting run
    second.cancel()
    assert ended(second).state == "cancelled"


def test_two_slots_run_two_sessions_at_once() -> None:
    runs = HeavyRuns(slots=2)
    release = threading.Event()
    started = [threading.Event(), threading.Event()]
    going = [
        runs.start(who, "x", "races", 0, blocked(release, s))
        for who, s in zip(("a", "b"), started, strict=True)
    ]
    assert all(s.wait(WAIT) for s in started)
    assert runs.running() == 2
    release.set()
    assert all(ended(run).state == "finished" for run in going)


def test_cancel_stops_the_work_at_its_next_progress_report() -> None:
    runs = HeavyRuns(slots=1)
    reports: list[int] = []

    def endless(progress: Progress) -> None:
        for done in range(10**9):
            progress(done, 10**9)
            reports.append(done)

    run = runs.start("alice", "the races", "races", 0, endless)
    while not reports:
        threading.Event().wait(0.01)
    run.cancel()
    assert ended(run).state == "cancelled" and run.result is None
    # the slot is free again for the next run
    assert ended(runs.start("bob", "x", "races", 0, lambda p: 1)).state == "finished"


def test_a_run_cancelled_while_waiting_never_starts() -> None:
    runs = HeavyRuns(slots=1)
    release, started = threading.Event(), threading.Event()
    first = runs.start("alice", "x", "races", 0, blocked(release, started))
    assert started.wait(WAIT)
    called = threading.Event()
    waiting = runs.start("bob", "x", "races", 0, lambda p: called.set())
    waiting.cancel()
    assert ended(waiting).state == "cancelled"
    release.set()
    ended(first)
    assert not called.is_set()


def test_failures_are_told_in_one_line() -> None:
    runs = HeavyRuns(slots=1)

    def refused(progress: Progress) -> None:
        raise TrackkitError("100 races would need too much; the limit is 10: run fewer")

    def broken(progress: Progress) -> None:
        raise ValueError("an internal detail\nover two lines")

    run = ended(runs.start("a", "x", "races", 0, refused))
    assert run.state == "failed" and run.error.startswith("100 races would need")
    run = ended(runs.start("b", "x", "races", 0, broken))
    assert run.state == "failed" and run.error == "the run failed: ValueError"


@pytest.mark.parametrize(
    ("value", "slots"), [(None, 1), ("2", 2), ("3", 3), ("0", 1), ("-1", 1), ("many", 1)]
)
def test_the_operator_sets_the_heavy_runs_at_once(monkeypatch, value, slots) -> None:
    if value is None:
        monkeypatch.delenv(HEAVY_RUNS_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(HEAVY_RUNS_VARIABLE, value)
    assert heavy_run_slots() == slots


# --- a profile's cost: its races and its average track raced alike (the reference) -----------


def test_the_reference_races_as_many_as_the_track_up_to_the_apps_bound() -> None:
    assert reference_races(500) == 500
    assert reference_races(50_000) == REFERENCE_RACES == 2_000
    assert reference_races(50_000, None) == 50_000


def test_a_profile_may_race_what_the_limit_leaves_after_its_reference(monkeypatch) -> None:
    limits.serve_app_limits(True)  # the conftest switches back after the test
    track, options = load_preset("first-run"), RaceOptions(players=4)
    per_race, presets = 4 * 34, reference_cost(options)
    average = reference_tracks(get_ruleset("yummell"), 4)
    assert presets == sum(4 * len(race_board(track).nodes) for track in average)
    monkeypatch.setenv(limits.SIMULATION_COST.env, str(5_000 * per_race + 2_000 * presets))
    assert profile_races_allowed(track, options) == 5_000  # its reference: 2,000 of each
    # below the reference's bound the presets race as often as the track
    monkeypatch.setenv(limits.SIMULATION_COST.env, str(300 * (per_race + presets)))
    assert profile_races_allowed(track, options) == 300
    check_profile_cost(track, options, 300, 300)  # within
    with pytest.raises(CostLimitError, match="301 races of 4 players on First run and 300 on"):
        check_profile_cost(track, options, 301, 300)


def test_a_profile_races_no_more_than_a_profile_may() -> None:
    limits.serve_app_limits(True)
    allowed = profile_races_allowed(load_preset("first-run"), RaceOptions(players=2))
    assert allowed == MAX_PROFILE_RACES
