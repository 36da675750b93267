"""Bot levels: strengths a player picks by name (``beginner``, ``easy``, ``medium``,
``hard``), each one a bot kind with its settings.

A level is written wherever a bot kind is (``--bots hard``, a lobby's seat) and stands
for its choice: ``hard`` is ``ismcts:iterations=300``. The levels are ordered by a
measured ladder, each one alone against two of the level below it in 3-family base
games (docs/bots.md, Levels, gives the command and the figures): each beats the one
below it at least 60% of the time, where a third is a fair share. A change to a level
is measured again before it is made. A level's name is read before a kind's: a
plugin's bot kind named like a level is not reached by that name.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Level:
    """A named strength: the bot choice it stands for and what it is, for players."""

    name: str
    #: The bot choice, as ``--bots`` takes it: ``ismcts:iterations=60``.
    choice: str
    #: What playing against it is like, in a line (the terminal's words translate it).
    help: str


#: The levels, weakest first.
LEVELS: tuple[Level, ...] = (
    Level("beginner", "random", "plays any legal answer at random, to learn the rules against"),
    Level(
        "easy",
        "ismcts:iterations=8:playout=random",
        "tries each move in a few games played out at random, and often misjudges",
    ),
    Level("medium", "heuristic", "plays at once by a good player's rules of thumb"),
    Level(
        "hard",
        "ismcts:iterations=300",
        "thinks ahead, playing out a few hundred possible games before each move",
    ),
)

#: The level a game is played against when no bot is named.
DEFAULT_LEVEL = "medium"


def levels() -> dict[str, Level]:
    """Every level, by name, weakest first."""
    return {level.name: level for level in LEVELS}
