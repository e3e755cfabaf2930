"""The race engine: plays the full base rules of Yummell for 1-8 characters on a track.

One implementation, compiled by numba. The turn follows the rulebook (p. 5): Preparation
(draw), Movement (play a card or rest), Encounter, Replenishment. Rules that the exact
solver shares live in :mod:`trackkit.games.yummell.rules`; the choices a player makes live in
:mod:`trackkit.games.yummell.policies`. State is a handful of integer arrays grouped in named
tuples (:class:`Board`, :class:`Players`, :class:`Deck`, :class:`Tally`), so a race is
a pure function of its inputs and a random stream.

Randomness comes from each race's key (:mod:`trackkit.games.yummell.state`, SplitMix64
streams), so the same key gives the same race compiled or interpreted
(``NUMBA_DISABLE_JIT=1``), and race ``r`` of a seed is dealt, shuffled and ordered alike on
every track (common random numbers).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trackkit.games.unmanaged import no_runtime, unmanaged_rows
from trackkit.games.yummell.content import (
    ADV_EFFECT,
    ADV_FIELDS,
    ARTEFACT,
    CARD_EFFECT,
    CARD_FIELDS,
    CARD_NUMBER,
    CARD_PARAM,
    CARD_TERRAIN,
    CARD_TYPE,
    CHAR_ABILITY,
    CHAR_FIELDS,
    E_BACK,
    E_BACK_IF_TERRAIN,
    E_CHALLENGE_BONUS,
    E_CLEPTOMANIA,
    E_CURSE,
    E_DISCARD,
    E_DRAW_TWO_KEEP_ONE,
    E_EXTRA_MP,
    E_STEAL_ARTEFACT,
    E_TERRAIN_COST,
    E_TOLL,
    EVENT,
)
from trackkit.games.yummell.movement import fall_back, furthest, leader, node_of, remaining
from trackkit.games.yummell.policies import (
    GREEDY,
    choose_challenge_card,
    greedy_route,
    highest_card,
    keep_of_two,
    lowest_card,
    smart_artefact_to_activate,
    smart_event,
    smart_move_card,
    smart_mp_bonus,
    smart_rival_artefact,
    smart_route,
    smart_should_rest,
    smart_ward,
)
from trackkit.games.yummell.rules import (
    HAND_SIZE,
    OFF_BOARD,
    can_host,
    challenge_total,
    challenge_won,
    is_steady,
    rest,
)
from trackkit.games.yummell.state import (
    ACTIVE_N,
    ADVANTAGE,
    ARRIVAL,
    CHARACTER,
    CHOSEN,
    DEALT,
    HAND_N,
    LOG_ACTIVATE,
    LOG_ARTEFACT,
    LOG_BOUNCE,
    LOG_CHALLENGE,
    LOG_EVENT,
    LOG_FINISH,
    LOG_MOVE,
    LOG_PLAY_EVENT,
    LOG_REST,
    LOG_ROUTE,
    LOG_STEAL,
    LOG_USE_ARTEFACT,
    LOG_USE_ON_RIVAL,
    MAX_ARTEFACTS,
    MAX_HAND,
    ORDER_POS,
    ORDERS,
    PENDING_N,
    POLICY,
    POS,
    RACE_LEADERS,
    RACE_STATS,
    REACHED,
    ROUTE,
    STAT_BOUNCES,
    STAT_LAST_ROUND,
    STAT_LEAD_CHANGES,
    STAT_LOST,
    STAT_WINNER_GAP,
    TOLL,
    Board,
    Deck,
    Players,
    Tally,
    fixed_widths,
    note,
    rand_below,
    shuffle,
    start_race,
    unmanaged,
    unmanaged_state,
)

MAX_ROUNDS = 400  # a race still running then is stopped and counted as capped

# --- the deck --------------------------------------------------------------------------


@njit(cache=True, inline="always")
def draw(deck: Deck, cards: np.ndarray, tally: Tally) -> int:
    """Draw a card id; -1 if every card is in a hand or in play."""
    if deck.counts[2]:
        return rand_below(tally.dice, cards.shape[0])
    if deck.counts[0] == 0 and not reshuffle(deck, tally.dice):
        return -1
    deck.counts[0] -= 1
    return deck.pile[deck.counts[0]]


@no_runtime(wraparound=False)
def reshuffle(deck: Deck, dice: np.ndarray) -> bool:
    """The discard pile is shuffled into a new draw pile (p. 3); False if it is empty.

    Compiled on its own, not inlined: it runs once per pass through the deck, and each
    inlined copy would lengthen the compiled turn (and its compile time) for nothing; it
    takes only the arrays it needs, as passing a state tuple to a call costs one argument
    per array."""
    n = deck.counts[1]
    if n == 0:
        return False
    for i in range(n):
        deck.pile[i] = deck.discard[i]
    deck.counts[0], deck.counts[1] = n, 0
    shuffle(deck.pile, n, dice)
    return True


@njit(cache=True, inline="always")
def discard(deck: Deck, card: int) -> None:
    if not deck.counts[2] and card >= 0:
        deck.discard[deck.counts[1]] = card
        deck.counts[1] += 1


@njit(cache=True, inline="always")
def pop_at(values: np.ndarray, info: np.ndarray, count: int, p: int, index: int) -> int:
    """Take the card at ``index`` of player ``p``'s row (a hand, its artefacts), whose
    length is column ``count`` of ``info``."""
    card = values[p, index]
    last = info[p, count] - 1
    values[p, index] = values[p, last]
    info[p, count] = last
    return card


@njit(cache=True, inline="always")
def take_from_hand(players: Players, p: int, index: int) -> int:
    return pop_at(players.hand, players.info, HAND_N, p, index)


@njit(cache=True, inline="always")
def add_to_hand(players: Players, p: int, card: int) -> None:
    if card >= 0 and players.info[p, HAND_N] < MAX_HAND:
        players.hand[p, players.info[p, HAND_N]] = card
        players.info[p, HAND_N] += 1


@njit(cache=True, inline="always")
def take_artefact(players: Players, p: int, index: int) -> int:
    return pop_at(players.active, players.info, ACTIVE_N, p, index)


@njit(cache=True, inline="always")
def find_artefact(players: Players, cards: np.ndarray, p: int, effect: int) -> int:
    for i in range(players.info[p, ACTIVE_N]):
        if cards[players.active[p, i], CARD_EFFECT] == effect:
            return i
    return -1


# --- positions and movement ------------------------------------------------------------


@njit(cache=True, inline="always")
def place(board: Board, players: Players, tally: Tally, p: int, index: int, rnd: int) -> None:
    """Move ``p`` to ``index`` on its route, keeping square occupancy; finishing if it is
    the last square."""
    old = node_of(board, players, p)
    toll = players.info[p, TOLL]
    if old >= 0:
        tally.occupancy[old] -= 1
        tally.tolls[old] -= toll
    players.info[p, POS] = index
    new = node_of(board, players, p)
    if new != old:
        tally.clock[0] += 1
        players.info[p, REACHED] = tally.clock[0]
    if new >= 0:
        tally.occupancy[new] += 1
        tally.tolls[new] += toll
    if new == board.finish and players.info[p, ARRIVAL] == 0:
        arrived = 1
        for q in range(players.info.shape[0]):
            if players.info[q, ARRIVAL] > 0:
                arrived += 1
        players.info[p, ARRIVAL] = arrived
        note(tally, rnd, p, LOG_FINISH, -1, arrived, index, index, -1)


@njit(cache=True, inline="always")
def send_back(board: Board, players: Players, tally: Tally, p: int, rnd: int) -> None:
    """Back to the first square behind that can host (losing a challenge, some events)."""
    if players.info[p, POS] < 0:
        return
    behind = fall_back(board, tally, players.info[p, ROUTE], players.info[p, POS] - 1, -1)
    place(board, players, tally, p, behind, rnd)


# --- events ----------------------------------------------------------------------------


@njit(cache=True, inline="always")
def play_against(
    card: int,
    target: int,
    board: Board,
    players: Players,
    deck: Deck,
    tally: Tally,
    cards: np.ndarray,
    characters: np.ndarray,
    advantages: np.ndarray,
    rnd: int,
) -> None:
    """The effect of ``card`` on ``target``: an event drawn as an encounter or played by a
    rival, or an artefact a rival uses on it (Scales of Ftoll).

    Inlined in its three callers: a call would pass the whole state, about 36 arrays, and
    measured 5-7 % slower races than the longer compile of three copies."""
    if players.info[target, ARRIVAL] > 0:
        return  # immune once finished (p. 7)
    ward = smart_ward(card, target, board, players, cards, characters, advantages)
    if ward >= 0:
        discard(deck, take_artefact(players, target, ward))
        note(tally, rnd, target, LOG_USE_ARTEFACT, card, 0, -1, -1, -1)
        return
    effect = cards[card, CARD_EFFECT]
    character = characters[players.info[target, CHARACTER]]
    advantage = advantages[players.info[target, ADVANTAGE]]
    if effect in (E_BACK_IF_TERRAIN, E_BACK):
        node = node_of(board, players, target)
        if node < 0 or is_steady(character, advantage):
            return
        if effect == E_BACK or board.node_terrain[node] == cards[card, CARD_TERRAIN]:
            send_back(board, players, tally, target, rnd)
    elif effect == E_CURSE:
        players.curse[target, cards[card, CARD_TERRAIN]] += cards[card, CARD_PARAM]
    elif effect == E_DISCARD:
        for _ in range(cards[card, CARD_PARAM]):
            if players.info[target, HAND_N] > 0:
                lowest = lowest_card(players.hand[target], players.info[target, HAND_N], cards)
                discard(deck, take_from_hand(players, target, lowest))
    # terrain-cost and extra-mp help only the one who plays them before moving


# --- a turn ----------------------------------------------------------------------------


@njit(cache=True, inline="always")
def draw_two_keep_one(
    players: Players, deck: Deck, cards: np.ndarray, tally: Tally, p: int
) -> None:
    """The fourth advantage: "At the start of the turn the player draws 2 cards and keeps 1".

    Read as an action on top of the Preparation draw, not instead of it (a modelling
    decision, README "Modelling decisions"): an advantage is an action, actions come only
    at the start or end of a phase and "the player may not take action before" the
    Preparation phase, and the card does not say "instead"; so the player draws its card,
    then uses the advantage at the end of the Preparation phase. The other card is
    discarded; the hand goes back to four at Replenishment as always.
    """
    first = draw(deck, cards, tally)
    second = draw(deck, cards, tally)
    kept, dropped = keep_of_two(first, second, cards)
    add_to_hand(players, p, kept)
    discard(deck, dropped)


@njit(cache=True, inline="always")
def steal_artefact(board: Board, players: Players, tally: Tally, p: int, rnd: int) -> None:
    """Cleptomania / the thief's advantage: take an active artefact from a character on
    the same square."""
    node = node_of(board, players, p)
    if node < 0 or node == board.finish:
        return
    for q in range(players.info.shape[0]):
        if q != p and players.info[q, ARRIVAL] == 0 and node_of(board, players, q) == node:
            if players.info[q, ACTIVE_N] > 0 and players.info[p, ACTIVE_N] < MAX_ARTEFACTS:
                card = take_artefact(players, q, players.info[q, ACTIVE_N] - 1)
                players.active[p, players.info[p, ACTIVE_N]] = card
                players.info[p, ACTIVE_N] += 1
                note(
                    tally, rnd, p, LOG_STEAL, card, 0, players.info[p, POS], players.info[p, POS], q
                )
                return


@njit(cache=True, inline="always")
def encounter(
    p: int,
    board: Board,
    players: Players,
    deck: Deck,
    tally: Tally,
    cards: np.ndarray,
    characters: np.ndarray,
    advantages: np.ndarray,
    rnd: int,
) -> None:
    """Draw a card and face it (p. 6-7): a creature's challenge, an artefact, an event."""
    card = draw(deck, cards, tally)
    if card < 0:
        return
    kind = cards[card, CARD_TYPE]
    if kind == ARTEFACT:
        if players.info[p, ACTIVE_N] < MAX_ARTEFACTS:
            players.active[p, players.info[p, ACTIVE_N]] = card
            players.info[p, ACTIVE_N] += 1
        note(tally, rnd, p, LOG_ARTEFACT, card, 0, players.info[p, POS], players.info[p, POS], -1)
        return
    if kind == EVENT:
        before = players.info[p, POS]
        if cards[card, 7]:  # arrow: played against the one who drew it
            play_against(card, p, board, players, deck, tally, cards, characters, advantages, rnd)
        note(tally, rnd, p, LOG_EVENT, card, 0, before, players.info[p, POS], -1)
        discard(deck, card)
        return
    character = characters[players.info[p, CHARACTER]]
    advantage = advantages[players.info[p, ADVANTAGE]]
    bonus = 0
    choice = choose_challenge_card(
        players.info[p, POLICY],
        players.hand[p],
        players.info[p, HAND_N],
        cards,
        character,
        advantage,
        cards[card],
    )
    if players.info[p, POLICY] != GREEDY:
        bonus_index = find_artefact(players, cards, p, E_CHALLENGE_BONUS)
        if bonus_index >= 0 and choice >= 0:
            number = cards[players.hand[p, choice], CARD_NUMBER]
            total = challenge_total(character, advantage, cards[card], number)
            extra = cards[players.active[p, bonus_index], CARD_PARAM]
            if not challenge_won(total, cards[card]) and challenge_won(total + extra, cards[card]):
                bonus = extra
                discard(deck, take_artefact(players, p, bonus_index))
                note(tally, rnd, p, LOG_USE_ARTEFACT, card, extra, -1, -1, -1)
    played, won = -1, False
    if choice >= 0:  # no card to play: the challenge is lost (p. 7)
        played = take_from_hand(players, p, choice)
        total = challenge_total(character, advantage, cards[card], cards[played, CARD_NUMBER])
        won = challenge_won(total + bonus, cards[card])
        discard(deck, played)
    if not won:
        tally.race[STAT_LOST] += 1
    before = players.info[p, POS]
    after = before
    if won:
        node = board.route_nodes[players.info[p, ROUTE], before + 1]
        if can_host(tally.occupancy[node], node == board.finish):
            after = before + 1
    elif before >= 0:
        after = fall_back(board, tally, players.info[p, ROUTE], before - 1, -1)
    note(tally, rnd, p, LOG_CHALLENGE, card, 1 if won else 0, before, after, played)
    place(board, players, tally, p, after, rnd)
    discard(deck, card)


@njit(cache=True, inline="always")
def take_turn(
    p: int,
    board: Board,
    players: Players,
    deck: Deck,
    tally: Tally,
    cards: np.ndarray,
    characters: np.ndarray,
    advantages: np.ndarray,
    encounters: bool,
    rnd: int,
) -> None:
    policy = players.info[p, POLICY]
    advantage = advantages[players.info[p, ADVANTAGE]]
    character = characters[players.info[p, CHARACTER]]
    turn_delta = tally.turn_delta  # this turn's terrain events, none yet
    turn_delta[:] = 0

    # 1. Preparation: draw a card
    add_to_hand(players, p, draw(deck, cards, tally))
    if advantage[ADV_EFFECT] == E_DRAW_TWO_KEEP_ONE:
        draw_two_keep_one(players, deck, cards, tally, p)

    # actions at the start of the movement phase: one event, or one artefact activated
    extra_mp = 0
    if policy != GREEDY:
        played = smart_event(p, board, players, tally, cards, characters, advantages)
        if played >= 0:
            event_card = take_from_hand(players, p, played)
            effect = cards[event_card, CARD_EFFECT]
            if effect == E_TERRAIN_COST:
                turn_delta[cards[event_card, CARD_TERRAIN]] += cards[event_card, CARD_PARAM]
                note(
                    tally,
                    rnd,
                    p,
                    LOG_PLAY_EVENT,
                    event_card,
                    0,
                    players.info[p, POS],
                    players.info[p, POS],
                    p,
                )
            elif effect == E_EXTRA_MP:
                extra_mp += cards[event_card, CARD_PARAM]
                note(
                    tally,
                    rnd,
                    p,
                    LOG_PLAY_EVENT,
                    event_card,
                    0,
                    players.info[p, POS],
                    players.info[p, POS],
                    p,
                )
            else:
                target = leader(p, board, players)
                before = players.info[target, POS]
                play_against(
                    event_card,
                    target,
                    board,
                    players,
                    deck,
                    tally,
                    cards,
                    characters,
                    advantages,
                    rnd,
                )
                note(
                    tally,
                    rnd,
                    p,
                    LOG_PLAY_EVENT,
                    event_card,
                    0,
                    before,
                    players.info[target, POS],
                    target,
                )
            discard(deck, event_card)
        else:
            artefact = smart_artefact_to_activate(players.hand[p], players.info[p, HAND_N], cards)
            if artefact >= 0 and players.info[p, PENDING_N] < MAX_ARTEFACTS:
                card = take_from_hand(players, p, artefact)
                players.pending[p, players.info[p, PENDING_N]] = card
                players.info[p, PENDING_N] += 1
                note(tally, rnd, p, LOG_ACTIVATE, card, 0, -1, -1, -1)

    # active artefacts that hurt a rival, each used once and discarded (no limit per turn)
    if policy != GREEDY:
        target = leader(p, board, players)
        used = smart_rival_artefact(p, target, board, players, cards, characters, advantages)
        while used >= 0:
            artefact = take_artefact(players, p, used)
            before = players.info[target, POS]
            play_against(
                artefact, target, board, players, deck, tally, cards, characters, advantages, rnd
            )
            note(
                tally,
                rnd,
                p,
                LOG_USE_ON_RIVAL,
                artefact,
                0,
                before,
                players.info[target, POS],
                target,
            )
            discard(deck, artefact)
            used = smart_rival_artefact(p, target, board, players, cards, characters, advantages)

    resting = policy != GREEDY and smart_should_rest(
        p, board, players, tally, cards, characters, advantages, extra_mp, turn_delta
    )
    if resting:
        lifted = rest(players.curse[p])
        note(tally, rnd, p, LOG_REST, -1, lifted, players.info[p, POS], players.info[p, POS], -1)
    elif players.info[p, HAND_N] > 0:
        # 2. Movement
        if players.info[p, ROUTE] < 0:
            if policy == GREEDY:
                players.info[p, ROUTE] = greedy_route(board)
            else:
                players.info[p, ROUTE] = smart_route(
                    p, board, players, tally, cards, characters, advantages, extra_mp, turn_delta
                )
            note(tally, rnd, p, LOG_ROUTE, -1, players.info[p, ROUTE], -1, -1, -1)
        route = players.info[p, ROUTE]
        if policy == GREEDY:
            index = highest_card(players.hand[p], players.info[p, HAND_N], cards)
        else:
            index = smart_move_card(
                p, board, players, tally, cards, characters, advantages, extra_mp, turn_delta
            )
        card = take_from_hand(players, p, index)
        mp = cards[card, CARD_NUMBER] + extra_mp
        if policy != GREEDY:
            bonus = smart_mp_bonus(
                p, route, mp, board, players, tally, cards, characters, advantages, turn_delta
            )
            if bonus >= 0:
                used = take_artefact(players, p, bonus)
                mp += cards[used, CARD_PARAM]
                discard(deck, used)
                note(tally, rnd, p, LOG_USE_ARTEFACT, used, cards[used, CARD_PARAM], -1, -1, -1)
        discard(deck, card)
        start = players.info[p, POS]
        reached = furthest(
            board, players, tally, characters, advantages, p, route, start, mp, turn_delta
        )
        end = fall_back(board, tally, route, reached, node_of(board, players, p))
        if end < reached:
            tally.node_bounce[board.route_nodes[route, reached]] += 1
            tally.race[STAT_BOUNCES] += 1
            note(tally, rnd, p, LOG_BOUNCE, -1, 0, reached, end, -1)
        note(tally, rnd, p, LOG_MOVE, card, mp, start, end, -1)
        place(board, players, tally, p, end, rnd)
        if players.info[p, ARRIVAL] > 0:
            return  # no encounter on the last square
        if character[CHAR_ABILITY] == E_CLEPTOMANIA:
            steal_artefact(board, players, tally, p, rnd)
        if advantage[ADV_EFFECT] == E_STEAL_ARTEFACT:
            steal_artefact(board, players, tally, p, rnd)
        # 3. Encounter, when the character advanced at least one square
        if encounters and end > start:
            encounter(p, board, players, deck, tally, cards, characters, advantages, rnd)
            if players.info[p, ARRIVAL] > 0:
                return

    # 4. Replenishment: discard down to or draw up to four; artefacts become active
    while players.info[p, HAND_N] > HAND_SIZE:
        lowest = lowest_card(players.hand[p], players.info[p, HAND_N], cards)
        discard(deck, take_from_hand(players, p, lowest))
    while players.info[p, HAND_N] < HAND_SIZE:
        card = draw(deck, cards, tally)
        if card < 0:
            break
        add_to_hand(players, p, card)
    for i in range(players.info[p, PENDING_N]):
        if players.info[p, ACTIVE_N] < MAX_ARTEFACTS:
            players.active[p, players.info[p, ACTIVE_N]] = players.pending[p, i]
            players.info[p, ACTIVE_N] += 1
    players.info[p, PENDING_N] = 0
    node = node_of(board, players, p)
    if node >= 0:
        tally.node_time[node] += 1


@njit(cache=True, inline="always")
def ahead_of(board: Board, players: Players, q: int, p: int) -> bool:
    """Is ``q`` placed before ``p`` at the end of the race (p. 7)?

    Finishers come first, in order of arrival ("it is the first to arrive who will be deemed
    the winner"); then the positions reached are the arrival spaces: fewer squares to go is
    better, and before the start tile is behind every square. "Should two characters be
    side by side in the same square, it will be considered a draw": a draw only on one
    square. Two characters on different squares with as many
    squares to go (on different start paths) are told apart by who reached their square
    first, as finishers are (a modelling decision: the rulebook is silent).
    """
    if players.info[p, ARRIVAL] > 0:
        return 0 < players.info[q, ARRIVAL] < players.info[p, ARRIVAL]
    if players.info[q, ARRIVAL] > 0:
        return True
    if players.info[q, POS] < 0 or players.info[p, POS] < 0:
        # before the start is behind every square; two there share one place
        return players.info[p, POS] < 0 <= players.info[q, POS]
    if node_of(board, players, q) == node_of(board, players, p):
        return False
    left_q, left_p = remaining(board, players, q), remaining(board, players, p)
    if left_q != left_p:
        return left_q < left_p
    return first_reached(board, players, q) < first_reached(board, players, p)


@njit(cache=True, inline="always")
def first_reached(board: Board, players: Players, p: int) -> int:
    """When the first of the characters now on ``p``'s square reached it: characters who
    draw share one place, so they share one arrival."""
    node = node_of(board, players, p)
    first = players.info[p, REACHED]
    for q in range(players.info.shape[0]):
        if players.info[q, ARRIVAL] == 0 and node_of(board, players, q) == node:
            first = min(first, players.info[q, REACHED])
    return first


@no_runtime(wraparound=False)
def placings(board: Board, players: Players, out: np.ndarray) -> None:
    """Placings at the end (p. 7): 1 + how many are placed before each character."""
    n = players.info.shape[0]
    for p in range(n):
        better = 0
        for q in range(n):
            if q != p and ahead_of(board, players, q, p):
                better += 1
        out[p] = better + 1


@no_runtime(wraparound=False)
def play_race(
    board: Board,
    players: Players,
    deck: Deck,
    tally: Tally,
    cards: np.ndarray,
    characters: np.ndarray,
    advantages: np.ndarray,
    encounters: bool,
) -> int:
    """Play one race from the dealt state to the end of the round in which the first
    character finishes. Returns the number of rounds (MAX_ROUNDS + 1 if stopped).

    Compiled on its own, without numba's runtime (:func:`~trackkit.games.unmanaged.no_runtime`),
    and called once per race: the turn is inlined here. Its arrays' rows have lengths known
    when compiling (:func:`fixed_widths`; ``play_batch`` checks the content tables')."""
    players, tally = fixed_widths(players, tally)
    cards = unmanaged_rows(cards, CARD_FIELDS)
    characters = unmanaged_rows(characters, CHAR_FIELDS)
    advantages = unmanaged_rows(advantages, ADV_FIELDS)
    n = players.info.shape[0]
    order = tally.order
    for k in range(n):
        order[k] = k
    tally.race[RACE_LEADERS] = leaders(board, players)  # before the start: everyone
    for rnd in range(1, MAX_ROUNDS + 1):
        shuffle(order, n, tally.dice, ORDERS)  # the turn order is drawn from the bag every round
        for k in range(n):
            p = order[k]
            players.info[p, ORDER_POS] = k
            if players.info[p, ARRIVAL] == 0:
                take_turn(
                    p,
                    board,
                    players,
                    deck,
                    tally,
                    cards,
                    characters,
                    advantages,
                    encounters,
                    rnd,
                )
        for p in range(n):
            if players.info[p, ARRIVAL] == 1:
                race_end(board, players, tally, p)
                return rnd
        leading = leaders(board, players)
        if leading & tally.race[RACE_LEADERS] == 0:
            tally.race[STAT_LEAD_CHANGES] += 1
        tally.race[RACE_LEADERS] = leading
    return MAX_ROUNDS + 1


@njit(cache=True, inline="always")
def leaders(board: Board, players: Players) -> int:
    """The characters leading now, as a bit mask: those with the fewest squares to go
    (characters level on squares share the lead; before the start everyone leads)."""
    best, mask = 1 << 30, 0
    for p in range(players.info.shape[0]):
        left = remaining(board, players, p)
        if left < best:
            best, mask = left, 1 << p
        elif left == best:
            mask |= 1 << p
    return mask


@njit(cache=True, inline="always")
def race_end(board: Board, players: Players, tally: Tally, winner: int) -> None:
    """What a race counts when ``winner`` has won it: whether it was decided in the last
    round (the winner did not lead when that round began), and the winner's lead in squares
    over the runner-up (0 if the runner-up finished too, or raced alone)."""
    if tally.race[RACE_LEADERS] & (1 << winner) == 0:
        tally.race[STAT_LAST_ROUND] = 1
    n = players.info.shape[0]
    gap = 1 << 30 if n > 1 else 0
    for q in range(n):
        if q != winner:
            gap = min(gap, remaining(board, players, q))
    tally.race[STAT_WINNER_GAP] = gap


@no_runtime(wraparound=False)
def deal(
    players: Players,
    deck: Deck,
    tally: Tally,
    cards: np.ndarray,
    characters: np.ndarray,
    fixed_characters: np.ndarray,
    fixed_advantages: np.ndarray,
    n_advantages: int,
    fixed_routes: np.ndarray,
    routes: int,
    key: np.uint64,
) -> None:
    """Set up race ``key`` (:func:`~trackkit.games.yummell.state.start_race`):
    characters and advantages (given, or dealt at random), start paths (given, dealt, or
    left to the policy), a shuffled deck, empty squares, and four cards each."""
    start_race(tally.dice, key)
    n, n_characters = players.info.shape[0], characters.shape[0]
    pool = tally.pool
    if fixed_characters[0] < 0:
        for i in range(n_characters):
            pool[i] = i
        shuffle(pool, n_characters, tally.dice)
        for i in range(n):
            players.info[i, CHARACTER] = pool[i]
    else:
        for i in range(n):
            players.info[i, CHARACTER] = fixed_characters[i]
    if fixed_advantages[0] < 0:
        for i in range(n_advantages):
            pool[i] = i
        shuffle(pool, n_advantages, tally.dice)
        for i in range(n):
            players.info[i, ADVANTAGE] = pool[i]
    else:
        for i in range(n):
            players.info[i, ADVANTAGE] = fixed_advantages[i]
    # start paths: chosen by the policy at the first move (CHOSEN), given, or DEALT in
    # turn from a random first one, so that every path starts as many racers
    first = rand_below(tally.dice, routes) if fixed_routes[0] == DEALT else 0
    for p in range(n):
        given = fixed_routes[p]
        players.info[p, ROUTE] = (first + p) % routes if given == DEALT else given
        if given != CHOSEN:
            note(tally, 0, p, LOG_ROUTE, -1, players.info[p, ROUTE], -1, -1, -1)
    players.info[:, POS] = OFF_BOARD
    players.info[:, ARRIVAL] = 0
    players.info[:, HAND_N] = 0
    players.info[:, ACTIVE_N] = 0
    players.info[:, PENDING_N] = 0
    players.curse[:, :] = 0
    players.info[:, ORDER_POS] = 0
    players.info[:, REACHED] = 0
    tally.clock[0] = 0
    tally.race[:] = 0
    for p in range(n):
        troll = characters[players.info[p, CHARACTER], CHAR_ABILITY] == E_TOLL
        players.info[p, TOLL] = 1 if troll else 0
    tally.occupancy[:] = 0
    tally.tolls[:] = 0
    total = cards.shape[0]
    for i in range(total):
        deck.pile[i] = i
    deck.counts[0], deck.counts[1] = total, 0
    if not deck.counts[2]:
        shuffle(deck.pile, total, tally.dice)
    for p in range(n):
        for _ in range(HAND_SIZE):
            add_to_hand(players, p, draw(deck, cards, tally))


# nogil: a batch races without holding the interpreter lock, so the app's other
# visitors (and its health check) are served while it runs
@njit(cache=True, nogil=True)
def play_batch(
    board: Board,
    players: Players,
    deck: Deck,
    tally: Tally,
    cards: np.ndarray,
    characters: np.ndarray,
    advantages: np.ndarray,
    fixed_characters: np.ndarray,
    fixed_advantages: np.ndarray,
    fixed_routes: np.ndarray,
    encounters: bool,
    keys: np.ndarray,
    rounds: np.ndarray,
    placing: np.ndarray,
    route: np.ndarray,
    character: np.ndarray,
    advantage: np.ndarray,
    order_pos: np.ndarray,
    stats: np.ndarray,
) -> None:
    """Play ``rounds.shape[0]`` races, race ``r`` from its key ``keys[r]``, writing
    each race's length, its counts (``stats``: one row of RACE_STATS per race), and each
    character's placing, route, character, advantage and place in the last round's turn
    order."""
    widths = cards.shape[1], characters.shape[1], advantages.shape[1]
    if widths[0] != CARD_FIELDS or widths[1] != CHAR_FIELDS or widths[2] != ADV_FIELDS:
        raise ValueError("content tables with other columns than content.py's")
    board, players, deck, tally = unmanaged_state(board, players, deck, tally)
    cards, characters, advantages = unmanaged(cards), unmanaged(characters), unmanaged(advantages)
    fixed_characters, fixed_advantages = unmanaged(fixed_characters), unmanaged(fixed_advantages)
    fixed_routes, keys = unmanaged(fixed_routes), unmanaged(keys)
    for r in range(rounds.shape[0]):
        deal(
            players,
            deck,
            tally,
            cards,
            characters,
            fixed_characters,
            fixed_advantages,
            advantages.shape[0],
            fixed_routes,
            board.route_len.shape[0],
            keys[r],
        )
        rounds[r] = play_race(
            board, players, deck, tally, cards, characters, advantages, encounters
        )
        placings(board, players, placing[r])
        route[r] = players.info[:, ROUTE]
        character[r] = players.info[:, CHARACTER]
        advantage[r] = players.info[:, ADVANTAGE]
        order_pos[r] = players.info[:, ORDER_POS]
        for k in range(RACE_STATS):
            stats[r, k] = tally.race[k]
