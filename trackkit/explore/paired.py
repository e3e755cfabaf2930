"""Win rates from races that share their random numbers, and how far a track moves them:
the estimators behind a profile's fairness figures, with intervals that use the pairing.

A profile races the track and an average track (a panel of tracks) with the same seed:
race ``r`` deals the same characters, in the same turn orders, on every track. A figure of
the track against the panel is then a difference of two ratio estimators over the *same*
races, and its variance is that of the per-race difference, not the sum of two variances
(which is what an interval that treats them as independent uses, and why it was too wide).

Every rate here is a ratio ``wins / entries`` over races; its linearisation (the influence
of race ``r``) is ``(W[r] - rate × E[r]) / entries``, so the covariance of any set of such
rates and of their differences is ``Z'Z`` for the matrix ``Z`` of per-race influences
(races are independent). A simulation keeps every race's rows for its first races only
(:data:`~trackkit.sim.montecarlo.KEEP_RACES`); beyond them, the covariance is estimated from
the kept races and scaled to all of them.

**The headline** (:func:`spread_estimate`): ``S = Σ w_i d_i²``, the mean square by which
the track moves a racer's chance of winning (``d_i``: a label's move; ``w_i``: its share of
the racers), estimated without bias as ``Σ w_i (d̂_i² - var d̂_i)`` (a raw mean square, or
a maximum, is pushed up by noise), with a delta-method variance that keeps its
second-order term (the one that dominates where the track moves nothing). The figure is
``√S`` in points of win share; its interval is ``√`` of ``S``'s.

>>> import numpy as np
>>> d, cov = np.array([0.02, -0.02]), np.diag([1e-4, 1e-4])
>>> est = spread_estimate(d, cov, np.array([0.5, 0.5]))
>>> round(est.value, 4), est.low <= est.value <= est.high
(0.0173, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

Z95 = 1.959963984540054


def per_race(labels: np.ndarray, placing: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Entries and wins of each of ``size`` labels in each race: ``labels`` and
    ``placing`` are a simulation's kept rows (races, players); a seat whose label is
    negative (no route yet) counts for nothing. Returns two (races, size) float arrays."""
    races = labels.shape[0]
    valid = labels >= 0
    rows = np.broadcast_to(np.arange(races)[:, None], labels.shape)
    index = (rows * size + np.where(valid, labels, 0))[valid]
    entries = np.bincount(index, minlength=races * size).reshape(races, size)
    won = (placing == 1)[valid]
    wins = np.bincount(index[won], minlength=races * size).reshape(races, size)
    return entries.astype(float), wins.astype(float)


@dataclass(frozen=True)
class Rates:
    """Win rates of labels over ``races`` races (totals), and each kept race's influence
    on them (``influence``: kept races × labels, already scaled so that ``Z'Z`` estimates
    the rates' covariance over all ``races``)."""

    rate: np.ndarray
    entries: np.ndarray
    influence: np.ndarray


def rates(
    entries: np.ndarray,
    wins: np.ndarray,
    kept_entries: np.ndarray,
    kept_wins: np.ndarray,
    races: int,
) -> Rates:
    """Each label's win rate from its totals over ``races`` races (``entries``, ``wins``)
    and its per-race influence from the kept races' rows (``kept_*``: the first races ×
    labels). A label never entered has rate 0 and no influence."""
    entries = np.asarray(entries, dtype=float)
    rate = np.divide(wins, entries, out=np.zeros_like(entries), where=entries > 0)
    # Z = (W - rate E) / n over every race; the kept races stand for all of them
    inverse = np.divide(1.0, entries, out=np.zeros_like(entries), where=entries > 0)
    scale = math.sqrt(races / max(1, kept_entries.shape[0]))
    influence = (kept_wins - rate * kept_entries) * inverse * scale
    return Rates(rate, entries, influence)


@dataclass(frozen=True)
class Moves:
    """How far a track moves each label's chance of winning (``d``), each race's influence
    on those moves (``influence``: races × labels; their covariance is ``Z'Z``), and each
    label's share of the racers (``weights``, summing to 1)."""

    d: np.ndarray
    influence: np.ndarray
    weights: np.ndarray

    @property
    def covariance(self) -> np.ndarray:
        return self.influence.T @ self.influence


def difference(track: Rates, panel: Rates) -> Moves:
    """The move of each label's rate on the track against the panel: paired race by race
    over the races both kept (a race kept by one only counts unpaired)."""
    z = _stacked([track.influence, -panel.influence], columns=False)
    return Moves(track.rate - panel.rate, z, _shares(track.entries))


def against_share(track: Rates, share: float) -> Moves:
    """Each label's rate minus a fixed ``share`` (the fair one)."""
    return Moves(track.rate - share, track.influence, _shares(track.entries))


def combined(parts: list[Moves]) -> Moves:
    """Several sources of moves as one (their races aligned, so their covariance counts),
    each source keeping its own weights: ``S`` of the whole is the sum of the parts'."""
    return Moves(
        np.concatenate([m.d for m in parts]),
        _stacked([m.influence for m in parts], columns=True),
        np.concatenate([m.weights for m in parts]),
    )


def _stacked(blocks: list[np.ndarray], *, columns: bool) -> np.ndarray:
    """Per-race blocks aligned on their first rows (races): side by side (``columns``) or
    added up, each padded with zeros where it kept fewer races."""
    rows = max(b.shape[0] for b in blocks)
    padded = [np.pad(b, ((0, rows - b.shape[0]), (0, 0))) for b in blocks]
    return np.hstack(padded) if columns else np.sum(padded, axis=0)


def _shares(entries: np.ndarray) -> np.ndarray:
    total = float(np.sum(entries))
    return np.asarray(entries, dtype=float) / total if total > 0 else np.zeros_like(entries)


@dataclass(frozen=True)
class Estimate:
    """A figure with its 95% interval (the estimate always lies inside)."""

    value: float
    low: float
    high: float


def signed_interval(value: float, variance: float) -> Estimate:
    """A signed figure with its normal 95% interval."""
    half = Z95 * math.sqrt(max(0.0, variance))
    return Estimate(float(value), float(value - half), float(value + half))


def headline(moves: Moves) -> Estimate:
    """:func:`spread_estimate` of ``moves``, in points of win share (× 100; at most 100)."""
    est = spread_estimate(moves.d, moves.covariance, moves.weights)
    # no chance moves by more than 100 points: a few races' interval can say more
    return Estimate(100 * est.value, 100 * est.low, min(100.0, 100 * max(est.high, est.value)))


def spread_estimate(d: np.ndarray, covariance: np.ndarray, weights: np.ndarray) -> Estimate:
    """``√S``, ``S = Σ w_i d_i²``, from estimates ``d`` with ``covariance``: the module's
    headline estimator. ``S`` is estimated without bias (each ``d_i²`` less its variance,
    the figure 0 where that is below 0: the races cannot tell the track from one that
    moves nothing). Its 95% interval is a score interval, as Wilson's is for a rate: the
    values of ``S`` from which the estimate is within 1.96 standard errors, the variance
    taken at each such value (``4 a S + b``: ``a`` the Rayleigh quotient of the weighted
    covariance in the direction of the moves, ``b`` the second-order term), so it widens
    where ``S`` is large and stays honest near 0, where a normal interval around the
    estimate undercovers (87% where this one gives 95%, in tests/explore/test_paired.py).
    The interval of ``√S`` is the square root of ``S``'s."""
    w = np.asarray(weights, dtype=float)
    s = float(np.sum(w * (d * d - np.diag(covariance))))
    wv = w[:, None] * covariance
    b = 2.0 * float(np.trace(wv @ wv))
    root = np.sqrt(w)
    spectrum = np.linalg.eigvalsh(root[:, None] * covariance * root[None, :])
    low_a, high_a = float(spectrum.min(initial=0.0)), float(spectrum.max(initial=0.0))
    square = float(w @ (d * d))
    a = float((w * d) @ covariance @ (w * d)) / square if square > 0 else high_a
    a = min(max(a, low_a), high_a)
    centre = s + 2.0 * Z95 * Z95 * a
    half = math.sqrt(max(0.0, centre * centre - s * s + Z95 * Z95 * b))
    value = math.sqrt(max(0.0, s))
    low = math.sqrt(max(0.0, centre - half))
    high = math.sqrt(max(0.0, centre + half))
    return Estimate(value, min(low, value), max(high, value))


def largest_move(d: np.ndarray, covariance: np.ndarray) -> tuple[int, Estimate]:
    """The label moved most (largest ``|d_i|``) and the size of that move, ``M = max |d_i|``,
    with a 95% interval built from intervals of each ``|d_i|`` (a maximum's own bootstrap
    is biased, and the estimate fell outside it).

    The upper end fails only when the label that truly moves most lies above its own
    interval: one tail at 2.5%. The lower end fails when any label's interval lies wholly
    beyond ``M``: 2.5% shared (Bonferroni) over the *contenders*, the labels whose own 95%
    interval reaches the others' largest lower end. Sharing it over every label made the
    interval cover 100% where one label stands out (the coverage benchmark)."""
    if d.size == 0:
        return 0, Estimate(0.0, 0.0, 0.0)
    se = np.sqrt(np.maximum(np.diag(covariance), 0.0))
    size = np.abs(d)
    count = contenders(size - Z95 * se, size + Z95 * se)
    low_z = NormalDist().inv_cdf(1 - 0.0125 / count)
    nearest = np.maximum(0.0, size - low_z * se)
    farthest = size + Z95 * se
    most = int(np.argmax(size))
    return most, Estimate(float(size.max()), float(nearest.max()), float(farthest.max()))


def rate_spread(rate: np.ndarray, covariance: np.ndarray) -> Estimate:
    """The best label's rate minus the worst's, ``max θ - min θ``, from estimates ``rate``
    with ``covariance``, with a 95% interval (a spread's own bootstrap is pushed up by
    noise) from the differences of the pairs that could be the best and the worst (their
    own 95% intervals reach the best's lower end, or the worst's upper end). The upper end
    fails only when the truly best and worst pair's difference lies above its interval:
    one tail at 2.5%. The lower end fails when any such pair's difference lies wholly above
    the spread: 2.5% shared (Bonferroni) among the pairs."""
    if rate.size < 2:
        return Estimate(0.0, 0.0, 0.0)
    se = np.sqrt(np.maximum(np.diag(covariance), 0.0))
    lows, highs = rate - Z95 * se, rate + Z95 * se
    best = np.flatnonzero(highs >= lows.max())
    worst = np.flatnonzero(lows <= highs.min())
    pairs = [(i, j) for i in best for j in worst if i != j]
    variance = np.diag(covariance)
    gaps = np.array([rate[i] - rate[j] for i, j in pairs])
    gap_se = np.sqrt(
        np.maximum(0.0, [variance[i] + variance[j] - 2 * covariance[i, j] for i, j in pairs])
    )
    low_z = NormalDist().inv_cdf(1 - 0.025 / len(pairs))
    value = float(rate.max() - rate.min())
    low = max(0.0, float((gaps - low_z * gap_se).max()))
    high = float((gaps + Z95 * gap_se).max())
    return Estimate(value, min(low, value), max(high, value))


def contenders(lows: np.ndarray, highs: np.ndarray) -> int:
    """How many labels could be the largest: those whose interval ``[low, high]`` reaches
    the largest lower end (at least one, the label with that lower end).

    >>> contenders(np.array([0.0, 0.5, 0.9]), np.array([0.4, 1.0, 1.2]))
    2
    """
    return max(1, int(np.count_nonzero(highs >= lows.max())))


# --- two tracks raced on the same numbers: is the difference beyond noise? ----------------


@dataclass(frozen=True)
class Paired:
    """A figure of one profile for comparing with other profiles of the same races: its
    value, each kept race's first-order influence on it (race ``r`` is the same race on
    every track of a seed, so two profiles' influences subtract race by race), and a
    variance the first order misses (``extra``: the second-order term of a square)."""

    value: float
    influence: np.ndarray
    extra: float = 0.0


def paired_headline(moves: Moves) -> Paired:
    """The headline's square ``S`` (:func:`spread_estimate`) as a :class:`Paired`: ``S``
    and the headline order alike, and ``S`` is where its noise is known."""
    w = moves.weights
    covariance = moves.covariance
    s = float(np.sum(w * (moves.d * moves.d - np.diag(covariance))))
    wv = w[:, None] * covariance
    return Paired(s, moves.influence @ (2.0 * w * moves.d), 2.0 * float(np.trace(wv @ wv)))


def paired_mean(values: np.ndarray, races: int) -> Paired:
    """A mean over races (the rounds) from the kept races' values, over ``races`` in all."""
    kept = values.shape[0]
    scale = math.sqrt(races / max(1, kept)) / races
    return Paired(float(values.mean()), (values - values.mean()) * scale)


def difference_p_value(a: Paired, b: Paired) -> float:
    """The two-sided p-value of ``a.value - b.value`` being zero, race by race."""
    kept = min(a.influence.shape[0], b.influence.shape[0])
    z = a.influence[:kept] - b.influence[:kept]
    variance = float(z @ z) + float(np.sum(a.influence[kept:] ** 2))
    variance += float(np.sum(b.influence[kept:] ** 2)) + a.extra + b.extra
    if variance <= 0:
        return 0.0 if a.value != b.value else 1.0
    score = abs(a.value - b.value) / math.sqrt(variance)
    return 2.0 * (1.0 - NormalDist().cdf(score))


def holm(p_values: dict[tuple[str, str], float], level: float = 0.05) -> set[tuple[str, str]]:
    """The pairs whose difference is beyond noise at ``level`` after Holm's correction for
    the number of pairs compared (step-down: the k-th smallest p-value against
    ``level / (m - k + 1)``, stopping at the first that fails).

    >>> sorted(holm({("a", "b"): 0.001, ("a", "c"): 0.04, ("b", "c"): 0.03}))
    [('a', 'b')]
    """
    ordered = sorted(p_values.items(), key=lambda item: item[1])
    told: set[tuple[str, str]] = set()
    for k, (pair, p) in enumerate(ordered):
        if p > level / (len(ordered) - k):
            break
        told.add(pair)
    return told


def tie_groups(ranked: list[str], told: set[tuple[str, str]]) -> list[list[str]]:
    """``ranked`` (best first) cut into groups of tied names: a group runs from its first
    name while each next name is not told apart from that first (``told`` holds pairs,
    either way round)."""
    groups: list[list[str]] = []
    for name in ranked:
        if groups and (groups[-1][0], name) not in told and (name, groups[-1][0]) not in told:
            groups[-1].append(name)
        else:
            groups.append([name])
    return groups
