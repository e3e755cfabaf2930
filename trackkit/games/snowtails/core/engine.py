"""The Snow Tails race engine: rounds, turns, the end of the race, placings, batches of
races and tournaments (SNOWTAILS.md §3.1-§3.13).

One implementation, compiled by numba; with ``NUMBA_DISABLE_JIT=1`` the same code runs as
plain Python and plays the same races from the same generator. The turn (rulebook B):

1. play one dog card, or two of one value (the plan comes from the sled's policy,
   :func:`.policies.choose_plan`);
2. update the bonus die (balanced, not in round 1: :func:`.rules.bonus_die_update`);
3. move along the drift schedule (:func:`.movement.run_schedule`);
4. use the bonus die (optional, only after a move that was not stopped);
5. refill the hand to 5 (:func:`.turn.refill`), with the buildings of the final space
   around it (:func:`.turn.buildings_before_refill`, :func:`.turn.buildings_after_refill`).

A turn's rules are in :mod:`.turn`; this module plays races and tournaments of them.

**Rounds.** Turns follow race position, leader first, snapshotted at the start of each
round (a move changes only the mover's place among those still to move, §3.2); the first
round follows the random start order, each sled choosing its start space when its turn
comes. A sled under repair sits out until it is last at the start of a round.

**Race position** is the rank of the space (:attr:`.board.Board.rank`); sleds on one
space (only possible on the start row) are told apart by start order [R].

**The end.** The round in which a sled first crosses the finish line is the last; it is
completed, and the placings are the race positions at its end (sleds on one space share
a placing). With 2 players, a 5th collision card places that sled 2nd and ends the race
at once (rulebook C). A race still running after :data:`MAX_ROUNDS` rounds is stopped.

**Modelling decisions** where SNOWTAILS.md marks a rule unknown or leaves it open:

- race position is the rank key of :mod:`.position` [R]; sleds on one space (only on the
  start row) are ordered by start slot for the turn order and the die, and share a
  placing at the end;
- the round-1 start spaces are the start row; a sled may choose an occupied one [S];
- the bonus die may be used in round 1 (``RaceOptions.bonus_first_round``, default on);
- a collision card is not taken for a tree on a space beyond the finish line (entering it
  is crossing the line); an edge beyond the line gives none either [S];
- the collision-card supply never runs out (4 per sled, 32 in the box);
- a 5th collision card ends the turn at once: no bonus, no refill other than the
  repair's, and no building effect; the dog cards in hand are kept and the hand drawn up to
  5 [R] (``RaceOptions.repair_draw = "fresh"``: discarded, and 5 drawn); with 2 players
  the race ends at once, that sled 2nd [S/D];
- a repairing sled is released at the start of a round in which it is last; only the last
  sled can be, so two repairing sleds are released one round apart;
- buildings act on the space the turn ends on, also after a collision [D]: Chapel and
  Bothy before the refill, Kennels and Tavern after it; a 5 "in the deck" for the Kennels
  means out of the box;
- when the hand holds too many cards, the policy chooses the dog card discarded (both
  policies: the lowest);
- "decided in the last round" means the winner was not first in the turn order (the race
  leader) when the last round began.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from trackkit.games.snowtails.core.board import Board
from trackkit.games.snowtails.core.cards import carry_over, deal
from trackkit.games.snowtails.core.planning import plan_turn
from trackkit.games.snowtails.core.policies import PLANNER, choose_plan
from trackkit.games.snowtails.core.rules import starting_die, tournament_points
from trackkit.games.snowtails.core.state import (
    ENDING,
    FIRST_CROSSER,
    LEADER,
    OVER,
    ROUND,
    STATS,
    Race,
    Scratch,
    Setup,
    Sleds,
    rand_below,
    top_up_stream,
    unmanaged_state,
)
from trackkit.games.snowtails.core.turn import (  # the turn's rules, named here as before
    MAX_ROUNDS,
    placings,
    play_turn,
    race_position,
    start_round,
    turn_draws,
)
from trackkit.games.unmanaged import no_runtime

__all__ = ["MAX_ROUNDS", "placings", "play_turn", "start_round"]


# --- a turn ----------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def take_turn(
    board: Board,
    setup: Setup,
    race: Race,
    sleds: Sleds,
    scratch: Scratch,
    p: int,
) -> int:
    """Sled ``p`` chooses its plan by its policy (a planning sled plays its options out,
    :mod:`.planning`) and plays it."""
    position = race_position(board.rank, sleds.node, sleds.slot, p)
    if sleds.policy[p] == PLANNER:
        plan_turn(board, setup, race, sleds, scratch, p, position)
    else:
        choose_plan(board, setup, race, sleds, scratch, p, position)
    return play_turn(board, setup, race, sleds, p, scratch.plan, position)


# --- a race ----------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def setup_draws(sleds: Sleds) -> int:
    """The most random draws before a race: the start order, then every deck shuffled
    (dealt, or carried over between the races of a tournament)."""
    players = sleds.node.shape[0]
    return players * (sleds.deck.shape[1] + 1)


@no_runtime
def random_start_order(sleds: Sleds, stream: np.ndarray) -> None:
    """Start slots drawn at random (rulebook A.6): a shuffled 0..P-1."""
    n = sleds.slot.shape[0]
    for i in range(n):
        sleds.slot[i] = i
    for i in range(n - 1, 0, -1):
        j = rand_below(stream, i + 1)
        sleds.slot[i], sleds.slot[j] = sleds.slot[j], sleds.slot[i]


@no_runtime
def setup_race(board: Board, race: Race, sleds: Sleds) -> None:
    """A fresh race on ``board`` for sleds whose start slots and cards are set: the trees
    stand, no sled is on the track, the dice show their start slot (rulebook A.7)."""
    for node in range(board.trees.shape[0]):  # a loop: a slice copy would allocate
        race.trees[node] = board.trees[node]
    race.occupancy[:] = 0
    race.status[:] = 0
    race.status[LEADER] = -1
    race.status[FIRST_CROSSER] = -1
    race.log_n[0] = 0
    for p in range(sleds.node.shape[0]):
        sleds.node[p] = -1
        sleds.repairing[p] = 0
        sleds.forced[p] = 0
        sleds.stats[p, :] = 0
        sleds.die[p] = starting_die(sleds.slot[p])


@no_runtime
def play_race(
    board: Board,
    setup: Setup,
    race: Race,
    sleds: Sleds,
    scratch: Scratch,
    rng: np.random.Generator,
) -> int:
    """Play a set-up race to its end; the number of rounds (MAX_ROUNDS + 1 if stopped)."""
    n = sleds.node.shape[0]
    for rnd in range(1, MAX_ROUNDS + 1):
        race.status[ROUND] = rnd
        start_round(board, race, sleds)
        for k in range(n):
            p = race.order[k]
            if sleds.repairing[p] != 0:
                continue
            top_up_stream(rng, race.stream, turn_draws(sleds))
            take_turn(board, setup, race, sleds, scratch, p)
            if race.status[OVER] != 0:
                return rnd
        if race.status[ENDING] != 0:
            return rnd
    return MAX_ROUNDS + 1


@njit(cache=True, inline="always")
def placed_before(placing: np.ndarray, sleds: Sleds, q: int, p: int) -> bool:
    """``q`` before ``p`` in the finishing order: a better placing, then the earlier start
    slot (for sleds sharing a placing)."""
    if placing[q] != placing[p]:
        return placing[q] < placing[p]
    return sleds.slot[q] < sleds.slot[p]


@no_runtime
def finishing_order(placing: np.ndarray, sleds: Sleds, out: np.ndarray) -> None:
    """The sleds first to last: by placing, then start slot (sleds sharing a placing)."""
    n = placing.shape[0]
    for p in range(n):
        before = 0
        for q in range(n):
            if placed_before(placing, sleds, q, p):
                before += 1
        out[before] = p


@no_runtime
def winner(placing: np.ndarray, sleds: Sleds) -> int:
    best = 0
    for p in range(1, placing.shape[0]):
        if placed_before(placing, sleds, p, best):
            best = p
    return best


# --- batches ---------------------------------------------------------------------------------


class BatchResults(NamedTuple):
    """What a batch of single races writes, race by race (R races of P sleds)."""

    rounds: np.ndarray  # (R,) rounds played
    placing: np.ndarray  # (R, P) each sled's placing
    slot: np.ndarray  # (R, P) each sled's start slot
    stats: np.ndarray  # (R, P, STATS) each sled's tallies (:data:`.state.STATS` columns)
    decided: np.ndarray  # (R,) 1 when decided in the last round


def new_batch_results(races: int, players: int) -> BatchResults:
    """Zeroed results for ``races`` races of ``players`` sleds."""
    return BatchResults(
        rounds=np.zeros(races, dtype=np.int64),
        placing=np.zeros((races, players), dtype=np.int64),
        slot=np.zeros((races, players), dtype=np.int64),
        stats=np.zeros((races, players, STATS), dtype=np.int64),
        decided=np.zeros(races, dtype=np.int64),
    )


class TournamentResults(NamedTuple):
    """What a batch of tournaments writes, tournament by tournament (T of P sleds)."""

    rounds: np.ndarray  # (T, 3) rounds of each race
    placing: np.ndarray  # (T, 3, P) each race's placings
    slot: np.ndarray  # (T, 3, P) each race's start slots
    points: np.ndarray  # (T, P) each sled's points
    champion: np.ndarray  # (T,) the champion
    order: np.ndarray  # (P,) working space: the last race's finishing order


def new_tournament_results(tournaments: int, players: int) -> TournamentResults:
    """Zeroed results for ``tournaments`` tournaments of ``players`` sleds."""
    return TournamentResults(
        rounds=np.zeros((tournaments, 3), dtype=np.int64),
        placing=np.zeros((tournaments, 3, players), dtype=np.int64),
        slot=np.zeros((tournaments, 3, players), dtype=np.int64),
        points=np.zeros((tournaments, players), dtype=np.int64),
        champion=np.zeros(tournaments, dtype=np.int64),
        order=np.zeros(players, dtype=np.int64),
    )


# nogil: a batch races without holding the interpreter lock, so the app's other
# visitors (and its health check) are served while it runs
@njit(cache=True, nogil=True)
def play_batch(
    board: Board,
    setup: Setup,
    race: Race,
    sleds: Sleds,
    scratch: Scratch,
    rng: np.random.Generator,
    out: BatchResults,
) -> None:
    """Play ``out.rounds.shape[0]`` single races one after another from one random stream.

    Writes per race its rounds, whether it was decided in its last round (the winner was
    not the leader when that round began), and per sled its placing, start slot and
    tallies (:class:`BatchResults`); ``race.node_hits`` adds up the collisions per space
    over the batch.
    """
    board, setup, race, sleds, scratch = unmanaged_state(board, setup, race, sleds, scratch)
    placing = out.placing
    for r in range(out.rounds.shape[0]):
        top_up_stream(rng, race.stream, setup_draws(sleds))
        random_start_order(sleds, race.stream)
        for p in range(sleds.node.shape[0]):
            deal(sleds, p, setup, race.stream)
        setup_race(board, race, sleds)
        out.rounds[r] = play_race(board, setup, race, sleds, scratch, rng)
        placings(board, sleds, placing[r])
        out.slot[r] = sleds.slot
        out.stats[r] = sleds.stats
        out.decided[r] = 1 if winner(placing[r], sleds) != race.status[LEADER] else 0


# nogil: a batch races without holding the interpreter lock, so the app's other
# visitors (and its health check) are served while it runs
@njit(cache=True, nogil=True)
def play_tournament_batch(
    boards: tuple[Board, Board, Board],
    races: tuple[Race, Race, Race],
    setup: Setup,
    sleds: Sleds,
    scratch: Scratch,
    rng: np.random.Generator,
    out: TournamentResults,
) -> None:
    """Play ``out.points.shape[0]`` tournaments of 3 races (rulebook E) on ``boards``
    from one random stream (the three ``races`` share it: their ``stream`` is one array).

    The first race starts in random order with fresh decks; before each later race the
    cards are carried over (:func:`.cards.carry_over`) and the start order is the reverse
    of the last finishing order. Writes per tournament each race's rounds, placings and
    start slots, each sled's points, and the champion: the most points, ties broken by
    the placings of the last race.
    """
    board_1, setup, race_1, sleds, scratch = unmanaged_state(
        boards[0], setup, races[0], sleds, scratch
    )
    board_2, _, race_2, _, _ = unmanaged_state(boards[1], setup, races[1], sleds, scratch)
    board_3, _, race_3, _, _ = unmanaged_state(boards[2], setup, races[2], sleds, scratch)
    rounds, placing, slot, points, order = out.rounds, out.placing, out.slot, out.points, out.order
    n = sleds.node.shape[0]
    for t in range(points.shape[0]):
        points[t, :] = 0
        for i in range(3):
            board = board_1 if i == 0 else (board_2 if i == 1 else board_3)
            race = race_1 if i == 0 else (race_2 if i == 1 else race_3)
            top_up_stream(rng, race.stream, setup_draws(sleds))
            if i == 0:
                random_start_order(sleds, race.stream)
                for p in range(n):
                    deal(sleds, p, setup, race.stream)
            else:
                for k in range(n):  # the last finisher starts first
                    sleds.slot[order[n - 1 - k]] = k
                for p in range(n):
                    carry_over(sleds, p, setup.hand_size, race.stream)
            setup_race(board, race, sleds)
            slot[t, i] = sleds.slot
            rounds[t, i] = play_race(board, setup, race, sleds, scratch, rng)
            placings(board, sleds, placing[t, i])
            finishing_order(placing[t, i], sleds, order)
            for p in range(n):
                points[t, p] += tournament_points(placing[t, i, p])
        out.champion[t] = tournament_champion(points[t], placing[t, 2])


@no_runtime
def tournament_champion(points: np.ndarray, last_placing: np.ndarray) -> int:
    """The most points; a tie goes to the better placing in the last race (rulebook E)."""
    best = 0
    for p in range(1, points.shape[0]):
        if points[p] > points[best] or (
            points[p] == points[best] and last_placing[p] < last_placing[best]
        ):
            best = p
    return best
