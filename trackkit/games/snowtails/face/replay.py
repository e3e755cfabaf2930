"""A recorded Snow Tails race as the board shows it: where each sled stands after each
round, for the replay on the board."""

from __future__ import annotations

from collections.abc import Hashable

from trackkit.games.snowtails.core.race import RaceRecord


def positions_by_round(record: RaceRecord) -> list[tuple[Hashable, ...]]:
    """Where each sled stands before the race (item 0: the start, off the board) and after
    each round: the space its last turn ended on (a sled that has crossed the line stays
    where it ended)."""
    players = len(record.placings)
    where: list[Hashable] = [None] * players
    rounds: list[tuple[Hashable, ...]] = [tuple(where)]
    for number in range(1, record.rounds + 1):
        for turn in record.turns:
            if turn.round == number:
                where[turn.player] = turn.end
        rounds.append(tuple(where))
    return rounds
