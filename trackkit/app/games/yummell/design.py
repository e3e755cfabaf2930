"""Design: build a track by clicking, with the rules checked as you go."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

import streamlit as st

from trackkit.app.choices import kept, players_slider
from trackkit.app.common import (
    MAX_UPLOAD_MB,
    UPLOAD_HELP,
    UPLOAD_LABEL,
    clicked,
    show_link_error,
    tiles,
)
from trackkit.app.games.yummell.choices import building_rule_applies
from trackkit.app.games.yummell.state import design, read_upload, set_design
from trackkit.app.picture import picture_downloads
from trackkit.app.sheet import sheet_download
from trackkit.board.problems import Problem
from trackkit.errors import TrackkitError
from trackkit.games.tilekit.geometry import ROTATIONS
from trackkit.games.tilekit.tiles import TileSet
from trackkit.games.tilekit.track import Placement, Track
from trackkit.games.yummell.core.check import frontier
from trackkit.games.yummell.core.editing import (
    Design,
    NextTile,
    and_list,
    check_placement,
    encode_track,
    is_complete,
    next_tiles,
)
from trackkit.games.yummell.core.presets import PRESET_SLUGS, load_preset
from trackkit.games.yummell.face.thumbnail import tile_thumbnail_svg
from trackkit.limits import CostLimitError
from trackkit.render import track_figure
from trackkit.render.layout import Scene, build_scene
from trackkit.validate import Report, validate

PROBLEM_COLOUR = "#c0392b"


class Choice(NamedTuple):
    """The tile chosen to place next, its rotation and the placements where it fits."""

    tile: int | None = None
    rotation: int = 0
    fits: tuple[Placement, ...] = ()


def page() -> None:
    st.title("Design a track")
    current = design()
    show_link_error()
    folder = current.track.tileset
    try:
        tileset = tiles(folder)
    except TrackkitError as error:  # an operator's tile set that no longer loads
        st.error(f"This design's tile set cannot be loaded ({error}); Undo or start afresh.")
        folder, tileset = None, tiles()
    if "notice" in st.session_state:
        st.toast(st.session_state.pop("notice"), icon=":material/undo:")
    _start_from(current)

    naming, rule = st.columns(2)
    name = naming.text_input("Track name", current.track.name)
    if name != current.track.name:
        set_design(current.renamed(name))
        current = design()
    track = current.track

    players = _building_rule(rule)

    entries = {entry.tile.number: entry for entry in next_tiles(track, tileset, players)}
    complete = is_complete(track, tileset)
    # nothing to check on an empty table (the building rule would call it a dead end)
    report = validate(track, tileset, players, partial=not complete) if track.placements else None
    _default_to_a_tile_that_fits(track, entries, tileset.finish.number)
    controls, board = st.columns([1, 3])
    with controls:
        choice = _controls(current, entries, report, complete, (folder, tileset, players))
    with board:
        _board(current, tileset, players, report, complete, choice)
    _validation_panel(track, players, report, complete)
    _downloads(track, players)


def _start_from(current: Design) -> None:
    """Start afresh: an empty table, a preset or a track file."""
    # a constant `expanded`: a changing one re-creates the expander and undoes the reader's toggle
    with st.expander("Start from… an empty table, a preset or a track file", expanded=False):
        left, middle, right = st.columns(3)
        if left.button("Empty table", width="stretch"):
            _replace(current, Design.empty().track, "an empty table")
        slug = middle.selectbox("Preset", PRESET_SLUGS, format_func=lambda s: load_preset(s).name)
        if middle.button("Open preset", width="stretch"):
            _replace(current, load_preset(slug), f"the preset {load_preset(slug).name}")
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
                _replace(current, track, upload.name)


def _controls(
    current: Design,
    entries: dict[int, Any],
    report: Report | None,
    complete: bool,
    table: tuple[Any, TileSet, int | None],
) -> Choice:
    """The column beside the board: a refusal, the next tile (or the track complete), the
    buttons and the tiles' thumbnails; the tile chosen. ``table``: the tile set's folder,
    the tile set and the building rule's player count."""
    folder, tileset, players = table
    track = current.track
    choice = Choice()
    # a refusal goes first, level with the top of the board that was clicked
    explanation = st.session_state.get("explain")
    if explanation and explanation[0] == track:
        st.warning(explanation[1])
    if complete:
        st.subheader("Track complete")
        if report is not None and report.ok:
            st.success(
                "The finish tile is placed: the track is built. Race it or compare "
                "it (pages on the left), download it below, or Undo to change it."
            )
        else:
            st.warning(
                "The finish tile is placed, but the track breaks a rule (see "
                "Validation below). Undo to change it."
            )
    else:
        st.subheader("Next tile")
        chosen, rotation = _palette(entries, track)
        fits = tuple(entries[chosen].fits) if chosen is not None else ()
        choice = Choice(chosen, rotation, fits)
        if track.placements and chosen is not None:
            _hint(chosen, rotation, fits, entries)
            if not fits:  # why, before a click on the table would say it
                st.markdown(why_not_next(track, chosen, tileset, players))
    if st.button(
        "Place next tile",
        width="stretch",
        disabled=choice.tile is None,
        help="Put the chosen tile where it fits, at the rotation chosen if it fits so",
    ):
        if not track.placements:
            _place(current, Placement(choice.tile, 0, 0, choice.rotation))
        elif choice.fits:
            fitting = (p for p in choice.fits if p.rotation == choice.rotation)
            _place(current, next(fitting, choice.fits[0]))
        else:
            _explain(track, f"Tile {choice.tile} has no legal place next: choose another tile.")
    a, b, c = st.columns(3)
    if a.button("Undo", width="stretch", disabled=not current.can_undo):
        _place_design(current.undo())
    if b.button("Redo", width="stretch", disabled=not current.can_redo):
        _place_design(current.redo())
    if c.button("Clear", width="stretch", disabled=not track.placements):
        _place_design(current.clear(), "Table cleared: Undo brings the tiles back.")
    if not complete:
        _thumbnails(entries, folder)
    return choice


def _board(
    current: Design,
    tileset: TileSet,
    players: int | None,
    report: Report | None,
    complete: bool,
    choice: Choice,
) -> None:
    """The table as drawn, clickable where the chosen tile may go; a click places it."""
    track = current.track
    cells = [] if complete else _clickable_cells(track)
    ghost = _ghost_placements(track, choice.tile, choice.rotation, choice.fits)
    try:
        figure = track_figure(
            track,
            tileset,
            highlight_cells=sorted({p.cell for p in choice.fits}) if track.placements else [],
            clickable_cells=cells,
            ghosts=[build_scene(Track("", (g,)), tileset) for g in ghost],
        )
    except CostLimitError as refusal:  # the rest of the page works without the board
        st.warning(f"The table is not drawn: {refusal}. Undo, Clear or open another track.")
        return
    if report is not None:
        outline_problem_tiles(figure, build_scene(track, tileset), report.problems)
    event = st.plotly_chart(
        figure,
        on_select="rerun",
        selection_mode="points",
        width="stretch",
        key=f"table-{st.session_state.get('table_version', 0)}",
    )
    if not complete:
        st.caption(
            "Click anywhere in a table cell to place the chosen tile there; green "
            "outlines and the faint tile show where it may go and how it would lie."
        )
    clicked = _clicked_cell(event)
    if clicked is not None and choice.tile is not None:
        # on a cell where the tile fits, it turns to fit (the chosen rotation first)
        here = [p for p in choice.fits if p.cell == clicked]
        placement = next(
            (p for p in here if p.rotation == choice.rotation),
            here[0] if here else Placement(choice.tile, clicked[0], clicked[1], choice.rotation),
        )
        check = check_placement(track, placement, tileset, players)
        if check.allowed or not track.placements:
            _place(current, placement)
        else:
            _explain(track, check.explain())


def _downloads(track: Track, players: int | None) -> None:
    """The track as a file, as pictures, as a build sheet (checked for ``players``, the
    building rule's count) and as a link."""
    st.download_button(
        "Download track (.toml)",
        track.to_toml(),
        file_name=_file_name(track.name),
        mime="application/toml",
        disabled=not track.placements,
    )
    if track.placements:
        picture_downloads(track, key="design")  # as drawn, without the table's markers
        sheet_download(track, players, key="design-sheet")
        st.text_input(
            "Share link (reopens this track)",
            f"?track={encode_track(track)}",
            help="Append to the app's address.",
        )


def _building_rule(column: Any) -> int | None:
    """The player count the building rule checks the design for (the count shared with
    the other pages), or None when the rule is off or has no count for them."""
    count = players_slider(column)
    on = kept(
        column.checkbox,
        "Building rule for this player count",
        "design-building-rule",
        True,
        help="The rulebook's optional rule, on by default: the player count sets how many "
        "path tiles the track has, and each tile must leave room for the next. Off: any "
        "number of tiles, only the joints checked.",
    )
    if on and not building_rule_applies(count):
        column.caption(f"The building rule has no count for {count} player(s): not checked.")
    return count if on and building_rule_applies(count) else None


def outline_problem_tiles(figure: Any, scene: Scene, problems: Iterable[Problem]) -> None:
    """Outline in red, on the table, each tile a problem names (by its placement), so the
    list below the table points at what it says."""
    named = {p.placement for p in problems if p.placement is not None}
    for tile in scene.tiles:
        if tile.index in named:
            figure.add_shape(
                type="rect",
                x0=tile.left + 0.12,
                y0=tile.top + 0.12,
                x1=tile.left + tile.size - 0.12,
                y1=tile.top + tile.size - 0.12,
                line={"color": PROBLEM_COLOUR, "width": 4},
                name=f"problem at placement {tile.index + 1}",
            )


def _validation_panel(
    track: Track, players: int | None, report: Report | None, finished: bool
) -> None:
    st.subheader("Validation")
    if report is None:
        st.info("Place the start tile anywhere to begin.")
        return
    rule = f" under the building rule for {players} players" if players else ""
    if report.ok:
        if finished:
            st.success(f"A complete, valid track{rule}.")
        else:
            st.info(
                f"No problem so far{rule}; "
                + (
                    "it can still be completed."
                    if report.completable
                    else "but it cannot be completed."
                )
            )
    else:
        st.error(f"{len(report.problems)} problem(s){rule}:")
        if any(p.placement is not None for p in report.problems):
            st.caption("The tiles a problem names are outlined in red on the table.")
        for problem in report.problems:
            st.markdown(f"- **{problem.code}**: {problem.sentence}")


def _clickable_cells(track: Track) -> list[tuple[int, int]]:
    """The free cells a click may name: on an empty table those around (0, 0), else those
    next to a placed tile (sides and corners). A tile can only go beside the track, and
    tiles placed far apart (a link may name any cell within the schema's range) must not
    make the layer cover the empty table between them: at most eight cells per tile."""
    if not track.placements:
        return [(x, y) for x in range(-1, 2) for y in range(-1, 2)]
    taken = {p.cell for p in track.placements}
    around = {
        (p.x + dx, p.y + dy) for p in track.placements for dx in (-1, 0, 1) for dy in (-1, 0, 1)
    }
    return sorted(around - taken)


def _clicked_cell(event) -> tuple[int, int] | None:  # type: ignore[no-untyped-def]
    data = clicked(event, 2)
    return None if data is None else (int(data[0]), int(data[1]))


def _file_name(name: str) -> str:
    safe = "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-")
    return f"{safe or 'track'}.toml"


__all__ = ["page"]


def _place(current: Design, placement: Placement) -> None:
    _place_design(current.place(placement))


def _place_design(new: Design, notice: str | None = None) -> None:
    st.session_state.pop("explain", None)
    if notice:
        st.session_state.notice = notice
    set_design(new)
    st.rerun()


def _replace(current: Design, track: Track, what: str) -> None:
    notice = f"Opened {what}."
    if current.track.placements:
        notice += " Undo brings back the design it replaced."
    _place_design(current.opened(track), notice)


def _explain(track: Track, text: str) -> None:
    """Keep the refusal beside the board until the design changes, and redraw the board
    unselected (a selected point fades the rest, and clicking it again would unselect)."""
    st.session_state.explain = (track, text)
    st.session_state.table_version = st.session_state.get("table_version", 0) + 1
    st.rerun()


def _default_to_a_tile_that_fits(track: Track, entries: dict[int, NextTile], finish: int) -> None:
    """Each time the design changes, choose a tile that fits (a path tile before the finish);
    the user's own choice stands until then."""
    if st.session_state.get("tile-for") == track and st.session_state.get("tile") in entries:
        return
    st.session_state["tile-for"] = track
    fitting = [n for n, entry in entries.items() if entry.fits]
    preferred = [n for n in fitting if n != finish] or fitting or list(entries)
    if preferred:
        st.session_state.tile = preferred[0]


def _default_to_a_rotation_that_fits(
    track: Track, chosen: int, fits: tuple[Placement, ...]
) -> None:
    """Each time the design or the chosen tile changes, show the rotation the tile would
    be placed at (the first it fits at, as the faint tile shows it): the control never says
    0° for a tile that goes down turned 90°. The user's own choice stands until then."""
    if st.session_state.get("rotation-for") == (track, chosen):
        return
    st.session_state["rotation-for"] = (track, chosen)
    turns = [p.rotation for p in fits]
    if track.placements and turns and st.session_state.get("rotation") not in turns:
        st.session_state.rotation = turns[0]


def _palette(entries: dict[int, NextTile], track: Track) -> tuple[int | None, int]:
    """The choice of tile and rotation (the rotation at which the chosen tile fits)."""
    if not entries:
        st.write("Every tile is on the table.")
        return None, 0
    numbers = list(entries)
    chosen = st.radio(
        "Tile",
        numbers,
        format_func=lambda n: f"{n} · {entries[n].tile.shape}",
        key="tile",
        horizontal=True,
    )
    if chosen is not None:
        st.caption(f"Tile {chosen}: {entries[chosen].summary()}.")
        _default_to_a_rotation_that_fits(track, chosen, entries[chosen].fits)
    rotation = st.radio(
        "Rotation", ROTATIONS, key="rotation", horizontal=True, format_func=lambda r: f"{r}°"
    )
    return chosen, rotation


def _thumbnails(entries: dict[int, NextTile], folder: Path | None) -> None:
    """The tiles left as they are printed, each with its squares and MP."""
    if not entries:
        return
    st.write("**Tiles left**")
    numbers = list(entries)
    thumbnails = st.columns(3)
    for i, number in enumerate(numbers):
        entry = entries[number]
        with thumbnails[i % 3]:
            st.image(_thumbnail(number, None if folder is None else str(folder)), width="stretch")
            st.caption(
                f"**{number}** · {len(entry.tile.squares)} sq · {entry.mp} MP"
                + ("" if entry.fits else " · no fit")
            )


@st.cache_data(max_entries=64)
def _thumbnail(number: int, folder: str | None) -> str:
    return tile_thumbnail_svg(tiles(None if folder is None else Path(folder)), number)


def _hint(
    chosen: int, rotation: int, fits: tuple[Placement, ...], entries: dict[int, NextTile]
) -> None:
    if fits:
        where = and_list(
            sorted(
                {f"({p.x}, {p.y}) turned {_turns(fits, p.cell)}" for p in fits},
            )
        )
        st.success(f"Tile {chosen} fits at {where}.")
        return
    others = [str(n) for n, entry in entries.items() if entry.fits]
    if others:
        st.info(f"Tile {chosen} cannot go next. Tiles that fit next: {and_list(others)}.")
    else:
        st.warning(
            "No tile fits after the last one: every way on runs into the track or leaves "
            "no room for the finish. Undo the last tile, or turn it another way."
        )


def why_not_next(track: Track, chosen: int, tileset: TileSet, players: int | None) -> str:
    """Why tile ``chosen`` cannot go next, as Markdown: the rules a placement of it at the
    track's open end breaks (turned the way that breaks fewest), or that every place it
    fits leaves the track impossible to complete."""
    end = frontier(track, tileset)
    if end is None:
        return "The track has no open end to join."
    checks = [
        check_placement(track, Placement(chosen, *end.cell, r), tileset, players) for r in ROTATIONS
    ]
    fewest = min(checks, key=lambda check: len(check.problems)).problems
    if not fewest:
        return (
            f"Wherever tile {chosen} joins, it leaves no way to complete the track with the "
            "tiles left."
        )
    lines = [f"- **{problem.code}**: {problem.sentence}" for problem in fewest]
    return f"Tile {chosen} next would break a rule:\n\n" + "\n".join(lines)


def _turns(fits: tuple[Placement, ...], cell: tuple[int, int]) -> str:
    return " or ".join(f"{p.rotation}°" for p in fits if p.cell == cell)


def _ghost_placements(
    track: Track, chosen: int | None, rotation: int, fits: tuple[Placement, ...]
) -> list[Placement]:
    """Where the chosen tile would lie: on each cell it fits, turned as a click would turn
    it (the chosen rotation when it fits so)."""
    if chosen is None:
        return []
    if not track.placements:
        return [Placement(chosen, 0, 0, rotation)]
    ghosts = []
    for cell in dict.fromkeys(p.cell for p in fits):
        here = [p for p in fits if p.cell == cell]
        ghosts.append(next((p for p in here if p.rotation == rotation), here[0]))
    return ghosts
