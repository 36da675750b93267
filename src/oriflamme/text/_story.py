"""The story of a game for one family: a line per thing that happened, in English.

A :class:`Story` reads the events of that family's observations, in order, and tells
each one naming the card behind it and its owner: "Blue's Soldier (position 3)
eliminated your face-down Lord: blue +1." Nothing is told twice: the Influence a
reveal or an elimination brings is told on its line, not again on its own. A card
whose turn did nothing says so, in its own words when its card data gives them
(``idle``). The terminal prints these lines and the web page shows them as its log.

Events name cards by id; where a card sits is kept here by following the events
(every change to the queue is one), so a line can say "position 3" as the table
showed it then. What a card is called comes from the observation, which names only
cards the family may see; a card another family placed is never named at its
placement, nor while it lies hidden, even if it is known later: the story read whole
is the story read as it happened. Card names may be in another language
(``language``: a code the card data names, e.g. ``fr`` or ``pl``). Each line is
printable as it is: a character a terminal would obey, in a plugin's card name or a
save's family name, is written out (:func:`~oriflamme.text.escaped`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from oriflamme import CardDef, CardId, Observation, RevealTokens
from oriflamme.events import (
    Activated,
    Applied,
    Bribed,
    Discarded,
    Eliminated,
    Event,
    Gained,
    GameEnded,
    Lost,
    Moved,
    Placed,
    Revealed,
    RoundEnded,
    RoundStarted,
    Stolen,
    TokenAdded,
)
from oriflamme.text import counted, escaped


def _capital(line: str) -> str:
    return line[:1].upper() + line[1:]


class Story:
    """What one family reads of a game, told as it happens.

    Call :meth:`read` with each new observation of the game, oldest first: it returns
    the lines for the events that observation adds. A story starts at the game's
    first event (a saved game keeps them all).
    """

    def __init__(self, definitions: Mapping[str, CardDef], language: str = "en") -> None:
        self.definitions = definitions
        self.language = language
        self.told = 0  # events read so far
        self._queue: list[list[CardId]] = []  # as the events left it, stacks bottom first
        self._up: set[CardId] = set()
        # Others' cards placed face down and not seen since: named by nobody, even once
        # they are known, so that a story read whole is the story read as it happened.
        self._hidden: set[CardId] = set()
        self._bribes: dict[CardId, str] = {}
        self._turn: CardId | None = None  # the card whose turn it is, once activated
        self._did = False  # whether that turn has done anything yet
        self._seen: Observation | None = None

    @property
    def queue(self) -> tuple[tuple[CardId, ...], ...]:
        """The queue as the events read so far left it (stacks bottom first)."""
        return tuple(tuple(stack) for stack in self._queue)

    # Reading events.

    def read(self, seen: Observation, events: Sequence[Event] | None = None) -> list[str]:
        """The lines for ``seen``'s events not yet read (``events``: ``seen.events``,
        for a caller that has them already)."""
        self._seen = seen
        events = seen.events if events is None else events
        lines: list[str] = []
        index = self.told
        while index < len(events):
            event = events[index]
            following = events[index + 1] if index + 1 < len(events) else None
            skip = self._tell(event, following, lines)
            index += 2 if skip else 1
        self.told = len(events)
        if self._turn is not None and seen.acting != self._turn:
            self._close(lines)  # its turn is over, though no event has said so yet
        return [_capital(escaped(line)) for line in lines]

    def _tell(self, event: Event, following: Event | None, lines: list[str]) -> bool:
        """Tell ``event``; True if ``following`` was told with it (and must be skipped)."""
        if (
            isinstance(event, Gained)
            and isinstance(following, Revealed)
            and following.card == event.card
            and following.gained == event.amount
        ):  # the tokens a reveal brings are gained just before it is logged
            self._close(lines)
            lines.append(self._revealed(following))
            return True
        if isinstance(event, Activated | TokenAdded | Revealed | RoundEnded | GameEnded):
            self._close(lines)  # a new turn, or the round's end: the last turn is over
        elif isinstance(event, Placed) and not event.face_up:
            self._close(lines)  # a placement phase
        line: str | None = None
        merged = False
        if isinstance(event, RoundStarted):
            first = (
                "you place" if event.first_player == self._you else f"{event.first_player} places"
            )
            line = f"Round {event.round} begins: {first} first."
        elif isinstance(event, Placed):
            line = self._placed(event)
        elif isinstance(event, TokenAdded):
            line = self._token(event)
        elif isinstance(event, Revealed):
            line = self._revealed(event)
        elif isinstance(event, Activated):
            self._turn = event.card
            self._did = False
        elif isinstance(event, Eliminated):
            gain = following if isinstance(following, Gained) else None
            # The 1 Influence an elimination brings (RULINGS R5); a Cutthroat's count of
            # a whole sweep is its own line.
            merged = (
                gain is not None
                and event.by is not None
                and gain.card == event.by
                and gain.amount == 1
            )
            line = self._eliminated(event, gain if merged else None)
        elif isinstance(event, Applied):
            line = self._applied(event)
        elif isinstance(event, Discarded):
            line = self._discarded(event, following, lines)
        elif isinstance(event, Moved):
            line = self._moved(event)
        elif isinstance(event, Gained):
            line = self._gained(event)
        elif isinstance(event, Lost):
            line = self._lost(event)
        elif isinstance(event, Stolen):
            line = self._stolen(event)
        elif isinstance(event, Bribed):
            line = self._bribed(event)
        elif isinstance(event, RoundEnded):
            line = f"Round {event.round} is over."
        elif isinstance(event, GameEnded):
            line = self._ended(event)
        if line is not None:
            if self._turn is not None and not isinstance(event, Revealed | RoundStarted):
                self._did = True
            lines.append(line)
        return merged

    def _close(self, lines: list[str]) -> None:
        """End the turn in progress, saying so if it did nothing."""
        card = self._turn
        if card is not None and not self._did:
            definition = self._definition(card)
            idle = definition.idle_in(self.language) if definition is not None else None
            lines.append(f"{self._at(card)} {idle or 'does nothing'}.")
        self._turn = None
        self._did = False

    # Each kind of event.

    def _placed(self, event: Placed) -> str:
        queue = self._queue
        card = event.card
        by = self._turn  # named where it stood as it acted, before the queue changes
        acting = self._at(by) if by is not None and self._where(by) is not None else None
        if event.on is not None:
            where = f"on top of position {event.position + 1}, covering {self._name(event.on)}"
            if event.position < len(queue):
                queue[event.position].append(card)
        else:
            if not queue:
                where = "to start the queue (position 1)"
            elif event.position == 0:
                where = "at the first end (position 1)"
            elif event.position >= len(queue):
                where = f"at the last end (position {len(queue) + 1})"
            else:
                where = f"as position {event.position + 1}"
            queue.insert(min(event.position, len(queue)), [card])
        if not event.face_up and self._seen is not None and card not in self._seen.own_keys:
            self._hidden.add(card)
        if event.face_up:  # put in by the card whose turn it is (a Prince, an Impersonation)
            self._up.add(card)
            if acting is not None and by != card:
                return f"{acting} put {self._name(card)} into the queue face up {where}."
            return f"{self._name(card)} came into the queue face up {where}."
        if event.family == self._you:
            return f"you placed {self._name(card, face_down=False)} face down {where}."
        return f"{event.family} placed a card face down {where}."

    def _token(self, event: TokenAdded) -> str:
        card = event.card
        who = self._who(event.family)
        if who != "you" and self._owner(card) == self._colour(card):
            kept = f"its card at position {event.position + 1}"
        else:
            kept = f"{self._name(card, face_down=False)} (position {event.position + 1})"
        return f"{who} kept {kept} face down: {counted(event.tokens, 'token')} on it now."

    def _revealed(self, event: Revealed) -> str:
        self._up.add(event.card)
        self._hidden.discard(event.card)
        line = f"{self._at(event.card)} is revealed"
        if not event.tokens:
            return line + "."
        with_tokens = f"{line} with {counted(event.tokens, 'token')}"
        if not event.gained:
            one = event.tokens == 1
            definition = self._definition(event.card)
            if definition is not None and definition.reveal_tokens is RevealTokens.SUPPLY:
                return f"{with_tokens}, which {'goes' if one else 'go'} back to the supply."
            return f"{with_tokens}, which {'stays' if one else 'stay'} on it for its ability."
        return f"{with_tokens}: {self._score(event.family, event.gained)}."

    def _eliminated(self, event: Eliminated, gain: Gained | None) -> str:
        card = event.card
        self._hidden.discard(card)  # turned face up as it goes (RULINGS R5)
        was = self._name(card, face_down=event.face_down)
        where = self._where(card)
        victim = was if where is None else f"{was} (position {where})"
        if event.by is None:
            line = f"{victim} was eliminated"
        elif event.by == card:
            line = f"{self._at(card)} eliminated itself"
        else:
            line = f"{self._at(event.by)} eliminated {victim}"
        if event.tokens:
            line += f", and its {counted(event.tokens, 'token')} went back to the supply"
        self._leave(card)
        if gain is not None:
            return f"{line}: {self._score(gain.family, gain.amount)}."
        return line + "."

    def _discarded(self, event: Discarded, following: Event | None, lines: list[str]) -> str:
        card = event.card
        definition = self._definition(card)
        if (
            card == self._turn
            and definition is not None
            and definition.discard_after_use
            # A card that discards itself first and then acts (a Plot) goes on with
            # its turn: an ability applies next, or it is asking its question.
            and not isinstance(following, Applied)
            and not (following is None and self._seen is not None and self._seen.acting == card)
        ):
            # Its discard after use follows whatever it did: if it did nothing, say so first.
            self._close(lines)
        self._hidden.discard(event.card)  # onto a face-up pile
        line = f"{self._at(event.card)} is discarded"
        self._leave(event.card)
        if event.pile == "eliminated":
            return f"{line} onto the eliminated pile, as it carried a Bribery token."
        return line + "."

    def _applied(self, event: Applied) -> str:
        card, source = event.card, event.source
        if card != source:  # a copy: a Shapeshifter's
            return f"{self._at(card)} copies the ability of {self._at(source)}."
        turn = self._turn
        if turn is not None and turn != card:  # a Plot's Character, acting as itself
            return f"{self._at(turn)} activates {self._at(card)}."
        return f"{self._at(card)} applies its ability."

    def _moved(self, event: Moved) -> str:
        card = event.card
        name = self._name(card)
        mover = self._turn
        acting = self._at(mover) if mover is not None and mover != card else None
        queue = self._queue
        self._lift(card)  # it keeps its face and any Bribery token
        queue.insert(min(event.to, len(queue)), [card])
        move = f"from position {event.source + 1} to position {event.to + 1}"
        if acting is not None:
            return f"{acting} moved {name} {move}."
        return f"{name} moved {move}."

    def _gained(self, event: Gained) -> str:
        who = self._who(event.family)
        amount = f"{event.amount} Influence"
        if event.card is None:
            return f"{who} gained {amount}."
        score = self._score(event.family, event.amount)
        if self._owner(event.card) == event.family:
            return f"{self._at(event.card)} gains {amount}: {score}."
        return f"{self._at(event.card)} gives {who} {amount}: {score}."

    def _lost(self, event: Lost) -> str:
        who = self._who(event.family)
        amount = f"{event.amount} Influence"
        score = self._score(event.family, -event.amount)
        if event.card is None:
            return f"{who} lost {amount}: {score}."
        return f"{self._at(event.card)} makes {who} lose {amount}: {score}."

    def _stolen(self, event: Stolen) -> str:
        amount = f"{event.amount} Influence"
        victim = self._who(event.victim)
        gain = self._score(event.thief, event.amount)
        loss = self._score(event.victim, -event.amount)
        by = self._who(event.thief) if event.card is None else self._at(event.card)
        if event.card is not None and self._owner(event.card) != event.thief:
            by += f" (for {self._who(event.thief)})"
        return f"{by} stole {amount} from {victim}: {gain}, {loss}."

    def _bribed(self, event: Bribed) -> str:
        target = self._at(event.card)
        self._bribes[event.card] = event.family
        who = self._who(event.family)
        by = self._turn
        lead = f"{self._at(by)} put" if by is not None and by != event.card else f"{who} put"
        return f"{lead} {_possessive(who)} Bribery token on {target}: it belongs to {who} now."

    def _ended(self, event: GameEnded) -> str:
        scores = ", ".join(
            f"{family} {score}" + (" (you)" if family == self._you else "")
            for family, score in event.scores
        )
        winners = [self._who(family) for family in event.winners]
        if len(winners) > 1:
            result = f"{', '.join(winners[:-1])} and {winners[-1]} share the win"
        elif winners:
            result = "you win" if winners[0] == "you" else f"{winners[0]} wins"
        else:
            result = "nobody wins"
        return f"The game is over: {scores}. {_capital(result)}."

    # Naming things as the family saw them then.

    @property
    def _you(self) -> str | None:
        return self._seen.family if self._seen is not None else None

    def _definition(self, card: CardId) -> CardDef | None:
        seen = self._seen
        if card in self._hidden:
            return None
        key = seen.key(card) if seen is not None else None
        return self.definitions.get(key) if key is not None else None

    def _owner(self, card: CardId) -> str:
        return self._bribes.get(card, self._colour(card))

    def _who(self, family: str) -> str:
        return "you" if family == self._you else family

    def _score(self, family: str, amount: int) -> str:
        sign = f"+{amount}" if amount >= 0 else str(amount)
        return f"{self._who(family)} {sign}"

    def _name(self, card: CardId, *, face_down: bool | None = None) -> str:
        """``your face-down Lord``, ``blue's Soldier``, ``blue's face-down card``."""
        owner = _possessive(self._who(self._owner(card)))
        definition = self._definition(card)
        if face_down is None:  # only a card in the queue lies face down
            face_down = card not in self._up and self._where(card) is not None
        if definition is None:
            return f"{owner} face-down card" if face_down else f"{owner} card"
        name = definition.name_in(self.language)
        return f"{owner} face-down {name}" if face_down else f"{owner} {name}"

    def _where(self, card: CardId) -> int | None:
        """``card``'s position as the table counts them (from 1), if it is in the queue."""
        for index, stack in enumerate(self._queue):
            if card in stack:
                return index + 1
        return None

    def _at(self, card: CardId) -> str:
        """``card`` named with its position: ``blue's Soldier (position 3)``."""
        where = self._where(card)
        name = self._name(card)
        return name if where is None else f"{name} (position {where})"

    def _colour(self, card: CardId) -> str:
        seen = self._seen
        return seen.colours[card] if seen is not None else "?"

    def _lift(self, card: CardId) -> None:
        """Take ``card`` out of the queue; its position goes if nothing was under it."""
        for index, stack in enumerate(self._queue):
            if card in stack:
                stack.remove(card)
                if not stack:
                    del self._queue[index]
                return

    def _leave(self, card: CardId) -> None:
        """``card`` left the queue for a pile: its face and Bribery token go."""
        self._lift(card)
        self._up.discard(card)
        self._hidden.discard(card)  # turned face up, or onto a face-up pile
        self._bribes.pop(card, None)


def _possessive(who: str) -> str:
    return "your" if who == "you" else f"{who}'s"


def story_lines(
    seen: Observation, definitions: Mapping[str, CardDef], language: str = "en"
) -> list[str]:
    """The whole story of ``seen``'s game so far, as ``seen``'s family reads it."""
    return Story(definitions, language).read(seen)
