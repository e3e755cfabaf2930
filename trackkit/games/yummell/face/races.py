"""Yummell's races in words, as the ``race`` and ``exact`` commands print them: one race
turn by turn and the exact solo length. Each result carries its own data (its
``to_json()``); the functions here only write the text.
"""

from __future__ import annotations

from trackkit.games.yummell.core.exact import ExactResult
from trackkit.games.yummell.core.record import RaceRecord


def race_text(record: RaceRecord) -> str:
    """Who raced with which advantage, every step round by round, and the placings."""
    lines = [f"{record.track}, seed {record.seed}: {record.rounds} rounds"]
    for who, advantage in zip(record.characters, record.advantages, strict=True):
        lines.append(f"  {who} with {advantage}")
    current = 0
    for step in record.steps:
        if step.round != current:
            current = step.round
            lines.append(f"Round {current}")
        lines.append(f"  {step.text}")
    placings = sorted(zip(record.placings, record.characters, strict=True))
    lines.append("Placings: " + ", ".join(f"{p}. {who}" for p, who in placings))
    return "\n".join(lines)


def exact_text(result: ExactResult) -> str:
    """The exact solo length with what it assumed (the racer, the start path, encounters),
    the chance a race never ends (when there is one) and the size of the Markov chain."""
    stays = ""
    if result.challenge_finish == "stays":
        stays = ", a challenge won next to the finish stays"
    text = (
        f"{result.track}: a solo race lasts {result.expected_rounds:.4f} rounds on average "
        f"(exact; character {result.character}, advantage {result.advantage}, start path "
        f"{result.path}, encounters {'on' if result.encounters else 'off'}{stays})\n"
    )
    if result.never_finishes > 0:
        text += (
            f"A race never ends with probability {result.never_finishes:.3g} (curses make a "
            "square ahead dearer than any card, and greedy never rests); it counts as "
            "the simulator's round limit + 1\n"
        )
    return text + (
        f"Markov chain: {result.states:,} states, {result.curse_levels} curse level(s); "
        f"covers {result.covers}"
    )
