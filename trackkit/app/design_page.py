"""Design: build a track by clicking, with the rules checked as you go."""

from __future__ import annotations

import streamlit as st

from trackkit.app.common import (
    MAX_UPLOAD_MB,
    UPLOAD_HELP,
    UPLOAD_LABEL,
    design,
    pick_track,
    read_upload,
    set_design,
    show_link_error,
    tiles,
)
from trackkit.building import next_placements
from trackkit.design import Design, check_placement, encode_track
from trackkit.presets import PRESET_SLUGS, load_preset
from trackkit.render import track_figure
from trackkit.tiles import TileSet
from trackkit.track import Placement, Track
from trackkit.validate import validate

ROTATIONS = [0, 90, 180, 270]


def page() -> None:
    st.title("Design a track")
    current = design()
    tileset = tiles(current.track.tileset)
    show_link_error()

    with st.expander("Start from…", expanded=not current.track.placements):
        left, middle, right = st.columns(3)
        if left.button("Empty table", width="stretch"):
            set_design(current.opened(Design.empty().track))
            st.rerun()
        slug = middle.selectbox("Preset", PRESET_SLUGS, format_func=lambda s: load_preset(s).name)
        if middle.button("Open preset", width="stretch"):
            set_design(current.opened(load_preset(slug)))
            st.rerun()
        upload = right.file_uploader(
            UPLOAD_LABEL,
            type=["toml"],
            key="design-upload",
            help=UPLOAD_HELP,
            max_upload_size=MAX_UPLOAD_MB,
        )
        if right.button("Open file", width="stretch", disabled=upload is None):
            track = read_upload(upload)
            if track is not None:
                set_design(current.opened(track))
                st.rerun()

    name = st.text_input("Track name", current.track.name)
    if name != current.track.name:
        set_design(current.renamed(name))
        current = design()
    track = current.track

    players_choice = st.select_slider(
        "Building rule for",
        options=["off", 2, 3, 4, 5, 6, 7, 8],
        value="off",
        help="The rulebook's optional rule: how many path tiles, each leaving room for the next.",
    )
    players = None if players_choice == "off" else int(players_choice)

    used = set(track.tiles)
    palette = [t for t in tileset.values() if t.number not in used]
    if not track.placements:
        palette = [tileset.start]
    controls, board = st.columns([1, 3])
    with controls:
        st.subheader("Next tile")
        if palette:
            chosen = st.radio(
                "Tile",
                [t.number for t in palette],
                format_func=lambda n: f"{n} · {tileset[n].shape}",
                key="tile",
                horizontal=True,
            )
            rotation = st.radio(
                "Rotation",
                ROTATIONS,
                key="rotation",
                horizontal=True,
                format_func=lambda r: f"{r}°",
            )
        else:
            chosen, rotation = None, 0
            st.write("Every tile is on the table.")
        options = next_placements(track, tileset, players) if track.placements else []
        legal = [o for o in options if o.legal and o.completable is not False]
        mine = [o for o in legal if o.placement.tile == chosen]
        if track.placements and chosen is not None:
            if mine:
                turns = ", ".join(f"{o.placement.rotation}°" for o in mine)
                cell = mine[0].placement.cell
                st.success(f"Tile {chosen} fits at {cell} turned {turns}.")
            else:
                st.info(
                    f"Tile {chosen} cannot go next. "
                    + (
                        f"Tiles that can: {sorted({o.placement.tile for o in legal})}."
                        if legal
                        else "No tile can: undo the last one."
                    )
                )
        if st.button(
            "Place next tile",
            width="stretch",
            disabled=chosen is None,
            help="Put the chosen tile where it fits, at the rotation chosen if it fits so",
        ):
            if not track.placements:
                set_design(current.place(Placement(chosen, 0, 0, rotation)))
                st.rerun()
            elif mine:
                pick = next((o for o in mine if o.placement.rotation == rotation), mine[0])
                set_design(current.place(pick.placement))
                st.rerun()
            else:
                st.session_state.explain = f"Tile {chosen} has no legal place next."
        a, b, c = st.columns(3)
        if a.button("Undo", width="stretch", disabled=not current.can_undo):
            set_design(current.undo())
            st.rerun()
        if b.button("Redo", width="stretch", disabled=not current.can_redo):
            set_design(current.redo())
            st.rerun()
        if c.button("Clear", width="stretch", disabled=not track.placements):
            set_design(current.clear())
            st.rerun()

    with board:
        cells = _clickable_cells(track)
        figure = track_figure(
            track,
            tileset,
            highlight_cells=sorted({o.placement.cell for o in mine}),
            clickable_cells=cells,
        )
        event = st.plotly_chart(
            figure,
            on_select="rerun",
            selection_mode="points",
            width="stretch",
            key=f"table-{st.session_state.get('table_version', 0)}",
        )
        st.caption(
            "Click a table cell to place the chosen tile there; green outlines show "
            "where it may go."
        )
        clicked = _clicked_cell(event)
        if clicked is not None and chosen is not None:
            # on a cell where the tile fits, it turns to fit (the chosen rotation first)
            fits = [o.placement for o in mine if o.placement.cell == clicked]
            placement = next(
                (p for p in fits if p.rotation == rotation),
                fits[0] if fits else Placement(chosen, clicked[0], clicked[1], rotation),
            )
            check = check_placement(track, placement, tileset, players)
            if check.allowed or not track.placements:
                set_design(current.place(placement))
                st.rerun()
            else:
                st.session_state.explain = check.explain()
        if st.session_state.get("explain"):
            st.warning(st.session_state.pop("explain"))

    _validation_panel(track, tileset, players)
    st.download_button(
        "Download track (.toml)",
        track.to_toml(),
        file_name=_file_name(track.name),
        mime="application/toml",
        disabled=not track.placements,
    )
    if track.placements:
        st.text_input(
            "Share link (reopens this track)",
            f"?track={encode_track(track)}",
            help="Append to the app's address.",
        )


def _validation_panel(track: Track, tileset: TileSet, players: int | None) -> None:
    finished = bool(track.placements) and track.placements[-1].tile == tileset.finish.number
    report = validate(track, tileset, players, partial=not finished)
    st.subheader("Validation")
    rule = f" under the building rule for {players} players" if players else ""
    if report.ok:
        if finished:
            st.success(f"A complete, valid track{rule}.")
        elif track.placements:
            st.info(
                f"No problem so far{rule}; "
                + (
                    "it can still be completed."
                    if report.completable
                    else "but it cannot be completed."
                )
            )
        else:
            st.info("Place the start tile anywhere to begin.")
    else:
        st.error(f"{len(report.problems)} problem(s){rule}:")
        for problem in report.problems:
            st.markdown(f"- **{problem.code}**: {problem.sentence}")


def _clickable_cells(track) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
    if not track.placements:
        return [(x, y) for x in range(-1, 2) for y in range(-1, 2)]
    taken = {p.cell for p in track.placements}
    xs = [p.x for p in track.placements]
    ys = [p.y for p in track.placements]
    return [
        (x, y)
        for x in range(min(xs) - 1, max(xs) + 2)
        for y in range(min(ys) - 1, max(ys) + 2)
        if (x, y) not in taken
    ]


def _clicked_cell(event) -> tuple[int, int] | None:  # type: ignore[no-untyped-def]
    try:
        points = event.selection.points
    except AttributeError:
        return None
    for point in points:
        data = point.get("customdata")
        if data is not None and len(data) == 2:
            return int(data[0]), int(data[1])
    return None


def _file_name(name: str) -> str:
    safe = "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-")
    return f"{safe or 'track'}.toml"


__all__ = ["page", "pick_track"]
