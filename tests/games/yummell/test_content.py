"""Game content files: the bundled reconstruction, and clear errors for a user's own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from trackkit.errors import TrackkitError
from trackkit.games.yummell.core.content import CARD_PARAM, CARD_TYPE, CardType, load_content

BUNDLED = Path(__file__).resolve().parents[3] / "trackkit" / "games" / "yummell" / "data"


def test_the_bundled_deck_has_90_cards_numbered_1_to_8() -> None:
    content = load_content()
    assert content.cards.shape[0] == 90
    numbers = content.deck_numbers()
    assert numbers[0] == 0 and all(numbers[1:] > 0)
    types = set(content.cards[:, CARD_TYPE])
    assert types == {CardType.CREATURE, CardType.EVENT, CardType.ARTEFACT}


def test_the_rulebooks_cards_characters_and_advantages_are_there() -> None:
    content = load_content()
    names = {card.name for card in content.deck}
    for name in (
        "Salamander of Mount Ohrk",
        "Horrgrup the Evil",
        "Hill Guide",
        "Wind",
        "Thorny Roots",
        "Mushroom Curse",
        "Dragon Sneeze",
        "Scales of Ftoll",
    ):
        assert name in names
    salamander = next(c for c in content.deck if c.name == "Salamander of Mount Ohrk")
    assert (salamander.characteristic, salamander.challenge) == ("strength", 9)
    assert len(content.character_names) == 8 and len(content.advantage_names) == 8
    assert content.character_names[0].startswith("Flamm")
    assert {"Climbing", "Heroism"} <= set(content.advantage_names)


def test_scales_of_ftoll_is_an_artefact_that_makes_a_rival_discard() -> None:
    # ISSUE 7 item 2: the Italian rulebook prints it as its artefact example ("Choose a
    # player to discard 1 card. Discard after use.")
    content = load_content()
    rows = [i for i, c in enumerate(content.deck) if c.name == "Scales of Ftoll"]
    assert rows
    for row in rows:
        card = content.deck[row]
        assert (card.type, card.effect, card.arrow) == ("artefact", "discard", False)
        assert content.cards[row, CARD_TYPE] == CardType.ARTEFACT
        assert content.cards[row, CARD_PARAM] == 1  # one card


def test_every_content_file_says_it_is_a_reconstruction() -> None:
    assert load_content().reconstructed
    for name in ("deck.toml", "characters.toml", "advantages.toml"):
        text = (BUNDLED / name).read_text()
        assert "RECONSTRUCTION" in text and "reconstructed = true" in text


@pytest.fixture
def content_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "box"
    shutil.copytree(BUNDLED, folder, ignore=shutil.ignore_patterns("*.py", "__*"))
    return folder


@pytest.mark.parametrize(
    ("file", "old", "new", "words"),
    [
        ("deck.toml", "numbers = [3, 6]", "numbers = [3, 9]", "numbers run 1 to 8"),
        ("deck.toml", 'effect = "ward"', 'effect = "teleport"', "unknown effect"),
        (
            "deck.toml",
            'characteristic = "strength"\nchallenge = 9',
            'characteristic = "strength"',
            "challenge",
        ),
        ("characters.toml", 'ability = "fluttering"', 'ability = "flying"', "unknown effect"),
        ("characters.toml", "strength = 5", "strenght = 5", "unknown field"),
        ("advantages.toml", 'terrain = "hills"\ndelta = -1', "delta = -1", "terrain"),
        ("deck.toml", 'name = "Wind"', 'name = "Wind', "not valid TOML"),
        (
            "deck.toml",
            'name = "Scales of Ftoll"\ntype = "artefact"',
            'name = "Scales of Ftoll"\ntype = "artefact"\narrow = true',
            "only events carry the arrow",
        ),
    ],
)
def test_a_broken_content_file_is_named_with_its_field(
    content_folder: Path, file: str, old: str, new: str, words: str
) -> None:
    path = content_folder / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(TrackkitError) as caught:
        load_content(content_folder)
    assert str(caught.value).startswith(str(path))
    assert words in str(caught.value)


def test_a_missing_file_says_what_a_content_folder_holds(content_folder: Path) -> None:
    (content_folder / "advantages.toml").unlink()
    with pytest.raises(TrackkitError, match="deck.toml, characters.toml and advantages.toml"):
        load_content(content_folder)


def test_a_users_own_deck_changes_the_numbers(content_folder: Path) -> None:
    path = content_folder / "deck.toml"
    path.write_text(
        path.read_text().replace(
            "numbers = [1, 2, 3, 4, 5, 6, 7]", "numbers = [8, 8, 8, 8, 8, 8, 8]"
        )
    )
    assert load_content(content_folder).deck_numbers()[8] > load_content().deck_numbers()[8]
