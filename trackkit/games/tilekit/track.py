"""Tracks: tiles placed on the table grid, in placing order, and their TOML files.

A track file looks like this (see README, "Track files")::

    name = "First run"
    [[placements]]
    tile = 1
    x = 2        # column, growing to the right
    y = 1        # row, growing downwards
    rotation = 0 # degrees clockwise: 0, 90, 180 or 270

An optional ``game`` names the game the track is for (none named means Yummell, the
first game trackkit knew), and an optional ``tileset = "path/to/folder"`` (relative to the
track file) names a custom tile set. Loading checks types and field names only; whether
the track is legal is the validator's business, so a track with an unknown tile or a bad
rotation still loads.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, field_validator

from trackkit.board.datafile import (
    GAME_NAME,
    MAX_PATH,
    output_path,
    parse_toml,
    read_toml,
    validated,
    write_text,
)
from trackkit.errors import TrackFileError

# A table cell's column and row lie within MAX_COORDINATE of (0, 0): ten times the span of
# the longest track a file may hold (MAX_PLACEMENTS tiles joined edge to edge), so a track
# may lie anywhere a designer puts it, while a typo like x = 100000 or a hostile 2**63 is
# refused where it is read. Tiles far apart within this range are drawn only if the picture
# stays within the drawing limits (trackkit.limits.CANVAS_PIXELS, PLOT_POINTS).
MAX_COORDINATE = 1000
MAX_PLACEMENTS = 100
# The game of a track or tile-set file that names none: Yummell, the first trackkit knew.
DEFAULT_GAME = "yummell"


@dataclass(frozen=True)
class Placement:
    """One tile on the table: its number, its cell and its clockwise rotation in degrees."""

    tile: int
    x: int
    y: int
    rotation: int = 0

    @property
    def cell(self) -> tuple[int, int]:
        return (self.x, self.y)

    def describe(self) -> str:
        return f"tile {self.tile} at ({self.x}, {self.y}) rotated {self.rotation}°"


@dataclass(frozen=True)
class Track:
    """Placements in placing order: the start tile first, the finish tile last.

    ``tileset`` is the folder of a custom tile set, or None for the game's own set;
    ``game`` the ruleset the track is for (:func:`trackkit.games.get_ruleset`).
    """

    name: str
    placements: tuple[Placement, ...] = ()
    tileset: Path | None = None
    description: str = ""
    game: str = DEFAULT_GAME

    def placed(self, placement: Placement) -> Track:
        """This track with ``placement`` added after the last tile."""
        return replace(self, placements=(*self.placements, placement))

    def without_last(self) -> Track:
        return replace(self, placements=self.placements[:-1])

    @property
    def tiles(self) -> tuple[int, ...]:
        return tuple(p.tile for p in self.placements)

    def to_dict(self, relative_to: Path | None = None) -> dict[str, Any]:
        """The track as the TOML file's table; a custom tile set path made relative."""
        data: dict[str, Any] = {"game": self.game, "name": self.name}
        if self.description:
            data["description"] = self.description
        if self.tileset is not None:
            folder = self.tileset
            if relative_to is not None:
                # lexical, not resolve(): a symlink loop or an over-long name must not
                # stop a track from being saved
                folder = Path(
                    os.path.relpath(os.path.abspath(folder), os.path.abspath(relative_to))
                )
            data["tileset"] = folder.as_posix()
        data["placements"] = [
            {"tile": p.tile, "x": p.x, "y": p.y, "rotation": p.rotation} for p in self.placements
        ]
        return data

    def to_toml(self, relative_to: Path | None = None) -> str:
        """The track file's text, one ``[[placements]]`` table per tile in placing order."""
        data = self.to_dict(relative_to)
        placements = data.pop("placements")
        text = "# A race track (trackkit track file: see trackkit's README, 'Track files').\n"
        text += tomli_w.dumps(data)
        for placement in placements:
            text += "\n[[placements]]\n" + tomli_w.dumps(placement)
        return text


class _PlacementSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tile: StrictInt
    x: StrictInt = Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)
    y: StrictInt = Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)
    rotation: StrictInt = 0


class _TrackSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: StrictStr = Field(default=DEFAULT_GAME, max_length=40)
    name: StrictStr = Field(min_length=1, max_length=200, pattern=r"^[^\r\n]*$")
    description: StrictStr = Field(default="", max_length=10_000)
    tileset: StrictStr | None = Field(default=None, min_length=1, max_length=MAX_PATH)
    placements: list[_PlacementSpec] = Field(default_factory=list, max_length=MAX_PLACEMENTS)

    @field_validator("game")
    @classmethod
    def _game_name(cls, value: str) -> str:
        if not re.fullmatch(GAME_NAME, value):
            raise ValueError('a game is named in lower case, e.g. game = "yummell"')
        return value


_HINTS = {
    "extra_forbidden": "unknown field; a track has game, name, description, tileset and "
    "placements, "
    "a placement has tile, x, y and rotation",
    "missing": "required field is missing",
    "int_type": "must be a whole number",
    "string_type": "must be text in quotes",
    "list_type": "must be a list of [[placements]] tables",
    "string_pattern_mismatch": "must be one line of text",
    "greater_than_equal": f"must be a table cell from -{MAX_COORDINATE:,} to "
    f"{MAX_COORDINATE:,}; move the track nearer (0, 0)",
    "less_than_equal": f"must be a table cell from -{MAX_COORDINATE:,} to "
    f"{MAX_COORDINATE:,}; move the track nearer (0, 0)",
    "too_long": f"holds more than {MAX_PLACEMENTS} placements, more than any track needs",
}


def parse_track(data: dict[str, Any], *, source: str, base: Path | None = None) -> Track:
    """Build a :class:`Track` from the parsed TOML of a track file.

    ``base`` is the folder a relative ``tileset`` path is taken from. Raises
    :class:`TrackFileError` naming ``source``, the field and the problem.
    """
    spec = validated(_TrackSpec, data, source, TrackFileError, _HINTS)
    if spec.tileset is not None and "\x00" in spec.tileset:
        raise TrackFileError(
            source, "tileset", "holds a NUL byte, which no folder name can hold; fix the path"
        )
    tileset = None
    if spec.tileset is not None:
        tileset = Path(spec.tileset)
        if not tileset.is_absolute() and base is not None:
            tileset = base / tileset
    return Track(
        game=spec.game,
        name=spec.name,
        description=spec.description,
        tileset=tileset,
        placements=tuple(Placement(p.tile, p.x, p.y, p.rotation) for p in spec.placements),
    )


def parse_track_toml(text: str, *, source: str, base: Path | None = None) -> Track:
    """Parse a track file's text (an upload, a URL parameter) into a :class:`Track`."""
    return parse_track(parse_toml(text, source, TrackFileError), source=source, base=base)


def load_track(path: str | Path) -> Track:
    """Read a track file. Raises :class:`TrackFileError` if it cannot be used."""
    data = read_toml(path, TrackFileError)
    return parse_track(data, source=str(path), base=Path(path).parent)


def save_track(track: Track, path: str | Path, *, overwrite: bool = False) -> Path:
    """Write ``track`` to ``path`` as TOML; never replaces an existing file unless asked."""
    path = output_path(path, overwrite=overwrite, suffixes=(".toml",))
    return write_text(path, track.to_toml(relative_to=path.parent))
