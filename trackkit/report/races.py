"""Races in words, as the ``simulate``, ``race``, ``exact`` and ``bench`` commands print
them: a simulation's figures, one race turn by turn, the exact solo length and the speed
benchmark.

Each result carries its own data (its ``to_json()``, what ``--json`` prints) and the
track's name and seed; the functions here only write the text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the results' modules load the engine; formatting needs none of it
    from trackkit.games.yummell.exact import ExactResult
    from trackkit.games.yummell.record import RaceRecord
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
        f"{result.track}: {result.races:,} races, {options.players} players, policy "
        f"{options.policy}, {options.deck} deck, encounters {'on' if options.encounters else 'off'}"
        f", seed {result.seed}",
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
    crowded = sorted(result.congestion(), key=lambda r: -r["turns_per_race"])[:CROWDED_SQUARES]
    lines.append("Most crowded squares (turns ended there per race, fall-backs)")
    for row in crowded:
        lines.append(f"  {row['square']:<8} {row['turns_per_race']:6.2f} {row['bounces']:>7}")
    return "\n".join(lines)


def race_text(record: RaceRecord) -> str:
    """Who raced with which advantage, every step round by round, and the placings."""
    lines = [f"{record.track}, seed {record.seed}: {record.rounds} rounds"]
    for who, advantage in zip(record.characters, record.advantages, strict=True):
        lines.append(f"  {who} with {advantage}")
    current = 0
    for step in record.steps:
        if step.round != current:
            current = step.round
            lines.append(f"Round {current}")
        lines.append(f"  {step.text}")
    placings = sorted(zip(record.placings, record.characters, strict=True))
    lines.append("Placings: " + ", ".join(f"{p}. {who}" for p, who in placings))
    return "\n".join(lines)


def exact_text(result: ExactResult) -> str:
    """The exact solo length with what it assumed, the chance a race never ends (when there
    is one) and the size of the Markov chain."""
    text = (
        f"{result.track}: a solo race lasts {result.expected_rounds:.4f} rounds on average "
        f"(exact; character {result.character}, advantage {result.advantage}, encounters "
        f"{'on' if result.encounters else 'off'})\n"
    )
    if result.never_finishes > 0:
        text += (
            f"A race never ends with probability {result.never_finishes:.3g} (curses make a "
            "square ahead dearer than any card, and greedy never rests); it counts as "
            "the simulator's round limit + 1\n"
        )
    return text + (
        f"Markov chain: {result.states:,} states, {result.curse_levels} curse level(s); "
        f"covers {result.covers}"
    )


def bench_text(result: BenchResult) -> str:
    """The workload, the compile time, races per second compiled and as plain Python, the
    speed-up and the time to simulate the six presets."""
    return "\n".join(
        [
            f"Workload: {result.workload}",
            f"Compile or cache load: {result.warmup_seconds:.1f} s",
            f"Compiled engine: {result.compiled_median:,.0f} races/s (median of "
            f"{len(result.compiled_rates)} runs of {result.compiled_races:,} races: "
            + ", ".join(f"{r:,.0f}" for r in result.compiled_rates)
            + ")",
            f"Same code as plain Python: {result.interpreted_median:,.0f} races/s (median of "
            f"{len(result.interpreted_rates)} runs of {result.interpreted_races} races)",
            f"Speed-up: {result.speedup:,.0f}x",
            f"Six presets x 10,000 races: {result.compare_seconds:.1f} s",
        ]
    )
