"""The exact expected length of a solo race: a Markov chain, solved.

With one character, the infinite deck (every draw independent) and the greedy policy, a
race is a Markov chain over (square along the greedy route, hand as a multiset of four
card numbers, curse level). A turn only ever ends at or ahead of the square it began on
(going back follows advancing), so the chain is solved square by square from the finish
backwards, each square's few self-loops by fixed-point iteration. The result is the
exact expected number of rounds, free of sampling noise, and the simulator's oracle.

The rules come from :mod:`trackkit.race.rules` and the choices from
:mod:`trackkit.race.policies` (the same compiled functions the engine plays with).

Covered: movement with terrain costs and modifiers, the hand of four, draw-two-keep-one,
encounters (challenges won and lost, artefacts, the arrow events: push-backs, curses,
discarding one card). Truncated: curses stack up to :data:`MAX_CURSE` levels (a greedy
character never rests, so in principle without bound). Not covered: content with curses
on more than one terrain or discards of more than one card (an error says so).
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

from trackkit.errors import TrackkitError
from trackkit.race.content import (
    ADV_EFFECT,
    CARD_EFFECT,
    CARD_PARAM,
    CARD_TERRAIN,
    CARD_TYPE,
    MAX_CARD_NUMBER,
    CardType,
    Content,
    Effect,
    load_content,
)
from trackkit.race.policies import greedy_route
from trackkit.race.rules import challenge_total, challenge_won, is_steady, terrain_cost
from trackkit.race.setup import RaceOptions, race_board
from trackkit.race.state import Board
from trackkit.track import Track

MAX_CURSE = 4
COVERS = (
    "solo race, infinite deck, greedy policy: movement with terrain costs and modifiers, "
    "the hand of four, draw-two-keep-one, and with encounters challenges, artefacts and "
    "the arrow events (push-backs, curses, discarding one card); curses stack up to "
    f"{MAX_CURSE} levels (the only truncation)"
)
TOLERANCE = 1e-10  # on values of a few to a few dozen rounds
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


HANDS4, HANDS3 = _hands(4), _hands(3)
INDEX4 = np.full(9**4, -1, dtype=np.int64)
INDEX3 = np.full(9**3, -1, dtype=np.int64)
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
def _hand_tables(
    hands4: np.ndarray, hands3: np.ndarray, index4: np.ndarray, index3: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """How hands change, once for all: drawing a number to a hand of four and playing the
    highest (greedy), and drawing a number to a hand of three."""
    n4, n3 = hands4.shape[0], hands3.shape[0]
    played = np.zeros((n4, MAX_CARD_NUMBER + 1), dtype=np.int64)  # the MP played
    kept = np.zeros((n4, MAX_CARD_NUMBER + 1), dtype=np.int64)  # the hand left
    refilled = np.zeros((n3, MAX_CARD_NUMBER + 1), dtype=np.int64)
    dropped = np.zeros((n4, HAND), dtype=np.int64)  # hand of three after playing card c
    for h in range(n4):
        for number in range(1, MAX_CARD_NUMBER + 1):
            five = _with(hands4[h], number)
            played[h, number] = five[4]
            kept[h, number] = _index(five[:4], index4)
        for c in range(HAND):
            dropped[h, c] = _index(_without(hands4[h], c), index3)
    for h in range(n3):
        for number in range(1, MAX_CARD_NUMBER + 1):
            refilled[h, number] = _index(_with(hands3[h], number), index4)
    return played, kept, refilled, dropped


@njit(cache=True)
def _encounter_parts(
    end: int,
    expect: np.ndarray,
    after3: np.ndarray,
    kinds: np.ndarray,
    params: np.ndarray,
    chances: np.ndarray,
    pick: np.ndarray,
    dropped: np.ndarray,
    terrain: np.ndarray,
    steady: bool,
    finish: int,
) -> tuple[np.ndarray, np.ndarray, float]:
    """Drawing an encounter card on square ``end``, split by where it leaves the character.

    Returns, for every hand of four and curse level, the expected value of the outcomes
    that stay on or go beyond ``end``; per hand, the chance of losing a challenge (back one
    square, the lowest card played); and the chance of an event sending it back one square.
    Only the last two depend on the square behind, which may still be being solved.
    """
    levels, n4 = expect.shape[2], expect.shape[1]
    ahead = np.zeros((n4, levels))
    lose = np.zeros(n4)
    back = 0.0
    for k in range(kinds.shape[0]):
        kind = kinds[k]
        if (kind == BACK and not steady) or (
            kind == BACK_IF_TERRAIN and not steady and terrain[end] == params[k]
        ):
            back += chances[k]
    for level in range(levels):
        for h4 in range(n4):
            outcome = 0.0
            for k in range(kinds.shape[0]):
                kind, chance = kinds[k], chances[k]
                if kind == CREATURE:
                    c = pick[k, h4]
                    if c < 0:
                        if level == 0:
                            lose[h4] += chance
                    elif end + 1 != finish:
                        outcome += chance * after3[end + 2, dropped[h4, c], level]
                elif kind == DISCARD:
                    outcome += chance * after3[end + 1, dropped[h4, 0], level]
                elif kind == CURSE:
                    raised = min(level + params[k], levels - 1)
                    outcome += chance * expect[end + 1, h4, raised]
                elif (kind == BACK and not steady) or (
                    kind == BACK_IF_TERRAIN and not steady and terrain[end] == params[k]
                ):
                    pass  # counted in `back`
                else:
                    outcome += chance * expect[end + 1, h4, level]
            ahead[h4, level] = outcome
    return ahead, lose, back


@njit(cache=True)
def _combine(
    end: int,
    parts: tuple[np.ndarray, np.ndarray, float],
    encounter: np.ndarray,
    expect: np.ndarray,
    after3: np.ndarray,
    dropped: np.ndarray,
) -> None:
    """The encounter values on ``end`` from its parts and the square behind it."""
    ahead, lose, back = parts
    for level in range(expect.shape[2]):
        for h4 in range(expect.shape[1]):
            encounter[end + 1, h4, level] = (
                ahead[h4, level]
                + lose[h4] * after3[end, dropped[h4, 0], level]
                + back * expect[end, h4, level]
            )


@njit(cache=True)
def _solve(
    cost: np.ndarray,  # (squares, curse levels) MP to enter each square
    terrain: np.ndarray,  # (squares,)
    draw: np.ndarray,  # (9,) probability of each number at the Preparation draw
    refill: np.ndarray,  # (9,) probability of each number at any other draw
    kinds: np.ndarray,  # (k,) what each kind of encounter card does
    params: np.ndarray,  # (k,) its terrain or curse step
    chances: np.ndarray,  # (k,) its probability
    wins: np.ndarray,  # (k, 9) for creatures: does a card of each number win
    steady: bool,
    encounters: bool,
    hands4: np.ndarray,
    tables: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> tuple[np.ndarray, int]:
    played, kept, refilled, dropped = tables
    squares, levels = cost.shape
    finish = squares - 1
    n4, n3 = played.shape[0], refilled.shape[0]
    # values indexed by square + 1 (0 is off the board); the finish is worth 0
    expect = np.zeros((squares + 1, n4, levels))
    after3 = np.zeros((squares + 1, n3, levels))  # a 3-card hand's value, once refilled
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
    pick = np.zeros((kinds.shape[0], n4), dtype=np.int64)
    for k in range(kinds.shape[0]):
        for h in range(n4):
            pick[k, h] = -1
            for c in range(HAND):
                if wins[k, hands4[h, c]]:
                    pick[k, h] = c
                    break
    # value of an encounter after moving to `end` with hand h4, at each curse level;
    # for `end` two or more squares ahead of the square being solved it no longer changes
    encounter = np.zeros((squares + 1, n4, levels))
    sweeps = 0
    for square in range(finish - 1, -2, -1):
        row = square + 1
        if encounters and square + 2 < finish:
            parts = _encounter_parts(
                square + 2,
                expect,
                after3,
                kinds,
                params,
                chances,
                pick,
                dropped,
                terrain,
                steady,
                finish,
            )
            _combine(square + 2, parts, encounter, expect, after3, dropped)
        if encounters and square + 1 < finish:
            near = _encounter_parts(
                square + 1,
                expect,
                after3,
                kinds,
                params,
                chances,
                pick,
                dropped,
                terrain,
                steady,
                finish,
            )
        while True:
            sweeps += 1
            if encounters and square + 1 < finish:
                _combine(square + 1, near, encounter, expect, after3, dropped)
            change = 0.0
            for level in range(levels - 1, -1, -1):
                for h in range(n4):
                    value = 1.0
                    for number in range(1, MAX_CARD_NUMBER + 1):
                        p = draw[number]
                        if p == 0.0:
                            continue
                        h4 = kept[h, number]
                        end = reach[row, played[h, number], level]
                        if end == finish:
                            continue
                        if end == square or not encounters:
                            value += p * expect[end + 1, h4, level]
                        else:
                            value += p * encounter[end + 1, h4, level]
                    change = max(change, abs(value - expect[row, h, level]))
                    expect[row, h, level] = value
                for h in range(n3):
                    total = 0.0
                    for number in range(1, MAX_CARD_NUMBER + 1):
                        total += refill[number] * expect[row, refilled[h, number], level]
                    after3[row, h, level] = total
            if change < TOLERANCE:
                break
    return expect[0], sweeps


@dataclass(frozen=True)
class ExactResult:
    """The exact expected solo race length."""

    track: str
    expected_rounds: float
    character: str
    advantage: str
    encounters: bool
    states: int
    sweeps: int
    covers: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "track": self.track,
            "expected_rounds": self.expected_rounds,
            "character": self.character,
            "advantage": self.advantage,
            "encounters": self.encounters,
            "states": self.states,
            "sweeps": self.sweeps,
            "covers": self.covers,
        }


@lru_cache(maxsize=1)
def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return _hand_tables(HANDS4, HANDS3, INDEX4, INDEX3)


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
    cursed = {int(c[CARD_TERRAIN]) for c in cards if c[CARD_EFFECT] == Effect.CURSE and c[7]}
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
        elif card[CARD_TYPE] == CardType.EVENT and card[7]:
            effect = card[CARD_EFFECT]
            if effect == Effect.BACK:
                kind = BACK
            elif effect == Effect.BACK_IF_TERRAIN:
                kind, param = BACK_IF_TERRAIN, int(card[CARD_TERRAIN])
            elif effect == Effect.CURSE:
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


def _solve_pair(
    board: Board, content: Content, character: int, advantage: int, encounters: bool
) -> tuple[float, int, int]:
    route = greedy_route(board)
    nodes = board.route_nodes[route, : board.route_len[route]]
    character_row = content.characters[character]
    advantage_row = content.advantages[advantage]
    kinds, params, chances, wins = _encounter_table(content, character_row, advantage_row)
    cursed = [
        int(c[CARD_TERRAIN]) for c in content.cards if c[CARD_EFFECT] == Effect.CURSE and c[7]
    ]
    levels = MAX_CURSE + 1 if (encounters and cursed) else 1
    cost = np.zeros((len(nodes), levels), dtype=np.int64)
    no_events = np.zeros(4, dtype=np.int64)
    for level in range(levels):
        curse = np.zeros(4, dtype=np.int64)
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
    numbers = content.deck_numbers().astype(float)
    refill = numbers / numbers.sum()
    draw = refill.copy()
    if advantage_row[ADV_EFFECT] == Effect.DRAW_TWO_KEEP_ONE:
        below = np.cumsum(refill)
        draw = below**2 - np.concatenate(([0.0], below[:-1])) ** 2
    steady = bool(is_steady(character_row, advantage_row))
    terrain = board.node_terrain[nodes]
    # characters and advantages that change nothing in a solo race share one solution
    arrays = (cost, terrain, draw, refill, kinds, params, chances, wins)
    key = (*(a.tobytes() for a in arrays), steady, encounters)
    if key not in _SOLVED:
        expect, sweeps = _solve(
            cost,
            terrain,
            draw,
            refill,
            kinds,
            params,
            chances,
            wins,
            steady,
            encounters,
            HANDS4,
            _tables(),
        )
        start = float(_hand_probabilities(refill) @ expect[:, 0])
        _SOLVED[key] = (start, (len(nodes) + 1) * expect.size, sweeps)
    return _SOLVED[key]


def _solve_pairs(
    board: Board, content: Content, pairs: list[tuple[int, int]], encounters: bool
) -> list[tuple[float, int, int]]:
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
    )


# solutions by their inputs: characters and advantages that change nothing in a solo race,
# and the same track asked for again, share one
_SOLVED: dict[tuple[Any, ...], tuple[float, int, int]] = {}
