"""The benchmark: how fast the engine plays, scales and solves, measured in one run.

Workloads (``king-of-toads``, 5 players, greedy, one worker):

- **standard**: full rules, finite deck;
- **movement**: encounters off, infinite deck, and content whose characters and
  advantages do nothing (:func:`plain_content`): what is left is drawing, moving,
  capacity and fall-back, +1 MP per occupant, and the turn order.

Each is timed compiled, after its one-off compilation (or cache load), and as the very
same code run as plain Python (``NUMBA_DISABLE_JIT=1``, in a subprocess), so the speed-up
is measured in one run against the same rules. Then a 200,000-race simulation on one and
on two workers (the scaling), the exact solo solver on ``king-of-toads`` with encounters
on (every character and advantage, in-process, its solution cache emptied before each
run), and the six presets simulated. Figures are medians of several repeats, because the
machine is shared and noisy; with ``cold=True`` the first compilation is measured too, in
a subprocess with an empty numba cache (minutes).

The sweep benchmark (:func:`time_sweep`, ``trackkit bench --sweep``) times whole sweeps
(Dask, profiles, Parquet) of a uniform sample of 4-player tracks on a local cluster of one
and of two workers, measures the cost of a 5- and an 8-player track the same way, and
extrapolates the full sweeps of those spaces and the workers an 8-player sweep in one hour
would need.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from trackkit.games import get_ruleset
from trackkit.games.yummell.core.content import (
    ADV_EFFECT,
    CHAR_ABILITY,
    Content,
    Effect,
    load_content,
)
from trackkit.games.yummell.core.options import RaceOptions
from trackkit.games.yummell.core.presets import PRESET_SLUGS, load_preset

TRACK = "king-of-toads"
PLAYERS = 5
SNOW_TRACK = "long-trail"  # the longest demo track, with all four buildings
WORKLOADS = ("standard", "movement", "snowtails")
DESCRIPTIONS = {
    "standard": f"{TRACK}, {PLAYERS} players, full rules, finite deck, greedy, 1 worker",
    "movement": (
        f"{TRACK}, {PLAYERS} players, no encounters, infinite deck, characters and "
        "advantages without effects, greedy, 1 worker"
    ),
    "snowtails": f"Snow Tails {SNOW_TRACK}, {PLAYERS} sleds, full rules, greedy, 1 worker",
}
SCALING_RACES = 200_000
SCALING_WORKERS = (1, 2)


def plain_content(content: Content) -> Content:
    """``content`` with every character's ability and every advantage's effect removed:
    the movement workload's characters all move alike."""
    characters = content.characters.copy()
    characters[:, CHAR_ABILITY] = int(Effect.NONE)
    advantages = content.advantages.copy()
    advantages[:, ADV_EFFECT] = int(Effect.NONE)
    return dataclasses.replace(content, characters=characters, advantages=advantages)


def workload_options(workload: str) -> Any:
    if workload == "snowtails":
        return get_ruleset("snowtails").options(players=PLAYERS, policy="greedy")
    if workload == "standard":
        return RaceOptions(players=PLAYERS, deck="finite", policy="greedy", encounters=True)
    return RaceOptions(
        players=PLAYERS,
        deck="infinite",
        policy="greedy",
        encounters=False,
        content=plain_content(load_content()),
    )


def _rate(workload: str, races: int, repeats: int, first_batch: int = 0) -> list[float]:
    """Races per second of ``repeats`` timed runs of ``races`` races each, through the
    game's ruleset (the track prepared once, as a simulation does)."""
    options = workload_options(workload)
    ruleset = options.ruleset
    slug = SNOW_TRACK if workload == "snowtails" else TRACK
    board = ruleset.prepare(ruleset.load_preset(slug), options)
    rates = []
    for repeat in range(repeats):
        start = time.perf_counter()
        ruleset.play_batch(board, options, seed=1, batch=first_batch + repeat, races=races)
        rates.append(races / (time.perf_counter() - start))
    return rates


def interpreted_rates(workload: str, races: int, repeats: int) -> list[float]:
    """The same engine as plain Python, measured in a subprocess with the JIT disabled."""
    code = (
        "import json; from trackkit.games.yummell.face.bench import _rate; "
        f"print(json.dumps(_rate({workload!r}, {races}, {repeats})))"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    output = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    return list(json.loads(output.strip().splitlines()[-1]))


def _median(values: list[float]) -> float:
    return statistics.median(values)


@dataclass(frozen=True)
class WorkloadResult:
    """One workload's races per second, compiled and as plain Python."""

    name: str
    description: str
    compiled_races: int
    compiled_rates: list[float]
    interpreted_races: int
    interpreted_rates: list[float]

    @property
    def compiled_median(self) -> float:
        return _median(self.compiled_rates)

    @property
    def interpreted_median(self) -> float:
        return _median(self.interpreted_rates)

    @property
    def speedup(self) -> float:
        return self.compiled_median / self.interpreted_median

    def to_json(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "races_per_second": self.compiled_median,
            "interpreted_races_per_second": self.interpreted_median,
            "speedup": self.speedup,
        }


@dataclass(frozen=True)
class ScalingResult:
    """A standard-workload simulation of ``races`` races, timed on each number of workers
    (seconds per repeat, process start-up included)."""

    races: int
    seconds: dict[int, list[float]]

    def rate(self, workers: int) -> float:
        return self.races / _median(self.seconds[workers])

    @property
    def factor(self) -> float:
        """How many times faster the most workers are than one."""
        return self.rate(max(self.seconds)) / self.rate(1)

    def to_json(self) -> dict[str, Any]:
        return {
            "races": self.races,
            "seconds": {str(w): s for w, s in self.seconds.items()},
            "races_per_second": {str(w): self.rate(w) for w in self.seconds},
            "factor": self.factor,
        }


@dataclass(frozen=True)
class ExactTiming:
    """The exact solo solver on the benchmark track with encounters on: every character
    and advantage pair (the default ``trackkit exact``), and one pair, in-process."""

    pairs: int
    all_pairs_seconds: list[float]
    one_pair_seconds: list[float]

    def to_json(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "all_pairs_median_seconds": _median(self.all_pairs_seconds),
            "one_pair_median_seconds": _median(self.one_pair_seconds),
        }


@dataclass(frozen=True)
class BenchResult:
    warmup_seconds: float
    workloads: list[WorkloadResult]
    scaling: ScalingResult | None = None
    exact: ExactTiming | None = None
    compare_seconds: float | None = None
    cold_compile_seconds: float | None = None

    def workload(self, name: str) -> WorkloadResult:
        return next(w for w in self.workloads if w.name == name)

    def to_json(self) -> dict[str, Any]:
        return {
            "warmup_seconds": self.warmup_seconds,
            "cold_compile_seconds": self.cold_compile_seconds,
            "workloads": {w.name: w.to_json() for w in self.workloads},
            "scaling": self.scaling.to_json() if self.scaling else None,
            "exact": self.exact.to_json() if self.exact else None,
            "compare_seconds": self.compare_seconds,
        }


def time_scaling(races: int, repeats: int, workers: tuple[int, ...]) -> ScalingResult:
    from trackkit.sim.montecarlo import simulate

    track, options = load_preset(TRACK), workload_options("standard")
    seconds: dict[int, list[float]] = {w: [] for w in workers}
    for _ in range(repeats):
        for count in workers:  # interleaved, so a noisy moment hits both alike
            start = time.perf_counter()
            simulate(track, options, races=races, seed=1, workers=count)
            seconds[count].append(time.perf_counter() - start)
    return ScalingResult(races, seconds)


def time_exact(repeats: int) -> ExactTiming:
    from trackkit.games.yummell.core import exact

    track = load_preset(TRACK)
    exact.exact_solo(track, character=0, advantage=0, workers=1)  # compile or load
    content = load_content()
    pairs = len(content.character_names) * len(content.advantage_names)
    every, one = [], []
    for _ in range(repeats):
        exact.forget_solved()
        start = time.perf_counter()
        exact.exact_solo(track, workers=1)
        every.append(time.perf_counter() - start)
        exact.forget_solved()
        start = time.perf_counter()
        exact.exact_solo(track, character=0, advantage=0, workers=1)
        one.append(time.perf_counter() - start)
    return ExactTiming(pairs, every, one)


def time_cold_compile() -> float:
    """Seconds for the warm-up (race engine and exact solver) with an empty numba cache,
    in a subprocess (the machine's own cache is left alone)."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "trackkit.games.yummell.core.warmup"],
            env=env,
            capture_output=True,
            check=True,
        )
        return time.perf_counter() - start


def run_bench(
    races: int = 20_000,
    repeats: int = 5,
    interpreted_races: int = 200,
    compare_races: int = 10_000,
    *,
    scaling_races: int = SCALING_RACES,
    scaling_repeats: int = 3,
    exact_repeats: int = 3,
    cold: bool = False,
) -> BenchResult:
    """Time both workloads compiled and interpreted, the scaling over workers, the exact
    solver and a simulation of the six presets (each part skipped when its count is 0)."""
    from trackkit.sim.montecarlo import simulate

    start = time.perf_counter()
    for workload in WORKLOADS:
        _rate(workload, 1, 1)  # compile, or load the compiled engine from numba's cache
    warmup = time.perf_counter() - start
    results = []
    for workload in WORKLOADS:
        compiled = _rate(workload, races, repeats, first_batch=100)
        interpreted = interpreted_rates(workload, interpreted_races, repeats)
        results.append(
            WorkloadResult(
                workload,
                DESCRIPTIONS[workload],
                races,
                compiled,
                interpreted_races,
                interpreted,
            )
        )
    scaling = (
        time_scaling(scaling_races, scaling_repeats, SCALING_WORKERS)
        if scaling_races and scaling_repeats
        else None
    )
    exact = time_exact(exact_repeats) if exact_repeats else None
    compare = None
    if compare_races:
        start = time.perf_counter()
        for slug in PRESET_SLUGS:
            simulate(load_preset(slug), RaceOptions(players=PLAYERS), races=compare_races, seed=1)
        compare = time.perf_counter() - start
    cold_seconds = time_cold_compile() if cold else None
    return BenchResult(warmup, results, scaling, exact, compare, cold_seconds)


SWEEP_TRACKS = 300
SWEEP_RACES = 200
SWEEP_PLAYERS = (4, 5, 8)
SWEEP_HOUR = 3600.0


@dataclass(frozen=True)
class SweepBench:
    """Sweeps of ``tracks`` sampled 4-player tracks (``races`` races and the exact solver
    each) on each number of local workers, and the cost of a track for each player count.

    ``seconds``: the sweep itself, after the cluster's start and the workers' warm-up
    (``overhead_seconds``); ``track_seconds``: seconds of one worker per track, measured
    on the most workers (so the machine's sharing between them is in it)."""

    tracks: int
    races: int
    seconds: dict[int, float]
    overhead_seconds: dict[int, float]
    track_seconds: dict[int, float]
    cost_tracks: int
    space_sizes: dict[int, int]

    def rate(self, workers: int) -> float:
        """Tracks per second on ``workers`` workers (4 players)."""
        return self.tracks / self.seconds[workers]

    @property
    def factor(self) -> float:
        return self.rate(max(self.seconds)) / self.rate(min(self.seconds))

    def full_sweep_seconds(self, players: int, workers: int) -> float:
        """Extrapolated seconds of the full sweep of ``players`` on ``workers`` workers."""
        return self.space_sizes[players] * self.track_seconds[players] / workers

    def workers_for(self, players: int, seconds: float = SWEEP_HOUR) -> int:
        """Workers (one core each) a full sweep of ``players`` in ``seconds`` needs."""
        return math.ceil(self.space_sizes[players] * self.track_seconds[players] / seconds)

    def to_json(self) -> dict[str, Any]:
        most = max(self.seconds)
        return {
            "tracks": self.tracks,
            "races": self.races,
            "seconds": {str(w): s for w, s in self.seconds.items()},
            "overhead_seconds": {str(w): s for w, s in self.overhead_seconds.items()},
            "tracks_per_second": {str(w): self.rate(w) for w in self.seconds},
            "factor": self.factor,
            "cost_tracks": self.cost_tracks,
            "track_seconds": {str(p): s for p, s in self.track_seconds.items()},
            "space_sizes": {str(p): n for p, n in self.space_sizes.items()},
            "full_sweep_seconds": {
                str(p): self.full_sweep_seconds(p, most) for p in self.space_sizes
            },
            "full_sweep_workers": most,
            "workers_for_an_hour": {str(p): self.workers_for(p) for p in self.space_sizes},
        }


def _timed_sweep(
    players: int, tracks: int, races: int, workers: int, seed: int
) -> tuple[float, float]:
    """Seconds of the sweep itself and of its cluster start and warm-up: a sample of
    ``tracks`` tracks, in a temporary folder, partitions of a sixteenth of the tracks."""
    from trackkit.explore.sweep import SWEEP_PROFILE, Cluster, run_sweep, space_of

    space = space_of("yummell", players)
    with tempfile.TemporaryDirectory() as folder:
        run = run_sweep(
            space,
            Path(folder) / "sweep",
            dataclasses.replace(SWEEP_PROFILE, races=races, seed=seed),
            sample=min(tracks, len(space)),
            partition_size=max(1, tracks // 16),
            cluster=Cluster(workers=workers),
        )
    return run.sweep_seconds, run.start_seconds + run.warmup_seconds


def time_sweep(
    tracks: int = SWEEP_TRACKS,
    races: int = SWEEP_RACES,
    *,
    workers: tuple[int, ...] = SCALING_WORKERS,
    players: tuple[int, ...] = SWEEP_PLAYERS,
    cost_tracks: int | None = None,
) -> SweepBench:
    """Time sweeps of ``tracks`` sampled 4-player tracks on each number of ``workers``,
    and ``cost_tracks`` (default as many) of each other player count on the most workers;
    the space sizes for the extrapolations."""
    from trackkit.explore.sweep import space_of

    seconds, overhead = {}, {}
    for count in workers:
        seconds[count], overhead[count] = _timed_sweep(4, tracks, races, count, seed=1)
    most = max(workers)
    cost = {4: most * seconds[most] / tracks}
    cost_tracks = cost_tracks or tracks
    for count in players:
        if count != 4:
            spent, _ = _timed_sweep(count, cost_tracks, races, most, seed=1)
            cost[count] = most * spent / cost_tracks
    sizes = {count: len(space_of("yummell", count)) for count in players}
    return SweepBench(tracks, races, seconds, overhead, cost, cost_tracks, sizes)


def bench_text(result: BenchResult) -> str:
    """Each workload's races per second compiled and as plain Python with the speed-up,
    the scaling over workers, the exact solver's time, the compile time and the time to
    simulate the six presets."""
    lines = [f"Compile or cache load: {result.warmup_seconds:.1f} s"]
    if result.cold_compile_seconds is not None:
        lines.append(f"First compile, empty cache: {result.cold_compile_seconds:.0f} s")
    for w in result.workloads:
        lines += [
            f"Workload {w.name}: {w.description}",
            f"  compiled: {w.compiled_median:,.0f} races/s (median of "
            f"{len(w.compiled_rates)} runs of {w.compiled_races:,} races: "
            + ", ".join(f"{r:,.0f}" for r in w.compiled_rates)
            + ")",
            f"  same code as plain Python: {w.interpreted_median:,.0f} races/s (median of "
            f"{len(w.interpreted_rates)} runs of {w.interpreted_races} races)",
            f"  speed-up: {w.speedup:,.0f}x",
        ]
    if result.scaling is not None:
        scaling = result.scaling
        rates = ", ".join(
            f"{w} worker{'s' if w > 1 else ''} {scaling.rate(w):,.0f} races/s"
            for w in scaling.seconds
        )
        lines.append(
            f"Scaling, {scaling.races:,} races (standard): {rates}; "
            f"{scaling.factor:.2f}x one worker"
        )
    if result.exact is not None:
        timing = result.exact
        lines.append(
            f"Exact solver, encounters on: {statistics.median(timing.all_pairs_seconds):.2f} s "
            f"for every character and advantage ({timing.pairs} pairs), "
            f"{statistics.median(timing.one_pair_seconds) * 1000:.0f} ms for one pair"
        )
    if result.compare_seconds is not None:
        lines.append(f"Six presets x 10,000 races: {result.compare_seconds:.1f} s")
    return "\n".join(lines)


def sweep_bench_text(bench: SweepBench) -> str:
    """Tracks per second on each number of workers, the cost of a track by players, and
    the full sweeps extrapolated from it."""
    most = max(bench.seconds)
    rates = ", ".join(
        f"{w} worker{'s' if w > 1 else ''} {bench.rate(w):,.1f} tracks/s "
        f"(+{bench.overhead_seconds[w]:.1f} s cluster start and warm-up)"
        for w in bench.seconds
    )
    lines = [
        f"Sweep of {bench.tracks:,} sampled 4-player tracks ({bench.races} races and the "
        f"exact solver each): {rates}; {bench.factor:.2f}x one worker",
        f"Cost of a track on one worker (measured on {most}; other player counts on "
        f"{bench.cost_tracks:,} sampled tracks), and the full sweep extrapolated:",
    ]
    for players, size in bench.space_sizes.items():
        needed = bench.workers_for(players)
        lines.append(
            f"  {players} players: {bench.track_seconds[players] * 1000:.1f} ms/track; "
            f"{size:,} tracks: {_duration(bench.full_sweep_seconds(players, most))} on {most} "
            f"worker{'s' if most > 1 else ''}, {needed:,} worker{'s' if needed > 1 else ''} "
            "for one hour"
        )
    return "\n".join(lines)


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"
