"""The shared declaration of a reading (trackkit.games.readings) and what every game's
readings must say."""

from __future__ import annotations

import pytest

from trackkit.errors import TrackkitError
from trackkit.games import rulesets
from trackkit.games.face import Argument, get_face
from trackkit.games.readings import (
    Reading,
    reading_named,
    readings_of,
    text_readings,
    varied,
    what_ifs,
)


def _reading(**changes: object) -> Reading:
    fields = dict(
        option=Argument("tie", "", "choice", choices=("inside", "leftmost")),
        values=("inside", "leftmost"),
        means=("the inside lane leads", "the leftmost lane leads"),
        question="Who leads when level?",
        why="the base game's rule",
        passage="D",
    )
    return Reading(**{**fields, **changes})


def test_a_reading_needs_two_values_and_a_meaning_for_each() -> None:
    with pytest.raises(ValueError, match="at least two values"):
        _reading(values=("inside",), means=("x",))
    with pytest.raises(ValueError, match="one meaning per value"):
        _reading(means=("x",))
    with pytest.raises(ValueError, match="one label per value"):
        _reading(labels=("a",))


def test_a_value_is_read_by_its_label_or_itself() -> None:
    bonus = _reading(
        option=Argument("bonus", "", "switch", default=True),
        values=(True, False),
        means=("a", "b"),
        labels=("allowed", "not allowed"),
    )
    assert bonus.parse("not allowed") is False and bonus.parse("True") is True
    with pytest.raises(TrackkitError, match="bonus is one of allowed, not allowed"):
        bonus.parse("maybe")
    assert bonus.to_json()["flag"] == "--no-bonus"
    assert [v["label"] for v in bonus.to_json()["values"]] == ["allowed", "not allowed"]


@pytest.mark.parametrize("game", rulesets())
def test_every_reading_of_a_game_is_one_of_its_options_and_says_where_it_comes_from(
    game: str,
) -> None:
    face = get_face(game)
    names = {option.name for option in face.options}
    for reading in readings_of(game):
        assert reading.option in face.options, reading.name
        assert reading.name in names
        assert reading.passage and reading.why and reading.question
        assert reading.status in ("S", "D", "R", "U")
        if reading.option.kind == "choice":
            assert tuple(reading.option.choices) == tuple(str(v) for v in reading.values)
        assert reading_named(game, reading.name.replace("_", "-")) is reading


def test_an_unknown_reading_is_refused_with_the_games_readings() -> None:
    with pytest.raises(TrackkitError, match="not a reading of this game"):
        reading_named("snowtails", "gravity")


def test_the_readmes_table_and_the_docs_page_say_every_reading_as_declared() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text()
    page = (root / "docs" / "readings.md").read_text()
    for game in rulesets():
        for reading in readings_of(game):
            values = ", ".join(
                f"**{reading.label(v)}**" if v == reading.default else reading.label(v)
                for v in reading.values
            )
            row = f"| `{reading.option.flag}` | {reading.question} | {values} | {reading.cited} |"
            assert row in readme, reading.name
            assert f"#### `{reading.option.flag}`: {reading.question}" in page
            assert f"Rulebook: {reading.passage}" in page
            if reading.effect:
                assert f"Measured: {reading.effect}" in page
            # a what-if is listed apart, after the readings of the text, saying why
            heading = page.index(f"#### `{reading.option.flag}`:")
            apart = page.index("### What-ifs")
            assert (heading > apart) == bool(reading.what_if), reading.name
            assert (readme.index(row) > readme.index("**What-ifs**")) == bool(reading.what_if)
            if reading.what_if:
                assert f"What-if: {reading.what_if}" in page


def test_what_ifs_are_left_out_of_a_robust_runs_defaults_but_may_be_named() -> None:
    # issue 32 C1: Yummell's crowding at the end and infinite deck are what-ifs
    assert {r.name for r in what_ifs("yummell")} == {"crowding", "deck"}
    assert set(text_readings("yummell")).isdisjoint(what_ifs("yummell"))
    default = [name for name, _ in varied("yummell", None)]
    assert "crowding" not in default and "deck" not in default
    assert {r.name for r in text_readings("yummell")} < set(default)
    assert [name for name, _ in varied("yummell", ["crowding"])] == ["crowding"]
    assert what_ifs("snowtails") == ()


def test_a_reading_named_twice_is_refused() -> None:
    # issue 32 A6: "deck × deck" was raced; 30 of them exhausted the memory
    with pytest.raises(TrackkitError, match="--robust names deck twice"):
        varied("yummell", ["deck"] * 30)
    with pytest.raises(TrackkitError, match="--robust names troll_toll twice"):
        varied("yummell", ["troll-toll", "troll_toll"])
