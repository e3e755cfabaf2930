"""What the validator reports: an :class:`Issue` (an error or a warning) and the
:class:`Validation` holding them, plus the phrases that say where a thing is on a course.

Why not :class:`trackkit.board.problems.Problem`: its ``level`` says which of Yummell's
rules a problem breaks ("structure" or "building", both making a track illegal), and it
locates problems by tile placement. A Snow Tails track has no placements, and the rulebook
gives guidelines (Kennels in the first third, no buildings in the first race…) that must
be reported without making the track illegal: an :class:`Issue` is an ``error`` or a
``warning``, located by the track file's field and a board address.

>>> print(Issue("too-many-trees", "21 trees are listed, but the box holds 20.", field="trees"))
[too-many-trees] trees: 21 trees are listed, but the box holds 20.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from trackkit.games.snowtails.core.course import Course
from trackkit.games.snowtails.core.track import Address, SnowTrack

Level = Literal["error", "warning"]


@dataclass(frozen=True)
class Issue:
    """One thing wrong with, or unusual about, a track (see the module docstring)."""

    code: str
    message: str
    level: Level = "error"
    field: str | None = None
    where: Address | None = None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["where"] = list(self.where) if self.where is not None else None
        return data

    def __str__(self) -> str:
        field = f"{self.field}: " if self.field else ""
        return f"[{self.code}] {field}{self.message}"


@dataclass(frozen=True)
class Validation:
    """Everything the validator found, errors first; ``ok`` when no error was found."""

    source: str
    issues: tuple[Issue, ...]

    @property
    def errors(self) -> tuple[Issue, ...]:
        return tuple(i for i in self.issues if i.level == "error")

    @property
    def warnings(self) -> tuple[Issue, ...]:
        return tuple(i for i in self.issues if i.level == "warning")

    @property
    def ok(self) -> bool:
        return not self.errors

    def lines(self) -> list[str]:
        """One line per issue, each starting with the file and the level."""
        return [f"{self.source}: {issue.level}: {issue}" for issue in self.issues]


def warning(code: str, message: str, field: str, where: Address | None = None) -> Issue:
    return Issue(code, message, level="warning", field=field, where=where)


# --- where things are ------------------------------------------------------------------


def segment_list(track: SnowTrack) -> str:
    return ", ".join(s.id for s in track.segments)


def unknown_segment(track: SnowTrack, segment: str) -> str:
    return f"there is no segment {segment!r} (the segments are {segment_list(track)})"


def raced(course: Course, segment: str) -> bool:
    return any(s.id == segment for s in course.segments)


def off_route(course: Course, segment: str) -> str:
    """Why ``segment`` (which exists) is not raced."""
    if segment not in course.route:
        return (
            f"segment {segment} is not on the open route (it is on a branch closed by "
            "markers, or not followed at a fork)"
        )
    return f"segment {segment} lies beyond the finish straight, where the course ends"


def rows_of(course: Course, segment: str) -> int:
    found = course.track.segment(segment)
    return found.rows if found is not None and found.rows is not None else 0


def finish_rows(course: Course) -> set[Address]:
    """The two rows either side of the finish line (board numbering, every lane)."""
    finish = course.track.finish
    segment = course.track.segment(finish.segment)
    if segment is None or course.finish_line is None:
        return set()
    rows = (finish.line - 1, finish.line)
    return {
        Address(finish.segment, lane, row) for lane in range(1, segment.lanes + 1) for row in rows
    }


def start_row(course: Course) -> set[Address]:
    start = course.track.start
    segment = course.track.segment(start.segment)
    if segment is None or course.start_line is None:
        return set()
    return {Address(start.segment, lane, start.row) for lane in range(1, segment.lanes + 1)}


def place_problem(course: Course, address: Address) -> str | None:
    """Why ``address`` is no space of the raced course, or None when it is one."""
    track = course.track
    segment = track.segment(address.segment)
    if segment is None:
        return unknown_segment(track, address.segment)
    if not segment.holds(address.lane, address.index):
        unit = "spaces" if segment.is_corner else "rows"
        count = segment.spaces_in_lane(address.lane)
        if count == 0:
            return f"segment {segment.id} has lanes 1 to {segment.lanes}, not {address.lane}"
        return (
            f"lane {address.lane} of segment {segment.id} has {unit} 0 to {count - 1}, "
            f"not {address.index}"
        )
    if address not in course.spaces:
        return off_route(course, segment.id)
    if course.closed.get(address) == "end":
        return f"{track.describe(address)} lies beyond the run-off, where the route is closed"
    return None
