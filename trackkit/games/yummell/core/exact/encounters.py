"""The exact solver's encounters (:mod:`trackkit.games.yummell.core.exact`): the encounter
cards grouped by what they do to a solo greedy character, and the values of drawing one
after moving."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from trackkit.errors import TrackkitError
from trackkit.games.yummell.core.content import (
    CARD_ARROW,
    CARD_EFFECT,
    CARD_PARAM,
    CARD_TERRAIN,
    CARD_TYPE,
    MAX_CARD_NUMBER,
    CardType,
    Content,
    Effect,
)
from trackkit.games.yummell.core.exact.hands import VALUES, TurnTables
from trackkit.games.yummell.core.rules import challenge_total, challenge_won

# what an encounter card does to a solo greedy character, by kind
NOTHING, CREATURE, BACK, BACK_IF_TERRAIN, CURSE, DISCARD = range(6)


class Draws(NamedTuple):
    """The encounter cards grouped by what they do (:func:`_encounter_table`): cards that
    act alike are one kind with their chances added."""

    kinds: np.ndarray  # (k,) what each does: NOTHING, CREATURE ...
    params: np.ndarray  # (k,) its terrain or curse step
    chances: np.ndarray  # (k,) its probability
    wins: np.ndarray  # (k, 9) for creatures: does a card of each number win


class Racer(NamedTuple):
    """What of the racer and the race changes the chain beyond its squares' costs (here
    for the encounters, which read two of them; the solver reads the rest)."""

    two: bool  # draw-two-keep-one: a lost card needs no refill
    steady: bool  # not sent back by events
    encounters: bool
    onto_finish: bool = True  # a challenge won next to the finish finishes (SPEC.md §4)


@njit(cache=True)
def _challenges(
    kinds: np.ndarray, chances: np.ndarray, wins: np.ndarray, held: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For every hand held after moving: the chance of drawing a creature and beating it
    with each of its cards (greedy plays the lowest card that wins), and the chance of
    drawing one it cannot beat (greedy then plays its lowest card)."""
    win = np.zeros(held.shape)
    lose = np.zeros(held.shape[0])
    for k in range(kinds.shape[0]):
        if kinds[k] != CREATURE:
            continue
        for m in range(held.shape[0]):
            for c in range(held.shape[1]):
                if wins[k, held[m, c]]:
                    win[m, c] += chances[k]
                    break
            else:
                lose[m] += chances[k]
    return win, lose


@njit(cache=True)
def _encounter_parts(
    end: int,
    expect: np.ndarray,
    lost_value: np.ndarray,
    draws: Draws,
    challenges: tuple[np.ndarray, np.ndarray],
    turns: TurnTables,
    terrain: np.ndarray,
    racer: Racer,
) -> tuple[np.ndarray, np.ndarray, float]:
    """Drawing an encounter card on square ``end``, split by where it leaves the character.

    Returns, for every curse level, hand held after moving and value (``CHANCE``,
    ``ROUNDS``), the expected value of the outcomes that stay on or go beyond ``end``; per
    hand, the chance of losing a challenge (back one square, the lowest card played); and
    the chance of an event sending it back one square. Only the last two depend on the
    square behind, which may still be being solved. A challenge won on the square before
    the finish reaches it, or (not ``racer.onto_finish``) leaves the character where it is;
    events do not send back a ``racer.steady`` one.
    ``lost_value`` is the value of a hand
    that lost a card (refilled, or as it is with draw-two-keep-one), indexed by
    ``turns.lost``; a hand that lost none is ``turns.keep``. ``challenges`` is
    :func:`_challenges`.
    """
    steady, onto_finish = racer.steady, racer.onto_finish
    kinds, params, chances = draws.kinds, draws.params, draws.chances
    lost, keep = turns.lost, turns.keep
    win, lose = challenges
    levels, held = expect.shape[0], win.shape[0]
    # the cards that are not creatures, by what they do here: nothing (``calm``), send the
    # character back, make it discard, curse it (one step per card)
    calm, back, discard = 0.0, 0.0, 0.0
    curses = np.flatnonzero(kinds == CURSE)
    for k in range(kinds.shape[0]):
        kind = kinds[k]
        if kind == DISCARD:
            discard += chances[k]
        elif (kind == BACK and not steady) or (
            kind == BACK_IF_TERRAIN and not steady and terrain[end] == params[k]
        ):
            back += chances[k]
        elif kind != CREATURE and kind != CURSE:
            calm += chances[k]
    ahead = np.zeros((levels, held, VALUES))
    finish = expect.shape[1] - 2  # the rows are the squares + 1, off the board first
    won_row = end + 2 if (onto_finish or end + 1 < finish) else end + 1
    for level in range(levels):
        for m in range(held):
            for value in range(VALUES):
                total = calm * expect[level, end + 1, keep[m], value]
                for c in range(win.shape[1]):
                    # won: one square ahead (the finish row holds its value)
                    total += win[m, c] * lost_value[level, won_row, lost[m, c], value]
                total += discard * lost_value[level, end + 1, lost[m, 0], value]
                for k in curses:
                    raised = min(level + params[k], levels - 1)
                    total += chances[k] * expect[raised, end + 1, keep[m], value]
                ahead[level, m, value] = total
    return ahead, lose, back


@njit(cache=True)
def _combine(
    end: int,
    level: int,
    parts: tuple[np.ndarray, np.ndarray, float],
    encounter: np.ndarray,
    expect: np.ndarray,
    lost_value: np.ndarray,
    lost: np.ndarray,
    keep: np.ndarray,
) -> None:
    """The encounter values on ``end`` at curse ``level`` from its parts and the square
    behind it."""
    ahead, lose, back = parts
    for m in range(encounter.shape[2]):
        for value in range(VALUES):
            encounter[level, end + 1, m, value] = (
                ahead[level, m, value]
                + lose[m] * lost_value[level, end, lost[m, 0], value]
                + back * expect[level, end, keep[m], value]
            )


def _encounter_table(content: Content, character: np.ndarray, advantage: np.ndarray) -> Draws:
    cards = content.cards
    kinds, params, chances, wins = [], [], [], []
    # plain ints: comparing numpy scalars with enum members, card by card, is slow
    creature, event = int(CardType.CREATURE), int(CardType.EVENT)
    back, back_if, curse, discard = (
        int(e) for e in (Effect.BACK, Effect.BACK_IF_TERRAIN, Effect.CURSE, Effect.DISCARD)
    )
    rows = cards.tolist()
    cursed = {row[CARD_TERRAIN] for row in rows if row[CARD_EFFECT] == curse and row[CARD_ARROW]}
    if len(cursed) > 1:
        raise TrackkitError("the exact solver covers curses on one terrain only")
    for card, row in zip(cards, rows, strict=True):
        kind, param = NOTHING, 0
        win = np.zeros(MAX_CARD_NUMBER + 1, dtype=np.bool_)
        if row[CARD_TYPE] == creature:
            kind = CREATURE
            for number in range(1, MAX_CARD_NUMBER + 1):
                total = challenge_total(character, advantage, card, number)
                win[number] = challenge_won(total, card)
        elif row[CARD_TYPE] == event and row[CARD_ARROW]:
            effect = row[CARD_EFFECT]
            if effect == back:
                kind = BACK
            elif effect == back_if:
                kind, param = BACK_IF_TERRAIN, row[CARD_TERRAIN]
            elif effect == curse:
                if row[CARD_PARAM] < 1:
                    raise TrackkitError(
                        "the exact solver covers curses that make terrain dearer (delta 1 or "
                        f"more), not delta {row[CARD_PARAM]}"
                    )
                kind, param = CURSE, row[CARD_PARAM]
            elif effect == discard:
                if row[CARD_PARAM] != 1:
                    raise TrackkitError("the exact solver covers discards of one card only")
                kind = DISCARD
        kinds.append(kind)
        params.append(param)
        chances.append(1.0 / len(cards))
        wins.append(win)
    # cards that act alike are one outcome with their chances added
    grouped: dict[tuple[Any, ...], float] = {}
    for kind, param, chance, win in zip(kinds, params, chances, wins, strict=True):
        key = (kind, param, win.tobytes())
        grouped[key] = grouped.get(key, 0.0) + chance
    return Draws(
        np.array([key[0] for key in grouped], dtype=np.int64),
        np.array([key[1] for key in grouped], dtype=np.int64),
        np.array(list(grouped.values())),
        np.array([np.frombuffer(key[2], dtype=np.bool_) for key in grouped]),
    )
