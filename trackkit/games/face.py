"""What a game shows: the front ends' side of the seam (:mod:`trackkit.games.base` is the
engines' side).

The command line, the app and the reports know no game. Each game folder holds, beside its
ruleset, a ``face`` package whose ``FACE`` implements :class:`Face`:

- ``options``: the game's own race options (:class:`Argument`: a name, a type, bounds and
  help), from which the command line builds its flags and the app its widgets, and
  ``race_options`` that turns the chosen values into the ruleset's options object;
- its texts, each a :class:`Shown` (JSON-ready data and the text for people):
  ``presets_table``, ``show``, ``race`` (one race told turn by turn) and ``compare``
  (tracks side by side);
- ``track_text``: a track written as the game's track file (paths in it relative to the
  folder it goes to);
- ``commands``: commands of its own (:class:`Command`), such as Yummell's ``tiles`` or
  Snow Tails' ``tournament``;
- optionally ``sheet``: a track's pieces as the build sheet lists them and the link that
  reopens it in the app (:class:`Sheet`; :mod:`trackkit.report.sheet` writes the PDF).

A face may use the shared layers above the games (simulation, exploring, reports); the
rest of a game folder may not (``tests/test_layers.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any, Literal, NamedTuple, Protocol, runtime_checkable

from trackkit.games.base import KNOWN, Options, Ruleset, get_ruleset
from trackkit.limits import PLAN_BUDGET

Kind = Literal["int", "float", "choice", "names", "switch", "text"]


@dataclass(frozen=True)
class Argument:
    """One value a user gives a command: a race option of a game, or an argument of a
    game's own command.

    ``name`` is the keyword the game reads (and, with dashes, the command-line flag);
    ``kind`` how it is typed: ``int`` and ``float`` within ``low``..``high``, ``choice`` one
    of ``choices``, ``names`` a comma-separated list, ``switch`` on or off (its flag turns
    the ``default`` over: a switch on by default is given as ``--no-NAME``), ``text`` any
    text, read by ``parse`` when given (which raises ``ValueError`` with the reason).
    ``positional`` arguments are given without a flag; ``count`` values are given at once
    (``"*"``: any number). ``rule`` says the bounds in words for an error, with ``{low}``
    and ``{high}``; ``short`` is a one-letter flag beside the long one (``-o``).

    The app builds a widget from the same declaration: ``label`` (default: the name in
    words), ``app_help`` (default: ``help``, which speaks of flags), ``offered``: the values
    a list offers, the first chosen unless the user picks another (a text or number option
    otherwise typed), ``words``: how some values read (``("dealt", "dealt in turn")``),
    ``among``: for ``names``, the attribute of the game's content that lists them
    (``character_names``).
    """

    name: str
    help: str
    kind: Kind = "text"
    default: Any = None
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    parse: Callable[[str], Any] | None = None
    metavar: str | None = None
    required: bool = False
    positional: bool = False
    count: int | str | None = None
    short: str | None = None
    rule: str | None = None
    # how the app shows it (the command line ignores these)
    label: str | None = None
    offered: tuple[Any, ...] = ()
    words: tuple[tuple[Any, str], ...] = ()
    among: str | None = None
    app_help: str | None = None

    @property
    def title(self) -> str:
        """The app's label: ``label``, else the name in words (``Start paths``)."""
        return self.label or self.name.replace("_", " ").capitalize()

    def say(self, value: Any) -> str:
        """``value`` as the app shows it: its ``words`` when it has some."""
        return dict(self.words).get(value, str(value))

    @property
    def flag(self) -> str:
        """The command-line flag: ``--start-paths``, or ``--no-encounters`` for a switch
        that is on unless turned off."""
        dashed = self.name.replace("_", "-")
        if self.kind == "switch" and self.default is True:
            return f"--no-{dashed}"
        return f"--{dashed}"


# the planning player's budget (the ladder's top rung), an option of every game's races
BUDGET = Argument(
    "budget",
    "the planning player's playouts of each option a turn (policy planner; more: stronger "
    "and slower; default the game's)",
    "int",
    low=1,
    high=PLAN_BUDGET.cli,
    rule="a planning player's budget is {low} to {high} playouts an option",
    app_help="How many times the planning player plays each option out to the race's end",
)


class Step(NamedTuple):
    """One step of a game's tour on the start page: the page at ``path`` (its address
    after the game's own beginning), under ``heading``, what it does, and the link's
    ``label``."""

    path: str
    heading: str
    text: str
    label: str


@dataclass(frozen=True)
class Look:
    """How the app shows a game, every part optional (a face without ``look`` gets these
    defaults, and the shared pages alone).

    ``address``: what the addresses of its pages, and the keys of their widgets, begin
    with (the first game's is empty, so its old links hold); ``name``: its short name in
    the titles of its shared pages (``Snow Tails race``; empty: ``Race``); ``racers``: what
    its racers are called (Players, Sleds), ``players_help`` what their count decides;
    ``policy_help``: what each policy assumes of players;
    ``summary``: what it is, for the start page, ``caveat``: what of it is reconstructed,
    and ``steps``: the start page's tour of its pages (the pages themselves are the app's:
    :mod:`trackkit.app.game_pages`).
    """

    address: str = ""
    name: str = ""
    racers: str = "Players"
    players_help: str = ""
    policy_help: str = ""
    summary: str = ""
    caveat: str = ""
    steps: tuple[Step, ...] = ()


class Shown(NamedTuple):
    """What a command shows: ``data`` for ``--json`` and other programs, ``text`` for
    people. Either may be an iterator of lines instead (JSON Lines, a long listing),
    printed as they come."""

    data: Any
    text: str | Iterator[str]


@dataclass(frozen=True)
class Command:
    """A command of one game's own: its ``arguments``, and ``run``, which takes their
    values by name (a positional ``track`` already read: a preset or a file) and returns
    what to show, or ``(shown, exit code)``. A command that ``races`` also takes the
    game's race options (players, policy, content, seed and the game's own), given to
    ``run`` built, as ``options``."""

    name: str
    help: str
    arguments: tuple[Argument, ...]
    run: Callable[..., Shown | tuple[Shown, int]]
    epilog: str | None = None
    races: bool = False


class PieceTable(NamedTuple):
    """One table of a build sheet: its ``title`` (``Tiles in placing order``), the
    ``columns``' titles, one row of texts per piece, and a ``note`` under it that says how
    to read it (what a rotation or a lane counts from)."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""


class Sheet(NamedTuple):
    """What a game puts on a track's build sheet (a face's optional ``sheet(track)``): its
    ``tables`` of pieces, in the order they are laid, and the link that reopens the track
    in the app: the address of the game's design ``page`` and the ``query`` it reads
    (``design`` and ``track=…``)."""

    tables: tuple[PieceTable, ...]
    page: str
    query: str

    def link(self, app: str) -> str:
        """The link under the app's address ``app`` (``http://localhost:8501``)."""
        return f"{app.rstrip('/')}/{self.page}?{self.query}"


@runtime_checkable
class Face(Protocol):
    """A game's front-end side (see the module docstring)."""

    options: tuple[Argument, ...]
    commands: tuple[Command, ...]

    def race_options(
        self,
        players: int,
        policies: tuple[str, ...],
        content: str | Path | None,
        chosen: Mapping[str, Any],
    ) -> Options: ...

    def presets_table(self) -> Shown: ...

    def show(self, track: Any) -> Shown: ...

    def race(self, track: Any, options: Any, seed: int) -> Shown: ...

    def compare(
        self,
        tracks: Mapping[str, Any],
        options: Any,
        *,
        races: int,
        seed: int,
        progress: Callable[[int, int], None] | None = None,
    ) -> Shown: ...

    def track_text(self, track: Any, folder: Path) -> str: ...

    sheet: Callable[[Any], Sheet] | None  # a track's build sheet (None: the game has none)


_FACES: dict[str, Face] = {}


def look_of(game: str | None = None) -> Look:
    """How the app shows ``game`` (:class:`Look`). A face that says nothing gets the
    defaults, its pages' addresses beginning with the game's name (``toy-race``) so that
    they never take another game's."""
    face, ruleset = get_face(game), get_ruleset(game)
    look = getattr(face, "look", None)
    if isinstance(look, Look):
        return look
    return Look(address=f"{ruleset.name}-", name=ruleset.title)


def get_face(game: str | None = None) -> Face:
    """The face of ``game`` (None: the default game): the ``FACE`` of its package's
    ``face``."""
    ruleset = get_ruleset(game)
    if ruleset.name not in _FACES:
        package = KNOWN[ruleset.name]
        face = import_module(f"{package}.face").FACE
        if not isinstance(face, Face):
            raise TypeError(f"{package}.face.FACE does not implement the Face protocol")
        _FACES[ruleset.name] = face
    return _FACES[ruleset.name]


@dataclass(frozen=True)
class Game:
    """A game as the front ends take it, looked up once from its name: its rules
    (``ruleset``), what the command line and the app show of it (``face``) and how the app
    shows it (``look``)."""

    ruleset: Ruleset
    face: Face
    look: Look

    @property
    def name(self) -> str:
        return self.ruleset.name

    @property
    def title(self) -> str:
        return self.ruleset.title


def game_of(name: str | None = None) -> Game:
    """The game called ``name`` (None: the default game); a :class:`TrackkitError` naming
    the known games for any other name."""
    return Game(get_ruleset(name), get_face(name), look_of(name))


def face_of(track: Any) -> Face:
    """The face of ``track``'s game."""
    return get_face(track.game)


def policies_of(text: str) -> tuple[str, ...]:
    """``--policy`` as typed: one policy for every racer, or one per racer separated by
    commas (each game's options refuse a name it does not know)."""
    return tuple(name.strip() for name in text.split(","))


def games_with(capability: str) -> tuple[str, ...]:
    """The games whose ruleset has ``capability`` (an optional method such as
    ``track_space``), in the registry's order."""
    return tuple(name for name in KNOWN if getattr(get_ruleset(name), capability, None) is not None)


def chosen_values(arguments: Sequence[Argument], values: Mapping[str, Any]) -> dict[str, Any]:
    """The values of ``arguments`` a user gave (a switch counts when turned over)."""
    chosen = {}
    for argument in arguments:
        value = values.get(argument.name)
        if value is None:
            continue
        chosen[argument.name] = value
    return chosen


SEED = Argument(
    "seed",
    "0 to 2**64 - 1 (default 0)",
    "int",
    default=0,
    low=0,
    high=2**64 - 1,
    rule="the seed is a whole number from {low} to {high} (2**64 - 1)",
)
"""The seed of every random result, as a game's own command declares it."""
