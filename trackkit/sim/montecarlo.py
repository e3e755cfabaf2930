"""Monte Carlo analysis: many races on one track, and what they say about it.

Races are played in fixed batches of :data:`RACES_PER_BATCH`; batch ``b`` draws from its
own generator, ``PCG64(SeedSequence([seed, b]))``. Workers take whole batches and the
results are put back in batch order, so the same seed gives the same numbers in any
process and with any number of workers.

>>> from trackkit.games.yummell.presets import load_preset
>>> result = simulate(load_preset("first-run"), RaceOptions(players=3), races=500, seed=1)
>>> round(result.mean_rounds, 1) > 0
True
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

import numpy as np

from trackkit.board.track import Track
from trackkit.errors import TrackkitError
from trackkit.games.yummell.engine import MAX_ROUNDS, play_batch
from trackkit.games.yummell.setup import RaceBoard, RaceOptions, new_state, race_board

RACES_PER_BATCH = 250
TASK_BATCHES = 40  # batches a worker plays per task (10,000 races)
MAX_RACES = 10_000_000
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class BatchResult:
    rounds: np.ndarray  # (races,)
    placing: np.ndarray  # (races, players)
    route: np.ndarray
    character: np.ndarray
    advantage: np.ndarray
    order_pos: np.ndarray
    node_time: np.ndarray  # (nodes,) summed over the batch
    node_bounce: np.ndarray
    log: np.ndarray  # recorded steps (see trackkit.games.yummell.record), when asked for
    log_n: np.ndarray


def batch_generator(seed: int, batch: int) -> np.random.Generator:
    """The random stream of batch ``batch`` of a simulation seeded ``seed``."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, batch])))


def run_batch(
    board: RaceBoard,
    options: RaceOptions,
    seed: int,
    batch: int,
    races: int,
    *,
    log_rows: int = 0,
) -> BatchResult:
    """Play ``races`` races of batch ``batch`` (recording up to ``log_rows`` steps)."""
    players, deck, tally = new_state(board.board, options, log_rows=log_rows)
    content = options.content
    n = options.players

    def ints(*shape: int) -> np.ndarray:
        return np.zeros(shape, dtype=np.int64)

    per_player = [ints(races, n) for _ in range(5)]
    out = BatchResult(
        ints(races), *per_player, tally.node_time, tally.node_bounce, tally.log, tally.log_n
    )
    play_batch(
        board.board,
        players,
        deck,
        tally,
        content.cards,
        content.characters,
        content.advantages,
        options.character_indices(),
        options.advantage_indices(),
        options.encounters,
        batch_generator(seed, batch),
        out.rounds,
        out.placing,
        out.route,
        out.character,
        out.advantage,
        out.order_pos,
    )
    return out


KEEP_RACES = 100_000  # races whose rows a result keeps (for files); figures use every race


@dataclass
class Totals:
    """What a simulation adds up as it goes: every figure of :class:`SimulationResult`
    comes from here, so memory does not grow with the number of races. All counts are
    integers, so the same races give the same totals in any order (any workers)."""

    races: int
    rounds_count: np.ndarray  # (MAX_ROUNDS + 2,) races of each length
    groups: dict[str, np.ndarray]  # key -> (3, size): entries, wins, placing sum
    node_time: np.ndarray
    node_bounce: np.ndarray

    @classmethod
    def empty(cls, board: RaceBoard, options: RaceOptions) -> Totals:
        content, nodes = options.content, board.board.node_terrain.shape[0]
        sizes = {
            "character": len(content.character_names),
            "advantage": len(content.advantage_names),
            "route": len(board.routes),
            "order_pos": options.players,
        }
        return cls(
            races=0,
            rounds_count=np.zeros(MAX_ROUNDS + 2, dtype=np.int64),
            groups={key: np.zeros((3, size), dtype=np.int64) for key, size in sizes.items()},
            node_time=np.zeros(nodes, dtype=np.int64),
            node_bounce=np.zeros(nodes, dtype=np.int64),
        )

    def add(self, batch: BatchResult) -> None:
        self.races += batch.rounds.shape[0]
        self.rounds_count += np.bincount(batch.rounds, minlength=MAX_ROUNDS + 2)
        won = (batch.placing == 1).ravel()
        placing = batch.placing.ravel()
        for key, table in self.groups.items():
            index = getattr(batch, key).ravel()
            size = table.shape[1]
            valid = index >= 0  # a character that never left the start has no route
            table[0] += np.bincount(index[valid], minlength=size)
            table[1] += np.bincount(index[valid], weights=won[valid], minlength=size).astype(
                np.int64
            )
            table[2] += np.bincount(index[valid], weights=placing[valid], minlength=size).astype(
                np.int64
            )
        self.node_time += batch.node_time
        self.node_bounce += batch.node_bounce

    def merge(self, other: Totals) -> None:
        self.races += other.races
        self.rounds_count += other.rounds_count
        for key, table in self.groups.items():
            table += other.groups[key]
        self.node_time += other.node_time
        self.node_bounce += other.node_bounce


def _run_batches(
    board: RaceBoard, options: RaceOptions, seed: int, batches: list[tuple[int, int]], keep: int
) -> tuple[Totals, list[tuple[int, BatchResult]]]:
    """Play ``batches``; return their totals and the batches below ``keep`` whole."""
    totals = Totals.empty(board, options)
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

    The figures cover every race; the per-race rows (``rounds``, ``placing``, ``route``,
    ``character``, ``advantage``, ``order_pos``) are kept for the first
    ``min(races, KEEP_RACES)`` races only, so ten million races fit in memory.
    """

    track: str
    options: RaceOptions
    seed: int
    board: RaceBoard
    totals: Totals
    rounds: np.ndarray
    placing: np.ndarray
    route: np.ndarray
    character: np.ndarray
    advantage: np.ndarray
    order_pos: np.ndarray

    @property
    def races(self) -> int:
        return self.totals.races

    @property
    def node_time(self) -> np.ndarray:
        return self.totals.node_time

    @property
    def node_bounce(self) -> np.ndarray:
        return self.totals.node_bounce

    @property
    def capped(self) -> int:
        """Races stopped at the round limit (counted at the limit + 1 in every figure)."""
        return int(self.totals.rounds_count[MAX_ROUNDS + 1])

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

    def _by(self, key: str, names: list[str]) -> list[dict[str, Any]]:
        entries, wins, placing = self.totals.groups[key]
        rows = []
        for index, name in enumerate(names):
            taken = int(entries[index])
            rows.append(
                {
                    "name": name,
                    "entries": taken,
                    "win_rate": float(wins[index] / taken) if taken else None,
                    "mean_placing": float(placing[index] / taken) if taken else None,
                }
            )
        return rows

    def by_character(self) -> list[dict[str, Any]]:
        return self._by("character", list(self.options.content.character_names))

    def by_advantage(self) -> list[dict[str, Any]]:
        return self._by("advantage", list(self.options.content.advantage_names))

    def by_start_path(self) -> list[dict[str, Any]]:
        labels = [chr(ord("A") + i) for i in range(len(self.board.routes))]
        rows = self._by("route", labels)
        total = self.races * self.options.players
        for row, route in zip(rows, self.board.routes, strict=True):
            row["share"] = row["entries"] / total
            row["first_square"] = route[0]
        return rows

    def by_turn_order(self) -> list[dict[str, Any]]:
        """Win rate by place in the turn order of the race's last round."""
        return self._by("order_pos", [str(k + 1) for k in range(self.options.players)])

    def congestion(self) -> list[dict[str, Any]]:
        """Per square: turns ended there per race, and characters sent back off it."""
        return [
            {
                "square": square,
                "turns_per_race": float(self.node_time[i] / self.races),
                "bounces": int(self.node_bounce[i]),
            }
            for i, square in enumerate(self.board.nodes)
        ]

    def to_json(self) -> dict[str, Any]:
        low, high = self.ci95
        return {
            "track": self.track,
            "races": self.races,
            "seed": self.seed,
            "players": self.options.players,
            "policy": self.options.policy,
            "deck": self.options.deck,
            "encounters": self.options.encounters,
            "mean_rounds": self.mean_rounds,
            "std_error": self.std_error,
            "ci95": [low, high],
            "capped": self.capped,
            "rounds_histogram": {str(k): v for k, v in self.histogram().items()},
            "characters": self.by_character(),
            "advantages": self.by_advantage(),
            "start_paths": self.by_start_path(),
            "turn_order": self.by_turn_order(),
            "congestion": self.congestion(),
        }


def simulate(
    track: Track,
    options: RaceOptions | None = None,
    *,
    races: int = 10_000,
    seed: int = 0,
    workers: int = 1,
    progress: Progress | None = None,
) -> SimulationResult:
    """Play ``races`` races on ``track`` and gather the figures.

    ``progress(done, total)`` is called as batches finish. Memory stays flat: figures are
    added up batch by batch, and per-race rows are kept for the first races only.
    """
    options = options or RaceOptions()
    if not 1 <= races <= MAX_RACES:
        raise TrackkitError(f"races must be between 1 and {MAX_RACES:,}, not {races}")
    if workers < 1:
        raise TrackkitError(f"workers must be at least 1, not {workers}")
    if seed < 0:
        raise TrackkitError(f"the seed is a whole number of 0 or more, not {seed}")
    board = race_board(track)
    batches = [
        (b, min(RACES_PER_BATCH, races - b * RACES_PER_BATCH))
        for b in range(math.ceil(races / RACES_PER_BATCH))
    ]
    keep = math.ceil(KEEP_RACES / RACES_PER_BATCH)  # batches kept whole
    totals = Totals.empty(board, options)
    kept: dict[int, BatchResult] = {}
    done = 0
    if workers == 1 or len(batches) == 1:
        for b, n in batches:
            result = run_batch(board, options, seed, b, n)
            totals.add(result)
            if b < keep:
                kept[b] = result
            done += n
            if progress:
                progress(done, races)
    else:
        run_batch(board, options, seed, 0, 1)  # compile (or load) once, before forking
        # tasks of a few batches: small enough for a steady progress bar and even load,
        # each returning its totals (and the kept batches), never every race's rows
        size = max(1, min(TASK_BATCHES, math.ceil(len(batches) / (4 * workers))))
        tasks = [batches[i : i + size] for i in range(0, len(batches), size)]
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            futures = [
                pool.submit(_run_batches, board, options, seed, task, keep) for task in tasks
            ]
            for future in as_completed(futures):
                part, whole = future.result()
                totals.merge(part)
                kept.update(whole)
                done += part.races
                if progress:
                    progress(done, races)
    ordered = [kept[b] for b, _ in batches if b in kept]
    return SimulationResult(
        track=track.name,
        options=options,
        seed=seed,
        board=board,
        totals=totals,
        rounds=np.concatenate([r.rounds for r in ordered]),
        placing=np.concatenate([r.placing for r in ordered]),
        route=np.concatenate([r.route for r in ordered]),
        character=np.concatenate([r.character for r in ordered]),
        advantage=np.concatenate([r.advantage for r in ordered]),
        order_pos=np.concatenate([r.order_pos for r in ordered]),
    )
