"""A drawing as plain data: the shapes a game's ``scene(track)`` returns, which one renderer
(:mod:`trackkit.render`) draws as an SVG or PNG picture and as a Plotly figure.

Coordinates are in the scene's own units (a Yummell square, a Snow Tails lane width),
x growing to the right and y **downwards**, as on a page. Stroke widths are pixels of
the picture; text sizes are scene units. Every shape may carry:

- ``hover``: what the figure says when the pointer rests on it;
- ``key``: what a click on it gives back (the figure's ``customdata``), e.g. a table
  cell ``(x, y)`` or a space's ``(segment, lane, index)``;
- ``group``: a name for shapes that belong together: the SVG element's ``class``, the
  figure's trace name for their hover points or words;
- ``node``: the track node (square, space) it shows, so a heat map or a pawn finds it.

>>> scene = Scene("Demo", (Circle((1.0, 1.0), 0.5, fill="#ffffff"),), (0.0, 0.0, 2.0, 2.0))
>>> scene.shapes[0].centre
(1.0, 1.0)
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, right, bottom
Anchor = Literal["start", "middle", "end"]
NONE = "none"  # no fill or no stroke
INVISIBLE = "rgba(0, 0, 0, 0)"


@dataclass(frozen=True)
class Polygon:
    """A closed polygon through ``points``; ``dash`` an SVG dash pattern such as "8,4"."""

    points: tuple[Point, ...]
    fill: str = NONE
    stroke: str = NONE
    stroke_width: float = 1.0
    opacity: float = 1.0
    dash: str | None = None
    hover: str | None = None
    key: tuple[Hashable, ...] | None = None
    group: str | None = None
    node: Hashable | None = None

    @property
    def centre(self) -> Point:
        xs, ys = zip(*self.points, strict=True)
        return sum(xs) / len(xs), sum(ys) / len(ys)


@dataclass(frozen=True)
class Rectangle:
    """An upright rectangle from ``(left, top)``, ``rounded`` its corners' radius in pixels."""

    left: float
    top: float
    width: float
    height: float
    fill: str = NONE
    stroke: str = NONE
    stroke_width: float = 1.0
    opacity: float = 1.0
    dash: str | None = None
    rounded: float = 0.0
    hover: str | None = None
    key: tuple[Hashable, ...] | None = None
    group: str | None = None
    node: Hashable | None = None

    @property
    def centre(self) -> Point:
        return self.left + self.width / 2, self.top + self.height / 2


@dataclass(frozen=True)
class Circle:
    centre: Point
    radius: float
    fill: str = NONE
    stroke: str = NONE
    stroke_width: float = 1.0
    opacity: float = 1.0
    hover: str | None = None
    key: tuple[Hashable, ...] | None = None
    group: str | None = None
    node: Hashable | None = None


@dataclass(frozen=True)
class Line:
    """A line through ``points`` (two or more); ``arrow`` the size of a head at its end
    (0: none), ``cap`` the SVG line cap."""

    points: tuple[Point, ...]
    stroke: str
    stroke_width: float = 1.0
    opacity: float = 1.0
    dash: str | None = None
    arrow: float = 0.0
    cap: str | None = None
    hover: str | None = None
    key: tuple[Hashable, ...] | None = None
    group: str | None = None
    node: Hashable | None = None

    @property
    def centre(self) -> Point:
        xs, ys = zip(*self.points, strict=True)
        return sum(xs) / len(xs), sum(ys) / len(ys)


@dataclass(frozen=True)
class Text:
    """Words centred vertically on ``at``; ``anchor`` where along them ``at`` lies,
    ``rotation`` degrees clockwise, ``halo`` a colour drawn round the letters."""

    at: Point
    text: str
    size: float
    colour: str
    anchor: Anchor = "middle"
    bold: bool = False
    rotation: float = 0.0
    halo: str | None = None
    hover: str | None = None
    key: tuple[Hashable, ...] | None = None
    group: str | None = None
    node: Hashable | None = None

    @property
    def centre(self) -> Point:
        return self.at


@dataclass(frozen=True)
class Spot:
    """A point only the figure has: what the pointer finds there (``hover``) and what a
    click there gives back (``key``), drawn as an invisible marker ``size`` pixels wide.
    A picture leaves it out."""

    at: Point
    size: float = 14.0
    hover: str | None = None
    key: tuple[Hashable, ...] | None = None
    group: str | None = None
    node: Hashable | None = None

    @property
    def centre(self) -> Point:
        return self.at


Shape = Polygon | Rectangle | Circle | Line | Text | Spot
Symbol = Literal["square", "circle", "triangle-up"]


@dataclass(frozen=True)
class LegendEntry:
    """One entry of the legend: its words, its swatch as shapes around (0, 0) in a box
    about 0.6 wide (the picture), and a marker for the figure's legend."""

    label: str
    swatch: tuple[Shape, ...]
    symbol: Symbol
    colour: str


@dataclass(frozen=True)
class Scene:
    """A drawing: ``shapes`` in drawing order, within ``bounds`` (in scene units);
    ``unit`` pixels per scene unit in a picture. ``note`` goes under the title,
    ``legend`` along the bottom; ``places`` says where each track node lies (where a
    pawn stands); ``pan`` lets a figure be dragged around."""

    title: str
    shapes: tuple[Shape, ...]
    bounds: Box
    unit: float = 36.0
    note: str = ""
    legend: tuple[LegendEntry, ...] = ()
    places: Mapping[Hashable, Point] = field(default_factory=lambda: MappingProxyType({}))
    pan: bool = False
