"""Balancing a game's content: ``trackkit tune`` moves the values a designer lets move
(characters' statistics and abilities, advantages, the deck's counts) until every
character's win share is near its fair share and races keep their length.

- :mod:`.spec`: the tune file (what may move, where to balance, the targets);
- :mod:`.content_files`: the values in a content folder, written back marked;
- :mod:`.evaluate`: a candidate raced over the panel with common random numbers, scored;
- :mod:`.targets`: the targets, and a figure judged met, not sure or missed by its interval;
- :mod:`.search`: the search with Optuna, resumable, and its confirmation;
- :mod:`.result`: what it found, as data.
"""
