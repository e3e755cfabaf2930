"""The Snow Tails track validator: what makes a track unplayable (errors) and what goes
against the rulebook's guidelines (warnings), SNOWTAILS.md §2.5.

Each finding is a :class:`~trackkit.board.problems.Problem` (every game's type), an
``error`` or a ``warning``, with a stable ``code`` (scripts and tests match on it), the
track file ``field`` it concerns, the board address (``where``) when there is one, and a
message that names the place (segment, lane, row or space, as the file numbers them) and
the fix; :mod:`.issues` holds the :class:`~.issues.Validation` that gathers them. This
module checks the route, its geometry, the start and the finish; :mod:`.obstacles` checks
trees, buildings and markers, and :mod:`.guidelines` gives the warnings.

Errors: ``route-branches``, ``lane-count-mismatch``, ``geometry-inconsistent``,
``no-start-row``, ``no-finish-line``, ``finish-without-runoff``, ``runoff-too-long``,
``finish-unreachable``, ``trap-space``, ``too-many-trees``, ``two-trees-on-a-space``,
``tree-off-track``, ``tree-on-building``, ``tree-on-marker``, ``building-twice``,
``building-off-track``, ``building-in-corner``, ``building-size``,
``building-on-edge-lane``, ``buildings-overlap``, ``building-on-start-or-finish``,
``too-many-markers``, ``two-markers-on-a-space``, ``marker-off-track``,
``marker-on-building``.

Warnings: ``building-count``, ``kennels-late``, ``chapel-early``, ``beginner-buildings``,
``beginner-tree-in-corner``, ``beginner-trees-adjacent``, ``beginner-tight-corner``,
``tree-on-start-or-runoff``, ``tight-corner-forward``.

>>> from trackkit.games.snowtails.core.presets import load_preset
>>> result = validate_track(load_preset("husky-oval"))
>>> result.ok, [i.code for i in result.errors]
(True, [])
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import networkx as nx

from trackkit.board.problems import Problem
from trackkit.games.snowtails.core.content import Components, load_components
from trackkit.games.snowtails.core.course import Course, build_course
from trackkit.games.snowtails.core.guidelines import guideline_problems
from trackkit.games.snowtails.core.issues import (
    Validation,
    off_route,
    raced,
    rows_of,
    start_row,
    unknown_segment,
)
from trackkit.games.snowtails.core.obstacles import (
    building_problems,
    marker_problems,
    tree_problems,
)
from trackkit.games.snowtails.core.track import Address, SnowTrack

# Trap spaces are listed one by one up to this many; more are summed up in one problem.
MAX_LISTED = 8


def validate_track(
    track: SnowTrack,
    course: Course | None = None,
    components: Components | None = None,
    race: int | None = None,
) -> Validation:
    """Check ``track`` (composed as ``course``, if the caller has it) against the
    rulebook's track rules and guidelines; ``components`` gives the box's counts
    (default: the bundled ``components.toml``); ``race`` is which race of a tournament the
    track is for (1-3, whose guidelines differ), None for a single race."""
    course = course if course is not None else build_course(track)
    components = components if components is not None else load_components()
    problems = [
        *_route(course),
        *geometry_problems(course),
        *_start(course),
        *_finish(course),
        *_reachability(course),
        *tree_problems(course, components),
        *building_problems(course, components),
        *marker_problems(course, components),
        *guideline_problems(course, race),
    ]
    problems.sort(key=lambda p: p.severity != "error")  # stable: errors first, in check order
    return Validation(track.source, tuple(problems))


# --- the route and its geometry ------------------------------------------------------------


def _route(course: Course) -> list[Problem]:
    problems = []
    for branch in course.branches:
        problems.append(
            Problem(
                "route-branches",
                f"the route forks after segment {branch.segment}: "
                f"{', '.join(branch.continuations)} all continue from it, so a sled could "
                "take either. Close every branch but one with markers on the first space of "
                "each of its lanes (index 0), or remove it.",
                field="segments",
            )
        )
    track = course.track
    route = [s for s in (track.segment(i) for i in course.route) if s is not None]
    for before, after in pairwise(route):
        if before.lanes != after.lanes:
            problems.append(
                Problem(
                    "lane-count-mismatch",
                    f"segment {before.id} has {before.lanes} lanes and segment {after.id}, "
                    f"which it meets, has {after.lanes}: lanes cannot be followed across the "
                    "join. Give both the same number of lanes (a straight's lanes, a corner's "
                    "entries in spaces_per_lane).",
                    field="segments",
                )
            )
    return problems


def geometry_problems(course: Course) -> list[Problem]:
    """Check the graph's geometry (SNOWTAILS.md §2.5.2): every space has back < front,
    ``ahead`` stays in its lane and goes forward, and each drift enters the neighbouring
    lane on its side at the space spanning the source's front edge. A fault here is a bug
    in the geometry, not in the file; it is reported rather than raised."""
    graph = course.graph
    faults = []
    for node, attrs in graph.nodes(data=True):
        if not attrs["back"] < attrs["front"]:
            faults.append(f"{course.track.describe(node)} has no length")
    for source, target, kind in graph.edges(data="kind"):
        fault = _edge_fault(graph.nodes[source], graph.nodes[target], kind)
        if fault:
            faults.append(f"{kind} from {course.track.describe(source)}: {fault}")
    return [
        Problem(
            "geometry-inconsistent",
            f"{fault}. The track's spaces do not fit together; please report this with the "
            "track file.",
            field="segments",
        )
        for fault in faults[:MAX_LISTED]
    ]


def _edge_fault(source: dict[str, Any], target: dict[str, Any], kind: str) -> str | None:
    step = {"ahead": 0, "drift_left": -1, "drift_right": 1}[kind]
    if target["lane"] != source["lane"] + step:
        return f"it enters lane {target['lane']}, not lane {source['lane'] + step}"
    if kind == "ahead" and target["back"] != source["front"]:
        return "the space entered does not start where this one ends"
    if kind != "ahead" and not target["back"] <= source["front"] < target["front"]:
        return "the space entered does not span this space's front edge"
    return None


# --- start and finish ----------------------------------------------------------------------


def _start(course: Course) -> list[Problem]:
    """One open start space per lane, on a straight of the route, before the finish."""
    track = course.track
    start = track.start
    segment = track.segment(start.segment)
    problem = None
    if segment is None:
        problem = unknown_segment(track, start.segment) + "; name a straight"
    elif segment.is_corner:
        problem = f"segment {segment.id} is a corner; the start row is a full row across a straight"
    elif not 0 <= start.row < rows_of(course, segment.id):
        problem = (
            f"segment {segment.id} has rows 0 to {rows_of(course, segment.id) - 1}, not "
            f"{start.row}; pick one of them"
        )
    elif segment.id not in course.route:
        problem = off_route(course, segment.id) + "; start on a straight of the route"
    if problem is not None:
        return [Problem("no-start-row", problem + ".", field="start")]
    if not raced(course, start.segment) or _start_beyond_finish(course):
        return [
            Problem(
                "finish-unreachable",
                f"the start row (segment {start.segment}, row {start.row}) lies beyond the "
                f"finish line (segment {track.finish.segment}, line {track.finish.line}) in "
                "the direction of travel, so no sled can race to it. Move the start or the "
                "finish, or drive the other way (direction).",
                field="start",
            )
        ]
    blocked = sorted(a for a in start_row(course) if course.closed.get(a) == "marker")
    if blocked:
        lanes = ", ".join(str(a.lane) for a in blocked)
        return [
            Problem(
                "no-start-row",
                f"the start row (segment {start.segment}, row {start.row}) has markers in lane(s) "
                f"{lanes}; it needs one open space per lane. Move the markers.",
                field="markers",
            )
        ]
    return []


def _start_beyond_finish(course: Course) -> bool:
    start, finish = course.start_line, course.finish_line
    return start is not None and finish is not None and start > finish


def _finish(course: Course) -> list[Problem]:
    track = course.track
    finish = track.finish
    segment = track.segment(finish.segment)
    problem = None
    if segment is None:
        problem = unknown_segment(track, finish.segment) + "; name a straight"
    elif segment.is_corner:
        problem = f"segment {segment.id} is a corner; the finish line lies across a straight"
    elif finish.segment not in course.route:
        problem = off_route(course, segment.id) + "; finish on a straight of the route"
    elif course.finish_line is None:
        problem = (
            f"segment {segment.id} has row boundaries 0 to {rows_of(course, segment.id)}, not "
            f"{finish.line}; pick one of them"
        )
    if problem is not None:
        return [Problem("no-finish-line", problem + ".", field="finish.line")]
    if finish.runoff_rows < 1:
        return [
            Problem(
                "finish-without-runoff",
                "runoff_rows = 0 leaves no space beyond the finish line, but sleds cross it and "
                "drive on (rulebook D). Give at least 1 (trackkit's default is 3).",
                field="finish.runoff_rows",
            )
        ]
    beyond = _rows_beyond(course)
    if beyond < finish.runoff_rows:
        return [_runoff_too_long(course, beyond)]
    return []


def _runoff_too_long(course: Course, beyond: int) -> Problem:
    finish = course.track.finish
    rows = rows_of(course, finish.segment)
    fits = rows - finish.runoff_rows if course.track.direction == "forward" else finish.runoff_rows
    fixes = [f"lengthen segment {finish.segment}"]
    if 0 <= fits <= rows:
        fixes.insert(0, f"set line = {fits}")
    if beyond > 0:
        fixes.append(f"set runoff_rows = {beyond}")
    return Problem(
        "runoff-too-long",
        f"segment {finish.segment} has {beyond} row(s) beyond the finish line at {finish.line} "
        f"in the direction of travel, fewer than runoff_rows = {finish.runoff_rows}. "
        + _sentence(", or ".join(fixes)),
        field="finish",
    )


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _rows_beyond(course: Course) -> int:
    finish = course.track.finish
    rows = rows_of(course, finish.segment)
    return rows - finish.line if course.track.direction == "forward" else finish.line


def _reachability(course: Course) -> list[Problem]:
    """The finish is reachable from every start space (buildings and markers are walls,
    trees and sleds are ignored), and no reachable space is a trap."""
    graph = course.graph
    starts = course.start_spaces
    if not starts:
        return []
    problems = []
    finishes = course.finish_spaces
    if finishes:  # none: the finish itself is wrong, and reported as such
        reaching = set(finishes).union(*(nx.ancestors(graph, f) for f in finishes))
        stuck = [s for s in starts if s not in reaching]
        if stuck:
            problems.append(_finish_unreachable(course, stuck))
    reachable = set(starts).union(*(nx.descendants(graph, s) for s in starts))
    traps = sorted(
        node for node in reachable if _is_trap(graph.nodes[node], graph.out_degree(node))
    )
    problems += [_trap(course, node) for node in traps[:MAX_LISTED]]
    if len(traps) > MAX_LISTED:
        problems.append(
            Problem(
                "trap-space",
                f"and {len(traps) - MAX_LISTED} more spaces with no way on.",
                field="buildings",
            )
        )
    return problems


def _is_trap(attrs: dict[str, Any], moves: int) -> bool:
    """No move out, before the finish, and not at the end of the route (a course that ends
    before the finish line is a finish problem, reported as one)."""
    return moves == 0 and not attrs["beyond_finish"] and attrs["ahead_blocker"] != "end"


def _finish_unreachable(course: Course, stuck: list[Address]) -> Problem:
    lanes = ", ".join(str(a.lane) for a in sorted(stuck))
    return Problem(
        "finish-unreachable",
        f"no sled starting in lane(s) {lanes} of the start row can reach the finish: "
        "buildings, markers or the track side wall every way there. Move the building or "
        "marker that closes the way, or move the start.",
        field="finish",
    )


def _trap(course: Course, node: Address) -> Problem:
    attrs = course.graph.nodes[node]
    walls = ", ".join(
        f"{kind.replace('_', ' ')}: {attrs[f'{kind}_blocker']}"
        for kind in ("ahead", "drift_left", "drift_right")
    )
    blockers = {attrs[f"{kind}_blocker"] for kind in ("ahead", "drift_left", "drift_right")}
    field = "buildings" if "building" in blockers else "markers" if "marker" in blockers else None
    return Problem(
        "trap-space",
        f"{course.track.describe(node)} has no way on ({walls}): a sled there could never move "
        "again. Move the building or marker that walls it in (a building must leave a lane "
        "free on each side, rulebook F).",
        field=field,
        where=node,
    )
