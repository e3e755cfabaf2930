"""A track's build sheet: a print-ready A4 PDF to take to the table, for a track of any game.

It holds the picture of the track, the player counts it was checked for and what the check
found, the verdict of its last profile (or "Not profiled."), the link that reopens it in
the app, and its pieces as its game lists them (a face's ``sheet(track)``:
:class:`~trackkit.games.face.Sheet`): Yummell's tiles in placing order with their
rotations and its start paths, Snow Tails' segments, start, finish, trees, markers and
buildings by segment, lane and row. ``trackkit export TRACK --sheet FILE.pdf`` and a button
on each Design page write it.

The picture is bounded as every picture is: its canvas at the SVG's own size is checked
against the ``canvas_pixels`` limit before anything is drawn, and it is drawn at no more
pixels than print needs (:data:`PRINT_DPI` at its size on the page); a picture refused is
said on the sheet in one line, and the sheet keeps its tables. The tables are bounded by
the track files' own bounds (100 tiles; 60 segments, 200 trees, 200 markers and 12
buildings): the longest sheet a file can ask for is a few pages.

>>> from trackkit.games import get_ruleset
>>> load_preset = get_ruleset().load_preset  # the first game's (Yummell's)
>>> pdf = sheet_pdf(load_preset("first-run"), players=4, picture=False)
>>> pdf[:5]
b'%PDF-'
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from trackkit.board.datafile import read_text
from trackkit.board.links import MAX_LINK_TEXT
from trackkit.errors import LocatedError, TrackkitError, shown
from trackkit.games import get_ruleset
from trackkit.games.base import is_tile_track
from trackkit.games.face import PieceTable, Sheet, face_of, look_of

DEFAULT_APP = "http://localhost:8501"  # where `streamlit run app.py` serves the app
NOT_PROFILED = "Not profiled."
PRINT_DPI = 300  # the picture's pixels per inch on paper: sharp in print, and no more
PAGE_WIDTH = 210.0  # A4, in millimetres
MARGIN = 15.0
PICTURE_HEIGHT = 130.0  # the most of page 1 the picture takes, in millimetres
MM_PER_INCH = 25.4
# a Unicode font where Debian and most Linux systems keep it (fonts-dejavu-core); without
# it the sheet is set in Helvetica, its text reduced to the characters Helvetica has
FONT_FOLDERS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu")
FONT_FILES = {"": "DejaVuSans.ttf", "B": "DejaVuSans-Bold.ttf", "mono": "DejaVuSansMono.ttf"}
PROFILE_PLAYERS = 4  # a quick profile's racers, as `trackkit profile` races unless told
VERDICT_LIMIT = 4000  # characters of a profile file's verdict put on the sheet


class ProfileFileError(LocatedError):
    """A profile file (``trackkit profile --json``) that cannot give a sheet its verdict."""


class LastProfile(NamedTuple):
    """The verdict a sheet reports: ``what`` was raced (``4 players, 2,000 races, seed
    0``) and the ``verdict`` in words (:func:`trackkit.report.verdict.verdict`)."""

    what: str
    verdict: str


def last_profile(track: Any, profile: Any) -> LastProfile:
    """The verdict of ``track``'s :class:`~trackkit.explore.profile.TrackProfile` for its
    sheet."""
    from trackkit.report.verdict import verdict

    raced = _raced(track.game, profile.players, profile.races, profile.seed)
    return LastProfile(raced, verdict(profile))


def read_profile(path: str | Path, track: Any) -> LastProfile:
    """The verdict in a file that ``trackkit profile TRACK --json`` wrote, for ``track``;
    :class:`ProfileFileError` when the file holds no verdict, or one of another track."""
    name = os.fspath(path)
    text = read_text(path, ProfileFileError)
    try:
        data = json.loads(text)
    except ValueError as error:
        raise ProfileFileError(name, None, f"is not JSON ({error})") from None
    write = "write one with `trackkit profile TRACK --json > FILE.json`"
    if not isinstance(data, dict) or not isinstance(data.get("verdict"), dict):
        raise ProfileFileError(name, None, f"holds no profile's verdict; {write}")
    numbers = [data.get(key) for key in ("players", "races", "seed")]
    sentences = list(data["verdict"].values())
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers) or not all(
        isinstance(s, str) for s in sentences
    ):
        raise ProfileFileError(name, "verdict", f"is not a profile's verdict; {write}")
    if data.get("track") != track.name:
        raise ProfileFileError(
            name,
            "track",
            f"is a profile of {shown(data.get('track'), 80)!r}, not of {shown(track.name, 80)!r}; "
            + write,
        )
    players, races, seed = numbers
    return LastProfile(
        _raced(track.game, players, races, seed), shown(" ".join(sentences), VERDICT_LIMIT)
    )


def sheet_profile(track: Any, source: str | None, players: int | None) -> LastProfile | None:
    """The verdict a sheet of ``track`` reports: None (not profiled) for no ``source``; for
    an empty one, a quick profile at the defaults (:data:`PROFILE_PLAYERS` racers unless
    ``players``); else the file ``source`` names (:func:`read_profile`)."""
    if source is None:
        return None
    if source:
        return read_profile(source, track)
    from trackkit.explore.profile import profile_track

    return last_profile(track, profile_track(track, players=players or PROFILE_PLAYERS))


def _raced(game: str, players: int, races: int, seed: int) -> str:
    racers = look_of(game).racers.lower()
    return f"{players} {racers}, {races:,} races, seed {seed}"


def checked_for(track: Any, players: int | None = None) -> str:
    """The player counts ``track`` was checked for and what the check found, in a sentence:
    for ``players`` when given; else, for a tile track, every count whose building rule it
    obeys (the rule that depends on the players); else for any count (no other game's
    track rule depends on how many race)."""
    from trackkit.validate import validate

    ruleset, racers = get_ruleset(track.game), look_of(track.game).racers.lower()
    bounds = ruleset.players
    if players is not None:
        return f"Checked for {players} {racers}: {_outcome(validate(track, players=players))}"
    if not is_tile_track(track):
        return (
            f"Checked for any number of {racers} ({bounds.race_min} to {bounds.race_max}; no "
            f"track rule depends on it): {_outcome(validate(track))}"
        )
    counts = [
        n for n in range(bounds.build_min, bounds.build_max + 1) if validate(track, players=n).ok
    ]
    if counts:
        return (
            f"Checked for {_counts(counts)} {racers}: obeys every track rule, the building "
            "rule for that many included."
        )
    return (
        f"Checked for {bounds.build_min} to {bounds.build_max} {racers}: the building rule holds "
        f"for none of them; without it, {_outcome(validate(track))}"
    )


def _outcome(report: Any) -> str:
    """What a validation found, in words (the first problems named)."""
    if report.ok:
        unfollowed = len(report.warnings)
        if not unfollowed:
            return "obeys every track rule."
        plural = "" if unfollowed == 1 else "s"
        said = "; ".join(str(w).rstrip(".") for w in report.warnings[:3])
        more = f" (and {unfollowed - 3} more)" if unfollowed > 3 else ""
        return f"breaks no track rule; {unfollowed} guideline{plural} not followed: {said}{more}."
    problems = [str(p).rstrip(".") for p in report.problems]
    more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
    plural = "" if len(problems) == 1 else "s"
    return f"{len(problems)} problem{plural}: " + "; ".join(problems[:3]) + more + "."


def _counts(counts: Sequence[int]) -> str:
    """``2 to 4``, ``2, 4 and 6``, ``5``: the counts as a reader says them."""
    if len(counts) > 1 and list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    words = [str(n) for n in counts]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" and {words[-1]}"


def app_address(text: str) -> str:
    """``text`` if it reads as the address of a web app (``http://localhost:8501``); else a
    one-line :class:`TrackkitError`."""
    if (
        not text.startswith(("http://", "https://"))
        or len(text) > 500
        or not text.isprintable()
        or any(c.isspace() or c in "?#" for c in text)
    ):
        raise TrackkitError(
            f"{shown(text, 80)!r} is not the app's address: give one such as {DEFAULT_APP}"
        )
    return text


def track_sheet(track: Any) -> Sheet:
    """The pieces of ``track`` and its link, as its game's face lists them."""
    face = face_of(track)
    sheet = face.sheet
    if sheet is None:
        raise TrackkitError(f"{get_ruleset(track.game).title} tracks have no build sheet")
    return sheet(track)


def sheet_picture(track: Any, width: float, height: float) -> bytes:
    """The picture of ``track`` as PNG bytes drawn for a box of ``width`` × ``height``
    millimetres at :data:`PRINT_DPI` (at most the PNG's own zoom); refused with a
    :class:`~trackkit.limits.CostLimitError` when its canvas at the SVG's size is over the
    limit, as the SVG picture would be."""
    from trackkit.render import PNG_ZOOM, check_canvas, svg_to_png
    from trackkit.render.layout import build_scene
    from trackkit.render.svg import canvas_size, scene_svg

    scene = build_scene(track)
    size = canvas_size(scene)
    check_canvas(size, 1.0, f"the build sheet's picture of {shown(track.name, 80)!r}")
    dots = PRINT_DPI / MM_PER_INCH
    zoom = min(PNG_ZOOM, width * dots / max(size[0], 1.0), height * dots / max(size[1], 1.0))
    return svg_to_png(scene_svg(scene), zoom)


def sheet_pdf(
    track: Any,
    *,
    players: int | None = None,
    profile: LastProfile | None = None,
    app: str = DEFAULT_APP,
    picture: bool = True,
) -> bytes:
    """The build sheet of ``track`` as PDF bytes (see the module docstring): checked for
    ``players`` (None: :func:`checked_for`'s counts), with ``profile``'s verdict (None:
    not profiled) and the link under the app's address ``app``; ``picture`` False leaves
    the picture out (a quick sheet for tests)."""
    from trackkit.limits import CostLimitError

    app = app_address(app)
    sheet = track_sheet(track)
    writer = _Writer(track.name, get_ruleset(track.game).title)
    writer.heading()
    if picture:
        width = PAGE_WIDTH - 2 * MARGIN
        try:
            writer.picture(sheet_picture(track, width, PICTURE_HEIGHT), width, PICTURE_HEIGHT)
        except CostLimitError as refusal:
            writer.paragraph(f"The picture is not drawn: {refusal}.")
    try:
        writer.section("Checked", checked_for(track, players))
    except CostLimitError as refusal:  # a board over the server's limit: its pieces still listed
        writer.section("Checked", f"Not checked: {refusal}.")
    if profile is None:
        writer.section("Last profile", NOT_PROFILED)
    else:
        writer.section(f"Last profile ({profile.what})", profile.verdict)
    packed = sheet.query.partition("=")[2]
    if len(packed) <= MAX_LINK_TEXT:
        writer.link(sheet.link(app))
    else:  # the app would refuse the link: say so rather than print one that fails
        writer.section(
            "Reopen it in the app",
            f"This track is too large for a link ({len(packed):,} characters packed; a link "
            f"holds at most {MAX_LINK_TEXT:,}): open its track file on the Design page.",
        )
    for table in sheet.tables:
        writer.table(table)
    return writer.output()


class _Writer:
    """The sheet's page as fpdf2 sets it: A4 portrait, a title, sections, tables."""

    def __init__(self, name: str, game: str) -> None:
        from fpdf import FPDF

        self.name, self.game = name, game
        pdf = FPDF(orientation="portrait", unit="mm", format="A4")
        pdf.set_margins(MARGIN, MARGIN, MARGIN)
        pdf.set_auto_page_break(auto=True, margin=MARGIN)
        pdf.set_title(f"{name}: build sheet")
        pdf.set_creator("trackkit")
        self.unicode = _add_fonts(pdf)
        self.family = "sheet" if self.unicode else "helvetica"
        self.mono = "sheet-mono" if self.unicode else "courier"
        footer = self._text(f"{name}: {game} build sheet (trackkit)")
        family = self.family

        def page_footer(pdf: Any = pdf) -> None:
            pdf.set_y(-MARGIN + 4)
            pdf.set_font(family, size=7)
            pdf.set_text_color(110)
            pdf.cell(0, 4, f"{footer}  ·  page {pdf.page_no()} of {{nb}}", align="C")
            pdf.set_text_color(0)

        pdf.footer = page_footer  # fpdf2 calls it at the end of every page
        pdf.add_page()
        self.pdf = pdf

    def _text(self, text: str) -> str:
        """``text`` as the font can set it (Helvetica: Latin-1, the rest replaced)."""
        if self.unicode:
            return text
        swaps = {"→": "->", "–": "-", "—": "-", "…": "...", "×": "x", "·": "-", "’": "'"}
        text = "".join(swaps.get(c, c) for c in text)
        return text.encode("latin-1", "replace").decode("latin-1")

    def heading(self) -> None:
        pdf = self.pdf
        pdf.set_font(self.family, size=9)
        pdf.set_text_color(110)
        pdf.cell(0, 5, self._text(f"{self.game}: build sheet"), new_x="LMARGIN", new_y="NEXT")
        pdf.set_text_color(0)
        pdf.set_font(self.family, "B", 18)
        pdf.multi_cell(0, 9, self._text(self.name), align="L", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)

    def picture(self, png: bytes, width: float, height: float) -> None:
        pdf = self.pdf
        pdf.image(io.BytesIO(png), x="C", w=width, h=height, keep_aspect_ratio=True)
        pdf.ln(2)

    def paragraph(self, text: str) -> None:
        self.pdf.set_font(self.family, size=10)
        self.pdf.multi_cell(0, 5, self._text(text), align="L", new_x="LMARGIN", new_y="NEXT")
        self.pdf.ln(2)

    def section(self, title: str, text: str) -> None:
        self.pdf.set_font(self.family, "B", 12)
        self.pdf.multi_cell(0, 7, self._text(title), align="L", new_x="LMARGIN", new_y="NEXT")
        self.paragraph(text)

    def link(self, url: str) -> None:
        """The link that reopens the track, clickable, wrapped anywhere (it has no space)."""
        from fpdf.enums import WrapMode

        pdf = self.pdf
        pdf.set_font(self.family, "B", 12)
        pdf.cell(0, 7, "Reopen it in the app", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(self.mono, size=7)
        pdf.set_text_color(20, 60, 140)
        pdf.multi_cell(
            0, 3.5, url, link=url, wrapmode=WrapMode.CHAR, align="L", new_x="LMARGIN", new_y="NEXT"
        )
        pdf.set_text_color(0)
        pdf.ln(3)

    def table(self, table: PieceTable) -> None:
        pdf = self.pdf
        if pdf.will_page_break(12 + 5 * min(len(table.rows) + 1, 3)):
            pdf.add_page()  # a table's title never ends a page without its first rows
        pdf.set_font(self.family, "B", 12)
        title = f"{table.title} ({len(table.rows)})"
        pdf.multi_cell(0, 7, self._text(title), align="L", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(self.family, size=9)
        if table.rows:
            with pdf.table(
                line_height=5,
                text_align="LEFT",
                repeat_headings=1,
                headings_style=_headings(self.family),
            ) as drawn:
                for cells in (table.columns, *table.rows):
                    row = drawn.row()
                    for cell in cells:
                        row.cell(self._text(cell))
        if table.note:
            pdf.set_font(self.family, size=8)
            pdf.set_text_color(80)
            pdf.multi_cell(0, 4, self._text(table.note), align="L", new_x="LMARGIN", new_y="NEXT")
            pdf.set_text_color(0)
        pdf.ln(3)

    def output(self) -> bytes:
        return bytes(self.pdf.output())


def _headings(family: str) -> Any:
    from fpdf.fonts import FontFace

    return FontFace(family=family, emphasis="BOLD", fill_color=(235, 228, 210))


def _add_fonts(pdf: Any) -> bool:
    """Add DejaVu Sans (regular, bold, mono) when the system has it; whether it did."""
    for folder in FONT_FOLDERS:
        files = {style: Path(folder) / name for style, name in FONT_FILES.items()}
        if all(path.is_file() for path in files.values()):
            pdf.add_font("sheet", "", files[""])
            pdf.add_font("sheet", "B", files["B"])
            pdf.add_font("sheet-mono", "", files["mono"])
            return True
    return False
