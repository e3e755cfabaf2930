"""One seam for any race game: what a ruleset provides, and the registry that finds it.

The shared layers know no game. ``board/`` composes tracks from tiles whose squares carry
the attributes a game's square schema checks; ``sim/`` plays seeded batches through a
ruleset's engine and adds up the columns the ruleset says a batch reports; ``report/``
formats them. A game is a folder under ``games/`` holding one object that implements
:class:`Ruleset`, listed in :data:`KNOWN` and loaded the first time it is asked for.

What a second game implements (``games/yummell/ruleset.py`` is the worked example):

- ``name``, ``title``, ``players`` (race and building bounds), ``policies``;
- ``square_schema``: the pydantic model a tile file's square fields must satisfy (its
  fields become the composed graph's node attributes);
- ``default_tileset()``, ``presets()`` and ``load_preset(slug)``;
- ``content_folder()`` and ``load_content(folder)``: the game's content files (deck,
  characters…), bundled or a user's own, read with located errors;
- ``track_problems(...)``: the game's own track rules (Yummell: the building rule), on top
  of the structural checks every game shares;
- ``options(...)``: the race options the game takes, an object with ``players`` and
  ``ruleset`` and a ``summary()`` for reports;
- ``prepare(track, options)``: the engine's view of a track it has checked and composed
  once (with ``nodes``, the square of each node index, and ``composed``);
- ``groups(prepared, options)``: the columns a batch reports win rates and placings for;
- ``play_batch(prepared, options, seed, batch, races)``: a batch of whole races drawn from
  :func:`batch_stream` ``(seed, batch)``, so the same seed gives the same races anywhere;
- optional: ``exact_solo`` (an exact solver) and ``design_space`` (legal tracks counted).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

import numpy as np
from pydantic import BaseModel

from trackkit.board.tiles import TileSet, read_tileset
from trackkit.board.track import DEFAULT_GAME, Track
from trackkit.errors import TrackkitError, shown

if TYPE_CHECKING:
    from trackkit.board.graph import TrackGraph
    from trackkit.board.problems import Problem

# Every game trackkit ships: its name and the module holding its ``RULESET``. A game is
# imported only when it is first asked for, so listing games costs nothing.
KNOWN: dict[str, str] = {
    "yummell": "trackkit.games.yummell.ruleset",
}


def batch_stream(seed: int, batch: int) -> np.random.Generator:
    """The random stream of batch ``batch`` of a simulation seeded ``seed``: every game's
    races come in batches, each with its own generator, so any process or number of
    workers plays the same races."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, batch])))


class PlayerBounds(NamedTuple):
    """How many players a race may have, and how many the game's track-building rule knows."""

    race_min: int
    race_max: int
    build_min: int
    build_max: int


@dataclass(frozen=True)
class Group:
    """A column of a batch (one value per race and player) whose win rates and mean
    placings a simulation reports: characters, start paths, seats in the turn order…

    ``key`` names the column in :attr:`BatchResult.groups`; ``report`` the list in a
    simulation's JSON; ``labels`` one name per value (a value of -1 counts nowhere).
    ``extras`` adds fields to each label's row, and ``share`` the share of all entries.
    """

    key: str
    title: str
    report: str
    labels: tuple[str, ...]
    extras: tuple[dict[str, Any], ...] = ()
    share: bool = False


@dataclass(frozen=True)
class BatchResult:
    """What a batch of races reports: each race's length in rounds, each player's placing,
    the group columns, and per square the turns ended there and the characters sent back
    off it (summed over the batch); recorded steps when asked for."""

    rounds: np.ndarray  # (races,)
    placing: np.ndarray  # (races, players): 1 for the winner, ties share a placing
    groups: dict[str, np.ndarray]  # key -> (races, players) index into the group's labels
    node_time: np.ndarray  # (nodes,)
    node_bounce: np.ndarray  # (nodes,)
    log: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    log_n: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))


class Prepared(Protocol):
    """A ruleset's view of a composed track for its engine: it names its squares."""

    @property
    def nodes(self) -> tuple[str, ...]: ...

    @property
    def composed(self) -> TrackGraph: ...


class Options(Protocol):
    """A ruleset's race options: at least the players and the ruleset they belong to."""

    @property
    def players(self) -> int: ...

    @property
    def ruleset(self) -> Ruleset: ...

    def summary(self) -> dict[str, Any]: ...


@runtime_checkable
class Ruleset(Protocol):
    """A race game behind one interface (see the module docstring for the list)."""

    name: str
    title: str
    players: PlayerBounds
    policies: tuple[str, ...]
    max_rounds: int
    square_schema: type[BaseModel]

    def default_tileset(self) -> TileSet: ...

    def presets(self) -> tuple[str, ...]: ...

    def load_preset(self, slug: str) -> Track: ...

    def content_folder(self) -> Path: ...

    def load_content(self, folder: str | Path | None = None) -> Any: ...

    def track_problems(
        self,
        track: Track,
        tileset: TileSet,
        composed: TrackGraph,
        *,
        players: int | None,
        partial: bool,
        broken: bool,
    ) -> list[Problem]: ...

    def completable(
        self,
        track: Track,
        tileset: TileSet,
        players: int | None,
        composed: TrackGraph | None = None,
    ) -> bool: ...

    def options(self, **choices: Any) -> Any: ...

    def prepare(self, track: Track, options: Any) -> Any: ...

    def groups(self, prepared: Any, options: Any) -> tuple[Group, ...]: ...

    def play_batch(
        self,
        prepared: Any,
        options: Any,
        seed: int,
        batch: int,
        races: int,
        *,
        log_rows: int = 0,
    ) -> BatchResult: ...

    exact_solo: Callable[..., Any] | None
    design_space: Callable[..., Any] | None


_LOADED: dict[str, Ruleset] = {}


def rulesets() -> tuple[str, ...]:
    """The names of the games trackkit knows, in the order they were added.

    >>> rulesets()
    ('yummell',)
    """
    return tuple(KNOWN)


def get_ruleset(name: str | None = None) -> Ruleset:
    """The ruleset called ``name`` (None: the default game); a :class:`TrackkitError`
    naming the known games for any other name."""
    name = DEFAULT_GAME if name is None else name
    if name not in KNOWN:
        raise TrackkitError(
            f"there is no game called {shown(name)!r}; trackkit knows {', '.join(KNOWN)}"
        )
    if name not in _LOADED:
        ruleset = import_module(KNOWN[name]).RULESET
        if not isinstance(ruleset, Ruleset):
            raise TypeError(f"{KNOWN[name]}.RULESET does not implement the Ruleset protocol")
        _LOADED[name] = ruleset
    return _LOADED[name]


def square_schema(game: str) -> type[BaseModel]:
    """The square schema of ``game`` (what a tile set of that game is checked with)."""
    return get_ruleset(game).square_schema


def load_tileset(folder: str | Path | None = None, game: str | None = None) -> TileSet:
    """A tile set: the one in ``folder`` (its squares checked by the schema of the game it
    names), or with no folder the game's own set (``game`` None: the default game's).

    >>> load_tileset().game, len(load_tileset())
    ('yummell', 10)
    """
    if folder is None:
        return get_ruleset(game).default_tileset()
    return read_tileset(folder, square_schema)


def tileset_of(track: Track) -> TileSet:
    """The tile set ``track`` is built from: its own folder, or its game's set."""
    return load_tileset(track.tileset, track.game)


def all_rulesets() -> Sequence[Ruleset]:
    """Every known ruleset, loaded (the conformance suite runs over these)."""
    return [get_ruleset(name) for name in KNOWN]
