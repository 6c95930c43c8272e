"""``python -m p2pcards`` is the ``p2pcards`` command."""

from .cli import main

raise SystemExit(main())
