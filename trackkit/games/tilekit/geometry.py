"""The table grid: tile edges, neighbouring cells and rotation by quarter turns.

Coordinates follow the track file: ``x`` is the column growing to the right, ``y`` the
row growing downwards. Rotations are in degrees clockwise.
"""

from __future__ import annotations

from enum import StrEnum

ROTATIONS: tuple[int, ...] = (0, 90, 180, 270)


class Side(StrEnum):
    """An edge of a tile, named by compass direction with north at the top."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def offset(self) -> tuple[int, int]:
        """The step (dx, dy) from a cell to its neighbour across this edge."""
        return _OFFSETS[self]

    @property
    def opposite(self) -> Side:
        return self.rotated(180)

    def rotated(self, rotation: int) -> Side:
        """This edge after turning the tile ``rotation`` degrees clockwise."""
        order = _CLOCKWISE
        return order[(order.index(self) + rotation // 90) % 4]


_CLOCKWISE: tuple[Side, ...] = (Side.N, Side.E, Side.S, Side.W)
_OFFSETS: dict[Side, tuple[int, int]] = {
    Side.N: (0, -1),
    Side.E: (1, 0),
    Side.S: (0, 1),
    Side.W: (-1, 0),
}


def neighbour(cell: tuple[int, int], side: Side) -> tuple[int, int]:
    """The cell across ``side`` of ``cell``."""
    dx, dy = side.offset
    return (cell[0] + dx, cell[1] + dy)


def side_towards(cell: tuple[int, int], other: tuple[int, int]) -> Side | None:
    """The edge of ``cell`` that touches ``other``, or None if they are not adjacent."""
    step = (other[0] - cell[0], other[1] - cell[1])
    for side, offset in _OFFSETS.items():
        if offset == step:
            return side
    return None


def rotate_cell(column: int, row: int, size: int, rotation: int) -> tuple[int, int]:
    """A square's cell inside a ``size``×``size`` tile after a clockwise rotation."""
    for _ in range((rotation // 90) % 4):
        column, row = size - 1 - row, column
    return column, row


def edge_middle(side: Side, size: int) -> tuple[int, int]:
    """The cell in the middle of ``side`` of a ``size``×``size`` tile (junction squares)."""
    mid = size // 2
    return {
        Side.N: (mid, 0),
        Side.E: (size - 1, mid),
        Side.S: (mid, size - 1),
        Side.W: (0, mid),
    }[side]
