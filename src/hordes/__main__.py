"""`python -m hordes` runs the command line, the same as the `hordes` script."""

import sys

from hordes.cli import main

sys.exit(main())
