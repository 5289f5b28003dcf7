"""`python -m sheetscan` runs the command line."""

import sys

from sheetscan.cli import main

sys.exit(main())
