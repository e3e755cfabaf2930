"""What kind of Snow Tails race to play: :class:`RaceOptions`, checked when made (sleds,
policies, content, and the readings of the rules)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trackkit.errors import TrackkitError
from trackkit.games.snowtails.core.content import (
    Components,
    Deck,
    SnowContent,
    load_components,
    load_deck,
)
from trackkit.games.snowtails.core.course import TIE_BREAKS, TIGHT_CORNERS, CourseReadings
from trackkit.games.snowtails.core.policies import PLANNER_BUDGET, POLICIES
from trackkit.games.snowtails.core.rules import valid_starting_pair
from trackkit.games.snowtails.core.state import (
    MAX_PLAYERS,
    STAT_BUILDINGS,
    STAT_CARDS,
    STAT_FIRST_CROSSING,
    STAT_REPAIRS,
    STAT_SIDE,
    STAT_SLEDS,
    STAT_TREES,
)
from trackkit.games.snowtails.core.track import SnowTrack
from trackkit.limits import check_budget

MIN_PLAYERS = 2
STAT_NAMES = {
    "cards": STAT_CARDS,
    "side": STAT_SIDE,
    "trees": STAT_TREES,
    "sleds": STAT_SLEDS,
    "repairs": STAT_REPAIRS,
    "buildings": STAT_BUILDINGS,
    "first_crossing": STAT_FIRST_CROSSING,
}


REPAIR_DRAWS = ("keep", "fresh")
_TIE_BREAK_WORDS = {"inside": "inside lane", "leftmost": "leftmost lane"}


@dataclass(frozen=True)
class RaceOptions:
    """How a race is played.

    ``policy`` is one name for every sled or one per sled (:data:`.policies.POLICIES`);
    ``starting_value`` the value of the two starting dogs (None: the deck file's pair,
    2/2; the expert rule lets each player choose any value 1-4, rulebook A.5), one value
    for every sled or one per start slot, the sled that starts first first (a designer's
    what-if, not the rulebook's rule: each player chooses before the start order is drawn
    at random, A.6; a value per slot is what a race can be given, and what the figures per
    start slot measure); ``bonus_first_round`` allows the bonus die in round 1
    (not forbidden by the rulebook, SNOWTAILS.md §3.7); ``deck`` is a deck read from a
    user's own file (None: the bundled ``deck.toml``), and ``components`` a content
    folder's ``components.toml`` (None: the bundled one), which the check before a race
    counts the track's trees, markers and buildings against.

    The readings of the rulebook (:mod:`.face.readings`): ``tight_corners`` which lanes of a
    tight corner run into the side (``every-lane`` or ``outer-lane``); ``tie_break`` who
    leads when two sleds are level (``inside`` or ``leftmost``; None: the track file's
    own ``tiebreak``); ``repair_draw`` what a repair does with the dog cards in hand
    (``keep`` them and draw up to 5, or discard them and draw 5 ``fresh``).

    ``budget`` is a planning sled's playouts of each option (policy ``planner``,
    :mod:`.planning`): at least 1, at most :data:`trackkit.limits.PLAN_BUDGET`; it does
    nothing when no sled plans.
    """

    players: int = 5
    policy: str | tuple[str, ...] = "greedy"
    starting_value: int | tuple[int, ...] | None = None
    bonus_first_round: bool = True
    tight_corners: str = "every-lane"
    tie_break: str | None = None
    repair_draw: str = "keep"
    budget: int = PLANNER_BUDGET
    deck: Deck | None = field(default=None, compare=False)
    components: Components | None = field(default=None, compare=False)

    def policies(self) -> tuple[str, ...]:
        if isinstance(self.policy, str):
            return (self.policy,) * self.players
        return tuple(self.policy)

    def starting_values(self, deck: Deck | None = None) -> tuple[int, ...]:
        """Both starting dogs' value for each start slot, the first to start first."""
        value = self.starting_value
        if value is None:
            value = (deck if deck is not None else self.the_deck()).starting_pair[0]
        if isinstance(value, int):
            return (value,) * self.players
        return tuple(value)

    def course_readings(self, track: SnowTrack) -> CourseReadings:
        """The readings ``track``'s course is composed under for these races."""
        return CourseReadings.of(track, self.tight_corners, self.tie_break)

    @property
    def ruleset(self) -> Any:
        from trackkit.games.base import get_ruleset  # the registry, which lists this game

        return get_ruleset("snowtails")

    def the_deck(self) -> Deck:
        return self.deck if self.deck is not None else load_deck()

    @property
    def content(self) -> SnowContent:
        """The content these races are played with: the deck and the components."""
        components = self.components if self.components is not None else load_components()
        return SnowContent(self.the_deck(), components)

    def summary(self) -> dict[str, Any]:
        """The options as a simulation's report gives them (``tie_break`` None: the track
        file's own)."""
        names = self.policies()
        values = self.starting_values()
        return {
            "game": "snowtails",
            "policy": names[0] if len(set(names)) == 1 else list(names),
            "starting_value": values[0] if len(set(values)) == 1 else list(values),
            "bonus_first_round": self.bonus_first_round,
            "tight_corners": self.tight_corners,
            "tie_break": self.tie_break,
            "repair_draw": self.repair_draw,
        }

    def describe(self) -> str:
        """The options in words, as a report's first line gives them."""
        summary = self.summary()
        policy = summary["policy"]
        policy = policy if isinstance(policy, str) else ",".join(policy)
        value = summary["starting_value"]
        dogs = (
            f"{value}+{value}"
            if isinstance(value, int)
            else "by start slot " + ", ".join(f"{v}+{v}" for v in value)
        )
        first = "allowed" if self.bonus_first_round else "not allowed"
        tie = (
            _TIE_BREAK_WORDS.get(self.tie_break, str(self.tie_break))
            if self.tie_break is not None
            else "the track's own"
        )
        return (
            f"policy {policy}, starting dogs {dogs}, bonus die in round 1 {first}, "
            f"tight corners {self.tight_corners}, tie-break {tie}, "
            f"repair draw {self.repair_draw}"
        )

    def check(self, deck: Deck) -> None:
        """Raise :class:`TrackkitError` with the fix when the options cannot be played."""
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise TrackkitError(
                f"Snow Tails races {MIN_PLAYERS} to {MAX_PLAYERS} sleds, not {self.players}"
            )
        names = self.policies()
        if len(names) != self.players:
            raise TrackkitError(
                f"give one policy for every sled or one per sled: {self.players} sleds, "
                f"{len(names)} policies"
            )
        unknown = [name for name in names if name not in POLICIES]
        if unknown:
            raise TrackkitError(
                f"unknown policy {unknown[0]!r}; the policies are {', '.join(POLICIES)}"
            )
        self._check_readings()
        check_budget(self.budget)
        if self.starting_value is None:
            return
        values = self.starting_values(deck)
        if len(values) != self.players:
            raise TrackkitError(
                f"give the starting dogs' value for every sled or one per sled: "
                f"{self.players} sleds, {len(values)} values"
            )
        for value in values:
            if not valid_starting_pair(value, value) or value == deck.held_back_value:
                raise TrackkitError(
                    f"the starting dogs are two cards of one value from 1 to 4 "
                    f"(rulebook A.5), not {value}"
                )
            if dict(deck.counts).get(value, 0) < 2:
                raise TrackkitError(f"the deck holds fewer than two cards of value {value}")

    def _check_readings(self) -> None:
        for name, value, allowed in (
            ("tight_corners", self.tight_corners, TIGHT_CORNERS),
            ("tie_break", self.tie_break, (None, *TIE_BREAKS)),
            ("repair_draw", self.repair_draw, REPAIR_DRAWS),
        ):
            if value not in allowed:
                words = ", ".join(str(a) for a in allowed if a is not None)
                raise TrackkitError(f"{name} is one of {words}, not {value!r}")
