"""The story of a game for one family: a line per thing that happened, in English,
French or Polish (``language``; card names from the card data, in English where it has
none in the language).

A :class:`Story` reads the events of that family's observations, in order, and tells
each one naming the card behind it and its owner: "Blue's Soldier (position 3)
eliminated your face-down Lord: blue +1." Nothing is told twice: the Influence a
reveal or an elimination brings is told on its line, not again on its own. A card
whose turn did nothing says so, in its own words when its card data gives them
(``idle``, ``idles``: in English where it has none in the language); a card whose
ability is its reveal's doubled tokens (a Conspiracy's) did its ability when revealed
with tokens, which its reveal line says. The
terminal prints these lines and the web page shows them as its log.

Events name cards by id; where a card sits is kept here by following the events
(every change to the queue is one), so a line can say "position 3" as the table
showed it then. What a card is called comes from the observation, which names only
cards the family may see; a card another family placed is never named at its
placement, nor while it lies hidden, even if it is known later: the story read whole
is the story read as it happened. In French and Polish a card is named by a label
after its name, ``Soldat (Bleu, position 3)``, and Polish tells what happens in the
present tense, so that no word has to agree with a card's name. Each line is
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
from oriflamme.text import escaped

from ._languages import Templates, card_genitive, colour, counted


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
        # A card whose reveal paid its ability (a Conspiracy's doubled tokens): its
        # turn, which begins just after, is not idle.
        self._paid: CardId | None = None
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
            line = self._round(event)
        elif isinstance(event, Placed):
            line = self._placed(event)
        elif isinstance(event, TokenAdded):
            line = self._token(event)
        elif isinstance(event, Revealed):
            line = self._revealed(event)
        elif isinstance(event, Activated):
            self._turn = event.card
            self._did = event.card == self._paid
            self._paid = None
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
            line = self._say("round.over", round=event.round)
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
            # The card data's idle words, in English if it has none in the language.
            idle = definition.idle_in(self.language) if definition is not None else None
            if idle:
                lines.append(self._say("idle", card=self._at(card), idle=idle))
            else:
                lines.append(self._say("idle.nothing", card=self._at(card)))
        self._turn = None
        self._did = False

    # Each kind of event.

    def _round(self, event: RoundStarted) -> str:
        if event.first_player == self._you:
            return self._say("round.you", round=event.round)
        family = self._family(event.first_player)
        return self._say("round.other", round=event.round, family=family)

    def _placed(self, event: Placed) -> str:
        queue = self._queue
        card = event.card
        by = self._turn  # named where it stood as it acted, before the queue changes
        acting = self._at(by) if by is not None and self._where(by) is not None else None
        if event.on is not None:
            where = self._say(
                "placed.on", position=event.position + 1, covered=self._name(event.on, done_to=True)
            )
            if event.position < len(queue):
                queue[event.position].append(card)
        else:
            if not queue:
                where = self._say("placed.start")
            elif event.position == 0:
                where = self._say("placed.first")
            elif event.position >= len(queue):
                where = self._say("placed.last", position=len(queue) + 1)
            else:
                where = self._say("placed.as", position=event.position + 1)
            queue.insert(min(event.position, len(queue)), [card])
        if not event.face_up and self._seen is not None and card not in self._seen.own_keys:
            self._hidden.add(card)
        if event.face_up:  # put in by the card whose turn it is (a Prince, an Impersonation)
            self._up.add(card)
            if acting is not None and by != card:
                return self._say("placed.put", by=acting, card=self._name(card), where=where)
            return self._say("placed.came", card=self._name(card), where=where)
        if event.family == self._you:
            named = self._name(card, face_down=False)
            return self._say("placed.you", card=named, where=where)
        return self._say("placed.other", family=self._family(event.family), where=where)

    def _token(self, event: TokenAdded) -> str:
        card = event.card
        tokens = counted(event.tokens, "token", self.language)
        position = event.position + 1
        if event.family == self._you:
            kept = self._name(card, face_down=False, position=position)
            return self._say("token.you", card=kept, tokens=tokens)
        family = self._family(event.family)
        if self._owner(card) == self._colour(card):
            return self._say("token.own", family=family, position=position, tokens=tokens)
        kept = self._name(card, face_down=False, position=position)
        return self._say("token.other", family=family, card=kept, tokens=tokens)

    def _revealed(self, event: Revealed) -> str:
        self._up.add(event.card)
        self._hidden.discard(event.card)
        card = self._at(event.card)
        if not event.tokens:
            return self._say("revealed", card=card)
        tokens = counted(event.tokens, "token", self.language)
        if not event.gained:
            many = "one" if event.tokens == 1 else "many"
            definition = self._definition(event.card)
            if definition is not None and definition.reveal_tokens is RevealTokens.SUPPLY:
                return self._say(f"revealed.supply.{many}", card=card, tokens=tokens)
            return self._say(f"revealed.stay.{many}", card=card, tokens=tokens)
        score = self._score(event.family, event.gained)
        definition = self._definition(event.card)
        if definition is not None and definition.reveal_tokens is RevealTokens.DOUBLE:
            # Its ability is this payout (RULINGS R2): its turn has done it already.
            self._paid = event.card
            many = "one" if event.tokens == 1 else "many"
            return self._say(f"revealed.double.{many}", card=card, tokens=tokens, score=score)
        return self._say("revealed.gained", card=card, tokens=tokens, score=score)

    def _eliminated(self, event: Eliminated, gain: Gained | None) -> str:
        card = event.card
        self._hidden.discard(card)  # turned face up as it goes (RULINGS R5)
        victim = self._name(
            card, face_down=event.face_down, position=self._where(card), done_to=True
        )
        if event.by is None:
            line = self._say("eliminated", card=victim)
        elif event.by == card:
            line = self._say("eliminated.itself", card=self._at(card))
        else:
            line = self._say("eliminated.by", by=self._at(event.by), card=victim)
        if event.tokens:
            tokens = counted(event.tokens, "token", self.language)
            line += self._say("eliminated.tokens", tokens=tokens)
        self._leave(card)
        if gain is not None:
            return self._say("scored", line=line, score=self._score(gain.family, gain.amount))
        return line + "."

    def _discarded(self, event: Discarded, following: Event | None, lines: list[str]) -> str:
        card = event.card
        definition = self._definition(card)
        if (
            card == self._turn
            and definition is not None
            and definition.discard_after_use
            # A card that discards itself first and then acts (a Plot, RULINGS A-Plot)
            # goes on with its turn: an ability applies next, or it asks its question.
            and not isinstance(following, Applied)
            and not (following is None and self._seen is not None and self._seen.acting == card)
        ):
            # Its discard after use follows whatever it did: if it did nothing, say so first.
            self._close(lines)
        self._hidden.discard(event.card)  # onto a face-up pile
        at = self._at(event.card)
        self._leave(event.card)
        if event.pile == "eliminated":
            return self._say("discarded.bribed", card=at, bribery=self._bribery())
        return self._say("discarded", card=at)

    def _applied(self, event: Applied) -> str:
        card, source = event.card, event.source
        if card != source:  # a copy: a Shapeshifter's
            return self._say("applied.copy", card=self._at(card), source=self._at(source))
        turn = self._turn
        if turn is not None and turn != card:  # a Plot's Character, acting as itself
            return self._say("applied.by", by=self._at(turn), card=self._at(card, done_to=True))
        return self._say("applied", card=self._at(card))

    def _moved(self, event: Moved) -> str:
        card = event.card
        mover = self._turn
        name = self._name(card, done_to=mover is not None and mover != card)
        acting = self._at(mover) if mover is not None and mover != card else None
        queue = self._queue
        self._lift(card)  # it keeps its face and any Bribery token
        queue.insert(min(event.to, len(queue)), [card])
        source, to = event.source + 1, event.to + 1
        if acting is not None:
            return self._say("moved.by", by=acting, card=name, source=source, to=to)
        return self._say("moved", card=name, source=source, to=to)

    def _gained(self, event: Gained) -> str:
        amount = counted(event.amount, "influence", self.language)
        you = "you" if event.family == self._you else "other"
        family = self._family(event.family)
        if event.card is None:
            return self._say(f"gained.{you}", family=family, amount=amount)
        score = self._score(event.family, event.amount)
        at = self._at(event.card)
        if self._owner(event.card) == event.family:
            return self._say("gained.card", card=at, amount=amount, score=score)
        return self._say(f"given.{you}", card=at, family=family, amount=amount, score=score)

    def _lost(self, event: Lost) -> str:
        amount = counted(event.amount, "influence", self.language)
        you = "you" if event.family == self._you else "other"
        family = self._family(event.family)
        score = self._score(event.family, -event.amount)
        if event.card is None:
            return self._say(f"lost.{you}", family=family, amount=amount, score=score)
        at = self._at(event.card)
        return self._say(f"lost.card.{you}", card=at, family=family, amount=amount, score=score)

    def _stolen(self, event: Stolen) -> str:
        amount = counted(event.amount, "influence", self.language)
        gain = self._score(event.thief, event.amount)
        loss = self._score(event.victim, -event.amount)
        thief = self._family(event.thief)
        victim = colour(event.victim, self.language, "dative")  # steals from: Niebieskiemu
        if event.card is None and event.thief == self._you:
            return self._say("stolen.you", victim=victim, amount=amount, gain=gain, loss=loss)
        by = thief if event.card is None else self._at(event.card)
        if event.card is not None and self._owner(event.card) != event.thief:
            you = "you" if event.thief == self._you else "other"
            by = self._say(f"stolen.for.{you}", card=by, family=thief)
        robbed = "you" if event.victim == self._you else "other"
        return self._say(
            f"stolen.from.{robbed}", by=by, victim=victim, amount=amount, gain=gain, loss=loss
        )

    def _bribed(self, event: Bribed) -> str:
        target = self._at(event.card)
        self._bribes[event.card] = event.family
        you = "you" if event.family == self._you else "other"
        by = self._turn
        bribery = self._bribery()
        family = self._family(event.family)
        if by is not None and by != event.card:
            return self._say(
                f"bribed.card.{you}", by=self._at(by), family=family, card=target, bribery=bribery
            )
        return self._say(f"bribed.{you}", family=family, card=target, bribery=bribery)

    def _ended(self, event: GameEnded) -> str:
        mark = self._say("you_mark")
        scores = ", ".join(
            f"{self._family(family)} {score}" + (mark if family == self._you else "")
            for family, score in event.scores
        )
        winners = [self._who(family) for family in event.winners]
        if len(winners) > 1:
            result = self._say("result.shared", winners=", ".join(winners[:-1]), last=winners[-1])
        elif winners:
            if event.winners[0] == self._you:
                result = self._say("result.you")
            else:
                result = self._say("result.other", winner=winners[0])
        else:
            result = self._say("result.none")
        return self._say("ended", scores=scores, result=_capital(result))

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

    def _say(self, key: str, /, **values: object) -> str:
        return _say(self.language, key, **values)

    def _family(self, family: str) -> str:
        """``family`` as the story's language names it (``Bleu``, ``Niebieski``)."""
        return colour(family, self.language)

    def _card_name(self, key: str) -> str:
        """The name of the card ``key`` in the story's language (``Bribery``...)."""
        definition = self.definitions.get(key)
        return definition.name_in(self.language) if definition is not None else key

    def _bribery(self) -> str:
        """The Bribery's name as its token is named: ``żeton Przekupstwa`` in Polish."""
        return card_genitive(self._card_name("bribery"), self.language)

    def _score(self, family: str, amount: int) -> str:
        sign = f"+{amount}" if amount >= 0 else str(amount)
        return f"{self._who(family)} {sign}"

    def _who(self, family: str) -> str:
        """``you`` (in the story's language) for the reader's family, else its colour."""
        return self._say("you") if family == self._you else self._family(family)

    def _name(
        self,
        card: CardId,
        *,
        face_down: bool | None = None,
        position: int | None = None,
        done_to: bool = False,
    ) -> str:
        """``your face-down Lord``, ``blue's Soldier``, ``blue's face-down card``; with
        its ``position`` if given: ``blue's Soldier (position 3)``. In French and Polish
        the owner and the position are a label after the name, so that no word has to
        agree with the card's name: ``Soldat (Bleu, position 3)``. ``done_to``: the
        card is what a verb acts on, which Polish says with the word for card in the
        accusative and the name quoted beside it (``likwiduje kartę „Dziedzic”
        (Niebieski)``): a name is only ever given in the nominative."""
        owner = self._owner(card)
        whose = "yours" if owner == self._you else "theirs"
        definition = self._definition(card)
        if face_down is None:  # only a card in the queue lies face down
            face_down = card not in self._up and self._where(card) is not None
        if definition is None:
            shape = "hidden" if face_down else "unknown"
            name = ""
        else:
            shape = "down" if face_down else "up"
            name = definition.name_in(self.language)
        at = "" if position is None else ".at"
        say = _done_to if done_to else _say
        return say(
            self.language,
            f"name.{whose}.{shape}{at}",
            owner=self._family(owner),
            name=name,
            position=position,
        )

    def _where(self, card: CardId) -> int | None:
        """``card``'s position as the table counts them (from 1), if it is in the queue."""
        for index, stack in enumerate(self._queue):
            if card in stack:
                return index + 1
        return None

    def _at(self, card: CardId, *, done_to: bool = False) -> str:
        """``card`` named with its position: ``blue's Soldier (position 3)``."""
        return self._name(card, position=self._where(card), done_to=done_to)

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


def story_lines(
    seen: Observation, definitions: Mapping[str, CardDef], language: str = "en"
) -> list[str]:
    """The whole story of ``seen``'s game so far, as ``seen``'s family reads it."""
    return Story(definitions, language).read(seen)


#: A card's name where a verb acts on it (``.done_to``), in Polish: the accusative of
#: "card" and the name quoted beside it. English and French say it as elsewhere.
_DONE_TO = {
    "name.yours.up": "twoją kartę „{name}”",
    "name.yours.up.at": "twoją kartę „{name}” (pozycja {position})",
    "name.yours.down": "twoją zakrytą kartę „{name}”",
    "name.yours.down.at": "twoją zakrytą kartę „{name}” (pozycja {position})",
    "name.yours.hidden": "twoją zakrytą kartę",
    "name.yours.hidden.at": "twoją zakrytą kartę (pozycja {position})",
    "name.yours.unknown": "twoją kartę",
    "name.yours.unknown.at": "twoją kartę (pozycja {position})",
    "name.theirs.up": "kartę „{name}” ({owner})",
    "name.theirs.up.at": "kartę „{name}” ({owner}, pozycja {position})",
    "name.theirs.down": "zakrytą kartę „{name}” ({owner})",
    "name.theirs.down.at": "zakrytą kartę „{name}” ({owner}, pozycja {position})",
    "name.theirs.hidden": "zakrytą kartę ({owner})",
    "name.theirs.hidden.at": "zakrytą kartę ({owner}, pozycja {position})",
    "name.theirs.unknown": "kartę ({owner})",
    "name.theirs.unknown.at": "kartę ({owner}, pozycja {position})",
}

#: The story's sentences, in each language.
_say = Templates(
    "story",
    {
        # A card by its owner, its face and its name; ``.at`` adds its position.
        "name.yours.up": {"en": "your {name}", "fr": "votre {name}", "pl": "{name} (twoja karta)"},
        "name.yours.up.at": {
            "en": "your {name} (position {position})",
            "fr": "votre {name} (position {position})",
            "pl": "{name} (twoja karta, pozycja {position})",
        },
        "name.yours.down": {
            "en": "your face-down {name}",
            "fr": "votre {name} face cachée",
            "pl": "{name} (twoja karta, zakryta)",
        },
        "name.yours.down.at": {
            "en": "your face-down {name} (position {position})",
            "fr": "votre {name} face cachée (position {position})",
            "pl": "{name} (twoja karta, zakryta, pozycja {position})",
        },
        "name.yours.hidden": {
            "en": "your face-down card",
            "fr": "votre carte face cachée",
            "pl": "twoja zakryta karta",
        },
        "name.yours.hidden.at": {
            "en": "your face-down card (position {position})",
            "fr": "votre carte face cachée (position {position})",
            "pl": "twoja zakryta karta (pozycja {position})",
        },
        "name.yours.unknown": {"en": "your card", "fr": "votre carte", "pl": "twoja karta"},
        "name.yours.unknown.at": {
            "en": "your card (position {position})",
            "fr": "votre carte (position {position})",
            "pl": "twoja karta (pozycja {position})",
        },
        "name.theirs.up": {
            "en": "{owner}'s {name}",
            "fr": "{name} ({owner})",
            "pl": "{name} ({owner})",
        },
        "name.theirs.up.at": {
            "en": "{owner}'s {name} (position {position})",
            "fr": "{name} ({owner}, position {position})",
            "pl": "{name} ({owner}, pozycja {position})",
        },
        "name.theirs.down": {
            "en": "{owner}'s face-down {name}",
            "fr": "{name} ({owner}, face cachée)",
            "pl": "{name} ({owner}, karta zakryta)",
        },
        "name.theirs.down.at": {
            "en": "{owner}'s face-down {name} (position {position})",
            "fr": "{name} ({owner}, face cachée, position {position})",
            "pl": "{name} ({owner}, karta zakryta, pozycja {position})",
        },
        "name.theirs.hidden": {
            "en": "{owner}'s face-down card",
            "fr": "une carte face cachée ({owner})",
            "pl": "zakryta karta ({owner})",
        },
        "name.theirs.hidden.at": {
            "en": "{owner}'s face-down card (position {position})",
            "fr": "une carte face cachée ({owner}, position {position})",
            "pl": "zakryta karta ({owner}, pozycja {position})",
        },
        "name.theirs.unknown": {
            "en": "{owner}'s card",
            "fr": "une carte ({owner})",
            "pl": "karta ({owner})",
        },
        "name.theirs.unknown.at": {
            "en": "{owner}'s card (position {position})",
            "fr": "une carte ({owner}, position {position})",
            "pl": "karta ({owner}, pozycja {position})",
        },
        "round.you": {
            "en": "Round {round} begins: you place first.",
            "fr": "Le tour {round} commence : vous placez en premier.",
            "pl": "Zaczyna się runda {round}: rozstawianie zaczynasz ty.",
        },
        "round.other": {
            "en": "Round {round} begins: {family} places first.",
            "fr": "Le tour {round} commence : {family} place en premier.",
            "pl": "Zaczyna się runda {round}: rozstawianie zaczyna {family}.",
        },
        "round.over": {
            "en": "Round {round} is over.",
            "fr": "Le tour {round} est terminé.",
            "pl": "Koniec rundy {round}.",
        },
        "idle": {"en": "{card} {idle}.", "fr": "{card} {idle}.", "pl": "{card} {idle}."},
        "idle.nothing": {
            "en": "{card} does nothing.",
            "fr": "{card} ne fait rien.",
            "pl": "{card} nic nie robi.",
        },
        "placed.on": {
            "en": "on top of position {position}, covering {covered}",
            "fr": "sur la position {position}, par-dessus {covered}",
            "pl": "na pozycję {position}, przykrywając {covered}",
        },
        "placed.start": {
            "en": "to start the queue (position 1)",
            "fr": "pour commencer la File (position 1)",
            "pl": "jako pierwszą kartę Kolejki (pozycja 1)",
        },
        "placed.first": {
            "en": "at the first end (position 1)",
            "fr": "en tête de la File (position 1)",
            "pl": "na początku Kolejki (pozycja 1)",
        },
        "placed.last": {
            "en": "at the last end (position {position})",
            "fr": "en queue de la File (position {position})",
            "pl": "na końcu Kolejki (pozycja {position})",
        },
        "placed.as": {
            "en": "as position {position}",
            "fr": "en position {position}",
            "pl": "na pozycję {position}",
        },
        "placed.put": {
            "en": "{by} put {card} into the queue face up {where}.",
            "fr": "{by} place {card} face visible {where}.",
            "pl": "{by} wprowadza do Kolejki odkrytą kartę: {card}, {where}.",
        },
        "placed.came": {
            "en": "{card} came into the queue face up {where}.",
            "fr": "{card} entre dans la File, face visible, {where}.",
            "pl": "{card} wchodzi do Kolejki jako odkryta karta, {where}.",
        },
        "placed.you": {
            "en": "you placed {card} face down {where}.",
            "fr": "vous placez {card} face cachée {where}.",
            "pl": "kładziesz zakrytą kartę: {card}, {where}.",
        },
        "placed.other": {
            "en": "{family} placed a card face down {where}.",
            "fr": "{family} place une carte face cachée {where}.",
            "pl": "{family} kładzie zakrytą kartę {where}.",
        },
        "token.you": {
            "en": "you kept {card} face down: {tokens} on it now.",
            "fr": "vous laissez {card} face cachée : {tokens} dessus désormais.",
            "pl": "pozostawiasz zakrytą kartę {card}; na niej teraz {tokens}.",
        },
        "token.own": {
            "en": "{family} kept its card at position {position} face down: {tokens} on it now.",
            "fr": "{family} laisse sa carte en position {position} face cachée : {tokens} "
            "dessus désormais.",
            "pl": "{family} pozostawia zakrytą kartę na pozycji {position} (na niej: {tokens}).",
        },
        "token.other": {
            "en": "{family} kept {card} face down: {tokens} on it now.",
            "fr": "{family} laisse {card} face cachée : {tokens} dessus désormais.",
            "pl": "{family} pozostawia zakrytą kartę {card}; na niej teraz {tokens}.",
        },
        "revealed": {
            "en": "{card} is revealed.",
            "fr": "{card} se révèle.",
            "pl": "{card} ujawnia się.",
        },
        "revealed.supply.one": {
            "en": "{card} is revealed with {tokens}, which goes back to the supply.",
            "fr": "{card} se révèle ; les jetons posés dessus ({tokens}) retournent à la réserve.",
            "pl": "{card} ujawnia się; żetony z karty ({tokens}) wracają do zasobów ogólnych.",
        },
        "revealed.supply.many": {
            "en": "{card} is revealed with {tokens}, which go back to the supply.",
            "fr": "{card} se révèle ; les jetons posés dessus ({tokens}) retournent à la réserve.",
            "pl": "{card} ujawnia się; żetony z karty ({tokens}) wracają do zasobów ogólnych.",
        },
        "revealed.stay.one": {
            "en": "{card} is revealed with {tokens}, which stays on it for its ability.",
            "fr": "{card} se révèle ; les jetons posés dessus ({tokens}) y restent pour sa "
            "capacité.",
            "pl": "{card} ujawnia się; żetony ({tokens}) zostają na karcie dla jej zdolności.",
        },
        "revealed.stay.many": {
            "en": "{card} is revealed with {tokens}, which stay on it for its ability.",
            "fr": "{card} se révèle ; les jetons posés dessus ({tokens}) y restent pour sa "
            "capacité.",
            "pl": "{card} ujawnia się; żetony ({tokens}) zostają na karcie dla jej zdolności.",
        },
        "revealed.gained": {
            "en": "{card} is revealed with {tokens}: {score}.",
            "fr": "{card} se révèle avec {tokens} : {score}.",
            "pl": "{card} ujawnia się; żetony z karty ({tokens}) trafiają do właściciela: {score}.",
        },
        "revealed.double.one": {
            "en": "{card} is revealed with {tokens}, which counts double: {score}.",
            "fr": "{card} se révèle avec {tokens}, qui compte double : {score}.",
            "pl": "{card} ujawnia się; żeton z karty ({tokens}) liczy się podwójnie i trafia do "
            "właściciela: {score}.",
        },
        "revealed.double.many": {
            "en": "{card} is revealed with {tokens}, which count double: {score}.",
            "fr": "{card} se révèle avec {tokens}, qui comptent double : {score}.",
            "pl": "{card} ujawnia się; żetony z karty ({tokens}) liczą się podwójnie i trafiają "
            "do właściciela: {score}.",
        },
        "eliminated": {
            "en": "{card} was eliminated",
            "fr": "élimination : {card}",
            "pl": "likwidacja karty: {card}",
        },
        "eliminated.itself": {
            "en": "{card} eliminated itself",
            "fr": "{card} s'élimine",
            "pl": "{card} likwiduje siebie",
        },
        "eliminated.by": {
            "en": "{by} eliminated {card}",
            "fr": "{by} élimine {card}",
            "pl": "{by} likwiduje {card}",
        },
        "eliminated.tokens": {
            "en": ", and its {tokens} went back to the supply",
            "fr": ", et les jetons posés dessus ({tokens}) retournent à la réserve",
            "pl": ", a żetony z tej karty ({tokens}) wracają do zasobów ogólnych",
        },
        "scored": {"en": "{line}: {score}.", "fr": "{line} : {score}.", "pl": "{line}: {score}."},
        "discarded": {
            "en": "{card} is discarded.",
            "fr": "{card} part à la défausse.",
            "pl": "{card} trafia do odrzuconych kart.",
        },
        "discarded.bribed": {
            "en": "{card} is discarded onto the eliminated pile, as it carried a {bribery} token.",
            "fr": "{card} part sur la pile des cartes éliminées, car un jeton {bribery} était "
            "posé dessus.",
            "pl": "{card} trafia na stos zlikwidowanych kart, bo na karcie leżał żeton {bribery}.",
        },
        "moved.by": {
            "en": "{by} moved {card} from position {source} to position {to}.",
            "fr": "{by} déplace {card} de la position {source} à la position {to}.",
            "pl": "{by} przesuwa {card} z pozycji {source} na pozycję {to}.",
        },
        "moved": {
            "en": "{card} moved from position {source} to position {to}.",
            "fr": "{card} passe de la position {source} à la position {to}.",
            "pl": "{card} przechodzi z pozycji {source} na pozycję {to}.",
        },
        "gained.you": {
            "en": "you gained {amount}.",
            "fr": "vous gagnez {amount}.",
            "pl": "otrzymujesz {amount}.",
        },
        "gained.other": {
            "en": "{family} gained {amount}.",
            "fr": "{family} gagne {amount}.",
            "pl": "{family} otrzymuje {amount}.",
        },
        "gained.card": {
            "en": "{card} gains {amount}: {score}.",
            "fr": "{card} gagne {amount} : {score}.",
            "pl": "{card} otrzymuje {amount}: {score}.",
        },
        "given.you": {
            "en": "{card} gives you {amount}: {score}.",
            "fr": "{card} vous donne {amount} : {score}.",
            "pl": "{card} daje ci {amount}: {score}.",
        },
        "given.other": {
            "en": "{card} gives {family} {amount}: {score}.",
            "fr": "{card} donne {amount} à {family} : {score}.",
            "pl": "{card} sprawia, że {family} otrzymuje {amount}: {score}.",
        },
        "lost.you": {
            "en": "you lost {amount}: {score}.",
            "fr": "vous perdez {amount} : {score}.",
            "pl": "tracisz {amount}: {score}.",
        },
        "lost.other": {
            "en": "{family} lost {amount}: {score}.",
            "fr": "{family} perd {amount} : {score}.",
            "pl": "{family} traci {amount}: {score}.",
        },
        "lost.card.you": {
            "en": "{card} makes you lose {amount}: {score}.",
            "fr": "{card} vous fait perdre {amount} : {score}.",
            "pl": "{card} sprawia, że tracisz {amount}: {score}.",
        },
        "lost.card.other": {
            "en": "{card} makes {family} lose {amount}: {score}.",
            "fr": "{card} fait perdre {amount} à {family} : {score}.",
            "pl": "{card} sprawia, że {family} traci {amount}: {score}.",
        },
        "stolen.you": {
            "en": "you stole {amount} from {victim}: {gain}, {loss}.",
            "fr": "vous volez {amount} à {victim} : {gain}, {loss}.",
            "pl": "kradniesz {amount} {victim}: {gain}, {loss}.",
        },
        "stolen.for.you": {
            "en": "{card} (for you)",
            "fr": "{card} (pour vous)",
            "pl": "{card} (dla ciebie)",
        },
        "stolen.for.other": {
            "en": "{card} (for {family})",
            "fr": "{card} (pour {family})",
            "pl": "{card} (dla: {family})",
        },
        "stolen.from.you": {
            "en": "{by} stole {amount} from you: {gain}, {loss}.",
            "fr": "{by} vous vole {amount} : {gain}, {loss}.",
            "pl": "{by} kradnie ci {amount}: {gain}, {loss}.",
        },
        "stolen.from.other": {
            "en": "{by} stole {amount} from {victim}: {gain}, {loss}.",
            "fr": "{by} vole {amount} à {victim} : {gain}, {loss}.",
            "pl": "{by} kradnie {amount} {victim}: {gain}, {loss}.",
        },
        "bribed.card.you": {
            "en": "{by} put your {bribery} token on {card}: it belongs to you now.",
            "fr": "{by} pose votre jeton {bribery} sur {card} : la carte vous appartient "
            "désormais.",
            "pl": "{by} kładzie twój żeton {bribery} na karcie {card}; karta należy teraz do "
            "ciebie.",
        },
        "bribed.card.other": {
            "en": "{by} put {family}'s {bribery} token on {card}: it belongs to {family} now.",
            "fr": "{by} pose le jeton {bribery} de {family} sur {card} : la carte appartient "
            "désormais à {family}.",
            "pl": "{by} kładzie żeton {bribery} ({family}) na karcie {card}; nowy właściciel "
            "karty: {family}.",
        },
        "bribed.you": {
            "en": "you put your {bribery} token on {card}: it belongs to you now.",
            "fr": "vous posez votre jeton {bribery} sur {card} : la carte vous appartient "
            "désormais.",
            "pl": "kładziesz swój żeton {bribery} na karcie {card}; karta należy teraz do ciebie.",
        },
        "bribed.other": {
            "en": "{family} put {family}'s {bribery} token on {card}: it belongs to {family} now.",
            "fr": "{family} pose son jeton {bribery} sur {card} : la carte appartient "
            "désormais à {family}.",
            "pl": "{family} kładzie swój żeton {bribery} na karcie {card}; nowy właściciel "
            "karty: {family}.",
        },
        "you_mark": {"en": " (you)", "fr": " (vous)", "pl": " (ty)"},
        "result.shared": {
            "en": "{winners} and {last} share the win",
            "fr": "victoire partagée entre {winners} et {last}",
            "pl": "wspólna wygrana: {winners} i {last}",
        },
        "result.you": {"en": "you win", "fr": "vous gagnez", "pl": "wygrywasz"},
        "result.other": {"en": "{winner} wins", "fr": "{winner} gagne", "pl": "{winner} wygrywa"},
        "result.none": {"en": "nobody wins", "fr": "personne ne gagne", "pl": "nikt nie wygrywa"},
        "ended": {
            "en": "The game is over: {scores}. {result}.",
            "fr": "La partie est terminée : {scores}. {result}.",
            "pl": "Koniec gry: {scores}. {result}.",
        },
        "you": {"en": "you", "fr": "vous", "pl": "ty"},
        "applied.copy": {
            "en": "{card} copies the ability of {source}.",
            "fr": "{card} copie la capacité de {source}.",
            "pl": "{card} kopiuje zdolność karty: {source}.",
        },
        "applied.by": {
            "en": "{by} activates {card}.",
            "fr": "{by} active {card}.",
            "pl": "{by} aktywuje {card}.",
        },
        "applied": {
            "en": "{card} applies its ability.",
            "fr": "{card} applique sa capacité.",
            "pl": "{card} stosuje swoją zdolność.",
        },
    },
)
#: A card's name where a verb acts on it: the names above, in Polish as _DONE_TO says.
_done_to = Templates(
    "story.done_to",
    {key: {**_say.table[key], "pl": polish} for key, polish in _DONE_TO.items()},
)
