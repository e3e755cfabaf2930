"""Validation: every structural code, presets, and properties of random legal tracks."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trackkit.games import get_ruleset, load_tileset
from trackkit.games.tilekit.tiles import TileSet
from trackkit.games.tilekit.track import Placement, Track
from trackkit.games.yummell.core.check import next_placements
from trackkit.games.yummell.core.presets import PRESET_SLUGS, load_preset
from trackkit.validate import validate

FIRST_RUN = load_preset("first-run")


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_every_preset_is_valid(slug: str, tileset: TileSet) -> None:
    track = load_preset(slug)
    assert validate(track, tileset).ok
    path_tiles = len(track.placements) - 2
    if path_tiles >= 3:
        assert validate(track, tileset, players=path_tiles).ok


def test_first_run_has_too_few_tiles_for_the_building_rule(tileset: TileSet) -> None:
    report = validate(FIRST_RUN, tileset, players=2)
    assert report.codes() == ["tile-count"]
    assert report.problems[0].rule == "building"


REPORT_KEYS = ["game", "track", "ok", "players", "partial", "completable", "problems", "warnings"]


@pytest.mark.parametrize(("game", "slug"), [("yummell", "first-run"), ("snowtails", "long-trail")])
def test_every_game_s_report_has_the_same_keys(game: str, slug: str) -> None:
    report = validate(get_ruleset(game).load_preset(slug), players=2 if game == "yummell" else None)
    data = report.to_json()
    assert list(data) == REPORT_KEYS and data["game"] == game
    found = data["problems"] + data["warnings"]
    assert found and all(list(p) == list(found[0]) for p in found)


def _with(track: Track, index: int, **changes: int) -> Track:
    placements = list(track.placements)
    placements[index] = replace(placements[index], **changes)
    return replace(track, placements=tuple(placements))


@pytest.mark.parametrize(
    ("track", "code", "index"),
    [
        (Track("t", ()), "empty", None),
        (_with(FIRST_RUN, 2, tile=42), "unknown-tile", 2),
        (_with(FIRST_RUN, 2, rotation=45), "bad-rotation", 2),
        (_with(FIRST_RUN, 2, tile=10), "duplicate-tile", 2),
        (_with(FIRST_RUN, 2, x=2, y=1), "overlap", 2),
        (_with(FIRST_RUN, 0, tile=3), "missing-start", None),
        (replace(FIRST_RUN, placements=FIRST_RUN.placements[:-1]), "missing-finish", None),
        (_with(FIRST_RUN, 2, x=1, y=-3), "not-adjacent", 2),
        (_with(FIRST_RUN, 2, rotation=90), "junction-mismatch", 2),
    ],
)
def test_each_structural_code(track: Track, code: str, index: int | None, tileset: TileSet) -> None:
    report = validate(track, tileset)
    assert code in report.codes()
    problem = next(p for p in report.problems if p.code == code)
    assert problem.placement == index and problem.rule == "structure"
    assert problem.message
    if index is not None:
        assert str(track.placements[index].tile) in problem.message


def test_start_not_first_and_finish_not_last(tileset: TileSet) -> None:
    p = FIRST_RUN.placements
    swapped = replace(FIRST_RUN, placements=(p[1], p[0], p[3], p[2]))
    codes = validate(swapped, tileset).codes()
    assert "start-not-first" in codes and "finish-not-last" in codes


def test_a_break_is_disconnected_and_strands_the_squares_after_it(tileset: TileSet) -> None:
    report = validate(_with(FIRST_RUN, 2, rotation=90), tileset)
    codes = report.codes()
    assert "disconnected" in codes and "unreachable" in codes
    stranded = [p.placement for p in report.problems if p.code == "unreachable"]
    assert stranded == [2, 3]


def test_every_problem_is_reported_not_just_the_first(tileset: TileSet) -> None:
    track = _with(_with(FIRST_RUN, 1, rotation=45), 2, tile=42)
    codes = validate(track, tileset).codes()
    assert "bad-rotation" in codes and "unknown-tile" in codes


def test_a_mismatch_message_says_how_to_turn_the_tile(tileset: TileSet) -> None:
    report = validate(_with(FIRST_RUN, 2, rotation=90), tileset)
    problem = next(p for p in report.problems if p.code == "junction-mismatch")
    assert "rotate it to" in problem.message


def test_a_partial_track_is_not_missing_its_finish(tileset: TileSet) -> None:
    partial = replace(FIRST_RUN, placements=FIRST_RUN.placements[:2])
    report = validate(partial, tileset, partial=True)
    assert report.ok and report.completable


# --- properties: random legal tracks, and corruptions of them -------------------------


@st.composite
def legal_tracks(draw: st.DrawFn) -> tuple[Track, int]:
    """A random track built by the rule: each step a legal, completable placement."""
    tiles = load_tileset()
    players = draw(st.integers(2, 8))
    track = Track("random", (Placement(1, 0, 0, draw(st.sampled_from([0, 90, 180, 270]))),))
    while True:
        options = [
            o
            for o in next_placements(track, tiles, players=players)
            if o.legal and o.completable is not False
        ]
        assert options, "a completable track always has a legal, completable next step"
        option = draw(st.sampled_from(options))
        track = track.placed(option.placement)
        if option.placement.tile == tiles.finish.number:
            return track, players


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(legal_tracks())
def test_random_legal_tracks_validate(case: tuple[Track, int]) -> None:
    track, players = case
    assert validate(track, players=players).ok


@SETTINGS
@given(legal_tracks(), st.data())
def test_a_path_tile_moved_away_is_not_adjacent(
    case: tuple[Track, int], data: st.DataObject
) -> None:
    track, _ = case
    index = data.draw(st.integers(1, len(track.placements) - 2))
    far = max(abs(c) for p in track.placements for c in p.cell) + 5
    report = validate(_with(track, index, x=far, y=far))
    assert "not-adjacent" in report.codes()
    assert any(p.placement == index for p in report.problems if p.code == "not-adjacent")


@SETTINGS
@given(legal_tracks(), st.data())
def test_a_path_tile_turned_a_quarter_no_longer_connects(
    case: tuple[Track, int], data: st.DataObject
) -> None:
    track, _ = case
    index = data.draw(st.integers(1, len(track.placements) - 2))
    turn = data.draw(st.sampled_from([90, 270]))
    placement = track.placements[index]
    report = validate(_with(track, index, rotation=(placement.rotation + turn) % 360))
    assert "junction-mismatch" in report.codes()


@SETTINGS
@given(legal_tracks(), st.data())
def test_a_straight_turned_round_still_connects(
    case: tuple[Track, int], data: st.DataObject
) -> None:
    track, players = case
    tiles = load_tileset()
    straights = [i for i, p in enumerate(track.placements) if tiles[p.tile].shape == "straight"]
    if not straights:
        return
    index = data.draw(st.sampled_from(straights))
    placement = track.placements[index]
    turned = _with(track, index, rotation=(placement.rotation + 180) % 360)
    assert validate(turned, players=players).ok


@SETTINGS
@given(legal_tracks(), st.data())
def test_a_duplicated_tile_is_reported(case: tuple[Track, int], data: st.DataObject) -> None:
    track, _ = case
    index = data.draw(st.integers(1, len(track.placements) - 2))
    other = data.draw(st.integers(1, len(track.placements) - 2).filter(lambda i: i != index))
    duplicated = _with(track, other, tile=track.placements[index].tile)
    report = validate(duplicated)
    assert "duplicate-tile" in report.codes()


@SETTINGS
@given(legal_tracks(), st.data())
def test_a_removed_path_tile_breaks_the_track(case: tuple[Track, int], data: st.DataObject) -> None:
    track, _ = case
    index = data.draw(st.integers(1, len(track.placements) - 2))
    removed = replace(track, placements=track.placements[:index] + track.placements[index + 1 :])
    codes = set(validate(removed).codes())
    # the tile after the gap no longer touches its predecessor, or touches it wrongly
    assert codes & {"not-adjacent", "junction-mismatch"}


@SETTINGS
@given(legal_tracks(), st.data(), st.integers(1, 359).filter(lambda r: r % 90))
def test_odd_rotations_and_unknown_tiles(
    case: tuple[Track, int], data: st.DataObject, rotation: int
) -> None:
    track, _ = case
    index = data.draw(st.integers(0, len(track.placements) - 1))
    assert "bad-rotation" in validate(_with(track, index, rotation=rotation)).codes()
    assert "unknown-tile" in validate(_with(track, index, tile=42)).codes()
