"""The search benchmark: MAP-Elites against uniform random sampling at the same budget.

For each seed, both methods spend ``budget`` profiles on the same space and target; the
best track each found is profiled again with more races and another seed, and that
checked fitness (minus the unfairness, less a penalty outside the length tolerance) is
compared, so a lucky first profile does not count. Reported: the median checked fitness of
each method over the seeds, how often MAP-Elites did better, and the seconds each took.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any

from trackkit.explore.profile import ProfileSettings
from trackkit.explore.search import SearchResult, SearchSettings, search

SEARCH_PLAYERS = 5
SEARCH_TARGET = 14.5  # 5 players: about a third of the tracks are shorter
SEARCH_BUDGET = 300
SEARCH_SEEDS = 7


@dataclass(frozen=True)
class SearchBench:
    players: int
    target_length: float
    budget: int
    seeds: int
    map_elites: tuple[float, ...]  # checked fitness of the best track, per seed
    random: tuple[float, ...]
    seconds: dict[str, float]

    @property
    def wins(self) -> int:
        return sum(m > r for m, r in zip(self.map_elites, self.random, strict=True))

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "target_length": self.target_length,
            "budget": self.budget,
            "seeds": self.seeds,
            "map_elites_median": statistics.median(self.map_elites),
            "random_median": statistics.median(self.random),
            "map_elites": list(self.map_elites),
            "random": list(self.random),
            "map_elites_better": self.wins,
            "seconds": self.seconds,
        }


def _best(result: SearchResult) -> float:
    return max(found.checked_fitness for found in result.best)


def bench_search(
    space: Any,
    *,
    target_length: float = SEARCH_TARGET,
    budget: int = SEARCH_BUDGET,
    seeds: int = SEARCH_SEEDS,
) -> SearchBench:
    """Both methods on ``space`` for seeds 0 to ``seeds - 1`` (the best 3 of each checked)."""
    found: dict[str, list[float]] = {"map-elites": [], "random": []}
    seconds = dict.fromkeys(found, 0.0)
    for seed in range(seeds):
        for method in found:
            start = time.perf_counter()
            settings = SearchSettings(target_length, budget=budget, method=method, top=3)
            result = search(space, settings, ProfileSettings(seed=seed))
            seconds[method] += time.perf_counter() - start
            found[method].append(_best(result))
    return SearchBench(
        players=space.players,
        target_length=target_length,
        budget=budget,
        seeds=seeds,
        map_elites=tuple(found["map-elites"]),
        random=tuple(found["random"]),
        seconds=seconds,
    )


def bench_search_text(bench: SearchBench) -> str:
    data = bench.to_json()
    return "\n".join(
        [
            f"Search: {bench.players} players, mean length {bench.target_length:g} rounds, "
            f"{bench.budget} profiles per search, {bench.seeds} seeds",
            f"  best track's checked fitness, median: MAP-Elites {data['map_elites_median']:.3f}"
            f", uniform random {data['random_median']:.3f}",
            f"  MAP-Elites better in {bench.wins} of {bench.seeds} seeds; seconds: MAP-Elites "
            f"{bench.seconds['map-elites']:.0f}, random {bench.seconds['random']:.0f}",
        ]
    )
