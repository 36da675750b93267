"""The state of a game: every card's place, face and tokens, Influence, round and phase.

Containers are chosen so that a clone is a handful of shallow copies: the queue
is a list of stacks and each stack a tuple (bottom first); hands and piles map a
family to a tuple. Changing a stack or a hand replaces its tuple, so a clone
never shares anything it could see change. What never changes during a game
(the rules table, which family and key each card id has) is shared.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from .config import GameConfig
from .rules import GameRules

if TYPE_CHECKING:
    from .decisions import Continuation, Decision, Task
    from .events import Record

Phase = Literal["placement", "resolution", "end"]
PLACEMENT: Phase = "placement"
RESOLUTION: Phase = "resolution"
END: Phase = "end"  # docs/rulings.md P8: the game's end is a phase
LAST_ROUND = 6
PILES = ("hands", "set_aside", "reserve", "discarded", "eliminated")


class State:
    """The data of a game. :class:`~oriflamme.Game` adds the rules that change it."""

    __slots__ = (
        "acting",
        "acting_gone",
        "bribes",
        "config",
        "direction",
        "discarded",
        "eliminated",
        "families",
        "family_of",
        "first",
        "hands",
        "influence",
        "key_of",
        "log",
        "pending",
        "phase",
        "placed",
        "queue",
        "reserve",
        "resume",
        "revealing",
        "round",
        "rules",
        "set_aside",
        "tasks",
        "tokens",
        "up",
        "walk",
    )

    # Shared, never changed after creation.
    rules: GameRules
    config: GameConfig
    families: tuple[str, ...]  # seat order, clockwise
    family_of: dict[str, str]  # card id -> its printed family (original owner)
    key_of: dict[str, str]  # card id -> card key
    direction: str  # which way the Resolution Direction tile points (display only)

    # The position.
    queue: list[tuple[str, ...]]  # in resolution order; each stack bottom first
    up: set[str]  # face-up cards in the queue
    tokens: dict[str, int]  # cards with tokens on them
    bribes: dict[str, str]  # card -> family whose Bribery token it carries
    hands: dict[str, tuple[str, ...]]
    set_aside: dict[str, tuple[str, ...]]
    reserve: dict[str, tuple[str, ...]]
    discarded: dict[str, tuple[str, ...]]  # piles in front of each ORIGINAL owner
    eliminated: dict[str, tuple[str, ...]]
    influence: dict[str, int]

    # Where the game is.
    round: int
    phase: Phase
    first: int  # seat of the First Player this round
    placed: int  # families whose placement turn has passed this round
    walk: int  # resolution: the acting position, or the next one to resolve
    acting: str | None  # the card whose turn it is in the walk
    acting_gone: bool  # the acting card's position has left the queue (RULINGS R8)
    revealing: str | None  # the acting card was revealed this turn
    pending: Decision | None  # the question the game waits on
    resume: Continuation | None  # how an ability goes on once it is answered; None for
    # a placement or a reveal, which the engine answers itself
    tasks: list[Task]
    log: list[Record]

    def clone(self) -> Any:
        """An independent copy: changing one never changes the other."""
        # Spelled out slot by slot: search clones often, and a loop over the slots
        # with getattr and setattr costs about twice as much.
        other = object.__new__(type(self))
        other.rules = self.rules
        other.config = self.config
        other.families = self.families
        other.family_of = self.family_of
        other.key_of = self.key_of
        other.direction = self.direction
        other.queue = self.queue.copy()
        other.up = self.up.copy()
        other.tokens = self.tokens.copy()
        other.bribes = self.bribes.copy()
        other.hands = self.hands.copy()
        other.set_aside = self.set_aside.copy()
        other.reserve = self.reserve.copy()
        other.discarded = self.discarded.copy()
        other.eliminated = self.eliminated.copy()
        other.influence = self.influence.copy()
        other.round = self.round
        other.phase = self.phase
        other.first = self.first
        other.placed = self.placed
        other.walk = self.walk
        other.acting = self.acting
        other.acting_gone = self.acting_gone
        other.revealing = self.revealing
        other.pending = self.pending
        other.resume = self.resume
        other.tasks = self.tasks.copy()
        other.log = self.log.copy()
        return other

    def restore(self, other: State) -> None:
        """Become exactly ``other`` (a clone taken earlier): every slot, taken over."""
        for slot in State.__slots__:
            setattr(self, slot, getattr(other, slot))

    def pile(self, name: str) -> dict[str, tuple[str, ...]]:
        """One of the per-family zones by name: ``hands``, ``set_aside``, ``reserve``..."""
        if name not in PILES:
            raise KeyError(name)
        return getattr(self, name)  # type: ignore[no-any-return]

    @property
    def first_player(self) -> str:
        return self.families[self.first]
