"""Problems found in a track: a stable code, where, and a message that says how to fix it."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

Level = Literal["structure", "building"]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a track.

    ``code`` is stable (scripts and tests match on it); ``placement`` is the index of the
    placement concerned in placing order (0 is the first tile placed), or None when the
    problem concerns the whole track; ``tile`` the tile number there.
    """

    code: str
    message: str
    level: Level = "structure"
    placement: int | None = None
    tile: int | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

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
        where = f"placement {self.placement + 1}: " if self.placement is not None else ""
        return f"[{self.code}] {where}{self.message}"
