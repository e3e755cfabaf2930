"""Tracks named on the command line: a preset of any game, or a track file."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from trackkit.errors import TrackkitError, shown
from trackkit.games import get_ruleset, rulesets
from trackkit.games.base import find_preset, is_tile_track, load_track


def all_presets() -> str:
    """Every game's presets, for a help text or an error."""
    return "; ".join(
        f"{get_ruleset(game).title}: {', '.join(get_ruleset(game).presets())}"
        for game in rulesets()
    )


def resolve_track(name: str, tileset: str | None = None) -> Any:
    """A track of any game from a file path or a preset slug; ``tileset`` overrides the
    tile set of a tile game's track."""
    # lexists is False for any path the system refuses (too long, a NUL byte): such a
    # name that looks like a file goes to load_track, which says what is wrong with it
    exists = os.path.lexists(name)
    preset = None if exists else find_preset(name)
    if preset is not None:
        ruleset, slug = preset
        track = ruleset.load_preset(slug)
    elif exists or name.endswith(".toml") or "/" in name or "\x00" in name:
        track = load_track(name)
    else:
        raise TrackkitError(
            f"{shown(name)!r} is neither a track file nor a preset; presets: {all_presets()}"
        )
    if tileset is not None:
        if not is_tile_track(track):
            raise TrackkitError(
                f"{get_ruleset(track.game).title} tracks have no tiles: --tileset is for "
                "tile tracks"
            )
        track = replace(track, tileset=Path(tileset))
    return track


def of_game(track: Any, game: str, command: str) -> Any:
    """``track`` if it is a track of ``game``; else an error naming the command and both
    games."""
    if track.game != game:
        raise TrackkitError(
            f"`trackkit {command}` is for {get_ruleset(game).title} tracks; "
            f"{shown(track.name)} is a {get_ruleset(track.game).title} track"
        )
    return track
