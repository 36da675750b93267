"""What the heuristic bot knows of each card: what it is worth, and what its ability
would bring if it acted now, from one family's reading of the table (:class:`Table`).

Values are in Influence, from the reading family's side: its own gain counts 1, an
opponent's loss counts :meth:`Table.weight` (a little less: hurting one of two
opponents helps only against that one). They are rough on purpose: a rule of thumb
that a player could apply at the table, not a search.
"""

from __future__ import annotations

from typing import ClassVar, Final

from oriflamme.compiling import mypyc_attr

from .reading import BAITS, Table

UNKNOWN_WORTH: Final = 1.0


@mypyc_attr(allow_interpreted_subclasses=True)  # plugins subclass it
class CardAdvice:
    """What the heuristic bot should know of a plugin's card, given to
    :class:`~oriflamme.bots.HeuristicBot` (``advice={key: CardAdvice()}``) by a bot kind
    a plugin registers. Override what differs from the defaults.
    """

    #: What the card is worth to its owner: per round for a Character, once for an
    #: Intrigue (a Soldier is 1.5, an Heir 2).
    # A class attribute: compiled, a plain annotated one would be an instance slot that
    # hides the value a subclass sets in its body.
    worth: ClassVar[float] = UNKNOWN_WORTH

    def activation(self, table: Table, position: int) -> float:
        """What the card's ability brings the family reading ``table`` if it acts now
        from ``position`` (the family's own card on top there), in Influence: the bot
        reveals the card when this is worth more than waiting."""
        return 0.5

    def target(self, table: Table, acting: int | None, position: int) -> float:
        """What choosing ``position`` brings, when the card's ability (``acting``: the
        position of the acting card, None if it has left the queue) asks for a target.
        The default prefers an opponent's face-up card, and never one's own."""
        if table.mine(position):
            return -1.0
        return 1.0 - 2.0 * table.bait_chance(position)


#: What a card in the queue is worth to its owner: a Character per round it acts, an
#: Intrigue once. A key not listed here (a plugin's card) is worth :data:`UNKNOWN_WORTH`.
WORTH: Final[dict[str, float]] = {
    # Base.
    "archer": 1.3,
    "soldier": 1.5,
    "spy": 1.0,
    "heir": 2.0,
    "assassination": 1.5,
    "royal_decree": 0.4,
    "lord": 1.5,
    "shapeshifter": 1.0,
    "ambush": 1.0,
    "conspiracy": 1.0,
    # Ablaze.
    "prince": 1.5,
    "twin": 1.0,
    "queen": 2.0,
    "cutthroat": 1.0,
    "apothecary": 1.0,
    "felon": 0.5,
    "schemer": 1.5,
    "impersonation": 1.5,
    "plot": 1.0,
    "trap": 1.0,
    "bribery": 1.5,
}
#: The cards that stay in the queue and act every round (the others are Intrigues,
#: discarded once used). A plugin's card is taken for a Character.
INTRIGUES: Final = frozenset(
    {"assassination", "royal_decree", "ambush", "conspiracy", "impersonation", "plot"}
    | {"trap", "bribery"}
)
#: Cards whose ability eliminates a card they choose.
KILLERS: Final = frozenset(
    {"archer", "soldier", "assassination", "cutthroat", "apothecary", "impersonation"}
)
#: What a Shapeshifter never copies.
_UNCOPIED: Final = INTRIGUES | {"shapeshifter"}


def _given(table: Table, key: str) -> CardAdvice | None:
    """The advice ``table`` was given for ``key``, if any."""
    advice = table._told
    if advice is not None:
        return advice.get(key)
    return table.advice.get(key)


def worth(table: Table, key: str) -> float:
    """What a card of ``key`` is worth to its owner (see :data:`WORTH`)."""
    advice = table._told
    if advice is None or advice:  # no advice at all: nothing to look up
        given = _given(table, key)
        if given is not None:
            return given.worth
    return WORTH.get(key, UNKNOWN_WORTH)


def horizon(table: Table) -> float:
    """How many more times a Character in play now can be expected to act: few, since
    cards are eliminated, covered and outlived."""
    return min(table.later + 1, 3)


def stake(table: Table, position: int) -> float:
    """What the owner of the top card at ``position`` loses if it is eliminated now:
    the tokens on it and what it would have brought (an expectation over what it may
    be, for a card we cannot see)."""
    found = table.stakes.get(position)
    if found is not None:
        return found
    tokens = table.tokens(position)
    key = table.keys[position]
    if key:
        found = tokens + _future(table, key, tokens)
    else:
        owner = table.owners[position]
        expected = table.expected.get(owner)
        if expected is None:
            pool = table.pool(owner)
            # sum() of a list: the summation is sum()'s own, whatever the Python.
            expected = table.expected[owner] = sum(
                [p * _future(table, k, 0) for k, p in pool.items()]
            )
        found = tokens + expected
    table.stakes[position] = found
    return found


def _future(table: Table, key: str, tokens: int) -> float:
    if key in BAITS:
        return 0.0  # eliminating it is what its owner hopes for: see kill_value
    if key == "conspiracy":
        return 1.0 + tokens  # its tokens count double when it is revealed
    if key in INTRIGUES:
        return worth(table, key)
    return worth(table, key) * horizon(table)


def kill_value(table: Table, position: int, attacker: str, gain: bool = True) -> float:
    """What eliminating the top card at ``position`` brings us, our card ``attacker``
    (a key) doing it: the elimination's 1 (unless ``gain`` is False, a Cutthroat's
    single kill), what its owner loses, and the risk of hitting a bait."""
    value = 1.0 if gain else 0.0
    owner = table.owners[position]
    key = table.keys[position]
    # What we lose if the attacker is discarded by a bait: a Character's rounds to come.
    attacker_loss = 0.0 if attacker in INTRIGUES else worth(table, attacker) * horizon(table) * 0.5
    if owner == table.me:
        if key == "ambush" and not table.up[position]:
            return value + 1.0 - attacker_loss  # counts as revealing it (first edition)
        return value - stake(table, position)
    w = table.weight(owner)
    value += w * stake(table, position)
    if key == "queen":
        value += 1.0  # RULINGS A-Queen: her killer gains 1 more
    elif key == "prince":
        value += w * worth(table, "twin") * horizon(table)  # its Twin is discarded with it
    elif key == "twin":
        value += w * worth(table, "prince") * horizon(table)
    if table.up[position]:
        return value
    if key in BAITS:
        bait = 1.0
    elif key:
        bait = 0.0
    else:
        bait = table.bait_chance(position)
    if bait:
        ambush = table.chance(owner, "ambush") if not key else float(key == "ambush")
        trap = bait - ambush
        # An Ambush gives its owner 4, a Trap steals 3 from us; both discard our card.
        value -= ambush * (4 * w + attacker_loss) + trap * (3 + 3 * w + attacker_loss)
    return value


def steal_value(table: Table, position: int) -> float:
    owner = table.owners[position]
    if owner == table.me or table.influence[owner] <= 0:
        return 0.0
    return 1.0 + table.weight(owner)


def best(values: list[float], default: float = 0.0) -> float:
    return max(values) if values else default


def activation(table: Table, key: str, position: int) -> float:
    """What the ability of ``key`` brings us if it acts now from ``position`` (our
    card on top there): a Shapeshifter copying it, a Plot activating it, or the card
    itself once revealed."""
    adjacent = table.adjacent(position)
    if key == "soldier":
        return best([kill_value(table, i, key) for i in adjacent])
    if key == "archer":
        return best([kill_value(table, i, key) for i in table.ends()])
    if key == "assassination":
        return best([kill_value(table, i, key) for i in range(table.size) if i != position])
    if key == "cutthroat":
        return best([cutthroat_value(table, i) for i in adjacent])
    if key == "impersonation":
        return best([impersonation_value(table, i, position) for i in adjacent])
    if key == "apothecary":
        return best([kill_value(table, i, key) for i in apothecary_targets(table, position)])
    if key == "spy":
        return best([steal_value(table, i) for i in adjacent])
    if key == "heir":
        acting = table.keys[position]
        others = [
            i
            for i in range(table.size)
            if i != position and table.up[i] and table.keys[i] == acting
        ]
        if not others:
            return 2.0
        # Another face-up card of the same name: neither gains; an opponent's is blocked.
        return sum([2.0 * table.weight(table.owners[i]) for i in others if not table.mine(i)])
    if key == "lord":
        return 1.0 + sum([1 for i in adjacent if table.mine(i)])
    if key == "queen":
        return 2.0
    if key in ("twin", "prince"):
        return 1.0
    if key == "schemer":
        if any(table.heights[i] > 1 for i in adjacent):
            return -stake(table, position)  # it is discarded
        return 2.0
    if key == "felon":
        return sum([table.weight(table.owners[i]) if not table.mine(i) else -1.0 for i in adjacent])
    if key == "bribery":
        return best([bribe_value(table, i) for i in bribe_targets(table)])
    if key == "shapeshifter":
        return best(
            [
                activation(table, table.keys[i], position)
                for i in adjacent
                if table.up[i] and table.keys[i] not in _UNCOPIED
            ]
        )
    if key in BAITS:
        return 1.0
    if key in ("conspiracy", "royal_decree"):
        return 0.0  # the Conspiracy's gain is its tokens; a move is judged apart
    if key == "plot":
        return best([activation(table, table.keys[i], i) for i in plot_targets(table)])
    given = _given(table, key)
    if given is not None:
        return given.activation(table, position)
    return 0.5  # a plugin's card no advice covers: its ability is taken to help a little


def cutthroat_value(table: Table, position: int) -> float:
    """RULINGS A-Cutthroat: the target, then every opponent's face-up top card of its
    name; a single elimination gains nothing."""
    key = table.keys[position]
    same = [
        i
        for i in range(table.size)
        if i != position and key and table.up[i] and table.keys[i] == key and not table.mine(i)
    ]
    if not same:
        return kill_value(table, position, "cutthroat", gain=False)
    return sum([kill_value(table, i, "cutthroat") for i in [position, *same]])


def impersonation_value(table: Table, position: int, acting: int) -> float:
    """Eliminate an adjacent card; an opponent's lone Character comes back as ours, if
    we hold its name among our discarded, eliminated or set-aside cards."""
    value = kill_value(table, position, "impersonation")
    key = table.keys[position]
    if (
        key
        and table.up[position]
        and not table.mine(position)
        and key not in INTRIGUES
        and table.heights[position] == 1
        and _can_replace(table, key)
    ):
        value += worth(table, key) * horizon(table)
    return value


def _can_replace(table: Table, key: str) -> bool:
    seen = table.seen
    zones = [seen.discarded[table.me], seen.eliminated[table.me]]
    if key != "twin":
        zones.append(seen.set_aside)
    return any(seen.key(card) == key for zone in zones for card in zone)


def apothecary_targets(table: Table, position: int) -> list[int]:
    """RULINGS A-Apothecary: a top card next to another of our top cards."""
    friends = {i for i in range(table.size) if i != position and table.mine(i)}
    return [
        i
        for i in range(table.size)
        if i != position and any(j in friends for j in table.adjacent(i))
    ]


def bribe_targets(table: Table) -> list[int]:
    """RULINGS A-Bribery: face-up Characters alone in their position."""
    return [
        i
        for i in range(table.size)
        if table.heights[i] == 1 and table.up[i] and table.keys[i] not in INTRIGUES
    ]


def bribe_value(table: Table, position: int) -> float:
    owner = table.owners[position]
    if owner == table.me:
        return 0.0
    gained = worth(table, table.keys[position]) * horizon(table)
    return gained * (1.0 + table.weight(owner))


def plot_targets(table: Table) -> list[int]:
    return [
        i
        for i in range(table.size)
        if table.up[i] and table.mine(i) and table.keys[i] not in INTRIGUES
    ]
