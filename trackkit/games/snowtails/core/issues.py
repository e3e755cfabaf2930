"""What the validator reports: the :class:`Validation` holding the problems it found
(:class:`~trackkit.board.problems.Problem`, errors and warnings), and the phrases that say
where a thing is on a course.

A Snow Tails track has no tile placements: its problems are located by the track file's
field and a board address, and the rulebook gives guidelines (Kennels in the first third,
no buildings in the first race…) reported as warnings, which leave the track legal.

>>> found = Validation("oval.toml", (warning("building-count", "1 building.", "buildings"),))
>>> found.ok, found.lines()
(True, ['oval.toml: warning: [building-count] buildings: 1 building.'])
"""

from __future__ import annotations

from dataclasses import dataclass

from trackkit.board.problems import Problem
from trackkit.games.snowtails.core.course import Course
from trackkit.games.snowtails.core.track import Address, SnowTrack


@dataclass(frozen=True)
class Validation:
    """Everything the validator found, errors first; ``ok`` when no error was found."""

    source: str
    problems: tuple[Problem, ...]

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "error")

    @property
    def warnings(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "warning")

    @property
    def ok(self) -> bool:
        return not self.errors

    def lines(self) -> list[str]:
        """One line per problem, each starting with the file and the severity."""
        return [f"{self.source}: {problem.severity}: {problem}" for problem in self.problems]


def warning(code: str, message: str, field: str, where: Address | None = None) -> Problem:
    """A guideline the track goes against (it stays legal)."""
    return Problem(code, message, severity="warning", field=field, where=where)


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
