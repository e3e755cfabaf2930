"""A profile's length figures: the mean rounds of a race, their spread and percentiles,
each with its interval (:mod:`trackkit.explore.profile`)."""

from __future__ import annotations

import numpy as np

from trackkit.explore.fairness import BOOTSTRAP_DRAWS, percentiles
from trackkit.sim.montecarlo import SimulationResult


def length_figures(result: SimulationResult, seed: int) -> dict[str, float]:
    """Mean rounds with its interval, the standard deviation and the 10th and 90th
    percentiles, each with a bootstrap interval over the lengths seen (widened to hold its
    estimate where the bootstrap's ends leave it out)."""
    low, high = result.ci95
    counts = result.totals.rounds_count
    values = {"rounds_mean": result.mean_rounds, "rounds_mean_low": low, "rounds_mean_high": high}
    point = _length_stats(counts[None, :])[0]
    rng = np.random.default_rng([result.seed, 0x1E46, result.races])
    draws = rng.multinomial(result.races, counts / counts.sum(), size=BOOTSTRAP_DRAWS)
    boot = _length_stats(draws)
    for i, key in enumerate(("rounds_std", "rounds_p10", "rounds_p90")):
        values[key] = float(point[i])
        low, high = percentiles(boot[:, i])
        values[f"{key}_low"], values[f"{key}_high"] = (
            float(min(low, point[i])),
            float(max(high, point[i])),
        )
    return values


def _length_stats(counts: np.ndarray) -> np.ndarray:
    """Standard deviation, 10th and 90th percentile of each row of race-length counts."""
    lengths = np.arange(counts.shape[1])
    races = counts.sum(axis=1)
    mean = counts @ lengths / races
    variance = (counts * (lengths[None, :] - mean[:, None]) ** 2).sum(axis=1) / np.maximum(
        1, races - 1
    )
    return np.stack(
        [np.sqrt(variance), grouped_percentile(counts, 0.1), grouped_percentile(counts, 0.9)],
        axis=1,
    )


def grouped_percentile(counts: np.ndarray, q: float) -> np.ndarray:
    """The ``q`` percentile of each row of race-length counts, a race of ``k`` rounds taken
    as spread evenly over ``k - ½`` to ``k + ½`` (the percentile of grouped data). It
    rounds to the whole-round percentile, and unlike it moves smoothly with the counts, so
    its bootstrap interval covers 95% (a whole-round percentile's interval holds the truth
    always, or not at all: it cannot say how sure it is).

    >>> grouped_percentile(np.array([[0, 10, 10]]), 0.5).tolist()
    [1.5]
    """
    races = counts.sum(axis=1)
    target = q * races
    cumulative = np.cumsum(counts, axis=1)
    at = np.minimum((cumulative < target[:, None]).sum(axis=1), counts.shape[1] - 1)
    rows = np.arange(counts.shape[0])
    before = np.where(at > 0, cumulative[rows, np.maximum(at - 1, 0)], 0)
    inside = np.maximum(counts[rows, at], 1)
    return at - 0.5 + (target - before) / inside
