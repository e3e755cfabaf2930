"""A track's profile for people: the verdict in words, then the figures by family, each
with its title and, when sampled, its 95% interval; then the tables behind the fairness
figures (characters against an average track, start paths or start slots), and the
figures that do not apply to the track's game, with why.

>>> from trackkit.explore.profile import TrackProfile
>>> print(profile_text(TrackProfile("Demo", 4, 200, 0, {"balance": 0.8})).splitlines()[2])
  Balance, 0-1: 1 - the wins the track moves between characters      0.800
"""

from __future__ import annotations

import math
from typing import Any

from trackkit.explore.profile import INTERVAL, TrackProfile
from trackkit.report.verdict import percent, points, verdict

FAMILIES = ("length", "balance", "drama", "friction", "track")


def profile_text(profile: TrackProfile) -> str:
    """The verdict (when the profile has its tables), the figures by family (length,
    balance, drama, friction, a game's own, the track itself), the fairness tables and
    what does not apply."""
    racers = profile.details.get("racers", "players")
    lines = [
        f"{profile.track}: {profile.players} {racers}, {profile.races:,} races, seed {profile.seed}"
    ]
    if profile.details:
        lines += ["", *_wrapped(verdict(profile)), ""]
    own = [f.family for f in profile.figures if f.family not in FAMILIES]
    families = (*FAMILIES[:-1], *dict.fromkeys(own), FAMILIES[-1])
    for family in families:
        shown = [f for f in profile.figures if f.family == family and f.key in profile.values]
        if family == "track":
            shown_terrain = sorted(k for k in profile.values if k.startswith("terrain_"))
        else:
            shown_terrain = []
        if not shown and not shown_terrain:
            continue
        lines.append(family.capitalize())
        for figure in shown:
            value = _number(profile.values[figure.key])
            lines.append(f"  {figure.title:<62} {value}{_interval(profile, figure.key)}")
        for key in shown_terrain:
            title = f"Share of {key.removeprefix('terrain_')} squares"
            lines.append(f"  {title:<62} {_number(profile.values[key])}")
    lines += _character_table(profile.details.get("characters"), profile.players)
    lines += _start_table(profile.details, profile.players)
    lines += _path_table(profile.details)
    if profile.details.get("character_rounds"):
        lines += ["", "Exact solo rounds by character (reference advantage, greedy route)"]
        for name, rounds in profile.details["character_rounds"].items():
            lines.append(f"  {name:<40} {rounds:7.2f}")
    lines += _not_applicable(profile.not_applicable)
    if profile.details:
        lines += ["", f"Intervals: {INTERVAL}."]
    return "\n".join(lines)


def _interval(profile: TrackProfile, key: str) -> str:
    low, high = profile.values.get(f"{key}_low"), profile.values.get(f"{key}_high")
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return ""
    return f"  ({_short(low)} to {_short(high)})"


def _character_table(rows: list[dict[str, Any]] | None, players: int) -> list[str]:
    if not rows:
        return []
    lines = [
        "",
        f"Characters: win rate per race entered (fair {percent(1 / players)}), here and on an "
        "average track",
        f"  {'character':<28} {'entered':>8} {'here':>6} {'average':>8}  difference (95%)",
    ]
    for row in rows:
        if row["win_rate"] is None:
            lines.append(f"  {row['name']:<28} {0:>8}")
            continue
        lines.append(
            f"  {row['name']:<28} {row['entries']:>8,} {percent(row['win_rate']):>6} "
            f"{percent(row['reference_win_rate']):>8}  {points(row['difference'])} "
            f"({_signed(row['difference_low'])} to {_signed(row['difference_high'])})"
        )
    return lines


def _start_table(details: dict[str, Any], players: int) -> list[str]:
    """A declared start group's table (Snow Tails' start slots): win rates against the
    fair share and against an average track."""
    start = details.get("start")
    if not start:
        return []
    noun, racers = start["noun"], details.get("racers", "racers")
    lines = [
        "",
        f"{noun.capitalize()}s: win rate of the {racers} starting in each (fair "
        f"{percent(1 / players)}), here and on an average track",
        f"  {noun:<12} {'raced':>8} {'here':>6} {'(95%)':<12} {'average':>8}  difference (95%)",
    ]
    for row in details[start["table"]]:
        lines.append(
            f"  {row['name']:<12} {row['entries']:>8,} {percent(row['win_rate']):>6} "
            f"{_span(row['win_rate_low'], row['win_rate_high']):<12} "
            f"{percent(row['reference_win_rate']):>8}  {points(row['difference'])} "
            f"({_signed(row['difference_low'])} to {_signed(row['difference_high'])})"
        )
    return lines


def _span(low: float, high: float) -> str:
    return f"({percent(low)}-{percent(high)})"


def _not_applicable(reasons: dict[str, str]) -> list[str]:
    """The figures a game's profile lacks, grouped by why."""
    if not reasons:
        return []
    by_reason: dict[str, list[str]] = {}
    for key, reason in reasons.items():
        by_reason.setdefault(reason, []).append(key)
    lines = ["", "Not applicable (left out)"]
    for reason, keys in by_reason.items():
        lines += _wrapped(f"{', '.join(keys)}: {reason}", 90, indent="  ")
    return lines


def _path_table(details: dict[str, Any]) -> list[str]:
    raced = {r["name"]: r for r in details.get("start_paths", [])}
    exact = details.get("path_rounds") or {}
    names = list(exact) or list(raced)
    if not names:
        return []
    how = {
        "dealt": "dealt each (a what-if)",
        "free": "who chose each (free choice)",
    }.get(details.get("options", {}).get("path_choice", ""), "on each")
    lines = ["", f"Start paths: exact solo rounds, and win rate of the racers {how}"]
    for name in names:
        text = f"  {name}"
        if name in exact:
            text += f"  {exact[name]:7.2f} rounds"
        if name in raced:
            row = raced[name]
            text += (
                f"  wins {percent(row['win_rate'])} of {row['entries']:,} "
                f"({percent(row['win_rate_low'])} to {percent(row['win_rate_high'])}; "
                f"fair {percent(row['fair_share'])})"
            )
        lines.append(text)
    for dead in details.get("dead_paths", []):
        lines.append(
            f"  Dead choice: start path {dead['path']} costs {dead['cost_rounds']:.2f} rounds "
            f"alone and {percent(dead['share_taken'])} of the racers take it"
        )
    order = details.get("first_moves")
    if order:
        lines += ["", "Order of the first moves (who commits to a start path first)"]
        for row in order:
            lines.append(
                f"  {row['name']:<4} wins {percent(row['win_rate'])} "
                f"({percent(row['win_rate_low'])} to {percent(row['win_rate_high'])}; "
                f"fair {percent(row['fair_share'])})"
            )
    return lines


def _signed(share: float) -> str:
    return f"{100 * share:+.1f}"


def _wrapped(text: str, width: int = 92, indent: str = "") -> list[str]:
    import textwrap

    hanging = f"{indent}  " if indent else ""
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=hanging)


def _short(value: float) -> str:
    return f"{value:.3f}" if abs(value) < 1000 else f"{value:.0f}"


def _number(value: float) -> str:
    if math.isnan(value):
        return "      -"
    return f"{value:9.3f}" if abs(value) < 1000 else f"{value:9.0f}"
