"""A search's findings for people: the best tracks, each with its length and unfairness as
found and as checked with more races.

>>> from trackkit.explore.search import SearchResult
>>> empty = SearchResult("random", 5, 12.0, 0.5, 10, 0, 200, (), 10, 4, (0.5,) * 10)
>>> search_text(empty).splitlines()[0].split(": ")[1]
'10 profiles of 10 tracks, 4 cells of length × unfairness filled'
"""

from __future__ import annotations

from typing import Any

from trackkit.explore.search import SearchResult
from trackkit.report.orderings import row_tie_groups


def search_text(result: SearchResult) -> str:
    lines = [
        f"{result.method} search, {result.players} players, mean length "
        f"{result.target_length:.1f} ± {result.tolerance:.1f} rounds: {len(result.history):,} "
        f"profiles of {result.evaluated:,} tracks, {result.cells} cells of length × unfairness "
        "filled"
    ]
    if result.best:
        lines.append(
            f"{'rank':>9}  {'rounds':>6} {'unfair':>7} {'fitness':>7}   "
            f"checked with {result.check_races:,} races: rounds unfair fitness"
        )
    for found in result.best:
        v, c = found.values, found.checked
        lines.append(
            f"{found.rank:>9}  {v['rounds_mean']:6.2f} {v['unfairness']:7.2f} {found.fitness:7.3f}"
            f"   {c.get('rounds_mean', float('nan')):6.2f} {c.get('unfairness', float('nan')):7.2f}"
            f" {found.checked_fitness:7.3f}"
        )
    groups = best_tie_groups(result)
    if groups and len(result.best) > 1:
        parts = [
            " = ".join(f"#{rank}" for rank in group) + (" (tied)" if len(group) > 1 else "")
            for group in groups
        ]
        lines.append(
            "Fairest first, as checked (told apart at 95% by their intervals, Holm): "
            + "; then ".join(parts)
        )
    return "\n".join(lines)


LOW_HIGH = ("unfairness_low", "unfairness_high")


def best_tie_groups(result: SearchResult) -> list[list[Any]] | None:
    """The best tracks' tie groups on their checked unfairness (None without a check):
    which of them the races cannot tell apart."""
    rows = [
        {"rank": f.rank, **{k: f.checked.get(k) for k in ("unfairness", *LOW_HIGH)}}
        for f in result.best
    ]
    rows.sort(key=lambda row: row["unfairness"] if row["unfairness"] is not None else 0.0)
    return row_tie_groups(rows, "unfairness", descending=False)
