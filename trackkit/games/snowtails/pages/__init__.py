"""Snow Tails' pages in the app: the hooks it adds to the shared Race page (where sleds collide,
the sample race on the board). The app reaches them only through the face's declarations."""
