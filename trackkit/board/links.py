"""Tracks shared as text: a track file's text packed into a link, and read back from a link
or an uploaded file with its size and encoding checked (any game's track file). What a
visitor sends a server is bounded here, before any game reads it.

>>> text = 'name = "Mine"'
>>> unpack_link(pack_link(text)) == text
True
"""

from __future__ import annotations

import base64
import zlib

from trackkit.errors import TrackFileError

MAX_LINK_TEXT = 4000
MAX_UPLOAD_BYTES = 1024 * 1024  # a ten-tile track file is about 1 KB


def pack_link(text: str) -> str:
    """A track file's ``text`` (any game's) as URL-safe text: compressed, base64."""
    packed = zlib.compress(text.encode("utf-8"), level=9)
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def unpack_link(text: str) -> str:
    """The track file's text a link holds (:func:`pack_link`); :class:`TrackFileError` if
    the link is damaged or would unpack to more than a track file's size."""
    if len(text) > MAX_LINK_TEXT:
        raise TrackFileError("link", None, "the track in this link is too long to be one")
    try:
        # a link decompresses to at most a track file's size: a small link cannot expand
        # into gigabytes
        inflater = zlib.decompressobj()
        packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        data = inflater.decompress(packed, MAX_UPLOAD_BYTES)
        if inflater.unconsumed_tail:
            raise TrackFileError("link", None, "the track in this link is too long to be one")
        return data.decode("utf-8")
    except (ValueError, zlib.error, UnicodeDecodeError):
        raise TrackFileError("link", None, "the track in this link is damaged") from None


def uploaded_text(data: bytes, source: str) -> str:
    """The text of an uploaded file, its size and encoding checked (any game's track file).
    Raises :class:`TrackFileError`."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise TrackFileError(
            source,
            None,
            f"{len(data):,} bytes is too large for a track file "
            f"(the limit is {MAX_UPLOAD_BYTES // 1024:,} KB; a ten-tile track is about 1 KB)",
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise TrackFileError(
            source, None, "is not a text (TOML) file in UTF-8; save the track as a .toml file"
        ) from None
