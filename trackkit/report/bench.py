"""The standard benchmark: how many races per second the engine plays.

Workload: ``king-of-toads``, 5 players, full rules, finite deck, greedy policy, one
worker. The compiled engine is timed after its one-off compilation (or cache load); the
baseline is the very same code run as plain Python (``NUMBA_DISABLE_JIT=1``, in a
subprocess), so the speed-up is measured in one run against the same rules. Figures are
medians of several repeats, because the machine is shared and noisy.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any

from trackkit.games.yummell.presets import PRESET_SLUGS, load_preset
from trackkit.games.yummell.ruleset import play_batch
from trackkit.games.yummell.setup import RaceOptions, race_board

TRACK = "king-of-toads"
PLAYERS = 5


def _rate(races: int, repeats: int, first_batch: int = 0) -> list[float]:
    """Races per second of ``repeats`` timed runs of ``races`` races each."""
    board = race_board(load_preset(TRACK))
    options = RaceOptions(players=PLAYERS, deck="finite", policy="greedy", encounters=True)
    rates = []
    for repeat in range(repeats):
        start = time.perf_counter()
        play_batch(board, options, seed=1, batch=first_batch + repeat, races=races)
        rates.append(races / (time.perf_counter() - start))
    return rates


def interpreted_rates(races: int, repeats: int) -> list[float]:
    """The same engine as plain Python, measured in a subprocess with the JIT disabled."""
    code = (
        "import json; from trackkit.report.bench import _rate; "
        f"print(json.dumps(_rate({races}, {repeats})))"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    output = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    return list(json.loads(output.strip().splitlines()[-1]))


@dataclass(frozen=True)
class BenchResult:
    workload: str
    warmup_seconds: float
    compiled_races: int
    compiled_rates: list[float]
    interpreted_races: int
    interpreted_rates: list[float]
    compare_seconds: float

    @property
    def compiled_median(self) -> float:
        return statistics.median(self.compiled_rates)

    @property
    def interpreted_median(self) -> float:
        return statistics.median(self.interpreted_rates)

    @property
    def speedup(self) -> float:
        return self.compiled_median / self.interpreted_median

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(
            races_per_second=self.compiled_median,
            interpreted_races_per_second=self.interpreted_median,
            speedup=self.speedup,
        )
        return data


def run_bench(
    races: int = 20_000, repeats: int = 5, interpreted_races: int = 200, compare_races: int = 10_000
) -> BenchResult:
    """Time the standard workload compiled and interpreted, and a full ``compare``."""
    from trackkit.sim.montecarlo import simulate

    start = time.perf_counter()
    _rate(1, 1)  # compile, or load the compiled engine from numba's cache
    warmup = time.perf_counter() - start
    compiled = _rate(races, repeats, first_batch=100)
    interpreted = interpreted_rates(interpreted_races, repeats)
    start = time.perf_counter()
    for slug in PRESET_SLUGS:
        simulate(load_preset(slug), RaceOptions(players=PLAYERS), races=compare_races, seed=1)
    compare = time.perf_counter() - start
    workload = f"{TRACK}, {PLAYERS} players, full rules, finite deck, greedy, 1 worker"
    return BenchResult(workload, warmup, races, compiled, interpreted_races, interpreted, compare)
