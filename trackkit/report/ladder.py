"""A ladder as ``trackkit ladder`` prints it: each rung with what it assumes of a player,
then each step's gain in win rate per player, with its interval, and whether the ladder
climbs (its data is :func:`ladder_json`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from trackkit.explore.ladder import Step, monotone
from trackkit.games.base import Rung


def ladder_json(
    track: str,
    game: str,
    rungs: Sequence[Rung],
    steps: Sequence[Step],
    *,
    seed: int,
    budget: int | None = None,
) -> dict[str, Any]:
    """The ladder's data; ``budget`` is the planning rung's (None: no rung plans)."""
    plans = any(r.plans for r in rungs)
    return {
        "track": track,
        "game": game,
        "players": steps[0].players,
        "races": steps[0].races,
        "seed": seed,
        "budget": budget if plans else None,
        "rungs": [{"policy": r.policy, "assumes": r.assumes, "plans": r.plans} for r in rungs],
        "steps": [step.to_json() for step in steps],
        "monotone": monotone(steps),
    }


def step_words(step: dict[str, Any]) -> str:
    """One step (a row of :func:`ladder_json`'s ``steps``) in words: its gain, its interval,
    and what each rung's win rate is."""
    up, down = step["upper"], step["lower"]
    gain, low, high = step["gain"], step["gain_low"], step["gain_high"]
    verdict = (
        f"{up} wins more often than {down}"
        if low > 0
        else f"{up} wins less often than {down}"
        if high < 0
        else "tied within noise"
    )
    return (
        f"{up} over {down}: {gain:+.1f} points (95%: {low:+.1f} to {high:+.1f}), {verdict}: "
        f"a {up} player wins {100 * step['upper_win_rate']:.1f}% of races, a {down} one "
        f"{100 * step['lower_win_rate']:.1f}%"
    )


def ladder_text(data: dict[str, Any], title: str) -> str:
    width = max(len(rung["policy"]) for rung in data["rungs"])
    lines = [
        f"{title} policies on {data['track']}, {data['players']} players at mixed tables, "
        f"{data['races']:,} race pairs a step (seed {data['seed']}); the rungs, weakest first:"
    ]
    lines += [f"  {r['policy']:<{width}}  {r['assumes']}" for r in data["rungs"]]
    if data.get("budget"):
        lines.append(f"(the planning player's budget: {data['budget']} playouts an option a turn)")
    for step in data["steps"]:
        lines.append(step_words(step))
    if data["monotone"]:
        lines.append("The ladder climbs: each rung wins more often than the one below.")
    else:
        lines.append(
            "The ladder does not climb here: a rung wins no more often than the one below "
            "on this track."
        )
    return "\n".join(lines)


def skill_table(rows: list[Any]) -> list[str]:
    """The skill of each track (rows with ``rank``, ``name``, ``skill``, ``skill_low``,
    ``skill_high`` and ``skill_step``), the most skill-rewarding first; none without it."""
    shown = [row for row in rows if not math.isnan(row.skill)]
    if not shown:
        return []
    lines = [
        "",
        f"Skill: {shown[0].skill_step} at mixed tables, the win rate per player, in points",
        f"{'#':>2} {'track':<32} {'skill (95% CI)':>22}",
    ]
    for row in sorted(shown, key=lambda row: -row.skill):
        interval = f"{row.skill:+.1f} ({row.skill_low:+.1f} to {row.skill_high:+.1f})"
        lines.append(f"{row.rank:>2} {row.name[:32]:<32} {interval:>22}")
    return lines


def step_words_of(skill: dict[str, Any] | None) -> str:
    """A profile's skill step in words: "smart over greedy" ("" without one)."""
    return f"{skill['upper']} over {skill['lower']}" if skill else ""
