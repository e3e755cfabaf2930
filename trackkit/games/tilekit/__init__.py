"""The tile-game kit: what a race game built of square tiles shares (Yummell uses it; a game
on a printed board, Snow Tails, does not): the table grid, tiles and tile sets, tracks of
placed tiles and their files, the composed square graph and its structural checks."""
