"""The rules for what stands on a track: trees (rulebook A.2), buildings (F) and track
markers (A.1), as errors (SNOWTAILS.md §2.5, items 7-9).

Where the rulebook leaves a size open, the box's counts and the reconstructed footprint
come from ``data/components.toml``: at most 20 trees and 30 markers, a building on 4
spaces, a Tavern 2 rows long.
"""

from __future__ import annotations

from trackkit.board.problems import Problem
from trackkit.games.snowtails.core.content import Components
from trackkit.games.snowtails.core.course import Course
from trackkit.games.snowtails.core.issues import (
    finish_rows,
    off_route,
    place_problem,
    raced,
    rows_of,
    start_row,
    unknown_segment,
)
from trackkit.games.snowtails.core.track import Address, Building


def tree_problems(course: Course, components: Components) -> list[Problem]:
    """At most as many trees as the box holds, one per space, each on an open space."""
    track = course.track
    problems = []
    if len(track.trees) > components.trees:
        problems.append(
            Problem(
                "too-many-trees",
                f"{len(track.trees)} trees are listed, but the box holds {components.trees}. "
                f"Remove {len(track.trees) - components.trees}.",
                field="trees",
            )
        )
    seen: dict[Address, int] = {}
    footprints = {a: b for b in track.buildings for a in b.footprint()}
    markers = set(track.markers)
    for index, tree in enumerate(track.trees):
        field = f"trees[{index}]"
        if tree in seen:
            problems.append(
                Problem(
                    "two-trees-on-a-space",
                    f"{track.describe(tree)} already has tree {seen[tree] + 1}; a space holds one "
                    "tree (rulebook A.2). Move or remove one.",
                    field=field,
                    where=tree,
                )
            )
            continue
        seen[tree] = index
        problem = place_problem(course, tree)
        if problem is not None:
            problems.append(
                Problem(
                    "tree-off-track",
                    f"{problem}; put the tree on a space of the course.",
                    field=field,
                    where=tree,
                )
            )
        elif tree in footprints:
            problems.append(
                Problem(
                    "tree-on-building",
                    f"{track.describe(tree)} is under the {footprints[tree].name}; a tree "
                    "needs a free track space. Move it.",
                    field=field,
                    where=tree,
                )
            )
        elif tree in markers:
            problems.append(
                Problem(
                    "tree-on-marker",
                    f"{track.describe(tree)} holds a track marker; a tree needs an open track "
                    "space. Move it.",
                    field=field,
                    where=tree,
                )
            )
    return problems


def building_problems(course: Course, components: Components) -> list[Problem]:
    """Each building once, on a straight of the course, of its size, off the edge lanes
    and off the start and finish rows, and no two on one space."""
    track = course.track
    problems = []
    first: dict[str, int] = {}
    for index, building in enumerate(track.buildings):
        field = f"buildings[{index}]"
        if building.kind in first:
            problems.append(
                Problem(
                    "building-twice",
                    f"the {building.name} is already placed (building {first[building.kind] + 1}); "
                    "the box has one of each building. Remove one.",
                    field=field,
                )
            )
            continue
        first[building.kind] = index
        problems += _building(course, components, building, field)
    problems += _overlaps(course)
    return problems


def _building(
    course: Course, components: Components, building: Building, field: str
) -> list[Problem]:
    """The problems of one building, the first that applies of: where it stands, its size,
    the lanes it leaves free, the start and finish rows."""
    track = course.track
    segment = track.segment(building.segment)
    name = building.name
    if segment is None:
        problem = unknown_segment(track, building.segment)
        return [
            Problem(
                "building-off-track",
                f"{problem}; place the {name} on a straight.",
                field=f"{field}.segment",
            )
        ]
    if segment.is_corner:
        return [
            Problem(
                "building-in-corner",
                f"segment {segment.id} is a corner; buildings go on straights only, never in "
                f"corners (rulebook F). Move the {name} to a straight.",
                field=f"{field}.segment",
            )
        ]
    if not raced(course, segment.id):
        return [
            Problem(
                "building-off-track",
                f"{off_route(course, segment.id)}; place the {name} on a straight of the course.",
                field=f"{field}.segment",
            )
        ]
    rows = rows_of(course, segment.id)
    if not 0 <= building.rows[0] <= building.rows[1] < rows:
        return [
            Problem(
                "building-off-track",
                f"segment {segment.id} has rows 0 to {rows - 1}; "
                f"the {name}'s rows {list(building.rows)} do not fit. Pick rows inside it.",
                field=f"{field}.rows",
            )
        ]
    if building.lanes is None:
        return _tavern_size(components, building, field)
    lanes, rows_covered = building.lanes, building.rows
    if not 1 <= lanes[0] <= lanes[1] <= segment.lanes:
        return [
            Problem(
                "building-off-track",
                f"segment {segment.id} has lanes 1 to "
                f"{segment.lanes}; the {name}'s lanes {list(lanes)} do not fit. Pick lanes inside "
                "it.",
                field=f"{field}.lanes",
            )
        ]
    covered = len(building.footprint())
    if covered != components.building_spaces:
        example = (
            f"lanes = [{lanes[0]}, {lanes[0] + 1}], rows = [{rows_covered[0]}, "
            f"{rows_covered[0] + 1}]"
        )
        return [
            Problem(
                "building-size",
                f"the {name} covers {covered} spaces here, but it covers "
                f"{components.building_spaces} (rulebook F; 2 lanes × 2 rows reconstructed), "
                f"e.g. {example}.",
                field=field,
            )
        ]
    if lanes[0] == 1 or lanes[1] == segment.lanes:
        edge = 1 if lanes[0] == 1 else segment.lanes
        return [
            Problem(
                "building-on-edge-lane",
                f"the {name}'s lanes {list(lanes)} touch edge lane {edge} of segment "
                f"{segment.id}; a {name} must leave a lane free on both sides so sleds can "
                f"pass, or it makes a blocking space (rulebook F). Use lanes between 2 and "
                f"{segment.lanes - 1}, e.g. [2, 3].",
                field=f"{field}.lanes",
            )
        ]
    clash = set(building.footprint()) & (start_row(course) | finish_rows(course))
    if clash:
        return [
            Problem(
                "building-on-start-or-finish",
                f"the {name} covers {track.describe(min(clash))}, on the start row or a row "
                "next to the finish line, where every lane must stay open. Move it along the "
                "straight.",
                field=f"{field}.rows",
                where=min(clash),
            )
        ]
    return []


def _tavern_size(components: Components, building: Building, field: str) -> list[Problem]:
    length = building.rows[1] - building.rows[0] + 1
    if length == components.tavern_rows:
        return []
    return [
        Problem(
            "building-size",
            f"the Tavern stands beside {length} rows here, but it is {components.tavern_rows} "
            f"rows long (reconstructed), e.g. rows = [{building.rows[0]}, "
            f"{building.rows[0] + components.tavern_rows - 1}].",
            field=f"{field}.rows",
        )
    ]


def _overlaps(course: Course) -> list[Problem]:
    owner: dict[Address, str] = {}
    problems = []
    for index, building in enumerate(course.track.buildings):
        for address in building.footprint():
            if address in owner and owner[address] != building.name:
                problems.append(
                    Problem(
                        "buildings-overlap",
                        f"the {building.name} and the {owner[address]} both cover "
                        f"{course.track.describe(address)}. Move one of them.",
                        field=f"buildings[{index}]",
                        where=address,
                    )
                )
                break
            owner[address] = building.name
    return problems


def marker_problems(course: Course, components: Components) -> list[Problem]:
    """At most as many markers as the box holds, one per space, each on a board space and
    none under a building."""
    track = course.track
    problems = []
    if len(track.markers) > components.markers:
        problems.append(
            Problem(
                "too-many-markers",
                f"{len(track.markers)} markers are listed, but the box holds "
                f"{components.markers}. Remove {len(track.markers) - components.markers}.",
                field="markers",
            )
        )
    seen: dict[Address, int] = {}
    footprints = {a: b for b in track.buildings for a in b.footprint()}
    for index, marker in enumerate(track.markers):
        field = f"markers[{index}]"
        segment = track.segment(marker.segment)
        if marker in seen:
            problems.append(
                Problem(
                    "two-markers-on-a-space",
                    f"{track.describe(marker)} already has marker {seen[marker] + 1}; remove one.",
                    field=field,
                    where=marker,
                )
            )
            continue
        seen[marker] = index
        if segment is None or not segment.holds(marker.lane, marker.index):
            problem = place_problem(course, marker)
            problems.append(
                Problem(
                    "marker-off-track",
                    f"{problem}; a marker stands on a space of the board.",
                    field=field,
                    where=marker,
                )
            )
        elif marker in footprints:
            problems.append(
                Problem(
                    "marker-on-building",
                    f"{track.describe(marker)} is under the {footprints[marker].name}; a "
                    "building is a wall already. Remove the marker.",
                    field=field,
                    where=marker,
                )
            )
    return problems
