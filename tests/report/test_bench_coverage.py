"""The coverage benchmark (:mod:`trackkit.report.bench_coverage`): each interval checked
against a truth, per family, and estimates outside their own interval counted."""

from __future__ import annotations

import copy

import pytest

from trackkit.errors import TrackkitError
from trackkit.explore.profile import ProfileSettings, TrackProfile, profile_track
from trackkit.games import get_ruleset
from trackkit.report.bench_coverage import (
    TABLES,
    Tally,
    bench_coverage,
    compare_profiles,
    coverage_text,
)


@pytest.fixture(scope="module")
def board_profile() -> TrackProfile:
    snowtails = get_ruleset("snowtails")
    board = snowtails.load_preset(snowtails.presets()[0])
    settings = ProfileSettings(races=300, seed=5, exact=False, characters=False)
    return profile_track(board, settings, players=5)


def test_a_profile_is_its_own_truth(board_profile: TrackProfile) -> None:
    tally = Tally()
    compare_profiles(board_profile, board_profile, tally)
    assert tally.outside == 0 and tally.estimates > 10
    assert all(tally.rate(family) == 1.0 for family in tally.checked)
    # the start slots' table is checked, one interval a slot
    slots = next(family for table, _, family in TABLES if table == "start_slots")
    assert tally.checked[slots] == 5


def test_a_truth_far_away_is_not_covered(board_profile: TrackProfile) -> None:
    truth = copy.deepcopy(board_profile)
    truth.values["rounds_mean"] += 100.0
    for row in truth.details["start_slots"]:
        row["win_rate"] = 2.0  # no win rate's interval reaches it
    tally = Tally()
    compare_profiles(board_profile, truth, tally)
    assert tally.rate("length: mean rounds") == 0.0
    assert tally.rate("start path's or slot's win rate") == 0.0


def test_an_estimate_outside_its_interval_is_counted(board_profile: TrackProfile) -> None:
    broken = copy.deepcopy(board_profile)
    broken.values["rounds_mean"] = broken.values["rounds_mean_high"] + 1.0
    tally = Tally()
    compare_profiles(broken, board_profile, tally)
    assert tally.outside == 1


@pytest.mark.parametrize("seeds", [0, 101])
def test_snow_seeds_out_of_bounds_are_refused(seeds: int) -> None:
    with pytest.raises(TrackkitError, match="each Snow Tails board on 1 to 100 seeds"):
        bench_coverage(tracks=1, races=100, snow_seeds=seeds)


@pytest.mark.slow
def test_each_board_is_profiled_on_its_seeds() -> None:
    coverage = bench_coverage(tracks=1, races=200, snow_seeds=2)
    slots = coverage.tally.checked["start slot's move against an average track"]
    assert slots == 4 * 2 * 5  # four boards, two seeds each, five slots
    assert "each on 2 seeds" in coverage_text(coverage)
