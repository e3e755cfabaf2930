"""Racing a candidate content over the tune's panel, and how far it is from the targets.

The panel is every track at every player count the tune file names. Every candidate is
raced on the same panel with the same seed: common random numbers, so that two
candidates meet the same deals and shuffles wherever their content allows and the
difference between their figures is mostly their difference, not luck.

A label's (a character's) win share is its win rate in the races it entered; the fair
share is one win in ``players``. The targets are read at a *scope*: ``each`` track and
player count, the ``players`` counts (each label's win rate averaged over the tracks at
a count), or ``all`` (averaged over every track and count).

>>> fair_deviation(np.array([[30, 10]]), np.array([[12, 5]]), (2,))[0].round(2)
array([-0.1,  0. ])
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from trackkit.errors import TrackkitError
from trackkit.explore.fairness import wilson
from trackkit.sim.montecarlo import simulate
from trackkit.tune.spec import Z_95, Scope
from trackkit.tune.targets import (
    MET,
    MISSED,
    NOT_SURE,
    RANK,
    SCOPE_WORDS,
    Cell,
    ShareTarget,
    Targets,
    Verdict,
    check_reachable,
    deciding,
    judged,
)

__all__ = [
    "MISSED",
    "NOT_SURE",
    "Cell",
    "ShareTarget",
    "Targets",
    "Verdict",
    "check_reachable",
    "judged",
]

Progress = Callable[[int, int], None]
TIE_WEIGHT = (
    0.01  # points² of mean squared deviation: among candidates meeting every target, the fairer
)
CHANGE_WEIGHT = 0.5  # points² a changed value costs with `fewest_changes`
# a percent of length beyond its target costs as much as this many points of win share
# beyond theirs: a length target holds on every track at every count, where the races can
# resolve a tenth of a percent, and must not be traded for a little fairness
LENGTH_WEIGHT = 10.0
# points² of a 95% interval beyond its target cost this much of one estimate's: among
# contents whose estimates meet the targets, the surer
SURE_WEIGHT = 0.1


@dataclass(frozen=True)
class Panel:
    """The tracks (by name) and player counts every candidate races, ``races`` times each
    with ``seed``, and the group (``character``) whose win shares are balanced."""

    ruleset: Any
    tracks: tuple[tuple[str, Any], ...]
    players: tuple[int, ...]
    group: str
    races: int
    seed: int

    @property
    def configs(self) -> tuple[tuple[str, int], ...]:
        return tuple((name, count) for name, _ in self.tracks for count in self.players)

    def with_races(self, races: int, seed: int) -> Panel:
        return Panel(self.ruleset, self.tracks, self.players, self.group, races, seed)


@dataclass(frozen=True)
class Evaluation:
    """A content raced over a panel: per track and player count (``configs``, rows), each
    label's entries and wins, and the mean length in rounds with its standard error."""

    labels: tuple[str, ...]
    configs: tuple[tuple[str, int], ...]
    entries: np.ndarray
    wins: np.ndarray
    lengths: np.ndarray
    length_errors: np.ndarray
    races: int
    seed: int

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(count for _, count in self.configs)

    def deviations(self) -> np.ndarray:
        """Each label's win rate minus the fair share, per config (NaN: never entered)."""
        return fair_deviation(self.entries, self.wins, self.players)

    def scoped(self, scope: Scope) -> list[ScopedShares]:
        """The win shares read at ``scope``, each row with its standard errors."""
        dev = self.deviations()
        rate = dev + 1 / np.array(self.players, dtype=float)[:, None]
        se = np.sqrt(
            np.where(np.isnan(rate), np.nan, rate * (1 - rate)) / np.maximum(self.entries, 1)
        )
        if scope == "each":
            return [
                ScopedShares(f"{track}, {count} players", count, dev[i], se[i], self, i)
                for i, (track, count) in enumerate(self.configs)
            ]
        groups: dict[Any, list[int]] = {}
        for i, (_, count) in enumerate(self.configs):
            groups.setdefault(count if scope == "players" else "all", []).append(i)
        rows = []
        for key, members in groups.items():
            with np.errstate(invalid="ignore"):
                mean = np.nanmean(dev[members], axis=0)
                error = np.sqrt(np.nansum(se[members] ** 2, axis=0)) / np.maximum(
                    np.sum(~np.isnan(dev[members]), axis=0), 1
                )
            name = f"{key} players, every track" if scope == "players" else "every track and count"
            rows.append(
                ScopedShares(
                    name, key if scope == "players" else None, mean, error, self, None, len(members)
                )
            )
        return rows

    def to_json(self) -> dict[str, Any]:
        return {
            "labels": list(self.labels),
            "configs": [list(c) for c in self.configs],
            "entries": self.entries.tolist(),
            "wins": self.wins.tolist(),
            "lengths": self.lengths.tolist(),
            "length_errors": self.length_errors.tolist(),
            "races": self.races,
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Evaluation:
        return cls(
            labels=tuple(data["labels"]),
            configs=tuple((str(t), int(p)) for t, p in data["configs"]),
            entries=np.array(data["entries"], dtype=np.int64),
            wins=np.array(data["wins"], dtype=np.int64),
            lengths=np.array(data["lengths"], dtype=float),
            length_errors=np.array(data["length_errors"], dtype=float),
            races=int(data["races"]),
            seed=int(data["seed"]),
        )


@dataclass(frozen=True)
class ScopedShares:
    """The labels' win shares on one row of a scope: their deviation from the fair share
    and its standard error (``config``: the row's index when it is one config)."""

    name: str
    players: int | None
    deviation: np.ndarray
    error: np.ndarray
    evaluation: Evaluation
    config: int | None
    weight: int = 1  # the configs the row stands for

    def interval(self, label: int) -> tuple[float, float]:
        """The 95% interval of the label's deviation (Wilson for one config)."""
        if self.config is not None:
            n = int(self.evaluation.entries[self.config, label])
            count = self.evaluation.players[self.config]
            if n == 0:
                return (float("nan"), float("nan"))
            low, high = wilson(self.evaluation.wins[self.config, label] / n, n)
            return float(low - 1 / count), float(high - 1 / count)
        half = 1.959963984540054 * float(self.error[label])
        return float(self.deviation[label]) - half, float(self.deviation[label]) + half


def fair_deviation(entries: np.ndarray, wins: np.ndarray, players: tuple[int, ...]) -> np.ndarray:
    """Win rate minus the fair share ``1 / players`` per row (NaN where never entered)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(entries > 0, wins / np.maximum(entries, 1), np.nan)
    return rate - 1 / np.array(players, dtype=float)[:, None]


def evaluate(
    panel: Panel, content: Any, progress: Progress | None = None, pool: Executor | None = None
) -> Evaluation:
    """``content`` raced over ``panel``: every track at every count, the same seed (each
    config in a process of ``pool`` when given: the same numbers either way)."""
    configs = panel.configs
    tracks = dict(panel.tracks)
    jobs = [
        (panel.ruleset.name, tracks[name], count, content, panel.races, panel.seed, panel.group)
        for name, count in configs
    ]
    results = map(_race, jobs) if pool is None else pool.map(_race, jobs)
    found = list(results)
    # labels are the same at every count (characters) or grow with it (start slots 1…n):
    # the longest names them all, and a count without the last ones never entered them
    labels = max((labels for labels, *_ in found), key=len)
    entries, wins, lengths, errors = [], [], [], []
    for done, (named, table, length, error) in enumerate(found):
        if labels[: len(named)] != named:
            raise TrackkitError(
                f"the group {panel.group!r} names its labels differently at different counts; "
                "tune it at one player count"
            )
        padded = np.zeros((2, len(labels)), dtype=np.int64)
        padded[:, : len(named)] = table
        entries.append(padded[0])
        wins.append(padded[1])
        lengths.append(length)
        errors.append(error)
        if progress is not None:
            progress(done + 1, len(configs))
    return Evaluation(
        labels=labels,
        configs=configs,
        entries=np.array(entries, dtype=np.int64),
        wins=np.array(wins, dtype=np.int64),
        lengths=np.array(lengths, dtype=float),
        length_errors=np.array(errors, dtype=float),
        races=panel.races,
        seed=panel.seed,
    )


def _race(job: tuple[Any, ...]) -> tuple[tuple[str, ...], np.ndarray, float, float]:
    """One config of a panel raced: the group's labels and table, the mean length and its
    standard error (a function of its arguments alone, for a worker process)."""
    from trackkit.games import get_ruleset

    game, track, count, content, races, seed, group = job
    options = get_ruleset(game).options(players=count, content=content)
    result = simulate(track, options, races=races, seed=seed)
    if group not in result.totals.groups:
        known = ", ".join(result.totals.groups)
        raise TrackkitError(f"the races report no group {group!r}; use one of {known}")
    return (
        tuple(result.group(group).labels),
        result.totals.groups[group][:2].copy(),
        float(result.mean_rounds),
        float(result.std_error),
    )


@dataclass(frozen=True)
class Score:
    """How far an evaluation is from the targets: ``loss`` (0 plus the tie-breakers when
    every target is met), whether every target is surely met (``met``: each 95% interval
    inside it), where an estimate misses, the worst figures, and each target's verdict."""

    loss: float
    met: bool
    worst_share: float  # the largest |win share − fair share| at the scope
    worst_length: float  # the largest relative length change (length_change), else 0
    misses: tuple[str, ...]  # where an estimate is outside its target
    verdicts: tuple[Verdict, ...] = ()

    @property
    def status(self) -> str:
        """``met`` (every target surely), ``missed`` (an estimate outside), else ``not sure``."""
        return max((v.status for v in self.verdicts), key=RANK.__getitem__, default=MET)


@dataclass
class _Part:
    """What a target adds to a score."""

    loss: float = 0.0
    misses: list[str] = field(default_factory=list)
    cells: list[Cell] = field(default_factory=list)
    deviations: list[float] = field(default_factory=list)  # |deviation| in points


def _judge_shares(
    evaluation: Evaluation,
    scope: Scope,
    held: np.ndarray,
    band: tuple[float, float],
    starts: list[np.ndarray] | None = None,
) -> _Part:
    """The held labels' win shares at ``scope`` against ``band`` (widened, per row and
    label, by how far the start was from the fair share, ``starts``: for the labels no
    target names, which may get no further from it than the tolerance)."""
    part = _Part()
    for r, row in enumerate(evaluation.scoped(scope)):
        raced = ~np.isnan(row.deviation) & held
        if starts is not None:
            raced &= ~np.isnan(starts[r])
        missed = []
        for i in np.flatnonzero(raced):
            wider = 0.0 if starts is None else abs(float(starts[r][i]))
            low, high = band[0] - wider, band[1] + wider
            deviation = float(row.deviation[i])
            interval = row.interval(int(i))
            excess = max(0.0, low - deviation, deviation - high) * 100
            unsure = max(0.0, low - interval[0], interval[1] - high) * 100
            part.loss += row.weight * (excess**2 + SURE_WEIGHT * unsure**2)
            part.deviations.append(abs(deviation) * 100)
            if excess > 0:
                missed.append(evaluation.labels[i])
            label = evaluation.labels[i]
            part.cells.append(
                judged(row.name, label, deviation, interval, (low, high), evaluation.races)
            )
        if missed:
            part.misses.append(f"{row.name} ({', '.join(missed)})")
    return part


def _hold(evaluation: Evaluation, targets: Targets, start: Evaluation) -> _Part | None:
    """The labels no target names, each no further from the fair share than it started
    plus the hold tolerance (it may move toward the fair share at will)."""
    others = targets.others(len(evaluation.labels))
    if not (targets.hold_others and others) or start.configs != evaluation.configs:
        return None
    scope = targets.shares[0].scope
    held = np.zeros(len(evaluation.labels), dtype=bool)
    held[list(others)] = True
    tolerance = targets.hold_tolerance
    starts = [row.deviation for row in start.scoped(scope)]
    return _judge_shares(evaluation, scope, held, (-tolerance, tolerance), starts)


def score(
    evaluation: Evaluation,
    targets: Targets,
    start: Evaluation | None = None,
    changes: int = 0,
) -> Score:
    """``evaluation`` against ``targets`` (``start``: the starting content raced on the
    same panel, for the length change and the labels held near their start).

    The loss is the sum of squared excesses of the estimates (in points beyond each
    target, a row weighted by the configs it stands for: a target averaged over every
    track and count weighs as much as all of them; lengths in percent, weighted by
    :data:`LENGTH_WEIGHT`), a tenth of the squared excesses of their 95% intervals (among
    contents whose estimates meet, the surer), a little of the squared deviations of the
    two-sided targets (the fairer), and with ``fewest_changes`` a cost per changed value."""
    loss, misses, verdicts, deviations = 0.0, [], [], []
    worst_share = 0.0
    for target in targets.shares:
        held = np.zeros(len(evaluation.labels), dtype=bool)
        held[list(target.labels) if target.labels is not None else slice(None)] = True
        part = _judge_shares(evaluation, target.scope, held, target.band)
        loss += part.loss
        misses += part.misses
        worst_share = max([worst_share, *(d / 100 for d in part.deviations)])
        if target.direction == "within":
            deviations += part.deviations
        verdicts.append(Verdict(target.describe(evaluation.labels), deciding(part.cells)))
    hold = None if start is None else _hold(evaluation, targets, start)
    if isinstance(hold, _Part):
        loss += hold.loss
        misses += [f"{m} moved from the start" for m in hold.misses]
        verdicts.append(
            Verdict(
                "the labels no target names no more than "
                f"{targets.hold_tolerance * 100:.1f} points further from the fair share than "
                f"at the start {SCOPE_WORDS[targets.shares[0].scope]} (hold_others)",
                deciding(hold.cells),
                "hold",
            )
        )
    lengths = _lengths(evaluation, targets, start)
    loss += lengths.loss
    misses += lengths.misses
    verdicts += lengths.verdicts
    if deviations:
        loss += TIE_WEIGHT * float(np.mean(np.square(deviations)))
    if targets.fewest_changes:
        loss += CHANGE_WEIGHT * changes
    met = all(v.status == MET for v in verdicts)
    return Score(loss, met, worst_share, lengths.worst, tuple(misses), tuple(verdicts))


@dataclass
class _Lengths(_Part):
    verdicts: list[Verdict] = field(default_factory=list)
    worst: float = 0.0


def _lengths(evaluation: Evaluation, targets: Targets, start: Evaluation | None) -> _Lengths:
    """The length targets: each track and count's mean length against a range, or within
    ``length_change`` of the start's (in percent, weighted by :data:`LENGTH_WEIGHT`)."""
    part = _Lengths()
    bands: list[tuple[str, np.ndarray, np.ndarray]] = []
    if targets.length_change is not None and start is not None:
        change = np.abs(evaluation.lengths / start.lengths - 1)
        part.worst = float(change.max())
        excess = np.maximum(0.0, change - targets.length_change) * 100
        part.loss += LENGTH_WEIGHT * float(np.sum(excess**2))
        c = targets.length_change
        name = f"mean length within ±{c * 100:.1f}% of the start's"
        bands.append((name, start.lengths * (1 - c), start.lengths * (1 + c)))
    if targets.length is not None:
        low, high = targets.length
        below = np.maximum(0.0, low - evaluation.lengths) / low * 100
        above = np.maximum(0.0, evaluation.lengths - high) / high * 100
        part.loss += LENGTH_WEIGHT * float(np.sum(below**2 + above**2))
        n = len(evaluation.configs)
        name = f"mean length within {low:g} to {high:g} rounds"
        bands.append((name, np.full(n, float(low)), np.full(n, float(high))))
    for name, lows, highs in bands:
        cells = []
        for i, (track, count) in enumerate(evaluation.configs):
            where = f"{track}, {count} players"
            length, half = float(evaluation.lengths[i]), Z_95 * float(evaluation.length_errors[i])
            band = (float(lows[i]), float(highs[i]))
            interval = (length - half, length + half)
            cells.append(judged(where, where, length, interval, band, evaluation.races))
            if cells[-1].status == MISSED:
                part.misses.append(f"length on {where}")
        part.verdicts.append(Verdict(name, tuple(cells), "length"))
    return part
