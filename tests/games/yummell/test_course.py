"""Race options: characters and advantages by name, prefix or number; impossible options
refused, including a deck too small to sustain the race."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from trackkit.errors import TrackkitError
from trackkit.games.yummell.core.content import load_content
from trackkit.games.yummell.core.options import RaceOptions

BUNDLED = Path(__file__).resolve().parents[3] / "trackkit" / "games" / "yummell" / "data"


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (("Flamm, swamp dragon", "The Troll"), [0, 1]),
        (("flamm", "THE T"), [0, 1]),  # prefixes, any case
        (("fu", " 0 "), [2, 0]),  # an index in ASCII digits, spaces ignored
        ((7, 3), [7, 3]),
    ],
)
def test_characters_by_name_prefix_or_number(
    given: tuple[str | int, ...], expected: list[int]
) -> None:
    options = RaceOptions(players=2, characters=given)
    assert list(options.character_indices()) == expected


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ("f", "could be any of 'Flamm, swamp dragon' or 'Fulmergh, caretaker elf'"),
        ("", "empty character name"),
        ("   ", "empty character name"),
        ("²", "unknown character '²'"),  # str.isdigit() is True for "²"
        ("١", "unknown character"),  # an Arabic-Indic one: int() would take it
        ("8", "no character number 8"),
        ("9" * 5000, "no character number"),
        (-1, "no character number -1"),
    ],
)
def test_empty_ambiguous_and_unknown_names_list_the_candidates(
    given: str | int, words: str
) -> None:
    with pytest.raises(TrackkitError) as caught:
        RaceOptions(players=1, characters=(given,))
    message = str(caught.value)
    assert words in message
    assert "0 Flamm, swamp dragon; 1 The Troll" in message or "could be any" in message
    assert message.isprintable() and len(message) < 500


def test_advantages_resolve_the_same_way() -> None:
    assert list(RaceOptions(players=1, advantages=("clim",)).advantage_indices()) == [
        load_content().advantage_names.index("Climbing")
    ]
    with pytest.raises(TrackkitError, match="advantage"):
        RaceOptions(players=1, advantages=("",))


def test_a_character_chosen_twice_is_named() -> None:
    with pytest.raises(TrackkitError, match="The Troll, The Troll repeats"):
        RaceOptions(players=2, characters=("the troll", "1"))


@pytest.fixture
def small_deck(tmp_path: Path) -> Path:
    """A content folder whose 20 cards load, but cannot deal 8 players a hand of 4 each."""
    folder = tmp_path / "box"
    shutil.copytree(BUNDLED, folder, ignore=shutil.ignore_patterns("*.py", "__*"))
    numbers = ", ".join(str(1 + i % 8) for i in range(20))
    (folder / "deck.toml").write_text(
        'reconstructed = true\nprovenance = "a test deck"\n[[cards]]\nname = "Toad"\n'
        f'type = "creature"\ncharacteristic = "strength"\nchallenge = 3\nnumbers = [{numbers}]\n'
    )
    return folder


def test_a_deck_too_small_for_the_players_is_refused_with_why(small_deck: Path) -> None:
    content = load_content(small_deck)
    cards = content.cards.shape[0]
    assert 20 <= cards < 32  # fine one file at a time, short of 8 hands of 4
    with pytest.raises(TrackkitError) as caught:
        RaceOptions(players=8, content=content)
    assert f"has {cards} cards" in str(caught.value)
    assert "8 players needs at least 64" in str(caught.value)
    # fewer players, or a deck that never runs out, can race
    assert RaceOptions(players=2, content=content).players == 2
    assert RaceOptions(players=8, deck="infinite", content=content).players == 8


@pytest.mark.parametrize("players", [0, 9, True, "3", 3.0])
def test_a_player_count_that_is_no_count_is_refused(players: object) -> None:
    with pytest.raises(TrackkitError, match="players"):
        RaceOptions(players=players)  # type: ignore[arg-type]


def test_artefacts_do_not_count_towards_a_sustainable_deck(small_deck: Path) -> None:
    """64 artefacts would deal 8 hands, but drawn as encounters they stay in front of their
    holders: such a deck drains and races stall at the round limit (measured: 12 of 200
    races with 8 players), so it is refused for the finite deck."""
    numbers = ", ".join(str(1 + i % 8) for i in range(64))
    (small_deck / "deck.toml").write_text(
        'reconstructed = true\nprovenance = "a test deck"\n[[cards]]\nname = "Ward"\n'
        f'type = "artefact"\neffect = "ward"\nnumbers = [{numbers}]\n'
    )
    content = load_content(small_deck)
    with pytest.raises(TrackkitError, match="0 cards that are not artefacts"):
        RaceOptions(players=2, content=content)
    assert RaceOptions(players=8, deck="infinite", content=content).deck == "infinite"
    # the bundled deck (70 cards besides its artefacts) sustains 8 players
    assert RaceOptions(players=8).players == 8
