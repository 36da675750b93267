"""``oriflamme play``: one person against bots, in the terminal.

The screen shows only what the person's family may see (its observation): the queue,
the hand, everyone's Influence and piles, what just happened (its
:class:`~oriflamme.text.Story`), and the legal answers, numbered. At any question ``c``
lists the game's cards with their texts (``c N`` or a card's name, with or without its
accents and capitals, shows one) and asks again. Bad input asks again; ``q``, Ctrl-C or
the end of input leave cleanly. ``--language`` (``en``, ``fr``, ``pl``) is the language of
everything the game says, card names and texts included (those the card data has in it;
the others in English). The story's last line gives the final scores and who won.
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
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import TextIO

from oriflamme import (
    COLOURS,
    Answer,
    ConfigError,
    Game,
    OriflammeError,
    Placement,
    Registry,
    languages,
)
from oriflamme.text import (
    Story,
    Words,
    answer_text,
    bot_text,
    colour,
    counted,
    escaped,
    in_card_order,
    language_name,
    one_line,
    phase_name,
    question_text,
    quote,
    sets_text,
    terminal_text,
    typed_text,
    view_lines,
)

from .arguments import PLAY_FAMILIES, PLAY_SETS
from .bots.kinds import BotChoice, parse_bots
from .bots.levels import LEVELS, Level
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
#: How much of a plugin's error message a stopped game prints (it is one line).
MAX_ERROR = 2000
#: The exit status of a game stopped by a plugin's error: a mistake, as the command
#: line's own errors are.
EXIT_STOPPED = 2
#: What asks for the cards' texts: alone, or before a number or a card's name.
CARDS = ("c", "cards")
#: Back to the start of the line and clear it: what a terminal reads to wipe a notice.
WIPE_LINE = "\r\x1b[K"


class Quit(Exception):
    """The person left the game; ``status`` is the command's exit status. ``message``
    (None: "You left the game.", in the game's language) is what they are told."""

    def __init__(self, message: str | None = None, status: int = 0) -> None:
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

    def text(self, key: str, /, **values: object) -> str:
        """The terminal's sentence ``key`` in the game's language."""
        return terminal_text(self.language, key, **values)

    def family(self, family: str) -> str:
        """``family`` as the game's language names it (``Bleu``, ``Niebieski``)."""
        return colour(family, self.language)

    def say(self, text: str = "") -> None:
        # Every line the game prints passes here: the last guard of the terminal.
        print(escaped(text, newlines=True), file=self.out)

    def thinking(self, family: str) -> None:
        """Says, on a terminal only, that ``family``'s bot is choosing: a search may take
        a second or more, and a silent terminal looks stuck. :meth:`thought` wipes it."""
        if self.out.isatty():
            self.out.write(escaped(self.text("thinking", family=self.family(family))))
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
        self.say(self.text("intro", you=self.family(self.you), names=names))
        if not (resumed and game.over):  # a finished game asks nothing: only its scores
            self.say(self.text("how"))
        if resumed:  # the story so far was told before the save: it goes on from here
            told = self.story.read(game.observe(self.you))
            if game.over and told:
                self.say(told[-1])  # a game over: its end, the scores and who won
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
            self.say("\n" + (left.message or self.text("left")))
            if self.on_leaving is not None and not game.over:
                self.say(self.on_leaving)
            return left.status
        except OriflammeError as failed:
            # A plugin's code failed on an answer (or a plugin bot gave a wrong one): the
            # game is as it was before that answer, but this process cannot play past it.
            # Say where the game is now, since the error's "as it was" is only true of a
            # game that was saved.
            self.say("\n" + self.text("stopped", error=one_line(str(failed), MAX_ERROR)))
            self.say(self.on_leaving if self.on_leaving is not None else self.text("not_saved"))
            return EXIT_STOPPED
        # The story's last line says the game is over, the scores and who won: once.
        self.show_news(self.words())
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
            padded = f"{number + 1:<2}"
            lines.append(
                self.text("card_line", number=padded, name=name, text=card.text_in(language))
            )
        if english:
            some = ""
            if len(english) != len(lines):
                some = self.text("texts_in_english.some", names=", ".join(english))
            named = language_name(language, language)
            lines.append(self.text("texts_in_english", some=some, language=named))
        return lines

    def lookup(self, text: str) -> list[str] | None:
        """What ``text`` asks to see of the cards' texts; None if it asks for none.

        ``c`` (or ``cards``) lists them all; ``c N``, ``c NAME`` or a card's name alone
        shows one (its name in the game's language or in English, or its key).
        """
        cards = self.game.cards
        if text in CARDS:
            return [self.text("cards")] + (self.card_lines(range(len(cards))))
        if not text.strip():
            return None
        first, *rest = text.split(maxsplit=1)
        asked = first in CARDS and bool(rest)
        wanted = rest[0] if asked else text
        if asked and wanted.isascii() and wanted.isdigit():
            picked = _choice(wanted, len(cards))
            if picked is None:
                return [self.text("card_number", count=len(cards))]
            return self.card_lines([picked])
        wanted = folded(wanted)
        for number, key in enumerate(cards):
            card = self.definitions[key]
            names = {card.name_in(self.language), card.name, key, key.replace("_", " ")}
            if wanted in {folded(name) for name in names}:
                return self.card_lines([number])
        if asked:
            return [self.text("no_card", name=typed_text(rest[0], self.language))]
        return None

    # Questions.

    def offer(self, prompt: str, labels: list[str], back: bool) -> None:
        self.say(prompt)
        for number, label in enumerate(labels, 1):
            self.say(f"  {number}) {label}")
        if back:
            self.say(self.text("back"))

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
            going_back = self.text("please.back") if back else ""
            self.say(self.text("please", count=len(labels), back=going_back))
            wrong += 1
            if wrong == MAX_WRONG:
                raise Quit(self.text("too_wrong", count=MAX_WRONG), 1)
        raise Quit(self.text("too_many", count=MAX_LINES), 1)

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
            picked = self.choose(self.text("which_card"), [words.short(c) for c in cards])
            card = cards[picked or 0]
            spots = [p.at for p in placements if p.card == card]
            if len(spots) == 1:
                return Placement(card, spots[0])
            where = self.choose(
                self.text("where", card=words.short(card)),
                [words.spot(s) for s in spots],
                back=True,
            )
            if where is not None:
                return Placement(card, spots[where])


def folded(name: str) -> str:
    """``name`` as a card is looked up by: without accents, case, spaces, hyphens or
    apostrophes, so that ``heritier`` finds ``Héritier``, ``lucznik`` finds ``Łucznik``
    and ``coupe jarret`` finds ``Coupe-jarret``."""
    # NFKD splits é into e and its accent, but ł (and ø, đ...) are letters of their own:
    # the few of the card data's languages are mapped by hand.
    plain = unicodedata.normalize("NFKD", name.translate(_UNDECOMPOSED))
    letters = "".join(c for c in plain if not unicodedata.combining(c))
    return "".join(letters.translate(_IGNORED).split()).casefold()


_UNDECOMPOSED = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D"})
#: What a name is written with that a person may type otherwise, or not at all.
_IGNORED = str.maketrans(dict.fromkeys("-\u2010\u2011'\u2019_", " "))


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

    def said(key: str, /, **values: object) -> str:
        return terminal_text(language, key, **values)

    titles = registry.sets
    sets = sets_text(
        ((key, titles[key].title if key in titles else key) for key in game.config.sets), language
    )
    counted_families = counted(len(families), "family", language)
    setup = said("setup", families=counted_families, sets=sets, seed=seed)
    bots_named = ", ".join(
        said("bot", family=colour(f, language), bot=_bot_named(c, language))
        for (_, f), c in zip(others, choices, strict=True)
    )
    lines = [
        said(
            "saved_game",
            load=load,
            setup=setup,
            round=game.round,
            phase=phase_name(game.phase, language),
        )
        if load is not None
        else said("new_game", setup=setup, seed=seed),
        said("bots", bots=bots_named),
        *_levels_said(choices, language),
    ]
    if save is not None:
        lines.append(said("saving", save=save))
    print(escaped("\n".join(lines), newlines=True), file=stream)  # a save's path, names
    writer = None if save is None else (lambda played: save_game(played, save))
    leaving = None
    if save is not None:
        where = shlex.quote(save)
        command = f"oriflamme play --load {where} --save {where}"
        leaving = said("saved_leaving", save=save, command=command)
    terminal = TerminalGame(
        game, you, bots, read, stream, language=language, save=writer, on_leaving=leaving
    )
    return terminal.run(resumed=load is not None)


def _bot_named(choice: BotChoice, language: str) -> str:
    """``choice`` in ``language``: its level, or its kind translated and its settings as
    typed."""
    if choice.level is not None:
        return bot_text(choice.level, "", plugin=False, language=language)
    kind = choice.kind
    settings = choice.written[len(kind.name) :]
    return bot_text(kind.name, settings, plugin=bool(kind.plugin), language=language)


def _levels_said(choices: Iterable[BotChoice], language: str) -> list[str]:
    """What each level among ``choices`` is, a line each, in ``language``, then every
    level as --bots takes it: a player who is seated a level learns of the others."""
    named = dict.fromkeys(choice.level for choice in choices if choice.level is not None)
    if not named:
        return []
    return [
        *(
            terminal_text(
                language,
                "level",
                level=bot_text(level, "", plugin=False, language=language),
                help=terminal_text(language, f"level.{level}"),
            )
            for level in named
        ),
        terminal_text(
            language, "levels", levels=", ".join(_level_typed(level, language) for level in LEVELS)
        ),
    ]


def _level_typed(level: Level, language: str) -> str:
    """A level as --bots takes it, with its name in ``language`` where that differs:
    ``easy (facile)``, so that a player reading French knows what to type."""
    said = bot_text(level.name, "", plugin=False, language=language)
    return level.name if said == level.name else f"{level.name} ({said})"


def _bot(choice: BotChoice, registry: Registry, seed: int, seat: int) -> Callable[[Game], Bot]:
    def make(game: Game) -> Bot:
        return choice.make(random.Random(turn_seed(seed, seat, len(game.events))), registry)

    return make
