"""Explore: a sweep of legal tracks as a map of length against balance; filter it, click a
track to see it drawn with its profile, and open it on the Design page.

Sweeps are read from the folder the person running the server names in
``TRACKKIT_APP_SWEEPS`` (default: ``sweeps/`` in the folder the app runs from), one
sub-folder per sweep as ``trackkit sweep --out`` writes it. Without one, the page offers
to run a small sweep there.
"""

from __future__ import annotations

import hashlib
import math
import os
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from trackkit.app import common
from trackkit.app.child import run_small_sweep
from trackkit.app.choices import kept, wait_for_engine
from trackkit.app.runs import Progress, heavy_run, session_id
from trackkit.errors import PROBLEM_LIMIT, LocatedError, TrackkitError
from trackkit.errors import shown as escaped
from trackkit.explore.find import row_track
from trackkit.explore.profile import FIGURES
from trackkit.explore.sweep import read_manifest, read_sweep
from trackkit.render import picture_figure

SWEEPS_VARIABLE = "TRACKKIT_APP_SWEEPS"
SMALL_SWEEP = {"players": 4, "sample": 300, "races": 100}  # about a minute on two cores
TITLES = {f.key: f.title for f in FIGURES}
SHOWN = ("rounds_mean", "balance", "exact_rounds", "lead_changes", "last_round", "winner_gap")


def sweeps_root() -> Path:
    """Where the app looks for sweeps (and runs a small one)."""
    return Path(os.environ.get(SWEEPS_VARIABLE) or "sweeps")


def sweeps(root: Path) -> list[Path]:
    """The sweep folders under ``root`` (each holds a ``sweep.json``), by name."""
    if not root.is_dir():
        return []
    return sorted(p.parent for p in root.glob("*/sweep.json"))


@st.cache_data(max_entries=4, show_spinner="Reading the sweep…")
def _rows(folder: str, stamp: float) -> tuple[Any, int, int]:
    """The sweep's finished rows as a DataFrame, and its partitions done and planned
    (``stamp``, the folder's last change, makes a sweep still running read again)."""
    read = read_sweep(folder)
    return read.to_pandas(), read.status.partitions_done, read.status.partitions


def page() -> None:
    st.title("Explore")
    st.write(
        "Every dot is a legal track under the building rule, profiled by a sweep "
        "(`trackkit sweep`): its mean length against its balance (1 = no character, start "
        "path or seat wins more than its share). Click a dot to see the track."
    )
    root = sweeps_root()
    found = sweeps(root)
    if not found:
        st.info(
            "No sweep here yet (the person running the server may set "
            f"{SWEEPS_VARIABLE} to look elsewhere)."
        )
        _offer_small_sweep(root)
        return
    names = [p.name for p in found]
    name = kept(st.selectbox, "Sweep", "explore-sweep", names[0], options=names)
    folder = root / (name if name in names else names[0])
    try:
        plan = read_manifest(folder)
        if plan is None:
            st.error(f"This sweep ({escaped(folder.name)}) holds no sweep.json.")
            return
        frame, done, planned = _rows(str(folder), _stamp(folder))
    except TrackkitError as error:
        st.error(said(error))
        return
    st.caption(
        f"{plan.players} players, {len(frame):,} tracks profiled with {plan.races} races "
        f"each (seed {plan.seed})" + ("" if done == planned else f"; {done} of {planned} parts")
    )
    if frame.empty:
        st.info("The sweep has no finished tracks yet.")
        return
    shown = _filtered(frame)
    st.caption(f"{len(shown):,} of {len(frame):,} tracks pass the filters")
    colour = kept(
        st.selectbox,
        "Colour by",
        "explore-colour",
        "lead_changes",
        options=[k for k in TITLES if k in frame.columns],
        format_func=lambda k: TITLES[k],
    )
    event = st.plotly_chart(
        _scatter(shown, colour), on_select="rerun", selection_mode="points", key="explore-map"
    )
    picked = common.clicked(event, 1)
    if picked is not None:
        st.session_state["explore-rank"] = int(picked[0])
    rank = st.session_state.get("explore-rank")
    if rank is not None and rank in set(frame["rank"]):
        _show_track(frame[frame["rank"] == rank].iloc[0].to_dict(), plan)


def said(error: TrackkitError) -> str:
    """An error as this page shows it: a sweep folder's file named by its own name (the
    folder's, ``sweep.json``, ``part-000003.parquet``), never by the server's path."""
    if not isinstance(error, LocatedError):
        return str(error)
    where = escaped(Path(error.path).name or "this sweep")
    if error.field:
        where += f": {escaped(error.field, 80)}"
    return f"{where}: {escaped(error.problem, PROBLEM_LIMIT)}"


def _stamp(folder: Path) -> float:
    return max((p.stat().st_mtime for p in folder.iterdir()), default=0.0)


def _filtered(frame: Any) -> Any:
    """The rows within the length and balance ranges the sliders ask for."""
    left, right = st.columns(2)
    low, high = float(frame["rounds_mean"].min()), float(frame["rounds_mean"].max())
    if high > low:
        length = left.slider(
            "Mean length (rounds)", low, high, (low, high), step=0.1, key="explore-length"
        )
        frame = frame[frame["rounds_mean"].between(*length)]
    least = right.slider("Balance at least", 0.0, 1.0, 0.0, step=0.01, key="explore-balance")
    return frame[frame["balance"] >= least]


def _scatter(frame: Any, colour: str) -> go.Figure:
    """A WebGL scatter: length against balance, coloured by ``colour``; each point
    carries its rank."""
    figure = go.Figure(
        go.Scattergl(
            x=frame["rounds_mean"].tolist(),
            y=frame["balance"].tolist(),
            mode="markers",
            customdata=frame[["rank"]].to_numpy().tolist(),
            marker={
                "color": frame[colour].tolist(),
                "colorscale": "Viridis",
                "size": 6,
                "colorbar": {"title": {"text": colour}},
            },
            hovertemplate="track #%{customdata[0]}<br>%{x:.2f} rounds, balance %{y:.3f}"
            "<extra></extra>",
        )
    )
    figure.update_layout(
        xaxis_title="Mean length (rounds)",
        yaxis_title="Balance",
        height=480,
        margin={"l": 10, "r": 10, "t": 10, "b": 10},
        # a drag zooms into a dense part of the map; with dragmode "select" Streamlit leaves
        # Plotly's clickmode at "event", and a click on a dot selected nothing (a browser
        # test caught it)
        dragmode="zoom",
    )
    return figure


def _show_track(row: dict[str, Any], plan: Any) -> None:
    """The clicked track drawn, its figures, and a way to open it on the Design page."""
    try:
        track = row_track(row, plan)
    except TrackkitError as error:
        st.error(said(error))
        return
    st.subheader(track.name)
    left, right = st.columns([3, 2])
    try:
        left.plotly_chart(picture_figure(track), key="explore-picture")
    except TrackkitError as error:  # a drawing over the app's limits (a tampered sweep)
        left.warning(said(error))
    figures = [
        {"figure": TITLES.get(key, key), "value": row[key]}
        for key in TITLES
        if key in row and not (isinstance(row[key], float) and math.isnan(row[key]))
    ]
    right.dataframe(figures, hide_index=True)
    if st.button("Open in Design", icon=":material/extension:", key="explore-open"):
        common.set_design(common.design().opened(track))
        st.switch_page(_design_page())


def _design_page() -> Any:
    """The Design page to switch to: Streamlit knows a page by its ``url_path`` (that of
    home_page.app_pages), so this page need not import the list of pages that lists it."""
    from trackkit.app import design_page

    return st.Page(design_page.page, url_path="design")


def _offer_small_sweep(root: Path) -> None:
    """A button that sweeps a uniform sample of the 4-player tracks into a folder of this
    visitor's own under ``root`` (two visitors sweeping at once must not share one), off the
    script thread with progress and a Cancel button (:func:`~trackkit.app.runs.heavy_run`)."""
    size = SMALL_SWEEP
    st.write(
        f"A small sweep profiles {size['sample']} of the 26,640 legal {size['players']}-player "
        f"tracks, drawn uniformly, with {size['races']} races each: about a minute on two "
        "cores (the first run on a new machine also compiles the race engine)."
    )
    start = st.button("Run a small sweep", icon=":material/play_arrow:", key="explore-run")
    if start:
        wait_for_engine()
    folder = small_sweep_folder(root, session_id())

    def work(progress: Progress) -> None:
        # in a process of its own: run in the server's, the sweep's threads stalled the
        # other visitors (trackkit.app.child)
        run_small_sweep(folder, size["players"], size["sample"], size["races"], progress)

    run = heavy_run("the small sweep", "tracks", folder, start, work)
    if run is not None and run.state == "finished":
        st.rerun()


def small_sweep_folder(root: Path, session: str) -> Path:
    """The small sweep's folder for the visitor of ``session``: named after the sweep and a
    short digest of the session (not the session itself, which the folder name would show
    to every visitor)."""
    size = SMALL_SWEEP
    visitor = hashlib.sha256(session.encode()).hexdigest()[:10]
    return root / f"{size['players']}p-sample{size['sample']}-{visitor}"
