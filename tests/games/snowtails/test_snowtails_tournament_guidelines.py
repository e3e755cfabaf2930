"""The Kennels guideline of a tournament (rulebook F, SNOWTAILS.md §2.4): anywhere in races
1 and 2, near the start in race 3 (read as the first third [R]); in a single race, the first
third. ``trackkit tournament`` reports each board's warnings for its race and plays on."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from snowtails_fixtures import base_data, track_of

from trackkit.games.snowtails.core.check import validate_track
from trackkit.games.snowtails.core.course import build_course
from trackkit.games.snowtails.core.guidelines import guideline_problems
from trackkit.games.snowtails.core.track import SnowTrack

Cli = Callable[..., tuple[int, str, str]]  # the ``cli`` fixture of tests/conftest.py

TAVERN = {"kind": "tavern", "segment": "a", "side": "left", "rows": [1, 2]}


def _with_kennels(segment: str, rows: list[int]) -> SnowTrack:
    kennels = {"kind": "kennels", "segment": segment, "lanes": [2, 3], "rows": rows}
    return track_of(base_data(buildings=[kennels, TAVERN]))


LATE = _with_kennels("c", [0, 1])  # past the corner: well beyond the first third
EARLY = _with_kennels("a", [2, 3])  # on the first straight


def _codes(track: SnowTrack, race: int | None) -> set[str]:
    return {issue.code for issue in guideline_problems(build_course(track), race)}


def test_a_single_race_wants_the_kennels_in_the_first_third() -> None:
    assert "kennels-late" in _codes(LATE, None)
    assert "kennels-late" not in _codes(EARLY, None)
    warning = next(i for i in validate_track(LATE).warnings if i.code == "kennels-late")
    assert "single race" in warning.message


@pytest.mark.parametrize("race", [1, 2])
def test_late_kennels_are_no_warning_in_races_1_and_2(race: int) -> None:
    assert "kennels-late" not in _codes(LATE, race)
    assert validate_track(LATE, race=race).ok


def test_late_kennels_are_a_warning_in_race_3() -> None:
    assert "kennels-late" in _codes(LATE, 3)
    assert "kennels-late" not in _codes(EARLY, 3)
    warning = next(i for i in validate_track(LATE, race=3).warnings if i.code == "kennels-late")
    assert "last race of a tournament" in warning.message and "[R]" in warning.message


def test_the_other_guidelines_hold_in_every_race() -> None:
    early_chapel = track_of(
        base_data(
            buildings=[{"kind": "chapel", "segment": "a", "lanes": [2, 3], "rows": [2, 3]}, TAVERN]
        )
    )
    for race in (None, 1, 2, 3):
        assert "chapel-early" in _codes(early_chapel, race)


def test_a_tournament_has_three_races() -> None:
    with pytest.raises(ValueError, match="1 to 3"):
        guideline_problems(build_course(LATE), 4)


def _files(tmp_path: Path, *tracks: SnowTrack) -> list[str]:
    paths = []
    for n, track in enumerate(tracks):
        path = tmp_path / f"race-{n + 1}.toml"
        path.write_text(track.to_toml(), encoding="utf-8")
        paths.append(str(path))
    return paths


def _tournament(cli: Cli, files: list[str], *more: str) -> tuple[int, Any, str]:
    code, out, err = cli("tournament", *files, "--players", "3", "--tournaments", "4", *more)
    return code, out, err


def test_the_tournament_warns_late_kennels_on_race_3_not_on_race_1(
    cli: Cli, tmp_path: Path
) -> None:
    code, out, _ = _tournament(cli, _files(tmp_path, LATE, EARLY, EARLY), "--json")
    assert code == 0
    assert not [w for w in json.loads(out)["warnings"] if w["code"] == "kennels-late"]
    code, out, _ = _tournament(cli, _files(tmp_path, EARLY, EARLY, LATE), "--json")
    late = [w for w in json.loads(out)["warnings"] if w["code"] == "kennels-late"]
    assert code == 0 and [w["race"] for w in late] == [3]  # warned, and played
    assert late[0]["severity"] == "warning" and late[0]["field"] == "buildings[0]"


def test_the_tournament_text_lists_the_warnings_after_the_figures(cli: Cli, tmp_path: Path) -> None:
    code, out, _ = _tournament(cli, _files(tmp_path, EARLY, EARLY, LATE))
    assert code == 0 and "Mean rounds per race" in out
    guidelines = out[out.index("Guidelines") :]
    assert "race 3 (Test track): [kennels-late]" in guidelines
