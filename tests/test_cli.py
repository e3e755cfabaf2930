"""The command line: output, JSON, exit codes 0/1/2 and one-line errors."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from trackkit.games.tilekit.track import load_track

Cli = Callable[..., tuple[int, str, str]]  # the ``cli`` fixture of tests/conftest.py


def test_presets_json_lists_the_six_with_counts(cli: Cli) -> None:
    code, out, _ = cli("presets", "--json")
    rows = json.loads(out)
    assert code == 0
    assert [r["slug"] for r in rows][0] == "first-run" and len(rows) == 6
    assert {r["slug"]: r["tiles"] for r in rows}["king-of-toads"] == 7
    assert all(r["squares"] > 0 for r in rows)


def test_show_json_gives_the_graph(cli: Cli) -> None:
    code, out, _ = cli("show", "first-run", "--json")
    data = json.loads(out)
    assert code == 0
    ids = {s["id"] for s in data["squares"]}
    assert set(data["start"]) <= ids and data["finish"] in ids
    assert all(set(s["next"]) <= ids for s in data["squares"])
    assert len(data["routes"]) == 3


def test_show_text_lists_each_start_path(cli: Cli) -> None:
    code, out, _ = cli("show", "horrgrups-path")
    assert code == 0
    assert "Start path A" in out and "Start path C" in out
    assert "swamp" in out


def test_validate_exit_codes(cli: Cli) -> None:
    assert cli("validate", "king-of-toads", "--players", "5")[0] == 0
    code, out, _ = cli("validate", "first-run", "--players", "2")
    assert code == 1 and "tile-count" in out
    code, out, _ = cli("validate", "first-run", "--players", "2", "--json")
    assert json.loads(out)["problems"][0]["code"] == "tile-count"


def test_validate_a_broken_file_reports_every_problem(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        'name = "t"\n'
        "[[placements]]\ntile = 1\nx = 0\ny = 0\n"
        "[[placements]]\ntile = 42\nx = 0\ny = -1\n"
        "[[placements]]\ntile = 7\nx = 3\ny = 3\nrotation = 45\n"
    )
    code, out, _ = cli("validate", str(path), "--json")
    codes = {p["code"] for p in json.loads(out)["problems"]}
    assert code == 1
    assert {"unknown-tile", "bad-rotation", "missing-finish"} <= codes


@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "no-such-preset"],
        ["validate", "missing.toml"],
        ["validate", "first-run", "--players", "9"],
        ["validate", "first-run", "--players", "two"],
        ["render", "first-run", "-o", "x.gif"],
        ["frobnicate"],
    ],
)
def test_unusable_input_exits_2_with_one_line(
    cli: Cli,
    argv: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(*argv)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and "error" in err
    assert "Traceback" not in err


def test_bad_toml_exits_2(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("name = \n")
    code, _, err = cli("show", str(path))
    assert code == 2 and "bad.toml" in err and "TOML" in err


def test_export_round_trips_and_keeps_existing_files(cli: Cli, tmp_path: Path) -> None:
    out_file = tmp_path / "mine.toml"
    assert cli("export", "forest-run", "-o", str(out_file))[0] == 0
    assert "[[placements]]" in out_file.read_text()
    assert load_track(out_file).placements == load_track(out_file).placements
    out_file.write_text("my work")
    code, _, err = cli("export", "forest-run", "-o", str(out_file))
    assert code == 2 and "--force" in err
    assert out_file.read_text() == "my work"
    # and the exported file validates like the preset
    out_file.unlink()
    cli("export", "forest-run", "-o", str(out_file))
    assert cli("validate", str(out_file), "--players", "3")[0] == 0


def test_next_lists_the_legal_placements(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('name = "t"\n[[placements]]\ntile = 1\nx = 0\ny = 0\n')
    code, out, _ = cli("next", str(path), "--players", "3", "--json")
    rows = json.loads(out)
    assert code == 0
    assert rows and all((r["x"], r["y"]) == (0, -1) for r in rows)
    assert {r["tile"] for r in rows} == {3, 4, 5, 6, 7, 8, 9, 10}


def test_space_reproduces_the_spec_count(cli: Cli) -> None:
    code, out, _ = cli("space", "--players", "3", "--json")
    assert code == 0 and json.loads(out)["legal_tracks"] == 2676


def test_generate_prints_a_line_per_track_and_the_same_seed_gives_the_same_tracks(
    cli: Cli,
) -> None:
    from trackkit.games.yummell.core.space import TrackSpace, generate

    code, out, err = cli("generate", "--players", "4", "--count", "6", "--seed", "11")
    lines = out.splitlines()
    assert code == 0 and err == "" and len(lines) == 7
    assert lines[0].startswith("6 of the 26,640 legal 4-player tracks (seed 11)")
    space = TrackSpace(4)
    for track, line in zip(generate(4, 6, seed=11), lines[1:], strict=True):
        rank = space.rank(track)
        assert line == f"rank {rank:>6,}: " + " ".join(map(str, track.tiles))
    assert cli("generate", "--players", "4", "--count", "6", "--seed", "11")[1] == out


def test_generate_json_gives_json_lines(cli: Cli) -> None:
    from trackkit.games.yummell.core.space import TrackSpace

    code, out, _ = cli("generate", "--players", "8", "--count", "3", "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(rows) == 3
    space = TrackSpace(8)
    for row in rows:
        assert row["players"] == 8 and row["name"] == f"8-player track #{row['rank']}"
        assert row["placements"] == space.track(row["rank"]).to_dict()["placements"]


def test_generate_writes_track_files_and_never_replaces_another(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "drawn"
    argv = ["generate", "--players", "5", "--count", "4", "--seed", "2", "-o", str(folder)]
    code, out, _ = cli(*argv)
    files = sorted(folder.iterdir())
    assert code == 0 and out.startswith(f"Wrote {len(files)} track files to ")
    assert all(f.name.startswith("track-") and f.suffix == ".toml" for f in files)
    for path in files:
        assert cli("validate", str(path), "--players", "5")[0] == 0
    files[0].write_text("mine")
    code, out, err = cli(*argv)
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.count("\n") == 1 and "holds something else" in err
    assert files[0].read_text() == "mine"


def test_generate_draws_snow_tails_designs_as_keys_and_board_files(
    cli: Cli, tmp_path: Path
) -> None:
    from trackkit.games.snowtails.core.space import SnowTrackSpace, from_key

    argv = ["generate", "--game", "snowtails", "--players", "5", "--count", "3", "--seed", "4"]
    code, out, err = cli(*argv)
    lines = out.splitlines()
    assert code == 0 and err == "" and len(lines) == 4
    assert lines[0].startswith("3 of the about ") and "legal 5-player tracks (seed 4)" in lines[0]
    space = SnowTrackSpace(5)
    for rank, line in zip(space.sample_ranks(3, 4), lines[1:], strict=True):
        assert line.split() == ["rank", f"{rank:,}:", space.summary(rank, None)]
    rows = [json.loads(line) for line in cli(*argv, "--json")[1].splitlines()]
    assert [from_key(row["placements"]) for row in rows] == [
        space.designs.design(row["rank"]) for row in rows
    ]
    code, out, _ = cli(*argv, "-o", str(tmp_path))
    assert code == 0 and len(list(tmp_path.iterdir())) == 3
    for path in tmp_path.iterdir():
        assert cli("validate", str(path), "--players", "5")[0] == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "1", "--count", "2"], "the building rule is for 2 to 8 players, not 1"),
        (["--players", "9", "--count", "2"], "the building rule is for 2 to 8 players, not 9"),
        (["--players", "4", "--count", "0"], "generate draws 1 to 1,000,000 tracks, not 0"),
        (["--players", "4", "--count", "x"], "'x' is not a whole number"),
        (["--players", "4", "--seed", "-1"], "the seed is a whole number from 0"),
        (["--count", "3"], "the following arguments are required: --players"),
    ],
)
def test_generate_refuses_bad_options_in_one_line(cli: Cli, argv: list[str], message: str) -> None:
    code, out, err = cli("generate", *argv)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_generate_refuses_a_tile_set_that_cannot_be_read(cli: Cli, tmp_path: Path) -> None:
    code, _, err = cli("generate", "--players", "3", "--tileset", str(tmp_path))
    assert code == 2 and "tileset.toml" in err and "Traceback" not in err


def test_tiles_marks_reconstructions(cli: Cli) -> None:
    code, out, _ = cli("tiles")
    assert code == 0 and out.count("(reconstructed)") == 10


def test_custom_tileset_option(cli: Cli, tile_folder: Path) -> None:
    (tile_folder / "tile-07.toml").write_text(
        (tile_folder / "tile-07.toml").read_text().replace('"woods"', '"swamp"')
    )
    _, default, _ = cli("show", "first-run", "--json")
    _, custom, _ = cli("show", "first-run", "--tileset", str(tile_folder), "--json")
    mp = lambda out: json.loads(out)["routes"][0]["mp"]  # noqa: E731
    assert mp(custom) > mp(default)


def test_console_script_is_installed_and_never_prints_a_traceback(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "trackkit"
    assert exe.exists()
    bad = tmp_path / "bad.toml"
    bad.write_text("[[[")
    result = subprocess.run([str(exe), "validate", str(bad)], capture_output=True, text=True)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "bad.toml" in result.stderr


# --- races -------------------------------------------------------------------------------


def test_simulate_json_has_the_documented_fields(cli: Cli) -> None:
    code, out, _ = cli(
        "simulate",
        "first-run",
        "--players",
        "3",
        "--races",
        "400",
        "--seed",
        "7",
        "--json",
    )
    data = json.loads(out)
    assert code == 0
    assert data["races"] == 400 and len(data["ci95"]) == 2
    assert data["ci95"][0] < data["mean_rounds"] < data["ci95"][1]
    assert sum(data["rounds_histogram"].values()) == 400
    assert len(data["characters"]) == 8


def test_simulate_text_shows_length_and_fairness(cli: Cli) -> None:
    code, out, _ = cli("simulate", "forest-run", "--races", "300", "--policy", "smart")
    assert code == 0
    assert "Race length:" in out and "95% CI" in out and "Start path" in out


def test_race_prints_a_replayable_race(cli: Cli) -> None:
    code, out, _ = cli("race", "first-run", "--players", "2", "--seed", "3", "--json")
    data = json.loads(out)
    assert code == 0 and data["steps"] and data["rounds"] >= 1
    code, text, _ = cli("race", "first-run", "--players", "2", "--seed", "3")
    assert "Round 1" in text and "Placings:" in text


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "first-run", "--players", "0"],
        ["simulate", "first-run", "--races", "-5"],
        ["simulate", "first-run", "--deck", "tarot"],
        ["simulate", "first-run", "--players", "2", "--characters", "Flamm,Gandalf"],
        ["simulate", "first-run", "--content", "/nonexistent"],
    ],
)
def test_impossible_race_options_exit_2(cli: Cli, argv: list[str]) -> None:
    code, _, err = cli(*argv)
    assert code == 2 and len(err.strip().splitlines()) == 1


# --- hostile input: one line on stderr, exit 2, never a traceback or a hang -------------------


def _refused(cli: Cli, *argv: str) -> str:
    code, out, err = cli(*argv)
    assert code == 2, (argv, out, err)
    assert err.startswith("trackkit: error: ") and err.endswith("\n")
    line = err[:-1]
    assert line.isprintable(), line  # no NUL, newline or escape sequence from the input
    return line


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["exact", "first-run", "--character", "f", "--advantage", "0"], "could be any of"),
        (["exact", "first-run", "--character", "", "--advantage", "0"], "empty character"),
        (["exact", "first-run", "--character", "²", "--advantage", "0"], "unknown character"),
        (["exact", "first-run", "--path", "D"], "paths A, B, C; there is no start path 'D'"),
        (["exact", "first-run", "--path", "\x1b[2J"], "there is no start path"),
        (["race", "first-run", "--players", "2", "--characters", "0,"], "empty character"),
        (["race", "first-run", "--players", "2", "--advantages", "0,²"], "unknown advantage"),
        (["simulate", "first-run", "--seed", str(2**64)], "2**64 - 1"),
        (["simulate", "first-run", "--seed", "9" * 5000], "far too large"),
        (["simulate", "first-run", "--seed", "١٢"], "not a whole number"),
        (["simulate", "first-run", "--workers", "1000"], "1 to 64"),
        (["simulate", "first-run", "--races", "0"], "races run from 1"),
        (["simulate", "first-run", "--races", "10000001"], "10,000,000"),
        (["simulate", "first-run", "--players", "99999999999999999999"], "1 to 8 players"),
        (["bench", "--repeat", "1000000000"], "1 to 20 times"),
    ],
)
def test_names_and_numbers_are_checked(cli: Cli, argv: list[str], words: str) -> None:
    assert words in _refused(cli, *argv)


def test_exact_solves_the_start_path_asked_for(cli: Cli) -> None:
    from trackkit.games.yummell.core.exact import exact_solo
    from trackkit.games.yummell.core.presets import load_preset

    racer = ("--character", "Flamm", "--advantage", "Heroism")
    code, out, _ = cli("exact", "first-run", *racer, "--path", "B", "--json")
    data = json.loads(out)
    assert code == 0 and data["path"] == "B"
    on_b = exact_solo(load_preset("first-run"), character="Flamm", advantage="Heroism", path="B")
    assert data["expected_rounds"] == on_b.expected_rounds
    code, out, _ = cli("exact", "first-run", *racer, "--json")
    assert code == 0 and json.loads(out)["path"] == "A"  # the greedy route
    code, out, _ = cli("exact", "first-run", *racer, "--path", "C")
    assert code == 0 and "start path C" in out.splitlines()[0]


def test_a_name_prefix_picks_the_one_character_it_starts(
    cli: Cli,
) -> None:
    argv = ["race", "first-run", "--players", "2", "--characters", "fu,THE", "--json"]
    code, out, _ = cli(*argv)
    assert code == 0
    assert [c.split(",")[0] for c in json.loads(out)["characters"]] == ["Fulmergh", "The Troll"]


def _hostile_paths(tmp_path: Path, suffix: str) -> dict[str, str]:
    os.mkfifo(tmp_path / f"pipe{suffix}")
    (tmp_path / f"a{suffix}").symlink_to(tmp_path / f"b{suffix}")
    (tmp_path / f"b{suffix}").symlink_to(tmp_path / f"a{suffix}")
    (tmp_path / f"dir{suffix}").mkdir()
    return {
        "pipe": str(tmp_path / f"pipe{suffix}"),
        "loop": str(tmp_path / f"a{suffix}"),
        "folder": str(tmp_path / f"dir{suffix}"),
        "long": str(tmp_path / ("x" * 5000 + suffix)),
        "nul": f"{tmp_path}/t\x00{suffix}",
        "escape": f"{tmp_path}/\x1b[2J{suffix}",
    }


@pytest.mark.parametrize("kind", ["pipe", "loop", "folder", "long", "nul", "escape"])
def test_hostile_paths_in_every_place_a_path_goes(cli: Cli, tmp_path: Path, kind: str) -> None:
    path = _hostile_paths(tmp_path, ".toml")[kind]
    picture = _hostile_paths(tmp_path, ".svg")[kind]
    folder = _hostile_paths(tmp_path, "")[kind]
    track = tmp_path / "t.toml"
    track.write_text('name = "t"\ntileset = ' + json.dumps(path) + "\n")
    for argv in (
        ["show", path],
        ["validate", "first-run", "--tileset", path],
        ["validate", str(track)],
        ["export", "first-run", "-o", path, "--force"],
        ["render", "first-run", "-o", picture, "--force"],
        ["tiles", "--tileset", folder],
        ["simulate", "first-run", "--content", path, "--races", "5"],
    ):
        if kind == "escape" and argv[0] in ("export", "render"):
            # an odd but legal name to write to: written, and shown escaped
            code, out, _ = cli(*argv)
            assert code == 0 and "\x1b" not in out and "\\x1b[2J" in out
            continue
        line = _refused(cli, *argv)
        assert "\x00" not in line and "\x1b" not in line
        if kind == "long":
            assert len(line) < 600  # the name is shortened for display
    # exporting copies the tileset path without reading it: a correct result, or refused
    code, _, err = cli("export", str(track), "-o", str(tmp_path / "out.toml"))
    assert code in (0, 2) and "Traceback" not in err


def test_a_named_pipe_in_a_tile_folder_does_not_hang_tiles(cli: Cli, tile_folder: Path) -> None:
    os.mkfifo(tile_folder / "tile-11.toml")
    assert "tile-11.toml: is a named pipe" in _refused(cli, "tiles", "--tileset", str(tile_folder))


def test_validate_never_prints_a_control_character(cli: Cli, tmp_path: Path) -> None:
    track = tmp_path / "t.toml"
    track.write_text('name = "t"\ntileset = "sets\\u0000mine"\n')
    assert "tileset" in _refused(cli, "validate", str(track))
    track.write_text('name = "t\\u001b[31m"\n')
    assert "control character" in _refused(cli, "validate", str(track))


def test_a_deck_that_cannot_sustain_the_race_is_refused(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "box"
    shutil.copytree(
        Path(__file__).resolve().parents[1] / "trackkit" / "games" / "yummell" / "data",
        folder,
        ignore=shutil.ignore_patterns("*.py", "__*"),
    )
    numbers = ", ".join(str(1 + i % 8) for i in range(20))
    (folder / "deck.toml").write_text(
        'reconstructed = true\nprovenance = "a test deck"\n[[cards]]\nname = "Toad"\n'
        f'type = "creature"\ncharacteristic = "strength"\nchallenge = 3\nnumbers = [{numbers}]\n'
    )
    argv = ["simulate", "first-run", "--content", str(folder), "--races", "20"]
    assert "needs at least 64" in _refused(cli, *argv, "--players", "8")
    code, out, _ = cli(*argv, "--players", "2", "--json")
    assert code == 0 and json.loads(out)["capped"] == 0


# --- Snow Tails tracks --------------------------------------------------------------------


def test_presets_of_the_second_game(cli: Cli) -> None:
    code, out, _ = cli("presets", "--game", "snowtails", "--json")
    assert code == 0
    assert [r["slug"] for r in json.loads(out)] == [
        "husky-oval",
        "long-trail",
        "reversed-ridge",
        "chicane",
    ]


def test_show_and_validate_a_snowtails_track(cli: Cli, tmp_path: Path) -> None:
    code, out, _ = cli("show", "chicane", "--json")
    assert code == 0 and json.loads(out)["game"] == "snowtails"
    code, out, _ = cli("validate", "long-trail")  # legal, against a guideline: said as --json
    assert (code, out.strip().splitlines()) == (
        0,
        [
            "Long trail: valid.",
            "1 guideline not followed (legal all the same):",
            "  [building-count] buildings: the track has 4 building(s); the rulebook suggests "
            "2 or 3 per track (F).",
        ],
    )
    code, out, _ = cli("validate", "long-trail", "--json")
    assert [w["code"] for w in json.loads(out)["warnings"]] == ["building-count"]
    from trackkit.games.snowtails.core.presets import preset_text

    broken = tmp_path / "broken.toml"  # a building on the edge lane of its straight
    broken.write_text(preset_text("long-trail").replace("lanes = [2, 3]", "lanes = [1, 2]", 1))
    code, out, _ = cli("validate", str(broken), "--json")
    data = json.loads(out)
    assert code == 1 and data["game"] == "snowtails" and not data["ok"]
    assert "building-on-edge-lane" in [p["code"] for p in data["problems"]]
    code, out, _ = cli("validate", str(broken))
    assert code == 1 and "[building-on-edge-lane]" in out


def test_simulate_a_snowtails_track(cli: Cli) -> None:
    argv = ("simulate", "husky-oval", "--players", "4", "--races", "600", "--seed", "3")
    code, out, _ = cli(*argv, "--json")
    data = json.loads(out)
    assert code == 0 and data["game"] == "snowtails" and data["players"] == 4
    assert [row["entries"] for row in data["start_slots"]] == [600] * 4
    assert sum(row["win_rate"] for row in data["start_slots"]) >= 1.0  # ties share a win
    assert data["per_race"]["trees"]["mean"] > 0
    assert 0 <= data["per_race"]["decided_last_round"]["mean"] <= 1
    assert sum(row["trees_per_race"] for row in data["collisions"]) * 600 == pytest.approx(
        data["per_race"]["trees"]["mean"] * 600
    )
    code, out, _ = cli(*argv)
    assert code == 0 and "Start slot" in out and "Trees hit" in out
    assert "starting dogs 2+2" in out


def test_race_a_snowtails_track(cli: Cli) -> None:
    code, out, _ = cli("race", "chicane", "--players", "3", "--seed", "5", "--json")
    data = json.loads(out)
    assert code == 0 and sorted(data["placings"])[0] == 1
    assert data["turns"][0]["round"] == 1
    code, out, _ = cli("race", "chicane", "--players", "3", "--seed", "5")
    assert code == 0 and out.startswith(f"Chicane, seed 5: {data['rounds']} rounds")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("simulate", "husky-oval", "--characters", "Flamm"), "--characters is not an option"),
        (("simulate", "husky-oval", "--no-encounters"), "--no-encounters is not an option"),
        (("simulate", "first-run", "--starting-dogs", "3"), "--starting-dogs is not an option"),
        (("simulate", "husky-oval", "--players", "1"), "Snow Tails races 2 to 8 sleds, not 1"),
        (("simulate", "husky-oval", "--policy", "sneaky"), "unknown policy 'sneaky'"),
        (("simulate", "husky-oval", "--starting-dogs", "5"), "valued 1 to 4"),
        (("exact", "husky-oval"), "`trackkit exact` is for Yummell tracks"),
        (("next", "chicane"), "`trackkit next` is for Yummell tracks"),
        (("show", "chicane", "--tileset", "tiles"), "--tileset is for tile tracks"),
        (("validate", "chicane", "--partial"), "--partial is for tile tracks"),
        (("show", "no-such-track"), "Mush! Mush! Snow Tails 2: husky-oval"),
    ],
)
def test_snowtails_refusals_are_one_line(cli: Cli, argv: tuple[str, ...], message: str) -> None:
    code, out, err = cli(*argv)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_export_a_snowtails_preset_to_a_file_that_reads_back(cli: Cli, tmp_path: Path) -> None:
    target = tmp_path / "mine.toml"
    assert cli("export", "reversed-ridge", "-o", str(target))[0] == 0
    code, out, _ = cli("show", str(target), "--json")
    assert code == 0 and json.loads(out)["name"] == "Reversed ridge"
    assert cli("export", "reversed-ridge", "-o", str(target))[0] == 2  # kept


def test_compare_the_snowtails_demo_tracks_with_a_file(cli: Cli, tmp_path: Path) -> None:
    from trackkit.games.snowtails.core.presets import preset_text

    mine = tmp_path / "mine.toml"
    mine.write_text(preset_text("chicane").replace('name = "Chicane"', 'name = "My chicane"'))
    argv = ("compare", "chicane", "husky-oval", str(mine), "--races", "300", "--players", "3")
    code, out, _ = cli(*argv, "--seed", "2", "--json")  # the game comes from the tracks
    data = json.loads(out)
    rows = data["tracks"]
    assert code == 0 and len(rows) == 3  # the tracks named, not every preset
    assert [r["rank"] for r in rows] == [1, 2, 3]
    assert [r["mean_rounds"] for r in rows] == sorted(
        (r["mean_rounds"] for r in rows), reverse=True
    )
    by_name = {r["name"]: r for r in rows}
    # the same track under another name races the same races
    assert by_name["My chicane"]["mean_rounds"] == by_name["Chicane"]["mean_rounds"]
    assert all(0 <= r["slot_spread"] <= 1 and 0 <= r["last_round"] <= 1 for r in rows)
    for r in rows:  # every figure inside its own interval
        assert r["slot_spread_low"] <= r["slot_spread"] <= r["slot_spread_high"]
        assert r["unfairness_low"] <= r["unfairness"] <= r["unfairness_high"]
    # a track is never claimed fairer or shorter than its own copy: the same races
    for claim in data["orderings"]:
        assert {claim["better"], claim["worse"]} != {"Chicane", "My chicane"}
    groups = data["tie_groups"]["unfairness"]
    assert any({"Chicane", "My chicane"} <= set(group) for group in groups)
    code, _, err = cli("compare", str(mine), "--game", "yummell")
    assert code == 2 and "compare tracks of one game" in err


def test_compare_yummell_tracks_profiles_each_with_one_seed(cli: Cli, tmp_path: Path) -> None:
    from trackkit.games.yummell.core.presets import load_preset

    mine = tmp_path / "mine.toml"
    mine.write_text(load_preset("forest-run").to_toml().replace("Forest run", "My forest"))
    argv = ("compare", "forest-run", str(mine), "--races", "300", "--players", "3", "--seed", "1")
    code, out, _ = cli(*argv, "--json")
    data = json.loads(out)
    rows = data["tracks"]
    assert code == 0 and len(rows) == 2
    assert data["orderings"] == []  # a track and its copy: nothing to claim
    for row in rows:
        assert row["ci95"][0] <= row["mean_rounds"] <= row["ci95"][1]
        assert row["balance_low"] <= row["balance"] <= row["balance_high"]
        assert row["unfairness_low"] <= row["unfairness"] <= row["unfairness_high"]
        assert row["character_tilt_low"] <= row["character_tilt"] <= row["character_tilt_high"]
        assert row["tilted_low"] <= row["tilted_difference"] <= row["tilted_high"]
        assert row["character_tilt"] == abs(row["tilted_difference"])
        assert sorted(row["path_rounds"]) == ["A", "B", "C"]
        spread = max(row["path_rounds"].values()) - min(row["path_rounds"].values())
        assert row["path_spread"] == pytest.approx(spread)
        assert row["character_rounds_spread"] > 0
    by_name = {r["name"]: r for r in rows}
    # the same track under another name: the same races (one seed), the same figures
    assert {k: v for k, v in by_name["My forest"].items() if k not in ("key", "name", "rank")} == {
        k: v for k, v in by_name["Forest run"].items() if k not in ("key", "name", "rank")
    }
    code, out, _ = cli(*argv)
    assert code == 0 and "Fairness: unfairness in points" in out
    assert "My forest" in out.split("Fairness")[1]
    assert "Forest run = My forest (tied)" in out or "My forest = Forest run (tied)" in out


@pytest.mark.slow  # a comparison with its skill: about 1.8 s (the quick loop's budget)
def test_compare_races_exactly_the_tracks_named_each_once(cli: Cli, tmp_path: Path) -> None:
    copy = tmp_path / "copy.toml"
    assert cli("export", "chicane", "-o", str(copy))[0] == 0
    argv = ("compare", "chicane", str(copy), "long-trail", "--races", "200", "--players", "3")
    code, out, err = cli(*argv, "--json")
    names = [row["name"] for row in json.loads(out)["tracks"]]
    assert code == 0 and sorted(names) == ["Chicane", "Long trail"]
    assert "is the same track as chicane: compared once" in err
    code, out, _ = cli("compare", "--game", "snowtails", "--races", "200", "--json")
    assert code == 0 and len(json.loads(out)["tracks"]) == 4  # none named: the presets


@pytest.mark.parametrize("track", ["first-run", "husky-oval"])
@pytest.mark.parametrize("suffix", [".svg", ".png", ".html"])
def test_render_draws_either_game_in_each_format(
    cli: Cli, tmp_path: Path, track: str, suffix: str
) -> None:
    target = tmp_path / f"out{suffix}"
    code, out, err = cli("render", track, "-o", str(target))
    assert (code, err) == (0, "") and out.startswith("Wrote ")
    head = target.read_bytes()[:200]
    assert {".svg": b"<?xml", ".png": b"\x89PNG", ".html": b"<html"}[suffix] in head


def test_a_snowtails_tournament_of_three_races(cli: Cli) -> None:
    argv = ("tournament", "husky-oval", "chicane", "long-trail", "--players", "3")
    code, out, _ = cli(*argv, "--tournaments", "400", "--seed", "4", "--json")
    data = json.loads(out)
    assert code == 0 and data["tournaments"] == 400 and len(data["mean_rounds"]) == 3
    slots = data["first_race_slots"]
    assert [row["slot"] for row in slots] == [1, 2, 3]
    assert sum(row["champion_share"] for row in slots) == pytest.approx(1.0)
    # every tournament hands out 10 + 7 + 5 points in each of its three races
    assert sum(row["mean_points"] for row in slots) == pytest.approx(3 * (10 + 7 + 5), rel=0.02)
    assert cli(*argv, "--tournaments", "400", "--seed", "4", "--json")[1] == out
    code, _, err = cli("tournament", "husky-oval", "chicane", "first-run")
    assert code == 2 and "`trackkit tournament` is for Mush! Mush! Snow Tails 2 tracks" in err


def test_a_games_own_command_lists_only_the_flags_it_accepts() -> None:
    from trackkit.cli.parser import build_parser
    from trackkit.cli.races import game_options
    from trackkit.games.face import get_face

    parser = build_parser()
    [commands] = [a for a in parser._actions if a.dest == "command"]
    tournament = commands.choices["tournament"].format_help()
    snow = {option.name for option in get_face("snowtails").options}
    for game, option in game_options().values():  # was every Yummell flag, then refused
        assert (option.flag in tournament) == (game == "snowtails" or option.name in snow)
    assert "Yummell" not in tournament
    assert "--players PLAYERS     Mush! Mush! Snow Tails 2 2-8 (default 5)" in tournament
    assert "--deck" in commands.choices["simulate"].format_help()  # the shared ones: all
