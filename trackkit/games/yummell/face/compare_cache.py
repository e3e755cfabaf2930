"""Comparing tracks again without solving them again.

A track's exact solo figures, path length, MP and terrain mix
(:class:`~trackkit.games.yummell.face.compare.Solved`) depend on the track, the game content and
whether encounters are on, never on the players, races or seed of the profile beside them.
:func:`compare_tracks_kept` keeps them in a mapping the caller holds (an app's cache) and
only races again when nothing else changed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, MutableMapping

from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.content import Content
from trackkit.games.yummell.core.options import RaceOptions
from trackkit.games.yummell.face.compare import Solved, TrackFigures, compare_tracks, solve_track

SolvedKey = tuple[str, bool, str, str, str]


def content_fingerprint(content: Content) -> str:
    """A short digest of the content the engine and the solver read."""
    digest = hashlib.sha256()
    for array in (content.cards, content.characters, content.advantages):
        digest.update(array.tobytes())
    digest.update(repr((content.character_names, content.advantage_names)).encode())
    return digest.hexdigest()[:16]


def solved_key(track: Track, options: RaceOptions) -> SolvedKey:
    """What a track's exact and static figures depend on (the readings among them: those
    that can change a solo race)."""
    fingerprint = content_fingerprint(options.content)
    return (
        track.to_toml(),
        options.encounters,
        fingerprint,
        options.challenge_finish,
        options.draw_two,
    )


def compare_tracks_kept(
    tracks: dict[str, Track],
    options: RaceOptions,
    solved: MutableMapping[SolvedKey, Solved],
    *,
    races: int = 10_000,
    seed: int = 0,
    reference_races: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[TrackFigures]:
    """Like :func:`trackkit.games.yummell.face.compare.compare_tracks`, solving each track only when
    ``solved`` does not hold it yet (and adding it there)."""

    def solve(track: Track, options: RaceOptions) -> Solved:
        key = solved_key(track, options)
        if key not in solved:
            solved[key] = solve_track(track, options)
        return solved[key]

    return compare_tracks(
        tracks,
        options,
        races=races,
        seed=seed,
        reference_races=reference_races,
        solve=solve,
        progress=progress,
    )
