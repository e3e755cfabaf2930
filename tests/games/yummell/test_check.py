"""The optional track-building rule (rulebook p. 4) and what trackkit adds to it."""

from __future__ import annotations

import pytest

from trackkit.errors import TrackkitError
from trackkit.games import load_tileset
from trackkit.games.tilekit.tiles import TileSet
from trackkit.games.tilekit.track import Placement, Track
from trackkit.games.yummell.core.check import (
    can_complete,
    explore_design_space,
    next_placements,
    path_tiles_for_players,
)
from trackkit.validate import validate

START = Placement(1, 0, 0, 0)  # exit to the north: the next tile goes at (0, -1)


def test_path_tiles_per_player_count() -> None:
    assert path_tiles_for_players(2) == 4
    assert [path_tiles_for_players(n) for n in range(3, 9)] == [3, 4, 5, 6, 7, 8]
    for wrong in (1, 9):
        with pytest.raises(TrackkitError, match="2 to 8 players"):
            path_tiles_for_players(wrong)


def test_rulebook_example_tile_6_fits_in_two_positions(tileset: TileSet) -> None:
    """'The player can position tile 6 in either one of the two positions shown, because
    both allow connection.'"""
    track = Track("t", (START,))
    options = [o for o in next_placements(track, tileset, players=4) if o.placement.tile == 6]
    assert len(options) == 2 and all(o.legal and o.completable for o in options)
    assert {o.placement.cell for o in options} == {(0, -1)}
    for option in options:
        report = validate(track.placed(option.placement), tileset, players=4, partial=True)
        assert report.ok and report.completable


def _boxed_in() -> Track:
    """Three path tiles turning the same way: the fourth path tile's cell is beside the
    start tile, so one of tile 9's two turns runs straight into it."""
    return Track(
        "t",
        (
            START,
            Placement(6, 0, -1, 180),  # enters from the south, turns east
            Placement(10, 1, -1, 270),  # enters from the west, turns south
        ),
    )


def test_rulebook_example_tile_9_may_not_leave_no_room(tileset: TileSet) -> None:
    """'The player cannot position tile 9 so that no other player would have space.'"""
    track = _boxed_in()
    assert validate(track, tileset, players=4, partial=True).ok
    options = [o for o in next_placements(track, tileset, players=4) if o.placement.tile == 9]
    assert len(options) == 2
    refused = [o for o in options if not o.legal]
    assert len(refused) == 1 and refused[0].problem == "no-space-for-next"
    report = validate(track.placed(refused[0].placement), tileset, players=4, partial=True)
    assert "no-space-for-next" in report.codes()
    problem = next(p for p in report.problems if p.code == "no-space-for-next")
    assert problem.placement == 3 and problem.tile == 9


def test_with_two_tiles_left_to_place_every_legal_move_is_completable(tileset: TileSet) -> None:
    track = Track("t", (START, Placement(7, 0, -1, 90)))
    options = next_placements(track, tileset, players=3)
    assert options and all(o.completable for o in options if o.legal)
    assert can_complete(track, tileset, players=3)


def test_a_finished_track_has_no_next_placement(tileset: TileSet) -> None:
    from trackkit.games.yummell.core.presets import load_preset

    assert next_placements(load_preset("first-run"), tileset) == []


def test_when_the_path_tiles_are_placed_only_the_finish_is_offered(tileset: TileSet) -> None:
    track = Track(
        "t", (START, Placement(7, 0, -1, 90), Placement(3, 0, -2, 90), Placement(4, 0, -3, 90))
    )
    options = next_placements(track, tileset, players=3)
    assert {o.placement.tile for o in options} == {2}
    finished = track.placed(options[0].placement)
    assert validate(finished, tileset, players=3).ok


def test_design_space_matches_spec(tileset: TileSet) -> None:
    """SPEC.md §2: legal tracks with the start tile's exit fixed, both placements counted."""
    assert explore_design_space(3, tileset).legal_tracks == 2_676
    assert explore_design_space(4, tileset).legal_tracks == 26_640
    assert explore_design_space(5, tileset).legal_tracks == 210_240


def test_dead_ends_exist_with_more_players(tileset: TileSet) -> None:
    assert explore_design_space(3, tileset).dead_ends == 0
    assert explore_design_space(5, tileset).dead_ends > 0


def _find_dead_end(tileset: TileSet, players: int) -> Track:
    """A partial track obeying the rule at every step from which no completion exists."""

    def search(track: Track) -> Track | None:
        legal = [o for o in next_placements(track, tileset, players=players) if o.legal]
        for option in legal:
            if option.completable is False:
                return track.placed(option.placement)
        for option in legal:
            if option.placement.tile != tileset.finish.number:
                found = search(track.placed(option.placement))
                if found:
                    return found
        return None

    found = search(Track("t", (START,)))
    assert found is not None
    return found


@pytest.mark.slow  # searches 5-player tracks for a dead end: about 25 s
def test_a_dead_end_is_reported(tileset: TileSet) -> None:
    track = _find_dead_end(tileset, 5)
    assert not can_complete(track, tileset, players=5)
    report = validate(track, tileset, players=5, partial=True)
    assert report.codes() == ["dead-end"] and report.completable is False


def test_a_broken_partial_track_offers_no_next_placement(tileset: TileSet) -> None:
    broken = Track("t", (START, Placement(9, 0, -1, 90)))  # tile 9 turned away from the start
    assert next_placements(broken, tileset) == []
    assert not can_complete(broken, tileset)
    assert not can_complete(Track("t", (START, Placement(42, 0, -1))), tileset)


def test_a_count_too_large_to_finish_is_refused_with_a_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ISSUE 7 item 9: long work is refused with a message, never left to run for hours
    import trackkit.games.yummell.core.check as building

    monkeypatch.setattr(building, "MAX_SPACE_STEPS", 1_000)
    with pytest.raises(TrackkitError, match="too large to count here"):
        building.explore_design_space(6, load_tileset())
    monkeypatch.setattr(building, "MAX_SPACE_STEPS", 10_000_000)
    assert building.explore_design_space(3, load_tileset()).legal_tracks == 2676


def _tile_by_tile(players: int, tileset: TileSet) -> tuple[int, int, int]:
    """The count the plain way, one tile and one rotation at a time: complete tracks, dead
    ends and placing steps (what explore_design_space walked before it walked shapes)."""
    from trackkit.games.tilekit.geometry import Side, neighbour
    from trackkit.games.yummell.core.check import orientations

    exit_side = tileset.start.junctions[0].side
    occupied, used = {(0, 0)}, set[int]()
    totals = [0, 0, 0]

    def walk(cell: tuple[int, int], entry: Side, left: int) -> None:
        totals[2] += 1
        if left == 0:
            totals[0] += 1
            return
        moved = False
        occupied.add(cell)
        for tile in tileset.path_tiles:
            if tile.number in used:
                continue
            used.add(tile.number)
            for _, out in orientations(tile, entry):
                assert out is not None
                beyond = neighbour(cell, out)
                if beyond not in occupied:
                    moved = True
                    walk(beyond, out.opposite, left - 1)
            used.discard(tile.number)
        occupied.discard(cell)
        totals[1] += not moved

    walk(neighbour((0, 0), exit_side), exit_side.opposite, path_tiles_for_players(players))
    return totals[0], totals[1], totals[2]


@pytest.mark.parametrize(
    "players",
    [2, 3, pytest.param(5, marks=pytest.mark.slow)],  # 5 players: about 4 s
)
def test_walking_shapes_counts_what_walking_tiles_counts(tileset: TileSet, players: int) -> None:
    from trackkit.games.yummell.core.check import building_tree

    tree = building_tree(players, tileset)
    assert (tree.legal_tracks, tree.dead_ends, tree.steps) == _tile_by_tile(players, tileset)
    assert tree.completions[()] == tree.legal_tracks


@pytest.mark.parametrize("players", [None, 2, 5, 8])
def test_an_empty_table_can_still_be_completed(players: int | None) -> None:
    from trackkit.validate import validate

    report = validate(Track("empty", ()), players=players, partial=True)
    assert report.ok and report.completable is True  # it said dead-end before
