"""The values a tune moves, found in a content folder and written back with every comment
kept and each moved value marked."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trackkit.errors import TuneFileError
from trackkit.games import get_ruleset
from trackkit.limits import CostLimitError
from trackkit.tune.content_files import MARK, ContentFiles, resolve_moves
from trackkit.tune.spec import parse_tune

YUMMELL = get_ruleset("yummell")
HEAD = "[targets]\nwin_share = 0.03\n"
ABILITIES = """
[[move]]
file = "characters.toml"
entries = ["Character 5", "Character 8"]
field = "ability"
choices = [
    { ability = "terrain-cost", terrain = "woods", delta = -1 },
    { ability = "challenge-bonus", amount = 2 },
    { ability = "steady" },
]
"""
STATS = """
[[move]]
file = "characters.toml"
fields = ["strength", "agility", "sympathy", "magic"]
low = 1
high = 8
"""
DECK = """
[[move]]
file = "deck.toml"
entry = "Creature (Strength 5)"
field = "numbers"
number = 3
low = 0
high = 3
"""


def _files() -> ContentFiles:
    return ContentFiles.read(YUMMELL.content_folder("hand-made"))


def _parameters(text: str) -> tuple:
    return resolve_moves(parse_tune(HEAD + text, "t.toml"), _files())


def test_moves_expand_to_one_parameter_per_entry_and_field() -> None:
    parameters = _parameters(STATS + ABILITIES + DECK)
    assert len(parameters) == 8 * 4 + 2 + 1
    flamm = next(p for p in parameters if p.entry.startswith("Flamm") and p.field == "strength")
    assert flamm.start == 5 and flamm.name == "characters / Flamm, swamp dragon / strength"
    c5, c8 = (p for p in parameters if p.field == "ability")
    assert (c5.start, c8.start) == (0, 2)  # woods −1; steady
    (deck,) = (p for p in parameters if p.number == 3)
    assert deck.start == 1  # the creature's numbers are [2, 3, 4]


def test_entries_are_found_whatever_their_case() -> None:
    (parameter,) = _parameters(
        STATS.replace("fields = [", 'entry = "the troll"\nfields = [').replace(
            '"strength", "agility", "sympathy", "magic"', '"magic"'
        )
    )
    assert parameter.entry == "The Troll" and parameter.start == 3


@pytest.mark.parametrize(
    ("move", "says"),
    [
        ('file = "dice.toml"\nfield = "x"\nlow = 1\nhigh = 2', "no file 'dice.toml'"),
        (
            'file = "characters.toml"\nentry = "Gandalf"\nfield = "magic"\nlow = 1\nhigh = 8',
            "no entry with name 'Gandalf'",
        ),
        (
            'file = "characters.toml"\nentry = "The Troll"\nfield = "speed"\nlow = 1\nhigh = 8',
            "has no field 'speed'",
        ),
        (
            'file = "characters.toml"\nentry = "The Troll"\nfield = "strength"\nlow = 1\nhigh = 4',
            "outside low 1 … high 4",
        ),
        (
            'file = "characters.toml"\nentry = "The Troll"\nfield = "ability"\nlow = 1\nhigh = 4',
            "not a whole number",
        ),
        (
            'file = "characters.toml"\nentry = "The Troll"\nfield = "ability"\nchoices = ["steady", "fluttering"]',
            "none of the choices",
        ),
        (
            'file = "characters.toml"\nlist = "heroes"\nfield = "magic"\nlow = 1\nhigh = 8',
            "has no list 'heroes'",
        ),
        (
            'file = "deck.toml"\nentry = "Wind"\nfield = "name"\nnumber = 2\nlow = 0\nhigh = 2',
            "not a list of numbers",
        ),
    ],
)
def test_a_move_the_folder_cannot_take_is_refused_in_one_line(move: str, says: str) -> None:
    with pytest.raises(TuneFileError) as raised:
        _parameters("[[move]]\n" + move + "\n")
    assert says in str(raised.value) and raised.value.field == "move[0]"
    assert "\n" not in str(raised.value)


def test_a_value_moved_twice_is_refused() -> None:
    with pytest.raises(TuneFileError, match="moved twice"):
        _parameters(STATS + STATS)


def test_moved_values_are_written_marked_and_the_rest_kept(tmp_path: Path) -> None:
    parameters = _parameters(STATS + ABILITIES + DECK)
    values = {p.name: p.start for p in parameters}
    values["characters / Character 5 / strength"] = 2
    values["characters / Character 5 / ability"] = 1  # challenge-bonus 2
    values["deck / Creature (Strength 5) / numbers (cards numbered 3)"] = 3
    written = (
        _files().with_values(parameters, values, mark="trackkit tune t.toml").write(tmp_path / "c")
    )
    text = (written / "characters.toml").read_text()
    assert "RECONSTRUCTION" in text  # the file's comments are kept
    assert "strength = 2 # tuned (trackkit tune t.toml); was 4" in text
    assert text.count(f"# {MARK} (") == 2  # the strength and the ability, nothing else
    c5 = next(c for c in tomllib.loads(text)["characters"] if c["name"] == "Character 5")
    assert c5["ability"] == "challenge-bonus" and c5["amount"] == 2
    assert "terrain" not in c5 and "delta" not in c5  # the other choices' fields are gone
    assert "were set by trackkit tune t.toml" in tomllib.loads(text)["provenance"]
    deck = tomllib.loads((written / "deck.toml").read_text())
    creature = next(c for c in deck["cards"] if c["name"] == "Creature (Strength 5)")
    assert creature["numbers"] == [2, 3, 3, 3, 4]
    advantages = (written / "advantages.toml").read_text()
    assert advantages == (YUMMELL.content_folder("hand-made") / "advantages.toml").read_text()
    content = YUMMELL.load_content(written)  # the game's own loader takes it
    assert len(content.deck) == len(YUMMELL.load_content("hand-made").deck) + 2


def test_the_start_values_write_the_folder_unchanged(tmp_path: Path) -> None:
    parameters = _parameters(STATS + ABILITIES)
    files = _files()
    files.with_values(parameters, {p.name: p.start for p in parameters}, mark="m").write(tmp_path)
    for name in ("characters.toml", "deck.toml", "advantages.toml"):
        assert (tmp_path / name).read_text() == (files.folder / name).read_text()


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@pytest.mark.slow
@given(data=st.data())
def test_any_values_within_the_bounds_give_content_the_game_loads(
    tmp_path: Path, data: st.DataObject
) -> None:
    parameters = _parameters(STATS + ABILITIES + DECK)
    values = {
        p.name: data.draw(
            st.integers(0, len(p.choices) - 1)
            if p.choices
            else st.integers(p.low, p.high).filter(lambda v, p=p: (v - p.low) % p.step == 0),
            label=p.name,
        )
        for p in parameters
    }
    folder = tmp_path / "candidate"
    if folder.exists():
        shutil.rmtree(folder)
    _files().with_values(parameters, values, mark="m").write(folder)
    content = YUMMELL.load_content(folder)
    files = ContentFiles.read(folder)
    assert {p.name: files.value(p) for p in parameters} == values
    assert content.characters.shape == (8, 7)


RENAMING = """
[[move]]
file = "characters.toml"
entry = "Character 5"
field = "name"
choices = ["Character 5", "Character 9"]
"""
STRENGTH_OR_NOT = """
[[move]]
file = "characters.toml"
entry = "Character 5"
field = "build"
choices = [{ strength = 4 }, { agility = 6 }]
"""


@pytest.mark.parametrize(
    ("moves", "says"),
    [
        # a choice renaming the entry another move finds by its name (was KeyError)
        (RENAMING + STATS, "sets 'name', the field a move finds its entries by"),
        # a choice removing a field another move sets (was tomlkit's NonExistentKey)
        (STRENGTH_OR_NOT + STATS, "both set 'Character 5''s 'strength'"),
        (STATS + STRENGTH_OR_NOT, "both set 'Character 5''s 'strength'"),
    ],
)
def test_moves_that_would_undo_each_other_are_refused_before_any_race(
    moves: str, says: str
) -> None:
    with pytest.raises(TuneFileError) as raised:
        _parameters(moves)
    assert says in str(raised.value) and "\n" not in str(raised.value)


def test_counts_of_different_numbers_of_one_card_may_move_together() -> None:
    other = DECK.replace("number = 3", "number = 4").replace("high = 3", "high = 2")
    assert len(_parameters(DECK + other)) == 2


@pytest.mark.parametrize("high", [1_950, 9_999])
def test_a_deck_a_candidate_could_swell_is_refused_with_its_limit(high: int) -> None:
    # a deck count's high is the cards a candidate may hold: 20,000 took 24 s a candidate
    with pytest.raises(CostLimitError) as raised:
        _parameters(DECK.replace("high = 3", f"high = {high}"))
    said = str(raised.value)
    assert "deck.toml's cards with every `number` move at its `high` would need" in said
    assert "the limit is 2,000" in said and "tune_deck_cards" in said and "\n" not in said
    assert len(_parameters(DECK.replace("high = 3", "high = 1_000"))) == 1
