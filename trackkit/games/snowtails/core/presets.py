"""The demo tracks, shipped as track files: parametric boards, not the printed ones.

The printed Mush! Mush! board and its starter tracks (rulebook section H) are not
published, so every preset is a reconstruction and says so in its file.

>>> [p.slug for p in list_presets()]
['husky-oval', 'long-trail', 'reversed-ridge', 'chicane']
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from trackkit.errors import TrackkitError
from trackkit.games.snowtails.core.track import SnowTrack, parse_track_toml

# From the easiest to the hardest.
PRESET_SLUGS: tuple[str, ...] = ("husky-oval", "long-trail", "reversed-ridge", "chicane")


@dataclass(frozen=True)
class Preset:
    slug: str
    track: SnowTrack


def preset_text(slug: str) -> str:
    """The track file of the preset ``slug``, as text."""
    if slug not in PRESET_SLUGS:
        raise TrackkitError(
            f"there is no Snow Tails preset called {slug!r}; the presets are "
            f"{', '.join(PRESET_SLUGS)}"
        )
    folder = resources.files("trackkit.games.snowtails.tracks")
    return folder.joinpath(f"{slug}.toml").read_text("utf-8")


def load_preset(slug: str) -> SnowTrack:
    """The preset track called ``slug``; raises :class:`TrackkitError` for an unknown slug."""
    return parse_track_toml(preset_text(slug), source=f"preset {slug}")


def list_presets() -> list[Preset]:
    return [Preset(slug, load_preset(slug)) for slug in PRESET_SLUGS]
