"""How the pages show a profile (:mod:`trackkit.explore.profile`): its figures with their
95% intervals, the characters against an average track, the start paths against the fair
share, and win rates as bars with their intervals. Tables are lists of rows with plain
column names, ready for ``st.dataframe``.

>>> with_interval(0.9621, 0.95, 0.975, "{:.3f}")
'0.962 (0.950 – 0.975)'
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go

from trackkit.explore.profile import BY_KEY, TrackProfile, interval_keys, wilson

FAIR_LINE = "#c0392b"
AVERAGE_MARK = "#2c3e50"


_MARKDOWN = re.compile(r"([\\`*_\[\]{}<>$~|#])")


def plain(text: str) -> str:
    """``text`` for ``st.markdown`` as written: a track's name may hold ``*``, ``$`` or
    ``[``, which Markdown would read as emphasis, mathematics or a link."""
    return _MARKDOWN.sub(r"\\\1", text)


def with_interval(value: float, low: float | None, high: float | None, form: str) -> str:
    """``value`` in ``form`` and, when known, its 95% interval after it."""
    text = form.format(value)
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return text
    return f"{text} ({form.format(low)} – {form.format(high)})"


def figure_text(values: dict[str, Any], key: str) -> str:
    """A profile figure as a page shows it: with its 95% interval when it is sampled, with
    "exact" when it has no sampling error, alone when it is the track's own; "–" when it
    was not measured."""
    value = values.get(key)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    low, high = (values.get(k) for k in interval_keys(key))
    shown = [v for v in (value, low, high) if v is not None and not math.isnan(v)]
    whole = all(float(v).is_integer() for v in shown)  # counts: squares, percentiles
    form = "{:,.0f}" if whole or abs(value) >= 1000 else "{:.3f}"
    figure = BY_KEY.get(key)
    if figure is not None and figure.kind == "exact":
        return f"{form.format(value)} (exact)"
    return with_interval(value, low, high, form)


def figures_table(
    columns: dict[str, dict[str, Any]], keys: list[str], titles: dict[str, str]
) -> list[dict[str, str]]:
    """One row per figure of ``keys`` (titled by ``titles``), one column per profile in
    ``columns`` (its heading -> its values), each figure with its interval."""
    return [
        {"Figure": titles.get(key, key), **{h: figure_text(v, key) for h, v in columns.items()}}
        for key in keys
    ]


def percent(share: float | None) -> str:
    return "–" if share is None else f"{100 * share:.1f}%"


def points(share: float | None) -> str:
    return "–" if share is None else f"{100 * share:+.1f}"


def characters_table(profile: TrackProfile) -> list[dict[str, Any]]:
    """Per character raced: races entered, win rate here with its interval, on an average
    track, the difference in points with its interval, and its exact solo rounds when the
    profile has them."""
    solo = profile.details.get("character_rounds") or {}
    rows = against_average_table(profile.details.get("characters", []), "Character")
    if solo:
        for line in rows:
            name = line["Character"]
            line["Exact solo rounds"] = f"{solo[name]:.2f}" if name in solo else "–"
    return rows


def against_average_table(
    measured: list[dict[str, Any]], label: str, entered: str = "Races entered"
) -> list[dict[str, Any]]:
    """Per label of a group a profile measured against an average track (its rows, as
    :func:`~trackkit.explore.fairness.group_fairness` gives them) and raced here: how often
    it entered (the column ``entered``), its win rate here with its interval, on an average
    track, and the difference in points with its interval."""
    rows = []
    for row in measured:
        if not row["entries"] or row["win_rate"] is None:
            continue
        low, high = wilson(row["win_rate"], row["entries"])
        rows.append(
            {
                label: row["name"],
                entered: row["entries"],
                "Win rate": percent(row["win_rate"]),
                "95% interval": f"{percent(low)} – {percent(high)}",
                "On an average track": percent(row["reference_win_rate"]),
                "Difference (points)": points(row["difference"]),
                "Difference, 95%": f"{points(row['difference_low'])} to "
                f"{points(row['difference_high'])}",
            }
        )
    return rows


def start_paths_table(profile: TrackProfile) -> list[dict[str, Any]]:
    """Per start path: its exact solo rounds (the reference racer, when the profile has
    them), the racers that started on it, their win rate with its interval, and the fair
    share."""
    exact = profile.details.get("path_rounds") or {}
    raced = {r["name"]: r for r in profile.details.get("start_paths", [])}
    rows = []
    for name in list(exact) + [n for n in raced if n not in exact]:
        line: dict[str, Any] = {"Start path": name}
        if exact:
            line["Exact solo rounds"] = f"{exact[name]:.2f}" if name in exact else "–"
        row = raced.get(name)
        line["Racers started"] = row["entries"] if row else 0
        line["Win rate"] = percent(row["win_rate"]) if row else "–"
        line["95% interval"] = (
            f"{percent(row['win_rate_low'])} – {percent(row['win_rate_high'])}" if row else "–"
        )
        line["Fair share"] = percent(1 / profile.players)
        rows.append(line)
    return rows


def interval_bars(
    values: Sequence[float], lows: Sequence[float], highs: Sequence[float], **style: Any
) -> dict[str, Any]:
    """Plotly's error bars for ``values`` from their 95% intervals (``lows``-``highs``;
    none drawn where an interval is not known), in ``style`` (``color``, ``thickness``…)."""

    def gap(a: float, b: float) -> float:
        return 0.0 if a is None or b is None or math.isnan(a) or math.isnan(b) else a - b

    return {
        "type": "data",
        "symmetric": False,
        "array": [gap(h, v) for v, h in zip(values, highs, strict=True)],
        "arrayminus": [gap(v, lo) for v, lo in zip(values, lows, strict=True)],
        **style,
    }


def rate_interval(row: dict[str, Any]) -> tuple[float, float] | None:
    """A win-rate row's 95% interval: its own, or Wilson's from its entries; None when
    it was never raced."""
    if row.get("win_rate") is None or not row.get("entries"):
        return None
    if "win_rate_low" in row:
        return row["win_rate_low"], row["win_rate_high"]
    return wilson(row["win_rate"], row["entries"])


def win_rates_figure(rows: list[dict[str, Any]], title: str, players: int) -> go.Figure:
    """Horizontal bars of win rates with their 95% intervals and the fair share
    (1 ÷ players) marked; rows with a ``reference_win_rate`` also show it, as the rate on
    an average track."""
    rates = [r["win_rate"] or 0.0 for r in rows]  # None: never in that seat
    intervals = [rate_interval(r) or (rate, rate) for r, rate in zip(rows, rates, strict=True)]
    figure = go.Figure(
        go.Bar(
            x=rates,
            y=[r["name"] for r in rows],
            orientation="h",
            text=[percent(r["win_rate"]) for r in rows],
            textposition="inside",
            insidetextanchor="start",
            name="win rate (95% interval)",
            error_x=interval_bars(rates, *zip(*intervals, strict=True)),
        )
    )
    fair = 1 / players
    highest = max(fair, *(high for _, high in intervals))
    if any("reference_win_rate" in r for r in rows):
        average = [r.get("reference_win_rate") for r in rows]
        figure.add_trace(
            go.Scatter(
                x=average,
                y=[r["name"] for r in rows],
                mode="markers",
                name="on an average track",
                marker=dict(symbol="diamond", size=11, color=AVERAGE_MARK),
            )
        )
        highest = max(highest, *(a for a in average if a is not None))
    figure.add_vline(
        x=fair,
        line_dash="dash",
        line_color=FAIR_LINE,
        annotation_text=f"fair share 1 ÷ {players} = {percent(fair)}",
        annotation_position="top",
    )
    figure.update_layout(
        title=title,
        height=max(260, 60 + 34 * len(rows)),
        xaxis=dict(tickformat=".0%", range=[0, highest * 1.1]),
        # a label each bar, even a number (Snow Tails' start slots): Plotly would make a
        # scale of numbers and label every other one
        yaxis=dict(autorange="reversed", type="category"),
        margin=dict(t=70),
        legend=dict(orientation="h", yanchor="top", y=-0.15),
    )
    return figure
