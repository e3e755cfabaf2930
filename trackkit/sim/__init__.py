"""Simulation shared by every game: seeded batches, workers and Monte Carlo figures."""
