"""Fuzz the command line in-process: hostile arguments, hostile paths and mutated track,
tile and content files for every command.

Whatever it is given, ``trackkit`` exits 0, 1 or 2, never prints a traceback, and on exit 2
writes exactly one printable line starting ``trackkit: error:``. An alarm turns a hang
into a failure. Races are kept tiny (a few races, two players) so the file runs in well
under a minute once the engine is compiled; the runs are derandomized, so CI sees the same
inputs every time.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.timeouts import within
from trackkit.cli import main
from trackkit.games.tilekit.tiles import bundled_tiles_folder
from trackkit.games.yummell.core.presets import PRESET_SLUGS

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "trackkit" / "games" / "yummell" / "data"
PRESETS = ROOT / "trackkit" / "games" / "yummell" / "tracks"
SNOW_CONTENT = ROOT / "trackkit" / "games" / "snowtails" / "data"
SNOW_PRESETS = ROOT / "trackkit" / "games" / "snowtails" / "tracks"
SECONDS_PER_RUN = 120  # generous for a loaded machine; a hang is caught, not waited out
IGNORE = shutil.ignore_patterns("*.py", "__*")


# --- running the CLI ----------------------------------------------------------------------


def run_cli(argv: list[str], seconds: int | None = SECONDS_PER_RUN) -> tuple[int, str, str]:
    """``trackkit argv`` in this process: exit code, stdout, stderr.

    stdout encodes strictly, as a UTF-8 terminal or pipe does, so printing an unencodable
    path (a file name that is not UTF-8) fails here as it would for a user.
    """
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict", write_through=True)
    err = io.TextIOWrapper(
        io.BytesIO(), encoding="utf-8", errors="backslashreplace", write_through=True
    )
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            with within(seconds) if seconds else contextlib.nullcontext():
                code = main(argv)
        except SystemExit as stop:  # argparse: usage errors and --help
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 2)
    text = [stream.buffer.getvalue().decode("utf-8") for stream in (out, err)]  # type: ignore[attr-defined]
    return code, text[0], text[1]


def check(argv: list[str]) -> tuple[int, str, str]:
    code, out, err = run_cli(argv)
    shown = f"argv={argv!r}\nexit={code}\nstdout={out[-2000:]!r}\nstderr={err[-2000:]!r}"
    assert code in (0, 1, 2), shown
    assert "Traceback" not in err and "Traceback" not in out, shown
    if code == 2:
        assert err.startswith("trackkit: error:"), shown
        assert err.endswith("\n") and err.count("\n") == 1, shown
        assert err[:-1].isprintable(), shown
    return code, out, err


# --- the material: files, paths, values ---------------------------------------------------


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with hostile paths, copies of the bundled data, and room for mutants."""
    root = tmp_path_factory.mktemp("fuzz")
    shutil.copytree(bundled_tiles_folder(), root / "tiles", ignore=IGNORE)
    shutil.copytree(CONTENT, root / "content", ignore=IGNORE)
    shutil.copytree(SNOW_CONTENT, root / "snow-content", ignore=IGNORE)
    os.mkfifo(root / "pipe.toml")
    os.mkfifo(root / "pipe.svg")
    (root / "loop-a.toml").symlink_to(root / "loop-b.toml")
    (root / "loop-b.toml").symlink_to(root / "loop-a.toml")
    (root / "folder.toml").mkdir()
    (root / "existing.toml").write_text("keep me")
    return root


@pytest.fixture(scope="module")
def compiled() -> None:
    """Compile (or load) the race engine and the exact solver outside the alarm."""
    assert run_cli(["race", "first-run", "--players", "2", "--seed", "1"], seconds=None)[0] == 0
    argv = ["exact", "first-run", "--character", "0", "--advantage", "0", "--no-encounters"]
    assert run_cli(argv, seconds=None)[0] == 0


@pytest.fixture(scope="module")
def snow_compiled() -> None:
    """Compile (or load) the Snow Tails engine outside the alarm."""
    assert run_cli(["race", "husky-oval", "--players", "2", "--seed", "1"], seconds=None)[0] == 0


def _hostile_paths(root: Path, suffix: str) -> list[str]:
    return [
        str(root / f"pipe{suffix}"),
        str(root / "loop-a.toml"),
        str(root / "folder.toml"),
        str(root / ("x" * 5000 + suffix)),
        f"{root}/nul\x00{suffix}",
        f"{root}/\x1b[2J{suffix}",
        f"{root}/\udcff{suffix}",  # a file name that is not UTF-8, as Python sees it
        f"{root}/no/such/folder/t{suffix}",
        "/dev/zero",
        "",
        "-",
    ]


NUMBERS = st.one_of(
    st.integers(-3, 12).map(str),
    st.sampled_from(
        [
            "0",
            "-1",
            "10" + "0" * 40,
            "99999999999999999999",
            "9" * 5000,
            str(2**64),
            str(2**64 - 1),
            "²",
            "١٢",
            "1e3",
            "0x10",
            " 3 ",
            "",
            "nan",
            "1_000",
            "+2",
        ]
    ),
    st.text(max_size=5),
)
NAMES = st.one_of(
    st.sampled_from(
        [
            *("f", "", " ", "fu", "the", "0", "7", "8", "²", "Flamm", ",", "0,1", "fu,the"),
            *("1,1", "x" * 5000, "\x00", "\x1b[31m", "\udcff", "Flamm, swamp dragon", "clim,her"),
        ]
    ),
    st.text(max_size=8),
)
_VALUES = st.sampled_from(
    [
        *('"x"', '""', "7", "-1", "0", "3.5", "inf", "true", "[]", "[1, 2]", "{ a = 1 }"),
        *("1979-05-27", '"plain"', '"\\u0000"', "9" * 40, "[" * 1200 + "]" * 1200, "99", "360"),
    ]
)
_VALUE = re.compile(rb"=\s*(\"[^\"\n]*\"|[^,}\]\n]+)")


@st.composite
def mutations(draw: st.DrawFn, original: bytes) -> bytes:
    """Delete or duplicate lines, retype values, truncate, insert bytes."""
    data = original
    for _ in range(draw(st.integers(1, 3))):
        lines = data.splitlines(keepends=True) or [b""]
        edit = draw(st.sampled_from(["delete", "duplicate", "retype", "truncate", "bytes"]))
        if edit in ("delete", "duplicate"):
            i = draw(st.integers(0, len(lines) - 1))
            lines[i : i + 1] = [] if edit == "delete" else [lines[i], lines[i]]
            data = b"".join(lines)
        elif edit == "retype" and (spots := list(_VALUE.finditer(data))):
            spot = spots[draw(st.integers(0, len(spots) - 1))]
            data = data[: spot.start(1)] + draw(_VALUES).encode() + data[spot.end(1) :]
        elif edit == "truncate":
            data = data[: draw(st.integers(0, len(data)))]
        else:
            at = draw(st.integers(0, len(data)))
            data = data[:at] + draw(st.binary(min_size=1, max_size=6)) + data[at:]
    return data


def _mutant_track(data: st.DataObject, place: Path) -> str:
    source = data.draw(st.sampled_from(sorted(PRESETS.glob("*.toml"))))
    path = place / "mutant.toml"
    path.write_bytes(data.draw(mutations(source.read_bytes()), label="mutant"))
    return str(path)


def _track(data: st.DataObject, place: Path) -> str:
    kind = data.draw(
        st.sampled_from(["preset", "preset", "mutant", "mutant", "hostile", "text"]), label="track"
    )
    if kind == "preset":
        return data.draw(st.sampled_from(PRESET_SLUGS))
    if kind == "mutant":
        return _mutant_track(data, place)
    if kind == "hostile":
        return data.draw(st.sampled_from(_hostile_paths(place, ".toml")))
    return data.draw(st.text(max_size=30))


def _tileset(data: st.DataObject, place: Path) -> list[str]:
    kind = data.draw(
        st.sampled_from(["none", "none", "copy", "mutant", "hostile"]), label="tileset"
    )
    if kind == "none":
        return []
    folder = place / "tiles-mutant"
    if kind == "mutant":
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(place / "tiles", folder)
        tile = data.draw(st.sampled_from(sorted(folder.glob("*.toml"))))
        tile.write_bytes(data.draw(mutations(tile.read_bytes()), label="tile mutant"))
        return ["--tileset", str(folder)]
    if kind == "copy":
        return ["--tileset", str(place / "tiles")]
    return ["--tileset", data.draw(st.sampled_from(_hostile_paths(place, "")))]


def _content(data: st.DataObject, place: Path, *, mutate: bool) -> list[str]:
    kinds = ["none", "copy", "hostile", *(["mutant"] if mutate else [])]
    kind = data.draw(st.sampled_from(kinds), label="content")
    if kind == "none":
        return []
    if kind == "copy":
        return ["--content", str(place / "content")]
    if kind == "hostile":
        return ["--content", data.draw(st.sampled_from(_hostile_paths(place, "")))]
    folder = place / "content-mutant"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(place / "content", folder)
    file = folder / data.draw(st.sampled_from(["deck.toml", "characters.toml", "advantages.toml"]))
    file.write_bytes(data.draw(mutations(file.read_bytes()), label="content mutant"))
    return ["--content", str(folder)]


def _maybe(data: st.DataObject, *options: list[str]) -> list[str]:
    argv: list[str] = []
    for option in options:
        if data.draw(st.booleans()):
            argv += option
    return argv


def _race_options(data: st.DataObject, place: Path) -> list[str]:
    players = data.draw(
        st.sampled_from(["1", "2", "0", "9", "x", "²", "-1", "99999999999999999999"])
    )
    return [
        "--players",
        players,
        *_maybe(
            data,
            ["--seed", data.draw(NUMBERS)],
            ["--characters", data.draw(NAMES)],
            ["--advantages", data.draw(NAMES)],
            ["--policy", data.draw(st.sampled_from(["greedy", "smart", "smart,greedy", "", ","]))],
            ["--deck", data.draw(st.sampled_from(["finite", "infinite", "tarot"]))],
            ["--no-encounters"],
            ["--json"],
        ),
        *_content(data, place, mutate=True),
    ]


def _argv(data: st.DataObject, place: Path, command: str) -> list[str]:
    if command == "presets":
        return ["presets", *_maybe(data, ["--json"], [data.draw(NAMES)])]
    if command == "tiles":
        return ["tiles", *_tileset(data, place), *_maybe(data, ["--json"])]
    if command == "space":
        players = data.draw(st.sampled_from(["2", "3", "0", "9", "x", "²", "", "10" * 30]))
        return ["space", "--players", players, *_tileset(data, place)]
    argv = [command, _track(data, place), *_tileset(data, place)]
    if command in ("show", "validate", "next"):
        players = ["--players", data.draw(st.one_of(st.sampled_from(["2", "5", "8"]), NUMBERS))]
        return argv + _maybe(
            data, players, ["--partial"] if command == "validate" else [], ["--json"]
        )
    if command in ("export", "render"):
        suffix = ".toml" if command == "export" else ".svg"
        fresh = str(place / f"out-{data.draw(st.integers(0, 10**9))}{suffix}")
        outputs = [fresh, str(place / f"existing{suffix}"), *_hostile_paths(place, suffix)]
        output = data.draw(
            st.sampled_from([*outputs, "x.gif", "out.html" if suffix == ".svg" else "o"])
        )
        if output == "out.html":
            output = str(place / f"out-{data.draw(st.integers(0, 10**9))}.html")
        return [*argv, "-o", output, *_maybe(data, ["--force"], ["--json"])]
    if command == "simulate":
        races = data.draw(st.sampled_from(["1", "5", "0", "-5", "x", "10000001", "²"]))
        workers = data.draw(st.sampled_from(["1", "0", "1000", "-1", "x"]))
        workers_option = _maybe(data, ["--workers", workers])
        return [*argv, "--races", races, *workers_option, *_race_options(data, place)]
    if command == "race":
        return argv + _race_options(data, place)
    if command == "exact":
        # one character and advantage each: the average over all 64 pairs is slow work
        return [
            *argv,
            "--character",
            data.draw(NAMES),
            "--advantage",
            data.draw(NAMES),
            *_maybe(data, ["--no-encounters"], ["--json"]),
            *_content(data, place, mutate=False),
        ]
    raise AssertionError(command)


def _tame_race_argv(data: st.DataObject, place: Path, command: str) -> list[str]:
    """Valid options around a preset or a mutated track and content: runs that get to race
    (hostile options alone would stop almost every run at the first bad one)."""
    track = data.draw(st.sampled_from(PRESET_SLUGS)) if data.draw(st.booleans()) else None
    track = track or _mutant_track(data, place)
    if command == "exact":
        character = data.draw(st.sampled_from(["0", "fu", "the", "Flamm", "7"]))
        advantage = data.draw(st.sampled_from(["0", "clim", "her", "3"]))
        options = _maybe(data, ["--no-encounters"], ["--json"])
        return [command, track, "--character", character, "--advantage", advantage, *options]
    players = data.draw(st.integers(1, 3))

    def some(pool: list[str]) -> str:
        return ",".join(data.draw(st.permutations(pool))[:players])

    argv = [command, track, "--players", str(players), "--seed", str(data.draw(SEEDS))]
    argv += _maybe(
        data,
        ["--characters", some(["0", "fu", "the", "3", "Character 8"])],
        ["--advantages", some(["0", "clim", "her", "5"])],
        ["--policy", data.draw(st.sampled_from(["greedy", "smart"]))],
        ["--deck", data.draw(st.sampled_from(["finite", "infinite"]))],
        ["--no-encounters"],
        ["--json"],
    )
    argv += _content(data, place, mutate=True)
    if command == "simulate":
        argv += ["--races", data.draw(st.sampled_from(["1", "5", "20"]))]
    return argv


SEEDS = st.one_of(st.integers(0, 1000), st.just(2**64 - 1))
COMMANDS = ["presets", "tiles", "show", "validate", "next", "export", "render", "space"]
RACE_COMMANDS = ["simulate", "race", "exact"]
FUZZ = settings(
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.slow  # 300 hostile inputs: about 10 s
@settings(FUZZ, max_examples=300)
@given(data=st.data())
def test_every_board_command_survives_hostile_input(place: Path, data: st.DataObject) -> None:
    command = data.draw(st.sampled_from(COMMANDS), label="command")
    event(f"{command}: exit {check(_argv(data, place, command))[0]}")


@pytest.mark.slow  # 200 hostile inputs, some raced: about 7 s
@settings(FUZZ, max_examples=200)
@given(data=st.data())
def test_every_race_command_survives_hostile_input(
    place: Path, compiled: None, data: st.DataObject
) -> None:
    command = data.draw(st.sampled_from(RACE_COMMANDS), label="command")
    tame = data.draw(st.booleans(), label="tame")
    argv = _tame_race_argv(data, place, command) if tame else _argv(data, place, command)
    event(f"{command}{' (tame)' if tame else ''}: exit {check(argv)[0]}")


@settings(FUZZ, max_examples=8)
@given(
    races=st.sampled_from(["5", "0", "x", "10000001"]),
    players=st.sampled_from(["2", "0", "9"]),
    extra=st.sampled_from(["first-run.toml", "\x00", "x" * 5000 + ".toml", "/dev/zero", "-"]),
)
def test_compare_refuses_hostile_input_before_working(races: str, players: str, extra: str) -> None:
    # compare solves the exact column of all six presets (minutes): only input it refuses
    # before that work is fuzzed here
    assert check(["compare", extra, "--races", races, "--players", players])[0] == 2


def test_the_fuzzer_reaches_both_outcomes(place: Path) -> None:
    """The generators are not all refused: a preset is shown, a hostile path refused."""
    assert check(["show", "first-run"])[0] == 0
    assert check(["show", f"{place}/pipe.toml"])[0] == 2
    assert check(["validate", "first-run", "--players", "2"])[0] == 1


# --- Snow Tails: track files and content folders -------------------------------------------

SNOW_SLUGS = sorted(p.stem for p in SNOW_PRESETS.glob("*.toml"))
# what a hostile Snow Tails file appends: buildings and positions far off any board, and
# boards of many or long segments
_SNOW_EXTRAS = [
    '\n[[buildings]]\nkind = "chapel"\nsegment = "back"\nlanes = [2, 3]\nrows = [3, 100000000]\n',
    '\n[[buildings]]\nkind = "bothy"\nsegment = "home"\nlanes = [2, 2147483648]\nrows = [1, 2]\n',
    '\n[[buildings]]\nkind = "kennels"\nsegment = "home"\nlanes = [-3, 2]\nrows = [-9, 2]\n',
    '\n[[buildings]]\nkind = "tavern"\nsegment = "back"\nside = "left"\nrows = [0, 59]\n',
    "".join(f'\n[[segments]]\nid = "x{i}"\nrows = 60\n' for i in range(60)),
    "".join(f'\n[[segments]]\nid = "y{i}"\nrows = {i % 70}\nlanes = {i % 11}\n' for i in range(8)),
]


def _snow_track(data: st.DataObject, place: Path) -> str:
    kind = data.draw(st.sampled_from(["preset", "mutant", "mutant", "extra"]), label="snow track")
    if kind == "preset":
        return data.draw(st.sampled_from(SNOW_SLUGS))
    source = (SNOW_PRESETS / f"{data.draw(st.sampled_from(SNOW_SLUGS))}.toml").read_bytes()
    if kind == "extra":
        source += data.draw(st.sampled_from(_SNOW_EXTRAS)).encode()
    path = place / "snow-mutant.toml"
    path.write_bytes(data.draw(mutations(source), label="snow mutant"))
    return str(path)


def _snow_content(data: st.DataObject, place: Path) -> list[str]:
    kind = data.draw(st.sampled_from(["none", "copy", "mutant", "mutant", "hand"]), label="box")
    if kind == "none":
        return []
    if kind == "copy":
        return ["--content", str(place / "snow-content")]
    folder = place / "snow-content-mutant"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(place / "snow-content", folder)
    if kind == "hand":  # a hand the engine cannot play with, or one it can
        deck = folder / "deck.toml"
        size = data.draw(st.integers(0, 9))
        deck.write_text(deck.read_text("utf-8").replace("hand_size = 5", f"hand_size = {size}"))
    else:
        file = folder / data.draw(st.sampled_from(["deck.toml", "components.toml"]))
        file.write_bytes(data.draw(mutations(file.read_bytes()), label="snow content mutant"))
    return ["--content", str(folder)]


@pytest.mark.slow  # 150 hostile inputs, some raced: about 5 s
@settings(FUZZ, max_examples=150)
@given(data=st.data())
def test_every_snowtails_command_survives_hostile_input(
    place: Path, snow_compiled: None, data: st.DataObject
) -> None:
    """Mutated Snow Tails track files (huge spans, negative numbers, wrong types, many
    segments) and content folders (deck, hand size, components): shown, validated or raced
    (two sleds, a few races), or refused in one line, within the alarm."""
    command = data.draw(st.sampled_from(["show", "validate", "simulate", "race"]), label="command")
    argv = [command, _snow_track(data, place)]
    if command in ("simulate", "race"):
        argv += ["--players", data.draw(st.sampled_from(["2", "3"])), "--seed", "1"]
        argv += _snow_content(data, place)
        if command == "simulate":
            argv += ["--races", data.draw(st.sampled_from(["1", "3"]))]
    argv += _maybe(data, ["--json"])
    event(f"snowtails {command}: exit {check(argv)[0]}")
