"""Validating a track: the structure every game shares, then the rules of the track's game.

Every problem found is reported, not just the first, each with a stable code:

A tile game's tracks (Yummell) are checked in two parts:

structure (:mod:`trackkit.games.tilekit.structure`)
    ``empty``, ``unknown-tile``, ``bad-rotation``, ``duplicate-tile``, ``overlap``,
    ``missing-start``, ``start-not-first``, ``missing-finish``, ``finish-not-last``,
    ``not-adjacent``, ``junction-mismatch``, ``disconnected``, ``unreachable``
the game's rules (Yummell: :mod:`trackkit.games.yummell.core.check`)
    ``tile-count``, ``no-space-for-next``, ``dead-end``

A Snow Tails track by its own validator (:mod:`trackkit.games.snowtails.core.check`),
which also gives the rulebook's guidelines as warnings that leave the track legal.

>>> from trackkit.games import get_ruleset
>>> load_preset = get_ruleset().load_preset  # the first game's (Yummell's)
>>> validate(load_preset("first-run"), players=2).ok
False
>>> validate(load_preset("first-run")).ok
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trackkit.board.problems import Problem
from trackkit.games import get_ruleset
from trackkit.games.tilekit.tiles import TileSet
from trackkit.games.tilekit.track import DEFAULT_GAME


@dataclass(frozen=True)
class Report:
    """The outcome of a validation: every problem (an error: the track is illegal) and
    guideline warning (for a game that has guidelines), and for a partial track whether it
    can still be completed."""

    track: str
    problems: tuple[Problem, ...]
    players: int | None = None
    partial: bool = False
    completable: bool | None = None
    # the track as composed for the checks, for a caller that goes on to race it
    composed: Any = field(default=None, compare=False, repr=False)
    warnings: tuple[Problem, ...] = ()
    game: str = DEFAULT_GAME

    @property
    def ok(self) -> bool:
        return not self.problems

    def codes(self) -> list[str]:
        return [p.code for p in self.problems]

    def to_json(self) -> dict[str, Any]:
        """The same keys for every game (each problem's are
        :meth:`~trackkit.board.problems.Problem.to_json`'s)."""
        return {
            "game": self.game,
            "track": self.track,
            "ok": self.ok,
            "players": self.players,
            "partial": self.partial,
            "completable": self.completable,
            "problems": [p.to_json() for p in self.problems],
            "warnings": [w.to_json() for w in self.warnings],
        }


def validate(
    track: Any,
    tileset: TileSet | None = None,
    players: int | None = None,
    *,
    partial: bool = False,
) -> Report:
    """Check ``track`` by the rules of its game; with ``players``, also a rule that depends
    on them (Yummell's optional track-building rule).

    ``partial`` validates a track still being built: a missing finish and too few path
    tiles are not problems, and the report says whether it can still be completed.
    """
    check = get_ruleset(track.game).check_track(
        track, tileset=tileset, players=players, partial=partial
    )
    return Report(
        track.name,
        check.problems,
        players,
        partial,
        check.completable,
        check.composed,
        check.warnings,
        track.game,
    )
