"""``oriflamme play``: one person against bots, in the terminal.

The screen shows only what the person's family may see (its observation): the queue,
the hand, everyone's Influence and piles, what just happened (its
:class:`~oriflamme.text.Story`), and the legal answers, numbered. At any question ``c``
lists the game's cards with their texts (``c N`` or a card's name shows one) and asks
again. Bad input asks again; ``q``, Ctrl-C or the end of input leave cleanly.
``--language`` picks the cards' names and texts.
``--save`` writes the game after every answer; ``--load`` goes on with a saved one, its
bots drawing what they would have drawn uninterrupted (:func:`turn_seed`).

Whatever is typed is only ever a wrong answer, never a crash: an answer is a number
in the digits 0-9 (``²`` or ``٣`` are not), of at most :data:`MAX_ANSWER_DIGITS`
digits. Read from a pipe or a file, a line keeps its first :data:`MAX_LINE` characters
(the rest is read past, never held in memory) and bytes that are not UTF-8 read as U+FFFD.
After :data:`MAX_WRONG` wrong answers in a row, or :data:`MAX_LINES` lines that
answer nothing, the game ends with status 1: input that never answers (a script gone
wrong) must not loop for ever.

Whatever is printed is printable: a character a terminal would obey (ESC, a C1
control, a bidi override) in words from a plugin, a save or the person is written
out instead (:func:`~oriflamme.text.escaped`), so that it shows and does nothing.
"""

from __future__ import annotations

import argparse
import io
import random
import shlex
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import TextIO

from oriflamme import COLOURS, Answer, ConfigError, Game, Placement, Registry, languages
from oriflamme.text import (
    Story,
    Words,
    answer_text,
    escaped,
    in_card_order,
    question_text,
    quote,
    view_lines,
)

from .arguments import PLAY_FAMILIES, PLAY_SETS
from .bots.kinds import BotChoice, parse_bots
from .bots.play import Bot, bot_seed
from .choices import game_config
from .savefile import check_same, check_save_path, load_game, save_game

#: Characters of an answer line kept; no answer is longer than a few digits.
MAX_LINE = 1000
#: Digits an answer may have: more than any list of answers is long.
MAX_ANSWER_DIGITS = 6
#: Wrong answers in a row after which the game ends.
MAX_WRONG = 100
#: Lines read at one question that answer nothing (card texts included) after which
#: the game ends.
MAX_LINES = 10 * MAX_WRONG
#: The languages' names, for messages; another code is shown as it is.
LANGUAGES = {"en": "English", "fr": "French", "pl": "Polish"}
#: What asks for the cards' texts: alone, or before a number or a card's name.
CARDS = ("c", "cards")
#: Back to the start of the line and clear it: what a terminal reads to wipe a notice.
WIPE_LINE = "\r\x1b[K"


class Quit(Exception):
    """The person left the game; ``status`` is the command's exit status."""

    def __init__(self, message: str = "You left the game.", status: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def read_line(prompt: str) -> str:
    """One line typed at ``prompt``; EOFError at the end of input.

    At a terminal this is :func:`input` (with line editing). From a pipe or a file,
    at most :data:`MAX_LINE` characters are kept and the rest of the line is skipped.
    """
    stdin = sys.stdin
    if stdin is None:
        raise EOFError
    if stdin.isatty():
        return input(prompt)
    if sys.stdout is not None:
        sys.stdout.write(prompt)
        sys.stdout.flush()
    try:
        line = stdin.readline(MAX_LINE + 1)
        if not line:
            raise EOFError
        rest = line
        while len(rest) > MAX_LINE and not rest.endswith("\n"):
            rest = stdin.readline(MAX_LINE + 1)
    except UnicodeDecodeError:
        return "\ufffd"  # a stream that cannot replace bad bytes: one wrong answer
    return line[:MAX_LINE]


def _choice(text: str, count: int) -> int | None:
    """The index ``text`` picks among ``count`` answers, or None if it picks none."""
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_ANSWER_DIGITS:
        return None
    number = int(text)
    return number - 1 if 1 <= number <= count else None


def turn_seed(seed: int, seat: int, events: int) -> int:
    """The seed of the bot in ``seat`` (0 = the first) for the answer it gives after the
    game's first ``events`` events: ``bot_seed(seed, seat) * 1_000_000 + events``.

    Everything in it is in a save, so a game continued from a save draws the very
    numbers it would have drawn uninterrupted. (A save holds at most 100,000 events.)
    """
    return bot_seed(seed, seat) * 1_000_000 + events


class TerminalGame:
    """Runs a game in the terminal: the person answers for ``you``, bots for the others.

    ``bots`` gives, for each other family, the bot that answers its pending decision in
    a game (a new one each time: see :func:`turn_seed`). What is shown comes from
    ``you``'s observation only; card names and texts are in ``language``. ``save``, if
    given, is called with the game at the start and after every answer.
    """

    def __init__(
        self,
        game: Game,
        you: str,
        bots: Mapping[str, Callable[[Game], Bot]],
        read: Callable[[str], str],
        out: TextIO,
        *,
        language: str = "en",
        save: Callable[[Game], None] | None = None,
        on_leaving: str | None = None,
    ) -> None:
        """``on_leaving``: what to tell a player who leaves before the end (how to go on
        with the game they leave, say)."""
        self.on_leaving = on_leaving
        self.game = game
        self.you = you
        self.bots = bots
        self.read = read
        self.out = out
        self.language = language
        self.save = save
        self.definitions = game.rules.definitions
        self.kinds = game.rules.kinds
        self.story = Story(self.definitions, language)

    def say(self, text: str = "") -> None:
        # Every line the game prints passes here: the last guard of the terminal.
        print(escaped(text, newlines=True), file=self.out)

    def thinking(self, family: str) -> None:
        """Says, on a terminal only, that ``family``'s bot is choosing: a search may take
        a second or more, and a silent terminal looks stuck. :meth:`thought` wipes it."""
        if self.out.isatty():
            self.out.write(escaped(f"{family} is thinking…"))
            self.out.flush()

    def thought(self) -> None:
        if self.out.isatty():
            self.out.write(WIPE_LINE)
            self.out.flush()

    def words(self) -> Words:
        return Words(self.game.observe(self.you), self.definitions, self.language)

    def run(self, *, resumed: bool = False) -> int:
        game = self.game
        names = ", ".join(self.definitions[key].name_in(self.language) for key in game.cards)
        self.say(f"You are {self.you}. Cards: {names}.")
        if not (resumed and game.over):  # a finished game asks nothing: only its scores
            self.say("Type the number of an answer; c shows the cards' texts; q leaves the game.")
        if resumed:  # the story so far was told before the save: it goes on from here
            self.story.read(game.observe(self.you))
        if self.save is not None:
            self.save(game)
        try:
            while not game.over:
                decision = game.decision
                assert decision is not None
                family = decision.family
                if family == self.you:
                    words = self.words()
                    self.show(words)
                    game.answer(self.ask(words), family=family)
                else:
                    self.thinking(family)
                    try:
                        answer = self.bots[family](game).choose(game.observe(family))
                    except KeyboardInterrupt:
                        # Ctrl-C while a bot thinks leaves as it does at a prompt: the
                        # bot had not answered, and the game is as it was saved.
                        raise Quit from None
                    finally:
                        self.thought()
                    game.answer(answer, family=family)
                if self.save is not None:
                    self.save(game)
        except Quit as left:
            self.say(f"\n{left.message}")
            if self.on_leaving is not None and not game.over:
                self.say(self.on_leaving)
            return left.status
        words = self.words()
        self.show_news(words)
        seen = words.seen
        self.say("")
        self.say(
            "Final scores: "
            + ", ".join(
                f"{f} {n}" + (" (you)" if f == self.you else "") for f, n in seen.influence.items()
            )
        )
        winners = seen.winners
        if len(winners) > 1:
            self.say(f"Shared win: {', '.join(winners)}.")
        else:
            self.say("You win!" if winners[0] == self.you else f"{winners[0]} wins.")
        return 0

    def show_news(self, words: Words) -> None:
        for line in self.story.read(words.seen):
            self.say(line)

    def show(self, words: Words) -> None:
        self.show_news(words)
        self.say("")
        for line in view_lines(words):
            self.say(line)

    # The cards' texts.

    def card_lines(self, numbers: Iterable[int]) -> list[str]:
        """Cards of the game's card list (by index), each with its name and text."""
        language = self.language
        cards = self.game.cards
        lines: list[str] = []
        english: list[str] = []
        for number in numbers:
            card = self.definitions[cards[number]]
            name = card.name_in(language)
            if language != "en" and language not in dict(card.texts):
                english.append(name)
            lines.append(f"  c {number + 1:<2} {name}: {card.text_in(language)}")
        if english:
            none = f"the card data has none in {LANGUAGES.get(language, language)}"
            some = "" if len(english) == len(lines) else f" for {', '.join(english)}"
            lines.append(f"(texts in English{some}: {none})")
        return lines

    def lookup(self, text: str) -> list[str] | None:
        """What ``text`` asks to see of the cards' texts; None if it asks for none.

        ``c`` (or ``cards``) lists them all; ``c N``, ``c NAME`` or a card's name alone
        shows one (its name in the game's language or in English, or its key).
        """
        cards = self.game.cards
        if text in CARDS:
            return ["The cards of this game (c N or a card's name shows one):"] + (
                self.card_lines(range(len(cards)))
            )
        if not text.strip():
            return None
        first, *rest = text.split(maxsplit=1)
        asked = first in CARDS and bool(rest)
        wanted = rest[0] if asked else text
        if asked and wanted.isascii() and wanted.isdigit():
            picked = _choice(wanted, len(cards))
            if picked is None:
                return [f"c N shows card N, from 1 to {len(cards)}; c lists them."]
            return self.card_lines([picked])
        wanted = " ".join(wanted.split()).casefold()
        for number, key in enumerate(cards):
            card = self.definitions[key]
            names = {card.name_in(self.language), card.name, key, key.replace("_", " ")}
            if wanted in {name.casefold() for name in names}:
                return self.card_lines([number])
        if asked:
            return [f"No card of this game is called {quote(rest[0])}; c lists them."]
        return None

    # Questions.

    def offer(self, prompt: str, labels: list[str], back: bool) -> None:
        self.say(prompt)
        for number, label in enumerate(labels, 1):
            self.say(f"  {number}) {label}")
        if back:
            self.say("  b) back")

    def choose(self, prompt: str, labels: list[str], back: bool = False) -> int | None:
        """The index the person picks among ``labels``; None for 'back' when allowed.

        Looking at the cards' texts answers nothing and changes nothing: the same
        question is asked again.
        """
        self.offer(prompt, labels, back)
        wrong = 0
        for _ in range(MAX_LINES):
            try:
                text = self.read("> ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                raise Quit from None
            if text in ("q", "quit", "exit"):
                raise Quit
            if back and text in ("b", "back"):
                return None
            picked = _choice(text, len(labels))
            if picked is not None:
                return picked
            shown = self.lookup(text)
            if shown is not None:
                for line in shown:
                    self.say(line)
                self.offer(prompt, labels, back)
                continue
            self.say(
                f"Please type a number from 1 to {len(labels)}"
                + (", b to go back" if back else "")
                + ", c for the cards' texts, or q to leave."
            )
            wrong += 1
            if wrong == MAX_WRONG:
                raise Quit(
                    f"{MAX_WRONG} answers in a row were not one of the choices: game over.", 1
                )
        raise Quit(f"{MAX_LINES} lines in a row answered nothing: game over.", 1)

    def ask(self, words: Words) -> Answer:
        decision = words.seen.decision
        assert decision is not None
        kind = self.kinds[decision.kind]
        if decision.kind != "place":
            options = list(decision.options)
            labels = [answer_text(kind, words, decision, o) for o in options]
            return options[self.choose(question_text(kind, words, decision), labels) or 0]
        placements = [o for o in decision.options if isinstance(o, Placement)]
        # In the order the hand is shown in: the card a player counts to is the one picked.
        cards = in_card_order(words.seen, dict.fromkeys(p.card for p in placements))
        while True:
            picked = self.choose(
                "Which card will you place, face down?", [words.short(c) for c in cards]
            )
            card = cards[picked or 0]
            spots = [p.at for p in placements if p.card == card]
            if len(spots) == 1:
                return Placement(card, spots[0])
            where = self.choose(
                f"Where will your {words.short(card)} go?",
                [words.spot(s) for s in spots],
                back=True,
            )
            if where is not None:
                return Placement(card, spots[where])


def _new_game(args: argparse.Namespace, registry: Registry) -> Game:
    filled = argparse.Namespace(**vars(args))
    filled.families = args.families or PLAY_FAMILIES
    filled.sets = args.sets or PLAY_SETS
    _check_seat(args.seat, COLOURS[: filled.families])  # before the deal: the seat is wrong
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    return Game.new(game_config(filled, registry, seed), registry=registry)


def _check_seat(seat: int, families: tuple[str, ...]) -> None:
    if seat > len(families):
        raise ConfigError(
            f"--seat {seat}: a game of {len(families)} families has seats 1 to {len(families)}"
        )


def play_command(
    args: argparse.Namespace,
    registry: Registry,
    read: Callable[[str], str] = read_line,
    out: TextIO | None = None,
) -> int:
    # Options that came in later are read with defaults, for callers that build the
    # options by hand.
    language: str = getattr(args, "language", "en")
    load: str | None = getattr(args, "load", None)
    save: str | None = getattr(args, "save", None)
    known = languages(registry.cards.values())
    if language not in known:
        raise ConfigError(
            f"--language {quote(language)}: the card data has no such language "
            f"(languages: {', '.join(known)})"
        )
    if save is not None:
        check_save_path(save, load)
    if load is not None:
        game = load_game(load, registry)
        check_same(args, game, load)
    else:
        game = _new_game(args, registry)
    families = game.families
    _check_seat(args.seat, families)
    seed = game.config.seed  # a save keeps it: bots go on as they would have
    you = families[args.seat - 1]
    others = [(seat, family) for seat, family in enumerate(families) if family != you]
    choices = parse_bots(args.bots, len(others), registry, seats="other seats")
    bots = {
        family: _bot(choice, registry, seed, seat)
        for (seat, family), choice in zip(others, choices, strict=True)
    }
    stream = out if out is not None else sys.stdout
    if read is read_line and isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")  # bytes that are not UTF-8: a wrong answer
    setup = f"{len(families)} families, sets {','.join(game.config.sets)}, seed {seed}"
    lines = [
        f"Oriflamme: the game saved in {load}, {setup}: round {game.round}, {game.phase} phase."
        if load is not None
        else f"Oriflamme: {setup} (replay with --seed {seed}).",
        "Bots: " + ", ".join(f"{f} {c.text}" for (_, f), c in zip(others, choices, strict=True)),
    ]
    if save is not None:
        lines.append(f"The game is saved in {save} after every answer (--load continues it).")
    print(escaped("\n".join(lines), newlines=True), file=stream)  # a save's path, names
    writer = None if save is None else (lambda played: save_game(played, save))
    leaving = None
    if save is not None:
        where = shlex.quote(save)
        leaving = (
            f"The game is saved in {save}. To go on with it: "
            f"oriflamme play --load {where} --save {where}"
        )
    terminal = TerminalGame(
        game, you, bots, read, stream, language=language, save=writer, on_leaving=leaving
    )
    return terminal.run(resumed=load is not None)


def _bot(choice: BotChoice, registry: Registry, seed: int, seat: int) -> Callable[[Game], Bot]:
    def make(game: Game) -> Bot:
        return choice.make(random.Random(turn_seed(seed, seat, len(game.events))), registry)

    return make
