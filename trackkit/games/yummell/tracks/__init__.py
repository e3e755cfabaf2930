"""The preset tracks of the rulebook, as track files (data only)."""
