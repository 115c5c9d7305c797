"""`python -m app COMMAND`: the same as the `rummy` console script."""

import sys

from app.cli import main

sys.exit(main())
