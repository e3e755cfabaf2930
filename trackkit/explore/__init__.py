"""Exploring the design space: a track's profile, and (built on it) generating, sweeping,
querying and searching legal tracks."""
