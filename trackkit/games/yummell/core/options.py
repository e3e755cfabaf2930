"""What kind of Yummell race to play: :class:`RaceOptions`, checked when made (players,
characters, advantages, policies, the deck, the start paths, the readings of the rules)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from trackkit.errors import TrackkitError, shown
from trackkit.games.yummell import PLAYERS
from trackkit.games.yummell.core.content import (
    ARTEFACT,
    CARD_TYPE,
    Content,
    load_content,
)
from trackkit.games.yummell.core.policies import DEFAULT_BUDGET, POLICIES
from trackkit.games.yummell.core.rules import HAND_SIZE
from trackkit.games.yummell.core.state import (
    CHOSEN,
    DEALT,
    FREE,
)
from trackkit.limits import check_budget

MIN_PLAYERS, MAX_PLAYERS = PLAYERS.race_min, PLAYERS.race_max
_INDEX = re.compile(r"[0-9]+")
_PATH = re.compile(r"[A-Z]")
DeckModel = Literal["finite", "infinite"]
# how racers get their start path: "chosen" by their policy at the first move, "dealt" in
# turn from a random first path (every path starts as many racers: a what-if, fair to every
# path), "free" (the rulebook's free choice: at its first move each racer takes the path
# most advantageous at the time, crowding included, whatever its policy), or one path's
# label ("A"…) for every racer
START_PATHS = ("chosen", "dealt", "free")
DECK_MODELS: tuple[DeckModel, ...] = ("finite", "infinite")  # SPEC.md §4
# the readings of the rules the rulebook leaves open (face/readings.py says each one's
# question and passage): each option's values in the order of its engine code
# (state.py's RULE_* columns), the default first
RULE_READINGS: dict[str, tuple[str, ...]] = {
    "crowding": ("every", "end"),  # CROWD_EVERY, CROWD_END
    "encounter_when": ("ended-ahead", "entered"),  # ENCOUNTER_AHEAD, ENCOUNTER_ENTERED
    "challenge_finish": ("finishes", "stays"),  # CHALLENGE_FINISHES, CHALLENGE_STAYS
    "troll_toll": ("leaving", "entering"),  # TOLL_LEAVING, TOLL_ENTERING
    "draw_two": ("extra", "instead"),  # DRAW_TWO_EXTRA, DRAW_TWO_INSTEAD
    "flutter_end": ("free", "pays"),  # FLUTTER_FREE, FLUTTER_END_PAYS
}


@dataclass(frozen=True)
class RaceOptions:
    """What kind of race to play.

    ``characters`` and ``advantages`` name one per player (names from the content files,
    or their 0-based indices), or are empty to deal them at random every race.
    ``policies`` gives each player its own policy (one per player), overriding ``policy``.
    ``start_paths`` is "chosen" (each racer's policy chooses), "free" (the rulebook's
    free choice: the path most advantageous at the first move, whatever the policy),
    "dealt" (in turn from a random first path, so every path starts as many racers) or a
    path's label ("A"…: every racer on it). ``crowding``, ``encounter_when``,
    ``challenge_finish``, ``troll_toll``, ``draw_two`` and ``flutter_end`` read the rules
    the rulebook leaves open (:data:`RULE_READINGS`; the defaults are SPEC.md §4's and the
    README's modelling decisions).
    """

    players: int = 5
    characters: tuple[str | int, ...] = ()
    advantages: tuple[str | int, ...] = ()
    deck: DeckModel = "finite"
    encounters: bool = True
    policy: str = "greedy"
    policies: tuple[str, ...] = ()
    start_paths: str = "chosen"
    crowding: str = "every"
    encounter_when: str = "ended-ahead"
    challenge_finish: str = "finishes"
    troll_toll: str = "leaving"
    draw_two: str = "extra"
    flutter_end: str = "free"
    budget: int = DEFAULT_BUDGET
    content: Content = field(default_factory=load_content, compare=False, repr=False)

    def __post_init__(self) -> None:
        """Refuse options no race can be played with, each with what to change.

        A finite deck must sustain the race: it holds at least two hands per player
        (``players × 2 × HAND_SIZE``) of cards that are not artefacts, a hand each and as
        many again to draw from. Artefacts do not count: one drawn as an encounter stays
        in front of its holder, and greedy players never use theirs, so a deck of
        artefacts drains as the race goes on. With fewer cards the deal leaves players
        short or the race stalls at the round limit, measuring a different game, so it is
        refused (the infinite deck never runs out). Above that, a draw from an empty pile
        (every card in a hand or active) draws nothing.
        """
        if isinstance(self.players, bool) or not isinstance(self.players, int | np.integer):
            raise TrackkitError(f"players is a whole number, not {self.players!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise TrackkitError(
                f"a race has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {self.players}"
            )
        if self.deck not in DECK_MODELS:
            raise TrackkitError(f"the deck model is 'finite' or 'infinite', not {self.deck!r}")
        for policy in (self.policy, *self.policies):
            if policy not in POLICIES:
                raise TrackkitError(
                    f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}"
                )
        if self.start_paths not in START_PATHS and not _PATH.fullmatch(str(self.start_paths)):
            raise TrackkitError(
                f"start paths are 'chosen', 'dealt' or a start path's letter (A, B, C…), not "
                f"{shown(str(self.start_paths))!r}"
            )
        for name, values in RULE_READINGS.items():
            if getattr(self, name) not in values:
                raise TrackkitError(
                    f"{name.replace('_', ' ')} is one of {', '.join(values)}, not "
                    f"{shown(str(getattr(self, name)))!r}"
                )
        check_budget(self.budget)
        if self.policies and len(self.policies) != self.players:
            raise TrackkitError(
                f"{len(self.policies)} policies given for {self.players} players; give one each"
            )
        for kind, chosen, names in (
            ("characters", self.characters, self.content.character_names),
            ("advantages", self.advantages, self.content.advantage_names),
        ):
            indices = [_index(kind, item, names) for item in chosen]
            if chosen and len(chosen) != self.players:
                raise TrackkitError(
                    f"{len(chosen)} {kind} given for {self.players} players; give one each "
                    "or none to deal them at random"
                )
            if self.players > len(names):
                raise TrackkitError(
                    f"the content has {len(names)} {kind} for {self.players} players"
                )
            if len(set(indices)) != len(indices):
                chosen_names = ", ".join(names[i] for i in indices)
                raise TrackkitError(f"each player needs different {kind}; {chosen_names} repeats")
        cards = int((self.content.cards[:, CARD_TYPE] != ARTEFACT).sum())
        needed = self.players * 2 * HAND_SIZE
        if self.deck == "finite" and cards < needed:
            raise TrackkitError(
                f"the deck in {self.content.folder} has {cards} cards that are not artefacts; "
                f"a race of {self.players} players needs at least {needed} (a hand of "
                f"{HAND_SIZE} each and as many again to draw from; an artefact can stay in "
                "front of its holder all race). Add cards, race fewer players, or use the "
                "infinite deck"
            )

    @property
    def ruleset(self) -> Any:
        """The game these options are for (Yummell)."""
        from trackkit.games import get_ruleset  # the registry finds the game's ruleset

        return get_ruleset("yummell")

    def summary(self) -> dict[str, Any]:
        """The options a report names beside its figures (a reading only when it is not
        the default: a report of the default rules reads as it always has)."""
        return {
            "policy": self.policy,
            "deck": self.deck,
            "encounters": self.encounters,
            "path_choice": self.start_paths,  # ("start_paths" is the per-path table)
            **self.readings_chosen(),
        }

    def describe(self) -> str:
        """The options in words, as a report's first line gives them."""
        encounters = "on" if self.encounters else "off"
        paths = {"chosen": "", "dealt": ", start paths dealt", "free": ", start paths free"}.get(
            self.start_paths, f", every racer on start path {self.start_paths}"
        )
        readings = "".join(
            f", {name.replace('_', ' ')} {value}" for name, value in self.readings_chosen().items()
        )
        return f"policy {self.policy}, {self.deck} deck, encounters {encounters}{paths}{readings}"

    def readings_chosen(self) -> dict[str, str]:
        """The readings of open rules that are not the default, by option name."""
        return {
            name: getattr(self, name)
            for name, values in RULE_READINGS.items()
            if getattr(self, name) != values[0]
        }

    def rule_codes(self) -> np.ndarray:
        """The engine's ``Tables.rules``: each reading's code (its index in
        :data:`RULE_READINGS`, in state.py's RULE_* order)."""
        return np.array(
            [values.index(getattr(self, name)) for name, values in RULE_READINGS.items()],
            dtype=np.int64,
        )

    def route_codes(self, routes: int) -> np.ndarray:
        """The engine's start path of each player on a track with ``routes`` start paths:
        CHOSEN, DEALT, or the given path's index (refused when the track has no such path)."""
        if self.start_paths in START_PATHS:
            code = {"chosen": CHOSEN, "dealt": DEALT, "free": FREE}[self.start_paths]
        else:
            code = ord(self.start_paths) - ord("A")
            if code >= routes:
                last = chr(ord("A") + routes - 1)
                raise TrackkitError(
                    f"the start tile has paths A to {last}; there is no path {self.start_paths}"
                )
        return np.full(self.players, code, dtype=np.int64)

    def policy_codes(self) -> np.ndarray:
        chosen = self.policies or (self.policy,) * self.players
        return np.array([POLICIES[p] for p in chosen], dtype=np.int64)

    def character_indices(self) -> np.ndarray:
        names = self.content.character_names
        return _indices("characters", self.characters, names, self.players)

    def advantage_indices(self) -> np.ndarray:
        names = self.content.advantage_names
        return _indices("advantages", self.advantages, names, self.players)


def _index(kind: str, item: str | int, names: tuple[str, ...]) -> int:
    """Which of ``names`` ``item`` picks: a name, an unambiguous prefix of one (any case),
    or a 0-based index (an int, or ASCII digits: ``str.isdigit`` would take "²").

    >>> _index("characters", "fu", ("Flamm", "Troll", "Fulmergh"))
    2
    """
    singular = kind[:-1]
    # names may hold commas ("Flamm, swamp dragon"): list them with semicolons
    listing = "; ".join(f"{i} {name}" for i, name in enumerate(names))
    if isinstance(item, int | np.integer) and not isinstance(item, bool):
        if 0 <= item < len(names):
            return int(item)
        raise TrackkitError(
            f"there is no {singular} number {shown(item, 40)}; they run 0 to {len(names) - 1}: "
            f"{listing}"
        )
    if not isinstance(item, str):
        raise TrackkitError(f"a {singular} is a name or a number, not {shown(repr(item))}")
    text = item.strip()
    if not text:
        raise TrackkitError(
            f"an empty {singular} name; write a name, the start of one or a number: {listing}"
        )
    wanted = text.casefold()
    folded = [name.strip().casefold() for name in names]
    if wanted in folded:
        return folded.index(wanted)
    if _INDEX.fullmatch(text):
        # a number of thousands of digits is out of range without converting it
        if len(text) < 10 and int(text) < len(names):
            return int(text)
        raise TrackkitError(
            f"there is no {singular} number {shown(text, 40)}; they run 0 to {len(names) - 1}: "
            f"{listing}"
        )
    matches = [i for i, name in enumerate(folded) if name.startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise TrackkitError(
            f"{shown(text)!r} could be any of "
            + " or ".join(repr(names[i]) for i in matches)
            + "; write more of the name"
        )
    raise TrackkitError(f"unknown {singular} {shown(text)!r}; the {kind} are: {listing}")


def _indices(
    kind: str, chosen: tuple[str | int, ...], names: tuple[str, ...], n: int
) -> np.ndarray:
    """One index per player (see :func:`_index`), or -1 each to deal at random."""
    if not chosen:
        return np.full(n, -1, dtype=np.int64)
    return np.array([_index(kind, item, names) for item in chosen], dtype=np.int64)
