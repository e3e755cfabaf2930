"""Races in words: a simulation, one race turn by turn, the exact solo length, the benchmark."""

from __future__ import annotations

import re

import pytest

from trackkit.games.yummell.core.exact import ExactResult
from trackkit.games.yummell.core.options import RaceOptions
from trackkit.games.yummell.core.presets import load_preset
from trackkit.games.yummell.core.record import record_race
from trackkit.games.yummell.face.bench import (
    BenchResult,
    ExactTiming,
    ScalingResult,
    WorkloadResult,
    bench_text,
)
from trackkit.games.yummell.face.races import exact_text, race_text
from trackkit.report.races import percent, simulate_text
from trackkit.sim.montecarlo import SimulationResult, simulate


@pytest.fixture(scope="module")
def result() -> SimulationResult:
    options = RaceOptions(players=3, policy="smart", deck="infinite")
    return simulate(load_preset("first-run"), options, races=400, seed=7)


def test_simulate_text_gives_the_interval_of_the_data(result: SimulationResult) -> None:
    data = result.to_json()
    lines = simulate_text(result).splitlines()
    assert lines[0] == (
        "First run: 400 races, 3 players, policy smart, infinite deck, encounters on, seed 7"
    )
    low, high = data["ci95"]
    assert lines[1] == (
        f"Race length: {data['mean_rounds']:.2f} rounds (95% CI {low:.2f} to {high:.2f})"
    )
    assert low < data["mean_rounds"] < high


def test_simulate_text_draws_the_whole_distribution(result: SimulationResult) -> None:
    lines = simulate_text(result).splitlines()
    start = lines.index("Rounds  races") + 1
    bars = lines[start : start + len(result.histogram())]
    drawn = [re.fullmatch(r" +(\d+) +(\d+)  (#+)", line) for line in bars]
    assert all(drawn), bars
    assert {int(m[1]): int(m[2]) for m in drawn if m} == result.histogram()
    assert sum(int(m[2]) for m in drawn if m) == 400
    assert max(len(m[3]) for m in drawn if m) == 40  # the peak fills the bar
    assert not lines[start + len(bars)].startswith("  ")  # and the next table begins


def test_simulate_text_has_a_table_per_group_and_the_crowded_squares(
    result: SimulationResult,
) -> None:
    text = simulate_text(result)
    for group in result.groups:
        assert re.search(rf"^{re.escape(group.title)} +races +wins +mean place$", text, re.M)
        for row in result.by_group(group.key):
            assert f"  {row['name']:<26} {row['entries']:>7} {percent(row['win_rate'])}" in text
    crowded = text.split("Most crowded squares (turns ended there per race, fall-backs)\n")[1]
    assert len(crowded.splitlines()) == 5
    busiest = max(result.congestion(), key=lambda r: r["turns_per_race"])
    assert crowded.splitlines()[0].split()[0] == busiest["square"]


def test_race_text_follows_the_record_round_by_round() -> None:
    record = record_race(load_preset("first-run"), RaceOptions(players=3), seed=1)
    lines = race_text(record).splitlines()
    assert lines[0] == f"First run, seed 1: {record.rounds} rounds"
    assert lines[1:4] == [
        f"  {who} with {advantage}"
        for who, advantage in zip(record.characters, record.advantages, strict=True)
    ]
    assert [line for line in lines if line.startswith("Round ")] == [
        f"Round {n}" for n in sorted({s.round for s in record.steps})
    ]
    assert [line[2:] for line in lines[4:-1] if not line.startswith("Round ")] == [
        s.text for s in record.steps
    ]
    winner = record.characters[record.placings.index(1)]
    assert lines[-1].startswith(f"Placings: 1. {winner}")


def _exact(never_finishes: float) -> ExactResult:
    return ExactResult(
        track="Mine",
        expected_rounds=12.345678,
        character="Flamm",
        advantage="Heroism",
        path="B",
        encounters=False,
        states=123_456,
        sweeps=40,
        covers="the character and advantage named",
        never_finishes=never_finishes,
        curse_levels=3,
    )


def test_exact_text_names_what_the_solution_assumed() -> None:
    assert exact_text(_exact(0.0)).splitlines() == [
        "Mine: a solo race lasts 12.3457 rounds on average (exact; character Flamm, advantage "
        "Heroism, start path B, encounters off)",
        "Markov chain: 123,456 states, 3 curse level(s); covers the character and advantage named",
    ]


def test_exact_text_gives_the_chance_a_race_never_ends() -> None:
    lines = exact_text(_exact(0.000123456)).splitlines()
    assert len(lines) == 3
    assert lines[1].startswith("A race never ends with probability 0.000123 (curses")


def test_bench_text_gives_each_workload_the_scaling_and_the_exact_solver() -> None:
    def workload(name: str, rates: list[float], plain: list[float]) -> WorkloadResult:
        return WorkloadResult(name, f"{name} races", 20_000, rates, 200, plain)

    result = BenchResult(
        warmup_seconds=3.21,
        workloads=[
            workload("standard", [30_000.0, 36_000.4, 34_000.0], [400.0, 350.0, 380.0]),
            workload("movement", [50_000.0, 40_000.0, 45_000.0], [500.0, 450.0, 400.0]),
        ],
        scaling=ScalingResult(200_000, {1: [5.0, 4.0, 6.0], 2: [2.5, 3.0, 2.0]}),
        exact=ExactTiming(64, [4.0, 5.0, 6.0], [0.05, 0.06, 0.04]),
        compare_seconds=1.55,
        cold_compile_seconds=123.4,
    )
    lines = bench_text(result).splitlines()
    assert lines[:3] == [
        "Compile or cache load: 3.2 s",
        "First compile, empty cache: 123 s",
        "Workload standard: standard races",
    ]
    assert lines[3] == (
        "  compiled: 34,000 races/s (median of 3 runs of 20,000 races: 30,000, 36,000, 34,000)"
    )
    assert lines[4] == "  same code as plain Python: 380 races/s (median of 3 runs of 200 races)"
    assert lines[5] == "  speed-up: 89x"  # 34,000 / 380
    assert lines[7].startswith("  compiled: 45,000 races/s")
    assert lines[9] == "  speed-up: 100x"  # 45,000 / 450
    assert lines[10] == (
        "Scaling, 200,000 races (standard): 1 worker 40,000 races/s, "
        "2 workers 80,000 races/s; 2.00x one worker"
    )
    assert lines[11] == (
        "Exact solver, encounters on: 5.00 s for every character and advantage (64 pairs), "
        "50 ms for one pair"
    )
    assert lines[12] == "Six presets x 10,000 races: 1.6 s"
    data = result.to_json()
    assert data["workloads"]["movement"]["races_per_second"] == 45_000
    assert data["scaling"]["factor"] == 2.0
    assert data["exact"]["all_pairs_median_seconds"] == 5.0


def test_percent_is_six_characters_wide() -> None:
    assert percent(0.5) == " 50.0%"
    assert percent(1.0) == "100.0%"
    assert percent(None) == "   -  "
