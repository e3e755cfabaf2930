"""Race games, each a folder behind one interface."""
