"""The reliability benchmark: does a profile rank tracks by what they are, or by luck?

``trackkit bench --reliability`` profiles a uniform sample of tracks twice at the default
settings (:data:`~trackkit.explore.profile.PROFILE_RACES` races, the profile options, the
exact solver as a sweep runs it), the second time with another seed, and reports for every
sampled figure the rank correlation (Spearman) of the two profiles across the tracks, with
the CPU seconds a profile costs: reliability per CPU-second, to compare later changes
against. The baseline in the same run is the same profiles raced the old way, each track
with its own seed (no common random numbers), so what common numbers buy is measured on
the same machine at the same moment.

``trackkit bench --retest A B`` compares two sweeps of the same tracks (run with different
seeds) the same way, joined on the tracks' ranks: the check of a whole space.

>>> round(spearman([1, 2, 3, 4], [10, 20, 40, 30]), 2)
0.8
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from trackkit.errors import TrackkitError, shown
from trackkit.explore.profile import (
    FIGURES,
    PROFILE_RACES,
    START_FIGURES,
    ProfileSettings,
    profile_options,
    profile_track,
)
from trackkit.explore.seeds import draw_seed

RELIABILITY_PLAYERS = 4
RELIABILITY_TRACKS = 100
SEEDS = (101, 202)
# what the retest reports: every sampled figure (exact ones are the same every time)
RETESTED = tuple(f.key for f in (*FIGURES, *START_FIGURES) if f.kind == "sampled")


def spearman(a: Any, b: Any) -> float:
    """Spearman's rank correlation of two equally long sequences (ties: mean ranks)."""
    x = pd.Series(np.asarray(a, dtype=float)).rank().to_numpy()
    y = pd.Series(np.asarray(b, dtype=float)).rank().to_numpy()
    if len(x) < 3 or np.std(x) == 0 or np.std(y) == 0:
        return math.nan
    return float(np.corrcoef(x, y)[0, 1])


@dataclass(frozen=True)
class Retest:
    """Two runs of the same tracks: each figure's rank correlation between them."""

    what: str
    tracks: int
    races: int
    correlations: dict[str, float]
    cpu_seconds_per_profile: float = math.nan
    baseline: dict[str, float] | None = None  # each track its own seed (no common numbers)
    baseline_cpu_seconds: float = math.nan
    # per sweep: the share of its tracks told apart from its fairest (lowest unfairness)
    told_from_fairest: tuple[float, ...] = ()
    largest_tie: tuple[float, ...] = ()  # per sweep: the share of tracks at its commonest value
    # per figure of two sweeps: its spread over the tracks (standard deviation) and its
    # typical interval's half-width (the median), in the first sweep
    spread: dict[str, tuple[float, float]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "what": self.what,
            "tracks": self.tracks,
            "races": self.races,
            "spearman": self.correlations,
            "cpu_seconds_per_profile": self.cpu_seconds_per_profile,
            "baseline_spearman": self.baseline,
            "baseline_cpu_seconds_per_profile": self.baseline_cpu_seconds,
            "told_from_fairest": list(self.told_from_fairest),
            "largest_tie": list(self.largest_tie),
            "spread_and_half_width": {k: list(v) for k, v in self.spread.items()},
        }


def bench_reliability(
    players: int = RELIABILITY_PLAYERS,
    tracks: int = RELIABILITY_TRACKS,
    races: int = PROFILE_RACES,
    seed: int = 0,
) -> Retest:
    """Profile ``tracks`` uniformly drawn tracks of the ``players`` space twice (seeds
    101 and 202, every track with the run's seed), then the baseline (each track its own
    seed); the rank correlations and CPU seconds of each."""
    from trackkit.games import DEFAULT_GAME, get_ruleset

    ruleset = get_ruleset(DEFAULT_GAME)
    space = ruleset.track_space(players)
    if not 3 <= tracks <= len(space):
        raise TrackkitError(f"the benchmark profiles 3 to {len(space):,} tracks, not {tracks}")
    drawn = [space.track(rank) for rank in space.sample_ranks(tracks, seed, distinct=True)]
    options = profile_options(ruleset, players)
    warm = ProfileSettings(races=races, characters=False)
    profile_track(drawn[0], warm, players=players, options=options)

    def run(common: bool) -> tuple[list[list[dict[str, float]]], float]:
        runs, start = [], time.process_time()
        for run_seed in SEEDS:
            rows = []
            for k, track in enumerate(drawn):
                track_seed = run_seed if common else draw_seed(run_seed, k + 1)
                # a sweep's settings: characters are opt-in
                settings = ProfileSettings(races=races, seed=track_seed, characters=False)
                profile = profile_track(track, settings, players=players, options=options)
                rows.append(profile.values)
            runs.append(rows)
        return runs, (time.process_time() - start) / (len(SEEDS) * len(drawn))

    common, cpu = run(common=True)
    alone, alone_cpu = run(common=False)
    return Retest(
        what=f"{tracks} uniformly drawn {players}-player tracks, profiled twice",
        tracks=tracks,
        races=races,
        correlations=_correlations(*common),
        cpu_seconds_per_profile=cpu,
        baseline=_correlations(*alone),
        baseline_cpu_seconds=alone_cpu,
    )


def _correlations(a: list[dict[str, float]], b: list[dict[str, float]]) -> dict[str, float]:
    return {key: spearman([r[key] for r in a], [r[key] for r in b]) for key in RETESTED}


def retest_sweeps(first: str | Path, second: str | Path) -> Retest:
    """Two sweeps of the same tracks (other seeds), joined on rank: each sampled figure's
    rank correlation between them."""
    from trackkit.explore.sweep import read_manifest, read_sweep

    plans = [read_manifest(folder) for folder in (first, second)]
    if any(plan is None for plan in plans):
        raise TrackkitError("a retest compares two sweep folders (trackkit sweep --out)")
    a, b = plans
    assert a is not None and b is not None
    if a.seed == b.seed:
        raise TrackkitError("the two sweeps have the same seed: a retest needs two seeds")
    left = read_sweep(first).to_pandas().set_index("rank")
    right = read_sweep(second).to_pandas().set_index("rank")
    shared = left.index.intersection(right.index)
    if len(shared) < 3:
        raise TrackkitError(
            f"{shown(str(first))} and {shown(str(second))} share {len(shared)} tracks: a "
            "retest needs sweeps of the same tracks"
        )
    keys = [k for k in RETESTED if k in left.columns and k in right.columns]
    frames = (left.loc[shared], right.loc[shared])
    return Retest(
        what=f"two sweeps of {a.players}-player tracks (seeds {a.seed}, {b.seed})",
        tracks=len(shared),
        races=a.races,
        correlations={k: spearman(left.loc[shared, k], right.loc[shared, k]) for k in keys},
        told_from_fairest=tuple(told_from_fairest(frame) for frame in frames),
        largest_tie=tuple(largest_tie(frame["unfairness"]) for frame in frames),
        spread={k: spread_and_half_width(frames[0], k) for k in keys},
    )


def spread_and_half_width(frame: pd.DataFrame, key: str) -> tuple[float, float]:
    """How much ``key`` varies over a sweep's tracks (standard deviation) and its typical
    95% half-width (median): a figure that tells tracks apart varies more than its noise."""
    if f"{key}_low" not in frame.columns:
        return math.nan, math.nan
    half = (frame[f"{key}_high"] - frame[f"{key}_low"]) / 2
    return float(frame[key].std()), float(half.median())


def told_from_fairest(frame: pd.DataFrame) -> float:
    """The share of a sweep's tracks whose unfairness is told apart from the fairest
    track's: each difference tested with the two 95% intervals' standard errors (taken
    as independent), Holm-corrected over the tracks compared."""
    from statistics import NormalDist

    from trackkit.explore.paired import Z95, holm

    if "unfairness_low" not in frame.columns or len(frame) < 2:
        return math.nan
    value = frame["unfairness"].to_numpy()
    error = (frame["unfairness_high"] - frame["unfairness_low"]).to_numpy() / (2 * Z95)
    best = int(np.argmin(value))
    spread = np.hypot(error, error[best])
    score = np.divide(value - value[best], spread, out=np.zeros_like(value), where=spread > 0)
    normal = NormalDist()
    p_values = {(best, i): 2 * (1 - normal.cdf(z)) for i, z in enumerate(score) if i != best}
    return len(holm(p_values)) / len(frame)


def largest_tie(values: pd.Series) -> float:
    """The share of the tracks that hold a sweep's commonest value of a figure."""
    return float(values.value_counts().iloc[0] / len(values)) if len(values) else math.nan


def retest_text(retest: Retest) -> str:
    """The retest as a table: each figure's rank correlation (and the baseline's)."""
    lines = [f"Retest: {retest.what}, {retest.races:,} races a profile ({retest.tracks:,} tracks)"]
    if not math.isnan(retest.cpu_seconds_per_profile):
        lines.append(
            f"CPU seconds a profile: {retest.cpu_seconds_per_profile:.3f} (common random "
            f"numbers), {retest.baseline_cpu_seconds:.3f} (baseline: each track its own seed)"
        )
    header = f"  {'figure':<22} {'spearman':>9}"
    if retest.baseline:
        header += f" {'baseline':>9}"
    if retest.spread:
        header += f" {'spread (sd)':>12} {'half-width':>11}"
    lines.append(header)
    for key, value in retest.correlations.items():
        line = f"  {key:<22} {value:9.3f}"
        if retest.baseline:
            line += f" {retest.baseline[key]:9.3f}"
        if retest.spread:
            sd, half = retest.spread.get(key, (math.nan, math.nan))
            line += f" {sd:12.3f} {half:11.3f}"
        lines.append(line)
    for i, share in enumerate(retest.told_from_fairest):
        lines.append(
            f"Sweep {i + 1}: {share:.1%} of the tracks told apart from the fairest (unfairness, "
            f"95%, Holm); the commonest unfairness value holds {retest.largest_tie[i]:.2%} of "
            "them"
        )
    return "\n".join(lines)
