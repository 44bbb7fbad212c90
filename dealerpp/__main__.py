"""``python -m dealerpp`` runs the ``dealerpp`` command."""

import sys

from dealerpp.cli import main

sys.exit(main())
