"""Drawing costs are bounded before anything is drawn (issue 20, finding 1 and 2): a picture's
canvas (``canvas_pixels``) and an interactive figure's points (``plot_points``), for both
games, in the library, on the command line and at the app's stricter limits."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trackkit import limits
from trackkit.app.games.yummell.design import _clickable_cells
from trackkit.games.snowtails.core import presets as snow_presets
from trackkit.games.snowtails.core.check import validate_track
from trackkit.games.snowtails.core.track import SnowTrack
from trackkit.games.snowtails.core.track import parse_track_toml as parse_snow_toml
from trackkit.games.snowtails.face.lanes import lane_figure
from trackkit.games.tilekit.track import MAX_COORDINATE, Placement, Track, parse_track_toml
from trackkit.games.yummell.core import presets as yummell_presets
from trackkit.games.yummell.core.editing import decode_track
from trackkit.limits import CANVAS_PIXELS, PLOT_POINTS, CostLimitError
from trackkit.render import (
    PNG_ZOOM,
    check_picture,
    picture_figure,
    picture_png,
    picture_size,
    picture_svg,
    render_to_file,
    track_figure,
)
from trackkit.render.layout import build_scene
from trackkit.render.overlays import race_animation

ROOT = Path(__file__).resolve().parents[2]
# The issue's link: tile 1 at (-1000, -1000), the finish at (1000, 1000); its PNG asked
# resvg for about 2 TB and aborted the Streamlit process.
FAR_APART_LINK = (
    "eNrLS8xNVbBVUHJLLFJILEgsKlHi4oqOLshJTE7NTc0rKY6N5SrJzAEpMeSqAJK6hgYGBlyVcFZRfkliSWZ-"
    "HlDAAJdOI7BOuEZMfQAwKCWV"
)


def staircase_toml(segments: int = 60, rows: int = 60) -> str:
    """A *valid* Snow Tails board of ``segments`` segments: straights of ``rows`` rows, each
    followed by a corner turning left, then right, so the course climbs diagonally (the
    issue's 3.4 kB board asked resvg for 18.7 GB)."""
    lines = [
        'game = "snowtails"',
        'name = "Staircase"',
        'direction = "forward"',
        'start = { segment = "s0", row = 0 }',
        f'finish = {{ segment = "s{segments - 1}", line = 5, runoff_rows = 3 }}',
    ]
    for i in range(segments):
        lines.append("[[segments]]")
        lines.append(f'id = "s{i}"')
        if i % 2 == 0 or i == segments - 1:
            lines.append(f"rows = {rows}")
        else:
            lines.append(f'turn = "{"left" if i % 4 == 1 else "right"}"')
            lines.append("spaces_per_lane = [2, 3, 4, 5, 6]")
    return "\n".join(lines) + "\n"


@pytest.fixture
def app_limits():
    limits.serve_app_limits(True)
    yield
    limits.serve_app_limits(False)


@pytest.fixture
def no_resvg(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, float]]:
    """resvg replaced by a recorder of the canvases it is asked for (zoom applied): a test
    sees what would have been drawn without drawing it."""
    import resvg_py

    asked: list[tuple[float, float]] = []

    def record(svg_string: str, zoom: float) -> list[int]:
        width, height = _svg_size(svg_string)
        asked.append((width * zoom, height * zoom))
        return []

    monkeypatch.setattr(resvg_py, "svg_to_bytes", record)
    return asked


def _svg_size(svg: str) -> tuple[float, float]:
    found = re.search(r'<svg[^>]*\bwidth="([\d.]+)"[^>]*\bheight="([\d.]+)"', svg)
    assert found, svg[:300]
    return float(found.group(1)), float(found.group(2))


@pytest.fixture(scope="module")
def far_apart() -> Track:
    return decode_track(FAR_APART_LINK)


@pytest.fixture(scope="module")
def staircase() -> SnowTrack:
    track = parse_snow_toml(staircase_toml(), source="staircase.toml")
    assert validate_track(track).ok  # a legal board: only its drawing is too big
    return track


def test_the_issues_link_is_refused_before_resvg_is_asked(far_apart, no_resvg) -> None:
    assert [p.cell for p in far_apart.placements] == [(-1000, -1000), (1000, 1000)]
    with pytest.raises(CostLimitError) as refused:
        picture_png(far_apart)
    message = str(refused.value)
    assert "\n" not in message
    assert "the PNG picture of 'Far apart'" in message
    assert f"the limit is {CANVAS_PIXELS.cli:,}" in message
    assert "closer together" in message
    with pytest.raises(CostLimitError, match="the SVG picture of 'Far apart'"):
        picture_svg(far_apart)
    assert no_resvg == []


@pytest.mark.slow  # sizes a 9,880-space board twice: about 5 s (the far-apart track stays quick)
def test_the_staircase_board_is_valid_but_its_picture_is_refused(staircase, no_resvg) -> None:
    width, height = picture_size(staircase)
    assert width * height * PNG_ZOOM**2 > 1_000_000_000  # billions of pixels asked
    with pytest.raises(CostLimitError, match="the PNG picture of 'Staircase'"):
        picture_png(staircase)
    with pytest.raises(CostLimitError, match="the SVG picture of 'Staircase'"):
        picture_svg(staircase)
    assert no_resvg == []


@pytest.mark.slow  # the staircase's 9,880 spaces built and counted: about 2.5 s
def test_its_figure_is_refused_at_the_apps_limit(
    staircase, app_limits, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the app's own board limit (5,000 spaces) refuses the staircase's 9,880 before any
    # drawing; an operator's raised one leaves the drawing limit to refuse it
    with pytest.raises(CostLimitError, match="9,880 board spaces; the limit is 5,000"):
        lane_figure(staircase)
    monkeypatch.setenv(limits.BOARD_SPACES.env, "20000")
    with pytest.raises(CostLimitError, match=r"interactive figure of 'Staircase' would need"):
        lane_figure(staircase)


@pytest.mark.slow  # 1.0 s with the engines compiled (the quick loop's budget)
def test_every_preset_draws_within_the_apps_limits(app_limits, no_resvg) -> None:
    presets = [yummell_presets.load_preset(s) for s in yummell_presets.PRESET_SLUGS] + [
        snow_presets.load_preset(s) for s in snow_presets.PRESET_SLUGS
    ]
    for track in presets:
        check_picture(track, zoom=PNG_ZOOM)
        picture_png(track)
        figure = picture_figure(track)
        # room to spare: a preset needs less than half of either limit
        assert _drawn(figure) * 2 <= PLOT_POINTS.app, track.name
    assert max(w * h for w, h in no_resvg) * 2 <= CANVAS_PIXELS.app
    assert len(no_resvg) == len(presets)


def test_the_operator_may_allow_bigger_pictures_in_the_app(
    app_limits, monkeypatch: pytest.MonkeyPatch, no_resvg
) -> None:
    track = yummell_presets.load_preset("king-of-toads")  # 2.2 million pixels as a PNG
    monkeypatch.setenv(CANVAS_PIXELS.env, "1_000_000")
    with pytest.raises(CostLimitError, match="the limit is 1,000,000"):
        picture_png(track)
    monkeypatch.setenv(CANVAS_PIXELS.env, "3_000_000")
    picture_png(track)
    assert len(no_resvg) == 1


@pytest.mark.slow  # trackkit run in a process of its own, then four refusals: about 5 s
def test_render_refuses_in_one_line_and_writes_nothing(cli, tmp_path: Path, no_resvg) -> None:
    yummell = tmp_path / "far.toml"
    yummell.write_text(decode_track(FAR_APART_LINK).to_toml(), encoding="utf-8")
    snow = tmp_path / "staircase.toml"
    snow.write_text(staircase_toml(), encoding="utf-8")
    # in a process of its own, as a user runs it: without the check, resvg aborted it
    # (exit 134, a Rust backtrace)
    target = tmp_path / "x.png"
    run = subprocess.run(
        [sys.executable, "-m", "trackkit.cli", "render", str(yummell), "-o", str(target)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert run.returncode == 2, run.stderr[-2000:]
    assert run.stdout == "" and len(run.stderr.strip().splitlines()) == 1, run.stderr[-2000:]
    assert "the PNG picture of 'Far apart'" in run.stderr
    assert not target.exists()
    for track, suffix in ((yummell, "svg"), (snow, "png"), (snow, "svg")):
        target = tmp_path / f"x.{suffix}"
        code, out, err = cli("render", str(track), "-o", str(target))
        assert code == 2, (track, suffix, err)
        assert out == ""
        assert len(err.strip().splitlines()) == 1, err
        assert "the limit is 100,000,000" in err and "Traceback" not in err
        assert not target.exists()
    # the interactive page of the far-apart track costs no canvas: it is drawn
    code, _, err = cli("render", str(yummell), "-o", str(tmp_path / "x.html"))
    assert code == 0, err


def test_render_to_file_refuses_a_figure_over_the_limit(
    app_limits, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(PLOT_POINTS.env, "50")
    with pytest.raises(
        CostLimitError, match=r"interactive figure of 'In honor of the King of Toads'"
    ):
        render_to_file(yummell_presets.load_preset("king-of-toads"), tmp_path / "x.html")
    assert not (tmp_path / "x.html").exists()


def test_the_click_layer_grows_with_the_tiles_not_with_the_space_between(far_apart) -> None:
    cells = _clickable_cells(far_apart)
    # eight cells around each tile: the bounding box's 4 million cells are not built
    assert len(cells) == 16
    for x, y in cells:
        assert any(max(abs(x - p.x), abs(y - p.y)) == 1 for p in far_apart.placements)
    figure = track_figure(far_apart, clickable_cells=cells)
    assert _drawn(figure) < 1_000


def test_the_click_layer_still_covers_every_cell_a_tile_may_go() -> None:
    track = yummell_presets.load_preset("king-of-toads").without_last()
    cells = set(_clickable_cells(track))
    taken = {p.cell for p in track.placements}
    for p in track.placements:
        for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            neighbour = (p.x + dx, p.y + dy)
            assert neighbour in cells or neighbour in taken
    assert not cells & taken
    assert _clickable_cells(Track("empty")) == [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)]


def test_a_coordinate_out_of_range_is_refused_where_it_is_read() -> None:
    text = 'name = "far"\n[[placements]]\ntile = 1\nx = 0\ny = 0\n[[placements]]\n'
    with pytest.raises(Exception) as refused:
        parse_track_toml(text + f"tile = 2\nx = {MAX_COORDINATE + 1}\ny = 0\n", source="f.toml")
    assert str(refused.value) == (
        "f.toml: placements[1].x: must be a table cell from -1,000 to 1,000; "
        "move the track nearer (0, 0)"
    )
    edge = parse_track_toml(text + f"tile = 2\nx = 0\ny = -{MAX_COORDINATE}\n", source="f.toml")
    assert edge.placements[1].cell == (0, -MAX_COORDINATE)


def _drawn(figure) -> int:  # type: ignore[no-untyped-def]
    """What a figure draws: its points, shapes and annotations."""
    points = sum(len(t.x) for t in figure.data if t.x is not None and t.x[0] is not None)
    return points + len(figure.layout.shapes) + len(figure.layout.annotations)


coordinate = st.one_of(st.integers(-4, 4), st.integers(-MAX_COORDINATE, MAX_COORDINATE))


@pytest.mark.slow  # 60 random tracks laid out and drawn: about 5 s (the presets stay quick)
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    cells=st.lists(st.tuples(coordinate, coordinate), min_size=1, max_size=6, unique=True),
    tiles=st.lists(st.integers(1, 10), min_size=6, max_size=6, unique=True),
    rotations=st.lists(st.sampled_from((0, 90, 180, 270)), min_size=6, max_size=6),
)
def test_any_track_is_drawn_within_the_limits_or_refused(
    cells, tiles, rotations, app_limits, no_resvg
) -> None:
    track = Track(
        "t",
        tuple(Placement(t, x, y, r) for (x, y), t, r in zip(cells, tiles, rotations, strict=False)),
    )
    for zoom, draw in ((1.0, picture_svg), (PNG_ZOOM, picture_png)):
        no_resvg.clear()
        try:
            drawn = draw(track)
        except CostLimitError:
            width, height = picture_size(track)
            assert width * height * zoom**2 > CANVAS_PIXELS.app
            continue
        width, height = _svg_size(drawn) if isinstance(drawn, str) else no_resvg[0]
        assert width * height <= CANVAS_PIXELS.app
    try:
        figure = track_figure(track, clickable_cells=_clickable_cells(track))
    except CostLimitError:
        return
    assert _drawn(figure) <= PLOT_POINTS.app


@pytest.mark.slow  # builds a 400-frame figure: about 6 s
def test_a_race_animation_counts_its_frames_pawns(app_limits) -> None:
    scene = build_scene(yummell_presets.load_preset("first-run"))
    names = [f"p{i}" for i in range(8)]
    start = list(scene.places)[:8]
    # the longest Yummell race (400 rounds) of 8 players is drawn within the app's limit
    figure = race_animation(scene, [start] * 401, names, 1)
    assert len(figure.frames) == 400
    with pytest.raises(CostLimitError, match="interactive figure of 'First run'"):
        race_animation(scene, [start] * 2_000, names, 1)
