"""Tiles: the tile set, each tile's squares, terrain and junctions, and what is reconstructed."""

from __future__ import annotations

import streamlit as st

from trackkit.app.common import tiles
from trackkit.games.tilekit.track import Placement, Track
from trackkit.render import track_figure


def page() -> None:
    tileset = tiles()
    st.title("Tiles")
    st.write(f"**{tileset.name}**: {tileset.provenance}")
    columns = st.columns(2)
    for i, tile in enumerate(tileset.values()):
        with columns[i % 2]:
            st.subheader(f"Tile {tile.number} · {tile.shape}")
            figure = track_figure(Track(tile.name, (Placement(tile.number, 0, 0, 0),)), tileset)
            figure.update_layout(height=320, title=None, showlegend=False)
            st.plotly_chart(figure, width="stretch", key=f"tile-{tile.number}")
            mp = sum(s["cost"] for s in tile.squares)
            sides = ", ".join(f"{j.side.value} (square {j.square})" for j in tile.junctions)
            st.write(f"{len(tile.squares)} squares, {mp} MP in all; junctions: {sides}.")
            if tile.reconstructed and not tile.provenance.lower().startswith("reconstruct"):
                st.caption(f"Reconstruction. {tile.provenance}")
            else:
                st.caption(tile.provenance)
