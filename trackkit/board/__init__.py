"""What every tile-and-track race game shares: the table grid, tiles, tracks and their
files, the composed square graph, structural checks and the one reader of data files."""
