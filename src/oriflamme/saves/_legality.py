"""Whether a whole game from outside (a save's) is one the rules allow: its table and
deal by core's own check, which what the engine writes is held to as well, then its
question and the work waiting (:mod:`._control`)."""

from __future__ import annotations

from ..core._legality import check_position
from ..core._state import State
from ._control import check_control


def check_state(state: State) -> None:
    """Raise :class:`PositionError` naming the first thing in ``state``, a whole game
    (a save's), that the rules forbid: its table and deal, its question and work."""
    check_position(state, whole=True)
    check_control(state)
