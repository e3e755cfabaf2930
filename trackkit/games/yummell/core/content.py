"""Game content: the deck, the characters and the advantages, as data files.

The bundled files (``trackkit/content/``) are reconstructions and say so; a user who owns
the box points trackkit at a folder of their own holding ``deck.toml``,
``characters.toml`` and ``advantages.toml`` in the same format (README, "Game content").

Loading checks every field and turns the content into flat integer arrays (one row per
card, character or advantage) that the compiled race engine reads.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from trackkit.board.datafile import check_folder, read_toml, validated
from trackkit.errors import ContentFileError
from trackkit.games.yummell.core.terrain import Terrain

CHARACTERISTICS: tuple[str, ...] = ("strength", "agility", "sympathy", "magic")
TERRAINS: tuple[str, ...] = tuple(t.value for t in Terrain)  # index = terrain code
TERRAIN_COUNT = len(TERRAINS)
MAX_CARD_NUMBER = 8


class CardType(IntEnum):
    CREATURE = 0
    EVENT = 1
    ARTEFACT = 2


class Effect(IntEnum):
    """The vocabulary of effects the engine implements (cards, abilities, advantages)."""

    NONE = 0
    TERRAIN_COST = 1  # own squares of a terrain cost `param` more (this turn / always)
    EXTRA_MP = 2  # own movement: `param` more MP this turn
    BACK_IF_TERRAIN = 3  # target, if on `terrain`, goes back to the first free square
    BACK = 4  # target goes back to the first free square behind
    CURSE = 5  # target's `terrain` squares cost `param` more until it rests
    DISCARD = 6  # target discards `param` cards
    MP_BONUS = 7  # artefact: `param` more MP for one movement
    CHALLENGE_BONUS = 8  # artefact / ability / advantage: `param` more in challenges
    WARD = 9  # artefact: cancels one event or artefact played against its holder
    FLUTTERING = 10  # ability: others add no MP cost to squares it moves through
    TOLL = 11  # ability: overtaking it costs 1 extra MP
    CLEPTOMANIA = 12  # ability: after moving, take an active artefact on its square
    STEADY = 13  # ability / advantage: immune to push-back events
    STEAL_ARTEFACT = 14  # advantage: stopping on an occupied square, take an artefact
    DRAW_TWO_KEEP_ONE = 15  # advantage: draw 2 at the start of the turn, keep 1


# The effects as plain ints, read as constants by the compiled engine.
E_TERRAIN_COST = int(Effect.TERRAIN_COST)
E_EXTRA_MP = int(Effect.EXTRA_MP)
E_BACK_IF_TERRAIN = int(Effect.BACK_IF_TERRAIN)
E_BACK = int(Effect.BACK)
E_CURSE = int(Effect.CURSE)
E_DISCARD = int(Effect.DISCARD)
E_MP_BONUS = int(Effect.MP_BONUS)
E_CHALLENGE_BONUS = int(Effect.CHALLENGE_BONUS)
E_WARD = int(Effect.WARD)
E_FLUTTERING = int(Effect.FLUTTERING)
E_TOLL = int(Effect.TOLL)
E_CLEPTOMANIA = int(Effect.CLEPTOMANIA)
E_STEADY = int(Effect.STEADY)
E_STEAL_ARTEFACT = int(Effect.STEAL_ARTEFACT)
E_DRAW_TWO_KEEP_ONE = int(Effect.DRAW_TWO_KEEP_ONE)
CREATURE, EVENT, ARTEFACT = int(CardType.CREATURE), int(CardType.EVENT), int(CardType.ARTEFACT)

_EFFECT_NAMES = {e.name.lower().replace("_", "-"): e for e in Effect if e is not Effect.NONE}
CARD_EFFECTS = {"terrain-cost", "extra-mp", "back-if-terrain", "back", "curse", "discard"}
# Effects that act on a target: an event played against it, or an artefact used on a rival.
TARGETED_EFFECTS = {"back-if-terrain", "back", "curse", "discard"}
# Artefacts help their holder or "put their opponents at a disadvantage" (p. 3): the
# targeted effects, used on a chosen rival (Scales of Ftoll: "Choose a player to discard
# 1 card. Discard after use.").
ARTEFACT_EFFECTS = {"mp-bonus", "challenge-bonus", "ward"} | TARGETED_EFFECTS
ABILITY_EFFECTS = {
    "fluttering",
    "toll",
    "cleptomania",
    "terrain-cost",
    "challenge-bonus",
    "steady",
}
ADVANTAGE_EFFECTS = {
    "terrain-cost",
    "challenge-bonus",
    "steal-artefact",
    "draw-two-keep-one",
    "steady",
}

_STRICT = ConfigDict(extra="forbid")
TerrainName = Literal["plain", "woods", "hills", "swamp"]


class _EffectFields(BaseModel):
    """Parameters an effect may take; which ones it needs is checked per effect."""

    model_config = _STRICT
    terrain: TerrainName | None = None
    delta: int | None = Field(default=None, ge=-5, le=5)
    amount: int | None = Field(default=None, ge=1, le=10)
    count: int | None = Field(default=None, ge=1, le=4)
    source: str = "reconstruction"

    def _check(self, effect: str, allowed: set[str]) -> None:
        if effect not in allowed:
            raise ValueError(f"unknown effect {effect!r}; use one of {', '.join(sorted(allowed))}")
        needs = {
            "terrain-cost": ("terrain", "delta"),
            "curse": ("terrain", "delta"),
            "back-if-terrain": ("terrain",),
            "extra-mp": ("amount",),
            "mp-bonus": ("amount",),
            "challenge-bonus": ("amount",),
        }.get(effect, ())
        for name in needs:
            if getattr(self, name) is None:
                raise ValueError(f"effect {effect!r} needs `{name}`")


class _CardSpec(_EffectFields):
    name: str = Field(min_length=1)
    type: Literal["creature", "event", "artefact"]
    numbers: list[int] = Field(min_length=1)
    characteristic: Literal["strength", "agility", "sympathy", "magic"] | None = None
    challenge: int | None = Field(default=None, ge=0, le=30)
    effect: str | None = None
    arrow: bool = False

    @model_validator(mode="after")
    def _fits_its_type(self) -> _CardSpec:
        for number in self.numbers:
            if not 1 <= number <= MAX_CARD_NUMBER:
                raise ValueError(f"card numbers run 1 to {MAX_CARD_NUMBER}, not {number}")
        if self.type == "creature":
            if self.characteristic is None or self.challenge is None:
                raise ValueError("a creature needs `characteristic` and `challenge`")
            if self.effect is not None:
                raise ValueError("a creature has no `effect`")
        else:
            if self.effect is None:
                raise ValueError(f"an {self.type} needs an `effect`")
            self._check(self.effect, CARD_EFFECTS if self.type == "event" else ARTEFACT_EFFECTS)
        if self.arrow and self.type != "event":
            raise ValueError(
                "only events carry the arrow (an artefact drawn joins the drawer's active "
                "artefacts); remove `arrow`"
            )
        return self


class _DeckSpec(BaseModel):
    model_config = _STRICT
    reconstructed: bool
    provenance: str = Field(min_length=1)
    cards: list[_CardSpec] = Field(min_length=1)


class _CharacterSpec(_EffectFields):
    name: str = Field(min_length=1)
    strength: int = Field(ge=0, le=20)
    agility: int = Field(ge=0, le=20)
    sympathy: int = Field(ge=0, le=20)
    magic: int = Field(ge=0, le=20)
    ability: str

    @model_validator(mode="after")
    def _known_ability(self) -> _CharacterSpec:
        self._check(self.ability, ABILITY_EFFECTS)
        return self


class _CharactersSpec(BaseModel):
    model_config = _STRICT
    reconstructed: bool
    provenance: str = Field(min_length=1)
    characters: list[_CharacterSpec] = Field(min_length=1, max_length=8)


class _AdvantageSpec(_EffectFields):
    name: str = Field(min_length=1)
    effect: str

    @model_validator(mode="after")
    def _known_effect(self) -> _AdvantageSpec:
        self._check(self.effect, ADVANTAGE_EFFECTS)
        return self


class _AdvantagesSpec(BaseModel):
    model_config = _STRICT
    reconstructed: bool
    provenance: str = Field(min_length=1)
    advantages: list[_AdvantageSpec] = Field(min_length=1, max_length=8)


@dataclass(frozen=True)
class Card:
    name: str
    type: str
    number: int
    characteristic: str | None
    challenge: int | None
    effect: str | None
    arrow: bool


@dataclass(frozen=True)
class Content:
    """Deck, characters and advantages, with the flat arrays the engine reads.

    Arrays (all int64): ``cards`` has one row per card: number, type, characteristic index
    (or -1), challenge value, effect, terrain index (or -1), parameter, arrow flag.
    ``characters`` one row per character: the four characteristics, then ability effect,
    terrain, parameter. ``advantages`` one row per advantage: effect, terrain, parameter.
    """

    folder: str
    deck: tuple[Card, ...]
    character_names: tuple[str, ...]
    advantage_names: tuple[str, ...]
    cards: np.ndarray
    characters: np.ndarray
    advantages: np.ndarray
    reconstructed: bool

    def deck_numbers(self) -> np.ndarray:
        """How many cards carry each number 0..8 (index 0 unused)."""
        return np.bincount(self.cards[:, CARD_NUMBER], minlength=MAX_CARD_NUMBER + 1)


# Column indices of the arrays.
CARD_NUMBER, CARD_TYPE, CARD_CHAR, CARD_CHALLENGE, CARD_EFFECT, CARD_TERRAIN, CARD_PARAM = range(7)
CARD_ARROW = 7
CHAR_ABILITY, CHAR_TERRAIN, CHAR_PARAM = 4, 5, 6
ADV_EFFECT, ADV_TERRAIN, ADV_PARAM = 0, 1, 2
CARD_FIELDS, CHAR_FIELDS, ADV_FIELDS = 8, 7, 3  # columns of cards, characters, advantages


def _parameter(spec: _EffectFields) -> int:
    for value in (spec.delta, spec.amount, spec.count):
        if value is not None:
            return value
    return 1


def _terrain_index(name: str | None) -> int:
    return TERRAINS.index(name) if name is not None else -1


_CONTENT_HINTS = {
    "extra_forbidden": "unknown field (check its spelling: 'Game content' in docs/formats.md)"
}
CONTENT_FILES = ("deck.toml", "characters.toml", "advantages.toml")
# Fewer cards than this cannot deal two players a hand each and keep a pile to draw from.
MIN_DECK = 20


def _load(path: Path, model: type[BaseModel]) -> Any:
    missing = "missing; a content folder holds deck.toml, characters.toml and advantages.toml"
    data = read_toml(path, ContentFileError, missing=missing)
    return validated(model, data, str(path), ContentFileError, _CONTENT_HINTS)


def _unique_names(path: Path, kind: str, names: list[str]) -> None:
    """Names pick characters and advantages on the command line: two alike cannot be told
    apart."""
    seen: dict[str, int] = {}
    for index, name in enumerate(names):
        key = name.strip().casefold()
        if key in seen:
            raise ContentFileError(
                str(path),
                f"{kind}[{index}].name",
                f"{name!r} is also the name of {kind}[{seen[key]}]; give each a different name",
            )
        seen[key] = index


# The bundled contents by name, the default first: the characters calibrated by
# `trackkit tune` (trackkit/games/yummell/tunes/calibration.toml), and the hand-made
# reconstruction they were calibrated from. Both are reconstructions.
CONTENTS: dict[str, str] = {"calibrated": ".", "hand-made": "hand_made"}


def content_folder(name: str | None = None) -> Path:
    """The folder of the bundled content ``name`` (default: the first of :data:`CONTENTS`)."""
    name = next(iter(CONTENTS)) if name is None else name
    if name not in CONTENTS:
        raise ContentFileError(
            name, None, f"is no bundled content; the bundled are {', '.join(CONTENTS)}"
        )
    root = Path(str(resources.files("trackkit.games.yummell.data")))
    return (root / CONTENTS[name]).resolve()


def load_content(folder: str | Path | None = None) -> Content:
    """Load the deck, characters and advantages from ``folder``: a folder, a bundled
    content's name (:data:`CONTENTS`), or None for the default bundled content."""
    if folder is None:
        return _bundled_content(next(iter(CONTENTS)))
    if isinstance(folder, str) and folder in CONTENTS:
        if os.path.lexists(folder):
            raise ContentFileError(
                folder,
                None,
                "is both a bundled content's name and a folder here; write "
                f"./{folder} for the folder",
            )
        return _bundled_content(folder)
    return _load_folder(Path(folder))


@lru_cache(maxsize=len(CONTENTS))
def _bundled_content(name: str) -> Content:
    return _load_folder(content_folder(name))


def _load_folder(folder: Path) -> Content:
    folder = check_folder(
        folder, ContentFileError, "game content (" + ", ".join(CONTENT_FILES) + ")"
    )
    deck = _load(folder / "deck.toml", _DeckSpec)
    characters = _load(folder / "characters.toml", _CharactersSpec)
    advantages = _load(folder / "advantages.toml", _AdvantagesSpec)
    _unique_names(folder / "characters.toml", "characters", [c.name for c in characters.characters])
    _unique_names(folder / "advantages.toml", "advantages", [a.name for a in advantages.advantages])

    cards: list[Card] = []
    rows = []
    for spec in deck.cards:
        for number in spec.numbers:
            cards.append(
                Card(
                    spec.name,
                    spec.type,
                    number,
                    spec.characteristic,
                    spec.challenge,
                    spec.effect,
                    spec.arrow,
                )
            )
            rows.append(
                [
                    number,
                    CardType[spec.type.upper()],
                    CHARACTERISTICS.index(spec.characteristic) if spec.characteristic else -1,
                    spec.challenge if spec.challenge is not None else 0,
                    _EFFECT_NAMES[spec.effect] if spec.effect else Effect.NONE,
                    _terrain_index(spec.terrain),
                    _parameter(spec),
                    int(spec.arrow),
                ]
            )
    if len(rows) < MIN_DECK:
        raise ContentFileError(
            str(folder / "deck.toml"),
            "cards",
            f"{len(rows)} cards are too few for a race; a deck holds at least {MIN_DECK} "
            "(count each number a card lists as one card)",
        )
    character_rows = [
        [
            c.strength,
            c.agility,
            c.sympathy,
            c.magic,
            _EFFECT_NAMES[c.ability],
            _terrain_index(c.terrain),
            _parameter(c),
        ]
        for c in characters.characters
    ]
    advantage_rows = [
        [_EFFECT_NAMES[a.effect], _terrain_index(a.terrain), _parameter(a)]
        for a in advantages.advantages
    ]
    return Content(
        folder=str(folder),
        deck=tuple(cards),
        character_names=tuple(c.name for c in characters.characters),
        advantage_names=tuple(a.name for a in advantages.advantages),
        cards=np.array(rows, dtype=np.int64),
        characters=np.array(character_rows, dtype=np.int64),
        advantages=np.array(advantage_rows, dtype=np.int64),
        reconstructed=deck.reconstructed or characters.reconstructed or advantages.reconstructed,
    )
