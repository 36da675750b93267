"""What the ahead-of-time compiler (mypyc, see setup.py) needs told, at no cost when the
package runs as pure Python."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy_extensions import i64, mypyc_attr
else:
    try:
        from mypy_extensions import i64, mypyc_attr
    except ImportError:  # not installed: only the compiler reads the marks

        def mypyc_attr(*attrs, **flags):
            return lambda cls: cls

        # Compiled, a machine integer (arithmetic without boxing); else an int.
        i64 = int


__all__ = ["i64", "mypyc_attr"]
