"""Games read from outside: a state's snapshot (the data of a save), the legality check
every save and position passes, and a state built from a position."""

from ..core import LABEL, check_state, snapshot, state_from_position

__all__ = ["LABEL", "check_state", "snapshot", "state_from_position"]
