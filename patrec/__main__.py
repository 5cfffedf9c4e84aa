"""``python -m patrec``: the same as the ``patrec`` command."""

import sys

from .cli import main

sys.exit(main())
