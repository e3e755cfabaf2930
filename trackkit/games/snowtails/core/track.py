"""Snow Tails track files: a route of straights and corners, its direction, its start and
finish, and the trees, buildings and markers on it.

The printed Mush! Mush! board is not published, so a track describes its own board
parametrically (SNOWTAILS.md §5.1, §5.6). A track file looks like this::

    game = "snowtails"
    name = "Husky oval"
    reconstructed = true          # not a printed track: say so, and why, in note
    note = "Demo board, not the printed Mush! Mush! board."
    lanes = 5                     # lanes of every straight (default: data/components.toml)
    direction = "forward"         # or "reversed": drive the route backwards
    beginner = true               # a first-race track: warns of buildings, corner trees…
    tiebreak = "inside"           # or "left": who leads when two sleds are level
    start = { segment = "home", row = 0 }
    finish = { segment = "run-in", line = 4, runoff_rows = 3 }
    trees = [["back", 2, 3], ["back", 4, 7]]   # [segment, lane, index]
    markers = [["spur", 1, 0], ["spur", 2, 0]] # [segment, lane, index]

    [[segments]]
    id = "home"
    rows = 6                      # a straight: rows of `lanes` spaces

    [[segments]]
    id = "bend"
    turn = "left"                 # a corner: turn, and spaces per lane inside → outside
    spaces_per_lane = [2, 3, 4, 5, 6]
    tight = false                 # a tight corner (rulebook G): lanes run into the side
    angle = 90                    # 90 (default) or 180, a hairpin: how it lies on the table

    [[buildings]]
    kind = "chapel"               # kennels, chapel or bothy: on the track…
    segment = "back"
    lanes = [2, 3]                # first and last lane covered
    rows = [4, 5]                 # first and last row covered

    [[buildings]]
    kind = "tavern"               # …the tavern stands beside it
    segment = "back"
    side = "right"
    rows = [1, 2]

**Board addresses.** Every position in the file is an address on the board as listed,
``[segment, lane, index]``: lanes count from 1 on the left *when driving the segments in
the order listed*, and the index counts the spaces of that lane from the end of the segment
that comes first in that order (on a straight the index is the row). The same address
means the same physical space whichever way the track is driven, so reversing a track is
``direction = "reversed"`` plus a new start and finish; the graph (:mod:`.geometry`)
numbers lanes and progress in the direction of travel.

**Route.** Segments are listed in route order; each continues from the one before it,
unless it names another with ``after = "id"`` (a branch of the board). A branch is closed
by markers on every lane of its first spaces (index 0); the validator reports a route that
still forks. Straights have ``rows`` (and may set their own ``lanes``); a corner has as
many lanes as ``spaces_per_lane`` lists, innermost first.

**Start and finish.** ``start.row`` is the row of start spaces, one per lane, on a straight
(the start line is its front edge, in the direction of travel). ``finish.line`` is a row
boundary of a straight: the line lies after ``line`` rows of the segment, counted in board
order, so 0 is the segment's first edge. ``runoff_rows`` rows beyond the line (in the
direction of travel) stay open; the route is closed after them.

Loading checks the form of the file: types, field names, segment ids and ``after`` links.
Whether the track can be raced is the validator's business (:mod:`.validation`), so a
tree off the track or a building in a corner still loads.

>>> track = parse_track_toml('''
... game = "snowtails"
... name = "Two straights"
... start = { segment = "a", row = 0 }
... finish = { segment = "b", line = 2 }
... segments = [
...     { id = "a", rows = 4 },
...     { id = "b", turn = "left", spaces_per_lane = [2, 3, 4, 5, 6] },
... ]
... ''', source="example.toml")
>>> track.segments[1].spaces_in_lane(1), track.finish.runoff_rows
(2, 3)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple

import tomli_w
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    model_validator,
)

from trackkit.board.datafile import parse_toml, read_toml, validated
from trackkit.errors import TrackFileError
from trackkit.games.snowtails import GAME
from trackkit.games.snowtails.core.content import load_components

# Bounds on the form of a file: generous for any real board (5 lanes, straights of a few
# rows, corners of 2 to 6 spaces a lane), small enough that a typo (rows = 100000) is
# refused at once instead of building a huge graph. Every coordinate is bounded by them
# too (a lane, a row or space index, a building's span), so a file cannot even name a
# space far off any board it could describe: the largest board is MAX_SEGMENTS straights of
# MAX_LANES × MAX_ROWS spaces (32,400) and MAX_BUILDINGS buildings of at most as many.
MAX_LANES = 9
MAX_ROWS = 60
MAX_CORNER_SPACES = 30
MAX_INDEX = max(MAX_ROWS, MAX_CORNER_SPACES) - 1  # the last row of a straight, space of a lane
DEFAULT_ANGLE = 90  # a corner turns a quarter unless its file says angle = 180 (a hairpin)
MAX_SEGMENTS = 60
MAX_ITEMS = 200  # trees or markers listed
MAX_BUILDINGS = 12
SEGMENT_ID = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$"
ONE_LINE = r"^[^\r\n]*$"

Turn = Literal["left", "right"]
Direction = Literal["forward", "reversed"]
Tiebreak = Literal["inside", "left"]
BuildingKind = Literal["kennels", "chapel", "bothy", "tavern"]
ON_TRACK: tuple[BuildingKind, ...] = ("kennels", "chapel", "bothy")
BUILDING_NAMES = {"kennels": "Kennels", "chapel": "Chapel", "bothy": "Bothy", "tavern": "Tavern"}


class Address(NamedTuple):
    """A space on the board as the file names it: segment id, lane (1 = left in board
    order) and index (the row on a straight, the space in its lane on a corner)."""

    segment: str
    lane: int
    index: int


@dataclass(frozen=True)
class Segment:
    """A straight (``rows`` of ``lanes`` spaces) or a corner (``turn``, the spaces of
    each lane, innermost first, and the ``angle`` it turns through: 90 or a 180° hairpin),
    in board order; ``after`` is the segment it continues from, None for the first. The
    angle places the board's pieces in the plane (drawings); the race reads only the
    spaces."""

    id: str
    lanes: int
    rows: int | None = None
    turn: Turn | None = None
    spaces_per_lane: tuple[int, ...] = ()
    tight: bool = False
    after: str | None = None
    angle: int = 90

    @property
    def is_corner(self) -> bool:
        return self.turn is not None

    @property
    def kind(self) -> str:
        return "corner" if self.is_corner else "straight"

    def spaces_in_lane(self, lane: int) -> int:
        """Spaces in board lane ``lane`` (0 for a lane the segment does not have)."""
        if not 1 <= lane <= self.lanes:
            return 0
        if self.rows is not None:
            return self.rows
        ring = lane - 1 if self.turn == "left" else self.lanes - lane  # 0 = innermost
        return self.spaces_per_lane[ring]

    def holds(self, lane: int, index: int) -> bool:
        return 0 <= index < self.spaces_in_lane(lane)


@dataclass(frozen=True)
class StartRow:
    segment: str
    row: int


@dataclass(frozen=True)
class FinishLine:
    """The finish line after ``line`` rows of ``segment`` (board order), and the rows
    beyond it (direction of travel) that stay open."""

    segment: str
    line: int
    runoff_rows: int


@dataclass(frozen=True)
class Building:
    """A building: Kennels, Chapel and Bothy cover ``lanes`` × ``rows`` (first and last,
    board order) of a straight; the Tavern stands at ``side`` of ``rows``."""

    kind: BuildingKind
    segment: str
    rows: tuple[int, int]
    lanes: tuple[int, int] | None = None
    side: Turn | None = None

    @property
    def name(self) -> str:
        return BUILDING_NAMES[self.kind]

    @property
    def on_track(self) -> bool:
        return self.kind != "tavern"

    def footprint(self) -> tuple[Address, ...]:
        """The spaces it covers (none for the Tavern)."""
        if self.lanes is None:
            return ()
        return tuple(
            Address(self.segment, lane, row)
            for lane in range(self.lanes[0], self.lanes[1] + 1)
            for row in range(self.rows[0], self.rows[1] + 1)
        )


@dataclass(frozen=True)
class SnowTrack:
    """A Snow Tails track as its file states it (immutable; see the module docstring)."""

    name: str
    segments: tuple[Segment, ...]
    start: StartRow
    finish: FinishLine
    direction: Direction = "forward"
    trees: tuple[Address, ...] = ()
    markers: tuple[Address, ...] = ()
    buildings: tuple[Building, ...] = ()
    beginner: bool = False
    tiebreak: Tiebreak = "inside"
    description: str = ""
    reconstructed: bool = False
    note: str = ""
    source: str = ""
    game: str = GAME

    def segment(self, segment_id: str) -> Segment | None:
        return next((s for s in self.segments if s.id == segment_id), None)

    def to_toml(self) -> str:
        """The track file's text: what :func:`parse_track_toml` reads back as this track
        (every straight's lanes written where they differ from the first straight's)."""
        straights = [s.lanes for s in self.segments if not s.is_corner]
        lanes = straights[0] if straights else None
        data: dict[str, Any] = {"game": self.game, "name": self.name}
        if self.description:
            data["description"] = self.description
        data["reconstructed"] = self.reconstructed
        if self.note:
            data["note"] = self.note
        if lanes is not None:
            data["lanes"] = lanes
        data |= {"direction": self.direction, "beginner": self.beginner}
        data["tiebreak"] = self.tiebreak
        text = "# A Snow Tails track (trackkit track file: see trackkit's README).\n"
        text += tomli_w.dumps(data)
        # segment ids are plain names (SEGMENT_ID), so JSON's quoting is TOML's
        start, finish = self.start, self.finish
        text += f"start = {{ segment = {json.dumps(start.segment)}, row = {start.row} }}\n"
        text += (
            f"finish = {{ segment = {json.dumps(finish.segment)}, line = {finish.line}, "
            f"runoff_rows = {finish.runoff_rows} }}\n"
        )
        for key, places in (("trees", self.trees), ("markers", self.markers)):
            items = ", ".join(f"[{json.dumps(a.segment)}, {a.lane}, {a.index}]" for a in places)
            text += f"{key} = [{items}]\n"
        for segment in self.segments:
            lines = [f"id = {json.dumps(segment.id)}"]
            if segment.after is not None:
                lines.append(f"after = {json.dumps(segment.after)}")
            if segment.is_corner:
                lines.append(f'turn = "{segment.turn}"')
                lines.append(f"spaces_per_lane = {list(segment.spaces_per_lane)}")
                if segment.angle != DEFAULT_ANGLE:
                    lines.append(f"angle = {segment.angle}")
                if segment.tight:
                    lines.append("tight = true")
            else:
                lines.append(f"rows = {segment.rows}")
                if segment.lanes != lanes:
                    lines.append(f"lanes = {segment.lanes}")
            text += "\n[[segments]]\n" + "\n".join(lines) + "\n"
        for building in self.buildings:
            lines = [f'kind = "{building.kind}"', f"segment = {json.dumps(building.segment)}"]
            if building.lanes is not None:
                lines.append(f"lanes = {list(building.lanes)}")
            if building.side is not None:
                lines.append(f'side = "{building.side}"')
            lines.append(f"rows = {list(building.rows)}")
            text += "\n[[buildings]]\n" + "\n".join(lines) + "\n"
        return text

    def describe(self, address: Address) -> str:
        """``address`` in words: 'segment back, lane 3, row 4' (a corner's: 'space 4')."""
        segment = self.segment(address.segment)
        unit = "space" if segment is not None and segment.is_corner else "row"
        return f"segment {address.segment}, lane {address.lane}, {unit} {address.index}"


# --- the file's form ------------------------------------------------------------------

Lanes = Annotated[StrictInt, Field(ge=2, le=MAX_LANES)]
Lane = Annotated[StrictInt, Field(ge=1, le=MAX_LANES)]  # lanes count from 1 on the left
Index = Annotated[StrictInt, Field(ge=0, le=MAX_INDEX)]  # rows and spaces count from 0
Line = Annotated[StrictInt, Field(ge=0, le=MAX_ROWS)]  # a row boundary of a straight
CornerSpaces = Annotated[StrictInt, Field(ge=1, le=MAX_CORNER_SPACES)]
SegmentId = Annotated[StrictStr, Field(pattern=SEGMENT_ID)]


def _shaped(length: int, example: str) -> Callable[[Any], Any]:
    """A check, before the items' types, that a value is a list of ``length`` items: its
    message shows the shape instead of pydantic's 'field required' for a missing item."""

    def check(value: Any) -> Any:
        if isinstance(value, list | tuple) and len(value) != length:
            raise ValueError(f"must be a list of {length} items, e.g. {example}")
        return value

    return check


Position = Annotated[
    tuple[SegmentId, Lane, Index],
    BeforeValidator(_shaped(3, '["back", 2, 3] (segment, lane, index)')),
]
RowSpan = Annotated[tuple[Index, Index], BeforeValidator(_shaped(2, "[4, 5] (first and last)"))]
LaneSpan = Annotated[tuple[Lane, Lane], BeforeValidator(_shaped(2, "[2, 3] (first and last)"))]


class _SegmentSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: SegmentId
    rows: Annotated[StrictInt, Field(ge=1, le=MAX_ROWS)] | None = None
    lanes: Lanes | None = None
    turn: Turn | None = None
    spaces_per_lane: list[CornerSpaces] | None = Field(
        default=None, min_length=2, max_length=MAX_LANES
    )
    tight: StrictBool = False
    after: SegmentId | None = None
    angle: Literal[90, 180] | None = None

    @model_validator(mode="after")
    def _straight_or_corner(self) -> _SegmentSpec:
        corner = self.turn is not None or self.spaces_per_lane is not None
        if self.rows is not None and corner:
            raise ValueError(
                "a segment is a straight (rows) or a corner (turn and spaces_per_lane), not both"
            )
        if corner and (self.turn is None or self.spaces_per_lane is None):
            raise ValueError(
                'a corner needs both turn ("left" or "right") and spaces_per_lane '
                "(inside → outside, e.g. [2, 3, 4, 5, 6])"
            )
        if corner and self.lanes is not None:
            raise ValueError("a corner has as many lanes as spaces_per_lane lists; drop lanes")
        if not corner and self.rows is None:
            raise ValueError("give rows for a straight, or turn and spaces_per_lane for a corner")
        if self.tight and not corner:
            raise ValueError("only a corner can be tight; drop tight from this straight")
        if self.angle is not None and not corner:
            raise ValueError("only a corner turns through an angle; drop angle from this straight")
        return self


class _StartSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    segment: SegmentId
    row: Index


class _FinishSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    segment: SegmentId
    line: Line
    runoff_rows: Annotated[StrictInt, Field(ge=0, le=MAX_ROWS)] | None = None


class _BuildingSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: BuildingKind
    segment: SegmentId
    rows: RowSpan
    lanes: LaneSpan | None = None
    side: Turn | None = None

    @model_validator(mode="after")
    def _fits_its_kind(self) -> _BuildingSpec:
        if self.kind == "tavern":
            if self.side is None or self.lanes is not None:
                raise ValueError(
                    'the tavern stands beside the track: give side ("left" or "right") and '
                    "rows, no lanes"
                )
        elif self.lanes is None or self.side is not None:
            raise ValueError(
                f"the {self.kind} stands on the track: give lanes and rows (first and last, "
                "e.g. lanes = [2, 3]), no side"
            )
        for name, span in (("rows", self.rows), ("lanes", self.lanes)):
            if span is not None and span[0] > span[1]:
                raise ValueError(f"{name} = [first, last] with first ≤ last, not {list(span)}")
        return self


class _TrackSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: StrictStr = Field(max_length=40)
    name: StrictStr = Field(min_length=1, max_length=200, pattern=ONE_LINE)
    description: StrictStr = Field(default="", max_length=10_000)
    reconstructed: StrictBool = False
    note: StrictStr = Field(default="", max_length=10_000)
    lanes: Lanes | None = None
    direction: Direction = "forward"
    beginner: StrictBool = False
    tiebreak: Tiebreak = "inside"
    start: _StartSpec
    finish: _FinishSpec
    segments: list[_SegmentSpec] = Field(min_length=1, max_length=MAX_SEGMENTS)
    trees: list[Position] = Field(default_factory=list, max_length=MAX_ITEMS)
    markers: list[Position] = Field(default_factory=list, max_length=MAX_ITEMS)
    buildings: list[_BuildingSpec] = Field(default_factory=list, max_length=MAX_BUILDINGS)


_HINTS = {
    "extra_forbidden": "unknown field; check its spelling (the track file format is "
    "described in trackkit/games/snowtails/core/track.py)",
    "missing": "required field is missing",
    "int_type": "must be a whole number",
    "bool_type": "must be true or false",
    "string_type": "must be text in quotes",
    "string_pattern_mismatch": "must be one line of text (a segment id: letters, digits, - "
    "and _, at most 32)",
    "list_type": "must be a list [...]",
    "tuple_type": "must be a list [...]",
    "model_type": "must be a table { ... } (or a [[...]] section)",
    "model_attributes_type": "must be a table { ... } (or a [[...]] section)",
    "too_short": "has too few items",
    "too_long": "has too many items",
}


def parse_track(data: dict[str, Any], *, source: str) -> SnowTrack:
    """Build a :class:`SnowTrack` from the parsed TOML of a track file.

    Raises :class:`TrackFileError` naming ``source``, the field and how to fix it.
    """
    spec = validated(_TrackSpec, data, source, TrackFileError, _HINTS)
    if spec.game != GAME:
        raise TrackFileError(
            source, "game", f'this reader is for Snow Tails tracks, which say game = "{GAME}"'
        )
    _check_segment_links(spec.segments, source)
    defaults = load_components()
    lanes = spec.lanes if spec.lanes is not None else defaults.lanes
    runoff = spec.finish.runoff_rows
    return SnowTrack(
        name=spec.name,
        segments=tuple(_segment(s, lanes) for s in spec.segments),
        start=StartRow(spec.start.segment, spec.start.row),
        finish=FinishLine(
            spec.finish.segment,
            spec.finish.line,
            defaults.runoff_rows if runoff is None else runoff,
        ),
        direction=spec.direction,
        trees=tuple(Address(*t) for t in spec.trees),
        markers=tuple(Address(*m) for m in spec.markers),
        buildings=tuple(
            Building(b.kind, b.segment, b.rows, b.lanes, b.side) for b in spec.buildings
        ),
        beginner=spec.beginner,
        tiebreak=spec.tiebreak,
        description=spec.description,
        reconstructed=spec.reconstructed,
        note=spec.note,
        source=source,
    )


def _segment(spec: _SegmentSpec, lanes: int) -> Segment:
    if spec.spaces_per_lane is not None:
        counts = tuple(spec.spaces_per_lane)
        angle = spec.angle if spec.angle is not None else DEFAULT_ANGLE
        return Segment(spec.id, len(counts), None, spec.turn, counts, spec.tight, spec.after, angle)
    width = spec.lanes if spec.lanes is not None else lanes
    return Segment(spec.id, width, spec.rows, None, (), False, spec.after)


def _check_segment_links(segments: list[_SegmentSpec], source: str) -> None:
    """Segment ids are unique, and ``after`` names a segment listed earlier (so the
    segments form a tree rooted at the first, with no circle)."""
    seen: set[str] = set()
    for index, segment in enumerate(segments):
        if segment.id in seen:
            raise TrackFileError(
                source,
                f"segments[{index}].id",
                f"{segment.id!r} names an earlier segment too; give each segment its own id",
            )
        if segment.after is not None and segment.after not in seen:
            raise TrackFileError(
                source,
                f"segments[{index}].after",
                f"{segment.after!r} is not a segment listed "
                "before this one; name an earlier segment's id",
            )
        seen.add(segment.id)


def parse_track_toml(text: str, *, source: str) -> SnowTrack:
    """Parse a track file's text (an upload, a bundled preset) into a :class:`SnowTrack`."""
    return parse_track(parse_toml(text, source, TrackFileError), source=source)


def load_track(path: str | Path) -> SnowTrack:
    """Read a Snow Tails track file. Raises :class:`TrackFileError` if it cannot be used."""
    return parse_track(read_toml(path, TrackFileError), source=str(path))
