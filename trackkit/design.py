"""A track being designed: placing, undo and redo, and sharing it as text in a link.

The app keeps one :class:`Design` per user; everything here is plain library code, so a
Python user can script the same steps.

>>> design = Design.empty().place(Placement(1, 0, 0, 0))
>>> design.undo().track.placements
()
>>> decode_track(encode_track(design.track)) == design.track
True
"""

from __future__ import annotations

import base64
import zlib
from dataclasses import dataclass, replace

from trackkit.building import NextPlacement, next_placements
from trackkit.errors import TrackFileError
from trackkit.problems import Problem
from trackkit.tiles import TileSet
from trackkit.track import Placement, Track, parse_track_toml
from trackkit.validate import validate

MAX_LINK_TEXT = 4000


@dataclass(frozen=True)
class Design:
    """A track plus the placements undone (for redo)."""

    track: Track
    undone: tuple[Placement, ...] = ()

    @classmethod
    def empty(cls, name: str = "My track") -> Design:
        return cls(Track(name))

    def place(self, placement: Placement) -> Design:
        return Design(self.track.placed(placement))

    def undo(self) -> Design:
        if not self.track.placements:
            return self
        return Design(self.track.without_last(), (self.track.placements[-1], *self.undone))

    def redo(self) -> Design:
        if not self.undone:
            return self
        return Design(self.track.placed(self.undone[0]), self.undone[1:])

    def clear(self) -> Design:
        return Design(replace(self.track, placements=()))

    def renamed(self, name: str) -> Design:
        return Design(replace(self.track, name=name or "My track"), self.undone)


@dataclass(frozen=True)
class PlacementCheck:
    """Whether a placement the user asks for may be made, and why not."""

    placement: Placement
    allowed: bool
    problems: tuple[Problem, ...]
    suggestions: tuple[NextPlacement, ...]  # the legal placements of that tile, if any


def check_placement(
    track: Track, placement: Placement, tileset: TileSet, players: int | None = None
) -> PlacementCheck:
    """Would placing ``placement`` next break a rule? The problems it alone would cause are
    returned (validating the track with it, as a partial track unless it is the finish)."""
    before = validate(track, tileset, players, partial=True)
    after_track = track.placed(placement)
    finished = placement.tile == tileset.finish.number
    after = validate(after_track, tileset, players, partial=not finished)
    new = tuple(p for p in after.problems if p not in before.problems)
    options = tuple(
        o for o in next_placements(track, tileset, players) if o.placement.tile == placement.tile
    )
    legal = tuple(o for o in options if o.legal and o.completable is not False)
    return PlacementCheck(placement, not new, new, legal)


def encode_track(track: Track) -> str:
    """The track as URL-safe text (compressed TOML), for a shareable link."""
    packed = zlib.compress(track.to_toml().encode("utf-8"), level=9)
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def decode_track(text: str) -> Track:
    """The track in a shared link; :class:`TrackFileError` if the text is damaged."""
    if len(text) > MAX_LINK_TEXT:
        raise TrackFileError("link", None, "the track in this link is too long to be one")
    try:
        packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        toml = zlib.decompress(packed).decode("utf-8")
    except (ValueError, zlib.error, UnicodeDecodeError):
        raise TrackFileError("link", None, "the track in this link is damaged") from None
    return parse_track_toml(toml, source="link")
