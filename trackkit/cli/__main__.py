"""``python -m trackkit.cli``: the command line."""

import sys

from trackkit.cli import main

sys.exit(main())
