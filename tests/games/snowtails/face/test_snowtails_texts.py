"""Snow Tails tracks and races in words: presets, show and a recorded race."""

from __future__ import annotations

from trackkit.games.snowtails.core.options import RaceOptions
from trackkit.games.snowtails.core.presets import PRESET_SLUGS, load_preset
from trackkit.games.snowtails.core.race import record_race
from trackkit.games.snowtails.face.texts import (
    presets_summary,
    presets_text,
    race_text,
    show_summary,
    show_text,
)


def test_presets_list_every_demo_track_as_a_reconstruction() -> None:
    rows = presets_summary()
    assert [r["slug"] for r in rows] == list(PRESET_SLUGS)
    assert all(r["reconstructed"] and r["spaces"] > 100 for r in rows)
    long_trail = next(r for r in rows if r["slug"] == "long-trail")
    assert sorted(long_trail["buildings"]) == ["bothy", "chapel", "kennels", "tavern"]
    text = presets_text(rows)
    assert "kennels, bothy, tavern, chapel" in text and "reconstructions" in text


def test_show_gives_segments_start_finish_trees_and_building_triggers() -> None:
    data = show_summary(load_preset("long-trail"))
    assert data["reconstructed"] and data["direction"] == "forward"
    assert len(data["start"]) == 5  # one start space per lane
    assert data["steps_to_finish"] > 0
    assert len(data["trees"]) == len(load_preset("long-trail").trees)
    assert {b["kind"] for b in data["buildings"]} == {"kennels", "chapel", "bothy", "tavern"}
    assert all(b["triggers"] for b in data["buildings"])  # every building can be used
    text = show_text(data)
    assert text.splitlines()[0] == "Long trail: Snow Tails track, driven forward"
    assert "Kennels on" in text and "steps from the start" in text


def test_a_reversed_track_says_so() -> None:
    data = show_summary(load_preset("reversed-ridge"))
    assert data["direction"] == "reversed"
    assert "driven reversed" in show_text(data)


def test_a_race_reads_turn_by_turn_and_ends_with_the_placings() -> None:
    record = record_race(load_preset("husky-oval"), RaceOptions(players=3), seed=4)
    lines = race_text(record, track="Husky oval", seed=4).splitlines()
    assert lines[0] == f"Husky oval, seed 4: {record.rounds} rounds"
    assert lines[1] == "Round 1"
    turns = [line for line in lines if line.startswith("  sled ")]
    assert len(turns) == len(record.turns)
    assert turns[0].split(":")[0] == f"  sled {record.turns[0].player + 1}"
    assert lines[-1].startswith("Placings: ")
    assert lines[-1].count("sled") == 3
