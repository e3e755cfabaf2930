"""The planning musher (policy ``planner``): at each of its turns it weighs a few options
by playing the race out to its end from each, and plays the one that won most often.

**The options** are what the other policies would play in its place: smart's choice,
then greedy's and bold's when they differ from it (:func:`.policies.choose_plan_as`).
When all three agree there is nothing to weigh and the turn costs no more than smart's.

**A playout** copies the race (:class:`.state.Planning`), plays the option, then every
sled, this one too, plays smart to the end of the race (:func:`play_out`, the engine's
own turns, :mod:`.turn`). Each option is played out ``budget`` times
(``RaceOptions.budget``), and the ``k``-th playout of every option starts from the same
guess of what is hidden and draws the same random numbers (common random numbers): the
options differ by what the sled did, not by the luck of their playouts.

**What it may not see.** A musher sees the board, every sled's dogs, die and collision
cards, the cards under the dogs (each was played or discarded in view), the 5s still in
the box, its own hand, and how many cards each hand and deck holds. It does not see the
order of any deck, its own included, nor the rivals' hands (SNOWTAILS.md does not make
hands public: they are held like any hand of cards). Each playout deals those afresh
(:func:`determinise`): its own deck shuffled anew, each rival's hand and deck dealt from
the cards the two hold between them, each from the cards sorted by value, so that the
real order cannot leak into the guess. These guesses and the playouts' draws come from a
random stream of the planner's own (:func:`next_draw`, seeded per batch of races from the
simulation's seed, :data:`.state.PLAN_KEY`), never from the race's: the race deals,
shuffles and draws start orders exactly as a race that seats no planner does.

**The choice.** A playout is worth the sled's win share (1, or 1/k when k sleds share the
win) plus a quarter of its place share ((P − placing) / (P − 1): the smooth tie-breaker
that tells a near miss from a rout). An option replaces smart's only when it gains over
the playouts, paired playout by playout, more than one standard deviation of the paired
differences (:data:`NOISE_SDS`): on a tie or within noise the planner plays as smart.

**Measured** (``trackkit.explore.ladder.ladder_step``, planner over smart, 1,000 race
pairs, budget 16): seed 0 / seed 1 in points at 3 and 5 sleds, husky-oval +4.1/+4.5 and +3.1/+3.8,
long-trail +11.1/+12.3 and +9.9/+11.4, reversed-ridge +16.5/+16.2 and +10.2/+11.3,
chicane +15.0/+14.3 and +9.3/+9.6, every interval above 0. Its cost at budget 16, five
planners against five smart sleds (``simulate``, 5 sleds): 239 against 16,300 races a
second on husky-oval (68 times smart's time), 47 against 9,300 on long-trail (200 times).
Budget 4 gained less at 3 sleds (husky-oval +9.1 against +11.1 at 16, long-trail +7.1
against +15.3; 300 pairs, seed 0, before smart's hand pips went): 16 is the default.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trackkit.games.snowtails.core.board import Board
from trackkit.games.snowtails.core.policies import BOLD, GREEDY, SMART, choose_plan_as
from trackkit.games.snowtails.core.state import (
    ENDING,
    OVER,
    PLAN_FIELDS,
    PLANNER_BUDGET,
    PLANNER_DRAWS,
    PLANNER_MASTER,
    RANDOM_BUFFER,
    ROUND,
    VALUES,
    Planning,
    Race,
    Scratch,
    Setup,
    Sleds,
    rand_below,
)
from trackkit.games.snowtails.core.turn import (
    MAX_ROUNDS,
    placings,
    play_turn,
    race_position,
    start_round,
    turn_draws,
)
from trackkit.games.unmanaged import no_runtime

WIN = 840  # a whole win in a playout's worth: 840 shares evenly among 1 to 8 sleds
PLACE = WIN // 4  # the whole place share, a quarter of a win: the tie-breaker
NOISE_SDS = 1  # an option beats smart's by more than this many paired deviations
OPTION_POLICIES = (SMART, GREEDY, BOLD)  # smart's option first: the default

# rows of Planning.outcome: per option, summed worth, summed paired difference, its square
O_WORTH, O_DIFF, O_SQUARE = 0, 1, 2

M32 = 0xFFFFFFFF


# --- the planner's own random stream ------------------------------------------------------


@njit(cache=True, inline="always")
def mix32(x: int) -> int:
    """A 32-bit integer hash (xorshift-multiply; every product stays below 2**63, so the
    same numbers come compiled or as plain Python)."""
    x = (x ^ (x >> 16)) & M32
    x = (x * 0x7FEB352D) & M32
    x ^= x >> 15
    x = (x * 0x5BD1E995) & M32
    return x ^ (x >> 16)


@njit(cache=True, inline="always")
def next_draw(state: np.ndarray, at: int) -> int:
    """The next 32-bit draw of the generator kept in ``state[at]`` (a 32-bit linear
    congruential counter, hashed)."""
    counter = (state[at] * 1664525 + 1013904223) & M32
    state[at] = counter
    return mix32(counter)


@no_runtime
def top_up_own(stream: np.ndarray, state: np.ndarray, needed: int) -> None:
    """:func:`.state.top_up_stream` for a playout: ``needed`` fresh draws of the planner's
    own generator at the end of the buffer when fewer are left."""
    if RANDOM_BUFFER - stream[RANDOM_BUFFER] < needed:
        for i in range(RANDOM_BUFFER - needed, RANDOM_BUFFER):
            stream[i] = next_draw(state, PLANNER_DRAWS)
        stream[RANDOM_BUFFER] = RANDOM_BUFFER - needed


# --- a playout ---------------------------------------------------------------------------------


@no_runtime
def copy_race(race: Race, sleds: Sleds, into: Planning) -> None:
    """The race as it stands into the playout's arrays (not the random stream, not the
    tallies a batch keeps); every sled of the playout plays smart."""
    to_race, to_sleds = into.race, into.sleds
    for i in range(race.trees.shape[0]):
        to_race.trees[i] = race.trees[i]
        to_race.occupancy[i] = race.occupancy[i]
    for i in range(race.status.shape[0]):
        to_race.status[i] = race.status[i]
    for p in range(sleds.node.shape[0]):
        to_race.order[p] = race.order[p]
        to_sleds.node[p], to_sleds.slot[p] = sleds.node[p], sleds.slot[p]
        to_sleds.policy[p] = SMART
        to_sleds.left[p], to_sleds.right[p] = sleds.left[p], sleds.right[p]
        to_sleds.die[p], to_sleds.collisions[p] = sleds.die[p], sleds.collisions[p]
        to_sleds.deck_n[p], to_sleds.boxed[p] = sleds.deck_n[p], sleds.boxed[p]
        to_sleds.repairing[p], to_sleds.forced[p] = sleds.repairing[p], sleds.forced[p]
        for v in range(VALUES):
            to_sleds.hand[p, v], to_sleds.under[p, v] = sleds.hand[p, v], sleds.under[p, v]
        for i in range(sleds.deck.shape[1]):
            to_sleds.deck[p, i] = sleds.deck[p, i]
        for i in range(sleds.stats.shape[1]):
            to_sleds.stats[p, i] = sleds.stats[p, i]


@no_runtime
def determinise(sleds: Sleds, p: int, pool: np.ndarray, stream: np.ndarray) -> None:
    """Deal what sled ``p`` cannot see afresh (module docstring): its own deck reshuffled;
    each rival's hand and deck dealt from the cards they hold between them. Each from the
    cards sorted by value, so the result depends on what is known only."""
    deck, hand = sleds.deck, sleds.hand
    for q in range(sleds.node.shape[0]):
        n = sleds.deck_n[q]
        held = 0
        if q != p:
            for v in range(VALUES):
                held += hand[q, v]
        k = 0
        for v in range(VALUES):  # the deck's cards, then (a rival) the hand's, by value
            c = 0
            for i in range(n):
                if deck[q, i] == v:
                    c += 1
            if q != p:
                c += hand[q, v]
                hand[q, v] = 0
            for _ in range(c):
                pool[k] = v
                k += 1
        for i in range(k - 1, 0, -1):  # Fisher-Yates, as state.shuffle
            j = rand_below(stream, i + 1)
            pool[i], pool[j] = pool[j], pool[i]
        for i in range(n):
            deck[q, i] = pool[i]
        for i in range(n, n + held):
            hand[q, pool[i]] += 1


@no_runtime
def play_on(board: Board, setup: Setup, planning: Planning, scratch: Scratch, p: int) -> bool:
    """Sled ``p``'s turn of a playout (smart's plan, the engine's turn); whether the race
    stopped at once."""
    race, sleds = planning.race, planning.sleds
    top_up_own(race.stream, planning.state, turn_draws(sleds))
    position = race_position(board.rank, sleds.node, sleds.slot, p)
    choose_plan_as(board, setup, race, sleds, scratch, p, position, SMART)
    play_turn(board, setup, race, sleds, p, scratch.plan, position)
    return race.status[OVER] != 0


@no_runtime
def play_out(board: Board, setup: Setup, planning: Planning, scratch: Scratch, after: int) -> None:
    """Play a playout to the end of the race: the rest of this round's turns (those after
    place ``after`` of its turn order), then the rounds to come, as the engine's
    :func:`.engine.play_race` does."""
    race, sleds = planning.race, planning.sleds
    n = sleds.node.shape[0]
    for k in range(after + 1, n):
        q = race.order[k]
        if sleds.repairing[q] == 0 and play_on(board, setup, planning, scratch, q):
            return
    if race.status[ENDING] != 0:
        return
    for rnd in range(race.status[ROUND] + 1, MAX_ROUNDS + 1):
        race.status[ROUND] = rnd
        start_round(board, race, sleds)
        for k in range(n):
            q = race.order[k]
            if sleds.repairing[q] == 0 and play_on(board, setup, planning, scratch, q):
                return
        if race.status[ENDING] != 0:
            return


@njit(cache=True, inline="always")
def worth(placing: np.ndarray, p: int) -> int:
    """What a playout's end is worth to sled ``p`` (module docstring)."""
    n = placing.shape[0]
    value = PLACE * (n - placing[p]) // (n - 1)
    if placing[p] == 1:
        shared = 0
        for q in range(n):
            if placing[q] == 1:
                shared += 1
        value += WIN // shared
    return value


# --- the choice ---------------------------------------------------------------------------------


@no_runtime
def gather_options(
    board: Board,
    setup: Setup,
    race: Race,
    sleds: Sleds,
    scratch: Scratch,
    planning: Planning,
    p: int,
    position: int,
) -> int:
    """The plans smart, greedy and bold would play (smart's first), each once; their
    number."""
    options, plan = planning.options, scratch.plan
    n = 0
    for policy in OPTION_POLICIES:
        choose_plan_as(board, setup, race, sleds, scratch, p, position, policy)
        new = True
        for o in range(n):
            same = True
            for f in range(PLAN_FIELDS):
                if options[o, f] != plan[f]:
                    same = False
            if same:
                new = False
        if new:
            for f in range(PLAN_FIELDS):
                options[n, f] = plan[f]
            n += 1
    return n


@no_runtime
def plan_turn(
    board: Board, setup: Setup, race: Race, sleds: Sleds, scratch: Scratch, p: int, position: int
) -> None:
    """Write the planning sled ``p``'s plan for this turn into ``scratch.plan`` (module
    docstring); ``position`` is its race position now."""
    planning = scratch.planning
    options, outcome, state = planning.options, planning.outcome, planning.state
    n = gather_options(board, setup, race, sleds, scratch, planning, p, position)
    best = 0
    if n > 1:
        after = 0
        for k in range(sleds.node.shape[0]):
            if race.order[k] == p:
                after = k
        for o in range(n):
            outcome[O_WORTH, o], outcome[O_DIFF, o], outcome[O_SQUARE, o] = 0, 0, 0
        stream, pool = planning.race.stream, planning.pool
        for _ in range(state[PLANNER_BUDGET]):
            seed = next_draw(state, PLANNER_MASTER)  # this playout's guess and draws
            base = 0
            for o in range(n):
                copy_race(race, sleds, planning)
                state[PLANNER_DRAWS] = seed
                stream[RANDOM_BUFFER] = RANDOM_BUFFER  # empty
                top_up_own(stream, state, pool.shape[0] * (sleds.node.shape[0] + 2))
                determinise(planning.sleds, p, pool, stream)
                for f in range(PLAN_FIELDS):
                    scratch.plan[f] = options[o, f]
                play_turn(board, setup, planning.race, planning.sleds, p, scratch.plan, position)
                if planning.race.status[OVER] == 0:
                    play_out(board, setup, planning, scratch, after)
                placings(board, planning.sleds, planning.placing)
                value = worth(planning.placing, p)
                if o == 0:
                    base = value
                outcome[O_WORTH, o] += value
                outcome[O_DIFF, o] += value - base
                outcome[O_SQUARE, o] += (value - base) * (value - base)
        for o in range(1, n):
            gain = outcome[O_DIFF, o]
            if gain > 0 and gain * gain > NOISE_SDS * NOISE_SDS * outcome[O_SQUARE, o]:
                if best == 0 or gain > outcome[O_DIFF, best]:
                    best = o
    for f in range(PLAN_FIELDS):
        scratch.plan[f] = options[best, f]
