"""Mush! Mush! – Snow Tails 2: a printed board of lanes, corners and buildings.

Its rules and engine are in ``core`` (the template every game follows). The track layer: the
track file format (:mod:`.core.track`), the course (the space graph and its geometry,
:mod:`.core.course`), race position (:mod:`.core.position`), the track validator
(:mod:`.core.check`), the data files (:mod:`.core.content`) and the demo tracks
(:mod:`.core.presets`).

The race: a course as arrays (:mod:`.core.board`), the race state (:mod:`.core.state`), the
rules of a turn (:mod:`.core.rules`, :mod:`.core.movement`, :mod:`.core.cards`), the engine
of rounds, races, batches and tournaments (:mod:`.core.engine`), the greedy, smart and bold
policies (:mod:`.core.policies`), and their Python entry points (:mod:`.core.race`). What the
command line and the app show of it is in ``face``.

The rules are described in SNOWTAILS.md; every value it marks as reconstructed lives in
``data/`` or in a track file, marked so, and every rule it leaves open is decided in the
docstring of the module that implements it (listed in :mod:`.core.engine`).
"""

GAME = "snowtails"
# a sled holds at most 4 collision cards; the 5th means repairs (rulebook C): the rules' and
# the content's (a hand must be bigger), so here, below both
MAX_COLLISIONS = 4
