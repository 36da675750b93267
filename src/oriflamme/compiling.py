"""What a module compiled with mypyc needs, and is harmless when it runs as Python:
``mypyc_attr`` (e.g. to let interpreted classes subclass a compiled one) and ``i64``."""

from .core import i64, mypyc_attr

__all__ = ["i64", "mypyc_attr"]
