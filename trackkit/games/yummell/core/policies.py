"""How a character chooses: which start path, which card, whether to rest, what to play.

``greedy`` (SPEC.md §4, defined exactly so results are comparable): on the start tile it
takes the route with the lowest total MP (ties: the first listed); it never rests and never
plays cards for their effects nor uses artefacts; it moves with its highest card as far as
the MP allow; in a challenge it plays its lowest winning card, or its lowest card if none
wins; when it must discard it keeps its highest cards. Passive abilities and advantages
(terrain costs, challenge bonuses, fluttering, stealing an artefact, drawing two) apply to
it as the rules say.

``smart`` plays as a good player would:

- start path: the one that leaves the fewest MP to the finish after this move;
- movement: the lowest card that gets as far as its best card (saving high cards for
  challenges), landing counted after falling back off full squares, so it never wastes a
  card on a square it would bounce off; an active "more MP" artefact when it reaches further;
- before moving, one event from the hand: "more MP" and terrain discounts for terrain
  ahead for itself; push-backs, curses and discards against the rival nearest the finish
  when that rival is ahead and the event would bite; otherwise it starts activating an
  artefact. It never spends its single highest card on an effect;
- rests when a curse makes the squares just ahead dearer (two or more of them within six
  squares), or when no card in its hand can move it at all;
- artefacts that hurt a rival (Scales of Ftoll): used on the rival nearest the finish, when
  that rival is ahead and the artefact would bite;
- challenges: the lowest winning card, adding a challenge artefact only when that turns a
  loss into a win; a ward is spent only on an event or artefact that would hurt it (not on a
  push-back while it stands on other terrain, a curse on terrain it has left behind, or a
  discard with an empty hand).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trackkit.games.base import Rung
from trackkit.games.unmanaged import no_runtime
from trackkit.games.yummell.core.content import (
    ARTEFACT,
    CARD_EFFECT,
    CARD_NUMBER,
    CARD_PARAM,
    CARD_TERRAIN,
    CARD_TYPE,
    E_BACK,
    E_BACK_IF_TERRAIN,
    E_CURSE,
    E_DISCARD,
    E_EXTRA_MP,
    E_MP_BONUS,
    E_TERRAIN_COST,
    E_WARD,
    EVENT,
)
from trackkit.games.yummell.core.movement import landing, leader, node_of, remaining
from trackkit.games.yummell.core.rules import challenge_total, challenge_won, is_steady
from trackkit.games.yummell.core.state import (
    ACTIVE_N,
    ADVANTAGE,
    ARRIVAL,
    CHARACTER,
    HAND_N,
    POLICY,
    POS,
    ROUTE,
    Board,
    Players,
    Tables,
    Tally,
)

GREEDY, SMART, PLANNER = 0, 1, 2  # a planner plays as smart but for what it plans (planning.py)
POLICIES: dict[str, int] = {"greedy": GREEDY, "smart": SMART, "planner": PLANNER}
# the ladder (trackkit ladder, the skill figure): the policies weakest first, each with
# what it assumes of a player
LADDER = (
    Rung(
        "greedy",
        "a player who follows one fixed rule, so results compare: the cheapest start path, "
        "the highest card as far as it goes, never a rest, an event or an artefact",
    ),
    Rung(
        "smart",
        "a good player who reads the track ahead and the rival in front: the start path "
        "with the fewest MP left, the lowest card that goes as far (high cards kept for "
        "challenges), events and artefacts against the leader, a rest before dear terrain",
    ),
    Rung(
        "planner",
        "a good player who also thinks ahead: before each turn it weighs the smart move "
        "against moving with each other card, resting and keeping its events, by playing "
        "the race out from here many times (the cards it cannot see guessed from those it "
        "has not seen, its rivals playing as smart players), and takes what wins most often",
        plans=True,
    ),
)

# What a planning player chose for a turn (``Players.info[p, PLAN]``, planning.py): nothing
# yet; play as smart; move with the card of rank 0 (the lowest) to MOVE_RANKS - 1 (the
# highest of five) after its events; rest; play as smart but keep its events and artefacts
# in hand (none played, none started). A smart or greedy player's stays UNPLANNED.
PLAN_SMART = -2
MOVE_RANKS = 5
PLAN_REST, PLAN_QUIET = MOVE_RANKS, MOVE_RANKS + 1
PLANS = MOVE_RANKS + 3  # the options a planner weighs: smart, the ranks, rest and quiet
DEFAULT_BUDGET = 32  # a planner's playouts of each option a turn (RaceOptions.budget)

LOOKAHEAD = 8  # squares a smart player reads ahead for terrain discounts
CURSE_LOOKAHEAD = 6
# which offensive effect a smart player prefers, by effect code (lower first)
OFFENCE_RANK = np.full(16, 99, dtype=np.int64)
OFFENCE_RANK[E_BACK], OFFENCE_RANK[E_BACK_IF_TERRAIN] = 2, 3
OFFENCE_RANK[E_CURSE], OFFENCE_RANK[E_DISCARD] = 4, 5


@njit(cache=True, inline="always")
def lowest_card(hand: np.ndarray, n: int, cards: np.ndarray) -> int:
    """Index of the lowest-numbered card (the first of equals)."""
    best, best_number = 0, cards[hand[0], CARD_NUMBER]
    for i in range(1, n):
        number = cards[hand[i], CARD_NUMBER]
        if number < best_number:
            best, best_number = i, number
    return best


@njit(cache=True, inline="always")
def highest_card(hand: np.ndarray, n: int, cards: np.ndarray) -> int:
    """Index of the highest-numbered card (the first of equals)."""
    best, best_number = 0, cards[hand[0], CARD_NUMBER]
    for i in range(1, n):
        number = cards[hand[i], CARD_NUMBER]
        if number > best_number:
            best, best_number = i, number
    return best


@njit(cache=True, inline="always")
def ranked_card(hand: np.ndarray, n: int, cards: np.ndarray, rank: int) -> int:
    """Index of the card of ``rank`` in the hand by number (0 the lowest; equal numbers in
    hand order); past the highest card, the highest."""
    rank = min(rank, n - 1)
    for i in range(n):
        number = cards[hand[i], CARD_NUMBER]
        below = 0
        for j in range(n):
            other = cards[hand[j], CARD_NUMBER]
            if other < number or (other == number and j < i):
                below += 1
        if below == rank:
            return i
    return 0


@njit(cache=True, inline="always")
def keep_of_two(first: int, second: int, cards: np.ndarray) -> tuple[int, int]:
    """Drawing two and keeping one: keep the higher number (the first of equals)."""
    if first < 0 or second < 0:
        return (first if first >= 0 else second), -1
    if cards[second, CARD_NUMBER] > cards[first, CARD_NUMBER]:
        return second, first
    return first, second


@njit(cache=True, inline="always")
def choose_challenge_card(
    policy: int,
    hand: np.ndarray,
    n: int,
    cards: np.ndarray,
    character: np.ndarray,
    advantage: np.ndarray,
    creature: np.ndarray,
) -> int:
    """The lowest card that wins, else the lowest card; -1 with an empty hand."""
    if n == 0:
        return -1
    best = -1
    for i in range(n):
        number = cards[hand[i], CARD_NUMBER]
        if challenge_won(challenge_total(character, advantage, creature, number), creature):
            if best < 0 or number < cards[hand[best], CARD_NUMBER]:
                best = i
    if best >= 0:
        return best
    return lowest_card(hand, n, cards)


@njit(cache=True, inline="always")
def greedy_route(board: Board) -> int:
    """The start path with the lowest total MP (the first of equals)."""
    best = 0
    for r in range(1, board.route_len.shape[0]):
        if board.route_cost[r] < board.route_cost[best]:
            best = r
    return best


@no_runtime(wraparound=False)
def smart_route(
    p: int,
    board: Board,
    players: Players,
    tally: Tally,
    tables: Tables,
    extra_mp: int,
) -> int:
    """The start path that leaves the fewest MP to the finish after this move."""
    cards = tables.cards
    mp = cards[players.hand[p, highest_card(players.hand[p], players.info[p, HAND_N], cards)], 0]
    best, best_left = 0, 1 << 30
    for r in range(board.route_len.shape[0]):
        end = landing(board, players, tally, tables, p, r, mp + extra_mp)
        left = board.route_suffix[r, end + 1]
        if left < best_left or (left == best_left and board.route_cost[r] < board.route_cost[best]):
            best, best_left = r, left
    return best


@no_runtime(wraparound=False)
def smart_move_card(
    p: int,
    board: Board,
    players: Players,
    tally: Tally,
    tables: Tables,
    extra_mp: int,
) -> int:
    """The lowest card that lands as far as the best card does."""
    cards = tables.cards
    hand, n = players.hand[p], players.info[p, HAND_N]
    route = players.info[p, ROUTE]
    best, best_end = 0, -2
    for i in range(n):
        mp = cards[hand[i], CARD_NUMBER] + extra_mp
        end = landing(board, players, tally, tables, p, route, mp)
        number = cards[hand[i], CARD_NUMBER]
        if end > best_end or (end == best_end and number < cards[hand[best], CARD_NUMBER]):
            best, best_end = i, end
    return best


@no_runtime(wraparound=False)
def smart_mp_bonus(
    p: int,
    route: int,
    mp: int,
    board: Board,
    players: Players,
    tally: Tally,
    tables: Tables,
) -> int:
    """Index of an active "more MP" artefact worth using on this move, else -1."""
    cards = tables.cards
    for i in range(players.info[p, ACTIVE_N]):
        card = players.active[p, i]
        if cards[card, CARD_EFFECT] == E_MP_BONUS:
            now = landing(board, players, tally, tables, p, route, mp)
            more = mp + cards[card, CARD_PARAM]
            then = landing(board, players, tally, tables, p, route, more)
            return i if then > now else -1
    return -1


@njit(cache=True, inline="always")
def _terrain_ahead(board: Board, players: Players, p: int, terrain: int, squares: int) -> int:
    """How many of the next ``squares`` squares of ``p``'s route (or route 0) are ``terrain``."""
    route = max(players.info[p, ROUTE], 0)
    count = 0
    start = players.info[p, POS] if players.info[p, ROUTE] >= 0 else -1
    for i in range(start + 1, min(start + 1 + squares, board.route_len[route])):
        if board.node_terrain[board.route_nodes[route, i]] == terrain:
            count += 1
    return count


@njit(cache=True, inline="always")
def effect_bites(
    card: int,
    target: int,
    board: Board,
    players: Players,
    tables: Tables,
) -> bool:
    """Would the targeted effect of ``card`` (an event or an artefact) hurt ``target`` now?

    A push-back needs a character on a square (of the card's terrain, for back-if-terrain)
    that is not immune to push-backs; a curse needs squares of its terrain still ahead of
    the target; a discard needs a card in the target's hand. An effect that would do
    nothing is not worth a card, nor a ward.
    """
    cards, characters, advantages = tables.cards, tables.characters, tables.advantages
    if players.info[target, ARRIVAL] > 0:
        return False
    effect = cards[card, CARD_EFFECT]
    if effect in (E_BACK, E_BACK_IF_TERRAIN):
        node = node_of(board, players, target)
        if node < 0:
            return False
        victim = characters[players.info[target, CHARACTER]]
        if is_steady(victim, advantages[players.info[target, ADVANTAGE]]):
            return False
        return effect == E_BACK or board.node_terrain[node] == cards[card, CARD_TERRAIN]
    if effect == E_CURSE:
        return _terrain_ahead(board, players, target, cards[card, CARD_TERRAIN], 1 << 30) > 0
    if effect == E_DISCARD:
        return players.info[target, HAND_N] > 0
    return False


@njit(cache=True, inline="always")
def smart_ward(
    card: int,
    target: int,
    board: Board,
    players: Players,
    tables: Tables,
) -> int:
    """Index of the active ward ``target`` spends on ``card`` played against it, or -1.

    Greedy never uses artefacts; a smart player keeps its ward for an effect that hurts.
    """
    cards = tables.cards
    if players.info[target, POLICY] == GREEDY:
        return -1
    if not effect_bites(card, target, board, players, tables):
        return -1
    for i in range(players.info[target, ACTIVE_N]):
        if cards[players.active[target, i], CARD_EFFECT] == E_WARD:
            return i
    return -1


@njit(cache=True, inline="always")
def smart_rival_artefact(
    p: int,
    target: int,
    board: Board,
    players: Players,
    tables: Tables,
) -> int:
    """Index of an active artefact that hurts a rival (Scales of Ftoll) worth using on
    ``target`` now, or -1: only on a rival ahead, and only when it bites."""
    cards = tables.cards
    if target < 0 or remaining(board, players, target) >= remaining(board, players, p):
        return -1
    for i in range(players.info[p, ACTIVE_N]):
        card = players.active[p, i]
        if OFFENCE_RANK[cards[card, CARD_EFFECT]] < 99 and effect_bites(
            card, target, board, players, tables
        ):
            return i
    return -1


@no_runtime(wraparound=False)
def smart_event(
    p: int,
    board: Board,
    players: Players,
    tally: Tally,
    tables: Tables,
) -> int:
    """Index in the hand of the event to play before moving, or -1."""
    cards = tables.cards
    hand, n = players.hand[p], players.info[p, HAND_N]
    if n < 2:
        return -1
    top = highest_card(hand, n, cards)
    target = leader(p, board, players)
    ahead = target >= 0 and remaining(board, players, target) < remaining(board, players, p)
    best, best_rank = -1, 99
    for i in range(n):
        card = hand[i]
        if cards[card, CARD_TYPE] != EVENT or i == top:
            continue
        effect = cards[card, CARD_EFFECT]
        rank = 99
        if effect == E_EXTRA_MP:
            rank = 0
        elif effect == E_TERRAIN_COST:
            if cards[card, CARD_PARAM] < 0 and _terrain_ahead(
                board, players, p, cards[card, CARD_TERRAIN], LOOKAHEAD
            ):
                rank = 1
        elif ahead and effect_bites(card, target, board, players, tables):
            rank = OFFENCE_RANK[effect]
        if rank < best_rank:
            best, best_rank = i, rank
    return best


@njit(cache=True, inline="always")
def smart_artefact_to_activate(hand: np.ndarray, n: int, cards: np.ndarray) -> int:
    """Index of an artefact card to start activating (not the single highest card), or -1."""
    if n < 2:
        return -1
    top = highest_card(hand, n, cards)
    for i in range(n):
        if cards[hand[i], CARD_TYPE] == ARTEFACT and i != top:
            return i
    return -1


@no_runtime(wraparound=False)
def smart_should_rest(
    p: int,
    board: Board,
    players: Players,
    tally: Tally,
    tables: Tables,
    extra_mp: int,
) -> bool:
    """Rest to lift a curse that bites soon, or when no card can move the character."""
    cards = tables.cards
    for terrain in range(4):
        if players.curse[p, terrain] > 0:
            if _terrain_ahead(board, players, p, terrain, CURSE_LOOKAHEAD) >= 2:
                return True
    n = players.info[p, HAND_N]
    if n == 0:
        return True
    mp = cards[players.hand[p, highest_card(players.hand[p], n, cards)], CARD_NUMBER] + extra_mp
    routes = board.route_len.shape[0]
    for r in range(routes):
        if players.info[p, ROUTE] >= 0 and r != players.info[p, ROUTE]:
            continue
        end = landing(board, players, tally, tables, p, r, mp)
        start = players.info[p, POS] if players.info[p, ROUTE] == r else -1
        if end > start:
            return False
    return True
