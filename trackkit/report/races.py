"""Races in words, as the ``simulate`` and ``bench`` commands print them: a simulation's
figures and the speed benchmark (each game tells its own races: its face).

Each result carries its own data (its ``to_json()``, what ``--json`` prints) and the
track's name and seed; the functions here only write the text.
"""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the results' modules load the engine; formatting needs none of it
    from trackkit.report.bench import BenchResult
    from trackkit.sim.montecarlo import SimulationResult

CROWDED_SQUARES = 5  # squares listed as the most crowded


def percent(value: float | None) -> str:
    """A share as a six-character percentage, a dash when there is none.

    >>> percent(0.125), percent(None)
    (' 12.5%', '   -  ')
    """
    return "   -  " if value is None else f"{100 * value:5.1f}%"


def simulate_text(result: SimulationResult) -> str:
    """The options, the race length with its 95% interval, the distribution of lengths, a
    table of wins and mean placings per group (character, advantage, start path, seat) and
    the most crowded squares."""
    options = result.options
    low, high = result.ci95
    lines = [
        f"{result.track}: {result.races:,} races, {options.players} players, "
        f"{options.describe()}, seed {result.seed}",
        f"Race length: {result.mean_rounds:.2f} rounds (95% CI {low:.2f} to {high:.2f})",
    ]
    if result.capped:
        lines.append(f"  {result.capped} race(s) stopped at the round limit")
    hist = result.histogram()
    peak = max(hist.values())
    lines.append("Rounds  races")
    for rounds, count in hist.items():
        lines.append(f"  {rounds:>4}  {count:>6}  {'#' * max(1, round(40 * count / peak))}")
    for group in result.groups:
        lines.append(f"{group.title:<28} {'races':>7} {'wins':>7} {'mean place':>10}")
        for row in result.by_group(group.key):
            mean = "-" if row["mean_placing"] is None else f"{row['mean_placing']:.2f}"
            lines.append(
                f"  {row['name']:<26} {row['entries']:>7} {percent(row['win_rate'])} {mean:>10}"
            )
    ruleset = result.ruleset
    for key, tally in result.tallies().items():
        if key == ruleset.tallies[0].key:
            lines.append(f"{'Per race':<44} {'mean':>7}  95% CI")
        t_low, t_high = tally["ci95"]
        lines.append(f"  {tally['title']:<42} {tally['mean']:7.3f}  {t_low:.3f} to {t_high:.3f}")
    counts = ruleset.node_counts
    per_race = [c.report for c in counts if c.per_race]
    busiest = sorted(result.congestion(), key=lambda r: -sum(r[k] for k in per_race))
    lines.append(ruleset.node_heading)
    noun = ruleset.node_noun
    shown_rows = busiest[:CROWDED_SQUARES]
    width = max([8, *(len(row[noun]) for row in shown_rows)])
    for row in shown_rows:
        cells = [f"{row[c.report]:6.2f}" if c.per_race else f"{row[c.report]:>7}" for c in counts]
        lines.append(f"  {row[noun]:<{width}} " + " ".join(cells))
    return "\n".join(lines)


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
