"""``trackkit tune`` from the command line: on the bundled content and a named one, the
report as text and JSON, the exit code saying whether the targets were met, a run asked
again resumed, and bad tune files in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Cli

TUNE = """
[balance]
tracks = ["first-run"]
players = [2, 3]
races = 200

[targets]
win_share = {tolerance}
scope = "all"

[search]
budget = 2

[[move]]
file = "characters.toml"
entry = "Character 6"
field = "magic"
low = 1
high = 8
"""


def _tune_file(tmp_path: Path, tolerance: float = 0.3) -> str:
    path = tmp_path / "tune.toml"
    path.write_text(TUNE.format(tolerance=tolerance))
    return str(path)


def test_a_tune_of_the_bundled_content_writes_its_folder_and_report(
    cli: Cli, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    code, text, err = cli("tune", _tune_file(tmp_path), "-o", str(out), "--confirm-races", "2000")
    assert code == 0 and not err  # met: every character within ±30 points on average
    assert text.startswith(f"# Tune: {tmp_path / 'tune.toml'}")
    assert "Every target met in the confirmation: 2,000 races" in text
    # the content as it was meets the target: the search stops at once
    assert "Search: 1 candidate raced; stopped because a candidate met every target" in text
    assert "Nothing: the starting content is the best found." in text
    assert sorted(p.name for p in (out / "content").iterdir()) == [
        "advantages.toml",
        "characters.toml",
        "deck.toml",
    ]
    assert (out / "report.md").read_text().strip() == text.strip()


@pytest.mark.slow
def test_the_json_report_and_a_run_asked_again_resumed(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "out"
    argv = (
        "tune",
        _tune_file(tmp_path, 0.01),
        "-o",
        str(out),
        "--confirm-races",
        "100000",
        "--json",
    )
    code, text, _ = cli(*argv)
    first = json.loads(text)
    assert code == 1 and first["met"] is False  # ±1 point on First run: not met
    assert first["evaluated"] == 2 and first["targets"]["win_share"] == 0.01
    assert first["confirmation"] == {"races": 100_000, "seed": 1}
    assert {"before", "after", "before_ci95", "after_ci95", "label", "where"} <= set(
        first["shares"][0]
    )
    assert first["lengths"][0]["track"] == "first-run"
    code, text, _ = cli(*argv[:-1], "--budget", "4", "--json")
    again = json.loads(text)
    assert again["evaluated"] == 4 and again["history"][:2] == first["history"]


def test_a_named_bundled_content_starts_the_tune(cli: Cli, tmp_path: Path) -> None:
    code, text, _ = cli(
        "tune", _tune_file(tmp_path), "-o", str(tmp_path / "o"), "--content", "hand-made", "--json"
    )
    assert code == 0 and json.loads(text)["start_content"].endswith("hand_made")


def test_bad_tune_files_get_one_line(cli: Cli, tmp_path: Path) -> None:
    path = Path(_tune_file(tmp_path))
    cases = {
        'entry = "Character 6"': ('entry = "Gandalf"', "no entry with name 'Gandalf'"),
        "low = 1": ("low = 9", "impossible bounds: low 9 is above high 8"),
        "win_share = 0.3": ("win_share = 0.001", "cannot be told from luck"),
        'file = "characters.toml"': ('file = "heroes.toml"', "no file 'heroes.toml'"),
    }
    for old, (new, says) in cases.items():
        path.write_text(TUNE.format(tolerance=0.3).replace(old, new))
        code, out, err = cli("tune", str(path), "-o", str(tmp_path / "never"))
        assert code == 2 and not out
        assert err.count("\n") == 1 and says in err and err.startswith("trackkit: error: ")
        assert not (tmp_path / "never").exists()  # refused before anything was written


def _refused(cli: Cli, *argv: str) -> str:
    code, out, err = cli("tune", *argv)
    assert code == 2 and not out
    assert err.count("\n") == 1 and err.startswith("trackkit: error: ")
    return err


@pytest.mark.parametrize("name", ["content", "report.json"])
def test_a_tune_never_writes_through_a_link_in_its_folder(
    cli: Cli, tmp_path: Path, name: str
) -> None:
    argv = (_tune_file(tmp_path), "-o", str(tmp_path / "o"), "--confirm-races", "2000")
    assert cli("tune", *argv)[0] == 0
    other = tmp_path / "other"
    if name == "content":  # someone else's folder where the tuned content would go
        other.mkdir()
        (other / "characters.toml").write_text("mine")
        for path in (tmp_path / "o/content").iterdir():
            path.unlink()
        (tmp_path / "o/content").rmdir()
    else:
        other.write_text("mine")
        (tmp_path / "o" / name).unlink()
    (tmp_path / "o" / name).symlink_to(other)
    assert "is a link" in _refused(cli, *argv)
    mine = other / "characters.toml" if name == "content" else other
    assert mine.read_text() == "mine"
    assert not other.is_dir() or [p.name for p in other.iterdir()] == ["characters.toml"]


@pytest.mark.parametrize(
    ("high", "says"),
    [
        (1_000_000_000, "move[1].high: Input should be less than or equal to 10000"),
        (40_000, "move[1].high: Input should be less than or equal to 10000"),
        (5_000, "cards in one deck; the limit is 2,000"),
    ],
)
def test_a_deck_count_that_would_build_huge_content_is_refused_before_racing(
    cli: Cli, tmp_path: Path, high: int, says: str
) -> None:
    path = Path(_tune_file(tmp_path))
    deck = f'\n[[move]]\nfile = "deck.toml"\nentry = "Wind"\nfield = "numbers"\nnumber = 2\nlow = 0\nhigh = {high}\n'
    path.write_text(path.read_text() + deck)
    assert says in _refused(cli, str(path), "-o", str(tmp_path / "never"))
    assert not (tmp_path / "never").exists()


def test_an_output_folder_that_cannot_be_made_is_one_line(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("mine")
    said = _refused(cli, _tune_file(tmp_path), "-o", str(tmp_path / "a-file/sub"))
    assert "a-file/sub: cannot be made" in said
    assert (tmp_path / "a-file").read_text() == "mine"
