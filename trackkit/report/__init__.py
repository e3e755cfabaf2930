"""Reports shared by every game: what the generic commands print, as data (their
``--json``) and as text. Each game tells its own tracks and races in its face
(:mod:`trackkit.games.face`).

- :mod:`~trackkit.report.validation`: a validation's problems;
- :mod:`~trackkit.report.races`: a simulation, the speed benchmark;
- :mod:`~trackkit.report.profile` and :mod:`~trackkit.report.verdict`: a track's profile
  and its verdict in words;
- :mod:`~trackkit.report.export` and :mod:`~trackkit.report.generate`: race and track files;
- :mod:`~trackkit.report.sweep` and :mod:`~trackkit.report.search`: a sweep's run, the
  tracks a query or a search found.
"""
