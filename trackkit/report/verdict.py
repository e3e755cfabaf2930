"""A profile in plain words: how long, the least fair thing about the track and by how
much (against the fair share and against an average track), and whether that is more than
noise. The Race page opens with it and ``trackkit profile`` prints it first.

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


def character_sentence(profile: TrackProfile) -> str:
    rows = [r for r in profile.details.get("characters", []) if r["difference"] is not None]
    if not rows:
        return ""
    most = max(rows, key=lambda r: abs(r["difference"]))
    fair = 1 / profile.players
    way = "favours" if most["difference"] > 0 else "works against"
    noise = _noise(most["difference_low"], most["difference_high"], 0.0)
    return (
        f"The character it moves most is {most['name']}: it wins {percent(most['win_rate'])} "
        f"of the races it enters here against {percent(most['reference_win_rate'])} on an "
        f"average track (the fair share is {percent(fair)}), so this track {way} it by "
        f"{abs(100 * most['difference']):.1f} points (95%: {points(most['difference_low'])} "
        f"to {points(most['difference_high'])}): {noise}."
    )


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
    dealt = profile.details.get("options", {}).get("path_choice", "dealt") == "dealt"
    if len(raced) == 1:
        parts.append(f"Every racer took start path {raced[0]['name']}.")
    elif raced:
        worst = max(raced, key=lambda r: abs(r["win_rate"] - r["fair_share"]))
        noise = _noise(worst["win_rate_low"], worst["win_rate_high"], worst["fair_share"])
        how = "with the paths dealt" if dealt else "with the paths the racers chose"
        parts.append(
            f"In races {how}, those starting on {worst['name']} win "
            f"{percent(worst['win_rate'])} (fair {percent(worst['fair_share'])}, 95%: "
            f"{percent(worst['win_rate_low'])} to {percent(worst['win_rate_high'])}): {noise}."
        )
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
    way = "favours" if most["difference"] > 0 else "works against"
    noise = _noise(most["difference_low"], most["difference_high"], 0.0)
    parts.append(
        f"The {noun} this track moves most against an average track is {noun} "
        f"{most['name']}: its {racers} win {percent(most['win_rate'])} here against "
        f"{percent(most['reference_win_rate'])} there, so this track {way} it by "
        f"{abs(100 * most['difference']):.1f} points (95%: "
        f"{points(most['difference_low'])} to {points(most['difference_high'])}): {noise}."
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


def _noise(low: float, high: float, none: float) -> str:
    if low > none or high < none:
        return "more than noise"
    return "the races cannot tell it from luck"


def verdict_json(profile: TrackProfile) -> dict[str, Any]:
    """The verdict's sentences, for a report's JSON (a game's start group's when it
    declares one)."""
    sentences = {
        "length": length_sentence(profile),
        "character": character_sentence(profile),
        "start_paths": path_sentence(profile),
        "balance": balance_sentence(profile),
    }
    start = profile.details.get("start")
    if not start:
        return sentences
    sentences[start["table"]] = start_sentence(profile)
    sentences["start_balance"] = start_balance_sentence(profile)
    # what does not apply (characters, start paths) says nothing rather than ""
    return {key: sentence for key, sentence in sentences.items() if sentence}
