"""Problems found in a track, by every game: a stable code, where, how serious, and a
message that says how to fix it.

A problem is located the way its game's tracks are: by tile placement in a tile game
(Yummell), by the track file's field and a board address in a game on a printed board
(Snow Tails). Its ``to_json()`` has the same keys in every game, so every validation's
JSON has one schema.

>>> print(Problem("not-adjacent", "tile 7 does not touch the start tile", placement=1))
[not-adjacent] placement 2: tile 7 does not touch the start tile
>>> print(Problem("kennels-late", "the Kennels begin late.", "warning", field="buildings[0]"))
[kennels-late] buildings[0]: the Kennels begin late.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with, or unusual about, a track.

    ``code`` is stable (scripts and tests match on it). An ``error`` makes the track
    illegal; a ``warning`` goes against a rulebook guideline and leaves it legal. ``rule``
    says which of the game's rules it concerns, when the game has several (Yummell:
    ``"structure"`` or ``"building"``, the optional track-building rule).

    Where it is, as far as the game can say: ``placement``, the index of the placement
    concerned in placing order (0 is the first tile placed), and ``tile``, the tile number
    there; ``field``, the track file's field; ``where``, a board address. All None: the
    problem concerns the whole track.
    """

    code: str
    message: str
    severity: Severity = "error"
    rule: str | None = None
    placement: int | None = None
    tile: int | None = None
    field: str | None = None
    where: tuple[Any, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """Every key, in every game (None where the game has no such thing)."""
        return {
            "code": self.code,
            "message": self.message,
            "severity": self.severity,
            "rule": self.rule,
            "placement": self.placement,
            "tile": self.tile,
            "field": self.field,
            "where": list(self.where) if self.where is not None else None,
        }

    @property
    def sentence(self) -> str:
        """The message for people, without the code: "Placement 2: tile 7 … Place it there."."""
        text = self.message.strip()
        if self.placement is None:
            text = text[:1].upper() + text[1:]
        else:
            text = f"Placement {self.placement + 1}: {text}"
        return text if text.endswith((".", "!", "?")) else text + "."

    def __str__(self) -> str:
        """``[code] placement N: message``, ``[code] field: message`` or ``[code] message``:
        the location the problem has (a board address is named in the message)."""
        located = []
        if self.placement is not None:
            located.append(f"placement {self.placement + 1}")
        if self.field:
            located.append(self.field)
        where = f"{', '.join(located)}: " if located else ""
        return f"[{self.code}] {where}{self.message}"
