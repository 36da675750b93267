"""``oriflamme play``: one person against bots, in the terminal.

The screen shows only what the person's family may see (its :class:`View`):
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
from .core.decisions import Answer, Decision, Placement
from .core.errors import ConfigError
from .core.game import Game
from .core.plugins import Registry
from .core.views import View
from .describe import answer_text, event_text, question_text, queue_lines, short, spot_text


class Quit(Exception):
    """The person left the game."""


class TerminalGame:
    def __init__(
        self, game: Game, you: str, bots: Mapping[str, Bot], read: Callable[[str], str], out: TextIO
    ) -> None:
        self.game = game
        self.you = you
        self.bots = bots
        self.view = View(game, you)
        self.read = read
        self.out = out
        self.seen = 0  # events already shown

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def run(self) -> int:
        game = self.game
        self.say(f"You are {self.you}. Cards: {', '.join(game.rules.cards)}.")
        self.say("Type the number of an answer; q leaves the game.")
        try:
            while not game.over:
                decision = game.decision
                assert decision is not None
                if decision.family == self.you:
                    self.show()
                    game.answer(self.ask(decision))
                else:
                    family = decision.family
                    game.answer(self.bots[family].choose(View(game, family), decision))
        except Quit:
            self.say("\nYou left the game.")
            return 0
        self.show_news()
        self.say("")
        self.say(
            "Final scores: "
            + ", ".join(
                f"{f} {s}" + (" (you)" if f == self.you else "") for f, s in game.scores.items()
            )
        )
        winners = game.winners
        if len(winners) > 1:
            self.say(f"Shared win: {', '.join(winners)}.")
        else:
            self.say("You win!" if winners[0] == self.you else f"{winners[0]} wins.")
        return 0

    def show_news(self) -> None:
        events = self.view.events
        for event in events[self.seen :]:
            text = event_text(self.view, event)
            if text:
                self.say(text)
        self.seen = len(events)

    def show(self) -> None:
        game, view = self.game, self.view
        self.show_news()
        self.say("")
        self.say(
            f"=== Round {game.round} of 6, {game.phase} phase, first player: "
            f"{game.first_player} ==="
        )
        self.say(
            "Influence: "
            + ", ".join(
                f"{f} {n}" + (" (you)" if f == self.you else "") for f, n in game.influence.items()
            )
        )
        arrow = "left to right" if game.direction == "rightward" else "right to left"
        self.say(f"Queue, in resolution order (on the table it runs {arrow}):")
        for line in queue_lines(view):
            self.say(line)
        self.say("Your hand: " + (", ".join(short(view, c) for c in view.hand) or "empty"))
        self.say(
            "Set aside (only you see them): "
            + (", ".join(short(view, c) for c in view.set_aside) or "none")
        )
        reserves = [
            f"{f}: {', '.join(short(view, c) for c in cs)}" for f, cs in game.reserve.items() if cs
        ]
        if reserves:
            self.say("Reserves (face up): " + "; ".join(reserves))
        for pile in ("discarded", "eliminated"):
            cards = [
                f"{f}: {', '.join(short(view, c) for c in cs)}"
                for f, cs in getattr(game, pile).items()
                if cs
            ]
            if cards:
                self.say(f"{pile.capitalize()}: " + "; ".join(cards))

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

    def ask(self, decision: Decision) -> Answer:
        view = self.view
        if decision.kind != "place":
            options = list(decision.options)
            labels = [answer_text(view, decision, o) for o in options]
            return options[self.choose(question_text(view, decision), labels) or 0]
        placements = [o for o in decision.options if isinstance(o, Placement)]
        cards = list(dict.fromkeys(p.card for p in placements))
        while True:
            picked = self.choose(
                "Which card will you place, face down?", [short(view, c) for c in cards]
            )
            card = cards[picked or 0]
            spots = [p.at for p in placements if p.card == card]
            if len(spots) == 1:
                return Placement(card, spots[0])
            where = self.choose(
                f"Where will your {short(view, card)} go?",
                [spot_text(view, s) for s in spots],
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
