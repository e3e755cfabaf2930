"""``trackkit sweep`` and ``trackkit find`` on the command line: text, JSON, exports and
one-line errors (exit 2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sweep_spaces import PresetSpace

from trackkit.explore import sweep
from trackkit.explore.profile import ProfileSettings
from trackkit.games.tilekit.track import load_track

pytestmark = pytest.mark.slow  # sweeps start Dask clusters: seconds a test

Cli = Callable[..., tuple[int, str, str]]  # the ``cli`` fixture of tests/conftest.py


@pytest.fixture
def small_space(monkeypatch: pytest.MonkeyPatch) -> PresetSpace:
    """The game's space replaced by 14 preset tracks."""
    space = PresetSpace(size=14)
    monkeypatch.setattr(sweep, "space_of", lambda game, players, tileset=None: space)
    return space


SWEEP = ("sweep", "--players", "4", "--races", "20", "--workers", "1", "--partition-size", "5")


def test_sweep_then_find(cli: Cli, tmp_path: Path, small_space: PresetSpace) -> None:
    folder = tmp_path / "s"
    code, out, err = cli(*SWEEP, "--out", str(folder))
    assert code == 0, err
    assert "every track of 14, 20 races each, exact solo length" in out
    assert "14 of 14 tracks in 3 of 3 partitions: complete" in out
    code, out, _ = cli(*SWEEP, "--out", str(folder), "--json")
    data = json.loads(out)
    assert code == 0 and data["resumed"] and data["tracks_profiled"] == 0 and data["complete"]

    code, out, _ = cli("find", str(folder), "--sort", "drama", "--top", "4")
    assert code == 0
    assert "14 tracks match; 4 shown, highest lead_changes first" in out
    assert out.splitlines()[3].split()[:5] == ["rank", "rounds", "exact", "unfairness", "balance"]
    assert len(out.splitlines()) >= 4 + 4
    assert "Tie groups on lead_changes" in out  # what the races cannot tell apart, said

    code, out, _ = cli(
        "find", str(folder), "--length", "..13", "--filter", "squares=40..",
        "--sort", "length", "--descending", "--json", "--export", str(tmp_path / "best"),
    )  # fmt: skip
    data = json.loads(out)
    rows = data["rows"]
    assert code == 0 and rows and data["sort"] == "rounds_mean" and data["descending"]
    assert all(r["rounds_mean"] <= 13 and r["squares"] >= 40 for r in rows)
    assert [r["rounds_mean"] for r in rows] == sorted(
        (r["rounds_mean"] for r in rows), reverse=True
    )
    assert data["filters"] == {"rounds_mean": "..13", "squares": "40.."}
    for path, row in zip(data["exported"], rows, strict=True):
        assert load_track(path).placements == small_space.track(row["rank"]).placements


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("find", "{folder}", "--length", "9..5"), "--length is A..B, A.. or ..B"),
        (("find", "{folder}", "--length", "short"), "--length is A..B"),
        (("find", "{folder}", "--sort", "speed"), "'speed' is not a figure of this sweep"),
        (("find", "{folder}", "--filter", "balance"), "a filter is KEY=A..B"),
        (("find", "{folder}", "--top", "0"), "--top is 1 to"),
        (("find", "{folder}/nowhere"), "is not a folder"),
        (
            (*SWEEP, "--races", "30", "--out", "{folder}"),
            "different sweep (there vs asked: races 20 vs 30)",
        ),
        (
            (*SWEEP, "--out", "{folder}", "--scheduler", "tcp://127.0.0.1:1"),
            "--workers starts a local cluster",
        ),
        (
            ("sweep", "--players", "4", "--sample", "15", "--out", "{folder}2"),
            "a sample is 1 to 14 tracks",
        ),
        (
            ("sweep", "--players", "9", "--out", "{folder}2"),
            "the building rule is for 2 to 8 players",
        ),
    ],
)
def test_refusals_are_one_line(
    cli: Cli,
    tmp_path: Path,
    small_space: PresetSpace,
    argv: tuple[str, ...],
    message: str,
    dask_client: Any,
) -> None:
    folder = tmp_path / "s"
    sweep.run_sweep(
        small_space,
        folder,
        ProfileSettings(races=20, skill=True, skill_races=100),
        partition_size=5,
        cluster=sweep.Cluster(client=dask_client),
    )
    code, out, err = cli(*(a.format(folder=folder) for a in argv))
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1, err


BROKEN_SWEEP = """
import sys
from sweep_spaces import BrokenSpace
from trackkit.cli import main
from trackkit.explore import sweep

sweep.space_of = lambda game, players, tileset=None: BrokenSpace(7, size=12)
sys.exit(main(["sweep", "--players", "4", "--races", "20", "--partition-size", "5",
               "--workers", "2", "--out", sys.argv[1]]))
"""


def test_a_track_failing_on_a_worker_is_one_line_on_stderr(tmp_path: Path) -> None:
    """Not a Dask log or traceback from the worker processes: the track, in one line."""
    here = Path(__file__).resolve().parent
    result = subprocess.run(
        [sys.executable, "-c", BROKEN_SWEEP, str(tmp_path / "s")],
        cwd=here.parents[1],
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(here.parents[1]), str(here)])},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("trackkit: error: partition 1 (ranks 5-9), track rank 7: ")
    assert "no tile 99" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_sample_of_the_real_space_swept_found_and_exported(cli: Cli, tmp_path: Path) -> None:
    """The game's own 4-player space: the exported files are the tracks of their ranks."""
    from trackkit.games import get_ruleset

    folder = tmp_path / "s"
    code, out, err = cli(
        "sweep", "--players", "4", "--sample", "10", "--races", "20", "--no-exact",
        "--workers", "1", "--partition-size", "4", "--out", str(folder),
    )  # fmt: skip
    assert code == 0, err
    assert "a sample of 10 of 26,640, 20 races each, no exact solver" in out
    code, out, _ = cli("find", str(folder), "--json", "--export", str(tmp_path / "t"))
    data = json.loads(out)
    assert code == 0 and data["matched"] == 10 and len(data["rows"]) == 10
    assert all(row["exact_rounds"] is None for row in data["rows"])
    space = get_ruleset("yummell").track_space(4)
    for path, row in zip(data["exported"], data["rows"], strict=True):
        assert space.rank(load_track(path)) == row["rank"]
        assert Path(path).name == f"4-player-{row['rank']}.toml"


def test_a_sample_of_snow_tails_designs_swept_found_and_exported(cli: Cli, tmp_path: Path) -> None:
    """Snow Tails' design space: swept by a sample, queried, exported as board files that
    read back as the designs their rows name."""
    from trackkit.games.base import load_track as load_any_track
    from trackkit.games.snowtails.core.space import SnowTrackSpace

    folder = tmp_path / "snow"
    code, out, err = cli(
        "sweep", "--game", "snowtails", "--players", "5", "--sample", "6", "--races", "40",
        "--workers", "1", "--partition-size", "4", "--out", str(folder),
    )  # fmt: skip
    assert code == 0, err
    assert "a sample of 6 of" in out and "no exact solver" in out  # Snow Tails has none
    code, out, _ = cli("find", str(folder), "--sort", "length", "--top", "3")
    assert code == 0
    heading = out.splitlines()[3].split()
    assert heading[0] == "rank" and heading[-1] == "design" and "squares" not in heading
    code, out, _ = cli(
        "find", str(folder), "--filter", "design_lanes=4..5", "--json",
        "--export", str(tmp_path / "boards"),
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["matched"] == 6
    space = SnowTrackSpace(5)
    for path, row in zip(data["exported"], data["rows"], strict=True):
        assert row["placements"] == space.design_text(row["rank"], None)
        assert row["unfairness_low"] <= row["unfairness"] <= row["unfairness_high"]
        board = load_any_track(path)
        assert board.to_toml() == space.track(row["rank"]).to_toml().replace(
            space.track(row["rank"]).name, row["name"]
        )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--out", "x"], "sweep a uniform sample of them (--sample K)"),
        (["--sample", "3", "--tileset", "x", "--out", "x"], "has no tiles"),
    ],
)
def test_snow_tails_sweep_refusals_are_one_line(cli: Cli, argv: list[str], message: str) -> None:
    code, _, err = cli("sweep", "--game", "snowtails", "--players", "5", *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_a_search_of_snow_tails_designs_fills_a_map(cli: Cli) -> None:
    code, out, err = cli(
        "search", "--game", "snowtails", "--players", "5", "--target-length", "4",
        "--budget", "24", "--races", "60", "--top", "2", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["evaluated"] >= 20 and data["cells"] >= 2 and len(data["best"]) == 2
