"""The orderings a comparison states, and only those beyond noise: "A is fairer than B",
"A is shorter than B".

The tracks of a comparison are profiled with the same seed, so race ``r`` is the same
deal on every track and two tracks' figures differ race by race
(:class:`~trackkit.explore.paired.Paired`). For each figure, every pair of tracks is
tested (two-sided, normal approximation of the paired difference) and the p-values are
corrected for the number of pairs with **Holm's** step-down method at 95%: an ordering is
stated only for a pair that passes (a profile's ``paired`` holds its figures for it). The
rest are *tied*, and the tracks are grouped: a group runs, in the figure's order, from its
first track while each next one is not told apart from that first.

>>> ORDERED["unfairness"].better
'fairer'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from statistics import NormalDist
from typing import Any

from trackkit.explore.paired import Z95, Paired, difference_p_value, holm, tie_groups

LEVEL = 0.05
CORRECTION = "Holm"


@dataclass(frozen=True)
class Ordered:
    """A figure a comparison orders tracks by: lower is better, said as ``better``
    ("fairer") and ``worse`` ("less fair")."""

    key: str
    better: str
    worse: str
    descending: bool = False  # higher is "better" (more of what the figure measures)


ORDERED = {
    "unfairness": Ordered("unfairness", "fairer", "less fair"),
    "rounds_mean": Ordered("rounds_mean", "shorter", "longer"),
    "skill": Ordered("skill", "more skill-rewarding", "less skill-rewarding", descending=True),
}


@dataclass(frozen=True)
class Orderings:
    """What a comparison may say of its tracks: per figure, the pairs told apart
    (``claims``: the better first) and the tie groups in the figure's order."""

    claims: list[dict[str, str]]
    groups: dict[str, list[list[str]]]

    def to_json(self) -> dict[str, Any]:
        return {
            "orderings": self.claims,
            "tie_groups": self.groups,
            "ordering_rule": f"paired difference beyond noise at 95%, {CORRECTION}-corrected "
            "for the pairs of each figure",
        }


def orderings(tracks: dict[str, dict[str, Paired]]) -> Orderings:
    """The orderings of ``tracks`` (each a profile's :attr:`~TrackProfile.paired`, by a
    name a reader knows the track by, all profiled with the same seed) that hold beyond
    noise, for every figure of :data:`ORDERED` they all have."""
    claims: list[dict[str, str]] = []
    groups: dict[str, list[list[str]]] = {}
    for key in ORDERED:
        if not tracks or any(key not in figures for figures in tracks.values()):
            continue
        paired = {name: figures[key] for name, figures in tracks.items()}
        p_values = {
            (a, b): difference_p_value(paired[a], paired[b]) for a, b in combinations(paired, 2)
        }
        told = holm(p_values, LEVEL)
        sign = -1 if ORDERED[key].descending else 1
        ranked = sorted(paired, key=lambda name: sign * paired[name].value)
        for a, b in combinations(ranked, 2):  # ``a`` comes first: the better
            if (a, b) in told or (b, a) in told:
                claims.append({"figure": key, "better": a, "worse": b})
        groups[key] = tie_groups(ranked, told)
    return Orderings(claims, groups)


def orderings_text(found: Orderings) -> list[str]:
    """The tie groups in words, one line a figure: "fairer: A; then B = C (tied)"."""
    lines = []
    for key, groups in found.groups.items():
        figure = ORDERED[key]
        parts = [" = ".join(group) + (" (tied)" if len(group) > 1 else "") for group in groups]
        lines.append(
            f"{figure.better.capitalize()} first (told apart at 95%, {CORRECTION}): "
            + "; then ".join(parts)
        )
    return lines


def row_tie_groups(
    rows: list[dict[str, Any]], key: str, *, descending: bool, most: int = 200
) -> list[list[Any]] | None:
    """Tie groups of ``rows`` (a sweep's, sorted best first by ``key``), by their ranks:
    without the races behind each row, two rows are told apart by their 95% intervals
    (``key_low``/``key_high``: each its standard error, the two taken as independent,
    which is generous to ties: common random numbers would tell more apart), with Holm's
    correction over every pair of the first ``most`` rows. None when the figure has no
    intervals."""
    rows = rows[:most]
    if not rows or any(r.get(f"{key}_low") is None or r.get(key) is None for r in rows):
        return None
    errors = {r["rank"]: (r[f"{key}_high"] - r[f"{key}_low"]) / (2 * Z95) for r in rows}
    values = {r["rank"]: r[key] for r in rows}
    p_values = {}
    for a, b in combinations(values, 2):
        spread = math.hypot(errors[a], errors[b])
        score = abs(values[a] - values[b]) / spread if spread > 0 else math.inf
        p_values[(a, b)] = 2.0 * (1.0 - NormalDist().cdf(score))
    return tie_groups(list(values), holm(p_values, LEVEL))
