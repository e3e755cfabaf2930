"""Reports: what each command prints, as data (its ``--json``) and as text.

- :mod:`~trackkit.report.tracks`: the presets, a tile set, one track square by square;
- :mod:`~trackkit.report.validation`: validation, next placements, the design space;
- :mod:`~trackkit.report.races`: a simulation, one race, the exact solo length, the benchmark;
- :mod:`~trackkit.report.compare`: tracks side by side (and :mod:`.compare_cache` for the app);
- :mod:`~trackkit.report.export` and :mod:`~trackkit.report.replay`: race files, replays;
- :mod:`~trackkit.report.sweep`: a sweep's run, the tracks a query found, the sweep benchmark.
"""
