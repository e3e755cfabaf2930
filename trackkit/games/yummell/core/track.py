"""A Yummell track: tiles placed on the table (the tile kit's :class:`Track`, its file
format the tile kit's, :mod:`trackkit.games.tilekit.track`), each square of a tile one of
the rulebook's four terrains (:class:`YummellSquare`), on the tiles bundled with trackkit or
a tile set of the user's.

>>> bundled_tileset().get(1).role.value
'start'
"""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel, ConfigDict, computed_field

from trackkit.games.base import square_schema
from trackkit.games.tilekit.tiles import TileSet, bundled_tiles_folder, read_tileset
from trackkit.games.tilekit.track import Placement, Track, parse_track
from trackkit.games.yummell.core.terrain import Terrain

__all__ = ["Placement", "Track", "YummellSquare", "bundled_tileset", "parse_track"]


class YummellSquare(BaseModel):
    """A square of a Yummell tile: its terrain (the rulebook's four), and from it its MP."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    terrain: Terrain

    @computed_field  # type: ignore[prop-decorator]
    @property
    def cost(self) -> int:
        return self.terrain.cost


@lru_cache(maxsize=1)
def bundled_tileset() -> TileSet:
    """The tile set bundled with trackkit (top-level ``tiles/``; reconstructed layouts)."""
    return read_tileset(bundled_tiles_folder(), square_schema)
