"""The rulebook's guidelines for a track, reported as warnings: the track can be raced,
but goes against advice (SNOWTAILS.md §2.5, "Warnings").

- 2 or 3 buildings per track; the Chapel from halfway on (rulebook F).
- The Kennels: in a single race in the first third; in a tournament anywhere in races 1
  and 2 and "near the start" in race 3 (rulebook F, SNOWTAILS.md §2.4), which trackkit reads
  as the first third, as in a single race [R] (the rulebook gives no distance).
- A first race (``beginner = true``): no buildings (A.3), trees on straights only and not
  next to each other (A.2; "next to" includes diagonals [R]), no tight corners (G).
- No tree on the start row or beyond the finish line [R].
- Tight corners come from driving a route reversed (G).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from trackkit.board.problems import Problem
from trackkit.games.snowtails.core.course import Course, Space
from trackkit.games.snowtails.core.issues import place_problem, start_row, warning
from trackkit.games.snowtails.core.track import Address, Building

TOURNAMENT_RACES = 3  # a tournament is 3 races (rulebook E)
NEAR_THE_START = Fraction(1, 3)  # race 3's Kennels: "near the start", read as a third [R]


def guideline_problems(course: Course, race: int | None = None) -> list[Problem]:
    """Every guideline ``course`` goes against, as warnings; ``race`` is which race of a
    tournament it is (1-3), None for a single race."""
    if race is not None and not 1 <= race <= TOURNAMENT_RACES:
        raise ValueError(f"a tournament's races are 1 to {TOURNAMENT_RACES}, not {race}")
    return [
        *_building_guidelines(course, race),
        *_tree_guidelines(course),
        *_corner_guidelines(course),
    ]


def _kennels_late(share: Fraction, race: int | None) -> str | None:
    """Why Kennels beginning ``share`` of the way to the finish go against the guideline
    for ``race`` (None: a single race), or None when they do not (rulebook F)."""
    if race is None and share > Fraction(1, 3):
        return (
            f"the Kennels begin {float(share):.0%} of the way from the start to the finish; "
            "in a single race they go in the first third (rulebook F)."
        )
    if race == TOURNAMENT_RACES and share > NEAR_THE_START:
        return (
            f"the Kennels begin {float(share):.0%} of the way from the start to the finish; "
            "in the last race of a tournament they go near the start (rulebook F), which "
            "trackkit reads as the first third [R]."
        )
    return None  # races 1 and 2 of a tournament: anywhere


def _building_guidelines(course: Course, race: int | None) -> list[Problem]:
    track = course.track
    kinds = {b.kind for b in track.buildings}
    problems = []
    if track.beginner and kinds:
        problems.append(
            warning(
                "beginner-buildings",
                "buildings are not used in the first race (rulebook F); remove them, or drop "
                "beginner = true.",
                "buildings",
            )
        )
    if len(kinds) not in (0, 2, 3):
        problems.append(
            warning(
                "building-count",
                f"the track has {len(kinds)} building(s); the rulebook suggests 2 or 3 per "
                "track (F).",
                "buildings",
            )
        )
    for index, building in enumerate(track.buildings):
        share = _share_of_race(course, building)
        if share is None:
            continue
        late = _kennels_late(share, race) if building.kind == "kennels" else None
        if late is not None:
            problems.append(warning("kennels-late", late, f"buildings[{index}]"))
        if building.kind == "chapel" and share < Fraction(1, 2):
            problems.append(
                warning(
                    "chapel-early",
                    f"the Chapel begins {float(share):.0%} of the way from the start to the "
                    "finish; it goes from halfway onward (rulebook F).",
                    f"buildings[{index}]",
                )
            )
    return problems


def _share_of_race(course: Course, building: Building) -> Fraction | None:
    """How far along the race a building begins, from the start line (0) to the finish
    line (1), counted in spaces of the middle lane; None if either line is missing."""
    start, finish = course.start_line, course.finish_line
    if start is None or finish is None or finish <= start or not course.segments:
        return None
    lanes = course.segments[0].lanes
    middle = course.lanes.get((lanes + 1) // 2, ())
    rows = [
        a for a in (Address(building.segment, 1, r) for r in building.rows) if a in course.spaces
    ]
    if not rows:
        return None
    begins = min(course.spaces[a].back for a in rows)
    race = [s for s in middle if start <= s.back and s.front <= finish]
    if not race:
        return None
    before = sum(1 for s in race if s.front <= begins)
    return Fraction(before, len(race))


def _tree_guidelines(course: Course) -> list[Problem]:
    track = course.track
    problems = []
    placed = [(i, t) for i, t in enumerate(track.trees) if place_problem(course, t) is None]
    starting = start_row(course)
    for index, tree in placed:
        space = course.spaces[tree]
        beyond = course.finish_line is not None and space.back >= course.finish_line
        if tree in starting or beyond:
            problems.append(
                warning(
                    "tree-on-start-or-runoff",
                    f"{track.describe(tree)} is on the start row or beyond the finish line, "
                    "where a tree only gets in the way of starting or finishing sleds. Move it.",
                    f"trees[{index}]",
                    tree,
                )
            )
    if not track.beginner:
        return problems
    for index, tree in placed:
        if course.spaces[tree].segment.is_corner:
            problems.append(
                warning(
                    "beginner-tree-in-corner",
                    f"{track.describe(tree)} is in a corner; for the first race trees go on "
                    "straights only (rulebook A.2).",
                    f"trees[{index}]",
                    tree,
                )
            )
    problems += _adjacent_trees(course, placed)
    return problems


def _adjacent_trees(course: Course, placed: Iterable[tuple[int, Address]]) -> list[Problem]:
    """First-race trees must not be adjacent; adjacent means touching, diagonals included [R]."""
    problems = []
    spaces = [(i, course.spaces[t]) for i, t in placed]
    for n, (index, space) in enumerate(spaces):
        for other_index, other in spaces[:n]:
            if other.address != space.address and _touch(space, other):
                problems.append(
                    warning(
                        "beginner-trees-adjacent",
                        f"the trees on {course.track.describe(space.address)} and "
                        f"{course.track.describe(other.address)} (tree {other_index + 1}) touch; "
                        "for the first race keep trees apart (rulebook A.2).",
                        f"trees[{index}]",
                        space.address,
                    )
                )
                break
    return problems


def _touch(a: Space, b: Space) -> bool:
    return abs(a.lane - b.lane) <= 1 and a.back <= b.front and b.back <= a.front


def _corner_guidelines(course: Course) -> list[Problem]:
    track = course.track
    tight = [s.id for s in course.segments if s.tight]
    problems = []
    if tight and track.beginner:
        problems.append(
            warning(
                "beginner-tight-corner",
                f"tight corner(s) {', '.join(tight)} on a beginner track; tight corners come "
                "after the 8 starter tracks (rulebook G).",
                "segments",
            )
        )
    if tight and track.direction == "forward":
        problems.append(
            warning(
                "tight-corner-forward",
                f"tight corner(s) {', '.join(tight)} on a track driven forward; the rulebook's "
                "tight corners come from driving a route reversed (G). Set direction = "
                '"reversed", or make the corners not tight.',
                "segments",
            )
        )
    return problems
