"""The state of a Snow Tails race as integer arrays grouped in named tuples, and its
random stream (SNOWTAILS.md §5.4).

Arrays rather than objects so that numba compiles the engine; named tuples so the code
still reads ``sleds.die[p]``. A compiled call reference-counts every array of every tuple
it receives (a few nanoseconds each, and a tuple holds up to 15), so the rules called in
loops (steps, candidates, sleds) take the arrays they read, unpacked once by their
caller, rather than the tuples. A race is a pure function of these arrays, the course's
:class:`~.board.Board` and a ``numpy.random.Generator``, read through a buffer of 32-bit
draws (:func:`top_up_stream`, :func:`rand_below`) so the same generator plays the same
race compiled or interpreted (``NUMBA_DISABLE_JIT=1``).

**Cards.** Dog cards are known only by their value (0-5), so a hand and the cards under
the dogs are counts per value; only the draw deck has an order. A sled's dog cards are
always in exactly one place: the draw deck, the hand, the two face-up dogs (``left`` and
``right``, the top cards of the two stacks), ``under`` the dogs (the covered cards and the
discards: what a reshuffle takes, rulebook B.5), or the box (the held-back 5s, ``boxed``).
Collision cards are only counted: the supply of 32 never runs out, since a sled holds at
most 4 (the 5th sends it to repair).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from trackkit.games.snowtails.core.board import Board
from trackkit.games.unmanaged import no_runtime, unmanaged, with_runtime

VALUES = 6  # dog cards are valued 0-5 (rulebook, Components)
MAX_PLAYERS = 8
RANDOM_BUFFER = 4096

# columns of Sleds.stats: what happened to each sled in this race
STAT_CARDS = 0  # collision cards taken
STAT_SIDE = 1  # side collisions: track edge, marker, building
STAT_TREES = 2  # trees hit
STAT_SLEDS = 3  # collisions with another sled
STAT_REPAIRS = 4  # times sent to repair (a 5th collision card)
STAT_BUILDINGS = 5  # bit flags of the buildings whose effect it used
STAT_FIRST_CROSSING = 6  # round in which it first crossed the finish line, 0 if never
STATS = 7

# columns of Race.status
ROUND = 0  # the round being played (1 = the first)
ENDING = 1  # 1 once a sled has crossed the finish line: this round is the last
OVER = 2  # 1 when the race stopped at once (the 2-player repair exception)
LEADER = 3  # the sled first in turn order at the start of this round
FIRST_CROSSER = 4  # the first sled to cross the line, -1 before
STATUS = 5

# columns of Race.node_hits: collisions per space, summed over the races of a batch
HIT_SIDE, HIT_TREE, HIT_SLED = 0, 1, 2

# a turn's plan (SNOWTAILS.md §5.4 "Action"); PLAY_* are the three card plays
PLAY_LEFT, PLAY_RIGHT, PLAY_BOTH = 0, 1, 2
PLAN_START = 0  # start space chosen in round 1 (-1 otherwise)
PLAN_PLAY = 1  # PLAY_LEFT, PLAY_RIGHT or PLAY_BOTH
PLAN_VALUE = 2  # value of the card(s) played
PLAN_CODE = 3  # the drift schedule (see rules.schedule_code)
PLAN_BONUS = 4  # spaces moved with the bonus die, 0 = not used
PLAN_FIELDS = 5

# a turn's record, one row per turn (Race.log)
LOG_ROUND, LOG_PLAYER, LOG_FROM, LOG_TO, LOG_PLAY, LOG_VALUE = 0, 1, 2, 3, 4, 5
LOG_CODE, LOG_BONUS, LOG_STOP, LOG_DIE, LOG_CARDS = 6, 7, 8, 9, 10
LOG_FIELDS = 11


class Setup(NamedTuple):
    """How a race is set up from the deck data (``data/deck.toml``) and the options."""

    deck_counts: np.ndarray  # (VALUES,) cards of each value in one colour's deck
    hand_size: int  # 5 (rulebook B.5)
    start_values: np.ndarray  # (MAX_PLAYERS,) both starting dogs' value, by start slot
    held_back: int  # the value whose cards start in the box: 5
    bonus_first_round: int  # 1: the bonus die may be used in round 1 (SNOWTAILS.md §3.7)
    fresh_repair: int  # 1: a repair discards the dog cards in hand too (SNOWTAILS.md §3.10)


class Sleds(NamedTuple):
    """Every sled's position, dogs, cards, bonus die and tallies (one row per player)."""

    node: np.ndarray  # (P,) space the sled stands on, -1 before the start
    slot: np.ndarray  # (P,) start slot, 0 = starts first
    policy: np.ndarray  # (P,) policy code (policies.GREEDY, SMART)
    left: np.ndarray  # (P,) value of the left dog (the top card of its stack)
    right: np.ndarray  # (P,) value of the right dog
    die: np.ndarray  # (P,) bonus die: 1-6 available, 0 spent
    hand: np.ndarray  # (P, VALUES) dog cards in hand, by value
    collisions: np.ndarray  # (P,) collision cards in hand
    under: np.ndarray  # (P, VALUES) dog cards under the two dogs, by value
    deck: np.ndarray  # (P, cards per colour) draw deck, top card last
    deck_n: np.ndarray  # (P,) cards in the draw deck
    boxed: np.ndarray  # (P,) held-back 5s still in the box
    repairing: np.ndarray  # (P,) 1 while the sled sits out for repairs
    forced: np.ndarray  # (P,) a placing forced by the 2-player exception, 0 if none
    stats: np.ndarray  # (P, STATS) this race's tallies


class Ground(NamedTuple):
    """What a step reads (:func:`.movement.step_target`): the course's moves and finish
    line, and the trees and sleds on it now; four arrays, cheap to pass to the search."""

    move: np.ndarray
    beyond: np.ndarray
    trees: np.ndarray
    occupancy: np.ndarray


class Race(NamedTuple):
    """What the sleds share: trees, who stands where, the round, the random stream."""

    trees: np.ndarray  # (nodes,) 1 where a tree still stands
    occupancy: np.ndarray  # (nodes,) sleds on each space
    order: np.ndarray  # (P,) this round's turn order
    status: np.ndarray  # (STATUS,)
    node_hits: np.ndarray  # (nodes, 3) collisions per space, summed over a batch
    stream: np.ndarray  # RANDOM_BUFFER buffered 32-bit draws, then the cursor
    log: np.ndarray  # (rows, LOG_FIELDS) recorded turns; zero rows when not recording
    log_n: np.ndarray  # (1,) rows written


MAX_STATES = 256  # states of one step of the schedule search (policies.search_moves)
MAX_LEAVES = 4096  # outcomes of one play's search
# fields of Scratch.leaves: an outcome of the search
L_NODE, L_CARDS, L_STOP, L_DIE, L_CODE, L_BONUS = 0, 1, 2, 3, 4, 5
LEAF_FIELDS = 6


MAX_CANDIDATES = 256  # start spaces × plays: 9 × 18 at most
# fields of Scratch.candidates: a start space and play to search
C_BOUND, C_START, C_PLAY, C_VALUE, C_DIE = 0, 1, 2, 3, 4
CANDIDATE_FIELDS = 5


MAX_OPTIONS = 4  # the options a planning sled weighs (planning.OPTION_POLICIES)
# fields of Planning.state
PLANNER_BUDGET = 0  # playouts of each option (RaceOptions.budget)
PLANNER_MASTER = 1  # the planner's own generator: one draw seeds each playout
PLANNER_DRAWS = 2  # the generator of the playout being played (its guess and its draws)
PLANNER_FIELDS = 3
OUTCOME_FIELDS = 3  # rows of Planning.outcome (planning.O_*)


class Planning(NamedTuple):
    """A planning sled's working space (:mod:`.planning`), allocated once per batch."""

    race: Race  # the race a playout plays, with a random stream of its own
    sleds: Sleds  # the sleds of a playout
    options: np.ndarray  # (MAX_OPTIONS, PLAN_FIELDS) the plans weighed
    outcome: np.ndarray  # (OUTCOME_FIELDS, MAX_OPTIONS) each option's playouts summed
    placing: np.ndarray  # (P,) a playout's placings
    pool: np.ndarray  # (cards per colour,) the cards a guess deals out
    state: np.ndarray  # (PLANNER_FIELDS,) budget and generators


class Scratch(NamedTuple):
    """Working space for choosing a plan, allocated once per batch."""

    candidates: np.ndarray  # (CANDIDATE_FIELDS, MAX_CANDIDATES) the options to search
    states: np.ndarray  # (2, 4, MAX_STATES) node, drifts, cards, code of each state
    count: np.ndarray  # (3,) states in each of the two layers, then leaves
    leaves: np.ndarray  # (LEAF_FIELDS, MAX_LEAVES) outcomes of one play
    best: np.ndarray  # (BEST_FIELDS,) the best option so far
    context: np.ndarray  # (4,) what the smart score reads of the sled
    plan: np.ndarray  # (PLAN_FIELDS,) the plan being played
    planning: Planning  # a planning sled's playouts


# fields of Scratch.best: the best option found so far and how it compares
BEST_SCORE, BEST_DIE, BEST_CODE, BEST_ORDER, BEST_START, BEST_PLAY, BEST_VALUE = range(7)
BEST_BONUS, BEST_FOUND = 7, 8
BEST_FIELDS = 9


def new_sleds(players: int, cards_per_colour: int) -> Sleds:
    """Zeroed sled arrays for ``players`` sleds."""
    p = players
    zeros = np.zeros
    return Sleds(
        node=np.full(p, -1, dtype=np.int64),
        slot=np.arange(p, dtype=np.int64),
        policy=zeros(p, dtype=np.int64),
        left=zeros(p, dtype=np.int64),
        right=zeros(p, dtype=np.int64),
        die=zeros(p, dtype=np.int64),
        hand=zeros((p, VALUES), dtype=np.int64),
        collisions=zeros(p, dtype=np.int64),
        under=zeros((p, VALUES), dtype=np.int64),
        deck=zeros((p, cards_per_colour), dtype=np.int64),
        deck_n=zeros(p, dtype=np.int64),
        boxed=zeros(p, dtype=np.int64),
        repairing=zeros(p, dtype=np.int64),
        forced=zeros(p, dtype=np.int64),
        stats=zeros((p, STATS), dtype=np.int64),
    )


def new_race(players: int, nodes: int, log_rows: int = 0) -> Race:
    """Zeroed race arrays; ``log_rows`` turns are recorded (0: none)."""
    stream = np.zeros(RANDOM_BUFFER + 1, dtype=np.int64)
    stream[RANDOM_BUFFER] = RANDOM_BUFFER  # empty: the first draw fills the buffer
    return Race(
        trees=np.zeros(nodes, dtype=np.int64),
        occupancy=np.zeros(nodes, dtype=np.int64),
        order=np.arange(players, dtype=np.int64),
        status=np.zeros(STATUS, dtype=np.int64),
        node_hits=np.zeros((nodes, 3), dtype=np.int64),
        stream=stream,
        log=np.zeros((log_rows, LOG_FIELDS), dtype=np.int64),
        log_n=np.zeros(1, dtype=np.int64),
    )


def new_planning(players: int, nodes: int, cards_per_colour: int, budget: int) -> Planning:
    """A planning sled's working space for races of ``players`` sleds on ``nodes``
    spaces, each option played out ``budget`` times; its generator unseeded (0)."""
    state = np.zeros(PLANNER_FIELDS, dtype=np.int64)
    state[PLANNER_BUDGET] = budget
    return Planning(
        race=new_race(players, nodes),
        sleds=new_sleds(players, cards_per_colour),
        options=np.zeros((MAX_OPTIONS, PLAN_FIELDS), dtype=np.int64),
        outcome=np.zeros((OUTCOME_FIELDS, MAX_OPTIONS), dtype=np.int64),
        placing=np.zeros(players, dtype=np.int64),
        pool=np.zeros(cards_per_colour, dtype=np.int64),
        state=state,
    )


def new_scratch(players: int, nodes: int, cards_per_colour: int, budget: int) -> Scratch:
    """Working space for choosing plans in races of ``players`` sleds on ``nodes`` spaces
    (:func:`new_planning`)."""
    return Scratch(
        candidates=np.zeros((CANDIDATE_FIELDS, MAX_CANDIDATES), dtype=np.int64),
        states=np.zeros((2, 4, MAX_STATES), dtype=np.int64),
        count=np.zeros(3, dtype=np.int64),
        leaves=np.zeros((LEAF_FIELDS, MAX_LEAVES), dtype=np.int64),
        best=np.zeros(BEST_FIELDS, dtype=np.int64),
        context=np.zeros(4, dtype=np.int64),
        plan=np.zeros(PLAN_FIELDS, dtype=np.int64),
        planning=new_planning(players, nodes, cards_per_colour, budget),
    )


# --- randomness ------------------------------------------------------------------------
#
# The generator is read only at the start of a race and of a turn (top_up_stream), so
# the rules below take the buffer alone: numba reference-counts a Generator at every call
# it is passed through, and the cards' code would pass it a long way for a rare shuffle.


@with_runtime
def top_up_stream(rng: np.random.Generator, stream: np.ndarray, needed: int) -> None:
    """Make sure ``needed`` draws are left in the buffer: if fewer are, refill all of it
    with fresh 32-bit draws (the rest is dropped, the same way compiled or not)."""
    if RANDOM_BUFFER - stream[RANDOM_BUFFER] < needed:
        stream[:RANDOM_BUFFER] = rng.integers(0, 4294967296, size=RANDOM_BUFFER)
        stream[RANDOM_BUFFER] = 0


@njit(cache=True, inline="always")
def rand_below(stream: np.ndarray, n: int) -> int:
    """A uniform integer in [0, n) from the buffer (n far below 2**32)."""
    cursor = stream[RANDOM_BUFFER]
    if cursor >= RANDOM_BUFFER:
        raise RuntimeError("the random buffer ran out: top_up_stream asked for too few draws")
    stream[RANDOM_BUFFER] = cursor + 1
    return (stream[cursor] * n) >> 32


@no_runtime
def shuffle(values: np.ndarray, n: int, stream: np.ndarray) -> None:
    """Fisher-Yates shuffle of ``values[:n]`` in place (n - 1 draws)."""
    for i in range(n - 1, 0, -1):
        j = rand_below(stream, i + 1)
        values[i], values[j] = values[j], values[i]


@njit(cache=True, inline="always")
def unmanaged_race(race: Race) -> Race:
    """The race tuple over :func:`unmanaged` views of its arrays."""
    u = unmanaged
    return Race(
        u(race.trees),
        u(race.occupancy),
        u(race.order),
        u(race.status),
        u(race.node_hits),
        u(race.stream),
        u(race.log),
        u(race.log_n),
    )


@njit(cache=True, inline="always")
def unmanaged_sleds(sleds: Sleds) -> Sleds:
    """The sleds tuple over :func:`unmanaged` views of its arrays."""
    u = unmanaged
    return Sleds(
        u(sleds.node),
        u(sleds.slot),
        u(sleds.policy),
        u(sleds.left),
        u(sleds.right),
        u(sleds.die),
        u(sleds.hand),
        u(sleds.collisions),
        u(sleds.under),
        u(sleds.deck),
        u(sleds.deck_n),
        u(sleds.boxed),
        u(sleds.repairing),
        u(sleds.forced),
        u(sleds.stats),
    )


@njit(cache=True)
def unmanaged_state(
    board: Board, setup: Setup, race: Race, sleds: Sleds, scratch: Scratch
) -> tuple[Board, Setup, Race, Sleds, Scratch]:
    """The state tuples over :func:`unmanaged` views of their arrays."""
    u = unmanaged
    planning = scratch.planning
    return (
        Board(
            u(board.move),
            u(board.trigger),
            u(board.beyond),
            u(board.rank),
            u(board.togo),
            u(board.lane),
            u(board.reach),
            u(board.start),
            u(board.trees),
        ),
        Setup(
            u(setup.deck_counts),
            setup.hand_size,
            u(setup.start_values),
            setup.held_back,
            setup.bonus_first_round,
            setup.fresh_repair,
        ),
        unmanaged_race(race),
        unmanaged_sleds(sleds),
        Scratch(
            u(scratch.candidates),
            u(scratch.states),
            u(scratch.count),
            u(scratch.leaves),
            u(scratch.best),
            u(scratch.context),
            u(scratch.plan),
            Planning(
                unmanaged_race(planning.race),
                unmanaged_sleds(planning.sleds),
                u(planning.options),
                u(planning.outcome),
                u(planning.placing),
                u(planning.pool),
                u(planning.state),
            ),
        ),
    )
