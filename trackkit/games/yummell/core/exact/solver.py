"""The exact solver's chain, solved (:mod:`trackkit.games.yummell.core.exact`): each square's
equations over the hands, at each curse level, from the finish backwards, settled by
Gauss-Seidel sweeps."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from trackkit.games.yummell.core.content import MAX_CARD_NUMBER
from trackkit.games.yummell.core.exact.encounters import (
    Draws,
    Racer,
    _challenges,
    _combine,
    _encounter_parts,
)
from trackkit.games.yummell.core.exact.hands import (
    CHANCE,
    HANDS3,
    HANDS4,
    ROUNDS,
    VALUES,
    TurnTables,
)

TOLERANCE = 1e-10  # on values of a few to a few dozen rounds
MAX_SWEEPS = 20_000  # per square and curse level: far more than any content seen needs (42)


class Squares(NamedTuple):
    """A chain's squares, the solution's last rows (:func:`_solve`)."""

    cost: np.ndarray  # (squares, curse levels) MP to enter each square
    terrain: np.ndarray  # (squares,)
    stuck: np.ndarray  # (squares + 1, levels) by row: no card pays for the next square


class Refill(NamedTuple):
    """The Replenishment draw: each number's chance, and the hand of four each hand of
    three becomes with each number (:func:`~.hands._refill_table`)."""

    chances: np.ndarray  # (9,)
    refilled: np.ndarray  # (hands of three, 9)


class Equations(NamedTuple):
    """One square's equations at one curse level (:func:`_equations`), for both values::

        x[h] = leave[h] * (known[value, h] + sum(weights[e] * x[columns[e]]
                                                 for e in range(starts[h], starts[h + 1])))

    (the ``ROUNDS`` values also add their reward, the ``CHANCE`` value of the state: see
    :func:`_sweep`)."""

    known: np.ndarray  # (VALUES, hands) the known part of each hand's value
    leave: np.ndarray  # (hands,) 1 / (1 - the chance of coming back as itself)
    starts: np.ndarray  # (hands + 1,) where each hand's terms start
    columns: np.ndarray  # the hand each term names
    weights: np.ndarray  # its weight
    threes: np.ndarray  # the three-card hands the equations name


class Work(NamedTuple):
    """Working space for writing :class:`Equations`, by column (hands of four, then of
    three)."""

    scratch: np.ndarray  # (columns,) the coefficients of the equation being written
    named: np.ndarray  # (columns,) the columns it names
    final: np.ndarray  # (hands,) whose value is final after one sweep
    pending: np.ndarray  # (hands,) those that wait on others
    wanted: np.ndarray  # (hands of three,) named already


class Level(NamedTuple):
    """What one square's equations read at one curse level (:func:`_equations`)."""

    ends: np.ndarray  # (9,) where each MP amount carries the character from the square
    expect: np.ndarray  # (squares + 1, hands of four, VALUES) by row
    encounter: np.ndarray  # (squares + 1, hands held, VALUES) by row
    near: tuple[np.ndarray, np.ndarray, float]  # the encounter one square ahead, in parts


class Solution(NamedTuple):
    """A chain's values as :func:`_solve` fills them in from the finish backwards: by curse
    level, row (square + 1, row 0 off the board), hand and value (``CHANCE``, ``ROUNDS``).
    The finish row holds a finished race's (chance 1, no more rounds); a stuck state's
    stay 0. The start paths of a track share one: a route shorter than the longest fills
    its last rows (:func:`~.chains._solve_routes`)."""

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
    level: Level,
    turns: TurnTables,
    racer: Racer,
    equations: Equations,
    work: Work,
) -> tuple[int, int]:
    """The equations of the hands on ``square`` at one curse level (:class:`Equations`),
    for both values. ``level`` holds where each MP amount carries the character from
    ``square`` and that curse level's values (:class:`Level`; ``near[0]`` is
    :func:`_encounter_parts` one square ahead, at that level).

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
    prob, mp_played, after = turns.prob, turns.mp, turns.after
    keep, lost = turns.keep, turns.lost
    ends, expect, encounter = level.ends, level.expect, level.encounter
    known, leave, starts, columns, weights, threes = equations
    scratch, named, final, pending, wanted = work
    ahead, lose, back = level.near
    two, encounters = racer.two, racer.encounters
    hands = prob.shape[0]
    stays, leaves = _thresholds(square, level, encounters)
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


@njit(cache=True, inline="always")
def _thresholds(square: int, level: Level, encounters: bool) -> tuple[int, int]:
    """The least MP that leave ``square`` (a hand's outcomes come in ascending MP: those
    that end in place first, then, with encounters, those that end one square ahead and
    may come back, then those that leave for good), and the least that leave it for good."""
    stays = leaves = MAX_CARD_NUMBER + 1  # the least MP that leaves: the square, for good
    finish = level.expect.shape[0] - 2
    ends = level.ends
    for mp in range(MAX_CARD_NUMBER, 0, -1):  # more MP never ends further back
        end = ends[mp]
        if end > square:
            stays = mp
            if end > square + 1 or end == finish or not encounters:
                leaves = mp
    return stays, leaves


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


@njit(cache=True)
def _solve(
    chain: Squares,
    turns: TurnTables,
    refill: Refill,
    draws: Draws,
    racer: Racer,
    solution: Solution,  # the rows after ``first`` given, the others filled in here
    first: int,  # the last square solved: from here back to the start
    start_row: int,  # the row the route starts on, off the board (its rows come last)
) -> tuple[np.ndarray, np.ndarray, int]:
    """The chance of finishing and the rounds of the races that finish (``q`` and ``m`` of
    the package docstring), square by square from ``first`` back to the start, each square's
    hands at each curse level by Gauss-Seidel sweeps (:func:`_equations`, :func:`_settle`),
    into ``solution``. Returns both values of every hand off the board and -2 or the
    route's square whose sweeps did not settle.

    A square's values depend only on the squares ahead of it: the rows after ``first`` are
    read from ``solution`` as given, the finish's alone (:func:`_unsolved`) or those of
    another start path that ends in the same squares. The squares are those of the last
    rows, from ``start_row`` on: the rows before it (another path's) are not read. A square
    is ``row - 1`` here, its row minus ``start_row`` on its route.
    """
    squares, levels = chain.cost.shape
    finish = squares - 1
    n4 = turns.prob.shape[0]
    expect, encounter = solution.expect, solution.encounter
    lost_value = expect if racer.two else solution.after3
    reach = _reach(chain.cost)
    challenges = _challenges(draws.kinds, draws.chances, draws.wins, turns.held)
    alike, doomed = _alike_and_doomed(chain.cost, chain.stuck)
    equations, work = _workspace(n4, refill.refilled.shape[0])
    # their values, by value and column (the hands of four, then the three-card hands)
    x = np.zeros((VALUES, n4 + refill.refilled.shape[0]))
    # the encounter one square ahead, in parts (see `_encounter_parts`)
    near = (np.zeros((levels, turns.held.shape[0], VALUES)), np.zeros(turns.held.shape[0]), 0.0)
    for square in range(first, start_row - 2, -1):
        row = square + 1
        one_ahead = racer.encounters and square + 1 < finish
        if one_ahead:
            near = _encounter_parts(
                square + 1,
                expect,
                lost_value,
                draws,
                challenges,
                turns,
                chain.terrain,
                racer,
            )
        # within a square, a turn keeps its curse level (curses come from encounters
        # ahead, on squares already solved): each level is solved on its own
        for level in range(levels - 1, -1, -1):
            if chain.stuck[row, level]:
                continue  # never moves again: its values stay 0
            if alike[row] and level > 0:
                continue  # copied from level 0 below
            at_level = Level(
                reach[level, row],
                expect[level],
                encounter[level],
                (near[0][level], near[1], near[2]),
            )
            waiting, named_threes = _equations(square, at_level, turns, racer, equations, work)
            sure = not doomed[row, level]
            pending = work.pending[:waiting]
            here = _settle(
                x, equations, pending, named_threes, sure, refill.refilled, refill.chances
            )
            solution.sweeps[row] += here
            if here > MAX_SWEEPS:
                chance, rounds = expect[0, start_row, :, CHANCE], expect[0, start_row, :, ROUNDS]
                return chance, rounds, square - start_row
            _keep_values(x, solution, level, row, refill)
        if alike[row]:
            for level in range(1, levels):
                expect[level, row] = expect[0, row]
                solution.after3[level, row] = solution.after3[0, row]
        if one_ahead:  # this square solved, the encounter one square ahead is known
            for level in range(levels):
                _combine(
                    square + 1, level, near, encounter, expect, lost_value, turns.lost, turns.keep
                )
    return expect[0, start_row, :, CHANCE], expect[0, start_row, :, ROUNDS], -2


@njit(cache=True, inline="always")
def _reach(cost: np.ndarray) -> np.ndarray:
    """Where each MP amount carries the character from each square (by row: square + 1),
    at each curse level."""
    squares, levels = cost.shape
    reach = np.zeros((levels, squares + 1, MAX_CARD_NUMBER + 1), dtype=np.int64)
    for start in range(-1, squares - 1):
        for mp in range(1, MAX_CARD_NUMBER + 1):
            for level in range(levels):
                i, left = start, mp
                while i + 1 < squares and cost[i + 1, level] <= left:
                    left -= cost[i + 1, level]
                    i += 1
                reach[level, start + 1, mp] = i
    return reach


@njit(cache=True, inline="always")
def _alike_and_doomed(cost: np.ndarray, stuck: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """From a row on, a turn never ends behind it: where no square ahead costs differently
    at another curse level, every level has the values of level 0 (``alike``: solved
    once, copied); where no state ahead can be stuck, a race surely finishes (not
    ``doomed``: chance 1)."""
    squares, levels = cost.shape
    alike = np.zeros(squares + 1, dtype=np.bool_)
    doomed = np.zeros((squares + 1, levels), dtype=np.bool_)
    for row in range(squares - 1, -1, -1):
        alike[row] = (row == squares - 1 or alike[row + 1]) and (cost[row] == cost[row, 0]).all()
        for level in range(levels - 1, -1, -1):
            doomed[row, level] = stuck[row, level] or (row + 1 < squares and doomed[row + 1, level])
            if level + 1 < levels:
                doomed[row, level] = doomed[row, level] or doomed[row, level + 1]
    return alike, doomed


@njit(cache=True, inline="always")
def _workspace(n4: int, n3: int) -> tuple[Equations, Work]:
    """Space to write one square's equations at one level in (see :func:`_equations`),
    written anew for each."""
    equations = Equations(
        np.zeros((VALUES, n4)),
        np.zeros(n4),
        np.zeros(n4 + 1, dtype=np.int64),
        np.zeros(n4 * (n4 + n3), dtype=np.int64),
        np.zeros(n4 * (n4 + n3)),
        np.zeros(n3, dtype=np.int64),
    )
    work = Work(
        np.zeros(n4 + n3),
        np.zeros(n4 + n3, dtype=np.int64),
        np.zeros(n4, dtype=np.bool_),
        np.zeros(n4, dtype=np.int64),
        np.zeros(n3, dtype=np.bool_),
    )
    return equations, work


@njit(cache=True, inline="always")
def _keep_values(x: np.ndarray, solution: Solution, level: int, row: int, refill: Refill) -> None:
    """A square's settled values at ``level`` into ``solution``: the hands of four, and
    each hand of three as the average over the card that refills it."""
    expect, after3 = solution.expect, solution.after3
    chances, refilled = refill.chances, refill.refilled
    n4, n3 = expect.shape[2], refilled.shape[0]
    for value in range(VALUES):
        expect[level, row, :, value] = x[value, :n4]
        for h in range(n3):
            total = 0.0
            for number in range(1, MAX_CARD_NUMBER + 1):
                total += chances[number] * x[value, refilled[h, number]]
            after3[level, row, h, value] = total
