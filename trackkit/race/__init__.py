"""Races: game content, the rules, the race engine, Monte Carlo analysis and the exact solver."""
