"""Explore: a sweep of legal tracks as a map of length against unfairness, each dot with its
95% intervals; filter it, click a track to see it drawn with its profile, profile it again
with more races, and open it on the Design page. The design being edited is marked: its
dot when the sweep holds it, else its own profile, raced like the sweep's tracks.

Sweeps are read from the folder the person running the server names in
``TRACKKIT_APP_SWEEPS``, one sub-folder per sweep as ``trackkit sweep --out`` writes it;
without it, from ``sweeps/`` in the folder the app runs from and from ``trackkit/sweeps``
in the user's cache folder (``~/.cache`` on Linux). Without a sweep, the page offers to
run a small one in the named folder, else in the cache: never inside the project.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from trackkit.app import common
from trackkit.app.choices import kept
from trackkit.app.explore_table import tracks_table
from trackkit.app.fairness import figures_table, interval_bars, plain, with_interval
from trackkit.app.runs import (
    Progress,
    check_profile_cost,
    heavy_run,
    heavy_runs,
    profile_races_allowed,
    session_id,
)
from trackkit.app.small_sweep import offer_small_sweep, small_sweep_players
from trackkit.board.track import Track
from trackkit.errors import PROBLEM_LIMIT, LocatedError, TrackkitError
from trackkit.errors import shown as escaped
from trackkit.explore.find import row_track
from trackkit.explore.profile import (
    FIGURES,
    TrackProfile,
    profile_options,
    profile_track,
)
from trackkit.explore.sweep import SweepPlan, read_manifest, read_sweep
from trackkit.games import get_ruleset
from trackkit.render import picture_figure
from trackkit.report.orderings import row_tie_groups
from trackkit.report.verdict import verdict
from trackkit.sim.montecarlo import simulate

SWEEPS_VARIABLE = "TRACKKIT_APP_SWEEPS"
AGAIN = 5  # a track profiled again races this many times the sweep's races (within limits)
KEEP_PROFILES = 32
TITLES = {f.key: f.title for f in FIGURES}
DESIGN_COLOUR = "#c0392b"
SWEEP_BARS = {"color": "rgba(80, 80, 80, 0.35)", "thickness": 1, "width": 0}  # many, faint
AGAIN_WANTED = "explore-again-wanted"  # the rank whose "profile again" was pressed
DESIGN_SKIPPED = "explore-design-skipped"  # a design profile cancelled or failed: not again


def cache_folder() -> Path:
    """trackkit's folder in the user's cache (platformdirs' when it is installed, else
    ``$XDG_CACHE_HOME/trackkit`` or ``~/.cache/trackkit``)."""
    try:
        from platformdirs import user_cache_dir
    except ImportError:
        base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
        return Path(base) / "trackkit"
    return Path(user_cache_dir("trackkit", appauthor=False))


def sweeps_root() -> Path:
    """Where the app runs a small sweep: the folder the server's operator names, else the
    user's cache (a sweep written into the project would show as a change to commit)."""
    named = os.environ.get(SWEEPS_VARIABLE)
    return Path(named) if named else cache_folder() / "sweeps"


def sweeps_roots() -> tuple[Path, ...]:
    """Where the app looks for sweeps: the operator's folder alone when named, else
    ``sweeps/`` where the app runs (``trackkit sweep --out sweeps/…``) and the cache's."""
    if os.environ.get(SWEEPS_VARIABLE):
        return (sweeps_root(),)
    return (Path("sweeps"), sweeps_root())


def sweeps(root: Path) -> list[Path]:
    """The sweep folders under ``root`` (each holds a ``sweep.json``), by name."""
    if not root.is_dir():
        return []
    return sorted(p.parent for p in root.glob("*/sweep.json"))


def named_sweeps(roots: tuple[Path, ...]) -> dict[str, Path]:
    """The sweeps under ``roots`` by the name the page shows: the folder's, or for a
    second folder of that name, the name with the number of its root after it."""
    found: dict[str, Path] = {}
    for number, root in enumerate(roots, 1):
        for folder in sweeps(root):
            name = folder.name if folder.name not in found else f"{folder.name} ({number})"
            found[name] = folder
    return found


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
        "(`trackkit sweep`): its mean length against its unfairness (how far the track moves a "
        "racer's chance of winning from fair, in points: its characters against an average "
        "track, 30 tracks raced alike, and its start against the fair share; 0 is fair). "
        "Click a dot to see the track."
    )
    found = named_sweeps(sweeps_roots())
    if not found:
        st.info(
            "No sweep here yet (the person running the server may set "
            f"{SWEEPS_VARIABLE} to look elsewhere)."
        )
        offer_small_sweep(sweeps_root())
        return
    names = list(found)
    count = common.players()
    first = next((n for n in names if _sweep_players(found[n]) == count), names[0])
    name = kept(st.selectbox, "Sweep", "explore-sweep", first, options=names)
    folder = found[name if name in found else names[0]]
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
        f"{plan.players} players, {len(frame):,} tracks profiled with {plan.races:,} races "
        f"each (seed {plan.seed})" + ("" if done == planned else f"; {done} of {planned} parts")
    )
    if count is not None and plan.players != count:
        st.warning(
            f"This sweep holds {plan.players}-player tracks, legal under the building rule "
            f"for {plan.players} players; your player count (Design, Race, Compare) is "
            f"{count}. Choose a sweep for {count} players, or run one with "
            f"`trackkit sweep --players {count}`.",
            icon=":material/group:",
        )
        swept = {_sweep_players(f) for f in found.values()}
        if small_sweep_players(count) == count and count not in swept:
            with st.expander(f"Run a small sweep of {count}-player tracks"):
                offer_small_sweep(sweeps_root())
    if frame.empty:
        st.info("The sweep has no finished tracks yet.")
        return
    design = _design_mark(frame, plan)
    shown = _filtered(frame)
    st.caption(f"{len(shown):,} of {len(frame):,} tracks pass the filters")
    tied = fairest_tie(shown)
    if tied:
        st.caption(tied)
    colour = kept(
        st.selectbox,
        "Colour by",
        "explore-colour",
        "lead_changes",
        options=[k for k in TITLES if k in frame.columns],
        format_func=lambda k: TITLES[k],
    )
    bars = kept(st.checkbox, "95% intervals on the map", "explore-intervals", True)
    event = st.plotly_chart(
        _scatter(shown, colour, bars, design),
        on_select="rerun",
        selection_mode="points",
        key="explore-map",
    )
    st.caption(
        "Bars: each track's 95% interval of its mean length (across) and of its unfairness "
        "(up and down)." + (f" {design.caption}" if design is not None else "")
    )
    picked = common.clicked(event, 1)
    if picked is not None:
        st.session_state["explore-rank"] = int(picked[0])
    in_table = tracks_table(shown, TITLES)
    if in_table is not None:
        st.session_state["explore-rank"] = in_table
    rank = st.session_state.get("explore-rank")
    if rank is not None and rank in set(frame["rank"]):
        _show_track(frame[frame["rank"] == rank].iloc[0].to_dict(), plan)


def _sweep_players(folder: Path) -> int | None:
    try:
        plan = read_manifest(folder)
    except TrackkitError:  # the page says what is wrong once the sweep is chosen
        return None
    return None if plan is None else plan.players


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


FAIREST = 200  # the fairest tracks a tie group is looked for among


def fairest_tie(frame: Any) -> str | None:
    """The tracks tied with the fairest of ``frame`` (unfairness told apart at 95% by their
    intervals, Holm-corrected), in words; None without unfairness intervals."""
    if frame.empty or "unfairness_low" not in frame.columns:
        return None
    best = frame.sort_values("unfairness").head(FAIREST)
    groups = row_tie_groups(best.to_dict("records"), "unfairness", descending=False)
    if not groups:
        return None
    group = groups[0]
    ranks = ", ".join(f"#{r}" for r in group[:12]) + (" …" if len(group) > 12 else "")
    if len(group) == 1:
        return f"The fairest track, #{group[0]}, is told apart from every other shown."
    more = f" (at least; among the {FAIREST} fairest)" if len(group) == len(best) else ""
    return (
        f"The fairest tracks are tied within noise: {len(group):,}{more} cannot be told apart "
        f"from the fairest (told apart at 95% by their intervals, Holm): {ranks}."
    )


def _filtered(frame: Any) -> Any:
    """The rows within the length and unfairness ranges the sliders ask for."""
    left, right = st.columns(2)
    low, high = float(frame["rounds_mean"].min()), float(frame["rounds_mean"].max())
    if high > low:
        length = left.slider(
            "Mean length (rounds)", low, high, (low, high), step=0.1, key="explore-length"
        )
        frame = frame[frame["rounds_mean"].between(*length)]
    top = max(1.0, float(math.ceil(float(frame["unfairness"].max()))))
    most = right.slider(
        "Unfairness at most (points)", 0.0, top, top, step=0.1, key="explore-unfairness"
    )
    return frame[frame["unfairness"] <= most]


def _scatter(frame: Any, colour: str, bars: bool, design: DesignMark | None) -> go.Figure:
    """A WebGL scatter: length against unfairness, coloured by ``colour``, with each track's
    95% intervals as bars (``bars``, when the sweep has them); each point carries its rank.
    The design being edited, when known, is a marker of its own on top."""
    dots: dict[str, Any] = {
        "x": frame["rounds_mean"].tolist(),
        "y": frame["unfairness"].tolist(),
        "mode": "markers",
        "name": "tracks of the sweep",
        "customdata": frame[["rank"]].to_numpy().tolist(),
        "marker": {
            "color": frame[colour].tolist(),
            "colorscale": "Viridis",
            "size": 6,
            "colorbar": {"title": {"text": colour}},
        },
        "hovertemplate": "track #%{customdata[0]}<br>%{x:.2f} rounds, unfairness %{y:.1f}"
        "<extra></extra>",
    }
    if bars and {"rounds_mean_low", "unfairness_low"} <= set(frame.columns):
        dots["error_x"], dots["error_y"] = (
            interval_bars(
                *(frame[f"{key}{end}"].tolist() for end in ("", "_low", "_high")), **SWEEP_BARS
            )
            for key in ("rounds_mean", "unfairness")
        )
    figure = go.Figure(go.Scattergl(**dots))
    if design is not None:
        figure.add_trace(design.trace(bars))
    figure.update_layout(
        xaxis_title="Mean length (rounds)",
        yaxis_title="Unfairness (points from fair)",
        height=480,
        margin={"l": 10, "r": 10, "t": 10, "b": 10},
        showlegend=design is not None,
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.0},
        # a drag zooms into a dense part of the map; with dragmode "select" Streamlit leaves
        # Plotly's clickmode at "event", and a click on a dot selected nothing (a browser
        # test caught it)
        dragmode="zoom",
    )
    return figure


def _show_track(row: dict[str, Any], plan: SweepPlan) -> None:
    """The clicked track drawn, its figures with their intervals (and again with more
    races, once asked), and a way to open it on the Design page."""
    try:
        track = row_track(row, plan)
    except TrackkitError as error:
        st.error(said(error))
        return
    rank = int(row["rank"])
    st.subheader(track.name)
    left, right = st.columns([3, 2])
    try:
        left.plotly_chart(picture_figure(track), key="explore-picture")
    except TrackkitError as error:  # a drawing over the app's limits (a tampered sweep)
        left.warning(said(error))
    races = again_races(track, plan)
    again = _profiles().get(again_key(plan, rank, races)) if races else None
    swept = row.get("races")
    columns = {f"This sweep ({int(swept if _finite(swept) else plan.races):,} races)": row}
    if again is not None:
        columns[f"Again ({again.races:,} races)"] = again.values
    keys = [k for k in TITLES if any(_finite(values.get(k)) for values in columns.values())]
    if races:
        right.button(
            f"Profile again with {races:,} races",
            icon=":material/replay:",
            key="explore-again",
            on_click=st.session_state.__setitem__,
            args=(AGAIN_WANTED, rank),
            help=f"{races // plan.races}× the sweep's races (at most {AGAIN}×, within the "
            "app's limit), beside as many on the average track: narrower intervals",
        )
    else:
        right.caption("The app's limit allows no more races of this track than the sweep's.")
    if right.button("Open in Design", icon=":material/extension:", key="explore-open"):
        common.editor(track.game).open(track)
        # the count the track is legal for: at another, Design would call it illegal at once
        st.session_state[common.PLAYERS_KEY] = plan.players
        st.session_state[f"kept:{common.PLAYERS_KEY}"] = plan.players
        common.switch_page(_editor_page(track.game))
    if again is not None:
        right.markdown(plain(verdict(again)))
        right.caption(
            "Again: with the sweep's seed (its first races are the sweep's own) and the "
            "average track raced as often."
        )
    # every figure at once, across the page: the default height shows ten rows and hid
    # the rest behind a scroll bar of the table's own
    st.dataframe(
        figures_table(columns, keys, TITLES), hide_index=True, width="stretch", height="content"
    )


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not math.isnan(value)


# --- profiles run by the page: the design's, and a track's again with more races -----------


@st.cache_resource
def _profiles() -> dict[tuple[Any, ...], TrackProfile]:
    """Profiles this page ran, kept across visitors (the same track, plan and races give
    the same profile)."""
    return {}


def _plan_key(plan: SweepPlan) -> str:
    return json.dumps(plan.to_json(), sort_keys=True)


def design_key(plan: SweepPlan, track: Track) -> tuple[Any, ...]:
    return ("design", _plan_key(plan), track.to_toml())


def again_key(plan: SweepPlan, rank: int, races: int | None) -> tuple[Any, ...]:
    return ("again", _plan_key(plan), rank, races)


def design_row(frame: Any, plan: SweepPlan, track: Track) -> dict[str, Any] | None:
    """The sweep's row of ``track`` (the same placements, on the same tile set), or None
    when the sweep does not hold it."""
    folder = str(Path(track.tileset).resolve()) if track.tileset is not None else None
    if track.game != plan.game or folder != plan.tileset_folder or "placements" not in frame:
        return None
    codec = get_ruleset(plan.game).design_codec
    text = codec.encode(track) if codec is not None else None
    if text is None:
        return None
    found = frame[frame["placements"] == text]
    return None if found.empty else found.iloc[0].to_dict()


def again_races(track: Track, plan: SweepPlan) -> int | None:
    """The races of a track profiled again: :data:`AGAIN` × the sweep's, fewer when the
    app's limit (with the average track raced as often) allows fewer; None when it allows no
    more than the sweep's."""
    options = profile_options(get_ruleset(plan.game), plan.players, plan.content)
    races = min(AGAIN * plan.races, profile_races_allowed(track, options, most=None))
    return races if races > plan.races else None


def profile_like_sweep(
    track: Track, plan: SweepPlan, races: int, progress: Progress, precision: float | None = None
) -> TrackProfile:
    """``track`` profiled as the sweep of ``plan`` profiles its tracks (its players,
    options, seed and exact figures, the average track raced as often) with ``races`` races, and
    with ``precision`` (the sweep's) racing on as the sweep would; ``progress`` counts the
    track's first races."""
    options = profile_options(get_ruleset(plan.game), plan.players, plan.content)
    result = simulate(track, options, races=races, seed=plan.seed, progress=progress)
    settings = replace(
        plan.profile,
        races=races,
        max_races=max(races, plan.max_races) if precision else races,
        precision=precision,
    )
    return profile_track(track, settings, options=options, simulated=result)


def _heavy_work(frame: Any, plan: SweepPlan, mine: tuple[Track, Any] | None) -> None:
    """The page's one heavy run at a time, followed here with its progress and Cancel: a
    track profiled again when its button was pressed, else the design's profile when the
    map needs it (not again once cancelled or failed), else a run of this visitor's still
    going."""
    wanted = st.session_state.pop(AGAIN_WANTED, None)
    job: tuple[str, tuple[Any, ...], Track, int, float | None] | None = None
    if wanted is not None and wanted in set(frame["rank"]):
        try:
            track = row_track(frame[frame["rank"] == wanted].iloc[0].to_dict(), plan)
        except TrackkitError as error:
            st.error(said(error))
            return
        races = again_races(track, plan)
        if races:
            job = ("the profile again", again_key(plan, wanted, races), track, races, None)
    elif mine is not None and mine[1] is None:
        key, going = design_key(plan, mine[0]), heavy_runs().current(session_id())
        wanted_design = key not in _profiles() and st.session_state.get(DESIGN_SKIPPED) != key
        if wanted_design and (going is None or not going.live):
            job = ("your design's profile", key, mine[0], plan.races, plan.precision)
    if job is None:
        heavy_run("", "races", None, False, lambda progress: None)  # one still going
        return
    what, key, track, races, precision = job
    options = profile_options(get_ruleset(plan.game), plan.players, plan.content)
    most = max(races, plan.max_races) if precision else races
    try:  # refused before it starts, with its reason
        check_profile_cost(track, options, most, most)
    except TrackkitError as error:
        st.warning(f"Not profiled: {error}")
        if key[0] == "design":  # not tried again on every rerun
            st.session_state[DESIGN_SKIPPED] = key
        return
    common.editor(plan.game).ready()

    def work(progress: Progress) -> None:
        profile = profile_like_sweep(track, plan, races, progress, precision)
        progress(races, races)  # cancelled while the average track was raced: keep nothing
        profiles = _profiles()
        while len(profiles) >= KEEP_PROFILES:
            profiles.pop(next(iter(profiles)))
        profiles[key] = profile

    run = heavy_run(what, "races", key, True, work)
    if run is not None and run.key == key and run.state in ("cancelled", "failed"):
        st.session_state[DESIGN_SKIPPED] = key


@dataclass(frozen=True)
class DesignMark:
    """The design being edited on the map: the figures of its row of the sweep (``rank``)
    or of its own profile (``rank`` None), and its name."""

    values: dict[str, Any]
    rank: int | None
    name: str

    @property
    def caption(self) -> str:
        v = self.values
        length = with_interval(
            v["rounds_mean"], v.get("rounds_mean_low"), v.get("rounds_mean_high"), "{:.2f}"
        )
        unfair = with_interval(
            v["unfairness"], v.get("unfairness_low"), v.get("unfairness_high"), "{:.1f}"
        )
        figures = f"{length} rounds, unfairness {unfair} points"
        name = plain(escaped(self.name, 80))
        if self.rank is not None:
            return f"Ringed: your design, {name}, is track #{self.rank} of this sweep: {figures}."
        return (
            f"Red diamond: your design, {name}, is not in this sweep; profiled like its "
            f"tracks: {figures}."
        )

    def trace(self, bars: bool) -> go.Scattergl:
        v = self.values
        if self.rank is not None:  # a ring around its own dot
            marker = {"symbol": "circle-open", "size": 20, "color": DESIGN_COLOUR}
            marker["line"] = {"color": DESIGN_COLOUR, "width": 3}
        else:
            marker = {"symbol": "diamond", "size": 16, "color": DESIGN_COLOUR}
            marker["line"] = {"color": "white", "width": 1.5}
        extra: dict[str, Any] = {}
        if bars:
            extra["error_x"], extra["error_y"] = (
                interval_bars(
                    *([v.get(f"{key}{end}", math.nan)] for end in ("", "_low", "_high")),
                    color=DESIGN_COLOUR,
                )
                for key in ("rounds_mean", "unfairness")
            )
        if self.rank is not None:  # a click on it picks its track, as on its dot
            extra["customdata"] = [[self.rank]]
        return go.Scattergl(
            x=[v["rounds_mean"]],
            y=[v["unfairness"]],
            mode="markers",
            name="your design" + (" (in this sweep)" if self.rank is not None else ""),
            marker=marker,
            hovertemplate="your design<br>%{x:.2f} rounds, unfairness %{y:.1f}<extra></extra>",
            **extra,
        )


def _design_mark(frame: Any, plan: SweepPlan) -> DesignMark | None:
    """Where the design being edited goes on the map (its profile run first when the sweep
    does not hold it); None without a complete design or its profile."""
    track, _ = common.editor(plan.game).current()
    mine = None if track is None else (track, design_row(frame, plan, track))
    _heavy_work(frame, plan, mine)
    if mine is None:
        return None
    track, row = mine
    if row is not None:
        return DesignMark(row, int(row["rank"]), track.name)
    profile = _profiles().get(design_key(plan, track))
    return None if profile is None else DesignMark(profile.values, None, track.name)


def _editor_page(game: str) -> Any:
    """The page of ``game``'s editor, from the navigation."""
    return common.page_at(common.editor(game).path)
