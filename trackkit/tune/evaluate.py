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
from dataclasses import dataclass
from typing import Any

import numpy as np

from trackkit.errors import TrackkitError
from trackkit.explore.fairness import wilson
from trackkit.sim.montecarlo import simulate
from trackkit.tune.spec import Scope

Progress = Callable[[int, int], None]
TIE_WEIGHT = (
    0.01  # points² of mean squared deviation: among candidates meeting every target, the fairer
)
CHANGE_WEIGHT = 0.5  # points² a changed value costs with `fewest_changes`
# a percent of length beyond its target costs as much as this many points of win share
# beyond theirs: a length target holds on every track at every count, where the races can
# resolve a tenth of a percent, and must not be traded for a little fairness
LENGTH_WEIGHT = 10.0


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
            return low - 1 / count, high - 1 / count
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
class ShareTarget:
    """Labels (by index; None: every one) whose win shares are held within ``tolerance``
    of the fair share at ``scope``."""

    tolerance: float
    scope: Scope = "each"
    labels: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Targets:
    """What a tune aims at (a tune file's ``[targets]``): its win share (``win_share`` at
    ``scope`` for ``labels``) and any more (``also``), lengths, and fewest changes."""

    win_share: float | None = None
    scope: Scope = "each"
    labels: tuple[int, ...] | None = None  # the labels (by index) held to win_share: None, all
    length_change: float | None = None
    length: tuple[float, float] | None = None
    fewest_changes: bool = False
    also: tuple[ShareTarget, ...] = ()

    @property
    def shares(self) -> tuple[ShareTarget, ...]:
        first = (
            ()
            if self.win_share is None
            else (ShareTarget(self.win_share, self.scope, self.labels),)
        )
        return first + self.also


@dataclass(frozen=True)
class Score:
    """How far an evaluation is from the targets: ``loss`` (0 plus the tie-breakers when
    every target is met), whether each is met, and the worst figures."""

    loss: float
    met: bool
    worst_share: float  # the largest |win share − fair share| at the scope
    worst_length: float  # the largest relative length change (length_change), else 0
    misses: tuple[str, ...]


def score(
    evaluation: Evaluation,
    targets: Targets,
    start_lengths: np.ndarray | None = None,
    changes: int = 0,
) -> Score:
    """``evaluation`` against ``targets``: the sum of squared excesses (in points beyond
    each tolerance, a row weighted by the configs it stands for: a target averaged over
    every track and count weighs as much as all of them; lengths in percent, weighted by
    :data:`LENGTH_WEIGHT`), a little of the squared deviations (among contents that meet
    every target, the fairer), and with ``fewest_changes`` a cost per changed value."""
    loss = 0.0
    misses: list[str] = []
    worst_share = 0.0
    deviations = []
    for target in targets.shares:
        held = np.zeros(len(evaluation.labels), dtype=bool)
        held[list(target.labels) if target.labels is not None else slice(None)] = True
        for row in evaluation.scoped(target.scope):
            raced = ~np.isnan(row.deviation) & held
            dev = np.abs(row.deviation[raced]) * 100
            deviations.extend(dev.tolist())
            if dev.size:
                worst_share = max(worst_share, float(dev.max()) / 100)
            excess = np.maximum(0.0, dev - target.tolerance * 100)
            loss += row.weight * float(np.sum(excess**2))
            if excess.any():
                names = [evaluation.labels[i] for i in np.flatnonzero(raced)[excess > 0]]
                misses.append(f"{row.name} ({', '.join(names)})")
    worst_length = 0.0
    if targets.length_change is not None and start_lengths is not None:
        change = np.abs(evaluation.lengths / start_lengths - 1)
        worst_length = float(change.max())
        excess = np.maximum(0.0, change - targets.length_change) * 100
        loss += LENGTH_WEIGHT * float(np.sum(excess**2))
        misses += [
            f"length on {t}, {p} players"
            for (t, p), e in zip(evaluation.configs, excess, strict=True)
            if e
        ]
    if targets.length is not None:
        low, high = targets.length
        below = np.maximum(0.0, low - evaluation.lengths) / low * 100
        above = np.maximum(0.0, evaluation.lengths - high) / high * 100
        loss += LENGTH_WEIGHT * float(np.sum(below**2 + above**2))
        misses += [
            f"length on {t}, {p} players"
            for (t, p), b, a in zip(evaluation.configs, below, above, strict=True)
            if b or a
        ]
    met = not misses
    if deviations:
        loss += TIE_WEIGHT * float(np.mean(np.square(deviations)))
    if targets.fewest_changes:
        loss += CHANGE_WEIGHT * changes
    return Score(loss, met, worst_share, worst_length, tuple(misses))
