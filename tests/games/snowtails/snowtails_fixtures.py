"""What the Snow Tails tests share: a small valid track to break, and a walk along moves.

The base track: a 6-row straight ``a`` (start row 0), a left corner ``bend`` of
[2, 3, 4, 5, 6] spaces per lane (SNOWTAILS.md §3.15, T02 fixture), and a 6-row straight
``c`` with the finish line after 3 rows and 3 run-off rows.
"""

from __future__ import annotations

import copy
from typing import Any

from trackkit.games.snowtails.core.course import Course, build_course
from trackkit.games.snowtails.core.track import Address, SnowTrack, parse_track

BASE: dict[str, Any] = {
    "game": "snowtails",
    "name": "Test track",
    "start": {"segment": "a", "row": 0},
    "finish": {"segment": "c", "line": 3, "runoff_rows": 3},
    "segments": [
        {"id": "a", "rows": 6},
        {"id": "bend", "turn": "left", "spaces_per_lane": [2, 3, 4, 5, 6]},
        {"id": "c", "rows": 6},
    ],
}


def base_data(**changes: Any) -> dict[str, Any]:
    """A copy of the base track's table, with top-level fields replaced."""
    data = copy.deepcopy(BASE)
    data.update(copy.deepcopy(changes))
    return data


def track_of(data: dict[str, Any]) -> SnowTrack:
    return parse_track(data, source="test.toml")


def course_of(**changes: Any) -> Course:
    return build_course(track_of(base_data(**changes)))


def walk(
    course: Course, start: tuple[str, int, int], plan: str, side: str = "drift_left"
) -> tuple[list[Address], str | None]:
    """Follow ``plan`` (S = ahead, D = a drift to ``side``) from ``start``: the spaces
    entered, and the blocker that stopped the walk (None if every step was made)."""
    node = Address(*start)
    path = []
    for step in plan:
        target = course.move(node, "ahead" if step == "S" else side)  # type: ignore[arg-type]
        if isinstance(target, str):
            return path, target
        path.append(target)
        node = target
    return path, None
