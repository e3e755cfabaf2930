"""A Yummell track being designed (the editor's model; Snow Tails' is
:mod:`trackkit.games.snowtails.core.editing`): placing, undo and redo, and sharing it as text
in a link.

The app keeps one :class:`Design` per user; everything here is plain library code, so a
Python user can script the same steps. The history holds whole tracks, so every change
(a placement, clearing the table, opening a preset or a file, renaming) can be undone.

>>> design = Design.empty().place(Placement(1, 0, 0, 0))
>>> design.undo().track.placements
()
>>> design.clear().undo() == design.clear().undo().redo().undo()
True
>>> decode_track(encode_track(design.track)) == design.track
True
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from trackkit.board.links import pack_link, unpack_link, uploaded_text
from trackkit.board.problems import Problem
from trackkit.errors import TrackFileError
from trackkit.games.base import parse_game_track_toml
from trackkit.games.tilekit.structure import is_finished
from trackkit.games.tilekit.tiles import Tile, TileSet, bundled_tiles_folder
from trackkit.games.tilekit.track import Placement, Track
from trackkit.games.yummell.core.check import NextPlacement, next_placements
from trackkit.games.yummell.core.ruleset import RULESET

MAX_HISTORY = 200  # earlier tracks kept for undo: a whole session of editing, bounded memory


@dataclass(frozen=True)
class Design:
    """A track with the tracks before it (for undo) and after it (for redo).

    Every edit records the whole previous track, so undo brings back anything an edit
    replaced: a cleared table, a design replaced by a preset or a file.
    """

    track: Track
    past: tuple[Track, ...] = ()
    future: tuple[Track, ...] = ()

    @classmethod
    def empty(cls, name: str = "My track") -> Design:
        return cls(Track(name))

    def edited(self, track: Track) -> Design:
        """This design changed to ``track``, the current track kept for undo."""
        if track == self.track:
            return self
        return Design(track, (*self.past, self.track)[-MAX_HISTORY:], ())

    def place(self, placement: Placement) -> Design:
        return self.edited(self.track.placed(placement))

    def clear(self) -> Design:
        return self.edited(replace(self.track, placements=()))

    def opened(self, track: Track) -> Design:
        """Replace the design with ``track`` (a preset, a file, an empty table), undoably."""
        return self.edited(track)

    def renamed(self, name: str) -> Design:
        return self.edited(replace(self.track, name=name or "My track"))

    @property
    def can_undo(self) -> bool:
        return bool(self.past or self.track.placements)

    @property
    def can_redo(self) -> bool:
        return bool(self.future)

    def undo(self) -> Design:
        """The track before the last edit; a design opened with no history (from a link, a
        file) gives up its tiles one by one, last placed first."""
        if self.past:
            return Design(self.past[-1], self.past[:-1], (self.track, *self.future))
        if self.track.placements:
            return Design(self.track.without_last(), (), (self.track, *self.future))
        return self

    def redo(self) -> Design:
        if not self.future:
            return self
        return Design(self.future[0], (*self.past, self.track)[-MAX_HISTORY:], self.future[1:])


@dataclass(frozen=True)
class PlacementCheck:
    """Whether a placement the user asks for may be made, and why not."""

    placement: Placement
    allowed: bool
    problems: tuple[Problem, ...]
    suggestions: tuple[NextPlacement, ...]  # the legal placements of that tile, if any

    def explain(self) -> str:
        """Why the placement is refused and where the tile fits instead, as Markdown: a
        heading line, one bullet per rule broken, then the suggestion as its own paragraph."""
        p = self.placement
        lines = [f"Tile {p.tile} at ({p.x}, {p.y}) turned {p.rotation}° breaks a rule:", ""]
        lines += [f"- **{problem.code}**: {problem.sentence}" for problem in self.problems]
        lines.append("")  # a blank line ends the list, so the next sentence stands alone
        if self.suggestions:
            spots = [
                f"({s.placement.x}, {s.placement.y}) turned {s.placement.rotation}°"
                for s in self.suggestions
            ]
            lines.append(f"Tile {p.tile} fits at {_or_list(spots)}.")
        else:
            lines.append(f"Tile {p.tile} has no legal place next: choose another tile.")
        return "\n".join(lines)


def check_placement(
    track: Track, placement: Placement, tileset: TileSet, players: int | None = None
) -> PlacementCheck:
    """Would placing ``placement`` next break a rule? The problems it alone would cause are
    returned (validating the track with it, as a partial track unless it is the finish)."""
    before = RULESET.check_track(track, tileset=tileset, players=players, partial=True)
    after_track = track.placed(placement)
    finished = placement.tile == tileset.finish.number
    after = RULESET.check_track(after_track, tileset=tileset, players=players, partial=not finished)
    new = tuple(p for p in after.problems if p not in before.problems)
    options = tuple(
        o for o in next_placements(track, tileset, players) if o.placement.tile == placement.tile
    )
    legal = tuple(o for o in options if o.legal and o.completable is not False)
    return PlacementCheck(placement, not new, new, legal)


@dataclass(frozen=True)
class NextTile:
    """A tile not yet on the table, what it is made of, and where it may go next."""

    tile: Tile
    fits: tuple[Placement, ...]  # legal next placements that keep the track completable

    @property
    def mp(self) -> int:
        return sum(square["cost"] for square in self.tile.squares)

    @property
    def terrain_mix(self) -> dict[str, int]:
        """Squares per terrain, most first."""
        counts = Counter(str(square["terrain"]) for square in self.tile.squares)
        return dict(counts.most_common())

    def summary(self) -> str:
        """``"7 squares, 11 MP: 3 plain, 2 woods, 2 hills"``."""
        mix = ", ".join(f"{n} {terrain}" for terrain, n in self.terrain_mix.items())
        return f"{len(self.tile.squares)} squares, {self.mp} MP: {mix}"


def next_tiles(track: Track, tileset: TileSet, players: int | None = None) -> tuple[NextTile, ...]:
    """The tiles that could be chosen next, in number order: the start tile alone on an
    empty table (it goes anywhere), otherwise every tile not yet placed."""
    if not track.placements:
        return (NextTile(tileset.start, (Placement(tileset.start.number, 0, 0, 0),)),)
    used = set(track.tiles)
    legal = [
        o.placement
        for o in next_placements(track, tileset, players)
        if o.legal and o.completable is not False
    ]
    return tuple(
        NextTile(tile, tuple(p for p in legal if p.tile == tile.number))
        for tile in tileset.values()
        if tile.number not in used
    )


def is_complete(track: Track, tileset: TileSet) -> bool:
    """Whether the finish tile has been placed, which ends the building."""
    return is_finished(track, tileset)


def and_list(items: list[str]) -> str:
    """``"3, 4 and 8"``: a list for a sentence, not Python's ``[3, 4, 8]``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _or_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def encode_track(track: Track) -> str:
    """The track as URL-safe text (compressed TOML), for a shareable link."""
    return pack_link(track.to_toml())


def decode_track(text: str, allowed_tilesets: Iterable[str | Path] = ()) -> Track:
    """The track in a shared link; :class:`TrackFileError` if the text is damaged or the
    track names a tile set other than the bundled one or ``allowed_tilesets``."""
    return _parse_visitor_track(unpack_link(text), "link", allowed_tilesets)


def read_uploaded_track(
    data: bytes, source: str, allowed_tilesets: Iterable[str | Path] = ()
) -> Track:
    """A track file someone uploaded (to a server): size, encoding and TOML checked, and only
    the bundled tile set or ``allowed_tilesets`` accepted. Raises :class:`TrackFileError`."""
    return _parse_visitor_track(uploaded_text(data, source), source, allowed_tilesets)


def _parse_visitor_track(text: str, source: str, allowed_tilesets: Iterable[str | Path]) -> Track:
    try:
        track = parse_game_track_toml(text, source=source, game="yummell")
    except RecursionError:
        raise TrackFileError(
            source, None, "is nested too deeply to be a track file (tables or lists inside lists)"
        ) from None
    return restrict_tileset(track, allowed_tilesets, source=source)


def restrict_tileset(
    track: Track, allowed: Iterable[str | Path] = (), *, source: str = "track"
) -> Track:
    """``track`` if it uses the bundled tile set or one of the ``allowed`` folders (named by
    its path or its folder name), with the tile set resolved to that folder.

    A server must not read folders a visitor names, so any other ``tileset`` is refused
    with a :class:`TrackFileError` that neither repeats the name nor says whether such a
    folder exists: only the names in ``allowed`` are compared, the file system is not.
    """
    if track.tileset is None:
        return track
    wanted = os.path.normpath(str(track.tileset))
    folders = [Path(os.path.abspath(folder)) for folder in allowed]
    for folder in folders:
        if wanted in (os.path.normpath(str(folder)), folder.name):
            return replace(track, tileset=folder)
    if wanted == os.path.normpath(str(bundled_tiles_folder())):
        return replace(track, tileset=None)
    offered = "the bundled tile set" + "".join(f", '{f.name}'" for f in folders)
    raise TrackFileError(
        source,
        "tileset",
        f"this app offers only {offered}; a track may not name another tile set folder. "
        "Remove the tileset line to use the bundled tiles.",
    )


__all__ = [
    "Design",
    "NextTile",
    "PlacementCheck",
    "and_list",
    "check_placement",
    "decode_track",
    "encode_track",
    "is_complete",
    "next_tiles",
    "read_uploaded_track",
    "restrict_tileset",
]
