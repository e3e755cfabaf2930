"""The proof of the seam: a third game, registered only here, is listed, shown, checked,
written, raced and compared by every shared command, and its own command and race option
join the command line, with no change to shared code (issue 22)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import Cli
from tests.games.toy import registered


@pytest.fixture(autouse=True)
def _toy() -> Iterator[None]:
    with registered():
        yield


def test_the_toy_is_listed_shown_and_checked(cli: Cli) -> None:
    code, out, _ = cli("presets", "--game", "toy", "--json")
    assert code == 0 and [r["slug"] for r in json.loads(out)] == ["puddle-dash", "bog-run"]
    code, out, _ = cli("show", "bog-run", "--json")
    assert code == 0 and json.loads(out) == {
        "game": "toy",
        "name": "Bog run",
        "length": 30,
        "mud": [3, 4, 5, 20, 21],
    }
    code, out, _ = cli("validate", "puddle-dash")
    assert (code, out.strip()) == (0, "Puddle dash: valid.")


def test_a_broken_toy_track_fails_validation_and_is_refused_a_race(
    cli: Cli, tmp_path: Path
) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('game = "toy"\nname = "Broken"\nlength = 10\nmud = [12]\n')
    code, out, _ = cli("validate", str(path), "--json")
    assert code == 1 and [p["code"] for p in json.loads(out)["problems"]] == ["mud-off-lane"]
    code, _, err = cli("simulate", str(path), "--races", "10")
    assert code == 2 and "cannot be raced" in err


def test_the_toy_is_written_and_read_back(cli: Cli, tmp_path: Path) -> None:
    target = tmp_path / "mine.toml"
    assert cli("export", "bog-run", "-o", str(target))[0] == 0
    code, out, _ = cli("show", str(target), "--json")
    assert code == 0 and json.loads(out)["name"] == "Bog run"


def test_the_toy_races_with_its_own_option(cli: Cli) -> None:
    argv = ("simulate", "puddle-dash", "--players", "3", "--races", "400", "--seed", "1")
    code, out, _ = cli(*argv, "--json")
    six = json.loads(out)
    assert code == 0 and six["races"] == 400 and len(six["seats"]) == 3
    code, out, _ = cli(*argv, "--die-sides", "12", "--json")
    twelve = json.loads(out)
    assert code == 0 and twelve["mean_rounds"] < six["mean_rounds"]  # a bigger die is faster
    code, out, _ = cli("race", "puddle-dash", "--players", "2", "--seed", "3", "--json")
    assert code == 0 and json.loads(out)["rounds"] >= 1
    code, out, _ = cli("compare", "--game", "toy", "--races", "200", "--players", "2", "--json")
    assert code == 0 and [r["key"] for r in json.loads(out)] == ["puddle-dash", "bog-run"]


def test_the_toys_option_and_command_stay_its_own(cli: Cli) -> None:
    code, _, err = cli("simulate", "first-run", "--die-sides", "8", "--races", "10")
    assert code == 2 and "--die-sides is not an option of Yummell races" in err
    code, out, _ = cli("toy-odds", "puddle-dash", "--sides", "6", "--json")
    assert code == 0 and json.loads(out)["first_roll_past_mud"] == pytest.approx(3 / 6)
    code, _, err = cli("toy-odds", "first-run")
    assert code == 2 and "`trackkit toy-odds` is for Toy lane tracks" in err
    code, _, err = cli("simulate", "puddle-dash", "--policy", "sneaky", "--races", "10")
    assert code == 2 and "unknown policy 'sneaky'" in err


@pytest.mark.parametrize(
    "argv",
    [
        ("exact", "puddle-dash"),
        ("tournament", "puddle-dash", "bog-run", "puddle-dash"),
        ("render", "puddle-dash", "-o", "toy.svg"),
    ],
)
def test_what_the_toy_lacks_is_refused_in_one_line(
    cli: Cli, argv: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No exact solver, no tournament, no drawing: each refused by name, in one line."""
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(*argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.slow  # a sweep starts a Dask cluster
def test_the_toys_design_space_is_generated_swept_found_and_searched(
    cli: Cli, tmp_path: Path
) -> None:
    """A new game's design space is a module of its folder: every shared command that
    works on a space works on it, with no change to shared code."""
    from tests.games.toy.core.space import ToySpace

    code, out, _ = cli("generate", "--game", "toy", "--players", "3", "--count", "2")
    assert code == 0 and out.startswith("2 of the 4,396 legal 3-player tracks")
    from trackkit.explore.profile import ProfileSettings
    from trackkit.explore.sweep import Cluster, dask_client, run_sweep, space_of

    folder = tmp_path / "toy-sweep"
    # the toy is registered in this process only: its sweep's workers are threads of it
    with dask_client(1, processes=False) as client:
        run = run_sweep(
            space_of("toy", 3),
            folder,
            ProfileSettings(races=60, seed=1),
            sample=12,
            cluster=Cluster(client=client),
        )
    assert run.status.complete and run.plan.game == "toy" and not run.plan.exact
    code, out, _ = cli(
        "find", str(folder), "--filter", "lane_mud=1..2", "--sort", "length", "--json",
        "--export", str(tmp_path / "lanes"),
    )  # fmt: skip
    data = json.loads(out)
    space = ToySpace(3)
    assert code == 0 and data["rows"]
    for row, path in zip(data["rows"], data["exported"], strict=True):
        assert row["placements"] == space.design_text(row["rank"], None)
        assert row["lane_mud"] >= 1 and Path(path).read_text() == space.track(
            row["rank"]
        ).to_toml().replace(f"Toy lane #{row['rank']}", row["name"])
    code, out, err = cli(
        "search", "--game", "toy", "--players", "3", "--target-length", "4", "--budget", "20",
        "--races", "40", "--json",
    )  # fmt: skip
    assert code == 0 and json.loads(out)["evaluated"] >= 15, err
