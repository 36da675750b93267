"""The story a family reads: one line per thing, each naming its card, nothing twice.

Seeded games are played by random bots; one family's story is read after every
answer, as the terminal reads it. The checks hold for every line of every game:

- the queue the story follows from the events is the game's queue, position by
  position, so every "position N" it prints is the one the table showed;
- adding up the Influence each line announces gives each family's Influence, so no
  change is left untold and none is told twice;
- each card eliminated, discarded, moved or bribed, each placement and each token has
  exactly one line;
- the story depends on nothing the family may not see: a game dealt differently but
  agreeing with all it has seen (``Game.determinise``) tells the very same story.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter

import pytest

from oriflamme import Game, Registry
from oriflamme.events import (
    Applied,
    Bribed,
    Discarded,
    Eliminated,
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
from oriflamme.text import Story, counted, story_lines

from .helpers import new_game, random_bots

SETS = {"base": ("base",), "ablaze": ("ablaze",), "mixed": ("base", "ablaze")}
GAMES = [(seed, families, sets) for seed in range(6) for families in (3, 4, 5) for sets in SETS]
#: The Influence a line announces, at its end, always naming whose: ": you +2.",
#: ": blue +1, green -1."
SCORES = re.compile(r": ([a-z]+ [+-]\d+(?:, [a-z]+ [+-]\d+)*)\.$")


def told(game: Game, family: str, seed: int) -> tuple[list[str], list[tuple[int, ...]]]:
    """``family``'s story of ``game`` played out by random bots, read after each answer,
    and the game's Influence each time (by seat), checking the story's queue as it goes."""
    bots = random_bots(game, seed)
    story = Story(game.rules.definitions)
    lines: list[str] = []
    influence = [tuple(game.observe(family).influence.values())]
    while True:
        seen = game.observe(family)
        lines += story.read(seen)
        assert story.queue == seen.queue, f"seed {seed}, after {len(lines)} lines"
        if game.over:
            return lines, influence
        decision = game.decision
        assert decision is not None
        game.answer(bots[decision.family].choose(game.observe(decision.family)))


@pytest.mark.parametrize(("seed", "families", "sets"), GAMES)
def test_every_change_is_told_once_with_its_card(
    registry: Registry, seed: int, families: int, sets: str
) -> None:
    print(f"seed {seed}, {families} families, {sets}")
    game = new_game(registry, seed, families, sets=SETS[sets])
    you = game.families[seed % families]
    start = dict(game.observe(you).influence)
    lines, _ = told(game, you, seed)
    events = game.observe(you).events

    # The Influence the lines announce adds up to the game's, family by family.
    total = Counter(start)
    for line in lines:
        found = SCORES.search(line)
        for part in found.group(1).split(", ") if found else ():
            family, _, amount = part.rpartition(" ")
            total[you if family == "you" else family] += int(amount)
    assert dict(total) == dict(game.observe(you).influence), "\n".join(lines)

    # One line per elimination, discard, move, Bribery token, placement and token.
    def lines_with(pattern: str) -> int:
        return sum(bool(re.search(pattern, line)) for line in lines)

    def count(kind: type) -> int:
        return sum(isinstance(e, kind) for e in events)

    assert lines_with(r" eliminated (?!pile)| was eliminated") == count(Eliminated)
    assert lines_with(r" is discarded") == count(Discarded)
    assert lines_with(r" moved ") == count(Moved)
    assert lines_with(r"Bribery token on ") == count(Bribed)
    assert lines_with(r" placed | came into the queue| into the queue face up") == count(Placed)
    assert lines_with(r" kept .* face down: ") == count(TokenAdded)
    # The rest of the events, each on a line of its own (Influence gained is checked
    # by the sum above: a reveal's or an elimination's is told on its line).
    assert lines_with(r" is revealed") == count(Revealed)
    assert lines_with(r" lose \d| lost \d") == count(Lost)
    assert lines_with(r" stole ") == count(Stolen)
    # A Shapeshifter's copy and a Plot's Character are told as what they are.
    assert lines_with(r" copies the ability of | activates ") == count(Applied)
    assert lines_with(r"^Round \d+ begins") == count(RoundStarted)
    assert lines_with(r"^Round \d+ is over") == count(RoundEnded)
    assert lines_with(r"^The game is over: .*\. (You win|\w+ wins|.* share the win)\.$") == (
        count(GameEnded)
    )
    assert not [line for line in lines if "  " in line or line != line.strip()]


@pytest.mark.parametrize("seed", range(8))
def test_the_story_depends_only_on_what_the_family_sees(registry: Registry, seed: int) -> None:
    print(f"seed {seed}")
    rng = random.Random(seed)
    game = new_game(registry, seed, 3 + seed % 3, sets=SETS[list(SETS)[seed % 3]])
    bots = random_bots(game, seed)
    while not game.over:
        for family in game.families:
            seen = game.observe(family)
            other = Game.determinise(seen, rng.getrandbits(32), registry=registry)
            assert other.observe(family) == seen
            mine = story_lines(seen, game.rules.definitions)
            assert story_lines(other.observe(family), other.rules.definitions) == mine
        decision = game.decision
        assert decision is not None
        game.answer(bots[decision.family].choose(game.observe(decision.family)))


def test_others_placements_are_never_named(registry: Registry) -> None:
    game = new_game(registry, 4, 4, sets=("base", "ablaze"))
    lines, _ = told(game, "red", 4)
    names = {d.name for d in game.rules.definitions.values()}
    placed = [line for line in lines if " placed " in line and not line.startswith("You")]
    assert placed, lines
    for line in placed:
        assert "a card face down" in line
        placement = line.split(" placed ")[1].split(", covering ")[0]
        assert not [name for name in names if name in placement], line


def test_a_story_read_whole_is_the_story_read_as_it_happens(registry: Registry) -> None:
    """The web page rebuilds the story from the start; the terminal reads it as it goes."""
    for seed in range(3):
        game = new_game(registry, seed, 4, sets=("base", "ablaze"))
        lines, _ = told(game, "blue", seed)
        assert story_lines(game.observe("blue"), game.rules.definitions) == lines


def test_card_names_follow_the_language(registry: Registry) -> None:
    game = new_game(registry, 1, 3)
    lines, _ = told(game, "red", 1)
    french = story_lines(game.observe("red"), game.rules.definitions, "fr")
    assert len(french) == len(lines)
    soldat = [line for line in french if "Soldat" in line]
    assert soldat, french
    assert [line for line in lines if "Soldier" in line]


def test_counted_nouns_agree() -> None:
    assert counted(1, "token") == "1 token"
    assert counted(0, "token") == "0 tokens"
    assert counted(3, "position") == "3 positions"


def test_a_card_discarded_after_use_that_did_nothing_says_so_first(registry: Registry) -> None:
    """A Bribery or a Royal Decree is discarded after its turn whatever it did: when it
    did nothing, its idle phrase comes before the discard, which is not what it did."""
    said: Counter[str] = Counter()
    for seed in range(40):
        game = new_game(registry, seed, 5, sets=("base", "ablaze"))
        lines, _ = told(game, "red", seed)
        for line, after in itertools.pairwise(lines):
            for phrase in ("bribes nothing", "moves nothing"):
                if phrase in line:
                    said[phrase] += 1
                    assert after == line.split(f" {phrase}")[0] + " is discarded.", (seed, after)
    print(f"seeds 0 to 39: {dict(said)}")
    assert said["bribes nothing"] > 0


def test_the_acting_card_is_named_where_it_stood(registry: Registry) -> None:
    """A card that puts a card in the queue or moves one is named at the position it
    had as it acted: the one the line just before gave it, when that line told of it."""
    checked = 0
    for seed in range(30):
        game = new_game(registry, seed, 4, sets=("base", "ablaze"))
        lines, _ = told(game, "red", seed)
        for before, line in itertools.pairwise(lines):
            acted = re.match(r"(.+?) \((position \d+)\) (put|moved) ", line)
            named = re.match(r"(.+?) \((position \d+)\) (is revealed|gains)", before)
            if acted and named and acted.group(1) == named.group(1):
                assert acted.group(2) == named.group(2), (seed, before, line)
                checked += 1
    print(f"seeds 0 to 29: {checked} lines checked")
    assert checked > 0


def test_a_plot_and_a_shapeshifter_are_told_as_what_they_are(registry: Registry) -> None:
    """A Plot discards itself, then a Character of its family acts: its line says which,
    and the Plot is not said to do nothing. A Shapeshifter says whose ability it copies."""
    activations = copies = 0
    for seed in range(12):
        game = new_game(registry, seed, 5, sets=("base", "ablaze"))
        lines, _ = told(game, game.families[seed % 5], seed)
        for line in lines:
            plot = re.match(
                r"(.+'s|Your) Plot activates (.+'s|your) (\w+) \(position \d+\)\.$", line
            )
            if plot:
                activations += 1
                assert plot.group(1).lower() == plot.group(2).lower(), line  # its own family's
            copy = re.match(
                r"(.+) Shapeshifter \(position (\d+)\) copies the ability of (.+)\.$", line
            )
            if copy:
                copies += 1
                copied = re.match(r".+ \(position (\d+)\)$", copy.group(3))
                assert copied, line  # a card in the queue, beside it
                assert abs(int(copied.group(1)) - int(copy.group(2))) == 1, line
        for first, second, third in zip(lines, lines[1:], lines[2:], strict=False):
            if "Plot activates" in third and "Plot" in second and "discarded" in second:
                assert not first.endswith("does nothing."), (seed, first, second, third)
    print(f"seeds 0 to 11: {activations} Plot activations, {copies} copies")
    assert activations > 0
    assert copies > 0


def test_a_conspiracy_revealed_with_tokens_has_done_its_ability(registry: Registry) -> None:
    """A Conspiracy's ability is its reveal: its tokens count double. The reveal line
    says so, and its turn is not said to do nothing after it, in any language."""
    conspiracy = registry.cards["conspiracy"]
    paid = 0
    for seed in range(30):
        game = new_game(registry, seed, 4)
        told(game, "red", seed)
        for language, idle, double in (
            ("en", " does nothing.", "double:"),
            ("fr", " ne fait rien.", "double :"),
            ("pl", " nic nie robi.", "podwójnie"),
        ):
            name = conspiracy.name_in(language)
            lines = story_lines(game.observe("red"), game.rules.definitions, language)
            for line, after in itertools.pairwise(lines):
                revealed = re.match(rf"(.*{name} .*?) (is revealed|se révèle|ujawnia się)", line)
                if revealed and re.search(r"[+-]\d+\.$", line):
                    paid += language == "en"
                    assert double in line, (seed, line)
                    assert after != revealed.group(1) + idle, (seed, line, after)
    print(f"seeds 0 to 29: {paid} Conspiracies paid out")
    assert paid > 0


def test_polish_declines_what_it_can_and_quotes_names_it_cannot(registry: Registry) -> None:
    """Polish says whom a card steals from in the dative (``kradnie 1 punkt Wpływu
    Niebieskiemu``), the Bribery's token in the genitive (``żeton Przekupstwa``), and a
    card a verb acts on as ``kartę „Dziedzic”``: never a colon before the card it acts
    on, nor a second colon before the score."""
    dative = ("Czerwonemu", "Niebieskiemu", "Zielonemu", "Żółtemu", "Czarnemu", "ci")
    seen: Counter[str] = Counter()
    for seed in range(30):
        game = new_game(registry, seed, 5, sets=("base", "ablaze"))
        told(game, "red", seed)
        for line in story_lines(game.observe("red"), game.rules.definitions, "pl"):
            for wrong in (
                "; traci ",
                "uje kartę: ",
                "żeton (",
                "jako pozycję",
                "zdobywa",
                " zostawia",
            ):
                assert wrong not in line, (seed, line)
            assert line.count(": ") <= 1 or "Koniec gry" in line, (seed, line)
            stolen = re.search(r"kradnie (\w+ )?\d+ punkt\w* Wpływu ?(\w*)", line)
            if stolen:
                seen["stolen"] += 1
                assert (stolen.group(1) or stolen.group(2)).strip() in dative, (seed, line)
            if "likwiduje " in line and "siebie" not in line:
                seen["eliminated"] += 1
                assert re.search(r"likwiduje (twoją )?(zakrytą )?kartę", line), (seed, line)
            if "żeton Przekupstwa" in line:
                seen["bribery"] += 1
    print(f"seeds 0 to 29: {dict(seen)}")
    assert seen["stolen"]
    assert seen["eliminated"]
    assert seen["bribery"]
