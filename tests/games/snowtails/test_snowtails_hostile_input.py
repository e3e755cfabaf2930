"""What a Snow Tails file may cost and what it may race (issue 20, findings 3, 4 and 8).

A track file's coordinates and spans are bounded by the board it could describe, so a
building two billion lanes wide is refused as the file loads; the spaces a board makes the
checks enumerate are bounded by a limit checked before the course is built; a track the
validator rejects is raced by no command; a content folder's deck is checked against what
the engine needs, and its components are what the check before a race counts against.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from trackkit import limits
from trackkit.errors import ContentFileError, TrackkitError
from trackkit.games.base import race_ready
from trackkit.games.snowtails.core import course as course_module
from trackkit.games.snowtails.core.check import validate_track
from trackkit.games.snowtails.core.content import Deck, load_deck
from trackkit.games.snowtails.core.course import board_spaces, build_course
from trackkit.games.snowtails.core.options import RaceOptions
from trackkit.games.snowtails.core.presets import PRESET_SLUGS, load_preset, preset_text
from trackkit.games.snowtails.core.race import play_tournaments, prepare, record_race
from trackkit.games.snowtails.core.race import simulate as sled_simulate
from trackkit.games.snowtails.core.track import (
    MAX_BUILDINGS,
    MAX_INDEX,
    MAX_LANES,
    MAX_ROWS,
    MAX_SEGMENTS,
    parse_track_toml,
)
from trackkit.limits import BOARD_SPACES, CostLimitError
from trackkit.sim.montecarlo import simulate
from trackkit.validate import validate

DATA = Path(__file__).resolve().parents[3] / "trackkit" / "games" / "snowtails" / "data"
SNOWTAILS_PAGE = Path(__file__).resolve().parents[3] / "docs" / "snowtails.md"


@pytest.fixture
def app_limits():
    limits.serve_app_limits(True)
    yield
    limits.serve_app_limits(False)


def _refused(cli: Any, *argv: str) -> str:
    code, out, err = cli(*argv)
    assert code == 2, (argv, out, err)
    assert err.startswith("trackkit: error: ") and err.count("\n") == 1, err
    return err


# --- finding 3: ranges in the schema, a limit on the spaces enumerated ---------------------

ISSUE_BUILDINGS = {
    "rows": ("lanes = [2, 3]\nrows = [3, 100000000]", "buildings[0].rows[1]", "59"),
    "lanes": ("lanes = [2, 2147483648]\nrows = [3, 4]", "buildings[0].lanes[1]", "9"),
}


@pytest.mark.parametrize("span", list(ISSUE_BUILDINGS))
@pytest.mark.parametrize("command", ["validate", "show"])
def test_the_issues_building_is_refused_at_once(
    cli: Any, tmp_path: Path, span: str, command: str
) -> None:
    text, field, bound = ISSUE_BUILDINGS[span]
    path = tmp_path / "huge.toml"
    path.write_text(
        preset_text("husky-oval") + f'\n[[buildings]]\nkind = "chapel"\nsegment = "back"\n{text}\n',
        "utf-8",
    )
    began = time.perf_counter()
    err = _refused(cli, command, str(path))
    assert time.perf_counter() - began < 5
    assert f"{path}: {field}: " in err and bound in err


def test_no_coordinate_can_name_a_space_off_every_board() -> None:
    """Lanes, rows, indices and lines are bounded in the schema like the segments are."""
    text = preset_text("husky-oval")
    broken = {
        'start = { segment = "home", row = -1 }': "start.row",
        'start = { segment = "home", row = 10000000000 }': "start.row",
        'finish = { segment = "run-in", line = 99999 }': "finish.line",
        'trees = [["home", 2, 4000000000]]': "trees[0][2]",
        'trees = [["home", -5, 3]]': "trees[0][1]",
        'markers = [["home", 2147483648, 0]]': "markers[0][1]",
    }
    for line, field in broken.items():
        key = line.split(" ", 1)[0]
        lines = [x for x in text.splitlines() if not x.startswith(f"{key} =")]
        at = next(i for i, x in enumerate(lines) if x.startswith("[[segments]]"))
        changed = "\n".join([*lines[:at], line, *lines[at:]])
        with pytest.raises(TrackkitError) as caught:
            parse_track_toml(changed, source="x.toml")
        assert str(caught.value).startswith(f"x.toml: {field}: "), str(caught.value)


def test_the_limit_has_margin_over_the_presets_and_the_largest_board() -> None:
    largest = MAX_SEGMENTS * MAX_LANES * MAX_ROWS + MAX_BUILDINGS * MAX_LANES * (MAX_INDEX + 1)
    assert largest == 38_880
    assert largest < BOARD_SPACES.cli  # the command line refuses no file that loads
    assert max(board_spaces(load_preset(slug)) for slug in PRESET_SLUGS) * 10 < BOARD_SPACES.app


def _board(segments: int, rows: int) -> str:
    lines = [
        'game = "snowtails"',
        'name = "Big"',
        'start = { segment = "s0", row = 0 }',
        f'finish = {{ segment = "s{segments - 1}", line = 1 }}',
    ]
    for i in range(segments):
        lines += ["[[segments]]", f'id = "s{i}"', f"rows = {rows}"]
    return "\n".join(lines) + "\n"


def test_a_board_over_the_limit_is_refused_before_a_space_is_listed(
    app_limits: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    track = parse_track_toml(_board(60, 20), source="big.toml")  # 60 × 5 × 20 spaces
    assert board_spaces(track) == 6_000

    def listed(*args: Any) -> None:
        raise AssertionError("a space was listed")

    monkeypatch.setattr(course_module, "_lay_out", listed)
    with pytest.raises(CostLimitError) as caught:
        validate(track)
    message = str(caught.value)
    assert message == (
        "the board of big.toml would need 6,000 board spaces; the limit is 5,000: make the "
        "board smaller (fewer or shorter segments, fewer lanes, smaller buildings)"
    )
    monkeypatch.setenv(BOARD_SPACES.env, "6000")  # the operator may allow more
    with pytest.raises(AssertionError, match="listed"):
        validate(track)


def test_the_command_line_validates_that_board(cli: Any, tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_text(_board(60, 20), "utf-8")
    code, out, _ = cli("validate", str(path))
    assert code == 0 and "Big" in out


# --- finding 4: races only on valid tracks, at one seam --------------------------------------

WALL = '[["back", 1, 6], ["back", 2, 6], ["back", 3, 6], ["back", 4, 6], ["back", 5, 6]]'
REFUSED = "track 'Husky oval' cannot be raced: "


def _walled_text() -> str:
    return preset_text("husky-oval").replace("trees = [", f"markers = {WALL}\ntrees = [", 1)


@pytest.fixture
def walled(tmp_path: Path) -> Path:
    path = tmp_path / "walled.toml"
    path.write_text(_walled_text(), "utf-8")
    return path


def test_the_walled_oval_is_finish_unreachable(walled: Path) -> None:
    track = parse_track_toml(_walled_text(), source=str(walled))
    assert "finish-unreachable" in {i.code for i in validate_track(track).errors}


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--races", "20"],
        ["race"],
        ["compare", "--races", "20"],
        ["simulate", "--races", "20", "--json"],
    ],
    ids=["simulate", "race", "compare", "simulate-json"],
)
def test_every_command_refuses_to_race_it(cli: Any, walled: Path, argv: list[str]) -> None:
    err = _refused(cli, argv[0], str(walled), *argv[1:])
    assert REFUSED in err and "[finish-unreachable]" in err
    assert "Run `trackkit validate` for all of them." in err and ".." not in err


def test_every_library_call_that_races_refuses_it() -> None:
    track = parse_track_toml(_walled_text(), source="walled.toml")
    options = RaceOptions(players=3)
    calls = {
        "race_ready": lambda: race_ready(track, options),
        "simulate": lambda: simulate(track, options, races=10),
        "the engine's simulate": lambda: sled_simulate(track, options, 2, seed=1),
        "record_race": lambda: record_race(track, options, seed=1),
        "play_tournaments": lambda: play_tournaments([track] * 3, options, 2, seed=1),
        "prepare": lambda: prepare(track, options),
    }
    for name, call in calls.items():
        with pytest.raises(TrackkitError, match=REFUSED) as caught:
            call()
        assert "finish-unreachable" in str(caught.value), name


def test_a_track_that_only_breaks_a_guideline_still_races() -> None:
    track = load_preset("long-trail")  # four buildings: a guideline warning, not an error
    assert validate(track).ok and validate(track).warnings
    assert simulate(track, RaceOptions(players=2), races=5, seed=1).races == 5


# --- the content a race is played with -----------------------------------------------------


def _content(
    tmp_path: Path, deck: tuple[str, str] = ("", ""), parts: tuple[str, str] = ("", "")
) -> Path:
    folder = tmp_path / "content"
    folder.mkdir(parents=True, exist_ok=True)
    for name, (old, new) in (("deck.toml", deck), ("components.toml", parts)):
        text = (DATA / name).read_text("utf-8")
        assert old in text
        (folder / name).write_text(text.replace(old, new, 1), "utf-8")
    return folder


@pytest.mark.parametrize("hand", [1, 2, 3, 4])
def test_a_hand_too_small_for_the_engine_is_a_content_error(
    cli: Any, tmp_path: Path, hand: int
) -> None:
    folder = _content(tmp_path, deck=("hand_size = 5", f"hand_size = {hand}"))
    with pytest.raises(ContentFileError) as caught:
        load_deck(folder / "deck.toml")
    assert str(caught.value).startswith(f"{folder / 'deck.toml'}: hand_size: ")
    assert "at least 5" in str(caught.value)
    err = _refused(cli, "simulate", "husky-oval", "--races", "20", "--content", str(folder))
    assert "hand_size" in err and "no dog card" in err


def test_a_deck_built_in_code_is_refused_before_the_engine_runs() -> None:
    bundled = load_deck()
    deck = Deck(bundled.counts, 1, bundled.starting_pair, bundled.held_back_value, True, "")
    with pytest.raises(TrackkitError, match="hand of 1 card"):
        prepare(load_preset("husky-oval"), RaceOptions(players=3, deck=deck))


def test_the_content_folders_components_count_in_the_check_before_a_race(
    cli: Any, tmp_path: Path
) -> None:
    few = _content(tmp_path / "few", parts=("trees = 20", "trees = 4"))
    err = _refused(cli, "simulate", "husky-oval", "--races", "20", "--content", str(few))
    assert "too-many-trees" in err and "the box holds 4" in err
    # 22 trees: too many for the bundled box, raced with a box that holds 30
    trees = ", ".join(f'["back", {lane}, {row}]' for lane in (1, 5) for row in range(11))
    text = preset_text("husky-oval")
    start = text.index("trees = [")
    text = text[:start] + f"trees = [{trees}]" + text[text.index("\n", start) :]
    path = tmp_path / "forest.toml"
    path.write_text(text, "utf-8")
    err = _refused(cli, "simulate", str(path), "--races", "20")
    assert "too-many-trees" in err
    many = _content(tmp_path / "many", parts=("trees = 20", "trees = 30"))
    code, out, _ = cli("simulate", str(path), "--races", "20", "--content", str(many))
    assert code == 0 and "Race length" in out


# --- finding 8: the documented presets ------------------------------------------------------


def test_the_documented_snowtails_presets_are_the_commands_output(cli: Any) -> None:
    text = SNOWTAILS_PAGE.read_text("utf-8")
    start = text.index("$ .venv/bin/trackkit presets --game snowtails\n")
    block = text[start:].split("\n", 1)[1].split("\n\n", 1)[0]
    code, out, _ = cli("presets", "--game", "snowtails")
    assert code == 0 and block == out.rstrip("\n")


def test_the_composed_course_is_the_engines_own_input() -> None:
    """A composed course is raced as given: the engine's tests stand on boards the
    validator refuses, and the ruleset's batches on a course already checked."""
    track = parse_track_toml(_walled_text(), source="w.toml")
    engine = prepare(build_course(track), RaceOptions(players=2))
    assert engine.compiled.course.track is track
