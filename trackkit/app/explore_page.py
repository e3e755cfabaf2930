"""Explore: a sweep of a game's legal tracks as a map, by default of length against
unfairness, each dot with its 95% intervals, its axes and colour chosen among the sweep's
figures and the designs' own numbers (Snow Tails' ``design_spaces``…); filter it, click a
track to see it drawn with its profile, profile it again with more races, and open it on
its game's Design page. The design being edited is marked: its dot when the sweep holds
it, else its own profile, raced like the sweep's tracks. One page per game with a space of
legal tracks (``ruleset.track_space``); it maps that game's sweeps only.

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
from dataclasses import replace
from pathlib import Path
from typing import Any

import streamlit as st

from trackkit.app import common
from trackkit.app.choices import kept
from trackkit.app.explore_map import TITLES as TITLES  # the figures' titles, as the map's
from trackkit.app.explore_map import (
    DesignMark,
    bars_caption,
    choose_axes,
    scatter,
    sweep_titles,
    widget_key,
)
from trackkit.app.explore_table import tracks_table
from trackkit.app.fairness import figures_table, plain
from trackkit.app.runs import (
    Progress,
    check_profile_cost,
    heavy_run,
    heavy_runs,
    profile_races_allowed,
    session_id,
)
from trackkit.app.small_sweep import offer_small_sweep, page_players, small_sweep_players
from trackkit.errors import PROBLEM_LIMIT, LocatedError, TrackkitError
from trackkit.errors import shown as escaped
from trackkit.explore.fairness import reference_words
from trackkit.explore.find import row_track
from trackkit.explore.profile import TrackProfile, profile_options, profile_track
from trackkit.explore.sweep import SweepPlan, read_manifest, read_sweep
from trackkit.games import get_ruleset
from trackkit.games.face import Game, look_of
from trackkit.games.tilekit.track import Track
from trackkit.render import picture_figure
from trackkit.report.orderings import row_tie_groups
from trackkit.report.verdict import verdict
from trackkit.sim.montecarlo import simulate

SWEEPS_VARIABLE = "TRACKKIT_APP_SWEEPS"
AGAIN = 5  # a track profiled again races this many times the sweep's races (within limits)
KEEP_PROFILES = 32


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


def page(game: Game) -> None:
    """The Explore page of ``game``."""
    ruleset = game.ruleset
    st.title(f"Explore {ruleset.title} tracks")
    st.write(
        f"Every dot is a legal {ruleset.title} track, profiled by a sweep (`trackkit sweep "
        f"--game {ruleset.name}`): by default its mean length against its unfairness (how far "
        "the track moves a racer's chance of winning from fair, in points, against an average "
        "track and the fair share; 0 is fair). Choose what goes across, up and in colour "
        "among the sweep's figures and the designs' own numbers. Click a dot to see the track."
    )
    opened = _open_sweep(game)
    if opened is not None:
        _explore(*opened)


def _open_sweep(game: Game) -> tuple[SweepPlan, Any] | None:
    """The sweep the reader chooses, its plan and its finished rows; None with the reason
    shown (no sweep, one that cannot be read, another game's), and a small sweep offered
    where none fits."""
    found = named_sweeps(sweeps_roots())
    if not found:
        st.info(
            "No sweep here yet (the person running the server may set "
            f"{SWEEPS_VARIABLE} to look elsewhere)."
        )
        offer_small_sweep(sweeps_root(), game.name)
        return None
    names, count = list(found), page_players(game.name)
    of = {name: _sweep_of(folder) for name, folder in found.items()}
    mine = [name for name in names if of[name] is not None and of[name][0] == game.name]
    fits = [name for name in mine if of[name][1] == count]
    name = kept(
        st.selectbox,
        "Sweep",
        widget_key(game.name, "sweep"),
        next(iter(fits or mine or names)),
        options=names,
        format_func=lambda n: _sweep_label(n, of.get(n)),
    )
    folder = found[name if name in found else names[0]]
    try:
        plan = read_manifest(folder)
        if plan is None:
            st.error(f"This sweep ({escaped(folder.name)}) holds no sweep.json.")
            return None
        if plan.game != game.name:
            _another_game(folder, plan, game, offer=not mine)
            return None
        frame, done, planned = _rows(str(folder), _stamp(folder))
    except TrackkitError as error:
        st.error(said(error))
        return None
    racers = game.look.racers.lower()
    st.caption(
        f"{plan.players} {racers}, {len(frame):,} tracks profiled with {plan.races:,} races "
        f"each (seed {plan.seed})"
        + ("" if done == planned else f"; {done} of {planned} parts")
        + f", each against an average track: {reference_words(game.ruleset, plan.players)}."
    )
    if count is not None and plan.players != count:
        st.warning(
            f"This sweep holds {plan.players}-player tracks, swept for {plan.players} "
            f"{racers}; your count of {racers} (Design, Race, Compare) is {count}. Choose a "
            f"sweep for {count} {racers}, or run one with `trackkit sweep --game {game.name} "
            f"--players {count}`.",
            icon=":material/group:",
        )
        swept = {of[n][1] for n in mine}
        if small_sweep_players(count, game.name) == count and count not in swept:
            with st.expander(f"Run a small sweep of {count}-player tracks"):
                offer_small_sweep(sweeps_root(), game.name)
    return plan, frame


def _sweep_of(folder: Path) -> tuple[str, int] | None:
    """The game and players of the sweep in ``folder`` (None when its manifest cannot be
    read: the page says what is wrong once the sweep is chosen)."""
    try:
        plan = read_manifest(folder)
    except TrackkitError:
        return None
    return None if plan is None else (plan.game, plan.players)


def _sweep_label(name: str, of: tuple[str, int] | None) -> str:
    """A sweep as the list of sweeps shows it: its name, game and players."""
    if of is None:
        return name
    try:
        title = get_ruleset(of[0]).title
    except TrackkitError:  # a game this trackkit does not know: said once it is chosen
        return name
    return f"{name} · {title}, {of[1]} players"


def _another_game(folder: Path, plan: SweepPlan, game: Game, *, offer: bool) -> None:
    """Refuse the sweep of ``plan``, of another game than the page's, saying why (and
    offering a small sweep of the page's game when there is none)."""
    title = game.title
    try:
        theirs = get_ruleset(plan.game).title
    except TrackkitError:
        theirs = f"another game's ({escaped(plan.game, 40)})"
    st.error(
        f"This sweep ({escaped(folder.name)}) holds {theirs} tracks; this page explores "
        f"{title} tracks. Choose a sweep of {title} tracks, or run one with `trackkit sweep "
        f"--game {game.name}` (see `trackkit sweep --help`)."
    )
    if offer:
        with st.expander(f"Run a small sweep of {title} tracks"):
            offer_small_sweep(sweeps_root(), game.name)


def _explore(plan: SweepPlan, frame: Any) -> None:
    """The map of the sweep's tracks, its filters and table, and the track picked."""
    game = plan.game
    if frame.empty:
        st.info("The sweep has no finished tracks yet.")
        return
    titles = sweep_titles(game, frame)
    design = _design_mark(frame, plan)
    shown = _filtered(frame, game)
    st.caption(f"{len(shown):,} of {len(frame):,} tracks pass the filters")
    tied = fairest_tie(shown)
    if tied:
        st.caption(tied)
    axes, bars = choose_axes(game, frame, titles)
    marked = design if design is not None and design.on(axes) else None
    event = st.plotly_chart(
        scatter(shown, axes, titles, bars, marked),
        on_select="rerun",
        selection_mode="points",
        key=widget_key(game, "map"),
    )
    mark = f" {design.caption(axes, titles)}" if design is not None else ""
    st.caption(bars_caption(frame, axes, titles) + mark)
    chosen = widget_key(game, "rank")
    picked = common.clicked(event, 1)
    if picked is not None:
        st.session_state[chosen] = int(picked[0])
    in_table = tracks_table(shown, titles, game, axes[:2])
    if in_table is not None:
        st.session_state[chosen] = in_table
    rank = st.session_state.get(chosen)
    if rank is not None and rank in set(frame["rank"]):
        _show_track(frame[frame["rank"] == rank].iloc[0].to_dict(), plan, titles)


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


def _filtered(frame: Any, game: str) -> Any:
    """The rows within the length and unfairness ranges the sliders ask for."""
    left, right = st.columns(2)
    low, high = float(frame["rounds_mean"].min()), float(frame["rounds_mean"].max())
    if high > low:
        length = left.slider(
            "Mean length (rounds)",
            low,
            high,
            (low, high),
            step=0.1,
            key=widget_key(game, "length"),
        )
        frame = frame[frame["rounds_mean"].between(*length)]
    top = max(1.0, float(math.ceil(float(frame["unfairness"].max()))))
    most = right.slider(
        "Unfairness at most (points)", 0.0, top, top, step=0.1, key=widget_key(game, "unfairness")
    )
    return frame[frame["unfairness"] <= most]


def _show_track(row: dict[str, Any], plan: SweepPlan, titles: dict[str, str]) -> None:
    """The clicked track drawn (by its game's scene), its figures with their intervals (and
    again with more races, once asked), and a way to open it on its game's Design page."""
    game = plan.game
    try:
        track = row_track(row, plan)
    except TrackkitError as error:
        st.error(said(error))
        return
    rank = int(row["rank"])
    st.subheader(track.name)
    left, right = st.columns([3, 2])
    try:
        left.plotly_chart(picture_figure(track), key=widget_key(game, "picture"))
    except TrackkitError as error:  # a drawing over the app's limits (a tampered sweep)
        left.warning(said(error))
    races = again_races(track, plan)
    again = _profiles().get(again_key(plan, rank, races)) if races else None
    swept = row.get("races")
    columns = {f"This sweep ({int(swept if _finite(swept) else plan.races):,} races)": row}
    if again is not None:
        columns[f"Again ({again.races:,} races)"] = again.values
    keys = [k for k in titles if any(_finite(values.get(k)) for values in columns.values())]
    if races:
        right.button(
            f"Profile again with {races:,} races",
            icon=":material/replay:",
            key=widget_key(game, "again"),
            on_click=st.session_state.__setitem__,
            args=(widget_key(game, "again-wanted"), rank),
            help=f"{races // plan.races}× the sweep's races (at most {AGAIN}×, within the "
            "app's limit), beside as many on the average track: narrower intervals",
        )
    else:
        right.caption("The app's limit allows no more races of this track than the sweep's.")
    if common.has_editor(game) and right.button(
        "Open in Design", icon=":material/extension:", key=widget_key(game, "open")
    ):
        _open_in_design(track, plan)
    if again is not None:
        right.markdown(plain(verdict(again)))
        right.caption(
            "Again: with the sweep's seed (its first races are the sweep's own) and the "
            "average track raced as often."
        )
    # every figure at once, across the page: the default height shows ten rows and hid
    # the rest behind a scroll bar of the table's own
    st.dataframe(
        figures_table(columns, keys, titles), hide_index=True, width="stretch", height="content"
    )


def _open_in_design(track: Any, plan: SweepPlan) -> None:
    """``track`` opened in its game's editor (an edit Undo takes back), at the player count
    it was swept for (at another, Design could call it illegal at once), and its page."""
    common.editor(track.game).open(track)
    players = f"{look_of(track.game).address}{common.PLAYERS_KEY}"
    st.session_state[players] = plan.players
    st.session_state[f"kept:{players}"] = plan.players
    common.switch_page(_editor_page(track.game))


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


def design_key(plan: SweepPlan, track: Any) -> tuple[Any, ...]:
    return ("design", _plan_key(plan), track.to_toml())


def again_key(plan: SweepPlan, rank: int, races: int | None) -> tuple[Any, ...]:
    return ("again", _plan_key(plan), rank, races)


def design_row(frame: Any, plan: SweepPlan, track: Any) -> dict[str, Any] | None:
    """The sweep's row of ``track`` (the same design, as the game's codec writes it, and for
    a track of tiles the same tile set), or None when the sweep does not hold it or the
    game cannot tell which design a track is (a Snow Tails board)."""
    tiles = track.tileset if isinstance(track, Track) else None
    folder = str(Path(tiles).resolve()) if tiles is not None else None
    if track.game != plan.game or folder != plan.tileset_folder or "placements" not in frame:
        return None
    codec = get_ruleset(plan.game).design_codec
    text = codec.encode(track) if codec is not None else None
    if text is None:
        return None
    found = frame[frame["placements"] == text]
    return None if found.empty else found.iloc[0].to_dict()


def again_races(track: Any, plan: SweepPlan) -> int | None:
    """The races of a track profiled again: :data:`AGAIN` × the sweep's, fewer when the
    app's limit (with the average track raced as often) allows fewer; None when it allows no
    more than the sweep's."""
    options = profile_options(get_ruleset(plan.game), plan.players, plan.content)
    races = min(AGAIN * plan.races, profile_races_allowed(track, options, most=None))
    return races if races > plan.races else None


def profile_like_sweep(
    track: Any, plan: SweepPlan, races: int, progress: Progress, precision: float | None = None
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


def _heavy_work(frame: Any, plan: SweepPlan, mine: tuple[Any, Any] | None) -> None:
    """The page's one heavy run at a time, followed here with its progress and Cancel: a
    track profiled again when its button was pressed, else the design's profile when the
    map needs it (not again once cancelled or failed), else a run of this visitor's still
    going."""
    skipped = widget_key(plan.game, "design-skipped")  # a design profile cancelled or failed
    wanted = st.session_state.pop(widget_key(plan.game, "again-wanted"), None)
    job: tuple[str, tuple[Any, ...], Any, int, float | None] | None = None
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
        wanted_design = key not in _profiles() and st.session_state.get(skipped) != key
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
            st.session_state[skipped] = key
        return
    if common.has_editor(plan.game):
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
        st.session_state[skipped] = key


def _design_mark(frame: Any, plan: SweepPlan) -> DesignMark | None:
    """Where the design being edited goes on the map (its profile run first when the sweep
    does not hold it); None without a complete design or its profile."""
    if not common.has_editor(plan.game):  # a game with no Design page: no design of yours
        return None
    track, _ = common.editor(plan.game).current()
    mine = None if track is None else (track, design_row(frame, plan, track))
    _heavy_work(frame, plan, mine)
    if mine is None:
        return None
    track, row = mine
    if row is not None:
        return DesignMark(row, int(row["rank"]), track.name)
    profile = _profiles().get(design_key(plan, track))
    if profile is None:
        return None
    codec = get_ruleset(plan.game).design_codec  # can it tell the design's row of a sweep?
    findable = codec is not None and codec.encode(track) is not None
    return DesignMark(profile.values, None, track.name, findable)


def _editor_page(game: str) -> Any:
    """The page of ``game``'s editor, from the navigation."""
    return common.page_at(common.editor(game).path)
