"""Monte Carlo analysis: many races on one track, and what they say about it, for any game.

The game comes with the options (``options.ruleset``, :class:`trackkit.games.base.Ruleset`):
it checks and prepares the track, plays batches and names the columns a batch reports.
Races are played in fixed batches of :data:`RACES_PER_BATCH`; batch ``b`` draws from its
own generator (:func:`trackkit.games.base.batch_stream`). Workers take whole batches and
the figures are integer counts added up as batches finish, so the same seed gives the same
numbers in any process and with any number of workers.

>>> from trackkit.games import get_ruleset
>>> game = get_ruleset()  # the first game, Yummell
>>> track, options = game.load_preset("first-run"), game.options(players=3)
>>> result = simulate(track, options, races=500, seed=1)
>>> round(result.mean_rounds, 1) > 0
True
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from trackkit.errors import TrackkitError, shown
from trackkit.games.base import BatchResult, Group, Options, Ruleset, race_ready
from trackkit.limits import SIMULATION_COST

RACES_PER_BATCH = 250
TASK_BATCHES = 40  # batches a worker plays per task (10,000 races), at most
MIN_TASK_BATCHES = 4  # and at least, while there are so many left
MAX_RACES = 10_000_000
Progress = Callable[[int, int], None]


def guided_tasks(batches: list[tuple[int, int]], workers: int) -> list[list[tuple[int, int]]]:
    """``batches`` cut into tasks for ``workers``, in order (guided scheduling): each at most
    TASK_BATCHES and a quarter of a worker's share of what is left, so the tasks shrink
    towards the end and the workers finish together (one worker slowed by the machine's
    other tenants no longer leaves the other idle for a whole 10,000-race task)."""
    share = math.ceil(len(batches) / workers)  # a small simulation still uses every worker
    tasks, start = [], 0
    while start < len(batches):
        left = len(batches) - start
        size = min(left, share, TASK_BATCHES, max(MIN_TASK_BATCHES, left // (4 * workers)))
        tasks.append(batches[start : start + size])
        start += size
    return tasks


def run_batch(
    prepared: Any, options: Options, seed: int, batch: int, races: int, *, log_rows: int = 0
) -> BatchResult:
    """Play ``races`` races of batch ``batch`` with the options' game."""
    return options.ruleset.play_batch(prepared, options, seed, batch, races, log_rows=log_rows)


KEEP_RACES = 100_000  # races whose rows a result keeps (for files); figures use every race


@dataclass
class Totals:
    """What a simulation adds up as it goes: every figure of :class:`SimulationResult`
    comes from here, so memory does not grow with the number of races. All counts are
    integers, so the same races give the same totals in any order (any workers)."""

    races: int
    rounds_count: np.ndarray  # (max_rounds + 2,) races of each length
    groups: dict[str, np.ndarray]  # key -> (3, size): entries, wins, placing sum
    node_counts: dict[str, np.ndarray]  # key -> (nodes,)
    tallies: dict[str, np.ndarray]  # key -> (2,): sum, sum of squares over races

    @classmethod
    def empty(cls, ruleset: Ruleset, groups: tuple[Group, ...], nodes: int) -> Totals:
        return cls(
            races=0,
            rounds_count=np.zeros(ruleset.max_rounds + 2, dtype=np.int64),
            groups={g.key: np.zeros((3, len(g.labels)), dtype=np.int64) for g in groups},
            node_counts={c.key: np.zeros(nodes, dtype=np.int64) for c in ruleset.node_counts},
            tallies={t.key: np.zeros(2, dtype=np.int64) for t in ruleset.tallies},
        )

    def add(self, batch: BatchResult) -> None:
        self.races += batch.rounds.shape[0]
        self.rounds_count += np.bincount(batch.rounds, minlength=self.rounds_count.shape[0])
        players = batch.placing.shape[1]
        place = batch.placing.ravel() - 1  # 0 for the winner; ties share a placing
        if place.size and (place.min() < 0 or place.max() >= players):
            # the one count per (value, placing) below would put it in another value's bin
            raise ValueError(f"placings run from 1 to {players}, not {place.min() + 1}..")
        worth = np.arange(1, players + 1)
        for key, table in self.groups.items():
            index = batch.groups[key].ravel()
            size = table.shape[1]
            valid = index >= 0  # a character that never left the start has no route
            # one count per (value, placing): entries, wins and placing sums follow from it
            counts = np.bincount(
                index[valid] * players + place[valid], minlength=size * players
            ).reshape(size, players)
            table[0] += counts.sum(axis=1)
            table[1] += counts[:, 0]
            table[2] += counts @ worth
        for key, counts in self.node_counts.items():
            counts += batch.node_counts[key]
        for key, sums in self.tallies.items():
            values = batch.tallies[key].astype(np.int64, copy=False)
            sums[0] += values.sum()
            sums[1] += values @ values

    def merge(self, other: Totals) -> None:
        self.races += other.races
        self.rounds_count += other.rounds_count
        for key, table in self.groups.items():
            table += other.groups[key]
        for key, counts in self.node_counts.items():
            counts += other.node_counts[key]
        for key, sums in self.tallies.items():
            sums += other.tallies[key]


def _run_batches(
    board: Any,
    options: Options,
    seed: int,
    batches: list[tuple[int, int]],
    keep: int,
    empty: Totals,
) -> tuple[Totals, list[tuple[int, BatchResult]]]:
    """Play ``batches``; return their totals (added to ``empty``) and the batches below
    ``keep`` whole."""
    totals = empty
    kept = []
    for b, n in batches:
        result = run_batch(board, options, seed, b, n)
        totals.add(result)
        if b < keep:
            kept.append((b, result))
    return totals, kept


@dataclass(frozen=True)
class SimulationResult:
    """The races of one simulation and the figures drawn from them.

    The figures cover every race; the per-race rows (``rounds``, ``placing`` and each
    group's column in ``columns``) are kept for the first ``min(races, KEEP_RACES)`` races
    only, so ten million races fit in memory.
    """

    track: str
    options: Any
    seed: int
    board: Any  # the game's prepared track (``nodes``: the square of each node index)
    groups: tuple[Group, ...]
    max_rounds: int
    totals: Totals
    rounds: np.ndarray
    placing: np.ndarray
    columns: dict[str, np.ndarray]

    def column(self, key: str) -> np.ndarray:
        """The kept races' values of the group column ``key`` (races, players)."""
        return self.columns[key]

    @property
    def races(self) -> int:
        return self.totals.races

    @property
    def ruleset(self) -> Ruleset:
        return self.options.ruleset

    def node_count(self, key: str) -> np.ndarray:
        """The node count ``key`` (:class:`~trackkit.games.base.NodeCount`), per node,
        summed over every race."""
        return self.totals.node_counts[key]

    @property
    def capped(self) -> int:
        """Races stopped at the round limit (counted at the limit + 1 in every figure)."""
        return int(self.totals.rounds_count[self.max_rounds + 1])

    @property
    def mean_rounds(self) -> float:
        counts = self.totals.rounds_count
        return float(np.dot(np.arange(counts.shape[0]), counts) / self.races)

    @property
    def std_error(self) -> float:
        if self.races < 2:
            return math.nan
        counts = self.totals.rounds_count
        lengths = np.arange(counts.shape[0])
        variance = np.dot((lengths - self.mean_rounds) ** 2, counts) / (self.races - 1)
        return float(math.sqrt(variance / self.races))

    @property
    def ci95(self) -> tuple[float, float]:
        """95% confidence interval of the expected race length (normal approximation)."""
        half = 1.96 * self.std_error
        return (self.mean_rounds - half, self.mean_rounds + half)

    def histogram(self) -> dict[int, int]:
        counts = self.totals.rounds_count
        return {int(v): int(counts[v]) for v in np.flatnonzero(counts)}

    def group(self, key: str) -> Group:
        return next(g for g in self.groups if g.key == key)

    def by_group(self, key: str) -> list[dict[str, Any]]:
        """Per label of group ``key``: races it took part in, win rate and mean placing
        (None where it never took part), and the group's extra fields."""
        group = self.group(key)
        entries, wins, placing = self.totals.groups[key]
        total = self.races * self.options.players
        rows = []
        for index, name in enumerate(group.labels):
            taken = int(entries[index])
            row: dict[str, Any] = {
                "name": name,
                "entries": taken,
                "win_rate": float(wins[index] / taken) if taken else None,
                "mean_placing": float(placing[index] / taken) if taken else None,
            }
            if group.share:
                row["share"] = taken / total
            if group.extras:
                row.update(group.extras[index])
            rows.append(row)
        return rows

    def congestion(self) -> list[dict[str, Any]]:
        """Per node (a Yummell square, a Snow Tails space): each of the game's node
        counts, per race or in all (Yummell: turns ended there per race, and characters
        sent back off it; Snow Tails: collisions there per race, by kind)."""
        counts = self.ruleset.node_counts
        rows = []
        for i, name in enumerate(self.board.nodes):
            row: dict[str, Any] = {self.ruleset.node_noun: name}
            for c in counts:
                total = self.totals.node_counts[c.key][i]
                row[c.report] = float(total / self.races) if c.per_race else int(total)
            rows.append(row)
        return rows

    def tally(self, key: str) -> dict[str, float]:
        """The mean per race of the tally ``key``, its standard error and 95% interval
        (normal approximation; a tally counts, so the interval starts at 0 at the least)."""
        total, squares = (int(v) for v in self.totals.tallies[key])
        mean = total / self.races
        error = math.nan
        if self.races > 1:
            variance = max(0.0, (squares - self.races * mean * mean) / (self.races - 1))
            error = math.sqrt(variance / self.races)
        return {
            "mean": mean,
            "std_error": error,
            "ci95": [max(0.0, mean - 1.96 * error), mean + 1.96 * error],
        }

    def tallies(self) -> dict[str, dict[str, Any]]:
        """Every tally of the game: its title, and :meth:`tally`."""
        return {t.key: {"title": t.title, **self.tally(t.key)} for t in self.ruleset.tallies}

    def to_json(self) -> dict[str, Any]:
        low, high = self.ci95
        return {
            "track": self.track,
            "races": self.races,
            "seed": self.seed,
            "players": self.options.players,
            **self.options.summary(),
            "mean_rounds": self.mean_rounds,
            "std_error": self.std_error,
            "ci95": [low, high],
            "capped": self.capped,
            "rounds_histogram": {str(k): v for k, v in self.histogram().items()},
            **{group.report: self.by_group(group.key) for group in self.groups},
            **({"per_race": self.tallies()} if self.ruleset.tallies else {}),
            self.ruleset.node_report: self.congestion(),
        }


def race_cost(board: Any, options: Options) -> int:
    """What one race of ``options`` on the prepared ``board`` costs, in the units of
    :data:`~trackkit.limits.SIMULATION_COST`: players × the board's nodes (a race's rounds
    grow with the board's length, and every player moves in each of them), plus what the
    game says its planning players add (``Ruleset.planning_cost``, when it has them)."""
    planning = getattr(options.ruleset, "planning_cost", None)
    extra = planning(board, options) if planning is not None else 0
    return options.players * len(board.nodes) + extra


def planning_seated(options: Options) -> bool:
    """Whether ``options`` seat a player of a rung that plans (``Rung.plans``)."""
    planning = {rung.policy for rung in options.ruleset.ladder if rung.plans}
    if not planning:
        return False
    names = getattr(options, "policies", ())
    names = names() if callable(names) else names
    return bool(
        planning
        & {*names, *([options.policy] if isinstance(options.policy, str) else options.policy)}
    )


def most_races(per_race: int) -> int:
    """The most races one simulation may run when a race costs ``per_race``
    (:func:`race_cost`) under the limit in force: for a page to offer no more."""
    return min(MAX_RACES, SIMULATION_COST.value() // max(1, per_race))


def check_cost(track: Any, options: Options, races: int, per_race: int) -> None:
    """Refuse, before any race, ``races`` races costing ``per_race`` each (:func:`race_cost`)
    on ``track`` (a track, or its name) when they would cost more than the limit in force."""
    name = track if isinstance(track, str) else track.name
    doing = f"{races:,} races of {options.players} players on {shown(name)}"
    if planning_seated(options):
        doing += " with planning players (their playouts counted: a smaller --budget costs less)"
    SIMULATION_COST.check(races * per_race, doing)


def simulate(
    track: Any,
    options: Options | None = None,
    *,
    races: int = 10_000,
    seed: int = 0,
    workers: int = 1,
    progress: Progress | None = None,
) -> SimulationResult:
    """Play ``races`` races on ``track`` and gather the figures.

    ``options`` are the game's race options (None: the default options of the track's
    game). ``progress(done, total)`` is called as batches finish. Memory stays flat: figures
    are added up batch by batch, and per-race rows are kept for the first races only.
    """
    if options is None:
        from trackkit.games import get_ruleset  # the registry, not a game

        options = get_ruleset(track.game).options()
    ruleset = options.ruleset
    if not 1 <= races <= MAX_RACES:
        raise TrackkitError(f"races must be between 1 and {MAX_RACES:,}, not {races}")
    if workers < 1:
        raise TrackkitError(f"workers must be at least 1, not {workers}")
    if seed < 0:
        raise TrackkitError(f"the seed is a whole number of 0 or more, not {seed}")
    board = race_ready(track, options)  # refuses a track its game's rules reject
    check_cost(track, options, races, race_cost(board, options))
    groups = ruleset.groups(board, options)
    totals = Totals.empty(ruleset, groups, len(board.nodes))
    batches = _batches(0, races)
    kept = _play(board, options, seed, batches, totals, workers, progress)
    ordered = [kept[b] for b, _ in batches if b in kept]
    return SimulationResult(
        track=track.name,
        options=options,
        seed=seed,
        board=board,
        groups=groups,
        max_rounds=ruleset.max_rounds,
        totals=totals,
        rounds=np.concatenate([r.rounds for r in ordered]),
        placing=np.concatenate([r.placing for r in ordered]),
        columns={g.key: np.concatenate([r.groups[g.key] for r in ordered]) for g in groups},
    )


def extend(
    result: SimulationResult, races: int, *, workers: int = 1, progress: Progress | None = None
) -> SimulationResult:
    """``result`` with races added up to ``races`` in all: the same races as one
    simulation of ``races`` with its seed would play (its batches continue where
    ``result``'s stopped, which must be at a whole batch)."""
    if result.races % RACES_PER_BATCH or races <= result.races:
        raise TrackkitError(
            f"a simulation of {result.races:,} races extends by whole batches of "
            f"{RACES_PER_BATCH} to more races, not to {races:,}"
        )
    if races > MAX_RACES:
        raise TrackkitError(f"races must be between 1 and {MAX_RACES:,}, not {races}")
    options = result.options
    check_cost(result.track, options, races, race_cost(result.board, options))
    totals = _empty_like(result.totals)
    totals.merge(result.totals)
    batches = _batches(result.races, races)
    kept = _play(result.board, options, result.seed, batches, totals, workers, progress)
    ordered = [kept[b] for b, _ in batches if b in kept]
    keys = [g.key for g in result.groups]
    return replace(
        result,
        totals=totals,
        rounds=np.concatenate([result.rounds, *(r.rounds for r in ordered)]),
        placing=np.concatenate([result.placing, *(r.placing for r in ordered)]),
        columns={
            k: np.concatenate([result.columns[k], *(r.groups[k] for r in ordered)]) for k in keys
        },
    )


def _batches(first_race: int, races: int) -> list[tuple[int, int]]:
    """The batches (index, races) from race ``first_race`` (a whole batch) to ``races``."""
    return [
        (b, min(RACES_PER_BATCH, races - b * RACES_PER_BATCH))
        for b in range(first_race // RACES_PER_BATCH, math.ceil(races / RACES_PER_BATCH))
    ]


def _play(
    board: Any,
    options: Options,
    seed: int,
    batches: list[tuple[int, int]],
    totals: Totals,
    workers: int,
    progress: Progress | None,
) -> dict[int, BatchResult]:
    """Play ``batches`` into ``totals``; return the batches kept whole (the first
    KEEP_RACES races'), by index."""
    keep = math.ceil(KEEP_RACES / RACES_PER_BATCH)  # batches kept whole
    kept: dict[int, BatchResult] = {}
    total = sum(n for _, n in batches)
    done = 0
    if workers == 1 or len(batches) == 1:
        for b, n in batches:
            result = run_batch(board, options, seed, b, n)
            totals.add(result)
            if b < keep:
                kept[b] = result
            done += n
            if progress:
                progress(done, total)
        return kept
    run_batch(board, options, seed, 0, 1)  # compile (or load) once, before forking
    # tasks of a few batches, smaller towards the end: a steady progress bar and even
    # load, each returning its totals (and the kept batches), never every race's rows
    tasks = guided_tasks(batches, workers)
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [
            pool.submit(_run_batches, board, options, seed, task, keep, _empty_like(totals))
            for task in tasks
        ]
        for future in as_completed(futures):
            part, whole = future.result()
            totals.merge(part)
            kept.update(whole)
            done += part.races
            if progress:
                progress(done, total)
    return kept


def _empty_like(totals: Totals) -> Totals:
    return Totals(
        races=0,
        rounds_count=np.zeros_like(totals.rounds_count),
        groups={k: np.zeros_like(v) for k, v in totals.groups.items()},
        node_counts={k: np.zeros_like(v) for k, v in totals.node_counts.items()},
        tallies={k: np.zeros_like(v) for k, v in totals.tallies.items()},
    )
