"""Snow Tails' readings: the rules the Italian rulebook leaves open (page 6 and every figure
are missing) or states in words trackkit reads one way, each with the readings a designer
could defend, as race options (:class:`trackkit.games.readings.Reading`).

Each reading's option is a race option of the face, so ``--tight-corners outer-lane``,
``--no-first-round-bonus``, ``--tie-break leftmost`` and ``--repair-draw fresh`` choose
them on the command line and the app draws a widget for each;
:class:`~trackkit.games.snowtails.core.options.RaceOptions` carries them to the course
(``tight_corners``, ``tie_break``) and to the engine (``bonus_first_round``,
``repair_draw``).

``effect`` is what changing the reading was measured to change, with the command that
measured it (reversed-ridge has two tight corners and corners turning both ways; 5 sleds,
greedy and smart, 4,000 races, seed 1).

>>> [reading.name for reading in READINGS]
['tight_corners', 'first_round_bonus', 'tie_break', 'repair_draw']
>>> TIE_BREAK.default, TIE_BREAK.option.flag
('inside', '--tie-break')
"""

from __future__ import annotations

from trackkit.games.face import Argument
from trackkit.games.readings import Reading
from trackkit.games.snowtails.core.course import TIE_BREAKS, TIGHT_CORNERS
from trackkit.games.snowtails.core.options import REPAIR_DRAWS

_MEASURED = "trackkit simulate reversed-ridge --players 5 --races 4000 --seed 1"

TIGHT_CORNERS_READING = Reading(
    Argument(
        "tight_corners",
        "which lanes of a tight corner run into the side: every-lane (default) or "
        "outer-lane (rulebook G; SNOWTAILS.md §3.11)",
        "choice",
        choices=TIGHT_CORNERS,
        offered=TIGHT_CORNERS,
        label="Tight corners",
        app_help="The rulebook's figure of a tight corner is missing. every-lane: the last "
        "space of every lane faces the side, so a sled leaves only by drifting; outer-lane: "
        "only the outermost lane runs into the side (rulebook G)",
    ),
    values=TIGHT_CORNERS,
    means=(
        "the last space of every lane of a tight corner faces the track side: going "
        "straight ahead from it is a side collision, so a sled leaves the corner only by "
        "drifting",
        "only the outermost lane of a tight corner runs into the side; the lanes further in "
        "continue ahead into the next straight",
    ),
    question="In a tight corner, which lanes lead into the side when followed without drifting?",
    why="the text says the green lines followed without drifting lead to collisions (red "
    "stars, plural) and that only the bravest take the fastest line and drift at the last "
    "moment: read for every lane, every sled must drift out, which is what makes a tight "
    "corner tight (the figure, which would settle it, is missing)",
    passage='rulebook G, figure "Tight corners"; SNOWTAILS.md §3.11',
    status="R",
    effect="on reversed-ridge (5 sleds, 4,000 races, seed 1) outer-lane shortens the race "
    "from 5.47 rounds (95% CI 5.45-5.49) to 4.76 (4.74-4.77) under greedy, 4.90 to 4.35 "
    "under smart, and moves greedy's best start slot from the 3rd (win rates "
    "[5, 5, 37, 24, 29]%) to the 4th ([12, 7, 22, 40, 19]%), smart's slot spread from 16 "
    f"to 19 points ({_MEASURED} [--policy smart] --tight-corners outer-lane)",
)

FIRST_ROUND_BONUS = Reading(
    Argument(
        "first_round_bonus",
        "no bonus die in round 1",
        "switch",
        default=True,
        label="Bonus die in round 1",
        app_help="The bonus die may be used from round 1; off: from round 2",
    ),
    values=(True, False),
    labels=("allowed", "not allowed"),
    means=(
        "a sled may move with its bonus die (set by its start slot) in round 1",
        "the bonus die is first usable in round 2, as in the base game",
    ),
    question="May the bonus die be used in the first round?",
    why="Snow Tails 2's rulebook forbids only updating the die in round 1 (B.2), not using "
    "it (B.4); the base game's ban on a first-turn bonus is not repeated",
    passage='rulebook B.2, B.4 (box "using the bonus"); SNOWTAILS.md §3.7',
    status="D",
    effect="on reversed-ridge (5 sleds, 4,000 races, seed 1) no bonus in round 1 shortens "
    "greedy's races from 5.47 rounds (95% CI 5.45-5.49) to 5.24 (5.22-5.26), its slot win "
    "rates [5, 5, 37, 24, 29]% becoming [3, 6, 23, 30, 37]%, and lengthens smart's from "
    "4.90 (4.89-4.92) to 5.05 (5.03-5.06), its slot spread falling from 16 to 9 points "
    f"({_MEASURED} [--policy smart] --no-first-round-bonus)",
)

TIE_BREAK = Reading(
    Argument(
        "tie_break",
        "who leads when two sleds are level: inside (the inside lane of this or the next "
        "corner) or leftmost (default: the track file's tiebreak, inside)",
        "choice",
        choices=TIE_BREAKS,
        offered=(None, *TIE_BREAKS),  # the app: the track file's own, unless the user picks
        words=((None, "the track's own (tiebreak in its file)"),),
        label="Level sleds",
        app_help="Page 6 (race position) is missing. inside: the inside lane of the corner "
        "the sleds are in, or of the next one; leftmost: the leftmost lane always",
    ),
    values=TIE_BREAKS,
    means=(
        "of two sleds level with each other, the one nearer the inside of the corner it is "
        "in (on a straight, of the next corner) leads; with no corner ahead, the leftmost",
        "of two level sleds the one further left leads, wherever they are",
    ),
    question="Who leads when two sleds are level (the same row, or equal front edges)?",
    why='the base game\'s rule ("inside trumps equal positions", rulebook.io; '
    '"furthest to the left … in a corner closest to the inside", gamersalliance.com): '
    "the rulebook's page on race position is missing",
    passage='rulebook B and D ("vedi pagina 6", the missing page); SNOWTAILS.md §3.11',
    status="R",
    effect="on reversed-ridge (5 sleds, 4,000 races, seed 1) leftmost lengthens greedy's "
    "races from 5.47 rounds (95% CI 5.45-5.49) to 5.54 (5.51-5.56) and smart's from 4.90 "
    "to 4.92, the slot spread moving by under 2 points (32 to 31 under greedy, 16 to 16 "
    "under smart); on husky-oval, whose corners all turn left, it changes nothing "
    f"({_MEASURED} [--policy smart] --tie-break leftmost)",
)

REPAIR_DRAW = Reading(
    Argument(
        "repair_draw",
        "at a repair (a 5th collision card): keep the dog cards in hand and draw up to 5 "
        "(default), or discard them and draw 5 fresh (rulebook C)",
        "choice",
        choices=REPAIR_DRAWS,
        offered=REPAIR_DRAWS,
        label="Repair draw",
        app_help="keep: the dog cards in hand stay and the hand is drawn up to 5; fresh: "
        "they are discarded under the dogs and 5 new dog cards drawn, as the rulebook's "
        "words say (C)",
    ),
    values=REPAIR_DRAWS,
    means=(
        "the collision cards are discarded, the dog cards still in hand are kept, and the "
        "hand is drawn up to 5",
        "the collision cards and the dog cards in hand are discarded (the dog cards under "
        "the sled's dogs, as any discard) and 5 new dog cards are drawn",
    ),
    question="At a repair, what happens to the dog cards still in hand?",
    why='"draw 5 new dog cards" is exact when no dog card is left in hand, the usual '
    "case: a sled holding 4 collision cards holds one dog card, which it must play, before "
    "it takes the 5th; keeping the dog cards otherwise left (a sled hitting several trees in "
    "one turn) changes the least",
    passage='rulebook C, "Collisioni"; SNOWTAILS.md §3.10',
    status="R",
    effect="none measured: greedy and smart take no 5th collision card on reversed-ridge "
    "(5 sleds, 4,000 races, seed 1), and bold, which repairs 0.045 times a race on "
    "long-trail, has played its last dog card whenever it takes the 5th, so both readings "
    "play the very same races there (9.01 rounds, 95% CI 9.00-9.03; trackkit simulate "
    "long-trail --players 5 --races 4000 --seed 1 --policy bold --repair-draw fresh); the "
    "readings differ only for a sled hitting several trees in one turn with dog cards left",
)

READINGS: tuple[Reading, ...] = (TIGHT_CORNERS_READING, FIRST_ROUND_BONUS, TIE_BREAK, REPAIR_DRAW)
"""Snow Tails' readings, in the order the face's options list them."""
