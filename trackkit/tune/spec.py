"""A tune file: what may move in a content folder, where to balance, and the targets.

A tune file is TOML (docs/formats.md, "Tune files")::

    [balance]
    tracks = ["first-run", "forest-run"]   # presets, or track files beside the tune file
    players = [2, 3, 4]
    races = 2000                           # per track and player count, for each candidate

    [targets]
    win_share = 0.03      # each character's win rate within ±3 points of the fair share
    labels = ["Character 5"]  # only these characters (default: every one)
    length_change = 0.05  # each mean race length within ±5% of the starting content's

    [[move]]
    file = "characters.toml"
    entries = ["Character 5"]
    fields = ["strength", "agility"]
    low = 1
    high = 8

Reading checks every field (one-line errors naming the file, the field and the fix) and
refuses targets no content can meet; :func:`resolve_moves` then checks every move against
the content folder it will move (:mod:`trackkit.tune.content_files`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from trackkit.board.datafile import validated
from trackkit.errors import TuneFileError, shown

SCOPES = ("each", "players", "all")
Scope = Literal["each", "players", "all"]
SAMPLERS = ("tpe", "cmaes")
DIRECTIONS = ("within", "at-most", "at-least")
# a win-share target: within ±win_share of the fair share, or at most / at least win_share
Direction = Literal["within", "at-most", "at-least"]
# the 95% interval of a win rate is ±Z_95·√(p(1−p)/n)
Z_95 = 1.959963984540054
_STRICT = ConfigDict(extra="forbid")
# A moved value's bounds (and a deck count's) lie within ±MOVE_BOUND: every value a game's
# content reads is far inside it (Snow Tails' largest, a course's trees or markers, is at
# most 1,000), and a candidate's deck is bounded apart (trackkit.limits.TUNE_DECK_CARDS).
MOVE_BOUND = 10_000
_HINTS = {"extra_forbidden": "unknown field (check its spelling: 'Tune files' in docs/formats.md)"}


class _Balance(BaseModel):
    model_config = _STRICT
    tracks: list[str] | None = Field(default=None, min_length=1, max_length=50)
    players: list[int] | None = Field(default=None, min_length=1, max_length=20)
    group: str | None = None
    races: int = Field(default=2000, ge=100, le=1_000_000)

    @model_validator(mode="after")
    def _players_race(self) -> _Balance:
        for count in self.players or ():
            if count < 2:
                raise ValueError(
                    f"players {count}: a race of one has no fair share; balance over 2 or more"
                )
        if self.players is not None and len(set(self.players)) != len(self.players):
            raise ValueError("players lists a count twice; list each once")
        return self


def _direction(direction: str) -> str:
    if direction not in DIRECTIONS:
        raise ValueError(
            f"direction {shown(direction, 40)!r} is none of {', '.join(DIRECTIONS)} "
            "(within ±win_share of the fair share, or at most / at least win_share from it)"
        )
    return direction


class _Share(BaseModel):
    model_config = _STRICT
    win_share: float = Field(gt=-1, lt=1)
    scope: Scope = "each"
    labels: list[str] | None = Field(default=None, min_length=1)
    direction: str = "within"

    _known = field_validator("direction")(_direction)

    @model_validator(mode="after")
    def _can_be_met(self) -> _Share:
        _tolerance(self.win_share, self.direction)
        return self


def _tolerance(win_share: float, direction: str) -> None:
    if direction == "within" and win_share <= 0:
        raise ValueError(
            f"win_share {win_share} cannot be met: races never give every label "
            "exactly its fair share; give a tolerance such as 0.03 (±3 points)"
        )


class _Targets(BaseModel):
    model_config = _STRICT
    win_share: float | None = Field(default=None, gt=-1, lt=1)
    scope: Scope = "each"
    labels: list[str] | None = Field(default=None, min_length=1)
    direction: str = "within"
    hold_others: bool = True

    _known = field_validator("direction")(_direction)
    also: list[_Share] = Field(default=[], max_length=20)
    length_change: float | None = Field(default=None, gt=0, lt=1)
    length: tuple[float, float] | None = None
    fewest_changes: bool = False

    @model_validator(mode="after")
    def _can_be_met(self) -> _Targets:
        if (
            self.win_share is None
            and not self.also
            and self.length_change is None
            and self.length is None
        ):
            raise ValueError("no target: give win_share, length_change or length")
        if self.win_share is not None:
            _tolerance(self.win_share, self.direction)
        elif self.direction != "within":
            raise ValueError("direction needs a win_share: the bound it holds the labels to")
        if self.length is not None:
            low, high = self.length
            if not 0 < low < high:
                raise ValueError(
                    f"length [{low}, {high}] is no range of mean rounds a race can have; "
                    "give [low, high] with 0 < low < high"
                )
        return self


class _Search(BaseModel):
    model_config = _STRICT
    budget: int = Field(default=200, ge=1, le=100_000)
    sampler: Literal["tpe", "cmaes"] = "tpe"
    seed: int = Field(default=0, ge=0, lt=2**32)
    confirm_races: int | None = Field(default=None, ge=100, le=1_000_000)
    stop_when_met: bool = True
    recheck: int = Field(default=5, ge=0, le=50)


class _Move(BaseModel):
    model_config = _STRICT
    file: str = Field(min_length=1)
    list_name: str | None = Field(default=None, alias="list")
    key: str = Field(default="name", min_length=1)
    entry: str | int | None = None
    entries: list[str | int] | None = Field(default=None, min_length=1)
    field: str | None = None
    fields: list[str] | None = Field(default=None, min_length=1)
    low: int | None = Field(default=None, ge=-MOVE_BOUND, le=MOVE_BOUND)
    high: int | None = Field(default=None, ge=-MOVE_BOUND, le=MOVE_BOUND)
    step: int = Field(default=1, ge=1, le=MOVE_BOUND)
    number: int | None = Field(default=None, ge=-MOVE_BOUND, le=MOVE_BOUND)
    choices: list[Any] | None = Field(default=None, min_length=2, max_length=50)

    @model_validator(mode="after")
    def _one_kind(self) -> _Move:
        if self.entry is not None and self.entries is not None:
            raise ValueError("give `entry` or `entries`, not both")
        if (self.field is None) == (self.fields is None):
            raise ValueError("give the value to move: `field` (or `fields`), one of them")
        ranged = self.low is not None or self.high is not None
        if ranged == (self.choices is not None):
            raise ValueError("give either `low` and `high` (a whole-number range) or `choices`")
        if ranged:
            if self.low is None or self.high is None:
                raise ValueError("a range needs both `low` and `high`")
            if self.low > self.high:
                raise ValueError(
                    f"impossible bounds: low {self.low} is above high {self.high}; swap them"
                )
            if (self.high - self.low) % self.step:
                raise ValueError(
                    f"high − low ({self.high - self.low}) is not a multiple of step {self.step}"
                )
        if self.number is not None and self.choices is not None:
            raise ValueError("`number` counts cards in a range; it takes `low` and `high`")
        if self.choices is not None:
            tables = [isinstance(c, dict) for c in self.choices]
            if any(tables) and not all(tables):
                raise ValueError("`choices` are all values or all tables of fields, not a mix")
        return self


class _TuneSpec(BaseModel):
    model_config = _STRICT
    game: str | None = None
    content: str | None = None
    balance: _Balance = _Balance()
    targets: _Targets
    search: _Search = _Search()
    move: list[_Move] = Field(min_length=1, max_length=500)


@dataclass(frozen=True)
class ShareSpec:
    """A win-share target: labels (None: all) within ``win_share`` at ``scope`` (or, by
    ``direction``, at most / at least ``win_share`` from the fair share)."""

    win_share: float
    scope: Scope
    labels: tuple[str, ...] | None
    direction: Direction = "within"


@dataclass(frozen=True)
class MoveSpec:
    """One ``[[move]]`` of a tune file, as written (:func:`resolve_moves` expands it)."""

    file: str
    list_name: str | None
    key: str
    entries: tuple[str, ...] | None
    fields: tuple[str, ...]
    low: int | None
    high: int | None
    step: int
    number: int | None
    choices: tuple[Any, ...] | None


@dataclass(frozen=True)
class TuneSpec:
    """A tune file, read and checked. ``path`` is where it was read (tracks named by a
    path are found beside it); ``text`` its text, kept so that a resumed tune can tell
    whether it is the same tune."""

    path: str
    text: str
    game: str | None
    content: str | None
    tracks: tuple[str, ...] | None
    players: tuple[int, ...] | None
    group: str | None
    races: int
    win_share: float | None
    scope: Scope
    labels: tuple[str, ...] | None
    also: tuple[ShareSpec, ...]
    length_change: float | None
    length: tuple[float, float] | None
    fewest_changes: bool
    budget: int
    sampler: str
    seed: int
    confirm_races: int | None
    stop_when_met: bool
    recheck: int
    moves: tuple[MoveSpec, ...]
    direction: Direction = "within"
    hold_others: bool = True

    @property
    def folder(self) -> Path:
        return Path(self.path).resolve().parent

    @property
    def shares(self) -> tuple[ShareSpec, ...]:
        """Every win-share target: the ``[targets]`` one, then ``[[targets.also]]``."""
        first = (
            ()
            if self.win_share is None
            else (ShareSpec(self.win_share, self.scope, self.labels, self.direction),)
        )
        return first + self.also


def read_tune(path: str | Path) -> TuneSpec:
    """The tune file at ``path``, every field checked (:class:`~trackkit.errors.TuneFileError`
    naming the field and the fix)."""
    from trackkit.board.datafile import read_text

    text = read_text(path, TuneFileError)
    return parse_tune(text, str(path))


def parse_tune(text: str, source: str) -> TuneSpec:
    """A tune file's ``text`` (read from ``source``), checked."""
    from trackkit.board.datafile import parse_toml

    data = parse_toml(text, source, TuneFileError)
    spec = validated(_TuneSpec, data, source, TuneFileError, _HINTS)
    return TuneSpec(
        path=source,
        text=text,
        game=spec.game,
        content=spec.content,
        tracks=tuple(spec.balance.tracks) if spec.balance.tracks else None,
        players=tuple(spec.balance.players) if spec.balance.players else None,
        group=spec.balance.group,
        races=spec.balance.races,
        win_share=spec.targets.win_share,
        scope=spec.targets.scope,
        labels=tuple(spec.targets.labels) if spec.targets.labels else None,
        also=tuple(
            ShareSpec(
                a.win_share,
                a.scope,
                tuple(a.labels) if a.labels else None,
                cast(Direction, a.direction),
            )
            for a in spec.targets.also
        ),
        length_change=spec.targets.length_change,
        length=spec.targets.length,
        fewest_changes=spec.targets.fewest_changes,
        direction=cast(Direction, spec.targets.direction),
        hold_others=spec.targets.hold_others,
        budget=spec.search.budget,
        sampler=spec.search.sampler,
        seed=spec.search.seed,
        confirm_races=spec.search.confirm_races,
        stop_when_met=spec.search.stop_when_met,
        recheck=spec.search.recheck,
        moves=tuple(
            MoveSpec(
                file=m.file,
                list_name=m.list_name,
                key=m.key,
                entries=(str(m.entry),) if m.entry is not None else _tuple(m.entries),
                fields=(m.field,) if m.field is not None else tuple(m.fields or ()),
                low=m.low,
                high=m.high,
                step=m.step,
                number=m.number,
                choices=tuple(m.choices) if m.choices is not None else None,
            )
            for m in spec.move
        ),
    )


def _tuple(values: list[str | int] | None) -> tuple[str, ...] | None:
    return tuple(str(v) for v in values) if values is not None else None


def win_share_half_width(races: int, players: int, labels: int) -> float:
    """The widest 95% interval half-width of a label's win rate at the fair share, in
    ``races`` races of ``players`` (a label enters ``races × players / labels`` of them
    when labels are dealt at random)."""
    entries = max(1.0, races * min(players, labels) / labels)
    share = 1 / players
    return Z_95 * math.sqrt(share * (1 - share) / entries)


def check_resolution(spec: TuneSpec, players: tuple[int, ...], labels: int, races: int) -> None:
    """Refuse a win-share tolerance the races cannot resolve: one narrower than the 95%
    interval of a win rate in ``races`` races at the least-entered count."""
    within = [share.win_share for share in spec.shares if share.direction == "within"]
    if not within:
        return
    tolerance = min(within)
    for count in players:
        half = win_share_half_width(races, count, labels)
        if tolerance < half:
            needed = races * math.ceil((half / tolerance) ** 2)
            raise TuneFileError(
                spec.path,
                "targets.win_share",
                f"±{tolerance:.3f} cannot be told from luck in {races:,} races of "
                f"{count} players (a win rate's 95% interval is ±{half:.3f}); widen it or "
                f"confirm with about {needed:,} races (search.confirm_races)",
            )
