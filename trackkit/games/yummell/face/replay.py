"""Replaying a recorded race: where every character stands after each round, in words a
player reads (``tile 10 square 3``, not the engine's ``10:3``).

>>> square_name("10:3"), square_name("start")
('tile 10 square 3', 'the start')
>>> readable("start → 1:m1")
'the start → tile 1 square m1'
"""

from __future__ import annotations

import re

from trackkit.games.yummell.core.record import RaceRecord
from trackkit.render.layout import square_name as drawn_square_name

OFF_BOARD = "start"  # the record's name for the place before the first square

# a square id in a record's text: tile number, colon, the tile's own square name
_SQUARE_ID = re.compile(r"(?<![\w:])(\d+):([A-Za-z]*\d+)(?![\w:])")


def square_name(square: str) -> str:
    """A square id as a player would say it (the place before the first square included)."""
    return "the start" if square == OFF_BOARD else drawn_square_name(square)


def readable(text: str) -> str:
    """A record's line with every square id spelt out."""
    text = _SQUARE_ID.sub(lambda m: drawn_square_name(m.group(0)), text)
    return re.sub(r"(?<![\w:])start(?= →)|(?<=→ )start\b", "the start", text)


def positions_by_round(record: RaceRecord) -> list[tuple[str, ...]]:
    """Where each player stands at the end of every round: item 0 is before the race (all
    off the board), item ``r`` after round ``r``; :data:`OFF_BOARD` until a player moves."""
    players = len(record.characters)
    where = [OFF_BOARD] * players
    rounds = [tuple(where)]
    steps = iter(record.steps)
    step = next(steps, None)
    for number in range(1, record.rounds + 1):
        while step is not None and step.round <= number:
            # a step that names no move (a theft, a drawn card) repeats the square or none
            if step.square_to is not None and step.square_to != step.square_from:
                where[step.player] = step.square_to
            step = next(steps, None)
        rounds.append(tuple(where))
    return rounds
