"""Robustness reports for people: what holds under every reading, what depends on one
(:mod:`trackkit.explore.robust`), and the readings themselves (``trackkit readings``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from trackkit.explore.robust import RACES_USED, RobustRun, Spread, Verdict, spreads
from trackkit.games.readings import POLICY, Reading

HEADINGS = {
    "holds": "Holds under every combination",
    "depends": "Depends on the reading",
    "mostly": "Told apart one way under some combinations only (95% jointly over them all), "
    "never the other way",
    "unclear": "Not told apart under any combination (or not surely)",
}

RANGES = (
    "In brackets after a verdict: the range of the difference's estimates across the "
    "combinations (the least and the most of them), not an interval."
)


def varied_text(run: RobustRun) -> str:
    """What the run varied, in a line: ``tie_break (inside, leftmost) × policy (…)``, and
    what it found identical."""
    parts = []
    for name in run.variant_names():
        values = list(dict.fromkeys(variant.get(name) for variant in run.variants))
        words = run.words.get(name, {})
        parts.append(f"{name} ({', '.join(str(words.get(v, v)) for v in values)})")
    said = " × ".join(parts) or "nothing (the defaults only)"
    if run.identical:
        said += (
            f"; {', '.join(run.identical)}: "
            f"{'its values give' if len(run.identical) == 1 else 'their values give'} "
            "identical races on these tracks, so counted once (at the default)"
        )
    return said


def combinations_text(run: RobustRun) -> str:
    """How many combinations the run raced, the policies counted apart from the readings:
    ``12 combinations (4 of the readings × 3 policies)``."""
    n = len(run.variants)
    policies = len({variant.get(POLICY) for variant in run.variants if variant.get(POLICY)})
    readings = n // policies if policies else n
    said = f"{n} combination{'s' if n != 1 else ''}"
    if not policies:
        return f"{said} of readings"
    if readings == 1:
        return f"{policies} policies"
    return f"{said} ({readings} of the readings × {policies} policies)"


def _heading(run: RobustRun, what: str) -> list[str]:
    lines = [
        f"{what} under {combinations_text(run)}, "
        f"{run.players} players, {run.races:,} races each, seed {run.seed}",
        f"Varied: {varied_text(run)}",
        "Intervals: 95%; a difference counts where its interval leaves out 0.",
    ]
    if run.precision is not None:
        used = [
            row.get(RACES_USED, run.races) for by_track in run.values for row in by_track.values()
        ]
        lines.append(
            f"Precision: races added until balance's 95% interval is ±{run.precision:g}, at "
            f"most {run.max_races:,} a track; {min(used):,.0f} to {max(used):,.0f} raced"
        )
    return lines


def verdict_range(verdict: Verdict, names: dict[str, str]) -> str:
    """The differences' estimates across the variants, the first-named track minus the
    other: their least and most (not an interval)."""
    turn = 1 if verdict.first in (None, verdict.a) else -1
    values = [turn * d.value for d in verdict.differences]
    unit = " rounds" if verdict.figure == "rounds_mean" else ""
    first = names[verdict.a if turn > 0 else verdict.b]
    other = names[verdict.b if turn > 0 else verdict.a]
    low, high = min(values), max(values)
    said = f"{low:+.3g}" if math.isclose(low, high) else f"{low:+.3g} to {high:+.3g}"
    return f"{first} − {other}, range of estimates across combinations: {said}{unit}"


def robust_compare_text(run: RobustRun, found: Sequence[Verdict]) -> str:
    """The verdicts grouped by kind, then each track's mean rounds under each variant."""
    lines = [*_heading(run, "Compare"), RANGES]
    for kind, heading in HEADINGS.items():
        chosen = [v for v in found if v.kind == kind]
        if not chosen:
            continue
        lines += ["", f"{heading}:"]
        if kind == "unclear":
            by_figure: dict[str, int] = {}
            for v in chosen:
                by_figure[v.figure] = by_figure.get(v.figure, 0) + 1
            lines += [
                f"  {count} pair{'s' if count != 1 else ''} in {run.title(key)}"
                for key, count in by_figure.items()
            ]
            continue
        lines += [f"  - {v.text} ({verdict_range(v, run.names)})" for v in chosen]
    lines += ["", "Mean rounds [95%] under each combination:"]
    width = max(len(run.names[t]) for t in run.tracks)
    for variant, by_track in zip(run.variants, run.values, strict=True):
        lines.append(f"  {variant.label(run.words)}")
        for track in run.tracks:
            row = by_track[track]
            lines.append(
                f"    {run.names[track]:<{width}}  {row['rounds_mean']:6.2f} "
                f"[{row['rounds_mean_low']:.2f}, {row['rounds_mean_high']:.2f}]"
            )
    return "\n".join(lines)


def robust_compare_json(run: RobustRun, found: Sequence[Verdict]) -> dict[str, Any]:
    return {**run.to_json(), "verdicts": [v.to_json() for v in found]}


def robust_profile_text(run: RobustRun, track: str) -> str:
    """Each figure of one track: under the defaults, its least and most across the
    readings (and under which), and the reading that moves it most."""
    lines = _heading(run, f"{run.names[track]}: profile")
    lines += [
        "",
        "A figure marked = keeps overlapping intervals under every reading; ≠ moves beyond "
        "its noise.",
    ]
    for spread in spreads(run, track):
        lines += _spread_lines(run, spread)
    return "\n".join(lines)


def _spread_lines(run: RobustRun, spread: Spread) -> list[str]:
    mark = "=" if spread.same_everywhere else "≠"
    least = run.variants[spread.least_at].label(run.words)
    most = run.variants[spread.most_at].label(run.words)
    lines = [
        f"{mark} {run.title(spread.key)}",
        f"    defaults {spread.default:.4g} [{spread.default_low:.4g}, {spread.default_high:.4g}]"
        f"; across the readings {spread.least:.4g} to {spread.most:.4g}",
    ]
    if not math.isclose(spread.least, spread.most):
        lines.append(f"    least under {least}; most under {most}")
    if spread.moved_by is not None and len(run.variant_names()) > 1:
        lines.append(f"    moved most by {spread.moved_by} ({spread.moved:.3g} between its values)")
    return lines


def robust_profile_json(run: RobustRun, track: str) -> dict[str, Any]:
    return {
        **run.to_json(),
        "track": run.names[track],
        "spreads": [spread.to_json(run) for spread in spreads(run, track)],
    }


def readings_json(game: str, readings: Sequence[Reading], policies: Sequence[str]) -> dict:
    """The readings of the text, then the what-ifs apart, then the policies."""
    return {
        "game": game,
        "readings": [reading.to_json() for reading in readings if not reading.what_if],
        "what_ifs": [reading.to_json() for reading in readings if reading.what_if],
        POLICY: list(policies),
    }


def readings_text(title: str, readings: Sequence[Reading], policies: Sequence[str]) -> str:
    """Each reading: its question, its values (the default first, with why), the flag that
    chooses it, and the rulebook passage it depends on; then the what-ifs, apart."""
    text = [r for r in readings if not r.what_if]
    asked = [r for r in readings if r.what_if]
    lines = [f"{title}: {len(text)} reading{'s' if len(text) != 1 else ''} of the rules"]
    for reading in text:
        lines += _reading_lines(reading)
    if asked:
        lines += [
            "",
            f"What-ifs ({len(asked)}): declared as readings, but not readings of the text; "
            "--robust varies them only when named",
        ]
        for reading in asked:
            lines += _reading_lines(reading)
            lines.append(f"  a what-if: {reading.what_if}")
    lines += ["", f"Policies (--policy; --robust varies them too): {', '.join(policies)}"]
    return "\n".join(lines)


def _reading_lines(reading: Reading) -> list[str]:
    lines = [
        "",
        f"{reading.name} [{reading.status}] {reading.question}",
        f"  flag: {reading.option.flag}; rulebook: {reading.passage}",
    ]
    for value, means in zip(reading.values, reading.means, strict=True):
        default = " (default)" if value == reading.default else ""
        lines.append(f"  - {reading.label(value)}{default}: {means}")
    lines.append(f"  why the default: {reading.why}")
    if reading.effect:
        lines.append(f"  measured: {reading.effect}")
    return lines
