"""The paired estimators behind a profile's fairness: win rates race by race, moves against
an average track raced on the same numbers, the headline's unbiased square and its
interval, Holm's correction and tie groups."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trackkit.explore.paired import (
    Paired,
    combined,
    difference,
    difference_p_value,
    headline,
    holm,
    largest_move,
    paired_headline,
    per_race,
    rate_spread,
    rates,
    signed_interval,
    spread_estimate,
    tie_groups,
)


def test_per_race_counts_each_labels_entries_and_wins() -> None:
    labels = np.array([[0, 1, 1], [2, 0, -1]])
    placing = np.array([[2, 1, 3], [1, 2, 3]])
    entries, wins = per_race(labels, placing, 3)
    assert entries.tolist() == [[1, 2, 0], [1, 0, 1]]  # -1: no route yet, not counted
    assert wins.tolist() == [[0, 1, 0], [0, 0, 1]]


def _races(rng: np.random.Generator, races: int, shared: float) -> tuple[np.ndarray, np.ndarray]:
    """Two tracks' wins of one label entered every race, sharing luck: with probability
    ``shared`` a race's result is the same on both."""
    a = (rng.random(races) < 0.3).astype(float)
    other = (rng.random(races) < 0.3).astype(float)
    b = np.where(rng.random(races) < shared, a, other)
    return a, b


def test_pairing_the_races_narrows_the_interval_of_a_difference() -> None:
    rng = np.random.default_rng(1)
    a, b = _races(rng, 4_000, shared=0.8)
    ones = np.ones((4_000, 1))
    here = rates(ones.sum(0), a.sum(keepdims=True), ones, a[:, None], 4_000)
    there = rates(ones.sum(0), b.sum(keepdims=True), ones, b[:, None], 4_000)
    paired = difference(here, there).covariance[0, 0]
    unpaired = (here.influence**2).sum() + (there.influence**2).sum()
    assert paired < unpaired / 3  # 80% of the races alike: most of the noise cancels
    assert paired == pytest.approx(np.var(a - b, ddof=0) / 4_000, rel=1e-9)


def test_kept_races_stand_for_all_races() -> None:
    # influences from the first 1,000 of 4,000 races, scaled, give the variance of 4,000
    rng = np.random.default_rng(2)
    wins = (rng.random(4_000) < 0.25).astype(float)
    ones = np.ones((4_000, 1))
    whole = rates(ones.sum(0), wins.sum(keepdims=True), ones, wins[:, None], 4_000)
    part = rates(ones.sum(0), wins.sum(keepdims=True), ones[:1000], wins[:1000, None], 4_000)
    full = (whole.influence**2).sum()
    assert (part.influence**2).sum() == pytest.approx(full, rel=0.15)
    assert full == pytest.approx(0.25 * 0.75 / 4_000, rel=0.1)


def test_the_headline_square_is_unbiased_and_its_interval_covers() -> None:
    # estimates drawn around known moves: the square's mean is S, the interval covers √S
    rng = np.random.default_rng(3)
    d_true = np.array([0.03, -0.01, 0.0, -0.02])
    weights = np.full(4, 0.25)
    covariance = np.diag([2e-4, 2e-4, 2e-4, 2e-4])
    truth = math.sqrt(float(weights @ d_true**2))
    squares, covered = [], 0
    for _ in range(2_000):
        d = rng.multivariate_normal(d_true, covariance)
        est = spread_estimate(d, covariance, weights)
        squares.append(float(weights @ (d * d - np.diag(covariance))))
        covered += est.low <= truth <= est.high
    assert np.mean(squares) == pytest.approx(truth**2, abs=3e-5)
    assert 0.93 <= covered / 2_000 <= 0.97


def test_a_track_that_moves_nothing_has_a_headline_near_zero() -> None:
    rng = np.random.default_rng(4)
    covariance = np.diag(np.full(8, 1e-4))
    weights = np.full(8, 1 / 8)
    values = [
        spread_estimate(rng.multivariate_normal(np.zeros(8), covariance), covariance, weights)
        for _ in range(500)
    ]
    assert np.mean([v.low == 0 for v in values]) > 0.9  # rarely told apart from nothing
    # a plain root mean square would sit at about 1 point here, pushed up by noise
    assert np.median([v.value for v in values]) < 0.5 * math.sqrt(1e-4)


@settings(max_examples=200, deadline=None)
@given(
    d=st.lists(st.floats(-0.5, 0.5), min_size=1, max_size=8),
    scale=st.floats(0.0, 0.05),
    seed=st.integers(0, 2**32 - 1),
)
def test_every_estimate_lies_inside_its_own_interval(
    d: list[float], scale: float, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    n = len(d)
    z = rng.normal(size=(30, n)) * scale
    covariance = z.T @ z
    weights = rng.dirichlet(np.ones(n))
    moves = np.array(d)
    est = spread_estimate(moves, covariance, weights)
    assert est.low <= est.value <= est.high
    _, most = largest_move(moves, covariance)
    assert most.low <= most.value <= most.high
    spread = rate_spread(moves, covariance)
    assert spread.low <= spread.value <= spread.high
    signed = signed_interval(moves[0], covariance[0, 0])
    assert signed.low <= signed.value <= signed.high


def test_the_headline_is_in_points_and_its_parts_add_up_in_squares() -> None:
    from trackkit.explore.paired import Moves

    z = np.random.default_rng(5).normal(size=(50, 2)) * 1e-3
    char = Moves(np.array([0.05, -0.05]), z[:, :1].repeat(2, 1), np.array([0.5, 0.5]))
    start = Moves(np.array([0.04]), z[:, 1:], np.array([1.0]))
    whole = headline(combined([char, start]))
    parts = headline(char).value ** 2 + headline(start).value ** 2
    assert whole.value == pytest.approx(math.sqrt(parts))
    assert 5 < whole.value < 7  # points, not a share


def test_a_difference_beyond_noise_has_a_small_p_value_and_a_tie_a_large_one() -> None:
    rng = np.random.default_rng(6)
    noise = rng.normal(size=1_000) * 1e-3
    a = Paired(1.0, noise)
    assert difference_p_value(a, Paired(1.1, noise)) < 1e-6  # same races: no noise left
    assert difference_p_value(a, Paired(1.0001, rng.normal(size=1_000) * 1e-3)) > 0.5


def test_holm_stops_at_the_first_pair_that_fails() -> None:
    p = {("a", "b"): 0.001, ("a", "c"): 0.03, ("b", "c"): 0.04}
    assert holm(p) == {("a", "b")}  # 0.03 > 0.05 / 2: it and every larger one fail
    assert holm({("a", "b"): 0.2}) == set()


def test_tie_groups_run_from_their_first_name() -> None:
    told = {("a", "c"), ("a", "d"), ("b", "d"), ("c", "d")}
    assert tie_groups(["a", "b", "c", "d"], told) == [["a", "b"], ["c"], ["d"]]
    assert tie_groups(["a", "b"], set()) == [["a", "b"]]


def test_paired_headline_orders_as_the_headline() -> None:
    from trackkit.explore.paired import Moves

    z = np.zeros((10, 2))
    big = Moves(np.array([0.1, -0.1]), z, np.array([0.5, 0.5]))
    small = Moves(np.array([0.01, -0.01]), z, np.array([0.5, 0.5]))
    assert paired_headline(big).value > paired_headline(small).value
    assert headline(big).value > headline(small).value


def test_no_interval_says_a_chance_moves_by_more_than_100_points() -> None:
    from trackkit.explore.paired import Moves

    z = np.array([[0.9, -0.9], [-0.9, 0.9]])  # two races: an interval as wide as it gets
    moves = Moves(np.array([0.3, -0.3]), z, np.array([0.5, 0.5]))
    est = headline(moves)
    assert est.low <= est.value <= est.high <= 100.0


def _coverage(figure, truth: float, theta: np.ndarray, draws: int = 4_000) -> float:
    """How often ``figure(estimates, covariance)``'s interval holds ``truth``, the
    estimates drawn around ``theta``, independent with standard error 1."""
    rng = np.random.default_rng(11)
    held = 0
    for _ in range(draws):
        est = figure(theta + rng.normal(size=theta.size), np.eye(theta.size))
        held += est.low <= truth <= est.high
    return held / draws


@pytest.mark.parametrize(
    "theta",
    [np.zeros(6), np.array([6.0, 0, 0, 0, 0, 0]), np.array([5.0, -5.0, 1, 0, 0, 0])],
    ids=["nothing moves", "one label stands out", "two labels tie at the top"],
)
def test_the_largest_move_covers_at_least_95_and_not_all_the_time_where_one_stands_out(
    theta: np.ndarray,
) -> None:
    def figure(d: np.ndarray, covariance: np.ndarray):
        return largest_move(d, covariance)[1]

    coverage = _coverage(figure, float(np.abs(theta).max()), theta)
    assert coverage >= 0.94
    if np.abs(theta).max() > 0 and np.sort(np.abs(theta))[-2] == 0:
        # the Bonferroni over every label covered 99.7% here: a wasted width
        assert coverage <= 0.985


@pytest.mark.parametrize(
    "theta",
    [np.zeros(5), np.array([6.0, 0, 0, 0, -6.0]), np.array([3.0, 3.0, 0, 0, 0])],
    ids=["all alike", "one best, one worst", "two tie at the top"],
)
def test_the_spread_covers_at_least_95(theta: np.ndarray) -> None:
    coverage = _coverage(rate_spread, float(theta.max() - theta.min()), theta)
    assert 0.94 <= coverage <= 0.995
