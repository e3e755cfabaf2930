"""The sweep benchmark's arithmetic and text (trackkit bench --sweep), and one tiny timed
sweep through it."""

from __future__ import annotations

import pytest

from trackkit.games.yummell.face.bench import SweepBench, sweep_bench_text, time_sweep


def _bench() -> SweepBench:
    return SweepBench(
        tracks=300,
        races=200,
        seconds={1: 10.0, 2: 5.5},
        overhead_seconds={1: 1.5, 2: 1.25},
        track_seconds={4: 0.0366, 5: 0.05, 8: 0.08},
        cost_tracks=300,
        space_sizes={4: 26_640, 5: 210_240, 8: 9_400_320},
    )


def test_the_extrapolations_follow_from_the_measured_cost() -> None:
    bench = _bench()
    assert bench.rate(1) == 30.0 and bench.factor == pytest.approx(10.0 / 5.5)
    assert bench.full_sweep_seconds(5, 2) == pytest.approx(210_240 * 0.05 / 2)
    assert bench.workers_for(8) == 209  # 9,400,320 × 80 ms = 752,026 s, over an hour
    assert bench.workers_for(4) == 1
    data = bench.to_json()
    assert data["workers_for_an_hour"] == {"4": 1, "5": 3, "8": 209}
    assert data["full_sweep_workers"] == 2


def test_the_text_gives_rates_costs_and_cluster_sizes() -> None:
    lines = sweep_bench_text(_bench()).splitlines()
    assert lines[0] == (
        "Sweep of 300 sampled 4-player tracks (200 races and the exact solver each): "
        "1 worker 30.0 tracks/s (+1.5 s cluster start and warm-up), 2 workers 54.5 tracks/s "
        "(+1.2 s cluster start and warm-up); 1.82x one worker"
    )
    assert lines[2] == (
        "  4 players: 36.6 ms/track; 26,640 tracks: 8.1 min on 2 workers, 1 worker for one hour"
    )
    assert lines[4] == (
        "  8 players: 80.0 ms/track; 9,400,320 tracks: 104.4 h on 2 workers, 209 workers for "
        "one hour"
    )


@pytest.mark.slow  # a timed sweep on Dask: about 3 s
def test_a_tiny_timed_sweep() -> None:
    bench = time_sweep(16, 10, workers=(1,), players=(4,))
    assert bench.tracks == 16 and set(bench.seconds) == {1}
    assert bench.track_seconds[4] > 0 and bench.space_sizes == {4: 26_640}
