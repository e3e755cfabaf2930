"""``python -m trackkit.cli``: the command line."""

import sys

from trackkit.cli import main

if __name__ == "__main__":
    sys.exit(main())
