"""Mush! Mush! – Snow Tails 2: a printed board of lanes, corners and buildings.

The track layer: the track file format (:mod:`.track`), the space graph and its geometry
(:mod:`.geometry`), race position (:mod:`.position`), the track validator
(:mod:`.validation`), the data files (:mod:`.content`) and the demo tracks
(:mod:`.presets`).

The race: a course as arrays (:mod:`.board`), the race state (:mod:`.state`), the rules
of a turn (:mod:`.rules`, :mod:`.movement`, :mod:`.cards`), the engine of rounds, races,
batches and tournaments (:mod:`.engine`), the greedy and smart policies
(:mod:`.policies`), and their Python entry points (:mod:`.race`).

The rules are described in SNOWTAILS.md; every value it marks as reconstructed lives in
``data/`` or in a track file, marked so, and every rule it leaves open is decided in the
docstring of the module that implements it (listed in :mod:`.engine`).
"""

GAME = "snowtails"
# a sled holds at most 4 collision cards; the 5th means repairs (rulebook C): the rules' and
# the content's (a hand must be bigger), so here, below both
MAX_COLLISIONS = 4
