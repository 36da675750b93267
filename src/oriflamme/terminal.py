"""``oriflamme play``: one person against bots, in the terminal.

The screen shows only what the person's family may see (its observation):
the queue, the hand, everyone's Influence and piles, what just happened, and the
legal answers, numbered. Bad input asks again; ``q``, Ctrl-C or the end of input
leave cleanly.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Mapping
from typing import TextIO

from .bots import Bot, RandomBot, bot_seed
from .choices import game_config
from .core.config import COLOURS
from .core.decisions import Answer, Placement
from .core.errors import ConfigError
from .core.game import Game
from .core.identity import CardId
from .core.plugins import Registry
from .describe import Words, answer_text, event_text, question_text, queue_lines


class Quit(Exception):
    """The person left the game."""


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
        except Quit:
            self.say("\nYou left the game.")
            return 0
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
        seen = words.seen
        self.show_news(words)
        self.say("")
        self.say(
            f"=== Round {seen.round} of 6, {seen.phase} phase, first player: "
            f"{seen.first_player} ==="
        )
        self.say(
            "Influence: "
            + ", ".join(
                f"{f} {n}" + (" (you)" if f == self.you else "") for f, n in seen.influence.items()
            )
        )
        arrow = "left to right" if seen.direction == "rightward" else "right to left"
        self.say(f"Queue, in resolution order (on the table it runs {arrow}):")
        for line in queue_lines(words):
            self.say(line)
        order = {key: i for i, key in enumerate(seen.cards)}

        def listed(cards: tuple[CardId, ...]) -> str:
            ordered = sorted(cards, key=lambda c: order.get(seen.key(c) or "", len(order)))
            return ", ".join(words.short(c) for c in ordered)

        self.say("Your hand: " + (listed(seen.hand) or "empty"))
        self.say("Set aside (only you see them): " + (listed(seen.set_aside) or "none"))
        reserves = [f"{f}: {listed(cs)}" for f, cs in seen.reserve.items() if cs]
        if reserves:
            self.say("Reserves (face up): " + "; ".join(reserves))
        for name, pile in (("Discarded", seen.discarded), ("Eliminated", seen.eliminated)):
            cards = [f"{f}: {listed(cs)}" for f, cs in pile.items() if cs]
            if cards:
                self.say(f"{name}: " + "; ".join(cards))

    def choose(self, prompt: str, labels: list[str], back: bool = False) -> int | None:
        """The index the person picks among ``labels``; None for 'back' when allowed."""
        self.say(prompt)
        for number, label in enumerate(labels, 1):
            self.say(f"  {number}) {label}")
        if back:
            self.say("  b) back")
        while True:
            try:
                text = self.read("> ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                raise Quit from None
            if text in ("q", "quit", "exit"):
                raise Quit
            if back and text in ("b", "back"):
                return None
            if text.isdigit() and 1 <= int(text) <= len(labels):
                return int(text) - 1
            self.say(
                f"Please type a number from 1 to {len(labels)}"
                + (", b to go back" if back else "")
                + ", or q to leave."
            )

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
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> int:
    families = COLOURS[: args.families]
    if args.seat > len(families):
        raise ConfigError(
            f"--seat {args.seat}: a game of {len(families)} families has seats 1 to {len(families)}"
        )
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    config = game_config(args, registry, seed)
    game = Game.new(config, registry=registry)
    you = families[args.seat - 1]
    bots: dict[str, Bot] = {
        family: RandomBot(bot_seed(seed, seat))
        for seat, family in enumerate(families)
        if family != you
    }
    stream = out if out is not None else sys.stdout
    print(
        f"Oriflamme: {len(families)} families, sets {','.join(config.sets)}, seed {seed} "
        f"(replay with --seed {seed}).",
        file=stream,
    )
    return TerminalGame(game, you, bots, read, stream).run()
