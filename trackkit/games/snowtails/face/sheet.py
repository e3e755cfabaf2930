"""A Snow Tails track's build sheet: its segments in board order, the start and the finish,
and every tree, marker and building by segment, lane and row, as the table needs them to
lay the board out of the box (:class:`trackkit.games.face.Sheet`;
:mod:`trackkit.report.sheet` writes the PDF). Read from the track file alone: nothing is
built, so a board too big to check still gets its sheet's tables.

>>> from trackkit.games.snowtails.core.presets import load_preset
>>> sheet = track_sheet(load_preset("husky-oval"))
>>> [table.title for table in sheet.tables]
['Segments in board order', 'Start and finish', 'Trees', 'Markers', 'Buildings']
>>> sheet.tables[2].rows[0]
('home', '2', 'row 3')
"""

from __future__ import annotations

from trackkit.board.links import pack_link
from trackkit.games.face import PieceTable, Sheet
from trackkit.games.snowtails.core.track import Address, Building, Segment, SnowTrack

# the Snow Tails design page's address (face LOOK) and the parameter it opens a design
# from (trackkit.app.games.snowtails.common.SNOW_KEY: a test keeps them alike)
DESIGN_PAGE = "snow-design"
LINK_KEY = "snow"
PLACES = ("Segment", "Lane", "Row or space")
PLACES_NOTE = (
    "Lanes count from 1 on the left when driving the segments in the order listed; rows "
    "(on a straight) and spaces (on a corner, in each lane) count from 0 at the segment's "
    "end that comes first in that order."
)


def track_sheet(track: SnowTrack) -> Sheet:
    """The pieces of ``track`` (see the module docstring) and the link of its design page."""
    segments = PieceTable(
        "Segments in board order",
        ("Segment", "Shape", "Continues from"),
        tuple(
            (s.id, _shape(s), s.after or ("—" if n == 0 else "the one above"))
            for n, s in enumerate(track.segments)
        ),
        note="Driven "
        + (
            "in the order listed."
            if track.direction == "forward"
            else "against the order listed (reversed): the last segment first."
        )
        + " A corner's spaces per lane run from the inside lane to the outside one.",
    )
    start, finish = track.start, track.finish
    ends = PieceTable(
        "Start and finish",
        ("", "Segment", "Where"),
        (
            ("Start", start.segment, f"row {start.row}: one sled a lane, line at its front"),
            (
                "Finish",
                finish.segment,
                f"line after row {finish.line}, {finish.runoff_rows} run-off rows beyond it",
            ),
        ),
        note="Rows count in the order listed, from 0; the start line is the start row's "
        "front edge in the direction of travel.",
    )
    return Sheet(
        (
            segments,
            ends,
            _places("Trees", track, track.trees),
            _places("Markers", track, track.markers),
            _buildings(track.buildings),
        ),
        DESIGN_PAGE,
        f"{LINK_KEY}={pack_link(track.to_toml())}",
    )


def _shape(segment: Segment) -> str:
    if not segment.is_corner:
        return f"straight, {segment.lanes} lanes × {segment.rows} rows"
    tight = " tight" if segment.tight else ""
    hairpin = ", a hairpin (180°)" if segment.angle == 180 else ""
    spaces = ", ".join(str(n) for n in segment.spaces_per_lane)
    return f"{segment.turn}{tight} corner{hairpin}, spaces per lane {spaces}"


def _places(title: str, track: SnowTrack, addresses: tuple[Address, ...]) -> PieceTable:
    """A table of trees or markers: each one's segment, lane and row (a corner's space)."""

    def where(address: Address) -> str:
        segment = track.segment(address.segment)
        unit = "space" if segment is not None and segment.is_corner else "row"
        return f"{unit} {address.index}"

    rows = tuple((a.segment, str(a.lane), where(a)) for a in addresses)
    none = "" if rows else " None on this track."
    return PieceTable(title, PLACES, rows, note=PLACES_NOTE + none)


def _buildings(buildings: tuple[Building, ...]) -> PieceTable:
    rows = tuple(
        (
            b.name,
            b.segment,
            _span("lanes", b.lanes) if b.lanes is not None else f"beside it, {b.side}",
            _span("rows", b.rows),
        )
        for b in buildings
    )
    return PieceTable(
        "Buildings",
        ("Building", "Segment", "Lanes", "Rows"),
        rows,
        note="Kennels, Chapel and Bothy cover their lanes and rows of a straight; the Tavern "
        "stands beside it." + ("" if rows else " None on this track."),
    )


def _span(unit: str, span: tuple[int, int]) -> str:
    first, last = span
    return f"{unit} {first} to {last}" if first != last else f"{unit[:-1]} {first}"
