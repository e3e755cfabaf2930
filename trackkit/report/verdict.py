"""A profile in plain words: how long, how unfair (the headline), the least fair thing
about the track and by how much (against the fair share and against an average track),
and whether that is more than noise. The Race page opens with it and ``trackkit profile``
prints it first.

A difference is *more than noise* when its 95% interval leaves out no difference (0 for a
character against an average track, the fair share for a start path); otherwise the
verdict says the races cannot tell it from luck. A game that races no characters (Snow
Tails) is judged by its start group instead (start slots: against the fair share and an
average track), in its own words (sleds).

>>> print(points(0.061), points(-0.004))
+6.1 points -0.4 points
"""

from __future__ import annotations

import math
from typing import Any

from trackkit.explore.profile import TrackProfile


def points(share: float) -> str:
    """A difference of rates in percentage points, signed."""
    return f"{100 * share:+.1f} points"


def signed(share: float) -> str:
    """A difference of rates in percentage points, signed, without the unit (an interval's
    end beside a figure that has it)."""
    return f"{100 * share:+.1f}"


def percent(share: float) -> str:
    return f"{100 * share:.0f}%"


def verdict(profile: TrackProfile) -> str:
    """One paragraph: length, the character the track moves most, the start paths (or
    the game's start group), and whether each is more than noise."""
    return " ".join(part for part in verdict_json(profile).values() if part)


def length_sentence(profile: TrackProfile) -> str:
    v = profile.values
    mean, low, high = v["rounds_mean"], v["rounds_mean_low"], v["rounds_mean_high"]
    racers = f" {profile.details['racers']}" if "racers" in profile.details else ""
    return (
        f"A race of {profile.players}{racers} on {profile.track} lasts {mean:.1f} rounds on "
        f"average (95%: {low:.1f} to {high:.1f}); one race in ten takes {v['rounds_p10']:.0f} or "
        f"fewer, one in ten {v['rounds_p90']:.0f} or more."
    )


SOURCES = {
    "unfairness_character": "its characters (against an average track)",
    "unfairness_start": "its start (the order of first moves, against the fair share)",
}


def unfairness_sentence(profile: TrackProfile) -> str:
    """The headline: how far the track moves a racer's chance of winning from fair, over
    the sources it measured, and whether the races can tell it from a track that moves
    nothing."""
    v = profile.values
    if math.isnan(v.get("unfairness", math.nan)):
        return ""
    start = profile.details.get("start")
    words = {**SOURCES}
    if start:
        words["unfairness_start"] = f"its {start['noun']}s (against the fair share)"
    parts = [
        f"{words[key]} {v[key]:.1f}" for key in SOURCES if not math.isnan(v.get(key, math.nan))
    ]
    told = (
        "the races cannot tell it from a track that moves nothing"
        if v["unfairness_low"] <= 0
        else "more than noise"
    )
    return (
        f"Unfairness {v['unfairness']:.1f} points (95%: {v['unfairness_low']:.1f} to "
        f"{v['unfairness_high']:.1f}): the track moves a racer's chance of winning by about "
        f"that much from fair (parts, in points: {', '.join(parts)}); {told}."
    )


def character_sentence(profile: TrackProfile) -> str:
    rows = [r for r in profile.details.get("characters", []) if r["difference"] is not None]
    if not rows:
        return ""
    most = max(rows, key=lambda r: abs(r["difference"]))
    fair = 1 / profile.players
    noise = _noise(most["difference_low"], most["difference_high"], 0.0)
    tied = [r["name"] for r in tied_with(most, rows)]
    tie = f" (tied within noise with {', '.join(tied)})" if tied else ""
    return (
        f"The character it moves most is {most['name']}{tie}: it wins "
        f"{percent(most['win_rate'])} of the races it enters here against "
        f"{percent(most['reference_win_rate'])} on an average track (the fair share is "
        f"{percent(fair)}), a move of {points(most['difference'])} (95%: "
        f"{signed(most['difference_low'])} to {signed(most['difference_high'])}): {noise}."
    )


def tied_with(most: dict[str, Any], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows whose move is not told apart from ``most``'s in size: the gap between the
    two sizes is within 1.96 standard errors of the gap (each error read off its 95%
    interval; the two moves' covariance is left out, so the tie is said generously)."""

    def error(row: dict[str, Any]) -> float:
        return (row["difference_high"] - row["difference_low"]) / (2 * 1.959963984540054)

    size = abs(most["difference"])
    return [
        row
        for row in rows
        if row is not most
        and size - abs(row["difference"]) <= 1.96 * math.hypot(error(most), error(row))
    ]


def path_sentence(profile: TrackProfile) -> str:
    paths = profile.details.get("path_rounds") or {}
    raced = profile.details.get("start_paths") or []
    parts = []
    if len(paths) > 1:
        fast = min(paths, key=paths.__getitem__)
        slow = max(paths, key=paths.__getitem__)
        parts.append(
            f"Alone, a racer needs {paths[slow] - paths[fast]:.2f} rounds more from start path "
            f"{slow} than from {fast} (exact)."
        )
    choice = profile.details.get("options", {}).get("path_choice", "dealt")
    if len(raced) == 1:
        parts.append(f"Every racer took start path {raced[0]['name']}.")
    elif raced:
        worst = max(raced, key=lambda r: abs(r["win_rate"] - r["fair_share"]))
        noise = _noise(worst["win_rate_low"], worst["win_rate_high"], worst["fair_share"])
        how = {
            "dealt": "with the paths dealt (a what-if)",
            "free": "with the free choice of start path",
        }.get(choice, "with the paths the racers chose")
        parts.append(
            f"In races {how}, those starting on {worst['name']} win "
            f"{percent(worst['win_rate'])} (fair {percent(worst['fair_share'])}, 95%: "
            f"{percent(worst['win_rate_low'])} to {percent(worst['win_rate_high'])}): {noise}."
        )
    parts += [
        f"Start path {dead['path']} is a dead choice: alone it costs {dead['cost_rounds']:.2f} "
        f"rounds more than the fastest, and only {percent(dead['share_taken'])} of the racers "
        "take it when free to choose (a design flaw, not an unfairness: anyone can avoid it)."
        for dead in profile.details.get("dead_paths", [])
    ]
    return " ".join(parts)


def balance_sentence(profile: TrackProfile) -> str:
    v = profile.values
    if math.isnan(v.get("unfair_character", math.nan)):
        return ""
    return (
        f"In all, the track moves {100 * v['unfair_character']:.1f}% of the wins between "
        f"characters against an average track, beyond noise (balance {v['balance']:.3f}, 95%: "
        f"{v['balance_low']:.3f} to {v['balance_high']:.3f}; {profile.races:,} races)."
    )


def start_sentence(profile: TrackProfile) -> str:
    """A declared start group (Snow Tails' start slots): the label furthest from the fair
    share, and the one the track moves most against an average track."""
    start = profile.details.get("start")
    rows = profile.details.get(start["table"], []) if start else []
    if not rows:
        return ""
    noun, racers = start["noun"], profile.details.get("racers", "racers")
    worst = max(rows, key=lambda r: abs(r["win_rate"] - r["fair_share"]))
    fair = worst["fair_share"]
    noise = _noise(worst["win_rate_low"], worst["win_rate_high"], fair)
    parts = [
        f"{racers.capitalize()} in {noun} {worst['name']} win {percent(worst['win_rate'])} of "
        f"the races (fair {percent(fair)}, 95%: {percent(worst['win_rate_low'])} to "
        f"{percent(worst['win_rate_high'])}): {noise}."
    ]
    most = max(rows, key=lambda r: abs(r["difference"]))
    noise = _noise(most["difference_low"], most["difference_high"], 0.0)
    tied = [f"{noun} {r['name']}" for r in tied_with(most, rows)]
    tie = f" (tied within noise with {', '.join(tied)})" if tied else ""
    parts.append(
        f"The {noun} this track moves most against an average track is {noun} "
        f"{most['name']}{tie}: its {racers} win {percent(most['win_rate'])} here against "
        f"{percent(most['reference_win_rate'])} there, a move of "
        f"{points(most['difference'])} (95%: "
        f"{signed(most['difference_low'])} to {signed(most['difference_high'])}): {noise}."
    )
    return " ".join(parts)


def start_balance_sentence(profile: TrackProfile) -> str:
    v, start = profile.values, profile.details.get("start")
    if not start or "unfair_start" not in v:
        return ""
    return (
        f"In all, the track moves {100 * v['unfair_start']:.1f}% of the wins between "
        f"{start['noun']}s against an average track, beyond noise (balance "
        f"{v['start_balance']:.3f}, 95%: {v['start_balance_low']:.3f} to "
        f"{v['start_balance_high']:.3f}; {profile.races:,} races)."
    )


SKILL_LITTLE = 5.0  # points: a skill whose interval stays below pays little


def skill_sentence(profile: TrackProfile) -> str:
    """How much more often the game's top policy wins than its own at mixed tables, against
    an average track's; a track where skill pays little is named as such."""
    skill = profile.details.get("skill")
    if not skill:
        return ""
    up, down = skill["upper"], skill["lower"]
    gain, low, high = skill["gain"], skill["gain_low"], skill["gain_high"]
    if low > 0:
        how = f"a {up} player wins {gain:.0f} points more often than a {down} one"
    elif high < 0:
        how = f"a {up} player wins {-gain:.0f} points less often than a {down} one"
    else:
        how = f"a {up} player wins no more often than a {down} one, within noise"
    text = f"Here {how} at mixed tables (95%: {low:+.1f} to {high:+.1f})"
    average = skill.get("average")
    if average:
        if low > average["gain_high"]:
            text += ": skill matters more than on an average track"
        elif high < average["gain_low"]:
            text += ": skill matters less than on an average track"
        else:
            text += ": skill matters as much as on an average track"
        text += f" ({average['gain']:+.1f} points)"
    if high < SKILL_LITTLE:
        text += (
            f". Skill pays little on this track (under {SKILL_LITTLE:.0f} points): between "
            "these policies its races are mostly luck"
        )
    return text + "."


def _noise(low: float, high: float, none: float) -> str:
    if low > none or high < none:
        return "more than noise"
    return "the races cannot tell it from luck"


def verdict_json(profile: TrackProfile) -> dict[str, Any]:
    """The verdict's sentences, for a report's JSON (a game's start group's when it
    declares one)."""
    sentences = {
        "length": length_sentence(profile),
        "unfairness": unfairness_sentence(profile),
        "character": character_sentence(profile),
        "start_paths": path_sentence(profile),
        "balance": balance_sentence(profile),
        "skill": skill_sentence(profile),
    }
    start = profile.details.get("start")
    if not start:
        return sentences
    sentences[start["table"]] = start_sentence(profile)
    sentences["start_balance"] = start_balance_sentence(profile)
    sentences["skill"] = sentences.pop("skill")  # last, after the start group's
    # what does not apply (characters, start paths) says nothing rather than ""
    return {key: sentence for key, sentence in sentences.items() if sentence}
