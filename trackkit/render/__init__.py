"""Drawing a track."""
