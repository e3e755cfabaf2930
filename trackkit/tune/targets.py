"""What a tune aims at, and how a figure is judged against it.

A target holds figures raced with a 95% interval: a label's win share minus the fair
share (within ±a tolerance, or at most / at least a bound), a track's mean length. A
figure *meets* its target when its interval lies inside it, is *not sure* when only its
estimate does (more races would tell: the interval shrinks as one over their square
root), and *misses* it otherwise.

>>> unsure = judged("t", "a", 0.0, (-0.04, 0.04), (-0.02, 0.02), 1000)
>>> unsure.status, unsure.races  # ±4 points must shrink to ±2: four times the races
('not sure', 4000)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from trackkit.errors import TuneFileError, shown
from trackkit.tune.spec import Direction, Scope

# how far a label no target names may move from its start when every target is one-sided
HOLD_TOLERANCE = 0.03
MET, NOT_SURE, MISSED = "met", "not sure", "missed"
RANK = {MET: 0, NOT_SURE: 1, MISSED: 2}
SCOPE_WORDS = {
    "each": "on each track at each count",
    "players": "at each count over its tracks",
    "all": "over every track and count",
}


@dataclass(frozen=True)
class ShareTarget:
    """Labels (by index; None: every one) whose win share minus the fair share is held at
    ``scope``: within ±``tolerance`` of it (``within``), or at most / at least
    ``tolerance`` (then a signed bound: -0.02 is 2 points below the fair share)."""

    tolerance: float
    scope: Scope = "each"
    labels: tuple[int, ...] | None = None
    direction: Direction = "within"

    @property
    def band(self) -> tuple[float, float]:
        """The deviations from the fair share that meet the target."""
        if self.direction == "at-most":
            return (-math.inf, self.tolerance)
        if self.direction == "at-least":
            return (self.tolerance, math.inf)
        return (-self.tolerance, self.tolerance)

    def describe(self, labels: tuple[str, ...]) -> str:
        points = self.tolerance * 100
        aim = {
            "within": f"within ±{points:.1f} points of the fair share",
            "at-most": f"at most {points:+.1f} points from the fair share",
            "at-least": f"at least {points:+.1f} points from the fair share",
        }[self.direction]
        who = "every label" if self.labels is None else ", ".join(labels[i] for i in self.labels)
        return f"win share {aim} {SCOPE_WORDS[self.scope]}: {who}"


@dataclass(frozen=True)
class Targets:
    """What a tune aims at (a tune file's ``[targets]``): its win share (``win_share`` at
    ``scope`` for ``labels``, ``direction``) and any more (``also``), lengths, fewest
    changes, and whether the labels no win-share target names are held near their start
    (``hold_others``)."""

    win_share: float | None = None
    scope: Scope = "each"
    labels: tuple[int, ...] | None = None  # the labels (by index) held to win_share: None, all
    length_change: float | None = None
    length: tuple[float, float] | None = None
    fewest_changes: bool = False
    also: tuple[ShareTarget, ...] = ()
    direction: Direction = "within"
    hold_others: bool = True

    @property
    def shares(self) -> tuple[ShareTarget, ...]:
        first = (
            ()
            if self.win_share is None
            else (ShareTarget(self.win_share, self.scope, self.labels, self.direction),)
        )
        return first + self.also

    def others(self, count: int) -> tuple[int, ...]:
        """The labels (of ``count``) no win-share target names (none when one names all)."""
        if not self.shares or any(share.labels is None for share in self.shares):
            return ()
        named = {i for share in self.shares for i in share.labels or ()}
        return tuple(i for i in range(count) if i not in named)

    @property
    def hold_tolerance(self) -> float:
        """How far a label no target names may move from its start: the narrowest
        two-sided tolerance (else :data:`HOLD_TOLERANCE`)."""
        within = [s.tolerance for s in self.shares if s.direction == "within"]
        return min(within) if within else HOLD_TOLERANCE


@dataclass(frozen=True)
class Cell:
    """One figure a target holds (a label's win share on a row of its scope, or a track's
    length) with its 95% interval, judged against the target: ``met`` (the interval
    inside), ``not sure`` (only the estimate), ``missed``; for one not sure, ``races``
    per track and count would tell (the interval shrinks as one over their square root;
    None: no number of races, the estimate is on the edge)."""

    where: str
    label: str
    estimate: float
    interval: tuple[float, float]
    band: tuple[float, float]
    status: str
    races: int | None = None

    @property
    def slack(self) -> float:
        """How far the interval is inside the band (negative: outside)."""
        low, high = self.interval
        return min(low - self.band[0], self.band[1] - high)


def judged(
    where: str,
    label: str,
    estimate: float,
    interval: tuple[float, float],
    band: tuple[float, float],
    races: int,
) -> Cell:
    """A figure raced ``races`` times per track and count, judged against ``band``."""
    (low, high), (lo, hi) = band, interval
    if low <= lo and hi <= high:
        return Cell(where, label, estimate, interval, band, MET)
    if not low <= estimate <= high:
        return Cell(where, label, estimate, interval, band, MISSED)
    margin = min(estimate - low, high - estimate)
    half = max(estimate - lo, hi - estimate)
    needed = math.ceil(races * (half / margin) ** 2 - 1e-9) if margin > 0 else None
    return Cell(where, label, estimate, interval, band, NOT_SURE, needed)


@dataclass(frozen=True)
class Verdict:
    """A target and, per label (per track for a length), the figure that decides it."""

    target: str
    cells: tuple[Cell, ...]
    kind: str = "share"  # "share", "hold" (a label no target names) or "length"

    @property
    def status(self) -> str:
        return max((c.status for c in self.cells), key=RANK.__getitem__, default=MET)

    @property
    def races(self) -> int | None:
        """For a target not sure: the races per track and count that would tell (None:
        none would, or it is sure)."""
        needed = [c.races for c in self.cells if c.status == NOT_SURE]
        if self.status != NOT_SURE or None in needed:
            return None
        return max(n for n in needed if n is not None)

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "kind": self.kind,
            "status": self.status,
            "races_to_tell": self.races,
            "labels": [
                {
                    "label": c.label,
                    "status": c.status,
                    "where": c.where,
                    "estimate": c.estimate,
                    "ci95": list(c.interval),
                    "races_to_tell": c.races,
                }
                for c in self.cells
            ],
        }


def deciding(cells: list[Cell]) -> tuple[Cell, ...]:
    """Per label, in the order first met, its worst cell (worst status, least slack)."""
    worst: dict[str, Cell] = {}
    for cell in cells:
        kept = worst.get(cell.label)
        if kept is None or (RANK[cell.status], -cell.slack) > (RANK[kept.status], -kept.slack):
            worst[cell.label] = cell
    return tuple(worst.values())


def check_reachable(
    path: str,
    targets: Targets,
    labels: tuple[str, ...],
    players: tuple[int, ...],
    moved: Iterable[str],
    documents: Mapping[str, Any],
) -> None:
    """Refuse, before racing, a one-sided target no content can reach: a bound beyond
    what a win share can be (below 0 or above 1 at a count), every label on one side of
    the fair share (their win shares average it), or labels that are entries of the
    content (characters) none of whose values may move (``moved``: the entries moved)."""
    moved_names = {name.casefold() for name in moved}
    entries = _entries(documents)
    first = targets.win_share is not None
    for n, target in enumerate(targets.shares):
        if target.direction == "within":
            continue
        where = "targets" if first and n == 0 else f"targets.also[{n - first}]"
        bound = target.tolerance * 100
        for count in players:
            fair = 100 / count
            if (target.direction == "at-most" and fair + bound <= 0) or (
                target.direction == "at-least" and fair + bound >= 100
            ):
                side = "below 0" if target.direction == "at-most" else "above 100"
                raise TuneFileError(
                    path,
                    f"{where}.win_share",
                    f"{target.direction} {bound:+.1f} points cannot be met at {count} players: "
                    f"the fair share is {fair:.1f}% and no win share is {side}%",
                )
        if target.labels is None:
            if (target.direction == "at-most" and bound < 0) or (
                target.direction == "at-least" and bound > 0
            ):
                raise TuneFileError(
                    path,
                    f"{where}.labels",
                    f"every label {target.direction} {bound:+.1f} points cannot be met: the "
                    "labels' win shares average the fair share; name the labels it is for",
                )
            continue
        names = [labels[i] for i in target.labels]
        if all(name.casefold() in entries - moved_names for name in names):
            raise TuneFileError(
                path,
                f"{where}.labels",
                f"no [[move]] moves {shown(', '.join(names), 120)}: a one-sided target needs "
                "a value of its own labels to move; add a [[move]] of their entries",
            )


def _entries(documents: Mapping[str, Any]) -> set[str]:
    """The names (casefolded) of the entries of the content's lists of tables."""
    found = set()
    for document in documents.values():
        for value in document.values():
            if isinstance(value, list):
                found |= {
                    str(item["name"]).casefold()
                    for item in value
                    if isinstance(item, Mapping) and "name" in item
                }
    return found
