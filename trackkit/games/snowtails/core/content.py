"""The Snow Tails data files: the dog deck (``deck.toml``) and the components
(``components.toml``), read with located errors.

Both files are data a board-gamer can correct: the deck's counts per value are a
reconstruction (SNOWTAILS.md §1.2), and so are the lanes, the Tavern's length and the
run-off rows in the components (§5.6). The race engine uses the deck, which is checked
against what the engine needs (a hand that always keeps a dog card to play); the track
loader takes its defaults from the bundled components, and the validator (before every
race too) counts a track's trees, markers and buildings against a content folder's.

>>> deck = load_deck()
>>> deck.size, deck.draw_pile_size, deck.reconstructed
(20, 16, True)
>>> load_components().trees, load_components().lanes
(20, 5)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from trackkit.board.datafile import read_toml, validated
from trackkit.errors import ContentFileError
from trackkit.games.snowtails import MAX_COLLISIONS

# Dog cards are valued 0 to 5 (rulebook, Components).
CARD_VALUES = range(6)

_HINTS = {
    "extra_forbidden": "unknown field (check its spelling against the comments of the bundled "
    "file)",
    "int_type": "must be a whole number",
    "bool_type": "must be true or false",
    "string_type": "must be text in quotes",
}


class _ValueSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    value: StrictInt = Field(ge=min(CARD_VALUES), le=max(CARD_VALUES))
    count: StrictInt = Field(ge=0, le=100)
    reconstructed: StrictBool = False
    source: StrictStr = Field(default="", max_length=500)


class _DeckSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reconstructed: StrictBool = False
    note: StrictStr = Field(default="", max_length=2000)
    cards_per_colour: StrictInt = Field(ge=1, le=200)
    hand_size: StrictInt = Field(ge=1, le=20)
    starting_pair: tuple[StrictInt, StrictInt]
    held_back_value: StrictInt = Field(ge=min(CARD_VALUES), le=max(CARD_VALUES))
    values: list[_ValueSpec] = Field(min_length=1, max_length=len(CARD_VALUES))


class _ComponentsSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reconstructed: StrictBool = False
    note: StrictStr = Field(default="", max_length=2000)
    trees: StrictInt = Field(ge=0, le=1000)
    markers: StrictInt = Field(ge=0, le=1000)
    building_spaces: StrictInt = Field(ge=1, le=100)
    lanes: StrictInt = Field(ge=2, le=9)
    tavern_rows: StrictInt = Field(ge=1, le=20)
    runoff_rows: StrictInt = Field(ge=1, le=20)
    reconstructed_fields: list[StrictStr] = Field(default_factory=list, max_length=20)


@dataclass(frozen=True)
class Deck:
    """One colour's dog deck: how many cards of each value, and how setup uses it.

    ``counts`` maps each value to its number of cards; ``starting_pair`` is the two dogs
    laid face up at setup, ``held_back_value`` the value whose cards go back in the box.
    """

    counts: tuple[tuple[int, int], ...]
    hand_size: int
    starting_pair: tuple[int, int]
    held_back_value: int
    reconstructed: bool
    note: str

    @property
    def size(self) -> int:
        return sum(count for _, count in self.counts)

    @property
    def draw_pile_size(self) -> int:
        """Cards shuffled into the draw deck at setup: all but the starting pair and the
        held-back cards (20 − 2 − 2 = 16 with the bundled deck)."""
        held_back = dict(self.counts).get(self.held_back_value, 0)
        return self.size - len(self.starting_pair) - held_back


def unplayable(deck: Deck) -> tuple[str, str] | None:
    """The field of ``deck.toml`` and the reason why the race engine cannot play ``deck``,
    or None when it can.

    A hand holds dog cards and collision cards together, and a sled holds up to 4
    collision cards before the 5th sends it to repairs (rulebook C): a hand of fewer than 5
    cards can fill with collision cards and leave the sled no dog card to play, which the
    rulebook never allows. And the draw pile must hold more cards than a hand, or a sled
    can run out of dog cards to draw.

    >>> unplayable(load_deck()) is None
    True
    """

    if deck.hand_size <= MAX_COLLISIONS:
        return (
            "hand_size",
            f"a hand of {deck.hand_size} card(s) can fill with collision cards (a sled holds "
            f"up to {MAX_COLLISIONS} before repairs, rulebook C) and leave no dog card to "
            f"play; give at least {MAX_COLLISIONS + 1} (the rulebook's hand is 5)",
        )
    if deck.draw_pile_size <= deck.hand_size:
        return (
            "values",
            f"the deck leaves {deck.draw_pile_size} cards to draw from, but a hand holds "
            f"{deck.hand_size}: a sled could be left with no dog card to play; give the deck "
            "more cards",
        )
    return None


@dataclass(frozen=True)
class Components:
    """The component counts a track is checked against, and the reconstructed defaults."""

    trees: int
    markers: int
    building_spaces: int
    lanes: int
    tavern_rows: int
    runoff_rows: int
    reconstructed: bool
    note: str
    reconstructed_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class SnowContent:
    """A Snow Tails content folder: the dog deck and the box's components."""

    deck: Deck
    components: Components


def _bundled(name: str) -> Path:
    return Path(str(resources.files("trackkit.games.snowtails.data").joinpath(name)))


def load_deck(path: str | Path | None = None) -> Deck:
    """The deck in ``path`` (default: the bundled ``deck.toml``).

    Raises :class:`ContentFileError` naming the file, the field and the fix.
    """
    if path is None:
        return _bundled_deck()
    return _read_deck(Path(path))


@lru_cache(maxsize=1)
def _bundled_deck() -> Deck:
    return _read_deck(_bundled("deck.toml"))


def _read_deck(path: Path) -> Deck:
    source = str(path)
    spec = validated(_DeckSpec, read_toml(path, ContentFileError), source, ContentFileError, _HINTS)
    counts: dict[int, int] = {}
    for index, entry in enumerate(spec.values):
        if entry.value in counts:
            raise ContentFileError(
                source,
                f"values[{index}].value",
                f"value {entry.value} is listed twice; list each value once with its count",
            )
        counts[entry.value] = entry.count
    total = sum(counts.values())
    if total != spec.cards_per_colour:
        raise ContentFileError(
            source,
            "values",
            f"the counts add up to {total} cards, but cards_per_colour is "
            f"{spec.cards_per_colour}; make them agree",
        )
    low, high = spec.starting_pair
    if low != high or counts.get(low, 0) < 2:
        raise ContentFileError(
            source,
            "starting_pair",
            "the starting dogs are two cards of one value the deck "
            "holds at least twice, e.g. starting_pair = [2, 2]",
        )
    if counts.get(spec.held_back_value, 0) < 1:
        raise ContentFileError(
            source,
            "held_back_value",
            f"the deck holds no card of value {spec.held_back_value}; "
            "name the value whose cards go back in the box at setup (5 in the rulebook)",
        )
    deck = Deck(
        counts=tuple(sorted(counts.items())),
        hand_size=spec.hand_size,
        starting_pair=(low, high),
        held_back_value=spec.held_back_value,
        reconstructed=spec.reconstructed or any(v.reconstructed for v in spec.values),
        note=spec.note,
    )
    problem = unplayable(deck)
    if problem is not None:
        raise ContentFileError(source, *problem)
    return deck


def load_components(path: str | Path | None = None) -> Components:
    """The components in ``path`` (default: the bundled ``components.toml``)."""
    if path is None:
        return _bundled_components()
    return _read_components(Path(path))


@lru_cache(maxsize=1)
def _bundled_components() -> Components:
    return _read_components(_bundled("components.toml"))


def _read_components(path: Path) -> Components:
    source = str(path)
    data = read_toml(path, ContentFileError)
    spec = validated(_ComponentsSpec, data, source, ContentFileError, _HINTS)
    return Components(
        trees=spec.trees,
        markers=spec.markers,
        building_spaces=spec.building_spaces,
        lanes=spec.lanes,
        tavern_rows=spec.tavern_rows,
        runoff_rows=spec.runoff_rows,
        reconstructed=spec.reconstructed,
        note=spec.note,
        reconstructed_fields=tuple(spec.reconstructed_fields),
    )
