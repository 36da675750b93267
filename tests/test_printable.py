"""``text.table(observation, rules)`` and ``text.game_table(game)``: the table as a person reads
it, with the question and its answers for the family asked, and never a card that reader
may not see. Also the header of ``oriflamme simulate``, which names what was played."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Mapping
from pathlib import Path
from typing import cast

import pytest

from oriflamme import COLOURS, Ability, Game, GameConfig, Observation, Registry, hookimpl
from oriflamme.arguments import build_parser
from oriflamme.bots import RandomBot, bot_seed
from oriflamme.simulate import simulate_command
from oriflamme.testing import registry_with
from oriflamme.text import Words, answer_text, game_table, question_text, table, view_lines

from .helpers import one_card_set
from .test_observations import hidden_from

KINDS = {"base": ("base",), "ablaze": ("ablaze",), "mixed": ("base", "ablaze")}
GAMES = 6  # per kind of game
STOPS = 8  # moments looked at in each game, besides its end


def seeds(kind: str) -> range:
    start = {"base": 8100, "ablaze": 8200, "mixed": 8300}[kind]
    return range(start, start + GAMES)


def moments(registry: Registry, kind: str) -> list[tuple[str, Game]]:
    """Copies of random games of ``kind`` at ``STOPS`` random moments and at their end,
    each with where it is (its seed and step)."""
    chosen = seeds(kind)
    print(f"{kind}: seeds {chosen.start} to {chosen.stop - 1}")
    found = []
    for seed in chosen:
        families = COLOURS[: 3 + seed % 3]
        game = Game.new(
            GameConfig(families=families, sets=KINDS[kind], seed=seed), registry=registry
        )
        bots = {f: RandomBot(bot_seed(seed, seat)) for seat, f in enumerate(game.families)}
        stops = set(random.Random(seed).sample(range(130), STOPS))
        step = 0
        while (decision := game.decision) is not None:
            if step in stops:
                found.append((f"seed {seed}, step {step}", game.clone()))
            game.answer(bots[decision.family].choose(game.observe(decision.family)))
            step += 1
        found.append((f"seed {seed}, the end", game))
    return found


def word(text: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(text)}(?![\w-])")


def keys_by_card(game: Game) -> dict[int, str]:
    """Every card's key, from the referee's (omniscient) position."""
    return {card: label.split(".")[1] for label, card in game.position().ids.items()}


class Referee:
    """An observation's stand-in that knows a card's key exactly when the referee's
    position says its family may (:func:`hidden_from`), whatever the observation says."""

    def __init__(self, seen: Observation, game: Game) -> None:
        self.seen = seen
        self.keys = keys_by_card(game)
        self.hidden = hidden_from(game, seen.family)

    def key(self, card: int) -> str | None:
        return None if card in self.hidden else self.keys[card]

    def __getattr__(self, name: str) -> object:
        return getattr(self.seen, name)


class LawfulWords(Words):
    """Words that name a card as the :class:`Referee` allows: each naming method reads
    the referee in place of the observation. The kinds still read the observation itself
    (``words.seen``: compiled, it must be one) for tokens and the acting card."""

    def __init__(self, seen: Observation, game: Game) -> None:
        super().__init__(seen, game.rules.definitions)
        self.referee = cast(Observation, Referee(seen, game))

    def _lawful(self, name: str, card: int) -> str:
        seen, self.seen = self.seen, self.referee
        try:
            text: str = getattr(super(), name)(card)
        finally:
            self.seen = seen
        return text

    def short(self, card: int) -> str:
        return self._lawful("short", card)

    def card(self, card: int | None) -> str:
        return "a card" if card is None else self._lawful("card", card)

    def queue_card(self, card: int) -> str:
        return self._lawful("queue_card", card)


def lawful_text(game: Game, seen: Observation) -> str:
    """What the table of ``seen`` may show, made from the referee's position: the table, then
    the question and its numbered answers for the family asked, else whose turn it is."""
    words = LawfulWords(seen, game)
    lines = view_lines(words)
    decision = seen.decision
    if decision is None:
        winners = seen.winners
        shared = f"a shared win for {', '.join(winners)}" if len(winners) > 1 else ""
        lines.append(f"The game is over: {shared or winners[0] + ' wins'}.")
    elif decision.family != seen.family:
        about = f" about {words.card(decision.card)}" if decision.card is not None else ""
        lines.append(f"It is {decision.family}'s turn: a {decision.kind} question{about}.")
    else:
        rules = game.rules.kinds[decision.kind]
        lines.append(question_text(rules, words, decision))
        for number, option in enumerate(decision.options, 1):
            lines.append(f"  {number:>2}. {answer_text(rules, words, decision, option)}")
    return "\n".join(lines)


def check_names(game: Game, seen: Observation, text: str, where: str) -> int:
    """``text`` names the cards ``seen``'s family may see and no other: each hidden
    card's name and key appear exactly as often as in :func:`lawful_text` (a hidden card
    may share its name with a card the family sees, so they are counted), and the texts
    are the same. The number of hidden cards looked for."""
    keys = keys_by_card(game)
    lawful = lawful_text(game, seen)
    hidden = hidden_from(game, seen.family)
    for key in {keys[card] for card in hidden}:
        for term in (game.rules.definitions[key].name, key):
            count, allowed = len(word(term).findall(text)), len(word(term).findall(lawful))
            assert count == allowed, f"{where}: {term!r} {count} times, not {allowed}\n{text}"
    assert text == lawful, f"{where}\n{text}\n---- expected ----\n{lawful}"
    return len(hidden)


def check_the_same_for_any_hidden_deal(
    registry: Registry, game: Game, seen: Observation, seed: int, where: str
) -> bool:
    """The text of ``seen`` is the same in a game that deals the cards its family cannot
    see otherwise: so a name a hidden card shares with a visible one is counted exactly
    as often as the visible cards give it. Whether the other deal differed."""
    sample = Game.determinise(seen, seed, registry=registry)
    sampled = table(sample.observe(seen.family), sample.rules)
    assert sampled == table(seen, game.rules), f"{where}: it tells the hidden cards"
    truth, dealt = keys_by_card(game), keys_by_card(sample)
    return any(dealt[card] != key for card, key in truth.items() if seen.key(card) is None)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_an_observation_prints_only_what_its_family_sees(registry: Registry, kind: str) -> None:
    checked = varied = 0
    for where, game in moments(registry, kind):
        truth = keys_by_card(game)
        for family in (None, *game.families):
            seen = game.observe(family)
            text = table(seen, game.rules)
            here = f"{where}, {family or 'a spectator'}"
            checked += check_names(game, seen, text, here)
            words = Words(seen, game.rules.definitions)
            assert text.startswith("\n".join(view_lines(words))), here
            if family is not None:
                # Its own cards are named: its hand and set-aside cards by name.
                for card in (*seen.hand, *seen.set_aside):
                    assert game.rules.definitions[truth[card]].name in text, here
            sample_seed = len(game.events) + len(family or "")
            varied += check_the_same_for_any_hidden_deal(registry, game, seen, sample_seed, here)
    assert checked > 0, "no hidden card was looked for"
    assert varied > 0, "no other deal of the hidden cards was tried"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_printing_asks_the_family_asked_and_no_other(registry: Registry, kind: str) -> None:
    asked = 0
    for where, game in moments(registry, kind):
        decision = game.decision
        if decision is None:
            for family in (None, *game.families):
                text = table(game.observe(family), game.rules)
                assert text.splitlines()[-1].startswith("The game is over: "), where
                for winner in game.winners:
                    assert winner in text.splitlines()[-1], where
            continue
        rules = game.rules.kinds[decision.kind]
        for family in (None, *game.families):
            seen = game.observe(family)
            text = table(seen, game.rules)
            lines = text.splitlines()
            words = Words(seen, game.rules.definitions)
            if family == decision.family:
                asked += 1
                numbered = [
                    f"  {n:>2}. {answer_text(rules, words, decision, option)}"
                    for n, option in enumerate(decision.options, 1)
                ]
                question = question_text(rules, words, decision)
                assert lines[-len(numbered) - 1 :] == [question, *numbered], f"{where}\n{text}"
            else:
                assert lines[-1].startswith(f"It is {decision.family}'s turn: a "), where
                assert decision.kind in lines[-1], where
                assert not any(re.match(r" +\d+\. ", line) for line in lines), where
    assert asked > 0


def test_a_printed_game_is_the_spectators_view(registry: Registry) -> None:
    for where, game in moments(registry, "mixed"):
        text = game_table(game)
        spectator = table(game.observe(None), game.rules)
        assert text.splitlines()[1:] == spectator.splitlines(), where
        assert text.startswith("Oriflamme (" + ", ".join(game.families) + ")"), where
        assert "Your hand" not in text, where
        assert "yours" not in text, where
        body = text.split("\n", 1)[1]
        check_names(game, game.observe(None), body, where)
        decision = game.decision
        if decision is not None:
            assert text.splitlines()[-1].startswith(f"It is {decision.family}'s turn"), where
        assert repr(game).startswith("<Game round "), where  # repr stays short


def test_the_table_names_cards_in_the_language_asked(registry: Registry) -> None:
    seed = 8400
    print(f"seed={seed}")
    game = Game.new(GameConfig(seed=seed), registry=registry)
    seen = game.observe("red")
    definitions = game.rules.definitions
    hand = [definitions[key] for key in (seen.key(card) for card in seen.hand) if key]
    english, french = table(seen, game.rules), table(seen, game.rules, language="fr")
    assert french == table(seen, game.rules, language="fr")  # the same words every time
    for card in hand:
        assert card.name in english
        assert card.name_in("fr") in french
    assert french != english
    assert "Votre main : " in french  # the sentences are French too
    assert "Your hand: " in english
    spectator = table(game.observe(None), game.rules, language="fr")
    assert game_table(game, language="fr").endswith(spectator)
    assert repr(seen) == "<Observation for red: round 1 placement>"  # repr stays short
    assert game.clone().observe("red") == seen


# The header of ``oriflamme simulate``.


def simulated(registry: Registry, *args: str) -> list[str]:
    args_ = build_parser().parse_args(["simulate", "--jobs", "1", "--progress", "never", *args])
    out = io.StringIO()
    assert simulate_command(args_, registry, out) == 0
    return out.getvalue().splitlines()


class Jester(Ability):
    """A house card that does nothing."""


class Fool:
    """A house-rule plugin of one card."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @hookimpl
    def register_card_sets(self) -> list[Path]:
        return [one_card_set(self.folder, "fool", "jester")]

    @hookimpl
    def register_abilities(self) -> dict[str, Ability]:
        return {"jester": Jester()}


class Usurper(Fool):
    """The same plugin, which also replaces the Heir's ability."""

    @hookimpl
    def replace_abilities(self, variants: Mapping[str, object]) -> dict[str, Ability]:
        return {"heir": Jester()}


def test_simulate_names_the_variants_and_the_house_rules(
    registry: Registry, tmp_path: Path
) -> None:
    seed = 8500
    print(f"seed={seed}")
    lines = simulated(registry, "--games", "4", "--seed", str(seed))
    assert lines[2] == "variants: ambush_own_elimination=first_edition"
    lines = simulated(
        registry, "--games", "4", "--seed", str(seed), "--variant", "ambush_own_elimination=revised"
    )
    assert lines[2] == "variants: ambush_own_elimination=revised"
    with_house = registry_with({"fool": Fool(tmp_path)})
    lines = simulated(with_house, "--games", "4", "--seed", str(seed), "--sets", "base,fool")
    assert lines[3] == "house rules: fool: cards: jester"
    assert lines[4].startswith("seat")
    packaged = Registry(entry_points=False)
    packaged.register(Fool(tmp_path), "fool", distribution="fools", version="1.0")
    lines = simulated(packaged, "--games", "4", "--seed", str(seed), "--sets", "base,fool")
    assert lines[3] == "house rules: fool (fools 1.0): cards: jester"
    usurped = registry_with({"fool": Usurper(tmp_path)})
    lines = simulated(usurped, "--games", "4", "--seed", str(seed), "--sets", "base,fool")
    assert lines[3] == "house rules: fool: cards: jester; abilities replaced: heir"


def test_simulate_says_without_variants_and_how_wins_are_counted(registry: Registry) -> None:
    seed = 8600
    print(f"seed={seed}")
    alone = Registry(entry_points=False, exclude=["base"])
    lines = simulated(alone, "--games", "30", "--seed", str(seed), "--sets", "ablaze")
    assert lines[2] == "no variants"
    assert lines[3].split()[3:5] == ["wins", "shared"]
    rows = [line.split() for line in lines[4:7]]
    wins, shared = sum(int(row[3]) for row in rows), sum(int(row[4]) for row in rows)
    # Each game is won alone or shared (by two or more): wins count the first only.
    assert wins <= 30
    assert wins + shared >= 30
    assert shared != 1
    # win % counts both, a shared win as a share: the seats' add up to 100%.
    assert sum(float(row[5].rstrip("%")) for row in rows) == pytest.approx(100, abs=0.2)
    for row in rows:
        outright, share = int(row[3]) / 30, int(row[4]) / 2 / 30
        assert 100 * outright - 0.05 <= float(row[5].rstrip("%")) <= 100 * (outright + share) + 0.05
    assert lines[7] == (
        "wins: games won alone; shared: wins shared with other families (RULINGS G6); "
        "win %: outright wins plus a share of shared ones (1/k of a win shared by k), "
        "as in oriflamme ladder"
    )
