"""The exact expected length of a solo race: a Markov chain, solved.

With one character, the infinite deck (every draw independent) and the greedy policy, a
race is a Markov chain over (square along the greedy route, hand as a multiset of four
card numbers, curse level). A turn only ever ends at or ahead of the square it began on
(going back follows advancing), so the chain is solved square by square from the finish
backwards, each square's few self-loops by fixed-point iteration. The result is the
exact expected number of rounds, free of sampling noise, and the simulator's oracle.

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
chain (``q`` first, then ``m`` with reward ``q`` per turn, since ``m(s) = q(s) + E[m(s')]``)
and reports ``m + (MAX_ROUNDS + 1)(1 - q)``: the simulator's measure, exact but for races
that could finish yet take more than ``MAX_ROUNDS`` rounds (with a mean of a few dozen
rounds, a vanishing share), and the probability that a race never ends.

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
from typing import Any

import numpy as np
from numba import njit

from trackkit.board.track import Track
from trackkit.errors import TrackkitError
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
from trackkit.games.yummell.setup import RaceOptions, race_board
from trackkit.games.yummell.state import Board

COVERS = (
    "solo race, infinite deck, greedy policy: movement with terrain costs and modifiers, "
    "the hand of four, draw-two-keep-one, and with encounters challenges, artefacts and "
    "the arrow events (push-backs, curses without a cap, discarding one card); a race that "
    f"can never end counts {MAX_ROUNDS + 1} rounds, as the simulator counts it"
)
TOLERANCE = 1e-10  # on values of a few to a few dozen rounds
MAX_SWEEPS = 20_000  # per square: far more than any content seen needs (a few hundred)
MAX_LEVELS = 64  # curse levels: a curse of +1 on a 1-MP terrain needs 9
HAND = 4
# what an encounter card does to a solo greedy character, by kind
NOTHING, CREATURE, BACK, BACK_IF_TERRAIN, CURSE, DISCARD = range(6)


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
    ``hands5``. Returns, per hand of four and draw outcome: probability, MP played and the
    hand after moving; per hand after moving and card lost (to a challenge or a discard)
    the hand it leaves (of three to refill, or of four with the advantage), and the hand of
    four kept at Replenishment when no card is lost (itself, or the best four of five).
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
def _encounter_parts(
    end: int,
    expect: np.ndarray,
    lost_value: np.ndarray,
    kinds: np.ndarray,
    params: np.ndarray,
    chances: np.ndarray,
    pick: np.ndarray,
    lost: np.ndarray,
    keep: np.ndarray,
    terrain: np.ndarray,
    steady: bool,
) -> tuple[np.ndarray, np.ndarray, float]:
    """Drawing an encounter card on square ``end``, split by where it leaves the character.

    Returns, for every hand held after moving and curse level, the expected value of the
    outcomes that stay on or go beyond ``end``; per hand, the chance of losing a challenge
    (back one square, the lowest card played); and the chance of an event sending it back
    one square. Only the last two depend on the square behind, which may still be being
    solved. ``lost_value`` is the value of a hand that lost a card (refilled, or as it is
    with draw-two-keep-one), indexed by ``lost``; a hand that lost none is ``keep``.
    """
    levels, held = expect.shape[2], pick.shape[1]
    ahead = np.zeros((held, levels))
    lose = np.zeros(held)
    back = 0.0
    for k in range(kinds.shape[0]):
        kind = kinds[k]
        if (kind == BACK and not steady) or (
            kind == BACK_IF_TERRAIN and not steady and terrain[end] == params[k]
        ):
            back += chances[k]
    for level in range(levels):
        for m in range(held):
            outcome = 0.0
            for k in range(kinds.shape[0]):
                kind, chance = kinds[k], chances[k]
                if kind == CREATURE:
                    c = pick[k, m]
                    if c < 0:
                        if level == 0:
                            lose[m] += chance
                    else:  # won: one square ahead (the finish row holds its value)
                        outcome += chance * lost_value[end + 2, lost[m, c], level]
                elif kind == DISCARD:
                    outcome += chance * lost_value[end + 1, lost[m, 0], level]
                elif kind == CURSE:
                    raised = min(level + params[k], levels - 1)
                    outcome += chance * expect[end + 1, keep[m], raised]
                elif (kind == BACK and not steady) or (
                    kind == BACK_IF_TERRAIN and not steady and terrain[end] == params[k]
                ):
                    pass  # counted in `back`
                else:
                    outcome += chance * expect[end + 1, keep[m], level]
            ahead[m, level] = outcome
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
    for m in range(encounter.shape[1]):
        encounter[end + 1, m, level] = (
            ahead[m, level]
            + lose[m] * lost_value[end, lost[m, 0], level]
            + back * expect[end, keep[m], level]
        )


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
    reward: np.ndarray,  # (squares + 1, hands, levels) what each turn from a state adds
    at_finish: float,  # the value of reaching the finish
    sure: bool,  # values are chances of finishing: 1 where no stuck state lies ahead
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Values by fixed-point iteration, square by square; returns the values off the board,
    of every state, the sweeps made, and -2 or the square whose iteration did not settle."""
    prob, mp_played, after = turn
    squares, levels = cost.shape
    finish = squares - 1
    n4, n3 = prob.shape[0], refilled.shape[0]
    # values indexed by square + 1 (0 is off the board); the finish row holds its value,
    # a stuck state's value stays 0
    expect = np.zeros((squares + 1, n4, levels))
    after3 = np.zeros((squares + 1, n3, levels))  # a 3-card hand's value, once refilled
    expect[finish + 1, :, :] = at_finish
    after3[finish + 1, :, :] = at_finish
    lost_value = expect if two else after3
    # where each MP amount carries the character from each square, at each curse level
    reach = np.zeros((squares + 1, MAX_CARD_NUMBER + 1, levels), dtype=np.int64)
    for start in range(-1, finish):
        for mp in range(1, MAX_CARD_NUMBER + 1):
            for level in range(levels):
                i, left = start, mp
                while i + 1 < squares and cost[i + 1, level] <= left:
                    left -= cost[i + 1, level]
                    i += 1
                reach[start + 1, mp, level] = i
    # the card a greedy character plays in each challenge: lowest winning, else lowest
    pick = np.zeros((kinds.shape[0], held.shape[0]), dtype=np.int64)
    for k in range(kinds.shape[0]):
        for m in range(held.shape[0]):
            pick[k, m] = -1
            for c in range(held.shape[1]):
                if wins[k, held[m, c]]:
                    pick[k, m] = c
                    break
    # value of an encounter after moving to `end` with each hand held, at each curse level;
    # for `end` two or more squares ahead of the square being solved it no longer changes
    encounter = np.zeros((squares + 1, held.shape[0], levels))
    # from a row on, a turn never ends behind it: where no square ahead costs differently
    # at another curse level, every level has the values of level 0 (solved once, copied);
    # where no state ahead can be stuck, a race surely finishes (`at_finish` when the
    # values are chances of finishing, ``sure``)
    alike = np.zeros(squares + 1, dtype=np.bool_)
    doomed = np.zeros((squares + 1, levels), dtype=np.bool_)
    for row in range(squares - 1, -1, -1):
        alike[row] = (row == squares - 1 or alike[row + 1]) and (cost[row] == cost[row, 0]).all()
        for level in range(levels - 1, -1, -1):
            doomed[row, level] = stuck[row, level] or (row + 1 < squares and doomed[row + 1, level])
            if level + 1 < levels:
                doomed[row, level] = doomed[row, level] or doomed[row, level + 1]
    sweeps = 0
    for square in range(finish - 1, -2, -1):
        row = square + 1
        if encounters and square + 2 < finish:
            parts = _encounter_parts(
                square + 2,
                expect,
                lost_value,
                kinds,
                params,
                chances,
                pick,
                lost,
                keep,
                terrain,
                steady,
            )
            for level in range(levels):
                _combine(square + 2, level, parts, encounter, expect, lost_value, lost, keep)
        if encounters and square + 1 < finish:
            near = _encounter_parts(
                square + 1,
                expect,
                lost_value,
                kinds,
                params,
                chances,
                pick,
                lost,
                keep,
                terrain,
                steady,
            )
        # within a square, a turn keeps its curse level (curses come from encounters
        # ahead, on squares already solved): each level settles on its own, so the slow
        # ones (a hill only an 8 pays for) do not hold the others
        for level in range(levels - 1, -1, -1):
            if stuck[row, level]:
                continue  # never moves again: its values stay 0
            if alike[row] and level > 0:
                continue  # copied from level 0 below
            if sure and not doomed[row, level]:
                expect[row, :, level] = at_finish
                after3[row, :, level] = at_finish
                continue
            here = 0
            while True:
                sweeps += 1
                here += 1
                if here > MAX_SWEEPS:
                    return expect[0], expect, sweeps, square
                if encounters and square + 1 < finish:
                    _combine(square + 1, level, near, encounter, expect, lost_value, lost, keep)
                change = 0.0
                for h in range(n4):
                    value = reward[row, h, level]
                    for k in range(prob.shape[1]):
                        p = prob[h, k]
                        if p == 0.0:
                            break  # a hand's outcomes are packed first
                        m = after[h, k]
                        end = reach[row, mp_played[h, k], level]
                        if end == finish:
                            value += p * at_finish
                        elif end == square or not encounters:
                            value += p * expect[end + 1, keep[m], level]
                        else:
                            value += p * encounter[end + 1, m, level]
                    change = max(change, abs(value - expect[row, h, level]))
                    expect[row, h, level] = value
                for h in range(n3):
                    total = 0.0
                    for number in range(1, MAX_CARD_NUMBER + 1):
                        total += refill[number] * expect[row, refilled[h, number], level]
                    after3[row, h, level] = total
                if change < TOLERANCE:
                    break
        if alike[row]:
            for level in range(1, levels):
                expect[row, :, level] = expect[row, :, 0]
                after3[row, :, level] = after3[row, :, 0]
    return expect[0], expect, sweeps, -2


@dataclass(frozen=True)
class ExactResult:
    """The exact expected solo race length.

    ``never_finishes`` is the probability that the race can never end (a curse has made
    the next square dearer than any card, and greedy never rests); such a race counts
    ``MAX_ROUNDS + 1`` rounds in ``expected_rounds``, as in the simulator.
    """

    track: str
    expected_rounds: float
    character: str
    advantage: str
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
    cursed = {
        int(c[CARD_TERRAIN]) for c in cards if c[CARD_EFFECT] == Effect.CURSE and c[CARD_ARROW]
    }
    if len(cursed) > 1:
        raise TrackkitError("the exact solver covers curses on one terrain only")
    for card in cards:
        kind, param = NOTHING, 0
        win = np.zeros(MAX_CARD_NUMBER + 1, dtype=np.bool_)
        if card[CARD_TYPE] == CardType.CREATURE:
            kind = CREATURE
            for number in range(1, MAX_CARD_NUMBER + 1):
                total = challenge_total(character, advantage, card, number)
                win[number] = challenge_won(total, card)
        elif card[CARD_TYPE] == CardType.EVENT and card[CARD_ARROW]:
            effect = card[CARD_EFFECT]
            if effect == Effect.BACK:
                kind = BACK
            elif effect == Effect.BACK_IF_TERRAIN:
                kind, param = BACK_IF_TERRAIN, int(card[CARD_TERRAIN])
            elif effect == Effect.CURSE:
                if card[CARD_PARAM] < 1:
                    raise TrackkitError(
                        "the exact solver covers curses that make terrain dearer (delta 1 or "
                        f"more), not delta {card[CARD_PARAM]}"
                    )
                kind, param = CURSE, int(card[CARD_PARAM])
            elif effect == Effect.DISCARD:
                if card[CARD_PARAM] != 1:
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


def _solve_pair(
    board: Board, content: Content, character: int, advantage: int, encounters: bool
) -> tuple[float, int, int, float, int]:
    route = greedy_route(board)
    nodes = board.route_nodes[route, : board.route_len[route]]
    character_row = content.characters[character]
    advantage_row = content.advantages[advantage]
    kinds, params, chances, wins = _encounter_table(content, character_row, advantage_row)
    cursed = [
        int(c[CARD_TERRAIN])
        for c in content.cards
        if c[CARD_EFFECT] == Effect.CURSE and c[CARD_ARROW]
    ]
    numbers = content.deck_numbers().astype(float)
    refill = numbers / numbers.sum()
    highest = int(np.flatnonzero(refill)[-1])
    levels = curse_levels(
        board,
        nodes,
        character_row,
        advantage_row,
        cursed[0] if (encounters and cursed) else None,
        highest,
    )
    cost = np.zeros((len(nodes), levels), dtype=np.int64)
    no_events = np.zeros(TERRAIN_COUNT, dtype=np.int64)
    for level in range(levels):
        curse = np.zeros(TERRAIN_COUNT, dtype=np.int64)
        if cursed:
            curse[cursed[0]] = level
        for i, node in enumerate(nodes):
            cost[i, level] = terrain_cost(
                board.node_base[node],
                board.node_terrain[node],
                character_row,
                advantage_row,
                curse,
                no_events,
            )
    # a character whose next square costs more than any card can never move again
    stuck = np.zeros((len(nodes) + 1, levels), dtype=np.bool_)  # by row: square + 1
    stuck[:-1] = cost > highest
    two = bool(advantage_row[ADV_EFFECT] == Effect.DRAW_TWO_KEEP_ONE)
    below = np.cumsum(refill)
    best_of_two = below**2 - np.concatenate(([0.0], below[:-1])) ** 2
    steady = bool(is_steady(character_row, advantage_row))
    terrain = board.node_terrain[nodes]
    # characters and advantages that change nothing in a solo race share one solution
    arrays = (cost, terrain, refill, kinds, params, chances, wins)
    key = (*(a.tobytes() for a in arrays), steady, encounters, two)
    if key not in _SOLVED:
        prob, mp, after, held, lost, keep = _turns(refill.tobytes(), best_of_two.tobytes(), two)
        solve_args = (
            cost,
            terrain,
            stuck,
            refill,
            (prob, mp, after),
            held,
            lost,
            keep,
            _refilled(),
            two,
            kinds,
            params,
            chances,
            wins,
            steady,
            encounters,
        )
        shape = (len(nodes) + 1, len(HANDS4), levels)
        start_hands = _hand_probabilities(refill)
        finishing, sweeps = 1.0, 0
        if stuck.any():
            # first the chance of finishing from every state, then the rounds of the races
            # that finish, each turn weighted by that chance
            start, finish_chance, sweeps, failed = _solve(*solve_args, np.zeros(shape), 1.0, True)
            _converged(failed, nodes)
            finishing = float(start_hands @ start[:, 0])
            reward = finish_chance
        else:
            reward = np.ones(shape)
        start, _, more_sweeps, failed = _solve(*solve_args, reward, 0.0, False)
        _converged(failed, nodes)
        rounds = float(start_hands @ start[:, 0]) + (MAX_ROUNDS + 1) * (1.0 - finishing)
        states = shape[0] * shape[1] * shape[2]
        _SOLVED[key] = (rounds, states, sweeps + more_sweeps, 1.0 - finishing, levels)
    return _SOLVED[key]


def _converged(failed: int, nodes: np.ndarray) -> None:
    if failed > -2:
        where = "before the start" if failed < 0 else f"on square {failed + 1} of the route"
        raise TrackkitError(
            f"the exact solver did not settle {where} after "
            f"{MAX_SWEEPS:,} sweeps: a character there almost never gets on (a square that "
            "only the rarest card can pay for?); check the content, or use `trackkit simulate`"
        )


def _solve_pairs(
    board: Board, content: Content, pairs: list[tuple[int, int]], encounters: bool
) -> list[tuple[float, int, int, float, int]]:
    return [_solve_pair(board, content, c, a, encounters) for c, a in pairs]


def exact_solo(
    track: Track,
    *,
    character: str | int | None = None,
    advantage: str | int | None = None,
    encounters: bool = True,
    content: Content | None = None,
    workers: int = 2,
) -> ExactResult:
    """The exact expected rounds of a solo greedy race with the infinite deck.

    ``character`` and ``advantage`` (names or indices) fix who races; left out, the result
    is the average over every character and advantage dealt at random, as a simulation
    that deals them would estimate (the pairs are solved on ``workers`` processes).
    """
    content = content or load_content()
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
        else range(len(content.character_names))
    )
    advantages = (
        [int(options.advantage_indices()[0])]
        if advantage is not None
        else range(len(content.advantage_names))
    )
    board = race_board(track).board
    pairs = [(c, a) for c in characters for a in advantages]
    if workers > 1 and len(pairs) > 8:
        chunks = [pairs[i::workers] for i in range(workers)]
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            futures = [
                pool.submit(_solve_pairs, board, content, chunk, encounters) for chunk in chunks
            ]
            solved = dict(
                zip(
                    [p for chunk in chunks for p in chunk],
                    [r for future in futures for r in future.result()],
                    strict=True,
                )
            )
    else:
        solved = dict(zip(pairs, _solve_pairs(board, content, pairs, encounters), strict=True))
    values = [solved[pair][0] for pair in pairs]
    states = max(r[1] for r in solved.values())
    sweeps = max(r[2] for r in solved.values())
    return ExactResult(
        track=track.name,
        expected_rounds=float(np.mean(values)),
        character=content.character_names[characters[0]] if character is not None else "random",
        advantage=content.advantage_names[advantages[0]] if advantage is not None else "random",
        encounters=encounters,
        states=states,
        sweeps=sweeps,
        covers=COVERS if encounters else COVERS.split(", and with")[0] + " (encounters off)",
        never_finishes=float(np.mean([solved[pair][3] for pair in pairs])),
        curse_levels=max(r[4] for r in solved.values()),
    )


# solutions by their inputs: characters and advantages that change nothing in a solo race,
# and the same track asked for again, share one
_SOLVED: dict[tuple[Any, ...], tuple[float, int, int, float, int]] = {}
