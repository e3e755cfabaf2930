"""The build sheet (issue 32 D), read back from its PDF: its text names every piece (every
Yummell tile in placing order with its rotation and the start paths; every Snow Tails
tree, marker and building by segment, lane and row, the start and the finish), the players
it was checked for, its last profile's verdict or "Not profiled.", and the link that
reopens it; the picture is bounded by the drawing limit like every picture."""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.conftest import Cli
from trackkit import limits
from trackkit.app.games.snowtails.common import SNOW_KEY
from trackkit.board.links import MAX_LINK_TEXT, unpack_link
from trackkit.games.snowtails.core.presets import load_preset as load_snow
from trackkit.games.snowtails.core.track import Address
from trackkit.games.yummell.core.presets import load_preset
from trackkit.report.sheet import (
    DEFAULT_APP,
    NOT_PROFILED,
    LastProfile,
    ProfileFileError,
    read_profile,
    sheet_pdf,
    track_sheet,
)


def text_of(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def unbroken(text: str) -> str:
    """The text without its line breaks and spaces (a long link is wrapped anywhere)."""
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def king() -> str:
    return text_of(sheet_pdf(load_preset("king-of-toads"), players=5))


def test_a_yummell_sheet_names_every_tile_in_placing_order_with_its_rotation(king: str) -> None:
    track = load_preset("king-of-toads")
    lines = king.splitlines()
    found = []
    for n, p in enumerate(track.placements, 1):
        row = rf"^{n} {p.tile} (start|finish|straight|curve) \({p.x}, {p.y}\) {p.rotation}°$"
        found += [i for i, line in enumerate(lines) if re.match(row, line)]
    assert len(found) == len(track.placements) and found == sorted(found)  # in placing order


def test_a_yummell_sheet_marks_the_start_paths(king: str) -> None:
    assert "Start paths (3)" in king
    for letter, mp in (("A", 103), ("B", 105), ("C", 104)):  # as `trackkit show` gives them
        assert re.search(rf"^{letter} {letter.lower()}1 \d+ {mp}$", king, re.MULTILINE)


def test_a_sheet_names_the_players_the_verdict_and_the_link(king: str) -> None:
    track = load_preset("king-of-toads")
    assert "Checked for 5 players: obeys every track rule" in king
    assert f"Last profile\n{NOT_PROFILED}" in king
    link = track_sheet(track).link(DEFAULT_APP)
    assert link.startswith(f"{DEFAULT_APP}/design?track=")
    assert link in unbroken(king)
    # the link holds the track itself
    assert unpack_link(link.partition("track=")[2]) == track.to_toml()


def test_without_a_count_the_sheet_names_the_counts_the_building_rule_allows() -> None:
    text = " ".join(text_of(sheet_pdf(load_preset("king-of-toads"), picture=False)).split())
    assert "Checked for 5 players: obeys every track rule, the building rule" in text
    tutorial = " ".join(text_of(sheet_pdf(load_preset("first-run"), picture=False)).split())
    assert "the building rule holds for none of them; without it, obeys every" in tutorial


def long_trail_with_markers():
    track = load_snow("long-trail")
    markers = (Address("valley", 1, 0), Address("hairpin", 5, 10), Address("ridge", 3, 11))
    return replace(track, markers=markers)


def test_a_snow_tails_sheet_names_every_tree_marker_and_building_by_segment_lane_and_row() -> None:
    track = long_trail_with_markers()
    text = text_of(sheet_pdf(track, players=6))
    lines = set(text.splitlines())
    for address in (*track.trees, *track.markers):
        corner = track.segment(address.segment).is_corner
        unit = "space" if corner else "row"
        assert f"{address.segment} {address.lane} {unit} {address.index}" in lines, address
    assert f"Trees ({len(track.trees)})" in text and "Markers (3)" in text
    for building in track.buildings:
        first, last = building.rows
        where = (
            f"lanes {building.lanes[0]} to {building.lanes[1]}"
            if building.lanes
            else f"beside it, {building.side}"
        )
        assert f"{building.name} {building.segment} {where} rows {first} to {last}" in lines
    assert "Start start row 0: one sled a lane, line at its front" in lines
    assert "Finish finish line after row 6, 3 run-off rows beyond it" in lines
    assert "Checked for 6 sleds:" in text
    link = track_sheet(track).link(DEFAULT_APP)
    assert link.startswith(f"{DEFAULT_APP}/snow-design?{SNOW_KEY}=")  # what the page reads
    assert link in unbroken(text)
    assert unpack_link(link.partition("=")[2]) == track.to_toml()


def test_a_snow_tails_sheet_without_a_count_checks_for_any_number_of_sleds() -> None:
    text = " ".join(text_of(sheet_pdf(load_snow("husky-oval"), picture=False)).split())
    assert "Checked for any number of sleds (2 to 8; no track rule depends on it)" in text
    assert "Markers (0)" in text and "None on this track." in text


def test_the_verdict_of_a_profile_is_on_the_sheet() -> None:
    profile = LastProfile("4 players, 2,000 races, seed 0", "A race of 4 lasts 9.9 rounds.")
    text = text_of(sheet_pdf(load_preset("forest-run"), profile=profile, picture=False))
    assert "Last profile (4 players, 2,000 races, seed 0)" in text
    assert "A race of 4 lasts 9.9 rounds." in text and NOT_PROFILED not in text


def write_profile(path: Path, track: str, **changes: object) -> Path:
    data = {"track": track, "players": 3, "races": 500, "seed": 7}
    data["verdict"] = {"length": "A race lasts 8.0 rounds.", "unfairness": "Unfairness 2.0."}
    data.update(changes)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_profile_file_gives_its_verdict_for_its_own_track_only(tmp_path: Path) -> None:
    track = load_preset("forest-run")
    profile = read_profile(write_profile(tmp_path / "p.json", track.name), track)
    assert profile == LastProfile(
        "3 players, 500 races, seed 7", "A race lasts 8.0 rounds. Unfairness 2.0."
    )
    with pytest.raises(ProfileFileError, match="is a profile of 'Other', not of 'Forest run'"):
        read_profile(write_profile(tmp_path / "o.json", "Other"), track)
    with pytest.raises(ProfileFileError, match="holds no profile's verdict"):
        read_profile(write_profile(tmp_path / "r.json", track.name, verdict=None), track)
    with pytest.raises(ProfileFileError, match="is not a profile's verdict"):
        read_profile(write_profile(tmp_path / "n.json", track.name, players="3"), track)
    (tmp_path / "bad.json").write_text('{"track": ', encoding="utf-8")
    with pytest.raises(ProfileFileError, match="is not JSON"):
        read_profile(tmp_path / "bad.json", track)


def test_the_picture_is_on_the_sheet_at_no_more_pixels_than_print_needs() -> None:
    pages = PdfReader(io.BytesIO(sheet_pdf(load_snow("long-trail")))).pages
    (picture,) = pages[0].images
    width, height = picture.image.size
    # 180 mm wide at 300 dpi at most (the PNG download is 2,946 pixels wide)
    assert 1_000 < width <= 2_126 and height <= 1_536


def test_a_picture_over_the_drawing_limit_is_said_and_the_sheet_keeps_its_pieces(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(limits.CANVAS_PIXELS.env, "1000")
    limits.serve_app_limits(True)
    try:
        pdf = sheet_pdf(load_preset("king-of-toads"), players=5)
    finally:
        limits.serve_app_limits(False)
    text = " ".join(text_of(pdf).split())
    assert "The picture is not drawn: the build sheet's picture of" in text
    assert "the limit is 1,000" in text
    assert not PdfReader(io.BytesIO(pdf)).pages[0].images
    assert "Tiles in placing order (7)" in text


def test_a_board_over_the_apps_board_limit_is_listed_but_not_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(limits.BOARD_SPACES.env, "100")
    limits.serve_app_limits(True)
    try:
        text = " ".join(text_of(sheet_pdf(load_snow("husky-oval"), picture=False)).split())
    finally:
        limits.serve_app_limits(False)
    assert "Not checked: " in text and "the limit is 100" in text
    assert "Trees (5)" in text


def test_a_track_too_large_for_a_link_says_so_instead() -> None:
    track = load_preset("forest-run")
    track = replace(track, description="".join(chr(0x4E00 + i) for i in range(6000)))
    assert len(track_sheet(track).query) > MAX_LINK_TEXT
    text = " ".join(text_of(sheet_pdf(track, picture=False)).split())
    assert "This track is too large for a link" in text and "?track=" not in text


def test_export_writes_the_track_file_and_the_sheet(cli: Cli, tmp_path: Path) -> None:
    toml, pdf = tmp_path / "k.toml", tmp_path / "k.pdf"
    profile = write_profile(tmp_path / "p.json", "In honor of the King of Toads")
    argv = ["export", "king-of-toads", "-o", str(toml), "--sheet", str(pdf), "--players", "5"]
    code, out, err = cli(*argv, "--profile", str(profile), "--app", "https://example.org/tk")
    assert code == 0 and not err
    assert out.splitlines() == [f"Wrote {toml}", f"Wrote {pdf}"]
    text = text_of(pdf.read_bytes())
    assert "Last profile (3 players, 500 races, seed 7)" in text
    assert "https://example.org/tk/design?track=" in unbroken(text)
    assert toml.read_text("utf-8") == load_preset("king-of-toads").to_toml(relative_to=tmp_path)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--sheet", "{tmp}/missing/s.pdf"], "its folder cannot be used"),
        (["--sheet", "{tmp}/s.txt"], "write to a .pdf file, not '.txt'"),
        (["--sheet", "{tmp}"], "write to a .pdf file"),
        (["--sheet", "{tmp}/s.pdf", "--profile", "{tmp}/none.json"], "none.json"),
        (["--sheet", "{tmp}/s.pdf", "--app", "localhost:8501"], "is not the app's address"),
        (["--profile"], "are for a build sheet: add --sheet"),
        (["--players", "4"], "are for a build sheet: add --sheet"),
    ],
)
def test_a_bad_sheet_is_refused_in_one_line_and_nothing_is_written(
    cli: Cli, tmp_path: Path, argv: list[str], said: str
) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    code, out, err = cli("export", "first-run", "-o", str(tmp_path / "t.toml"), *argv)
    assert code == 2 and not out
    assert err.count("\n") == 1 and said in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # the track file is not written either


def test_export_asks_for_something_to_write(cli: Cli) -> None:
    code, out, err = cli("export", "first-run")
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "name what to write: -o FILE.toml, --sheet FILE.pdf or both" in err


def test_an_existing_sheet_is_kept_unless_forced(cli: Cli, tmp_path: Path) -> None:
    sheet = tmp_path / "s.pdf"
    sheet.write_bytes(b"mine")
    code, _, err = cli("export", "first-run", "--sheet", str(sheet))
    assert code == 2 and "already exists" in err and sheet.read_bytes() == b"mine"
    assert cli("export", "first-run", "--sheet", str(sheet), "--force")[0] == 0
    assert sheet.read_bytes().startswith(b"%PDF-")


@pytest.mark.slow  # 1.1 s with the engines compiled (the quick loop's budget)
def test_export_profiles_the_track_when_asked(cli: Cli, tmp_path: Path) -> None:
    sheet = tmp_path / "s.pdf"
    assert cli("export", "husky-oval", "--sheet", str(sheet), "--profile")[0] == 0
    text = " ".join(text_of(sheet.read_bytes()).split())
    assert "Last profile (4 sleds, 2,000 races, seed 0)" in text
    assert "A race of 4 sleds on Husky oval lasts" in text


def test_without_a_unicode_font_the_sheet_is_set_in_helvetica(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from trackkit.report import sheet

    monkeypatch.setattr(sheet, "FONT_FOLDERS", ())
    track = replace(load_snow("long-trail"), name="Long trail → ridge")
    text = text_of(sheet_pdf(track, picture=False))
    assert "Long trail -> ridge" in text and "start straight, 5 lanes x 8 rows" in text
    assert all(f"{t.segment} {t.lane}" in text for t in track.trees)
