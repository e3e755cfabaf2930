"""What a tune run from the Tune page found, read back from its folder (``report.json``,
``report.md``, the tuned ``content`` and the tune file, as ``trackkit tune`` writes
them): met or not, what changed, each label's win share before and after with its
interval, the lengths, the downloads, and "Go on" to race more candidates.

The visitor never sees a path of the server: the tune's folder, the start folder and
the written content are named by what they are.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from trackkit.app.fairness import interval_bars
from trackkit.errors import TrackkitError
from trackkit.report.tune import MEANING, STOPPED, round_up
from trackkit.tune.search import SPEC_COPY

PAGE_NOTES = "page.json"  # what the page knows of a tune that its report does not: the start
BEFORE, AFTER = "#7f8c8d", "#2e86c1"
GOES_ON = ("budget", "time", "cancelled", "interrupted")  # stopped short of the targets
# why a tune stopped, in the page's words: the page goes on with its button
STOPPED_HERE = STOPPED | {
    "cancelled": "it was cancelled (Go on, below, goes on from there)",
    "interrupted": "it was interrupted (Go on, below, goes on from there)",
}


def write_notes(out: Path, start: str) -> None:
    """Note beside a tune's outputs what the page called its start."""
    (out / PAGE_NOTES).write_text(json.dumps({"start": start}) + "\n", encoding="utf-8")


def _notes(out: Path) -> dict[str, Any]:
    path = out / PAGE_NOTES
    return json.loads(path.read_text()) if path.exists() else {}


def _report(out: Path) -> dict[str, Any]:
    try:
        return dict(json.loads((out / "report.json").read_text()))
    except (OSError, ValueError):
        raise TrackkitError("the tune's report cannot be read; run the tune again") from None


def tune_file(out: Path) -> str:
    """The tune file of the tune in ``out``."""
    try:
        return (out / SPEC_COPY).read_text(encoding="utf-8")
    except OSError:
        raise TrackkitError("the tune's file is gone; run the tune again") from None


def game_of(out: Path) -> str:
    return str(_report(out)["game"])


def start_of(out: Path) -> Path:
    """The content folder the tune in ``out`` started from."""
    return Path(_report(out)["start_content"])


def start_label(out: Path) -> str:
    return str(_notes(out).get("start", "the start"))


def private(text: str, out: Path, report: dict[str, Any]) -> str:
    """``text`` with the server's paths replaced by what they are."""
    text = text.replace(str(out / "content"), "content (content.zip)")
    text = text.replace(str(report.get("start_content")), start_label(out))
    return text.replace(str(out), "the tune's folder")


def show(out: Path, key: str, go_on: str) -> None:
    """The tune in ``out`` as the page shows it (nothing before its report is written)."""
    if not (out / "report.json").exists():
        return
    try:
        report = _report(out)
    except TrackkitError as error:
        st.error(str(error))
        return
    st.header("What the tune found")
    _verdict(report, out)
    changed = len(report["changes"])
    st.subheader(f"What changed ({changed} value{'s' if changed != 1 else ''})")
    if report["changes"]:
        st.dataframe(
            [
                {"value": c["parameter"], "before": c["before"], "after": c["after"]}
                for c in report["changes"]
            ],
            hide_index=True,
        )
    else:
        st.write("Nothing: the starting content is the best found.")
    st.subheader("Win share minus fair share")
    st.plotly_chart(shares_figure(report), key=f"{key}-shares")
    st.caption(
        "Each label's worst row of the scope ("
        + str(report["targets"]["scope"])
        + ") before and after, in points, with its 95% interval, from the confirmation "
        "races; the band is the tolerance."
    )
    if report.get("others"):
        st.subheader("The labels no target names")
        st.dataframe(others_table(report), hide_index=True)
        st.caption(
            "Where each moved most from the start, in points with 95% intervals, from the "
            "confirmation races: with hold_others (the default) none may end further from "
            "its fair share than it started by more than the tolerance."
        )
    st.subheader("Mean race length (rounds)")
    st.dataframe(lengths_table(report), hide_index=True)
    _downloads(out, report, key)
    if report["stopped"] in GOES_ON and not report["met"]:
        _go_on(out, report, key, go_on)


def _verdict(report: dict[str, Any], out: Path) -> None:
    confirmation, search = report["confirmation"], report["search"]
    where = (
        f"in the confirmation: {confirmation['races']:,} races per track and player count "
        f"with seed {confirmation['seed']} (the search raced {search['races']:,} with seed "
        f"{search['seed']}), starting from {start_label(out)}."
    )
    status = report.get("status", "met" if report["met"] else "missed")
    if status == "met":
        st.success(f"Every target met {where}", icon=":material/check_circle:")
    elif status == "not sure":
        races = [v["races_to_tell"] for v in report.get("verdicts", []) if v["status"] == status]
        tell = (
            f" About {round_up(max(races)):,} races per track and player count would tell."
            if races and None not in races
            else ""
        )
        st.info(
            f"Not sure every target is met {where} Every estimate is inside its target, "
            f"not every 95% interval.{tell}",
            icon=":material/help:",
        )
    else:
        misses = report["misses"]
        missed = "; ".join(misses[:8]) + (" …" if len(misses) > 8 else "")
        st.warning(f"Targets NOT met {where} Missed at: {missed}.", icon=":material/error:")
    if report.get("verdicts"):
        st.dataframe(verdicts_table(report), hide_index=True)
        st.caption(MEANING)
    count = report["evaluated"]
    refused = report["refused"]
    st.write(
        f"{count} candidate{'s' if count != 1 else ''} raced"
        + (f", {refused} refused by the game" if refused else "")
        + f"; stopped because {STOPPED_HERE[report['stopped']]}; the best is candidate "
        f"{report['best_candidate']} (0: the start)."
    )


def verdicts_table(report: dict[str, Any]) -> list[dict[str, str]]:
    """Each target with its verdict and, per label (a length: its worst track; labels no
    target names: those not held), the figure that decides it."""
    rows = []
    order = {"met": 0, "not sure": 1, "missed": 2}
    for verdict in report.get("verdicts", []):
        cells = verdict["labels"]
        if verdict["kind"] in ("length", "hold") and cells:
            worst = max(cells, key=lambda c: order[c["status"]])
            kept = [c for c in cells if c["status"] != "met"] if verdict["kind"] == "hold" else []
            cells = kept or [worst]
        for n, cell in enumerate(cells):
            low, high = cell["ci95"]
            scale, unit = (1, " rounds") if verdict["kind"] == "length" else (100, "")
            rows.append(
                {
                    "target": verdict["target"] if n == 0 else "",
                    "label": cell["label"] if verdict["kind"] != "length" else cell["where"],
                    "verdict": cell["status"]
                    + (
                        f" (about {round_up(cell['races_to_tell']):,} races would tell)"
                        if cell["races_to_tell"]
                        else ""
                    ),
                    "estimate (95% interval)": f"{cell['estimate'] * scale:+.2f} "
                    f"[{low * scale:+.2f}, {high * scale:+.2f}]{unit}",
                    "where": cell["where"],
                }
            )
    return rows


def others_table(report: dict[str, Any]) -> list[dict[str, str]]:
    """Each label no target names: where it moved most, before and after, and whether the
    tune held it near its start."""

    def points(row: dict[str, Any], when: str) -> str:
        low, high = row[f"{when}_ci95"]
        return f"{100 * row[when]:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]"

    return [
        {
            "label": row["label"],
            "before": points(row, "before"),
            "after": points(row, "after"),
            "where it moved most": row["where"],
            "held": row["held"] or "not held (hold_others = false)",
        }
        for row in report.get("others", [])
    ]


def shares_figure(report: dict[str, Any]) -> go.Figure:
    """Per label, the win share minus the fair share at the worst row of the scope before
    and after, in points, with 95% intervals, and the tolerance as a band."""
    labels: list[str] = []
    for row in report["shares"]:
        if row["label"] not in labels:
            labels.append(row["label"])
    figure = go.Figure()
    for when, colour in (("before", BEFORE), ("after", AFTER)):
        worst = [_worst(report["shares"], label, when) for label in labels]
        values = [100 * row[when] for row in worst]
        lows = [100 * row[f"{when}_ci95"][0] for row in worst]
        highs = [100 * row[f"{when}_ci95"][1] for row in worst]
        figure.add_trace(
            go.Bar(
                x=labels,
                y=values,
                name=when,
                marker_color=colour,
                customdata=[[row["where"]] for row in worst],
                error_y=interval_bars(values, lows, highs),
                hovertemplate="%{x}, " + when + ": %{y:+.1f} points (%{customdata[0]})"
                "<extra></extra>",
            )
        )
    tolerance = report["targets"]["win_share"]
    if tolerance is not None:
        direction = report["targets"].get("direction", "within")
        bound = 100 * tolerance
        # a one-sided band reaches past every bar (points)
        reach = max([abs(v) for trace in figure.data for v in trace.y] + [abs(bound)]) + 5
        low, high = {
            "within": (-bound, bound),
            "at-most": (-reach, bound),
            "at-least": (bound, reach),
        }[direction]
        figure.add_hrect(y0=low, y1=high, fillcolor="green", opacity=0.1, line_width=0)
    figure.update_layout(
        barmode="group",
        yaxis_title="Win share minus fair share (points)",
        height=420,
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.0},
    )
    return figure


def _worst(rows: list[dict[str, Any]], label: str, when: str) -> dict[str, Any]:
    return max((r for r in rows if r["label"] == label), key=lambda r: abs(r[when]))


def lengths_table(report: dict[str, Any]) -> list[dict[str, Any]]:
    def shown(row: dict[str, Any], when: str) -> str:
        low, high = row[f"{when}_ci95"]
        return f"{row[when]:.2f} ± {(high - low) / 2:.2f}"

    return [
        {
            "track": row["track"],
            "players": row["players"],
            "before": shown(row, "before"),
            "after": shown(row, "after"),
            "change": f"{100 * row['change']:+.1f}%",
        }
        for row in report["lengths"]
    ]


def content_zip(folder: Path) -> bytes:
    """The files of ``folder`` as a .zip, in a folder named ``content``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.iterdir()):
            if path.is_file():
                archive.write(path, f"content/{path.name}")
    return buffer.getvalue()


def _downloads(out: Path, report: dict[str, Any], key: str) -> None:
    st.subheader("Downloads")
    columns = st.columns(4)
    try:
        files = {
            "content.zip": content_zip(out / "content"),
            "report.md": private((out / "report.md").read_text(encoding="utf-8"), out, report),
            "report.json": private((out / "report.json").read_text(), out, report),
            "tune.toml": tune_file(out),
        }
    except (OSError, TrackkitError):
        st.error("The tune's files are gone; run the tune again.")
        return
    kinds = {"zip": "application/zip", "md": "text/markdown", "json": "application/json"}
    titles = {"content.zip": "The tuned content (.zip)", "report.md": "The report"}
    titles |= {"report.json": "The report for programs", "tune.toml": "The tune file"}
    for column, (name, data) in zip(columns, files.items(), strict=True):
        column.download_button(
            titles[name],
            data,
            name,
            kinds.get(name.rsplit(".", 1)[1], "application/toml"),
            key=f"{key}-dl-{name}",
            icon=":material/download:",
        )
    st.caption("Values the tune moved are marked '# tuned' in the content's files.")


def _go_on(out: Path, report: dict[str, Any], key: str, go_on: str) -> None:
    """Race more candidates of this tune: it goes on from the candidates raced."""
    done = int(report["evaluated"])
    left, right = st.columns([2, 1], vertical_alignment="bottom")
    budget = left.number_input(
        "Go on to (candidates in all)",
        min_value=done + 1,
        max_value=100_000,
        value=max(done + 1, 2 * done),
        step=5,
        key=f"{key}-go-on-budget",
    )
    right.button(
        "Go on",
        icon=":material/fast_forward:",
        key=f"{key}-go-on",
        on_click=st.session_state.__setitem__,
        args=(go_on, (str(out), int(budget))),
        help="The candidates raced are kept: the tune goes on from there",
    )
