"""Validating a track: the structure every game shares, then the rules of the track's game.

Every problem found is reported, not just the first, each with a stable code:

structure (:mod:`trackkit.board.structure`)
    ``empty``, ``unknown-tile``, ``bad-rotation``, ``duplicate-tile``, ``overlap``,
    ``missing-start``, ``start-not-first``, ``missing-finish``, ``finish-not-last``,
    ``not-adjacent``, ``junction-mismatch``, ``disconnected``, ``unreachable``
the game's rules (Yummell: :mod:`trackkit.games.yummell.building`)
    ``tile-count``, ``no-space-for-next``, ``dead-end``

>>> from trackkit.games.yummell.presets import load_preset
>>> validate(load_preset("first-run"), players=2).ok
False
>>> validate(load_preset("first-run")).ok
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trackkit.board.graph import TrackGraph, compose
from trackkit.board.problems import Problem
from trackkit.board.structure import check_structure
from trackkit.board.tiles import TileSet
from trackkit.board.track import Track
from trackkit.games import get_ruleset, tileset_of


@dataclass(frozen=True)
class Report:
    """The outcome of a validation: every problem, and for a partial track whether it
    can still be completed."""

    track: str
    problems: tuple[Problem, ...]
    players: int | None = None
    partial: bool = False
    completable: bool | None = None
    # the track as composed for the checks, for a caller that goes on to race it
    composed: TrackGraph | None = field(default=None, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        return not self.problems

    def codes(self) -> list[str]:
        return [p.code for p in self.problems]

    def to_json(self) -> dict[str, Any]:
        return {
            "track": self.track,
            "ok": self.ok,
            "players": self.players,
            "partial": self.partial,
            "completable": self.completable,
            "problems": [p.to_json() for p in self.problems],
        }


def validate(
    track: Track,
    tileset: TileSet | None = None,
    players: int | None = None,
    *,
    partial: bool = False,
) -> Report:
    """Check ``track``; with ``players``, also the optional track-building rule.

    ``partial`` validates a track still being built: a missing finish and too few path
    tiles are not problems, and the report says whether it can still be completed.
    """
    ruleset = get_ruleset(track.game)
    tileset = tileset if tileset is not None else tileset_of(track)
    composed = compose(track, tileset)
    problems = check_structure(track, tileset, composed, partial=partial)
    problems += ruleset.track_problems(
        track, tileset, composed, players=players, partial=partial, broken=bool(problems)
    )
    completable = ruleset.completable(track, tileset, players, composed) if partial else None
    return Report(track.name, tuple(problems), players, partial, completable, composed)
