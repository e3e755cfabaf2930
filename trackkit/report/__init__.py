"""Reports: tracks compared, races as files, replays in words."""
