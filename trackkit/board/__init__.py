"""What every game shares below its rules: the one reader of data files (located errors),
the links that share a track, and the problem type a validator reports."""
