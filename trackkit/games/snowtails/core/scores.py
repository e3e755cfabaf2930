"""What an outcome of a move is worth to each Snow Tails policy: their weights and scores
(what each assumes about players: :mod:`.policies`).

An outcome is where the move ends (its distance to go, :attr:`.board.Board.togo`, and the
buildings it triggers), the collision cards taken, why it stopped and the bonus die left.
greedy scores in rank steps; smart and bold in hundredths of a space.

**Issue 34, smart against greedy on husky-oval** (where greedy beat it). Replaying from the
turns where the two choose differently (husky-oval, 3 and 5 sleds, each option played out
to the end by the table's own policies): greedy spent its bonus die where smart kept it.
A bonus runs straight ahead, so along an outer lane of a corner it gains race position but
no :attr:`.board.Board.togo` (togo drifts inward for free), and smart's 40 a pip left over
outweighed it; it also crashed into a sled rather than spend the die, which a balanced
sled gets anew anyway. And with a collision card held, smart took a 2nd for 2 spaces
(a tie at 50 a card held, the rank settling it for the card): from the same turn the
leader then won 58% of the races it won 100% of keeping the card out. So
:data:`SMART_DIE` 40 → 0 (the Tavern's pips keep the 40: :data:`SMART_TAVERN`; bold keeps
its 40: :data:`BOLD_DIE`) and :data:`SMART_CARD_HELD` 50 → 75. Measured with
``trackkit.explore.ladder.ladder_step`` (smart over greedy, 1,000 race pairs), in points
at 3/5 sleds, seed 0 then seed 1, before → after: husky-oval -0.8/-2.0 and -3.9/-2.7 →
+1.8/+0.6 and -0.3/-0.2 (4,000 pairs: -2.1/-2.1 and -2.5/-2.2 → +0.9/-0.1 and +0.2/-0.3),
chicane +10.5/+4.5 and +6.8/+3.1 → +12.5/+4.9 and +10.9/+3.4, long-trail +24.7/+13.1 and
+25.9/+11.8 → +28.3/+15.5 and +28.6/+13.6, reversed-ridge +57.9/+26.4 and +57.3/+28.2 →
+59.2/+27.0 and +58.7/+28.6. The die alone (at 0, the Tavern's pips too): husky-oval
+1.1/+0.6 and -1.1/+0.1; other die prices on husky-oval (4,000 pairs, seed 0): 10 gave
-0.8/-1.3, -10 +1.0/-0.1, -30 +0.3/-0.5. Tried and left (1,000 pairs, both seeds): a
first card at 90-120 or 210-260 (worse on husky-oval), a sled hit at 0 or 120 (no
change), the dogs' pace at +20, +50 or -15 a pip (-3 to -9 on husky-oval), the rank at
2-10 a step (nearer greedy: 0 to -0.8 at 3 sleds), crossing the line scored by the rank
alone (no change). Still open: husky-oval at 5 sleds is a tie, not a gain.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from trackkit.games.snowtails.core.board import BOTHY, CHAPEL, KENNELS, TAVERN
from trackkit.games.snowtails.core.movement import STOP_REPAIR, STOP_SLED
from trackkit.games.snowtails.core.rules import tavern_die

# greedy's penalties, in rank steps (about 5 per straight row of 5 lanes)
GREEDY_CARD = 10  # a collision card: about two rows
GREEDY_SLED = 5  # hitting a sled: about a row (the lost die pip is a tie-break already)
GREEDY_REPAIR = 200  # a 5th collision card: sitting out for several rounds

# smart's weights, in hundredths of a space
SMART_SPACE = 100
SMART_CARD = 150  # a collision card with none held: a space and a half
SMART_CARD_HELD = 75  # and 3/4 of a space more a card already held (50 until issue 34)
SMART_REPAIR = 2500
SMART_SLED = 50
SMART_DIE = 0  # a pip of bonus die left over (40 until issue 34: the module docstring)
SMART_TAVERN = 40  # a pip the Tavern adds to the die (SMART_DIE's 40 until issue 34)
SMART_CHAPEL = 150  # a collision card the Chapel takes away
SMART_KENNELS = 120  # a 5 added to the deck
SMART_BOTHY = 30  # a 0 or 1 the Bothy swaps for a new card
# a pip kept in hand: 0, was 5 (issue 34). At 5 it settled nearly every choice between
# outcomes of equal progress, and the rank (the race position: the placings, the turn
# order) broke no ties; on the short husky-oval smart then lost to greedy. Measured with
# trackkit.explore.ladder.ladder_step(smart over greedy, 1,000 race pairs, seed 0), in
# points at 3/5 sleds, 5 → 0: husky-oval -6.5/-6.0 → -0.8/-2.0, chicane +5.5/+2.8 →
# +10.5/+4.5, reversed-ridge +55/+26 → +57.9/+26.4, long-trail +31/+15 → +24.7/+13.1;
# 2 gave -6.7/-6.4 on husky-oval. bold keeps the 5 (BOLD_HAND).
SMART_HAND = 0

# bold's weights, in hundredths of a space (the rest as smart's)
BOLD_CARD = 20  # a collision card with none held: the hand slot it fills
BOLD_CARD_HELD = 20  # and as much again for each card already held (the repair nears)
BOLD_PLACE = 250  # a place: the spaces between two sleds next in the race order (measured)
BOLD_PACE = 50  # a pip of the dogs' speed kept for the next turn
BOLD_HAND = 5  # a pip kept in hand (smart's was 5 too, until issue 34)
BOLD_DIE = 40  # a pip of bonus die left over (smart's was 40 too, until issue 34)
BOLD_LOSS = 1000  # places: with 2 sleds a repair loses the race (only when nothing else)


class SmartContext(NamedTuple):
    """What the smart and bold scores read of the sled that plays a candidate."""

    held: int  # collision cards held before the move
    boxed: int  # 5s left in the box (for the Kennels)
    hand_pips: int  # pips left in hand after the play
    low_cards: int  # cards of value up to :data:`.policies.LOW_CARD` left in hand after the play


@njit(cache=True, inline="always")
def greedy_score(rank: int, cards: int, stop: int) -> int:
    """Rank after the move, minus the fixed penalties (module docstring)."""
    score = rank - GREEDY_CARD * cards
    if stop == STOP_SLED:
        score -= GREEDY_SLED
    elif stop == STOP_REPAIR:
        score -= GREEDY_REPAIR
    return score


@njit(cache=True, inline="always")
def smart_worth(
    togo: int, trigger: int, cards: int, stop: int, die_left: int, sled: SmartContext
) -> int:
    """What an outcome is worth to the smart policy, in hundredths of a space (module
    docstring): progress, collisions, bonus die, hand and the building it ends on."""
    held, boxed, hand_pips, low_cards = sled.held, sled.boxed, sled.hand_pips, sled.low_cards
    worth = -SMART_SPACE * togo
    worth -= (SMART_CARD + SMART_CARD_HELD * held) * cards
    worth += SMART_DIE * die_left + SMART_HAND * hand_pips
    if stop == STOP_REPAIR:
        return worth - SMART_REPAIR
    if stop == STOP_SLED:
        worth -= SMART_SLED
    if trigger & CHAPEL:
        worth += SMART_CHAPEL * (held + cards)
    if trigger & TAVERN:
        worth += SMART_TAVERN * (tavern_die(die_left) - die_left)
    if trigger & KENNELS and boxed > 0:
        worth += SMART_KENNELS
    if trigger & BOTHY:
        worth += SMART_BOTHY * low_cards
    return worth


@njit(cache=True, inline="always")
def bold_worth(
    togo: int, trigger: int, cards: int, stop: int, die_left: int, sled: SmartContext, lost: int
) -> int:
    """What an outcome is worth to the bold policy, in hundredths of a space (module
    docstring): smart's worth with cheap collision cards, and a repair at the ``lost``
    places it costs."""
    if stop == STOP_REPAIR:  # every collision card goes: only the repair itself costs
        worth = -SMART_SPACE * togo + BOLD_DIE * die_left + BOLD_HAND * sled.hand_pips
        return worth - BOLD_PLACE * lost
    worth = smart_worth(togo, trigger, 0, stop, die_left, sled)
    worth += (BOLD_HAND - SMART_HAND) * sled.hand_pips + (BOLD_DIE - SMART_DIE) * die_left
    if not trigger & CHAPEL:  # the Chapel takes the new cards away with the others
        worth -= (BOLD_CARD + BOLD_CARD_HELD * sled.held) * cards
    return worth


@njit(cache=True, inline="always")
def repair_places(rank: np.ndarray, nodes: np.ndarray, p: int, node: int) -> int:
    """The places a repair on ``node`` costs sled ``p`` (``nodes``: every sled's space):
    it moves again only once it is last at the start of a round, so every sled behind
    it passes it; with 2 sleds the race ends at once and it is 2nd (:data:`BOLD_LOSS`)."""
    if nodes.shape[0] == 2:
        return BOLD_LOSS
    behind = 0
    for q in range(nodes.shape[0]):
        if q != p and (nodes[q] < 0 or rank[nodes[q]] < rank[node]):
            behind += 1
    return behind
