"""Yummell's readings: the rules its rulebook (v1.02) leaves open, each an option of a race
(:class:`~trackkit.games.readings.Reading`), the default SPEC.md §4's modelling decision.

Each reading's option reaches the engine through :class:`~trackkit.games.yummell.core.course.
RaceOptions` (``Tables.rules``: one code per reading, :data:`~trackkit.games.yummell.core.course.
RULE_READINGS`), and the exact solver where it can change a solo race
(``challenge_finish``, and ``draw_two``, refused for a racer with that advantage; the deck
is the solver's own model, the infinite one). The crowding, what "advanced at least one
square" asks of a move and the Troll's toll cannot change a solo race: no other character
stands on any square.

Open questions that are not options (docs/yummell-rules.md § Readings says why): whether
characters on the finish square fill it like any other, and how two characters on
different squares with as many squares to go are placed; neither changes who wins nor
how long a race lasts, only the placings behind the winner.

Two are **what-ifs**, not readings of the text (``what_if`` says why): the crowding only
where a move ends (the rulebook's worked example charges the square passed through) and
the infinite deck (the exact solver's model). They are listed apart and left out of
``--robust``'s default combinations.

The measured effects (``effect``) come from::

    trackkit simulate forest-run --players 4 --races 20000 --seed 1 [--FLAG VALUE]
    trackkit simulate king-of-toads --players 4 --races 20000 --seed 1 [--FLAG VALUE]

and for the fluttering where a move ends, also ``first-run`` and seed 2, and
``trackkit compare --players 4 --robust flutter_end --races 10000 --seed 1`` (and 2).
"""

from __future__ import annotations

from trackkit.games.face import Argument
from trackkit.games.readings import Reading
from trackkit.games.yummell.core.options import DECK_MODELS, RULE_READINGS

DECK = Argument(
    "deck",
    "the movement deck (default finite)",
    "choice",
    choices=DECK_MODELS,
    offered=DECK_MODELS,
    label="Deck",
    app_help="finite: the rulebook's deck, reshuffled when used up; infinite (a what-if, not "
    "a reading of the rulebook: the exact solver's model): every card drawn from the full deck",
)


def _option(name: str, help: str, label: str, app_help: str, words: tuple[str, ...]) -> Argument:
    """A reading's option: a choice among its values (:data:`RULE_READINGS`), the default
    first, each value said in ``words`` in the app."""
    values = RULE_READINGS[name]
    return Argument(
        name,
        f"{help} (default {values[0]})",
        "choice",
        choices=values,
        offered=values,
        words=tuple(zip(values, words, strict=True)),
        label=label,
        app_help=app_help,
    )


CROWDING = Reading(
    _option(
        "crowding",
        "which squares cost +1 MP per character on them: every square entered, or the "
        "one a move ends on",
        "Crowding",
        "every: each square entered costs +1 MP per character on it, passed through or "
        "not (the rulebook's example D to F); end (a what-if, not a reading of the rulebook, "
        "whose example charges the square passed through): only the square the move ends on",
        ("every square entered", "the square a move ends on"),
    ),
    values=RULE_READINGS["crowding"],
    means=(
        "every square entered costs +1 MP per character on it, those passed through too",
        "only the square a move ends on costs +1 MP per character on it; squares passed "
        "through cost their terrain",
    ),
    question="Does the +1 MP per character apply to squares passed through, or only to "
    "the square a move ends on?",
    why="the rulebook's own worked example charges the character passed: D to F over the "
    "occupied hill E costs 5 MP (2 + 1 for the character in E + 2)",
    passage="p. 6, Movement Phase, 'Presence of other characters': \"Entering a square in "
    "which there is another character costs 1 Movement Point extra per character. [...] If "
    "a player has a sufficient number of Movement Points, the squares with two characters "
    'can be surpassed." Examples of movement: "if the character in square D wants to move '
    "to position F, that character would need 5 Movement Points (2 for the hills in E + 1 "
    'for the character in E + 2 for the hills in F)" (SPEC.md §1 Movement, §4)',
    labels=RULE_READINGS["crowding"],
    status="D",
    what_if="the text settles it: the rulebook's worked example charges the character on the "
    "square passed through (D to F costs 5 MP), and Flamm's fluttering would mean next to "
    "nothing if only the square a move ends on cost anything; end asks what if the rule "
    "were otherwise",
    effect="only where a move ends: 4-player races 0.7 to 0.9 rounds shorter (forest-run "
    "9.76 to 9.08, king-of-toads 16.34 to 15.43), a third as many fall-backs off full "
    "squares, and Flamm, whose fluttering is then worth little, wins 14% instead of 27% on "
    "forest-run (9% instead of 21% on king-of-toads): the character spread grows from 4 to "
    "15 points (8 to 21)",
)

ENCOUNTER_WHEN = Reading(
    _option(
        "encounter_when",
        "when a move brings an encounter: it ends ahead of where it began, or it entered "
        "a square (even one it fell back from)",
        "Encounter after",
        "ended-ahead: a move that falls back off a full square to where it began brings no "
        "encounter; entered: any move that entered a square does",
        ("a move that ends ahead", "a move that entered a square"),
    ),
    values=RULE_READINGS["encounter_when"],
    means=(
        "an encounter follows a move that ends ahead of the square it began on",
        "an encounter follows a move that entered at least one square, even one that then "
        "fell back off a full square to where it began",
    ),
    question='What does "advanced at least one square" ask of a move that entered squares '
    "but fell back off a full one to where it began?",
    why="the encounter follows the move's result: a character back where it began has not "
    "advanced, whatever it entered on the way",
    passage='p. 6, Encounters: "When a character has moved, if he/she has not rested and '
    'has advanced at least one square, there will be an Encounter." Movement Phase: "If, '
    "however, the character ends up in a square that is occupied by two characters, he/she "
    'must go back to the first square that can host that character" (SPEC.md §4)',
    labels=RULE_READINGS["encounter_when"],
    status="U",
    effect="an encounter after any move that entered a square: no change beyond the noise "
    "at 4 players (forest-run 9.76 to 9.75 rounds, king-of-toads 16.34 to 16.34; the "
    "character spread 4 to 3 points): such moves are rare",
)

CHALLENGE_FINISH = Reading(
    _option(
        "challenge_finish",
        "a challenge won next to the finish: the character advances onto it and finishes, "
        "or stays where it is",
        "Challenge next to the finish",
        "finishes: a challenge won on the square before the finish advances the character "
        "onto it, and it finishes; stays: the finish is reached by moving only",
        ("advances onto the finish", "stays where it is"),
    ),
    values=RULE_READINGS["challenge_finish"],
    means=(
        "a challenge won on the square before the finish advances the character onto the "
        "finish: it finishes",
        "a challenge won on the square before the finish leaves the character where it is: "
        "the finish is reached by moving",
    ),
    question="Does a challenge won on the square before the finish carry the character "
    "onto the finish?",
    why="a won challenge advances a square whenever that square can host the character, "
    "and the finish hosts anyone; nothing in the rulebook excepts it",
    passage='p. 7, Challenge: "the character wins the Challenge and advances a square (if '
    'it is able to host the character. Otherwise the character remains stationary)". End '
    'of the game: "The character who is first to arrive at the last square of the last '
    'track tile is the winner of the game. In the last square there are no encounters" '
    "(SPEC.md §4)",
    labels=RULE_READINGS["challenge_finish"],
    status="U",
    effect="a challenge that stops short of the finish: 4-player races 0.06 rounds longer "
    "(forest-run 9.76 to 9.83, king-of-toads 16.34 to 16.40) and an exact solo race as "
    "much (first-run, Flamm with Heroism, 7.02 to 7.08); the win shares unchanged",
)

TROLL_TOLL = Reading(
    _option(
        "troll_toll",
        "when getting past the Troll costs its extra MP: on leaving its square, or on entering it",
        "Troll's toll",
        "leaving: the step that leaves the Troll's square behind costs 1 more MP; "
        "entering: the step onto the Troll's square does, even one that stops there",
        ("on leaving its square", "on entering its square"),
    ),
    values=RULE_READINGS["troll_toll"],
    means=(
        "the step that leaves a square holding the Troll behind costs 1 MP more (stopping "
        "beside the Troll costs only the +1 for company)",
        "the step onto a square holding the Troll costs 1 MP more, whether the mover stops "
        "there or goes on",
    ),
    question="When does a character pay the Troll's extra MP: when it gets past the "
    "Troll, or when it enters the Troll's square?",
    why='"overcome" and "surpass" (Italian per superarlo, to get past it) are done when '
    "the mover leaves the Troll behind: a character that stops beside it has not got "
    "past it",
    passage='p. 9, How to properly interpret the rules: "The Troll has the Ability that '
    "states: to overcome a Troll, characters must spend 1 extra Movement Point. [...] When "
    'the Dragon surpasses the Troll, he spends 1 additional Movement Point." (SPEC.md §1 '
    "Cards and characters; docs/yummell-rules.md, modelling decisions)",
    labels=RULE_READINGS["troll_toll"],
    status="U",
    effect="the toll on entering the Troll's square: 4-player races 0.04 rounds shorter "
    "(forest-run 9.76 to 9.72, king-of-toads 16.34 to 16.29) and 15% fewer fall-backs off "
    "full squares; the Troll's win share 26.7% to 27.7% on "
    "forest-run, within the noise",
)

DRAW_TWO = Reading(
    _option(
        "draw_two",
        "draw-two-keep-one: on top of the Preparation draw, or instead of it",
        "Draw two, keep one",
        "extra: the player with that advantage draws its card, then two, and keeps one of "
        "them; instead: it draws two and keeps one in place of its Preparation draw",
        ("on top of the Preparation draw", "instead of the Preparation draw"),
    ),
    values=RULE_READINGS["draw_two"],
    means=(
        "the advantage comes on top of the Preparation draw: six cards before moving",
        "the advantage replaces the Preparation draw: five cards before moving",
    ),
    question="Does the advantage that draws two cards and keeps one come on top of the "
    "Preparation draw or instead of it?",
    why='an advantage is an action, "the player may not take action before" the '
    'Preparation draw, and the card does not say "instead" of it: the player draws its '
    "card, then uses the advantage",
    passage='p. 5, Turn sequence: "1. Preparation Phase. The player draws a card from the '
    'deck. The player may not take action before this stage." Actions: "the Advantages can '
    'be used once per turn and only at the beginning or the end of a Phase." The advantage '
    'card (its Italian text, translated): "At the start of the turn the '
    'player draws 2 cards…, choose one and discard the other immediately"',
    labels=RULE_READINGS["draw_two"],
    status="U",
    effect="instead of the Preparation draw: 4-player races 0.1 to 0.2 rounds longer "
    "(forest-run 9.76 to 9.85, king-of-toads 16.34 to 16.55), and the advantage's win share "
    "falls from 41% to 30% on forest-run (55% to 37% on king-of-toads): the advantage "
    "spread on king-of-toads shrinks from 45 to 26 points",
)

DECK_MODEL = Reading(
    DECK,
    values=DECK_MODELS,
    means=(
        "the rulebook's deck of 90 cards, the discard pile shuffled into a new draw pile "
        "when it runs out",
        "every draw independent, from the same mix of numbers and types (the exact solver's model)",
    ),
    question="Is the deck a finite pile, reshuffled when used up, or may it be treated as "
    "every draw independent?",
    why="the rulebook's deck; the infinite one is the model under which a solo race is a "
    "Markov chain the exact solver solves (its figures say so)",
    passage='p. 3, The Deck of Cards: "Once there are no more cards to draw from the draw '
    'pile, the discard pile must be shuffled in order to make a new draw pile" (SPEC.md §3 '
    "deck reconstructed, §4 two deck models)",
    status="R",
    what_if="not a reading of the text, which has a finite deck reshuffled when used up: "
    "the infinite deck is the model the exact solver needs (a solo race as a Markov chain)",
    effect="the infinite deck: 4-player races longer (forest-run 9.76 to 9.91 rounds, "
    "king-of-toads 16.34 to 17.00); the character spread unchanged (4 and 8 points)",
)

FLUTTER_END = Reading(
    _option(
        "flutter_end",
        "Flamm's fluttering: free of the company on every square it enters, or only on "
        "those it moves through (it pays for the company where its move ends)",
        "Fluttering where a move ends",
        "free: Flamm pays nothing for other characters on any square it enters; pays: only "
        "the squares it moves through are free, the square its move ends on costs +1 MP "
        "per character there",
        ("free everywhere", "pays where its move ends"),
    ),
    values=RULE_READINGS["flutter_end"],
    means=(
        "Flamm pays no +1 MP for other characters on any square it enters, the square its "
        "move ends on too",
        "Flamm pays no +1 MP for the characters on the squares it moves through, but pays "
        "for those on the square its move ends on (it stops short of a square whose "
        "company it cannot pay for)",
    ),
    question="Does Flamm pay the +1 MP for the company on the square where its move ends?",
    why="the ability frees the movement from the company it meets, and the card's one "
    "exception is a square already holding two, where it cannot end: a square holding one "
    "is not excepted, so its company costs nothing there either",
    passage='Characters, Flamm: "Fluttering: the presence of other characters in the '
    "spaces he is moving through does not hinder the movement (however, he can not finish "
    'his movement in a space already occupied by two characters)." (SPEC.md §1 Cards and '
    "characters)",
    labels=RULE_READINGS["flutter_end"],
    status="U",
    effect="pays where its move ends (4 players, 20,000 races, seed 1): Flamm wins 23.5% "
    "instead of 27.1% on forest-run, "
    "17.0% instead of 20.5% on king-of-toads, 29.6% instead of 33.5% on first-run (seed 2: "
    "23.3, 16.3, 29.5 instead of 26.7, 20.1, 33.2), the race lengths unchanged within the "
    "noise (forest-run 9.76 to 9.76 rounds, king-of-toads 16.34 to 16.33); and which of "
    "first-run and king-of-toads spreads the characters' win shares less flips: first-run "
    "11.5 to 7.2 points, king-of-toads 7.7 to 11.7 (seed 2: 11.2 to 6.8, 8.5 to 12.8). "
    "The profiles' balance, measured against the average track, tells the two apart under "
    "neither reading (compare --robust flutter_end, 10,000 races, seeds 1 and 2)",
)

READINGS: tuple[Reading, ...] = (
    DECK_MODEL,
    CROWDING,
    ENCOUNTER_WHEN,
    CHALLENGE_FINISH,
    TROLL_TOLL,
    DRAW_TWO,
    FLUTTER_END,
)
"""Yummell's readings, in the order its options are declared."""
