"""The deck and components data files (SNOWTAILS.md §1.2, §5.6) and their loaders."""

from __future__ import annotations

from pathlib import Path

import pytest

from trackkit.errors import ContentFileError
from trackkit.games.snowtails.core.content import load_components, load_deck

DATA = Path(__file__).resolve().parents[3] / "trackkit" / "games" / "snowtails" / "data"


def test_the_bundled_deck_is_the_proposed_reconstruction() -> None:
    deck = load_deck()
    assert dict(deck.counts) == {0: 2, 1: 4, 2: 4, 3: 4, 4: 4, 5: 2}
    assert deck.size == 20 and deck.hand_size == 5
    assert deck.starting_pair == (2, 2) and deck.held_back_value == 5
    assert deck.draw_pile_size == 16  # 20 - two starting 2s - two 5s (§1.2)
    assert deck.reconstructed and "reconstructed" in deck.note


def test_the_bundled_components_mark_their_reconstructions() -> None:
    components = load_components()
    assert (components.trees, components.markers, components.building_spaces) == (20, 30, 4)
    assert (components.lanes, components.tavern_rows, components.runoff_rows) == (5, 2, 3)
    assert components.reconstructed
    assert set(components.reconstructed_fields) == {"lanes", "tavern_rows", "runoff_rows"}


def _deck_with(tmp_path: Path, old: str, new: str) -> Path:
    text = (DATA / "deck.toml").read_text("utf-8")
    assert old in text
    path = tmp_path / "deck.toml"
    path.write_text(text.replace(old, new, 1), "utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "field", "fix"),
    [
        ("count = 2\n", "count = 3\n", "values", "add up to 21"),
        ("value = 1\n", "value = 0\n", "values[1].value", "listed twice"),
        (
            "starting_pair = [2, 2]",
            "starting_pair = [2, 3]",
            "starting_pair",
            "two cards of one value",
        ),
        (
            "held_back_value = 5",
            "held_back_value = 6",
            "held_back_value",
            "less than or equal to 5",
        ),
        ("hand_size = 5", "hand_sise = 5", "hand_sise", "unknown field"),
        ("count = 4\n", 'count = "4"\n', "values[1].count", "whole number"),
    ],
)
def test_a_broken_deck_names_its_field(
    tmp_path: Path, old: str, new: str, field: str, fix: str
) -> None:
    path = _deck_with(tmp_path, old, new)
    with pytest.raises(ContentFileError) as caught:
        load_deck(path)
    assert str(caught.value).startswith(f"{path}: {field}: ")
    assert fix in str(caught.value)


def test_a_missing_data_file_is_a_located_error(tmp_path: Path) -> None:
    with pytest.raises(ContentFileError, match="no such file"):
        load_deck(tmp_path / "deck.toml")
    with pytest.raises(ContentFileError, match="no such file"):
        load_components(tmp_path / "components.toml")
