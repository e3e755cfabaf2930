"""A track's profile for people: its figures by family, each with its title.

>>> from trackkit.explore.profile import TrackProfile
>>> print(profile_text(TrackProfile("Demo", 4, 200, 0, {"balance": 0.8})).splitlines()[2])
  Balance score, 0-1: 1 - the worst unfairness below                 0.800
"""

from __future__ import annotations

import math

from trackkit.explore.profile import FIGURES, TrackProfile

FAMILIES = ("length", "balance", "drama", "friction", "track")


def profile_text(profile: TrackProfile) -> str:
    """The figures by family (length, balance, drama, friction, the track itself)."""
    lines = [
        f"{profile.track}: {profile.players} players, {profile.races:,} races, seed {profile.seed}"
    ]
    for family in FAMILIES:
        shown = [f for f in FIGURES if f.family == family and f.key in profile.values]
        if family == "track":
            shown_terrain = sorted(k for k in profile.values if k.startswith("terrain_"))
        else:
            shown_terrain = []
        if not shown and not shown_terrain:
            continue
        lines.append(family.capitalize())
        for figure in shown:
            lines.append(f"  {figure.title:<62} {_number(profile.values[figure.key])}")
        for key in shown_terrain:
            title = f"Share of {key.removeprefix('terrain_')} squares"
            lines.append(f"  {title:<62} {_number(profile.values[key])}")
    return "\n".join(lines)


def _number(value: float) -> str:
    if math.isnan(value):
        return "      -"
    return f"{value:9.3f}" if abs(value) < 1000 else f"{value:9.0f}"
