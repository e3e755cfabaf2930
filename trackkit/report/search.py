"""A search's findings for people: the best tracks, each with its length and unfairness as
found and as checked with more races.

>>> from trackkit.explore.search import SearchResult
>>> empty = SearchResult("random", 5, 12.0, 0.5, 10, 0, 200, (), 10, 4, (0.5,) * 10)
>>> search_text(empty).splitlines()[0].split(": ")[1]
'10 profiles of 10 tracks, 4 cells of length × unfairness filled'
"""

from __future__ import annotations

from trackkit.explore.search import SearchResult


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
    return "\n".join(lines)
