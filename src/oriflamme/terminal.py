"""``oriflamme play``: one person against bots, in the terminal.

The screen shows only what the person's family may see (its observation):
the queue, the hand, everyone's Influence and piles, what just happened, and the
legal answers, numbered. Bad input asks again; ``q``, Ctrl-C or the end of input
leave cleanly.

Whatever is typed is only ever a wrong answer, never a crash: an answer is a number
in the digits 0-9 (``²`` or ``٣`` are not), of at most :data:`MAX_ANSWER_DIGITS`
digits. Read from a pipe or a file, a line keeps its first :data:`MAX_LINE` characters
(the rest is read past, never held in memory) and bytes that are not UTF-8 read as U+FFFD.
After :data:`MAX_WRONG` wrong answers in a row the game ends, with status 1: input
that never answers (a script gone wrong) must not loop for ever.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
from collections.abc import Callable, Mapping
from typing import TextIO

from .bots.kinds import parse_bots
from .bots.play import Bot, bot_seed
from .choices import game_config
from .core.config import COLOURS
from .core.decisions import Answer, Placement
from .core.errors import ConfigError
from .core.game import Game
from .core.plugins import Registry
from .describe import Words, answer_text, event_text, question_text, view_lines

#: Characters of an answer line kept; no answer is longer than a few digits.
MAX_LINE = 1000
#: Digits an answer may have: more than any list of answers is long.
MAX_ANSWER_DIGITS = 6
#: Wrong answers in a row after which the game ends.
MAX_WRONG = 100


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


class TerminalGame:
    """Runs a game in the terminal: the person answers for ``you``, bots for the others.

    What is shown comes from ``you``'s observation only.
    """

    def __init__(
        self, game: Game, you: str, bots: Mapping[str, Bot], read: Callable[[str], str], out: TextIO
    ) -> None:
        self.game = game
        self.you = you
        self.bots = bots
        self.read = read
        self.out = out
        self.seen = 0  # events already shown
        self.definitions = game.rules.definitions
        self.kinds = game.rules.kinds

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def words(self) -> Words:
        return Words(self.game.observe(self.you), self.definitions)

    def run(self) -> int:
        game = self.game
        self.say(f"You are {self.you}. Cards: {', '.join(game.cards)}.")
        self.say("Type the number of an answer; q leaves the game.")
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
                    game.answer(self.bots[family].choose(game.observe(family)), family=family)
        except Quit as left:
            self.say(f"\n{left.message}")
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
        events = words.seen.events
        for event in events[self.seen :]:
            text = event_text(words, event)
            if text:
                self.say(text)
        self.seen = len(events)

    def show(self, words: Words) -> None:
        self.show_news(words)
        self.say("")
        for line in view_lines(words):
            self.say(line)

    def choose(self, prompt: str, labels: list[str], back: bool = False) -> int | None:
        """The index the person picks among ``labels``; None for 'back' when allowed."""
        self.say(prompt)
        for number, label in enumerate(labels, 1):
            self.say(f"  {number}) {label}")
        if back:
            self.say("  b) back")
        for _ in range(MAX_WRONG):
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
            self.say(
                f"Please type a number from 1 to {len(labels)}"
                + (", b to go back" if back else "")
                + ", or q to leave."
            )
        raise Quit(f"{MAX_WRONG} answers in a row were not one of the choices: game over.", 1)

    def ask(self, words: Words) -> Answer:
        decision = words.seen.decision
        assert decision is not None
        kind = self.kinds[decision.kind]
        if decision.kind != "place":
            options = list(decision.options)
            labels = [answer_text(kind, words, decision, o) for o in options]
            return options[self.choose(question_text(kind, words, decision), labels) or 0]
        placements = [o for o in decision.options if isinstance(o, Placement)]
        cards = list(dict.fromkeys(p.card for p in placements))
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


def play_command(
    args: argparse.Namespace,
    registry: Registry,
    read: Callable[[str], str] = read_line,
    out: TextIO | None = None,
) -> int:
    families = COLOURS[: args.families]
    if args.seat > len(families):
        raise ConfigError(
            f"--seat {args.seat}: a game of {len(families)} families has seats 1 to {len(families)}"
        )
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    config = game_config(args, registry, seed)
    you = families[args.seat - 1]
    others = [(seat, family) for seat, family in enumerate(families) if family != you]
    choices = parse_bots(args.bots, len(others), registry, seats="other seats")
    game = Game.new(config, registry=registry)
    bots: dict[str, Bot] = {
        family: choice.make(random.Random(bot_seed(seed, seat)), registry)
        for (seat, family), choice in zip(others, choices, strict=True)
    }
    stream = out if out is not None else sys.stdout
    if read is read_line and isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")  # bytes that are not UTF-8: a wrong answer
    print(
        f"Oriflamme: {len(families)} families, sets {','.join(config.sets)}, seed {seed} "
        f"(replay with --seed {seed}).",
        file=stream,
    )
    print(
        "Bots: " + ", ".join(f"{f} {c.text}" for (_, f), c in zip(others, choices, strict=True)),
        file=stream,
    )
    return TerminalGame(game, you, bots, read, stream).run()
