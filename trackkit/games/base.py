"""One seam for any race game: what a ruleset provides, and the registry that finds it.

The shared layers know no game. ``board/`` composes tracks from tiles whose squares carry
the attributes a game's square schema checks; ``sim/`` plays seeded batches through a
ruleset's engine and adds up the columns the ruleset says a batch reports; ``report/``
formats them. A game is a folder under ``games/`` holding one object that implements
:class:`Ruleset`, listed in :data:`KNOWN` and loaded the first time it is asked for.

What every game implements (:class:`Ruleset`; ``games/yummell/core/ruleset.py`` and
``games/snowtails/core/ruleset.py`` are the worked examples):

- ``name``, ``title``, ``players`` (race and building bounds), ``policies``;
- ``presets()``, ``load_preset(slug)``, and ``parse_track(data, source, base)``: its track
  files (a file names its game with ``game = "..."``; :func:`load_track` reads any file
  and hands its table to the game it names);
- ``check_track(track, players=..., partial=..., content=...)``: every rule a track of the
  game must obey, as a :class:`TrackCheck` (errors, guideline warnings, the composed
  track), counted against ``content`` where the rules depend on it (Snow Tails: the box's
  trees, markers and buildings; None: the bundled content);
- ``content_folder(name)`` and ``load_content(folder)`` (and, optionally, ``contents()``:
  the names of its bundled contents, the default first): the game's content files (deck,
  characters…), bundled or a user's own, read with located errors;
- ``options(...)``: the race options the game takes (``content=`` a content its
  ``load_content`` gave, ``policies=`` one a racer, whatever else it takes), an object with
  ``players`` and ``ruleset`` and a ``summary()`` for reports; ``with_policies(options,
  policies)``: the same options with one policy a racer;
- ``prepare(track, options, composed=...)``: the engine's view of a track (with ``nodes``,
  the name of each node index, and ``composed``), from the composition its check made
  (``composed``: :attr:`TrackCheck.composed`; None: composed anew); every race goes
  through :func:`ready`, which checks the track first, refuses one that breaks a rule, in
  every game and for every command, and prepares it once (a :class:`Ready` track);
- ``groups(prepared, options)``: the columns a batch reports win rates and placings for;
  ``tallies``: what a batch counts per race (collisions, tree hits…); ``node_counts``:
  what it counts per space or square (turns ended there, collisions…), under the JSON key
  ``node_report``, each row naming its ``node_noun``, the busiest under ``node_heading``;
- ``play_batch(prepared, options, seed, batch, races)``: a batch of whole races drawn from
  :func:`batch_stream` ``(seed, batch)``, so the same seed gives the same races anywhere;
- optional: ``exact_solo`` (an exact solver, with ``exact_reference()`` the racer a
  profile solves for, and with it ``exact_paths`` and ``exact_characters``: that racer on
  each start path, each character), ``design_space`` (legal tracks counted), ``track_space(players,
  tileset)`` (those tracks ranked, streamed and drawn uniformly) and ``track_figures``
  (what a profile says of the track itself: squares, terrain…; the game then also counts
  the profile's drama and friction tallies, :mod:`trackkit.explore.profile`; its
  ``profile_choices``, if any, are the race options a profile uses); a game without one
  sets it to None; with ``track_space``, a ``design_codec`` (:class:`DesignCodec`: how a
  sweep's row holds a design and the track it names) and ``average_track`` (what a
  profile measures a track against: ``"space"``, tracks drawn from it, or ``"presets"``);
- optional: ``profile_spec``, a :class:`ProfileSpec`: what a profile measures of a game
  without a tile game's figures (Snow Tails: its start slots against an average track,
  its own tallies, in words about sleds); a game with neither it nor ``track_figures``
  has no profile;
- optional: ``scene(track, **highlight)``, the track drawn as shapes (a
  :class:`~trackkit.games.shapes.Scene`: polygons, circles, lines, words, clickable
  spots), which :mod:`trackkit.render` draws as SVG, PNG and Plotly; ``highlight`` are
  the game's own drawing options (Yummell: ``tileset``, ``highlight_cells``,
  ``clickable_cells``). A game without one cannot be drawn, and says so;
- ``ladder``: its policies as :class:`Rung` s, weakest first, each with what it assumes
  of a player (empty: a game with nothing to race against), which
  :mod:`trackkit.explore.ladder` races each against the one below at mixed tables.

A game built from tiles (Yummell) is also a :class:`TileRuleset`: its ``square_schema``
(the pydantic model a tile file's square fields must satisfy; they become the composed
graph's node attributes), ``default_tileset()``, and the board's shared structural checks
under its own track rules (``track_problems``, ``completable``). A game on a printed board
(Snow Tails) has no tiles: its tracks describe their own board.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol, runtime_checkable

import numpy as np
from pydantic import BaseModel

from trackkit.board.datafile import GAME_NAME, parse_toml, read_toml
from trackkit.errors import TrackFileError, TrackkitError, shown
from trackkit.games.tilekit.tiles import TileSet, read_tileset
from trackkit.games.tilekit.track import DEFAULT_GAME, Track

if TYPE_CHECKING:
    from trackkit.board.problems import Problem
    from trackkit.games.tilekit.graph import TrackGraph

# Every game trackkit ships: its name and its package, laid out as every game is
# (docs/contributing.md): its ``RULESET`` in ``core.ruleset``, its ``FACE`` in ``face``. A
# game is imported only when it is first asked for, so listing games costs nothing.
KNOWN: dict[str, str] = {
    "yummell": "trackkit.games.yummell",
    "snowtails": "trackkit.games.snowtails",
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
class Tally:
    """A count a batch keeps per race (collisions, tree hits, a race decided in its last
    round as 0 or 1…): a simulation reports its mean per race with an interval."""

    key: str
    title: str


@dataclass(frozen=True)
class Rung:
    """A rung of a game's ladder of policies (:mod:`trackkit.explore.ladder`): the
    ``policy`` and what it ``assumes`` of a player, in a designer's words. A rung that
    ``plans`` plays races out to choose (a planning player): tens to hundreds of times
    slower, it is on the ladder but not in the skill figure a sweep races."""

    policy: str
    assumes: str
    plans: bool = False


@dataclass(frozen=True)
class ProfileSpec:
    """What a profile (:mod:`trackkit.explore.profile`) measures of a game that declares
    it, and the words it says it in; whatever the game has not (characters, an exact
    solver, figures of the track itself) the profile marks as not applicable.

    ``start_group`` is the :class:`Group` whose fairness the profile measures against the
    fair share and an average track: its labels must mean the same on every track (a
    start slot; not a track's own start paths). ``start_noun`` names one of its labels
    and ``racers`` the players, in the profile's words. ``tallies`` are the game's
    :class:`Tally` keys the profile reports, each with its family (``drama``,
    ``friction``, or a family of the game's own).
    """

    start_group: str
    start_noun: str
    racers: str
    tallies: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class NodeCount:
    """A count a batch keeps per node, summed over its races: ``report`` names it in each
    row of the simulation's per-node table, as a mean per race (``per_race``) or a total."""

    key: str
    report: str
    title: str
    per_race: bool = True


@dataclass(frozen=True)
class BatchResult:
    """What a batch of races reports: each race's length in rounds, each player's placing,
    the group columns, the tallies per race, and the node counts summed over the batch;
    recorded steps when asked for."""

    rounds: np.ndarray  # (races,)
    placing: np.ndarray  # (races, players): 1 for the winner, ties share a placing
    groups: dict[str, np.ndarray]  # key -> (races, players) index into the group's labels
    node_counts: dict[str, np.ndarray]  # key -> (nodes,) summed over the batch
    tallies: dict[str, np.ndarray] = field(default_factory=dict)  # key -> (races,)
    log: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    log_n: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))


@dataclass(frozen=True)
class TrackCheck:
    """What a game's track rules found, each a :class:`~trackkit.board.problems.Problem`:
    ``problems`` (severity ``error``) make the track illegal, ``warnings`` go against a
    guideline and leave it legal. ``completable`` answers, for a track still being built,
    whether it can still be finished (None when not asked); ``composed`` is the track as
    composed for the checks, for a caller that goes on to race or draw it."""

    problems: tuple[Problem, ...]
    warnings: tuple[Problem, ...] = ()
    completable: bool | None = None
    composed: Any = None


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

    @property
    def content(self) -> Any: ...

    def summary(self) -> dict[str, Any]: ...


@runtime_checkable
class Ruleset(Protocol):
    """A race game behind one interface (see the module docstring for the list)."""

    name: str
    title: str
    players: PlayerBounds
    policies: tuple[str, ...]
    max_rounds: int
    tallies: tuple[Tally, ...]
    node_counts: tuple[NodeCount, ...]
    node_report: str
    node_noun: str
    node_heading: str

    def presets(self) -> tuple[str, ...]: ...

    def load_preset(self, slug: str) -> Any: ...

    def parse_track(self, data: dict[str, Any], *, source: str, base: Path | None) -> Any: ...

    def check_track(
        self,
        track: Any,
        *,
        tileset: TileSet | None = None,
        players: int | None = None,
        partial: bool = False,
        content: Any = None,
    ) -> TrackCheck: ...

    def content_folder(self, name: str | None = None) -> Path: ...

    def load_content(self, folder: str | Path | None = None) -> Any: ...

    def options(self, **choices: Any) -> Any: ...

    def with_policies(self, options: Any, policies: tuple[str, ...]) -> Any:
        """``options`` with one policy a racer (a ladder's mixed tables)."""
        ...

    def prepare(self, track: Any, options: Any, *, composed: Any = None) -> Any: ...

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
    track_figures: Callable[[Any], dict[str, float]] | None
    track_space: Callable[..., Any] | None
    design_codec: DesignCodec | None
    average_track: Literal["space", "presets"]
    # what a profile uses of the game, each declared (None or empty where it has none)
    profile_choices: Mapping[str, Any]  # the race options a profile uses
    profile_spec: ProfileSpec | None  # what a profile measures of a game of no tiles
    start_order_group: str | None  # the group whose order of first moves is the start part
    exact_rules: Callable[[Any], dict[str, Any]] | None  # the readings the solver takes
    exact_refusal: Callable[[Any], str | None] | None  # why the solver cannot, if it cannot
    scene: Callable[..., Any] | None  # the track drawn as shapes
    contents: Callable[[], tuple[str, ...]] | None  # bundled contents (rosters) to tune
    ladder: tuple[Rung, ...]  # its policies, weakest first (empty: none to race)
    # the skill figure's race pairs per profile race when not told: at most what keeps a
    # sweep with the skill within twice the cost of one without (measured per game)
    skill_share: float


class DesignCodec(Protocol):
    """How a sweep's row holds a game's design (its ``placements`` text, as the space's
    ``design_text`` writes it) and reads it back, for ``find``, its export and Explore."""

    def encode(self, track: Any) -> str | None:
        """The row text of ``track`` if the track alone says which design it is (Yummell's
        placements), else None (a Snow Tails board does not name its design)."""
        ...

    def decode(self, value: Any) -> Any:
        """The design in a row, checked (a JSON value: what ``find --json`` shows); a
        ValueError saying what is wrong with it otherwise (a sweep's files may come from
        anyone)."""
        ...

    def track(self, value: Any, name: str, tileset_folder: str | None) -> Any:
        """The track of the design ``value``, called ``name`` (``tileset_folder``: the
        plan's, for a game of tiles)."""
        ...

    def file_text(self, track: Any, folder: Path) -> str:
        """``track``'s file text, to be written in ``folder``."""
        ...


@runtime_checkable
class TileRuleset(Ruleset, Protocol):
    """A game whose tracks are tiles placed on a grid (see the module docstring)."""

    square_schema: type[BaseModel]

    def default_tileset(self) -> TileSet: ...

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


@dataclass(frozen=True)
class Ready:
    """A track checked by its game's rules and prepared for its engine, once: what passes
    from validation to simulation, replay and exact solving (the Game of OpenSpiel's
    Game/State split; each race's state is the engine's own).

    ``check`` is what the rules found (no problems: a track with one is never ready),
    ``prepared`` the engine's view, ``content`` what the check counted against.
    """

    track: Any
    check: TrackCheck
    prepared: Any
    content: Any = None

    @property
    def name(self) -> str:
        return str(self.track.name)

    @property
    def game(self) -> str:
        return str(self.track.game)


def _same(a: Any, b: Any) -> bool:
    """Whether two contents are the same (content holding arrays compares by identity)."""
    if a is b:
        return True
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def ready(track: Any, options: Options) -> Ready:
    """``track`` checked by every rule of ``options``' game (counted against the options'
    content) and prepared for its engine, composed once: the one check before any race,
    whichever the command (a simulation, a recorded race, a comparison, a profile, a
    tournament) or the front end. A :class:`Ready` track is taken as it is (checked again
    only for other content).

    A track that breaks a rule is refused with a :class:`TrackkitError` naming its first
    problem: raced anyway, it gives figures that mean nothing (a Snow Tails track whose
    finish no sled can reach ran every race to the round limit and was reported, and
    ranked, as the longest).
    """
    if isinstance(track, Ready):
        if _same(track.content, options.content):
            return track
        track = track.track
    ruleset = options.ruleset
    check = ruleset.check_track(track, content=options.content)
    problems = check.problems
    if problems:
        raise TrackkitError(
            f"track {shown(track.name)!r} cannot be raced: {len(problems)} problem(s), "
            f"first: {str(problems[0]).rstrip('.')}. Run `trackkit validate` for all of them."
        )
    prepared = ruleset.prepare(track, options, composed=check.composed)
    return Ready(track, check, prepared, options.content)


def race_ready(track: Any, options: Options) -> Any:
    """The engine's view of ``track`` (a track or a :class:`Ready` one), after
    :func:`ready`'s check."""
    return ready(track, options).prepared


_LOADED: dict[str, Ruleset] = {}


def rulesets() -> tuple[str, ...]:
    """The names of the games trackkit knows, in the order they were added.

    >>> rulesets()
    ('yummell', 'snowtails')
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
        module = f"{KNOWN[name]}.core.ruleset"
        ruleset = import_module(module).RULESET
        if not isinstance(ruleset, Ruleset):
            raise TypeError(f"{module}.RULESET does not implement the Ruleset protocol")
        _LOADED[name] = ruleset
    return _LOADED[name]


def tile_ruleset(game: str | None) -> TileRuleset:
    """The ruleset of ``game`` if its tracks are built from tiles; a
    :class:`TrackkitError` saying so for a game on a printed board."""
    ruleset = get_ruleset(game)
    if not isinstance(ruleset, TileRuleset):
        raise TrackkitError(
            f"{ruleset.title} has no tiles: its tracks describe their own board "
            "(see 'Snow Tails track files' in docs/snowtails.md)"
        )
    return ruleset


def square_schema(game: str) -> type[BaseModel]:
    """The square schema of ``game`` (what a tile set of that game is checked with)."""
    return tile_ruleset(game).square_schema


def load_tileset(folder: str | Path | None = None, game: str | None = None) -> TileSet:
    """A tile set: the one in ``folder`` (its squares checked by the schema of the game it
    names), or with no folder the game's own set (``game`` None: the default game's).

    >>> load_tileset().game, len(load_tileset())
    ('yummell', 10)
    """
    if folder is None:
        return tile_ruleset(game).default_tileset()
    return read_tileset(folder, square_schema)


def tileset_of(track: Track) -> TileSet:
    """The tile set ``track`` is built from: its own folder, or its game's set."""
    return load_tileset(track.tileset, track.game)


def is_tile_track(track: Any) -> bool:
    """Whether ``track`` is made of tiles (a :class:`~trackkit.games.tilekit.track.Track`)."""
    return isinstance(track, Track)


def parse_track(data: dict[str, Any], *, source: str, base: Path | None = None) -> Any:
    """A track of whichever game its table names (``game``; missing: the default game),
    read by that game's ruleset; a :class:`TrackFileError` naming the file for a ``game``
    that is not a name and a :class:`TrackkitError` naming the known games for an unknown
    one."""
    game = data.get("game", DEFAULT_GAME)
    if not isinstance(game, str):
        raise TrackFileError(source, "game", 'must be a game\'s name in quotes, e.g. "yummell"')
    if game not in KNOWN:
        # the tile file format reports a malformed name; an unknown one is refused by name
        if not re.fullmatch(GAME_NAME, game):
            raise TrackFileError(source, "game", 'a game is named in lower case, e.g. "yummell"')
        get_ruleset(game)  # raises, naming the games trackkit knows
    return get_ruleset(game).parse_track(data, source=source, base=base)


def parse_game_track_toml(text: str, *, source: str, game: str, base: Path | None = None) -> Any:
    """A track file's text read as a track of ``game`` (where only that game's tracks
    fit, such as one game's pages of the app); a file of another known game is refused
    by the game's name."""
    data = parse_toml(text, source, TrackFileError)
    named = data.get("game", DEFAULT_GAME)
    if named != game and isinstance(named, str) and named in KNOWN:
        raise TrackFileError(
            source,
            "game",
            f"this is a {get_ruleset(named).title} track; here only "
            f"{get_ruleset(game).title} tracks fit",
        )
    return get_ruleset(game).parse_track(data, source=source, base=base)


def parse_track_toml(text: str, *, source: str, base: Path | None = None) -> Any:
    """A track file's text (an upload, a link) as a track of the game it names."""
    return parse_track(parse_toml(text, source, TrackFileError), source=source, base=base)


def load_track(path: str | Path) -> Any:
    """Read a track file of any game trackkit knows (:func:`parse_track`)."""
    return parse_track(read_toml(path, TrackFileError), source=str(path), base=Path(path).parent)


def find_preset(slug: str) -> tuple[Ruleset, str] | None:
    """The game whose preset is called ``slug`` (slugs differ across games), or None."""
    for name in KNOWN:
        ruleset = get_ruleset(name)
        if slug in ruleset.presets():
            return ruleset, slug
    return None


def load_preset(slug: str) -> Any:
    """The preset called ``slug``, of whichever game has it; a :class:`TrackkitError`
    listing every game's presets for any other name.

    >>> load_preset("chicane").game, load_preset("first-run").game
    ('snowtails', 'yummell')
    """
    found = find_preset(slug)
    if found is None:
        known = "; ".join(
            f"{get_ruleset(name).title}: {', '.join(get_ruleset(name).presets())}" for name in KNOWN
        )
        raise TrackkitError(f"there is no preset called {shown(slug)!r}; presets: {known}")
    ruleset, name = found
    return ruleset.load_preset(name)


def all_rulesets() -> Sequence[Ruleset]:
    """Every known ruleset, loaded (the conformance suite runs over these)."""
    return [get_ruleset(name) for name in KNOWN]
