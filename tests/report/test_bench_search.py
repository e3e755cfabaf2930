"""The search benchmark: both methods get the same budget on the same seeds, and the
figures reported are the checked ones."""

from __future__ import annotations

import statistics

import pytest

from trackkit.games import get_ruleset
from trackkit.report.bench_search import bench_search, bench_search_text


@pytest.mark.slow  # seven searches of each method: about 12 s
def test_both_methods_are_run_on_every_seed_and_compared() -> None:
    space = get_ruleset("yummell").track_space(3)
    bench = bench_search(space, target_length=9.0, budget=20, seeds=2)
    data = bench.to_json()
    assert len(bench.map_elites) == len(bench.random) == 2
    assert data["map_elites_median"] == statistics.median(bench.map_elites)
    assert data["map_elites_better"] == sum(
        m > r for m, r in zip(bench.map_elites, bench.random, strict=True)
    )
    assert all(value <= 1 for value in bench.map_elites + bench.random)
    text = bench_search_text(bench)
    assert "20 profiles per search, 2 seeds" in text and "better in" in text
