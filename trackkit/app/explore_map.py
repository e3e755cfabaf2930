"""The Explore page's map: which of a sweep's columns it can draw (titled), the axes and
colour the reader chooses among them, the scatter of the sweep's tracks with their 95%
intervals, and the design being edited marked on it. Nothing here knows a game: the
columns are whatever the sweep holds, titled by the profile's figures, the game's tallies
and the space's own numbers (Snow Tails' ``design_spaces``…)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, NamedTuple

import plotly.graph_objects as go
import streamlit as st

from trackkit.app.choices import kept
from trackkit.app.fairness import interval_bars, plain, with_interval
from trackkit.errors import shown as escaped
from trackkit.explore.profile import FIGURES, START_FIGURES
from trackkit.games import get_ruleset
from trackkit.games.face import look_of

TITLES = {f.key: f.title for f in FIGURES}
# a start figure's words for a game that does not name its start group (Yummell's order
# of first moves; a game with a profile_spec names it: Snow Tails' start slots)
START_WORDS = {"start": "start position", "starts": "start positions"}
NOT_FIGURES = ("rank", "players", "seed", "races")  # numbers of a row that say how it was made
SHORT = {"rounds_mean": "Mean length (rounds)", "unfairness": "Unfairness (points from fair)"}
DESIGN_COLOUR = "#c0392b"
SWEEP_BARS = {"color": "rgba(80, 80, 80, 0.35)", "thickness": 1, "width": 0}  # many, faint


def widget_key(game: str, name: str) -> str:
    """The key of the Explore page's widget ``name`` on ``game``'s page (``explore-rank``,
    ``snow-explore-rank``): each game's page keeps its own choices."""
    return f"{look_of(game).address}explore-{name}"


class MapAxes(NamedTuple):
    """The columns the map draws: across (``x``), up (``y``) and as the dots' colour."""

    x: str
    y: str
    colour: str


DEFAULT_AXES = MapAxes("rounds_mean", "unfairness", "lead_changes")


def _numeric(frame: Any, key: str) -> bool:
    return (
        key in frame.columns
        and frame[key].dtype.kind in "fiu"
        and bool(frame[key].notna().any())
        and not key.endswith(("_low", "_high"))
    )


def _profile_titles(game: str) -> dict[str, str]:
    """The titles of every figure a profile of ``game`` may have: :data:`TITLES`, the start
    figures and the game's tallies."""
    spec = get_ruleset(game).profile_spec
    words = (
        {"start": spec.start_noun, "starts": f"{spec.start_noun}s"}
        if spec is not None
        else START_WORDS
    )
    start = {f.key: f.title.format(**words) for f in START_FIGURES}
    tallies = {t.key: f"Per race: {t.title}" for t in get_ruleset(game).tallies}
    return {**tallies, **start, **TITLES}


def sweep_titles(game: str, frame: Any) -> dict[str, str]:
    """The title of each column of ``frame`` (a sweep of ``game``) a map can draw: its
    numeric columns with a value, intervals and bookkeeping left out. The profile's
    figures first, then its start figures and the game's tallies, then the numbers of
    the designs themselves (a space's features, Yummell's terrain), titled by their
    names."""
    known = _profile_titles(game)
    order = [*TITLES, *(f.key for f in START_FIGURES), *known]
    titles = {k: known[k] for k in dict.fromkeys(order) if _numeric(frame, k)}
    for key in frame.columns:
        if key not in titles and key not in NOT_FIGURES and _numeric(frame, key):
            titles[key] = str(key).replace("_", " ").capitalize()
    return titles


def own_numbers(game: str, titles: dict[str, str]) -> list[str]:
    """The columns of ``titles`` that are the designs' own numbers, not a profile's."""
    known = _profile_titles(game)
    return [key for key in titles if key not in known]


def default_axes(game: str, frame: Any, titles: dict[str, str]) -> MapAxes:
    """:data:`DEFAULT_AXES` where the sweep has them; else the first columns for the axes,
    and for the colour the design's own number that varies most (a space's features), else
    the first figure left."""
    keys = list(titles)
    x = DEFAULT_AXES.x if DEFAULT_AXES.x in titles else keys[0]
    y = DEFAULT_AXES.y if DEFAULT_AXES.y in titles else next((k for k in keys if k != x), x)
    if DEFAULT_AXES.colour in titles:
        return MapAxes(x, y, DEFAULT_AXES.colour)
    own = [k for k in own_numbers(game, titles) if k not in (x, y)]
    if own:
        return MapAxes(x, y, max(own, key=lambda k: frame[k].nunique()))
    return MapAxes(x, y, next((k for k in keys if k not in (x, y)), y))


def choose_axes(game: str, frame: Any, titles: dict[str, str]) -> tuple[MapAxes, bool]:
    """The map's axes and colour, each chosen among the sweep's columns (``titles``), and
    whether to draw the intervals."""
    first = default_axes(game, frame, titles)
    options = list(titles)

    def titled(key: str) -> str:
        return titles.get(key, key)

    across, up, colour, bars = st.columns([3, 3, 3, 2], vertical_alignment="bottom")
    chosen = []
    for where, label, name, default in (
        (across, "Across", "x", first.x),
        (up, "Up", "y", first.y),
        (colour, "Colour by", "colour", first.colour),
    ):
        key = widget_key(game, name)
        for stale in (key, f"kept:{key}"):  # a column of another sweep: the default again
            if stale in st.session_state and st.session_state[stale] not in titles:
                del st.session_state[stale]
        picked = kept(where.selectbox, label, key, default, options=options, format_func=titled)
        chosen.append(picked if picked in titles else default)
    drawn = MapAxes(*chosen)
    intervals = kept(bars.checkbox, "95% intervals", widget_key(game, "intervals"), True)
    return drawn, bool(intervals)


def axis_title(key: str, titles: dict[str, str]) -> str:
    return SHORT.get(key, titles.get(key, key))


def scatter(
    frame: Any, axes: MapAxes, titles: dict[str, str], bars: bool, design: DesignMark | None
) -> go.Figure:
    """A WebGL scatter of ``frame``'s tracks on ``axes``, with each track's 95% intervals
    as bars (``bars``, where the sweep has them); each point carries its rank. The design
    being edited, when known, is a marker of its own on top."""
    dots: dict[str, Any] = {
        "x": frame[axes.x].tolist(),
        "y": frame[axes.y].tolist(),
        "mode": "markers",
        "name": "tracks of the sweep",
        "customdata": frame[["rank"]].to_numpy().tolist(),
        "marker": {
            "color": frame[axes.colour].tolist(),
            "colorscale": "Viridis",
            "size": 6,
            "colorbar": {"title": {"text": axes.colour}},
        },
        "hovertemplate": f"track #%{{customdata[0]}}<br>{_hover(axes, titles)}<extra></extra>",
    }
    if bars:
        for side, key in (("error_x", axes.x), ("error_y", axes.y)):
            if f"{key}_low" in frame.columns:
                ends = (frame[f"{key}{end}"].tolist() for end in ("", "_low", "_high"))
                dots[side] = interval_bars(*ends, **SWEEP_BARS)
    figure = go.Figure(go.Scattergl(**dots))
    if design is not None:
        figure.add_trace(design.trace(axes, titles, bars))
    figure.update_layout(
        xaxis_title=axis_title(axes.x, titles),
        yaxis_title=axis_title(axes.y, titles),
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


def _hover(axes: MapAxes, titles: dict[str, str]) -> str:
    """The hover text of a dot: its two figures, named."""
    if axes[:2] == DEFAULT_AXES[:2]:
        return "%{x:.2f} rounds, unfairness %{y:.1f}"
    words = [axis_title(k, titles) for k in axes[:2]]
    return f"{words[0]}: %{{x:.3g}}<br>{words[1]}: %{{y:.3g}}"


def bars_caption(frame: Any, axes: MapAxes, titles: dict[str, str]) -> str:
    """What the map's bars are, for the axes drawn."""
    if axes[:2] == DEFAULT_AXES[:2]:
        return (
            "Bars: each track's 95% interval of its mean length (across) and of its "
            "unfairness (up and down)."
        )
    sides = [
        f"of {titles.get(key, key)[:1].lower()}{titles.get(key, key)[1:]} ({where})"
        for key, where in ((axes.x, "across"), (axes.y, "up and down"))
        if f"{key}_low" in frame.columns
    ]
    if not sides:
        return "No bars: neither axis is a sampled figure (the designs' own numbers are exact)."
    return f"Bars: each track's 95% interval {' and '.join(sides)}."


@dataclass(frozen=True)
class DesignMark:
    """The design being edited on the map: the figures of its row of the sweep (``rank``)
    or of its own profile (``rank`` None), its name, and whether the sweep could be searched
    for it (``findable``: the game's design codec names a track's design)."""

    values: dict[str, Any]
    rank: int | None
    name: str
    findable: bool = True

    def on(self, axes: MapAxes) -> bool:
        """Whether the design has a value on both axes (a profile has none of the
        designs' own numbers)."""
        return all(_finite(self.values.get(key)) for key in axes[:2])

    def caption(self, axes: MapAxes, titles: dict[str, str]) -> str:
        name = plain(escaped(self.name, 80))
        if not self.on(axes):
            lacking = [
                axis_title(k, titles).lower() for k in axes[:2] if not _finite(self.values.get(k))
            ]
            missing = " or ".join(lacking)
            return f"Your design, {name}, is not on this map: its profile has no {missing}."
        figures = _figures(self.values, axes, titles)
        if self.rank is not None:
            return f"Ringed: your design, {name}, is track #{self.rank} of this sweep: {figures}."
        if self.findable:
            return (
                f"Red diamond: your design, {name}, is not in this sweep; profiled like its "
                f"tracks: {figures}."
            )
        return f"Red diamond: your design, {name}, profiled like the sweep's tracks: {figures}."

    def trace(self, axes: MapAxes, titles: dict[str, str], bars: bool) -> go.Scattergl:
        v = self.values
        if self.rank is not None:  # a ring around its own dot
            marker = {"symbol": "circle-open", "size": 20, "color": DESIGN_COLOUR}
            marker["line"] = {"color": DESIGN_COLOUR, "width": 3}
        else:
            marker = {"symbol": "diamond", "size": 16, "color": DESIGN_COLOUR}
            marker["line"] = {"color": "white", "width": 1.5}
        extra: dict[str, Any] = {}
        if bars:
            for side, key in (("error_x", axes.x), ("error_y", axes.y)):
                ends = ([v.get(f"{key}{end}", math.nan)] for end in ("", "_low", "_high"))
                extra[side] = interval_bars(*ends, color=DESIGN_COLOUR)
        if self.rank is not None:  # a click on it picks its track, as on its dot
            extra["customdata"] = [[self.rank]]
        return go.Scattergl(
            x=[v[axes.x]],
            y=[v[axes.y]],
            mode="markers",
            name="your design" + (" (in this sweep)" if self.rank is not None else ""),
            marker=marker,
            hovertemplate=f"your design<br>{_hover(axes, titles)}<extra></extra>",
            **extra,
        )


def _figures(values: dict[str, Any], axes: MapAxes, titles: dict[str, str]) -> str:
    """The design's values on the map's axes, each with its interval, in words."""

    def text(key: str, form: str) -> str:
        low, high = values.get(f"{key}_low"), values.get(f"{key}_high")
        return with_interval(values[key], low, high, form)

    if axes[:2] == DEFAULT_AXES[:2]:
        length, unfair = text("rounds_mean", "{:.2f}"), text("unfairness", "{:.1f}")
        return f"{length} rounds, unfairness {unfair} points"
    return ", ".join(f"{axis_title(k, titles).lower()} {text(k, '{:.3g}')}" for k in axes[:2])


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not math.isnan(value)
