"""``python -m dealerpp`` runs the ``dealerpp`` command."""

import sys

from dealerpp.quick import main

sys.exit(main("dealerpp"))
