"""Games read from outside: a saved game loaded, a game set up at a position, and the
checks every save and position passes. The engine (:mod:`oriflamme.core`) only writes
(:meth:`~oriflamme.Game.to_json`, :meth:`~oriflamme.Game.position`); reading and
checking what anyone may have written is this package's job, in its private modules
(``_load``: a save's fields; ``_position``: a position's labels; ``_legality`` and
``_control``: the game against the rules; ``_trial``: a save's answers tried on
copies), which may import core's private modules.
"""

from ..core import LABEL, Game, GameConfig, Position, Registry, game_of, snapshot
from ._legality import check_state
from ._load import load as _load
from ._position import state_from_position

__all__ = ["LABEL", "check_state", "from_position", "load", "snapshot", "state_from_position"]


def load(
    text: str, *, registry: Registry | None = None, allow_other_versions: bool = False
) -> Game:
    """A game saved with :meth:`~oriflamme.Game.to_json`, identical. The save names the
    plugins it was played with: one missing here, or of another version, is a
    :class:`~oriflamme.SaveError` that says so (pass ``allow_other_versions`` to load
    anyway)."""
    registry = registry if registry is not None else Registry()
    return game_of(_load(text, registry, allow_other_versions=allow_other_versions))


def from_position(
    position: Position,
    config: GameConfig,
    *,
    registry: Registry | None = None,
    record: bool = True,
) -> Game:
    """A game at ``position`` (cards by label), advanced to its first decision.

    ``config`` gives the families, sets, variants and first player; the card list
    is every card of the sets.
    """
    registry = registry if registry is not None else Registry()
    keys = tuple(key for label in position.cards() for key in [label.split(".")[1]])
    rules = registry.rules(config.sets, dict(config.variants), extra=keys)
    cards = registry.set_cards(config.sets)
    state = state_from_position(position, rules, config, cards=cards, recording=record)
    return game_of(state, play_on=True)
