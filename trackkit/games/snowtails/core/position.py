"""Race position: which of two spaces is ahead (SNOWTAILS.md §3.11, §5.3).

The rulebook's page on race position is missing; the general rule is reconstructed from
the base game, the tight-corner rule is stated (rulebook G):

- **General [R].** The space whose front edge is further along the track is ahead. Level
  spaces (the same row of a straight, or equal front edges in a corner) are told apart by
  the lane nearest the inside of the corner the space is in, or on a straight of the next
  corner; with no corner ahead, or with ``tiebreak = "left"``, the leftmost lane leads.
- **Tight corners [S].** Inside a tight corner every space ranks just above the corner's
  entry: above every sled before the corner and below every sled after it. Among sleds
  in the corner the outermost lane leads, then the next, and so on [S]; within one lane the
  further space leads [R]. So a drift outward gains a place.

A rank key is a tuple; a higher key is further ahead. Keys are exact (fractions), so two
sleds tie only on the very same space (possible on the start row in round 1).

>>> from fractions import Fraction
>>> row = {"front": Fraction(1, 4), "lane": 3, "lanes": 5, "tight": False, "tiebreak_turn": "left"}
>>> rank_key(row) > rank_key({**row, "lane": 4})   # the inside of the next (left) corner
True
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, NamedTuple


class RankKey(NamedTuple):
    """How far ahead a space is: ``progress`` first (the front edge, or a tight corner's
    entry), then ``tight`` (1 inside a tight corner, so it ranks above the row before the
    corner), then the lane's ``tiebreak`` score, then ``within`` (the front edge inside a
    tight corner, 0 elsewhere)."""

    progress: Fraction
    tight: int
    tiebreak: int
    within: Fraction


def lanes_from_outside(lane: int, lanes: int, turn: str) -> int:
    """1 for the outermost lane of a corner turning ``turn`` (in the direction of
    travel), ``lanes`` for the innermost.

    >>> lanes_from_outside(5, 5, "left"), lanes_from_outside(5, 5, "right")
    (1, 5)
    """
    return lanes + 1 - lane if turn == "left" else lane


def rank_key(space: Mapping[str, Any], tiebreak: str = "inside") -> RankKey:
    """The rank key of a space from its node attributes (:mod:`.course`): ``front``,
    ``lane``, ``lanes``, ``tight`` and ``tiebreak_turn``, plus ``corner_entry`` and
    ``turn`` in a tight corner."""
    lane, lanes = space["lane"], space["lanes"]
    if space["tight"]:
        outside = lanes_from_outside(lane, lanes, space["turn"])
        return RankKey(space["corner_entry"], 1, lanes - outside, space["front"])
    turn = space["tiebreak_turn"] if tiebreak == "inside" else None
    score = lane if turn == "right" else -lane  # the inside lane scores highest
    return RankKey(space["front"], 0, score, Fraction(0))
