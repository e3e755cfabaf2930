"""Mush! Mush! – Snow Tails 2: a printed board of lanes, corners and buildings.

So far only the track layer: the track file format (:mod:`.track`), the space graph and
its geometry (:mod:`.geometry`), race position (:mod:`.position`), the track validator
(:mod:`.validation`), the data files (:mod:`.content`) and the demo tracks
(:mod:`.presets`). The race engine comes later. The rules are described in SNOWTAILS.md;
every value it marks as reconstructed lives in ``data/`` or in a track file, marked so.
"""

GAME = "snowtails"
