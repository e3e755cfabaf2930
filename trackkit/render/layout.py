"""The scene of a track of any game, as its game draws it (:mod:`trackkit.games.shapes`).

>>> from trackkit.games import get_ruleset
>>> load_preset = get_ruleset().load_preset  # the first game's (Yummell's)
>>> build_scene(load_preset("first-run")).title
'First run'
"""

from __future__ import annotations

from typing import Any

from trackkit.errors import TrackkitError
from trackkit.games import get_ruleset
from trackkit.games.shapes import Scene
from trackkit.games.tilekit.tiles import TileSet


def build_scene(track: Any, tileset: TileSet | None = None, **options: Any) -> Scene:
    """The scene of ``track`` from its game's ``scene(track, **options)`` (a tile game's
    drawn from ``tileset``, None: the track's own); a game that draws nothing is refused
    in one line."""
    ruleset = get_ruleset(getattr(track, "game", None))
    draw = ruleset.scene
    if draw is None:
        raise TrackkitError(f"{ruleset.title} tracks cannot be drawn: the game has no scene")
    if tileset is not None:
        options["tileset"] = tileset
    return draw(track, **options)


def square_name(square: str) -> str:
    """A square id as a player reads it: ``"10:3"`` is ``"tile 10 square 3"``."""
    tile, _, own = square.partition(":")
    return f"tile {tile} square {own}" if own else square
