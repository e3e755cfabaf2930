"""Snow Tails races from Python: options, the engine's arrays, batches of races,
tournaments and a recorded race (the engine itself is :mod:`.engine`).

>>> from trackkit.games.snowtails.core.presets import load_preset
>>> batch = simulate(load_preset("husky-oval"), RaceOptions(players=3), races=4, seed=1)
>>> batch.rounds.shape, batch.placing.shape
((4,), (4, 3))
>>> sorted(batch.placing[0].tolist())
[1, 2, 3]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from trackkit.errors import TrackkitError
from trackkit.games.base import Ready, batch_stream, race_ready
from trackkit.games.snowtails.core.board import CompiledCourse, compile_course
from trackkit.games.snowtails.core.content import (
    Deck,
    unplayable,
)
from trackkit.games.snowtails.core.course import Course
from trackkit.games.snowtails.core.engine import (
    MAX_ROUNDS,
    new_batch_results,
    new_tournament_results,
    play_batch,
    play_tournament_batch,
)
from trackkit.games.snowtails.core.movement import STOP_NAMES
from trackkit.games.snowtails.core.options import (
    STAT_NAMES,
    RaceOptions,
)
from trackkit.games.snowtails.core.policies import POLICIES
from trackkit.games.snowtails.core.rules import PLAY_NAMES, schedule_text
from trackkit.games.snowtails.core.state import (
    LOG_FIELDS,
    MAX_PLAYERS,
    PLANNER_MASTER,
    VALUES,
    Race,
    Scratch,
    Setup,
    Sleds,
    new_race,
    new_scratch,
    new_sleds,
)
from trackkit.games.snowtails.core.track import SnowTrack


def make_setup(options: RaceOptions, deck: Deck) -> Setup:
    counts = np.zeros(VALUES, dtype=np.int64)
    for value, count in deck.counts:
        counts[value] = count
    start = np.full(MAX_PLAYERS, deck.starting_pair[0], dtype=np.int64)
    values = options.starting_values(deck)
    start[: len(values)] = values
    return Setup(
        deck_counts=counts,
        hand_size=deck.hand_size,
        start_values=start,
        held_back=deck.held_back_value,
        bonus_first_round=1 if options.bonus_first_round else 0,
        fresh_repair=1 if options.repair_draw == "fresh" else 0,
    )


@dataclass(frozen=True)
class Engine:
    """Everything the engine needs for races on one course: its arrays and the state."""

    compiled: CompiledCourse
    setup: Setup
    race: Race
    sleds: Sleds
    scratch: Scratch


def prepare(
    track: SnowTrack | Course | CompiledCourse,
    options: RaceOptions,
    deck: Deck | None = None,
    log_rows: int = 0,
) -> Engine:
    """The engine's arrays for races of ``options`` on ``track``.

    A track as its file states it goes through :func:`trackkit.games.base.race_ready`, the
    check every game's races pass (a track the validator rejects is refused, naming its
    first problem); a composed course is the caller's own, raced as given.
    """
    deck = deck if deck is not None else options.the_deck()
    options.check(deck)
    problem = unplayable(deck)  # a deck built in code; a deck file is refused as it loads
    if problem is not None:
        raise TrackkitError(f"the deck cannot be played: {problem[1]}")
    if isinstance(track, SnowTrack | Ready):
        compiled = race_ready(track, options).compiled
    else:  # composed already by the caller (the ruleset's batches, the engine's tests)
        compiled = track if isinstance(track, CompiledCourse) else compile_course(track)
    wanted = options.course_readings(compiled.course.track)
    if compiled.course.readings != wanted:  # composed (or kept) under other readings
        compiled = compile_course(compiled.course.track, wanted)
    if compiled.board.start.shape[0] == 0:
        raise TrackkitError(f"{compiled.course.track.name}: the track has no start row")
    sleds = new_sleds(options.players, deck.size)
    sleds.policy[:] = [POLICIES[name] for name in options.policies()]
    return Engine(
        compiled,
        make_setup(options, deck),
        new_race(options.players, compiled.nodes, log_rows),
        sleds,
        new_scratch(options.players, compiled.nodes, deck.size, options.budget),
    )


PLANNER_STREAM = 0x706C616E  # "plan": the planners' own random stream of a batch


def seed_planners(engine: Engine, seed: int, batch: int) -> None:
    """Seed the planning sleds' own generator for batch ``batch`` of a simulation seeded
    ``seed`` (:mod:`.planning`): apart from the race's stream, so a race deals, shuffles and
    rolls alike whether or not a planner sits at it."""
    key = np.random.SeedSequence([seed, batch, PLANNER_STREAM]).generate_state(1)[0]
    engine.scratch.planning.state[PLANNER_MASTER] = int(key)


@dataclass(frozen=True)
class SnowBatch:
    """A batch of single races: per race its rounds and whether it was decided in its
    last round; per race and sled its placing (1 = won; shared on one space), start slot
    and tallies (``stats[..., STAT_NAMES[name]]``); per space the collisions of every
    race (columns: side, tree, sled)."""

    rounds: np.ndarray
    placing: np.ndarray
    slot: np.ndarray
    stats: np.ndarray
    decided_last_round: np.ndarray
    node_hits: np.ndarray
    addresses: tuple[Any, ...] = field(repr=False)

    @property
    def mean_rounds(self) -> float:
        return float(self.rounds.mean())

    @property
    def capped(self) -> int:
        """Races stopped after MAX_ROUNDS rounds."""
        return int((self.rounds > MAX_ROUNDS).sum())

    def stat(self, name: str) -> np.ndarray:
        """One tally per race and sled, e.g. ``stat("trees")``."""
        return self.stats[..., STAT_NAMES[name]]

    def win_rate_by_slot(self) -> np.ndarray:
        """Per start slot, the share of races the sled starting there won."""
        players = self.placing.shape[1]
        wins = np.zeros(players)
        for s in range(players):
            wins[s] = (self.placing[self.slot == s] == 1).mean()
        return wins


def simulate(
    track: SnowTrack | Course | CompiledCourse,
    options: RaceOptions,
    races: int,
    seed: int,
    batch: int = 0,
) -> SnowBatch:
    """Play ``races`` races from the stream ``(seed, batch)`` (:func:`.base.batch_stream`)."""
    engine = prepare(track, options)
    seed_planners(engine, seed, batch)
    out = new_batch_results(races, options.players)
    play_batch(
        engine.compiled.board,
        engine.setup,
        engine.race,
        engine.sleds,
        engine.scratch,
        batch_stream(seed, batch),
        out,
    )
    return SnowBatch(
        out.rounds,
        out.placing,
        out.slot,
        out.stats,
        out.decided.astype(bool),
        engine.race.node_hits.copy(),
        engine.compiled.addresses,
    )


# --- tournaments -------------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentBatch:
    """Tournaments of 3 races: rounds (T, 3), placings and start slots (T, 3, P), points
    (T, P) and the champion of each (T,)."""

    rounds: np.ndarray
    placing: np.ndarray
    slot: np.ndarray
    points: np.ndarray
    champion: np.ndarray


def play_tournaments(
    tracks: Sequence[SnowTrack | Course | CompiledCourse],
    options: RaceOptions,
    tournaments: int,
    seed: int,
    batch: int = 0,
) -> TournamentBatch:
    """Play ``tournaments`` tournaments of three races on ``tracks`` (rulebook E)."""
    if len(tracks) != 3:
        raise TrackkitError(f"a tournament is 3 races: give 3 tracks, not {len(tracks)}")
    engines = [prepare(track, options) for track in tracks]
    seed_planners(engines[0], seed, batch)  # the three races share the first's scratch
    stream = engines[0].race.stream  # one random stream for the three races
    races = [e.race._replace(stream=stream) for e in engines]
    out = new_tournament_results(tournaments, options.players)
    first = engines[0]
    play_tournament_batch(
        tuple(e.compiled.board for e in engines),
        tuple(races),
        first.setup,
        first.sleds,
        first.scratch,
        batch_stream(seed, batch),
        out,
    )
    return TournamentBatch(out.rounds, out.placing, out.slot, out.points, out.champion)


# --- a recorded race -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """One turn of a recorded race, with spaces as board addresses."""

    round: int
    player: int
    start: Any
    end: Any
    play: str
    value: int
    schedule: str
    bonus: int
    stop: str
    die: int
    cards: int

    def to_json(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        out["start"] = None if self.start is None else list(self.start)
        out["end"] = list(self.end)
        return out


@dataclass(frozen=True)
class RaceRecord:
    rounds: int
    placings: tuple[int, ...]
    slots: tuple[int, ...]
    turns: tuple[Turn, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "placings": list(self.placings),
            "slots": list(self.slots),
            "turns": [t.to_json() for t in self.turns],
        }


def record_race(
    track: SnowTrack | Course | CompiledCourse, options: RaceOptions, seed: int
) -> RaceRecord:
    """Race 0 of ``simulate(track, options, races=1, seed=seed)``, turn by turn."""
    engine = prepare(track, options, log_rows=(MAX_ROUNDS + 1) * options.players)
    seed_planners(engine, seed, 0)
    out = new_batch_results(1, options.players)
    play_batch(
        engine.compiled.board,
        engine.setup,
        engine.race,
        engine.sleds,
        engine.scratch,
        batch_stream(seed, 0),
        out,
    )
    address = engine.compiled.address
    log = engine.race.log[: engine.race.log_n[0]]
    assert log.shape[1] == LOG_FIELDS
    turns = tuple(
        Turn(
            round=int(row[0]),
            player=int(row[1]),
            start=None if row[2] < 0 else address(row[2]),
            end=address(row[3]),
            play=PLAY_NAMES[int(row[4])],
            value=int(row[5]),
            schedule=schedule_text(int(row[6])),
            bonus=int(row[7]),
            stop=STOP_NAMES[int(row[8])],
            die=int(row[9]),
            cards=int(row[10]),
        )
        for row in log
    )
    placing, slot = out.placing[0].tolist(), out.slot[0].tolist()
    return RaceRecord(int(out.rounds[0]), tuple(placing), tuple(slot), turns)
