"""Building a Yummell track, as the ``next`` and ``space`` commands print it: where the
next tile may go, and how many tracks the building rule allows. Each ``*_summary`` is the
data, each ``*_text`` the lines a player reads.

>>> space_text({"players": 3, "legal_tracks": 2676, "dead_ends": 0}).split(";")[0]
'3 players: 2,676 legal tracks'
"""

from __future__ import annotations

from typing import Any

from trackkit.games.yummell.core.check import DesignSpace, NextPlacement


def next_summary(placements: list[NextPlacement]) -> list[dict[str, Any]]:
    """One row per placement: tile, cell, rotation, whether it is legal (else the problem's
    code) and whether the track can still be completed after it (None: not asked)."""
    return [
        {
            "tile": o.placement.tile,
            "x": o.placement.x,
            "y": o.placement.y,
            "rotation": o.placement.rotation,
            "legal": o.legal,
            "problem": o.problem,
            "completable": o.completable,
        }
        for o in placements
    ]


def next_text(rows: list[dict[str, Any]], *, track_name: str) -> str:
    """:func:`next_summary` as one line per placement with its verdict."""
    if not rows:
        return f"{track_name}: no tile can be placed next (finished, or the path is blocked)."
    lines = [f"{track_name}: next placements"]
    for r in rows:
        verdict = "legal" if r["legal"] else f"illegal ({r['problem']})"
        if r["completable"] is False:
            verdict += ", but the track could not be completed after it"
        lines.append(
            f"  tile {r['tile']:>2} at ({r['x']}, {r['y']}) rotated {r['rotation']:>3}°: {verdict}"
        )
    return "\n".join(lines)


def space_summary(space: DesignSpace) -> dict[str, Any]:
    """The players, the legal tracks and the placing sequences that dead-end."""
    return {
        "players": space.players,
        "legal_tracks": space.legal_tracks,
        "dead_ends": space.dead_ends,
    }


def space_text(data: dict[str, Any]) -> str:
    """:func:`space_summary` in one sentence, the counts with thousands separators."""
    return (
        f"{data['players']} players: {data['legal_tracks']:,} legal tracks; "
        f"{data['dead_ends']:,} placing sequences obey the rule at every step and still "
        "reach a dead end"
    )
