"""A tune's report for a reader (``report.md``): what changed, and each label's win share
and each track's length before and after, with intervals, from the confirmation races
(more races, another seed than the search's)."""

from __future__ import annotations

from typing import Any

import numpy as np

from trackkit.tune.evaluate import Evaluation, ScopedShares, Score
from trackkit.tune.result import TuneResult, other_rows
from trackkit.tune.targets import HOLD_TOLERANCE, MET, NOT_SURE, RANK, SCOPE_WORDS, Cell

HEADLINE = {
    "met": "Every target met",
    "not sure": "Not sure every target is met",
    "missed": "Targets NOT met",
}
MEANING = (
    "A target is *met* when its 95% interval lies inside it, *not sure* when only its "
    "estimate does (more races would tell), *missed* otherwise."
)
STOPPED = {
    "met": "a candidate met every target",
    "budget": "the budget of candidates was used",
    "time": "the time limit was reached",
    "interrupted": "it was interrupted (run the same command again to go on)",
    "cancelled": "it was cancelled (run it again to go on)",
}


def tune_text(result: TuneResult) -> str:
    """The report for a reader (also written as ``report.md``)."""
    spec = result.spec
    before, after = result.confirmed_start, result.confirmed_best
    lines = [f"# Tune: {spec.path}", ""]
    lines.append(
        f"{HEADLINE[result.status]} in the confirmation: {after.races:,} races per track and "
        f"player count, seed {after.seed} (the search raced "
        f"{result.start.evaluation.races:,} with seed {result.start.evaluation.seed})."
    )
    misses = result.confirmed_best_score.misses
    if misses:
        lines.append(f"Missed at: {'; '.join(misses[:8])}" + (" …" if len(misses) > 8 else ""))
    lines += [
        "",
        f"Search: {result.evaluated} candidate{'s' if result.evaluated != 1 else ''} raced"
        + (f", {result.refused} refused by the game ({result.refusal})" if result.refused else "")
        + f"; stopped because {STOPPED[result.stopped]}; best: candidate {result.best.number}.",
    ]
    if result.out is not None:
        lines.append(
            f"Content written to {result.out / 'content'} (tuned values marked '# tuned')."
        )
    lines += ["", f"## What changed ({len(result.changes)} values)", ""]
    if result.changes:
        lines.append(
            _table(
                ["value", "before", "after"],
                [[p.name, p.describe(old), p.describe(new)] for p, old, new in result.changes],
            )
        )
    else:
        lines.append("Nothing: the starting content is the best found.")
    lines += ["", "## Targets", "", MEANING, "", _verdict_table(result.confirmed_best_score)]
    others = _others_table(result)
    if others:
        lines += [
            "",
            "## The labels no target names",
            "",
            "Where each moved most from the start "
            + f"({SCOPE_WORDS[result.others_scope]}), in points with 95% intervals"
            + (
                f"; each held no more than {_hold_points(result):.1f} points further from the "
                "fair share than it started (hold_others)."
                if spec.hold_others
                else " (hold_others = false: not held)."
            ),
            "",
            others,
        ]
    target = "; ".join(
        (
            f"±{share.win_share * 100:.1f}"
            if share.direction == "within"
            else f"{share.direction} {share.win_share * 100:+.1f}"
        )
        + f" at scope {share.scope}"
        + (f" for {', '.join(share.labels)}" if share.labels else "")
        for share in spec.shares
    )
    target = f" (target {target})" if target else ""
    lines += [
        "",
        f"## Win share minus fair share, in points{target}",
        "",
        "Per label: the worst track and player count before and after, and the average "
        "over every track and count (95% intervals).",
        "",
        _label_table(before, after, "each"),
    ]
    lines += ["", "## Mean race length (rounds)", "", _length_table(before, after)]
    lines += ["", "## Every track and player count, after (points)", "", _each_table(after)]
    return "\n".join(lines)


def _verdict_table(score: Score) -> str:
    """Each target, its verdict, and per label (a length: its worst track) the figure
    that decides it."""
    rows = []
    for verdict in score.verdicts:
        cells = list(verdict.cells)
        worst = max(cells, key=lambda c: (RANK[c.status], -c.slack), default=None)
        if verdict.kind == "length" and worst is not None:
            cells = [worst]  # the worst track
        elif verdict.kind == "hold" and worst is not None:
            cells = [c for c in cells if c.status != MET] or [worst]  # the others: below
        said = _status(verdict.status, verdict.races)
        for n, cell in enumerate(cells or [None]):
            rows.append(
                [
                    verdict.target if n == 0 else "",
                    said if n == 0 else "",
                    "" if cell is None else _cell(cell, verdict.kind),
                ]
            )
    return _table(["target", "verdict", "decided by (95% interval)"], rows)


def _status(status: str, races: int | None) -> str:
    if status != NOT_SURE:
        return status
    if races is None:
        return "not sure (an estimate on the edge: no number of races would tell)"
    return f"not sure (about {round_up(races):,} races per track and count would tell)"


def round_up(races: int) -> int:
    """``races`` rounded up to two significant figures."""
    step = 10 ** max(0, len(str(races)) - 2)
    return -(-races // step) * step


def _cell(cell: Cell, kind: str) -> str:
    low, high = cell.interval
    if kind == "length":
        return (
            f"{cell.where}: {cell.estimate:.2f} [{low:.2f}, {high:.2f}] rounds, "
            f"target {cell.band[0]:.2f} to {cell.band[1]:.2f}: {cell.status}"
        )
    said = f"{cell.label}: {cell.estimate * 100:+.1f} [{low * 100:+.1f}, {high * 100:+.1f}]"
    if kind == "hold":
        said += f", held within ±{cell.band[1] * 100:.1f}"
    return f"{said} ({cell.where}): {cell.status}"


def _others_table(result: TuneResult) -> str:
    rows = [
        [
            row["label"],
            _row_points(row, "before"),
            _row_points(row, "after"),
            row["where"],
            row["held"] or "—",
        ]
        for row in other_rows(result)
    ]
    if not rows:
        return ""
    return _table(["label", "before", "after", "where it moved most", "held"], rows)


def _row_points(row: dict[str, Any], when: str) -> str:
    low, high = row[f"{when}_ci95"]
    return f"{row[when] * 100:+.1f} [{low * 100:+.1f}, {high * 100:+.1f}]"


def _hold_points(result: TuneResult) -> float:
    within = [s.win_share for s in result.spec.shares if s.direction == "within"]
    return 100 * (min(within) if within else HOLD_TOLERANCE)


def _label_table(before: Evaluation, after: Evaluation, scope: Any) -> str:
    old_rows, new_rows = before.scoped(scope), after.scoped(scope)
    old_all, new_all = before.scoped("all")[0], after.scoped("all")[0]
    rows = []
    for i, label in enumerate(after.labels):
        rows.append(
            [
                label,
                _worst(old_rows, i),
                _worst(new_rows, i),
                _points(old_all, i),
                _points(new_all, i),
            ]
        )
    return _table(["label", "worst before", "worst after", "average before", "average after"], rows)


def _worst(rows: list[ScopedShares], i: int) -> str:
    found = [(abs(r.deviation[i]), r) for r in rows if not np.isnan(r.deviation[i])]
    if not found:
        return "never raced"
    _, row = max(found, key=lambda f: f[0])
    return f"{_points(row, i)} ({row.name})"


def _points(row: ScopedShares, i: int) -> str:
    low, high = row.interval(i)
    return f"{row.deviation[i] * 100:+.1f} [{low * 100:+.1f}, {high * 100:+.1f}]"


def _length_table(before: Evaluation, after: Evaluation) -> str:
    rows = [
        [
            track,
            count,
            f"{before.lengths[i]:.2f} ± {1.96 * before.length_errors[i]:.2f}",
            f"{after.lengths[i]:.2f} ± {1.96 * after.length_errors[i]:.2f}",
            f"{(after.lengths[i] / before.lengths[i] - 1) * 100:+.1f}%",
        ]
        for i, (track, count) in enumerate(after.configs)
    ]
    return _table(["track", "players", "before", "after", "change"], rows)


def _each_table(after: Evaluation) -> str:
    dev = after.deviations() * 100
    rows = [
        [f"{track}, {count}"] + ["—" if np.isnan(d) else f"{d:+.1f}" for d in dev[i]]
        for i, (track, count) in enumerate(after.configs)
    ]
    return _table(["track, players", *after.labels], rows)


def _table(headers: list[str], rows: list[list[Any]]) -> str:
    """A Markdown table, its columns padded so that it also reads in a terminal."""
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = [
        "| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |"
        for row in cells
    ]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def write_tune_report(result: TuneResult) -> str:
    """The report for a reader, also written as ``report.md`` in the tune's folder."""
    text = tune_text(result)
    if result.out is not None:
        (result.out / "report.md").write_text(text + "\n", encoding="utf-8")
    return text
