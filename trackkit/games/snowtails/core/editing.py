"""Editing a Snow Tails track space by space: trees, markers and buildings placed or
removed where a designer clicks, each edit checked, and undo and redo.

A demo board's route, start and finish stay as its file gives them; what a designer
places are the obstacles (rulebook A.2, F). An edit that would make the track illegal is
refused with the validator's explanation (:func:`try_edit`); one that only goes against a
guideline is made, and the guideline warns.

>>> from trackkit.games.snowtails.core.presets import load_preset
>>> track = load_preset("husky-oval")
>>> outcome = try_edit(track, "tree", Address("back", 3, 6))
>>> outcome.refused, len(outcome.track.trees) - len(track.trees)
((), 1)
>>> [i.code for i in try_edit(track, "chapel", Address("far-bend", 2, 1)).refused]
['building-in-corner']
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, get_args

from trackkit.board.problems import Problem
from trackkit.errors import TrackkitError
from trackkit.games.snowtails.core.check import validate_track
from trackkit.games.snowtails.core.track import Address, Building, SnowTrack

Tool = Literal["tree", "marker", "kennels", "chapel", "bothy", "tavern", "remove"]
TOOLS: tuple[Tool, ...] = get_args(Tool)
FOOTPRINT = 2  # a building covers 2 lanes × 2 rows [R] (components.toml: 4 spaces)
UNDO_DEPTH = 200


def _toggled(places: tuple[Address, ...], address: Address) -> tuple[Address, ...]:
    if address in places:
        return tuple(a for a in places if a != address)
    return (*places, address)


def _span(first: int, count: int, size: int = FOOTPRINT) -> tuple[int, int]:
    """``size`` consecutive numbers from ``first``, moved back to fit in ``count`` (a click
    on the last lane or row puts the building's far edge there)."""
    start = max(0, min(first, count - size)) if count >= size else first
    return start, start + size - 1


def _placed(track: SnowTrack, kind: str, address: Address) -> Building:
    """The building ``kind`` covering the clicked space (the Tavern: beside it, on the
    nearer side of the straight)."""
    segment = track.segment(address.segment)
    lanes = segment.lanes if segment is not None else FOOTPRINT
    rows = segment.rows if segment is not None and segment.rows is not None else FOOTPRINT
    row_span = _span(address.index, rows)
    if kind == "tavern":
        side = "left" if address.lane <= lanes / 2 else "right"
        return Building("tavern", address.segment, row_span, None, side)
    lane_first, lane_last = _span(address.lane - 1, lanes)
    return Building(kind, address.segment, row_span, (lane_first + 1, lane_last + 1))  # type: ignore[arg-type]


def _covers(building: Building, address: Address) -> bool:
    if building.segment != address.segment:
        return False
    in_rows = building.rows[0] <= address.index <= building.rows[1]
    if building.lanes is None:  # the Tavern stands beside the track: its rows' edge lane
        return False
    return in_rows and building.lanes[0] <= address.lane <= building.lanes[1]


def edited(track: SnowTrack, tool: Tool, address: Address) -> SnowTrack:
    """``track`` after ``tool`` is used on the space at ``address``: a tree or a marker
    toggled; a building placed there (moved, if the track has it already); ``remove``
    takes away the tree, marker or building on that space (the Tavern: a click on a space
    of its rows at its side)."""
    if tool not in TOOLS:
        raise TrackkitError(f"unknown tool {tool!r}; the tools are {', '.join(TOOLS)}")
    if tool == "tree":
        return replace(track, trees=_toggled(track.trees, address))
    if tool == "marker":
        return replace(track, markers=_toggled(track.markers, address))
    if tool == "remove":
        return _removed(track, address)
    others = tuple(b for b in track.buildings if b.kind != tool)
    return replace(track, buildings=(*others, _placed(track, tool, address)))


def _removed(track: SnowTrack, address: Address) -> SnowTrack:
    if address in track.trees:
        return replace(track, trees=tuple(a for a in track.trees if a != address))
    if address in track.markers:
        return replace(track, markers=tuple(a for a in track.markers if a != address))
    segment = track.segment(address.segment)
    edge = {1: "left", segment.lanes if segment is not None else 0: "right"}.get(address.lane)

    def hit(b: Building) -> bool:
        if b.kind == "tavern":
            return (
                b.segment == address.segment
                and b.side == edge
                and b.rows[0] <= address.index <= b.rows[1]
            )
        return _covers(b, address)

    return replace(track, buildings=tuple(b for b in track.buildings if not hit(b)))


@dataclass(frozen=True)
class EditOutcome:
    """The track after an edit (unchanged when refused), the errors that refused it, and
    the guideline warnings the new track has."""

    track: SnowTrack
    refused: tuple[Problem, ...]
    warnings: tuple[Problem, ...]


def try_edit(track: SnowTrack, tool: Tool, address: Address) -> EditOutcome:
    """Make the edit if it adds no error to the track; else keep ``track`` and give the
    errors it would add (a track that was already broken may still be edited: only the
    errors the edit brings count)."""
    after = edited(track, tool, address)
    before_errors = {(i.code, i.message) for i in validate_track(track).errors}
    checked = validate_track(after)
    new = tuple(i for i in checked.errors if (i.code, i.message) not in before_errors)
    if new:
        return EditOutcome(track, new, validate_track(track).warnings)
    return EditOutcome(after, (), checked.warnings)


@dataclass(frozen=True)
class EditHistory:
    """The tracks a design has been, the current one at ``at``: undo and redo."""

    tracks: tuple[SnowTrack, ...]
    at: int = 0

    @classmethod
    def of(cls, track: SnowTrack) -> EditHistory:
        return cls((track,))

    @property
    def track(self) -> SnowTrack:
        return self.tracks[self.at]

    def then(self, track: SnowTrack) -> EditHistory:
        """``track`` becomes the current one; what was undone before is dropped."""
        if track == self.track:
            return self
        kept = (*self.tracks[: self.at + 1], track)[-UNDO_DEPTH:]
        return EditHistory(kept, len(kept) - 1)

    def undo(self) -> EditHistory:
        return replace(self, at=max(0, self.at - 1))

    def redo(self) -> EditHistory:
        return replace(self, at=min(len(self.tracks) - 1, self.at + 1))

    @property
    def can_undo(self) -> bool:
        return self.at > 0

    @property
    def can_redo(self) -> bool:
        return self.at < len(self.tracks) - 1
