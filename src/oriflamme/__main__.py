"""``python -m oriflamme``: the same as the ``oriflamme`` command."""

from .cli import main

raise SystemExit(main())
