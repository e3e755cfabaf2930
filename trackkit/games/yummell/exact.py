"""The exact expected length of a solo race: a Markov chain, solved.

With one character, the infinite deck (every draw independent) and the greedy policy, a
race is a Markov chain over (square along the route of one start path, the greedy route
unless another is named; hand as a multiset of four card numbers; curse level). A turn
only ever ends at or ahead of the square it began on (going back follows advancing), so
the chain is solved square by square from the finish backwards. On a square, at a curse
level, only the turns that come back to it couple its hands: no card paid for the next
square, or one square ahead and sent back by an encounter. A hand's chance of coming back
as itself is solved for, not iterated, and the rest settles in a few Gauss-Seidel sweeps
(:func:`_equations`). The result is the exact expected number of rounds, free of sampling
noise, and the simulator's oracle.

A square's values depend only on the squares ahead of it, so the start paths, which
differ only in their first few squares, share the rest of their solution: a racer's three
paths on the presets take about 40% of the time of three solves on their own
(:func:`exact_paths`).

The rules come from :mod:`trackkit.games.yummell.rules` and the choices from
:mod:`trackkit.games.yummell.policies` (the same compiled functions the engine plays with).

Curses, without truncation. A greedy character never rests, so curses only pile up. Once
a curse makes every square of its terrain dearer than the highest card, more curses
change nothing, so the curse level is exact up to that level (:func:`curse_levels`). At
such a level a character whose next square it cannot pay for is stuck for good (it cannot
move, so it has no encounter that could carry it past): the race never ends. Such races
exist with a tiny probability on tracks with hills and the Mushroom Curse; the simulator
stops them at its round limit and counts them as ``MAX_ROUNDS + 1`` rounds. The solver
computes the probability ``q`` of finishing and ``m = E[rounds; finished]`` from the same
chain, together (a state's ``q`` first, then its ``m`` with reward ``q`` per turn, since
``m(s) = q(s) + E[m(s')]``) and reports ``m + (MAX_ROUNDS + 1)(1 - q)``: the simulator's
measure, exact but for races that could finish yet take more than ``MAX_ROUNDS`` rounds
(with a mean of a few dozen rounds, a vanishing share), and the probability that a race
never ends.

Covered: movement with terrain costs and modifiers, the hand of four, draw-two-keep-one
(a sixth card before moving, :func:`trackkit.games.yummell.engine.draw_two_keep_one`), encounters
(challenges won and lost, artefacts, the arrow events: push-backs, curses, discarding one
card). Refused with a message: curses on more than one terrain, curses that make terrain
cheaper, discards of more than one card.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from trackkit.board.graph import start_path_label
from trackkit.board.track import Track
from trackkit.errors import TrackkitError, shown
from trackkit.games.base import get_ruleset
from trackkit.games.yummell.content import (
    ADV_EFFECT,
    CARD_ARROW,
    CARD_EFFECT,
    CARD_PARAM,
    CARD_TERRAIN,
    CARD_TYPE,
    MAX_CARD_NUMBER,
    TERRAIN_COUNT,
    CardType,
    Content,
    Effect,
    load_content,
)
from trackkit.games.yummell.engine import MAX_ROUNDS
from trackkit.games.yummell.policies import greedy_route
from trackkit.games.yummell.rules import challenge_total, challenge_won, is_steady, terrain_cost
from trackkit.games.yummell.setup import RaceBoard, RaceOptions, race_board
from trackkit.games.yummell.state import Board

COVERS = (
    "solo race, infinite deck, greedy policy: movement with terrain costs and modifiers, "
    "the hand of four, draw-two-keep-one, and with encounters challenges, artefacts and "
    "the arrow events (push-backs, curses without a cap, discarding one card); a race that "
    f"can never end counts {MAX_ROUNDS + 1} rounds, as the simulator counts it"
)
TOLERANCE = 1e-10  # on values of a few to a few dozen rounds
MAX_SWEEPS = 20_000  # per square and curse level: far more than any content seen needs (42)
MAX_LEVELS = 64  # curse levels: a curse of +1 on a 1-MP terrain needs 9
HAND = 4
# what an encounter card does to a solo greedy character, by kind
NOTHING, CREATURE, BACK, BACK_IF_TERRAIN, CURSE, DISCARD = range(6)
# the two values solved for every state: the chance of finishing, and the rounds of the
# races that finish (``q`` and ``m`` of the module docstring)
CHANCE, ROUNDS = range(2)
VALUES = 2


def _hands(size: int) -> np.ndarray:
    """Every multiset of ``size`` card numbers, sorted ascending, one per row."""
    return np.array(
        list(combinations_with_replacement(range(1, MAX_CARD_NUMBER + 1), size)), dtype=np.int64
    )


def _code(hand: np.ndarray) -> int:
    code = 0
    for number in hand:
        code = code * 9 + number
    return code


HANDS5, HANDS4, HANDS3 = _hands(5), _hands(4), _hands(3)
INDEX5 = np.full(9**5, -1, dtype=np.int64)
INDEX4 = np.full(9**4, -1, dtype=np.int64)
INDEX3 = np.full(9**3, -1, dtype=np.int64)
for _i, _h in enumerate(HANDS5):
    INDEX5[_code(_h)] = _i
for _i, _h in enumerate(HANDS4):
    INDEX4[_code(_h)] = _i
for _i, _h in enumerate(HANDS3):
    INDEX3[_code(_h)] = _i


@njit(cache=True)
def _index(hand: np.ndarray, table: np.ndarray) -> int:
    code = 0
    for number in hand:
        code = code * 9 + number
    return table[code]


@njit(cache=True)
def _without(hand: np.ndarray, position: int) -> np.ndarray:
    out = np.empty(hand.shape[0] - 1, dtype=np.int64)
    k = 0
    for i in range(hand.shape[0]):
        if i != position:
            out[k] = hand[i]
            k += 1
    return out


@njit(cache=True)
def _with(hand: np.ndarray, number: int) -> np.ndarray:
    """``hand`` (sorted) with ``number`` added, still sorted."""
    out = np.empty(hand.shape[0] + 1, dtype=np.int64)
    k = 0
    placed = False
    for value in hand:
        if not placed and number <= value:
            out[k] = number
            k += 1
            placed = True
        out[k] = value
        k += 1
    if not placed:
        out[k] = number
    return out


@njit(cache=True)
def _by_mp(prob: np.ndarray, mp: np.ndarray, after: np.ndarray) -> None:
    """Sort one hand's outcomes by the MP they play, ascending (an insertion sort: a few)."""
    for i in range(1, mp.shape[0]):
        j = i
        while j > 0 and mp[j - 1] > mp[j]:
            prob[j - 1], prob[j] = prob[j], prob[j - 1]
            mp[j - 1], mp[j] = mp[j], mp[j - 1]
            after[j - 1], after[j] = after[j], after[j - 1]
            j -= 1


@njit(cache=True)
def _turn_tables(
    hands4: np.ndarray,
    hands5: np.ndarray,
    index5: np.ndarray,
    index4: np.ndarray,
    index3: np.ndarray,
    draw: np.ndarray,
    kept: np.ndarray,
    two: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """How a turn's cards go, once per deck and advantage.

    Before moving, a hand of four draws one card (``draw``) and, with draw-two-keep-one
    (``two``), keeps one more (``kept``); greedy moves with the highest. The hand left
    after moving (four cards, or five with the advantage) is indexed in ``hands4`` or
    ``hands5``. Returns, per hand of four and draw outcome (packed first, in ascending
    MP): probability, MP played and the hand after moving; per hand after moving and card
    lost (to a challenge or a discard) the hand it leaves (of three to refill, or of four
    with the advantage), and the hand of four kept at Replenishment when no card is lost
    (itself, or the best four of five).
    """
    n4 = hands4.shape[0]
    outcomes = MAX_CARD_NUMBER * (MAX_CARD_NUMBER if two else 1)
    prob = np.zeros((n4, outcomes))
    mp = np.zeros((n4, outcomes), dtype=np.int64)
    after = np.zeros((n4, outcomes), dtype=np.int64)
    for h in range(n4):
        k = 0
        for first in range(1, MAX_CARD_NUMBER + 1):
            seconds = MAX_CARD_NUMBER if two else 1
            for j in range(seconds):
                second = j + 1
                chance = draw[first] * (kept[second] if two else 1.0)
                hand = _with(hands4[h], first)
                if two:
                    hand = _with(hand, second)
                if chance == 0.0:
                    continue
                size = hand.shape[0]
                left = _index(hand[: size - 1], index5) if two else _index(hand[:-1], index4)
                # draws that leave the same hand and MP are one outcome: the outcomes of a
                # hand are packed first, the rest left at chance 0
                same = k
                for j in range(k):
                    if mp[h, j] == hand[size - 1] and after[h, j] == left:
                        same = j
                        break
                prob[h, same] += chance
                mp[h, same] = hand[size - 1]
                after[h, same] = left
                if same == k:
                    k += 1
        _by_mp(prob[h, :k], mp[h, :k], after[h, :k])
    held = hands5 if two else hands4
    size = held.shape[1]
    lost = np.zeros((held.shape[0], size), dtype=np.int64)
    keep = np.zeros(held.shape[0], dtype=np.int64)
    for m in range(held.shape[0]):
        for c in range(size):
            rest = _without(held[m], c)
            lost[m, c] = _index(rest, index4) if two else _index(rest, index3)
        keep[m] = lost[m, 0] if two else m
    return prob, mp, after, held, lost, keep


@njit(cache=True)
def _refill_table(hands3: np.ndarray, index4: np.ndarray) -> np.ndarray:
    """The hand of four a hand of three becomes with each number drawn."""
    refilled = np.zeros((hands3.shape[0], MAX_CARD_NUMBER + 1), dtype=np.int64)
    for h in range(hands3.shape[0]):
        for number in range(1, MAX_CARD_NUMBER + 1):
            refilled[h, number] = _index(_with(hands3[h], number), index4)
    return refilled


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
    kinds: np.ndarray,
    params: np.ndarray,
    chances: np.ndarray,
    challenges: tuple[np.ndarray, np.ndarray],
    lost: np.ndarray,
    keep: np.ndarray,
    terrain: np.ndarray,
    steady: bool,
) -> tuple[np.ndarray, np.ndarray, float]:
    """Drawing an encounter card on square ``end``, split by where it leaves the character.

    Returns, for every curse level, hand held after moving and value (``CHANCE``,
    ``ROUNDS``), the expected value of the outcomes that stay on or go beyond ``end``; per
    hand, the chance of losing a challenge (back one square, the lowest card played); and
    the chance of an event sending it back one square. Only the last two depend on the
    square behind, which may still be being solved. ``lost_value`` is the value of a hand
    that lost a card (refilled, or as it is with draw-two-keep-one), indexed by ``lost``; a
    hand that lost none is ``keep``. ``challenges`` is :func:`_challenges`.
    """
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
    for level in range(levels):
        for m in range(held):
            for value in range(VALUES):
                total = calm * expect[level, end + 1, keep[m], value]
                for c in range(win.shape[1]):
                    # won: one square ahead (the finish row holds its value)
                    total += win[m, c] * lost_value[level, end + 2, lost[m, c], value]
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


@njit(cache=True, inline="always")
def _couple(column: int, weight: float, scratch: np.ndarray, named: np.ndarray, count: int) -> int:
    """Add ``weight`` to the coefficient of ``column`` in the equation being written
    (``scratch``, the columns it names so far in ``named[:count]``); returns the new count.
    Weights are chances, never negative: a column is named once its coefficient is not 0."""
    if weight > 0.0:
        if scratch[column] == 0.0:
            named[count] = column
            count += 1
        scratch[column] += weight
    return count


@njit(cache=True)
def _equations(
    square: int,
    ends: np.ndarray,
    turn: tuple[np.ndarray, np.ndarray, np.ndarray],
    keep: np.ndarray,
    lost: np.ndarray,
    two: bool,
    encounters: bool,
    near: tuple[np.ndarray, np.ndarray, float],
    expect: np.ndarray,
    encounter: np.ndarray,
    equations: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> tuple[int, int]:
    """The equations of the hands on ``square`` at one curse level, for both values::

        x[h] = leave[h] * (known[value, h] + sum(weights[e] * x[columns[e]]
                                                 for e in range(starts[h], starts[h + 1])))

    (the ``ROUNDS`` values also add their reward, the ``CHANCE`` value of the state: see
    :func:`_sweep`). ``ends`` is where each MP amount carries the character from
    ``square``; ``expect`` and ``encounter`` (by square + 1, hand, value) are that curse
    level's, and so is ``near[0]`` (:func:`_encounter_parts` one square ahead).

    A turn that leaves the square for good adds a known value (a square ahead, solved, or
    the finish). One that comes back to it couples the hands of the square: a turn that
    ends where it began (no card paid for the next square), and with encounters one that
    ends one square ahead and is sent back (a push-back, or a lost challenge: the lowest
    card played and the hand refilled). A column below the number of hands is a hand of
    four; above, it is ``hands + t`` for the three-card hand ``t`` that a lost challenge
    leaves, whose value is the average over the card that refills it (:func:`_sweep`
    keeps it). With draw-two-keep-one a hand that lost a card is kept as it is: a hand.

    The chance ``own`` of coming back as the very same hand (a turn that ends in place
    having drawn a card no higher than the hand's highest: where only an 8 pays for the
    next square, most hands stay as they are for many turns) is not iterated but solved
    for: ``x[h] = own x[h] + rest`` gives ``leave[h] = 1 / (1 - own)``.

    Returns how many hands wait on others (in ``work[3]``, in index order) and how many
    three-card hands the equations name (in ``equations[5]``). The others are final after
    one sweep in index order: they name only earlier hands that are final. Without
    draw-two-keep-one and encounters every hand is (a turn that ends in place has played
    the highest card, the drawn one or one that the drawn one replaces: the hand stays or
    becomes elementwise lower, earlier in the lexicographic order of the hands).
    """
    prob, mp_played, after = turn
    known, leave, starts, columns, weights, threes = equations
    scratch, named, final, pending, wanted = work
    ahead, lose, back = near
    hands = prob.shape[0]
    # a hand's outcomes come in ascending MP: those that end in place first, then (with
    # encounters) those that end one square ahead, then those that leave for good
    stays = leaves = MAX_CARD_NUMBER + 1  # the least MP that leaves: the square, for good
    finish = expect.shape[0] - 2
    for mp in range(MAX_CARD_NUMBER, 0, -1):  # more MP never ends further back
        end = ends[mp]
        if end > square:
            stays = mp
            if end > square + 1 or end == finish or not encounters:
                leaves = mp
    written = waiting = named_threes = 0
    for h in range(hands):
        chance, rounds, count, k = 0.0, 0.0, 0, 0
        while k < prob.shape[1] and prob[h, k] > 0.0 and mp_played[h, k] < stays:
            count = _couple(keep[after[h, k]], prob[h, k], scratch, named, count)
            k += 1
        while k < prob.shape[1] and prob[h, k] > 0.0 and mp_played[h, k] < leaves:
            # one square ahead, an encounter: some of it comes back
            p, m = prob[h, k], after[h, k]
            chance += p * ahead[m, CHANCE]
            rounds += p * ahead[m, ROUNDS]
            count = _couple(keep[m], p * back, scratch, named, count)
            lost_hand = lost[m, 0] if two else hands + lost[m, 0]
            count = _couple(lost_hand, p * lose[m], scratch, named, count)
            k += 1
        # the rest leave for good (the finish row holds a finished race's values)
        for rest in range(k, prob.shape[1]):
            p = prob[h, rest]
            if p == 0.0:
                break  # a hand's outcomes are packed first
            end, m = ends[mp_played[h, rest]], after[h, rest]
            if encounters:
                chance += p * encounter[end + 1, m, CHANCE]
                rounds += p * encounter[end + 1, m, ROUNDS]
            else:
                chance += p * expect[end + 1, keep[m], CHANCE]
                rounds += p * expect[end + 1, keep[m], ROUNDS]
        known[CHANCE, h] = chance
        known[ROUNDS, h] = rounds
        # (a hand that always comes back as itself never leaves: see `_settle`)
        leave[h] = 1.0 / (1.0 - scratch[h]) if scratch[h] < 1.0 else np.inf
        starts[h] = written
        final[h] = True
        for i in range(count):
            other = named[i]
            if other != h:
                columns[written] = other
                weights[written] = scratch[other]
                written += 1
                # (a three-card hand, ``other >= hands``, is never final here)
                final[h] = final[h] and other < h and final[other]
                if other >= hands and not wanted[other - hands]:
                    wanted[other - hands] = True
                    threes[named_threes] = other - hands
                    named_threes += 1
            scratch[other] = 0.0
        if not final[h]:
            pending[waiting] = h
            waiting += 1
    starts[hands] = written
    for i in range(named_threes):
        wanted[threes[i]] = False
    return waiting, named_threes


@njit(cache=True)
def _sweep(
    x: np.ndarray,
    equations: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    order: np.ndarray,
    named_threes: int,
    sure: bool,
    refilled: np.ndarray,
    refill: np.ndarray,
) -> float:
    """One Gauss-Seidel sweep of a square's equations (:func:`_equations`) over the hands
    in ``order`` (index order: each uses the values already updated in this sweep), both
    values at once: a hand's rounds add its chance of finishing, just updated, as their
    reward. Where every race surely finishes (``sure``) the chances stay 1. The three-card
    hands the equations name are refilled from the values as the sweep starts (they lag
    one sweep behind). Returns the largest change of a hand's value."""
    known, leave, starts, columns, weights, threes = equations
    hands = known.shape[1]
    for i in range(named_threes):
        for value in range(VALUES):
            total = 0.0
            for number in range(1, MAX_CARD_NUMBER + 1):
                total += refill[number] * x[value, refilled[threes[i], number]]
            x[value, hands + threes[i]] = total
    change = 0.0
    for h in order:
        chance, rounds = known[CHANCE, h], known[ROUNDS, h]
        for e in range(starts[h], starts[h + 1]):
            chance += weights[e] * x[CHANCE, columns[e]]
            rounds += weights[e] * x[ROUNDS, columns[e]]
        chance = 1.0 if sure else chance * leave[h]
        rounds = (rounds + chance) * leave[h]
        change = max(change, abs(chance - x[CHANCE, h]), abs(rounds - x[ROUNDS, h]))
        x[CHANCE, h] = chance
        x[ROUNDS, h] = rounds
    return change


@njit(cache=True)
def _settle(
    x: np.ndarray,
    equations: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    pending: np.ndarray,
    named_threes: int,
    sure: bool,
    refilled: np.ndarray,
    refill: np.ndarray,
) -> int:
    """Solve a square's equations at one curse level into ``x`` by sweeps from 0: the first
    over every hand, the next ones over the hands that wait on others (``pending``), until
    no value changes by ``TOLERANCE`` or more. Returns the sweeps made, or ``MAX_SWEEPS +
    1`` if they did not settle."""
    hands = equations[0].shape[1]
    if not np.isfinite(equations[1]).all():
        return MAX_SWEEPS + 1  # a hand that never leaves the square: no value settles
    x[:] = 0.0
    order = np.arange(hands)
    for sweeps in range(1, MAX_SWEEPS + 1):
        change = _sweep(x, equations, order, named_threes, sure, refilled, refill)
        if change < TOLERANCE or pending.shape[0] == 0:
            return sweeps
        order = pending
    return MAX_SWEEPS + 1


class Solution(NamedTuple):
    """A chain's values as :func:`_solve` fills them in from the finish backwards: by curse
    level, row (square + 1, row 0 off the board), hand and value (``CHANCE``, ``ROUNDS``).
    The finish row holds a finished race's (chance 1, no more rounds); a stuck state's
    stay 0. The start paths of a track share one: a route shorter than the longest fills
    its last rows (:func:`_solve_routes`)."""

    expect: np.ndarray  # (levels, squares + 1, hands of four, VALUES)
    after3: np.ndarray  # (levels, squares + 1, hands of three, VALUES): once refilled
    # an encounter after moving to a square with each hand held, filled once the square
    # behind it is solved (or the finish: the race is over)
    encounter: np.ndarray  # (levels, squares + 1, hands held after moving, VALUES)
    sweeps: np.ndarray  # (squares + 1,) the sweeps made on each row, every level's


def _unsolved(levels: int, squares: int, held: int) -> Solution:
    """A chain of ``squares`` squares with only its finish row known."""
    solution = Solution(
        expect=np.zeros((levels, squares + 1, len(HANDS4), VALUES)),
        after3=np.zeros((levels, squares + 1, len(HANDS3), VALUES)),
        encounter=np.zeros((levels, squares + 1, held, VALUES)),
        sweeps=np.zeros(squares + 1, dtype=np.int64),
    )
    for table in (solution.expect, solution.after3, solution.encounter):
        table[:, squares, :, CHANCE] = 1.0
    return solution


@njit(cache=True)
def _solve(
    cost: np.ndarray,  # (squares, curse levels) MP to enter each square
    terrain: np.ndarray,  # (squares,)
    stuck: np.ndarray,  # (squares + 1, levels) by row: no card pays for the next square
    refill: np.ndarray,  # (9,) probability of each number at a Replenishment draw
    turn: tuple[np.ndarray, np.ndarray, np.ndarray],  # per hand: chance, MP, hand after
    held: np.ndarray,  # hands held after moving
    lost: np.ndarray,
    keep: np.ndarray,
    refilled: np.ndarray,
    two: bool,  # draw-two-keep-one: a lost card needs no refill
    kinds: np.ndarray,  # (k,) what each kind of encounter card does
    params: np.ndarray,  # (k,) its terrain or curse step
    chances: np.ndarray,  # (k,) its probability
    wins: np.ndarray,  # (k, 9) for creatures: does a card of each number win
    steady: bool,
    encounters: bool,
    solution: Solution,  # the rows after ``first`` given, the others filled in here
    first: int,  # the last square solved: from here back to the start
    start_row: int,  # the row the route starts on, off the board (its rows come last)
) -> tuple[np.ndarray, np.ndarray, int]:
    """The chance of finishing and the rounds of the races that finish (``q`` and ``m`` of
    the module docstring), square by square from ``first`` back to the start, each square's
    hands at each curse level by Gauss-Seidel sweeps (:func:`_equations`, :func:`_settle`),
    into ``solution``. Returns both values of every hand off the board and -2 or the
    route's square whose sweeps did not settle.

    A square's values depend only on the squares ahead of it: the rows after ``first`` are
    read from ``solution`` as given, the finish's alone (:func:`_unsolved`) or those of
    another start path that ends in the same squares. The squares are those of the last
    rows, from ``start_row`` on: the rows before it (another path's) are not read. A square
    is ``row - 1`` here, its row minus ``start_row`` on its route.
    """
    prob = turn[0]
    squares, levels = cost.shape
    finish = squares - 1
    n4, n3 = prob.shape[0], refilled.shape[0]
    expect, after3, encounter = solution.expect, solution.after3, solution.encounter
    lost_value = expect if two else after3
    # where each MP amount carries the character from each square, at each curse level
    reach = np.zeros((levels, squares + 1, MAX_CARD_NUMBER + 1), dtype=np.int64)
    for start in range(-1, finish):
        for mp in range(1, MAX_CARD_NUMBER + 1):
            for level in range(levels):
                i, left = start, mp
                while i + 1 < squares and cost[i + 1, level] <= left:
                    left -= cost[i + 1, level]
                    i += 1
                reach[level, start + 1, mp] = i
    challenges = _challenges(kinds, chances, wins, held)
    # from a row on, a turn never ends behind it: where no square ahead costs differently
    # at another curse level, every level has the values of level 0 (solved once, copied);
    # where no state ahead can be stuck, a race surely finishes (chance 1)
    alike = np.zeros(squares + 1, dtype=np.bool_)
    doomed = np.zeros((squares + 1, levels), dtype=np.bool_)
    for row in range(squares - 1, -1, -1):
        alike[row] = (row == squares - 1 or alike[row + 1]) and (cost[row] == cost[row, 0]).all()
        for level in range(levels - 1, -1, -1):
            doomed[row, level] = stuck[row, level] or (row + 1 < squares and doomed[row + 1, level])
            if level + 1 < levels:
                doomed[row, level] = doomed[row, level] or doomed[row, level + 1]
    # one square's equations at one level (see `_equations`), written anew for each, and
    # the space to write them in
    equations = (
        np.zeros((VALUES, n4)),
        np.zeros(n4),
        np.zeros(n4 + 1, dtype=np.int64),
        np.zeros(n4 * (n4 + n3), dtype=np.int64),
        np.zeros(n4 * (n4 + n3)),
        np.zeros(n3, dtype=np.int64),
    )
    work = (
        np.zeros(n4 + n3),
        np.zeros(n4 + n3, dtype=np.int64),
        np.zeros(n4, dtype=np.bool_),
        np.zeros(n4, dtype=np.int64),
        np.zeros(n3, dtype=np.bool_),
    )
    # their values, by value and column (the hands of four, then the three-card hands)
    x = np.zeros((VALUES, n4 + n3))
    # the encounter one square ahead, in parts (see `_encounter_parts`)
    near = (np.zeros((levels, held.shape[0], VALUES)), np.zeros(held.shape[0]), 0.0)
    for square in range(first, start_row - 2, -1):
        row = square + 1
        one_ahead = encounters and square + 1 < finish
        if one_ahead:
            near = _encounter_parts(
                square + 1,
                expect,
                lost_value,
                kinds,
                params,
                chances,
                challenges,
                lost,
                keep,
                terrain,
                steady,
            )
        # within a square, a turn keeps its curse level (curses come from encounters
        # ahead, on squares already solved): each level is solved on its own
        for level in range(levels - 1, -1, -1):
            if stuck[row, level]:
                continue  # never moves again: its values stay 0
            if alike[row] and level > 0:
                continue  # copied from level 0 below
            waiting, named_threes = _equations(
                square,
                reach[level, row],
                turn,
                keep,
                lost,
                two,
                encounters,
                (near[0][level], near[1], near[2]),
                expect[level],
                encounter[level],
                equations,
                work,
            )
            sure = not doomed[row, level]
            here = _settle(x, equations, work[3][:waiting], named_threes, sure, refilled, refill)
            solution.sweeps[row] += here
            if here > MAX_SWEEPS:
                chance, rounds = expect[0, start_row, :, CHANCE], expect[0, start_row, :, ROUNDS]
                return chance, rounds, square - start_row
            for value in range(VALUES):
                expect[level, row, :, value] = x[value, :n4]
                for h in range(n3):
                    total = 0.0
                    for number in range(1, MAX_CARD_NUMBER + 1):
                        total += refill[number] * x[value, refilled[h, number]]
                    after3[level, row, h, value] = total
        if alike[row]:
            for level in range(1, levels):
                expect[level, row] = expect[0, row]
                after3[level, row] = after3[0, row]
        if one_ahead:  # this square solved, the encounter one square ahead is known
            for level in range(levels):
                _combine(square + 1, level, near, encounter, expect, lost_value, lost, keep)
    return expect[0, start_row, :, CHANCE], expect[0, start_row, :, ROUNDS], -2


@dataclass(frozen=True)
class ExactResult:
    """The exact expected solo race length.

    ``never_finishes`` is the probability that the race can never end (a curse has made
    the next square dearer than any card, and greedy never rests); such a race counts
    ``MAX_ROUNDS + 1`` rounds in ``expected_rounds``, as in the simulator. ``path`` is the
    start path raced ("A"…).
    """

    track: str
    expected_rounds: float
    character: str
    advantage: str
    path: str
    encounters: bool
    states: int
    sweeps: int
    covers: str = ""
    never_finishes: float = 0.0
    curse_levels: int = 1

    def to_json(self) -> dict[str, Any]:
        return {
            "track": self.track,
            "expected_rounds": self.expected_rounds,
            "never_finishes": self.never_finishes,
            "character": self.character,
            "advantage": self.advantage,
            "path": self.path,
            "encounters": self.encounters,
            "states": self.states,
            "sweeps": self.sweeps,
            "curse_levels": self.curse_levels,
            "covers": self.covers,
        }


@lru_cache(maxsize=1)
def _refilled() -> np.ndarray:
    return _refill_table(HANDS3, INDEX4)


@lru_cache(maxsize=4)
def _turns(draw: bytes, kept: bytes, two: bool) -> tuple[np.ndarray, ...]:
    return _turn_tables(
        HANDS4,
        HANDS5,
        INDEX5,
        INDEX4,
        INDEX3,
        np.frombuffer(draw),
        np.frombuffer(kept),
        two,
    )


def _hand_probabilities(refill: np.ndarray) -> np.ndarray:
    """Probability of each starting hand of four independent draws."""
    key = refill.tobytes()
    if key not in _STARTING_HANDS:
        _STARTING_HANDS[key] = _starting_hands(refill)
    return _STARTING_HANDS[key]


_STARTING_HANDS: dict[bytes, np.ndarray] = {}


def _starting_hands(refill: np.ndarray) -> np.ndarray:
    out = np.zeros(len(HANDS4))
    for i, hand in enumerate(HANDS4):
        counts = np.bincount(hand, minlength=MAX_CARD_NUMBER + 1)
        ways = factorial(HAND) / np.prod([factorial(c) for c in counts])
        out[i] = ways * np.prod(refill[hand])
    return out


def _encounter_table(
    content: Content, character: np.ndarray, advantage: np.ndarray
) -> tuple[np.ndarray, ...]:
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
    return (
        np.array([key[0] for key in grouped], dtype=np.int64),
        np.array([key[1] for key in grouped], dtype=np.int64),
        np.array(list(grouped.values())),
        np.array([np.frombuffer(key[2], dtype=np.bool_) for key in grouped]),
    )


def curse_levels(
    board: Board,
    nodes: np.ndarray,
    character: np.ndarray,
    advantage: np.ndarray,
    cursed: int | None,
    highest: int,
) -> int:
    """How many curse levels the chain needs to be exact: one more than the first level at
    which every square of the cursed terrain on the route is dearer than the ``highest``
    card (from there on more curses change nothing); 1 when no curse can bite."""
    on_route = [n for n in nodes if cursed is not None and board.node_terrain[n] == cursed]
    if not on_route:
        return 1
    no_events = np.zeros(TERRAIN_COUNT, dtype=np.int64)
    node = on_route[0]  # squares of one terrain cost the same
    for level in range(MAX_LEVELS):
        curse = np.zeros(TERRAIN_COUNT, dtype=np.int64)
        curse[cursed] = level
        cost = terrain_cost(
            board.node_base[node], board.node_terrain[node], character, advantage, curse, no_events
        )
        if cost > highest:
            return level + 1
    raise TrackkitError(
        f"the exact solver follows curses up to {MAX_LEVELS} levels; this content needs more"
    )


Solved = tuple[float, int, int, float, int]  # rounds, states, sweeps, never finishes, levels


@dataclass(frozen=True)
class _Chain:
    """One racer's chain on one start path: what :func:`_solve` reads, and the key its
    result is kept under (characters and advantages that change nothing in a solo race
    share one)."""

    nodes: np.ndarray  # the route's squares
    cost: np.ndarray  # (squares, curse levels) MP to enter each square
    terrain: np.ndarray  # (squares,)
    stuck: np.ndarray  # (squares + 1, levels) by row: no card pays for the next square
    refill: np.ndarray  # (9,) probability of each number at a Replenishment draw
    cards: tuple[np.ndarray, ...]  # the encounter cards' kinds, params, chances, wins
    steady: bool
    encounters: bool
    two: bool  # draw-two-keep-one
    key: tuple[Any, ...]

    @property
    def levels(self) -> int:
        return int(self.cost.shape[1])

    def shared(self, other: _Chain) -> int:
        """How many squares ``self`` and ``other`` (the same racer's) end in that cost the
        same at every curse level and have the same terrain: the rows their solutions
        share (:func:`_solve_routes`)."""
        if other.levels != self.levels:
            return 0
        count = 0
        for mine, theirs in zip(self.cost[::-1], other.cost[::-1], strict=False):
            if (mine != theirs).any() or self.terrain[-1 - count] != other.terrain[-1 - count]:
                break
            count += 1
        return count


_TABLES: dict[tuple[int, int, int], tuple[Content, tuple[np.ndarray, ...]]] = {}


def _encounter_table_of(content: Content, character: int, advantage: int) -> tuple[np.ndarray, ...]:
    """:func:`_encounter_table` of one racer, kept for the content object it was made from
    (a sweep asks for the same racer's on every track)."""
    key = (id(content), character, advantage)
    kept = _TABLES.get(key)
    if kept is None or kept[0] is not content:
        if len(_TABLES) >= KEEP_SOLVED:
            _TABLES.clear()
        table = _encounter_table(
            content, content.characters[character], content.advantages[advantage]
        )
        kept = _TABLES[key] = (content, table)
    return kept[1]


def _chains(
    board: Board,
    routes: list[int],
    content: Content,
    character: int,
    advantage: int,
    encounters: bool,
) -> list[_Chain]:
    """One racer's chain on each of ``routes``."""
    character_row = content.characters[character]
    advantage_row = content.advantages[advantage]
    kinds, params, chances, wins = _encounter_table_of(content, character, advantage)
    cards = content.cards
    curses = cards[(cards[:, CARD_EFFECT] == Effect.CURSE) & (cards[:, CARD_ARROW] != 0)]
    cursed = [int(terrain) for terrain in curses[:, CARD_TERRAIN]]
    numbers = content.deck_numbers().astype(float)
    refill = numbers / numbers.sum()
    highest = int(np.flatnonzero(refill)[-1])
    two = bool(advantage_row[ADV_EFFECT] == Effect.DRAW_TWO_KEEP_ONE)
    steady = bool(is_steady(character_row, advantage_row))
    no_events = np.zeros(TERRAIN_COUNT, dtype=np.int64)
    chains = []
    for route in routes:
        nodes = board.route_nodes[route, : board.route_len[route]]
        levels = curse_levels(
            board,
            nodes,
            character_row,
            advantage_row,
            cursed[0] if (encounters and cursed) else None,
            highest,
        )
        # a square's cost at each curse level depends on its base MP and terrain alone:
        # each pair that occurs is costed once
        cost = np.zeros((len(nodes), levels), dtype=np.int64)
        costed: dict[tuple[int, int], np.ndarray] = {}
        bases, terrains = board.node_base[nodes].tolist(), board.node_terrain[nodes].tolist()
        for i, pair in enumerate(zip(bases, terrains, strict=True)):
            if pair not in costed:
                column = np.zeros(levels, dtype=np.int64)
                for level in range(levels):
                    curse = np.zeros(TERRAIN_COUNT, dtype=np.int64)
                    if cursed:
                        curse[cursed[0]] = level
                    column[level] = terrain_cost(
                        pair[0], pair[1], character_row, advantage_row, curse, no_events
                    )
                costed[pair] = column
            cost[i] = costed[pair]
        # a character whose next square costs more than any card can never move again
        stuck = np.zeros((len(nodes) + 1, levels), dtype=np.bool_)  # by row: square + 1
        stuck[:-1] = cost > highest
        terrain = board.node_terrain[nodes]
        arrays = (cost, terrain, refill, kinds, params, chances, wins)
        key = (*(a.tobytes() for a in arrays), steady, encounters, two)
        cards_drawn = (kinds, params, chances, wins)
        chains.append(
            _Chain(nodes, cost, terrain, stuck, refill, cards_drawn, steady, encounters, two, key)
        )
    return chains


def _solve_chain(chain: _Chain, solution: Solution, shared: int) -> Solved:
    """Solve ``chain`` into the last rows of ``solution`` (see :func:`_solve`), where the
    rows of its last ``shared`` squares (the finish at least) are given."""
    refill = chain.refill
    below = np.cumsum(refill)
    best_of_two = below**2 - np.concatenate(([0.0], below[:-1])) ** 2
    prob, mp, after, held, lost, keep = _turns(refill.tobytes(), best_of_two.tobytes(), chain.two)
    kinds, params, chances, wins = chain.cards
    # the route's squares are the last ones of the solution's: the rows before ``start_row``
    # are another path's, neither read nor written
    squares = solution.sweeps.shape[0] - 1
    start_row = squares - len(chain.nodes)
    cost = np.zeros((squares, chain.levels), dtype=np.int64)
    terrain = np.zeros(squares, dtype=np.int64)
    stuck = np.zeros((squares + 1, chain.levels), dtype=np.bool_)
    cost[start_row:], terrain[start_row:], stuck[start_row:] = (
        chain.cost,
        chain.terrain,
        chain.stuck,
    )
    first = squares - 1 - shared
    if shared > 1:
        # the rows of this path's own squares hold another path's values: solved anew from
        # 0. The encounter row of the first square shared (``first + 2``) holds the other
        # path's too, but depends on the square behind it, this path's: `_solve` writes it
        # anew once that square is solved.
        for table in solution[:3]:
            table[:, start_row : first + 2] = 0.0
        solution.sweeps[start_row : first + 2] = 0
    chance, finished_rounds, failed = _solve(
        cost,
        terrain,
        stuck,
        refill,
        (prob, mp, after),
        held,
        lost,
        keep,
        _refilled(),
        chain.two,
        kinds,
        params,
        chances,
        wins,
        chain.steady,
        chain.encounters,
        solution,
        first,
        start_row,
    )
    _converged(failed, chain.nodes)
    start_hands = _hand_probabilities(refill)
    # with no state that can get stuck every race finishes: exactly 1, not a sum of
    # starting hands' chances rounded
    finishing = float(start_hands @ chance) if chain.stuck.any() else 1.0
    rounds = float(start_hands @ finished_rounds) + (MAX_ROUNDS + 1) * (1.0 - finishing)
    states = (len(chain.nodes) + 1) * len(HANDS4) * chain.levels
    sweeps = int(solution.sweeps[start_row:].sum())
    return rounds, states, sweeps, 1.0 - finishing, chain.levels


def _solve_routes(
    board: Board,
    content: Content,
    character: int,
    advantage: int,
    encounters: bool,
    routes: list[int],
) -> list[Solved]:
    """One racer's result on each of ``routes``.

    The start paths differ only in their first squares. The longest route not solved
    before is solved in full; every other one, in the same tables, only on its own
    squares: the rows of the squares it ends in alike with the route solved before it are
    that route's already (a square's values depend only on the squares ahead of it). The
    values are those of solving each route on its own: the same operations on the same
    numbers.
    """
    chains = _chains(board, routes, content, character, advantage, encounters)
    found = {c.key: _SOLVED[c.key] for c in chains if c.key in _SOLVED}
    # the tables of the route solved last, and that route
    solution, last = None, None
    for chain in sorted(chains, key=lambda c: -len(c.nodes)):  # the first of equals first
        if chain.key in found:
            continue
        shared = chain.shared(last) if last is not None else 0
        if solution is None or shared == 0:  # no squares alike (curse levels differ)
            held = len(HANDS5) if chain.two else len(HANDS4)
            solution, shared = _unsolved(chain.levels, len(chain.nodes), held), 1
        found[chain.key] = _solve_chain(chain, solution, shared)
        last = chain
        if len(_SOLVED) >= KEEP_SOLVED:  # a sweep solves millions of tracks: forget the oldest
            del _SOLVED[next(iter(_SOLVED))]
        _SOLVED[chain.key] = found[chain.key]
    return [found[c.key] for c in chains]


def _converged(failed: int, nodes: np.ndarray) -> None:
    if failed > -2:
        where = "before the start" if failed < 0 else f"on square {failed + 1} of the route"
        raise TrackkitError(
            f"the exact solver did not settle {where} after "
            f"{MAX_SWEEPS:,} sweeps: a character there almost never gets on (a square that "
            "only the rarest card can pay for?); check the content, or use `trackkit simulate`"
        )


def _solve_pairs(
    board: Board, content: Content, pairs: list[tuple[int, int]], encounters: bool, route: int
) -> list[Solved]:
    return [_solve_routes(board, content, c, a, encounters, [route])[0] for c, a in pairs]


def _route(board: Board, path: str | None) -> int:
    """The index of start path ``path`` ("A"…), or the greedy route's when it is None."""
    if path is None:
        return greedy_route(board)
    labels = [start_path_label(r) for r in range(len(board.route_len))]
    if path not in labels:
        raise TrackkitError(
            f"the track's start tile has paths {', '.join(labels)}; there is no start path "
            f"{shown(str(path), 40)!r}"
        )
    return labels.index(path)


def _racer(
    content: Content, character: str | int | None, advantage: str | int | None
) -> tuple[list[int], list[int]]:
    """The characters and advantages (indices) a solo race is solved for: the one named,
    or every one when it is None (dealt at random)."""
    options = RaceOptions(
        players=1,
        characters=(character,) if character is not None else (),
        advantages=(advantage,) if advantage is not None else (),
        deck="infinite",  # the solver's model: the finite deck's own checks do not apply
        content=content,
    )
    characters = (
        [int(options.character_indices()[0])]
        if character is not None
        else list(range(len(content.character_names)))
    )
    advantages = (
        [int(options.advantage_indices()[0])]
        if advantage is not None
        else list(range(len(content.advantage_names)))
    )
    return characters, advantages


def exact_solo(
    track: Track,
    *,
    character: str | int | None = None,
    advantage: str | int | None = None,
    path: str | None = None,
    encounters: bool = True,
    content: Content | None = None,
    workers: int = 2,
    prepared: RaceBoard | None = None,
) -> ExactResult:
    """The exact expected rounds of a solo greedy race with the infinite deck.

    ``character`` and ``advantage`` (names or indices) fix who races; left out, the result
    is the average over every character and advantage dealt at random, as a simulation
    that deals them would estimate (the pairs are solved on ``workers`` processes).
    ``path`` is the start path raced ("A"…), or None for the greedy route (the start path
    with the lowest total MP, the one greedy takes). ``prepared`` is ``track``'s race board
    when the caller has it already (a profile, after its simulation), so the track is not
    composed again.
    """
    content = content or load_content()
    characters, advantages = _racer(content, character, advantage)
    board = (prepared or race_board(track)).board
    route = _route(board, path)
    pairs = [(c, a) for c in characters for a in advantages]
    if workers > 1 and len(pairs) > 8:
        chunks = [pairs[i::workers] for i in range(workers)]
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            futures = [
                pool.submit(_solve_pairs, board, content, chunk, encounters, route)
                for chunk in chunks
            ]
            solved = dict(
                zip(
                    [p for chunk in chunks for p in chunk],
                    [r for future in futures for r in future.result()],
                    strict=True,
                )
            )
    else:
        solved = dict(
            zip(pairs, _solve_pairs(board, content, pairs, encounters, route), strict=True)
        )
    values = [solved[pair][0] for pair in pairs]
    states = max(r[1] for r in solved.values())
    sweeps = max(r[2] for r in solved.values())
    return ExactResult(
        track=track.name,
        expected_rounds=float(np.mean(values)),
        character=content.character_names[characters[0]] if character is not None else "random",
        advantage=content.advantage_names[advantages[0]] if advantage is not None else "random",
        path=start_path_label(route),
        encounters=encounters,
        states=states,
        sweeps=sweeps,
        covers=COVERS if encounters else COVERS.split(", and with")[0] + " (encounters off)",
        never_finishes=float(np.mean([solved[pair][3] for pair in pairs])),
        curse_levels=max(r[4] for r in solved.values()),
    )


def exact_paths(
    track: Track,
    *,
    character: str | int,
    advantage: str | int,
    encounters: bool = True,
    content: Content | None = None,
    prepared: RaceBoard | None = None,
) -> dict[str, float]:
    """The exact expected rounds of one racer's solo race on each start path, by the
    path's letter: each as :func:`exact_solo` with that ``path`` gives it, solved together
    (the paths share every square after their first few, solved once).

    >>> from trackkit.games.yummell.presets import load_preset
    >>> paths = exact_paths(load_preset("first-run"), character=0, advantage=0)
    >>> sorted(paths), min(paths, key=paths.get)
    (['A', 'B', 'C'], 'A')
    """
    content = content or load_content()
    (who,), (what,) = _racer(content, character, advantage)
    board = (prepared or race_board(track)).board
    routes = list(range(len(board.route_len)))
    solved = _solve_routes(board, content, who, what, encounters, routes)
    return {start_path_label(r): result[0] for r, result in zip(routes, solved, strict=True)}


def exact_characters(
    track: Track,
    *,
    advantage: str | int | None = None,
    path: str | None = None,
    encounters: bool = True,
    content: Content | None = None,
    prepared: RaceBoard | None = None,
) -> dict[str, float]:
    """The exact expected rounds of each character's solo race with ``advantage`` (by
    default the ruleset's reference advantage, one that does nothing in a solo race), by
    the character's name, on start path ``path`` (None: the greedy route). Characters
    whose ability changes nothing here share one solution.
    """
    content = content or load_content()
    if advantage is None:
        advantage = get_ruleset("yummell").exact_reference(content)["advantage"]
    characters, (what,) = _racer(content, None, advantage)
    board = (prepared or race_board(track)).board
    route = _route(board, path)
    return {
        content.character_names[c]: _solve_routes(board, content, c, what, encounters, [route])[0][
            0
        ]
        for c in characters
    }


# solutions by their inputs: characters and advantages that change nothing in a solo race,
# and the same track asked for again, share one (the latest KEEP_SOLVED, in solving order)
KEEP_SOLVED = 4096
_SOLVED: dict[tuple[Any, ...], Solved] = {}
