"""Comparing tracks again without solving them again.

A track's exact solo length, path length, MP and terrain mix depend on the track, the game
content and whether encounters are on, never on the players, races or seed of the
simulation beside them. :func:`compare_tracks_kept` keeps those figures in a mapping the
caller holds (an app's cache) and only simulates again when nothing else changed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, MutableMapping
from dataclasses import replace

from trackkit.board.track import Track
from trackkit.games.yummell.content import Content
from trackkit.games.yummell.setup import RaceOptions
from trackkit.report.compare import TrackFigures, track_figures
from trackkit.sim.montecarlo import simulate

SolvedKey = tuple[str, bool, str]


def content_fingerprint(content: Content) -> str:
    """A short digest of the content the engine and the solver read."""
    digest = hashlib.sha256()
    for array in (content.cards, content.characters, content.advantages):
        digest.update(array.tobytes())
    digest.update(repr((content.character_names, content.advantage_names)).encode())
    return digest.hexdigest()[:16]


def solved_key(track: Track, options: RaceOptions) -> SolvedKey:
    """What a track's exact and static figures depend on."""
    return (track.to_toml(), options.encounters, content_fingerprint(options.content))


def compare_tracks_kept(
    tracks: dict[str, Track],
    options: RaceOptions,
    solved: MutableMapping[SolvedKey, TrackFigures],
    *,
    races: int = 10_000,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> list[TrackFigures]:
    """Like :func:`trackkit.report.compare.compare_tracks`, solving each track only when
    ``solved`` does not hold it yet (and adding it there)."""
    rows = []
    for done, (key, track) in enumerate(tracks.items(), 1):
        known = solved.get(solved_key(track, options))
        if known is None:
            row = track_figures(key, track, options, races, seed)
            solved[solved_key(track, options)] = row
        else:
            result = simulate(track, options, races=races, seed=seed)
            row = replace(
                known, key=key, name=track.name, mean_rounds=result.mean_rounds, ci95=result.ci95
            )
        rows.append(row)
        if progress:
            progress(done, len(tracks))
    ranked = sorted(rows, key=lambda row: -row.mean_rounds)
    return [replace(row, rank=rank) for rank, row in enumerate(ranked, 1)]
