"""Words for people: every sentence the project shows a person about a game.

* the whole table, as ``print`` showed an observation or a game: :func:`table` (what
  one family reads, with its question and numbered answers when it is asked) and
  :func:`game_table` (what a spectator reads: public only);
* the parts of that table: :class:`Words` (cards and positions as one observation
  shows them: a :class:`Naming`, what a kind of question is worded with),
  :func:`view_lines`, :func:`question_text` and :func:`answer_text` (a question and
  its answers in words: the built-in kinds' sentences, a plugin kind's own
  ``question`` and ``option`` methods, else the asker's words or the kind's ``help``);
* the story of a game from its events, a line per thing that happened:
  :class:`Story` (told as the game goes) and :func:`story_lines` (all of it at once);
* text from a plugin or a save shown safely, control characters escaped
  (:func:`escaped`, :func:`control_problem`), and counts written out
  (:func:`counted`: ``3 cards``);
* a value an error names, cut short as every message cuts it: :func:`quote` (a word
  someone typed, quoted), :func:`short` (any value, as ``repr`` writes it),
  :func:`cut` and :func:`one_line` (text already written).

Every sentence is in the language asked (``language``: ``en``, ``fr`` or ``pl``, the
codes in :data:`LANGUAGES`; a family is named in it by :func:`colour`, and counts and
language names by :func:`counted` and :func:`language_name`); card names and texts come
from the card data in that language. What has no words in it (a plugin's card without
``names``, a plugin kind's own words, a language the project does not speak) is in
English. The terminal's own lines are :func:`terminal_text`, and the sets and bots of a
game it names :func:`sets_text` and :func:`bot_text`.

The engine (:mod:`oriflamme` and what it is made of) imports nothing from here: it
holds facts, and this package words them, so another language is another column of
this package's sentences over the same observations and events.

This namespace is the one door, as :mod:`oriflamme` is the engine's: the modules
behind it (``_languages``, ``_kinds``, ``_describe``, ``_story``, ``_terminal``) are
private. Callers depend on the names, not on which file holds which sentence, and the
files are ours to split otherwise without breaking an import.
"""

# The engine's own words come first: the modules below import them from here.
from ..core import QUOTE, control_problem, cut, escaped, one_line, quote, short
from ._describe import Words, game_table, in_card_order, phase_name, table, view_lines
from ._kinds import Naming, answer_text, question_text
from ._languages import LANGUAGES, colour, counted, language_name
from ._story import Story, story_lines
from ._terminal import bot_text, sets_text, terminal_text, typed_text

__all__ = [
    "LANGUAGES",
    "QUOTE",
    "Naming",
    "Story",
    "Words",
    "answer_text",
    "bot_text",
    "colour",
    "control_problem",
    "counted",
    "cut",
    "escaped",
    "game_table",
    "in_card_order",
    "language_name",
    "one_line",
    "phase_name",
    "question_text",
    "quote",
    "sets_text",
    "short",
    "story_lines",
    "table",
    "terminal_text",
    "typed_text",
    "view_lines",
]
