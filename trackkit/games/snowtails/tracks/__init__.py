"""The demo tracks, as track files (data only; reconstructions, not the printed board)."""
