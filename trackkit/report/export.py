"""Races as files a user keeps: one CSV row per race, and names that say what a file holds.

>>> from trackkit.games import get_ruleset
>>> download_name(get_ruleset().load_preset("king-of-toads"), 0, "races", "csv")
'king-of-toads-seed-0-races.csv'
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from trackkit.games import get_ruleset
from trackkit.games.tilekit.graph import start_path_label
from trackkit.sim.montecarlo import SimulationResult


def track_slug(track: Any) -> str:
    """A file-name word for ``track`` (of any game): its preset's slug, else its name in
    lower case with dashes (``"track"`` when nothing of the name is left)."""
    ruleset = get_ruleset(track.game)
    for slug in ruleset.presets():
        if ruleset.load_preset(slug) == track:
            return slug
    words = re.findall(r"[a-z0-9]+", track.name.lower())
    return "-".join(words)[:60].strip("-") or "track"


def download_name(track: Any, seed: int, what: str, suffix: str) -> str:
    """``<track>-seed-<seed>-<what>.<suffix>``: the track and the seed that reproduce it."""
    return f"{track_slug(track)}-seed-{seed}-{what}.{suffix}"


def races_csv(result: SimulationResult) -> str:
    """One row per race: its length, then for each seat (the order players were listed in)
    the character sitting there, its advantage, start path and placing. Rows cover the races
    whose rows the result keeps (the first :data:`~trackkit.sim.montecarlo.KEEP_RACES`)."""
    content = result.options.content
    seats = result.placing.shape[1]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["race", "rounds"]
    for seat in range(1, seats + 1):
        header += [f"seat {seat} {column}" for column in ("character", "advantage", "start path")]
        header.append(f"seat {seat} placing")
    writer.writerow(header)
    for race in range(result.rounds.shape[0]):  # the races whose rows the result kept
        row: list[object] = [race, int(result.rounds[race])]
        for seat in range(seats):
            row += [
                content.character_names[result.column("character")[race, seat]],
                content.advantage_names[result.column("advantage")[race, seat]],
                _path_label(int(result.column("route")[race, seat])),
                int(result.placing[race, seat]),
            ]
        writer.writerow(row)
    return out.getvalue()


def _path_label(route: int) -> str:
    return start_path_label(route) if route >= 0 else ""  # never left the start
