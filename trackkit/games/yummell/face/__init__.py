"""Yummell's face: its race options, texts, track files and commands of its own, as the
shared command line and app read them (:class:`trackkit.games.face.Face`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from trackkit.board.track import Track
from trackkit.games.base import tileset_of
from trackkit.games.face import Argument, Shown
from trackkit.games.yummell.content import load_content
from trackkit.games.yummell.face.commands import COMMANDS
from trackkit.games.yummell.setup import START_PATHS, RaceOptions


def _start_paths(text: str) -> str:
    """``--start-paths`` as typed: chosen, dealt or a path's letter (any case)."""
    if text in START_PATHS or (len(text) == 1 and "A" <= text.upper() <= "Z"):
        return text if text in START_PATHS else text.upper()
    raise ValueError(f"start paths are chosen, dealt or a path's letter (A, B, C), not {text!r}")


OPTIONS = (
    Argument("characters", "comma-separated names or numbers, one per player", kind="names"),
    Argument("advantages", "comma-separated names or numbers, one per player", kind="names"),
    Argument(
        "deck", "the movement deck (default finite)", "choice", choices=("finite", "infinite")
    ),
    Argument("encounters", "skip encounters", "switch", default=True),
    Argument(
        "start_paths",
        "chosen (by each racer's policy), dealt (every path as often) or a path's letter "
        "(every racer on it); default chosen, for profiles dealt",
        parse=_start_paths,
    ),
)


class YummellFace:
    """What Yummell shows (see :class:`trackkit.games.face.Face`)."""

    options = OPTIONS
    commands = COMMANDS

    def race_options(
        self,
        players: int,
        policies: tuple[str, ...],
        content: str | Path | None,
        chosen: Mapping[str, Any],
    ) -> RaceOptions:
        one = len(policies) == 1
        return RaceOptions(
            players=players,
            characters=tuple(chosen.get("characters", ())),
            advantages=tuple(chosen.get("advantages", ())),
            deck=chosen.get("deck", "finite"),
            encounters=chosen.get("encounters", True),
            start_paths=chosen.get("start_paths", "chosen"),
            policy=policies[0] if one else "greedy",
            policies=() if one else policies,
            content=load_content(content),
        )

    def presets_table(self) -> Shown:
        from trackkit.games.yummell.face.texts import presets_summary, presets_text

        rows = presets_summary()
        return Shown(rows, presets_text(rows))

    def show(self, track: Track) -> Shown:
        from trackkit.games.yummell.face.texts import show_summary, show_text

        tileset = tileset_of(track)
        data = show_summary(track, tileset)
        return Shown(data, show_text(data, tileset_name=tileset.name))

    def race(self, track: Track, options: RaceOptions, seed: int) -> Shown:
        from trackkit.games.yummell.face.races import race_text
        from trackkit.games.yummell.record import record_race

        record = record_race(track, options, seed=seed)
        return Shown(record.to_json(), race_text(record))

    def compare(
        self,
        tracks: Mapping[str, Track],
        options: RaceOptions,
        *,
        races: int,
        seed: int,
        progress: Callable[[int, int], None] | None = None,
    ) -> Shown:
        from trackkit.games.yummell.face.compare import compare_text, compare_tracks

        # every track profiled with the same seed: common random numbers
        rows = compare_tracks(tracks, options, races=races, seed=seed, progress=progress)
        text = compare_text(rows, players=options.players, races=races, seed=seed)
        return Shown([row.to_json() for row in rows], text)

    def track_text(self, track: Track, folder: Path) -> str:
        return track.to_toml(relative_to=folder)


FACE = YummellFace()
