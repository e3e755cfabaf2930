"""The six preset tracks of the rulebook (pp. 10-11), shipped as track files.

>>> [p.slug for p in list_presets()][:2]
['first-run', 'swamps-of-the-king']
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from trackkit.errors import TrackkitError
from trackkit.games.tilekit.track import Track, parse_track_toml

# In the rulebook's order.
PRESET_SLUGS: tuple[str, ...] = (
    "first-run",
    "swamps-of-the-king",
    "horrgrups-path",
    "forest-run",
    "forest-of-goosh",
    "king-of-toads",
)


@dataclass(frozen=True)
class Preset:
    slug: str
    track: Track


def load_preset(slug: str) -> Track:
    """The preset track called ``slug``; raises :class:`TrackkitError` for an unknown slug."""
    if slug not in PRESET_SLUGS:
        raise TrackkitError(
            f"there is no preset called {slug!r}; the presets are {', '.join(PRESET_SLUGS)}"
        )
    text = (
        resources.files("trackkit.games.yummell.tracks").joinpath(f"{slug}.toml").read_text("utf-8")
    )
    return parse_track_toml(text, source=f"preset {slug}")


def list_presets() -> list[Preset]:
    return [Preset(slug, load_preset(slug)) for slug in PRESET_SLUGS]
