"""Compare, for every game: its presets and the design being edited, side by side, every
track raced with the same seed.

The page knows no game: the tracks are the game's presets and its editor's design
(:func:`trackkit.app.common.editor`), the figures its face's ``compare``. A game adds
what only it has through a :class:`CompareView` in its ``pages`` package (Yummell: exact
solo figures kept across runs, balance against an average track, its chart; Snow Tails:
its table's columns and one bar per track).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from trackkit.app import common
from trackkit.app.choices import kept, players_slider
from trackkit.app.robust_section import robust_section
from trackkit.errors import TrackkitError
from trackkit.games.base import get_ruleset
from trackkit.games.face import Game

YOURS = "current design"  # the key of the design being edited among the tracks
KEEP_RUNS = 8
BAR = "#7f8c8d"
YOUR_BAR = "#c0392b"

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class CompareView:
    """What a game adds to the Compare page, every part optional.

    ``title`` and ``caption``: the page's heading and what the figures are;
    ``options(players)``: the race options every track is raced with (default: the
    face's, for the game's first policy); ``before(tracks, players)``: notes above the
    button (a warning); ``check(tracks, options, races)``: refuses, with its reason, a
    comparison over the app's limit; ``on_start()``: run before the races (the engine's
    warm-up); ``run(tracks, options, races, seed, progress)``: the rows (default: the
    face's ``compare``); ``show(rows)``: draws them (default: a table and one bar per
    track, :func:`length_figure`); ``show`` is given the races per track too.
    """

    title: str | None = None
    caption: str = ""
    options: Callable[[int], Any] | None = None
    before: Callable[[list[Any], int], None] | None = None
    check: Callable[[Mapping[str, Any], Any, int], None] | None = None
    on_start: Callable[[], None] | None = None
    run: Callable[[Mapping[str, Any], Any, int, int, Progress], list[Any]] | None = None
    show: Callable[[list[Any], int], None] | None = None


@st.cache_resource
def _runs() -> dict[tuple[Any, ...], list[Any]]:
    return {}


def page(game: Game, view: CompareView | None = None) -> None:
    """The Compare page of ``game``, with the hooks ``view`` its pages add (none: the page
    alone)."""
    view = CompareView() if view is None else view
    ruleset, look = game.ruleset, game.look
    key = f"{look.address}compare"
    st.title(view.title or f"Compare {ruleset.title} tracks")
    if view.caption:
        st.caption(view.caption)
    mine, chosen = _tracks(game, key)
    left, right = st.columns(2)
    players = players_slider(left, game.name)
    races = kept(
        right.number_input,
        "Races per track",
        f"{key}-races",
        2_000,
        min_value=200,
        max_value=20_000,
        step=500,
    )
    seed = kept(right.number_input, "Seed", f"{key}-seed", 0, min_value=0, step=1)
    if not chosen:
        st.info("Choose at least one track.")
        return
    tracks = {k: mine if k == YOURS else ruleset.load_preset(k) for k in chosen}
    if view.before is not None:
        view.before(list(tracks.values()), players)
    run_key = (game.name, tuple((k, t.to_toml()) for k, t in tracks.items()), players, races, seed)
    runs = _runs()
    if st.button("Compare", type="primary", key=f"{key}-run") or run_key in runs:
        if run_key not in runs:
            rows = _compare(view, game, tracks, players, int(races), int(seed))
            if rows is not None:
                while len(runs) >= KEEP_RUNS:
                    runs.pop(next(iter(runs)))
                runs[run_key] = rows
        if run_key in runs:
            (view.show or _show)(runs[run_key], int(races))
    robust_section(game.name, tracks, players, int(seed), key)


def _tracks(game: Game, key: str) -> tuple[Any, list[str]]:
    """The design being edited when it can be raced, and the tracks chosen: the game's
    presets and the design, which joins the choice when it is completed and leaves it
    when it stops being valid."""
    ruleset = game.ruleset
    try:
        mine, why_not = common.editor(game.name).current()
    except TrackkitError:  # a game without an editor: its presets alone
        mine, why_not = None, ""
    copied = None if mine is None else _preset_texts(game.name).get(mine.to_toml())
    if copied is not None:  # a preset as it is (an exported copy): compared once, as itself
        mine, why_not = None, f"it is the preset {ruleset.load_preset(copied).name} as it stands"
    choices = [*ruleset.presets(), *([YOURS] if mine is not None else [])]
    offered = f"{key}-offered-design"
    earlier = st.session_state.get(f"{key}-tracks", st.session_state.get(f"kept:{key}-tracks"))
    if earlier is not None:
        earlier = [k for k in earlier if k in choices]
        if mine is not None and not st.session_state.get(offered):
            earlier.append(YOURS)
        st.session_state[f"{key}-tracks"] = earlier
    st.session_state[offered] = mine is not None
    chosen = kept(
        st.multiselect,
        "Tracks",
        f"{key}-tracks",
        choices,
        options=choices,
        format_func=lambda k: (
            "Your design (Design page)" if k == YOURS else ruleset.load_preset(k).name
        ),
    )
    if mine is None and why_not:
        st.caption(f"Your design is not among them: {why_not}.")
    return mine, list(chosen)


@cache
def _preset_texts(game: str) -> dict[str, str]:
    """Each preset of ``game`` by its track text: a design that is a preset's copy."""
    ruleset = get_ruleset(game)
    return {ruleset.load_preset(slug).to_toml(): slug for slug in ruleset.presets()}


def _compare(
    view: CompareView, game: Game, tracks: dict[str, Any], players: int, races: int, seed: int
) -> list[Any] | None:
    """Every track raced alike, with progress; None, with the reason shown, when the
    comparison is refused."""
    face = game.face
    try:
        if view.options is not None:
            options = view.options(players)
        else:
            policy = (game.ruleset.policies[0],)
            options = face.race_options(players, policy, None, {})
        if view.check is not None:
            view.check(tracks, options, races)
    except TrackkitError as error:
        st.error(str(error))
        return None
    if view.on_start is not None:
        view.on_start()
    bar = st.progress(0.0, text="Racing…")

    def progress(done: int, total: int) -> None:
        bar.progress(done / total, text=f"{done} of {total} tracks")

    try:
        if view.run is not None:
            return view.run(tracks, options, races, seed, progress)
        shown = face.compare(tracks, options, races=races, seed=seed, progress=progress)
        return list(shown.data)
    except TrackkitError as error:
        st.error(str(error))
        return None
    finally:
        bar.empty()


def labels(names: list[str], keys: list[str]) -> list[str]:
    """One name per track, told apart: the design is "(yours)", and two tracks of one name
    are numbered, so a chart gives each its own bar."""
    named = [n + (" (yours)" if k == YOURS else "") for n, k in zip(names, keys, strict=True)]
    seen: dict[str, int] = {}
    told = []
    for name in named:
        seen[name] = seen.get(name, 0) + 1
        told.append(name if named.count(name) == 1 else f"{name} ({seen[name]})")
    return told


def length_figure(names: list[str], keys: list[str], means: list[float], ci95: list[Any]) -> Any:
    """Each track's expected length with its 95% interval: one bar per track, the design
    in its own colour."""
    figure = go.Figure(
        go.Bar(
            x=means,
            y=labels(names, keys),
            orientation="h",
            marker_color=[YOUR_BAR if k == YOURS else BAR for k in keys],
            error_x=dict(
                type="data",
                array=[high - mean for mean, (_, high) in zip(means, ci95, strict=True)],
                arrayminus=[mean - low for mean, (low, _) in zip(means, ci95, strict=True)],
            ),
        )
    )
    figure.update_layout(
        title="Expected race length (rounds)",
        height=120 + 40 * len(means),
        yaxis=dict(autorange="reversed"),
    )
    return figure


def _show(rows: list[Any], races: int) -> None:
    """The face's rows as a table, and their lengths as bars when they have them."""
    data = [r.to_json() if hasattr(r, "to_json") else dict(r) for r in rows]
    st.dataframe(data, hide_index=True)
    if data and all("mean_rounds" in r for r in data):
        keys = [str(r.get("key", r.get("name"))) for r in data]
        names = [str(r.get("name", k)) for r, k in zip(data, keys, strict=True)]
        means = [float(r["mean_rounds"]) for r in data]
        ci95 = [r.get("ci95", (m, m)) for r, m in zip(data, means, strict=True)]
        st.plotly_chart(length_figure(names, keys, means, ci95), width="stretch")
