"""Races in words, as the ``simulate`` command prints them: a simulation's figures (each
game tells its own races: its face).

Each result carries its own data (its ``to_json()``, what ``--json`` prints) and the
track's name and seed; the functions here only write the text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the results' modules load the engine; formatting needs none of it
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
