"""Yummell's pages in the app: its own (Design, Tiles) and the hooks it adds to the shared ones (the
Race page's verdict, fairness tables, heat map and replay). They use the app's shared
widgets; the app reaches them only through the face's declarations."""
