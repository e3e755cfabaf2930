"""A :class:`~trackkit.games.shapes.Scene` as an SVG document: the scene's shapes under its
title (and note), with its legend along the bottom, on paper-coloured ground.

>>> from trackkit.games.shapes import Circle, Scene
>>> svg = scene_svg(Scene("Dot", (Circle((0.5, 0.5), 0.25, fill="red"),), (0, 0, 1, 1)))
>>> svg.startswith("<?xml"), 'fill="red"' in svg
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from html import escape

from trackkit.games.shapes import (
    NONE,
    Circle,
    Line,
    Polygon,
    Rectangle,
    Scene,
    Shape,
    Spot,
    Text,
)

MARGIN = 1.2  # units around the drawing
HEADER = 1.6  # units for the title
NOTE = 0.6  # more units for a note under the title
LEGEND = 1.6  # units for the legend
LEGEND_STEP = 3.4  # units from one legend entry to the next
LEGEND_LAST = 3.6  # units for the last entry's swatch and words
TITLE_CHAR = 0.5  # a bold title letter's width, in units (generous: never cut off)
NOTE_CHAR = 0.22
PAPER = "#f4efe1"
INK = "#33261a"

Pixels = Callable[[float, float], tuple[float, float]]  # a scene point to its pixel


def canvas_size(scene: Scene) -> tuple[float, float]:
    """Width and height in pixels of the picture of ``scene``: the drawing, its margins,
    the title, the note and the legend (what a picture costs is checked against it
    before anything is drawn). A narrow drawing still shows the whole legend and title."""
    left, top, right, bottom = scene.bounds
    legend = (len(scene.legend) - 1) * LEGEND_STEP + LEGEND_LAST if scene.legend else 0.0
    width = max(
        right - left + 2 * MARGIN,
        legend + 2 * MARGIN,
        TITLE_CHAR * len(scene.title) + 2 * MARGIN,
        NOTE_CHAR * len(scene.note) + 2 * MARGIN,
    )
    height = bottom - top + 2 * MARGIN + _header(scene) + (LEGEND if scene.legend else 0.0)
    return width * scene.unit, height * scene.unit


def scene_svg(scene: Scene) -> str:
    """The SVG picture of ``scene`` (see the module docstring)."""
    width, height = canvas_size(scene)
    unit = scene.unit
    left, top, _, _ = scene.bounds
    header = _header(scene)

    def px(x: float, y: float) -> tuple[float, float]:
        return (x - left + MARGIN) * unit, (y - top + MARGIN + header) * unit

    body = [f'<rect x="0" y="0" width="{_n(width)}" height="{_n(height)}" fill="{PAPER}"/>']
    size, baseline = (0.8, 1.2) if scene.note else (0.7, 1.1)  # in units
    title = Text((0, 0), scene.title, size, INK, "start", bold=True)
    body.append(_text_element(title, (MARGIN * unit, baseline * unit), unit, central=False))
    if scene.note:
        note = Text((0, 0), scene.note, 0.36, INK, "start")
        body.append(_text_element(note, (MARGIN * unit, 1.85 * unit), unit, central=False))
    body += _elements(scene.shapes, px, unit)
    body += _legend(scene, height)
    return _document(width, height, body, scene.title, declaration=True)


def bare_svg(scene: Scene) -> str:
    """Only the shapes of ``scene``, on a canvas just its bounds (a palette's thumbnail)."""
    left, top, right, bottom = scene.bounds
    unit = scene.unit

    def px(x: float, y: float) -> tuple[float, float]:
        return (x - left) * unit, (y - top) * unit

    body = _elements(scene.shapes, px, unit)
    return _document((right - left) * unit, (bottom - top) * unit, body, scene.title)


def _header(scene: Scene) -> float:
    return HEADER + (NOTE if scene.note else 0.0)


def _document(
    width: float, height: float, body: list[str], title: str, *, declaration: bool = False
) -> str:
    markers = sorted({m for element in body for m in _marker_ids(element)})
    head = '<?xml version="1.0" encoding="UTF-8"?>\n' if declaration else ""
    return "\n".join(
        [
            f'{head}<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" '
            f'height="{_n(height)}" viewBox="0 0 {_n(width)} {_n(height)}" '
            'font-family="sans-serif">',
            f"<title>{escape(title)}</title>",
            *([f"<defs>{''.join(_marker(m) for m in markers)}</defs>"] if markers else []),
            *body,
            "</svg>",
        ]
    )


def _n(value: float) -> str:
    """A number as short as it reads: 100, 12.5, 3.14."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _elements(shapes: Iterable[Shape], px: Pixels, unit: float) -> list[str]:
    return [e for shape in shapes if (e := _element(shape, px, unit))]


def _element(shape: Shape, px: Pixels, unit: float) -> str:
    """One shape as an SVG element (a spot, only for a figure's pointer, is left out)."""
    if isinstance(shape, Spot):
        return ""
    if isinstance(shape, Text):
        return _text_element(shape, px(*shape.at), unit)
    style = _style(shape)
    if isinstance(shape, Rectangle):
        x, y = px(shape.left, shape.top)
        rounded = f' rx="{_n(shape.rounded)}"' if shape.rounded else ""
        return (
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(shape.width * unit)}" '
            f'height="{_n(shape.height * unit)}"{rounded}{style}/>'
        )
    if isinstance(shape, Circle):
        x, y = px(*shape.centre)
        return f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(shape.radius * unit)}"{style}/>'
    points = [px(*p) for p in shape.points]
    path = "M " + " L ".join(f"{_n(x)},{_n(y)}" for x, y in points)
    if isinstance(shape, Polygon):
        return f'<path d="{path} Z"{style} stroke-linejoin="round"/>'
    head = f' marker-end="url(#{_marker_id(shape)})"' if shape.arrow else ""
    cap = f' stroke-linecap="{shape.cap}"' if shape.cap else ""
    return f'<path d="{path}"{style}{cap}{head}/>'


def _style(shape: Polygon | Rectangle | Circle | Line) -> str:
    fill = NONE if isinstance(shape, Line) else shape.fill
    parts = [f'fill="{fill}"']
    if shape.stroke != NONE:
        parts.append(f'stroke="{shape.stroke}" stroke-width="{_n(shape.stroke_width)}"')
    if not isinstance(shape, Circle) and shape.dash:
        parts.append(f'stroke-dasharray="{shape.dash}"')
    if shape.opacity != 1:
        parts.append(f'opacity="{_n(shape.opacity)}"')
    if shape.group:
        parts.append(f'class="{escape(shape.group)}"')
    return " " + " ".join(parts)


def _text_element(text: Text, at: tuple[float, float], unit: float, central: bool = True) -> str:
    """``text`` written at pixel ``at``, centred on it vertically (``central``) or standing
    on it."""
    x, y = at
    parts = [f'x="{_n(x)}" y="{_n(y)}" font-size="{_n(text.size * unit)}" fill="{text.colour}"']
    if text.anchor != "start":
        parts.append(f'text-anchor="{text.anchor}"')
    if central:
        parts.append('dominant-baseline="central"')
    if text.bold:
        parts.append('font-weight="bold"')
    if text.rotation:
        parts.append(f'transform="rotate({_n(text.rotation)}, {_n(x)}, {_n(y)})"')
    if text.halo:
        parts.append(f'stroke="{text.halo}" stroke-width="3" paint-order="stroke"')
    if text.group:
        parts.append(f'class="{escape(text.group)}"')
    return f"<text {' '.join(parts)}>{escape(text.text)}</text>"


def _marker_id(line: Line) -> str:
    return f"head-{_n(line.arrow).replace('.', '_')}-{line.stroke.lstrip('#')}"


def _marker_ids(element: str) -> list[str]:
    start = element.find("url(#")
    return [] if start < 0 else [element[start + 5 : element.index(")", start)]]


def _marker(marker_id: str) -> str:
    """An arrowhead ``scale`` times the line's width, in the line's colour (from its id)."""
    _, scale, colour = marker_id.split("-")
    size = float(scale.replace("_", "."))
    return (
        f'<marker id="{marker_id}" viewBox="-0.1 -0.51 1 1.01" markerWidth="{_n(size)}" '
        f'markerHeight="{_n(1.01 * size)}" refX="0" refY="0" orient="auto">'
        f'<path d="M -0.1,0.5 L -0.1,-0.5 L 0.9,0 Z" fill="#{colour}"/></marker>'
    )


def _legend(scene: Scene, height: float) -> list[str]:
    """A row along the bottom: each entry's swatch, then its words."""
    unit = scene.unit
    ly = height - LEGEND * unit * 0.75
    x = MARGIN * unit
    elements = []
    for entry in scene.legend:
        cx = x + 0.3 * unit

        def swatch(sx: float, sy: float, cx: float = cx) -> tuple[float, float]:
            return cx + sx * unit, ly + sy * unit

        elements += _elements(entry.swatch, swatch, unit)
        label = Text((0, 0), entry.label, 0.37, INK, "start")
        elements.append(_text_element(label, (x + 0.8 * unit, ly), unit))
        x += LEGEND_STEP * unit
    return elements
