"""The engine: card data, plugin loading, the game state and the rules that advance it.

Its modules are private (``_game``, ``_effects``, ...) and may change at any release.
This package's namespace is the one door the public modules use: :mod:`oriflamme`,
:mod:`oriflamme.events`, :mod:`oriflamme.limits`, :mod:`oriflamme.text`,
:mod:`oriflamme.yamlfile`, :mod:`oriflamme.saves` and :mod:`oriflamme.compiling`
import from here, and everyone else imports from them.

Its modules are in layers, each importing only from its own and those below it,
type-checking imports included (no circle: ``lint-imports``). Bottom to top:

1. Values: errors, card ids, bounds, decisions, events, words and values from outside
   (``_errors``, ``_compiling``, ``_words``, ``_shown``, ``_identity``, ``_bounds``,
   ``_decisions``, ``_events``, ``_saveable``).
2. What plugins and players give: YAML files, card sets, variants, a game's
   configuration, bot kinds, card lists (``_yamlfile``, ``_cardsets``, ``_variants``,
   ``_config``, ``_botkinds``, ``_cardlist``).
3. The rules table a game is played by, which holds abilities and kinds without
   naming their classes (``_rules``).
4. A game as data: its state, the deal, the scores, what one family sees (``_state``,
   ``_deal``, ``_scoring``, ``_observation``).
5. What abilities and hooks may read and do, within the budget of an answer
   (``_budget``, ``_board``, ``_questions``, ``_effects``).
6. What plugins subclass and implement, each handed the Effects: abilities, kinds of
   decision, hooks (``_ability``, ``_kinds``, ``_hookspecs``).
7. The engine, which runs the rules on a state, third-party code through guards and
   blamed when it fails (``_guards``, ``_blame``, ``_engine``).
8. The registry: plugins loaded and collected into rules tables (``_provided``,
   ``_plugins``).
9. What the engine writes, and a game made up: the table's legality (which a save
   written is held to), positions, saves, determinisation (``_legality``,
   ``_position``, ``_saves``, ``_determinise``).
10. The game (``_game``, and ``game_of``: the game of a state :mod:`oriflamme.saves`
    has read and checked).

Reading and checking a game from outside (a save, a position) is not the engine's
job: :mod:`oriflamme.saves` does it, with core's private modules, and core never
imports it.
"""

from ._ability import Ability
from ._botkinds import BotKind, BotSetting, SettingValue
from ._bounds import (
    MAX_ARGUMENT_DEPTH,
    MAX_EVENTS,
    MAX_INFLUENCE,
    MAX_INT,
    MAX_QUESTION_BYTES,
    MAX_SEED,
    MAX_STRING,
    MAX_TASKS,
    MAX_TEXT,
    MAX_TOKENS,
    MAX_VALUE_BYTES,
    question_bytes,
    question_problem,
    value_bytes,
    value_problem,
)
from ._budget import Budget
from ._cardsets import MAX_KEY, CardDef, CardSet, CardType, RevealTokens, Setup, languages
from ._compiling import i64, mypyc_attr
from ._config import (
    COLOURS,
    FAMILY_PATTERN,
    MAX_FAMILIES,
    MAX_NAMES,
    MAX_SIZE,
    MIN_FAMILIES,
    GameConfig,
)
from ._decisions import FIRST, LAST, Answer, At, Decision, Placement, Placements
from ._determinise import DeterminiseError
from ._effects import Effects
from ._errors import (
    AbilityError,
    CardDataError,
    ConfigError,
    IllegalAnswer,
    OriflammeError,
    PluginError,
    PositionError,
    SaveError,
)
from ._events import (
    EVENT_TYPES,
    HOOKS,
    Activated,
    Applied,
    Bribed,
    Discarded,
    Eliminated,
    Event,
    Gained,
    GameEnded,
    GameStarted,
    Lost,
    Moved,
    Placed,
    Revealed,
    RoundEnded,
    RoundStarted,
    Stolen,
    TokenAdded,
    event_to_dict,
)
from ._game import Game, game_of
from ._hookspecs import hookimpl, hookspec
from ._identity import CardId
from ._kinds import DecisionKind, SharedKind
from ._observation import Observation
from ._plugins import ENTRY_POINT_GROUP, Registry, builtin_plugins
from ._position import LABEL, Position, QueueCard
from ._provided import MAX_VARIANT_INT, MAX_VARIANT_TEXT
from ._rules import GameRules
from ._saves import snapshot
from ._shown import QUOTE, cut, one_line, quote, short
from ._state import PHASES, PILES
from ._variants import Variant
from ._words import control_problem, escaped
from ._yamlfile import Key, YamlDocument, parse_yaml, read_text, show

__all__ = [
    "COLOURS",
    "ENTRY_POINT_GROUP",
    "EVENT_TYPES",
    "FAMILY_PATTERN",
    "FIRST",
    "HOOKS",
    "LABEL",
    "LAST",
    "MAX_ARGUMENT_DEPTH",
    "MAX_EVENTS",
    "MAX_FAMILIES",
    "MAX_INFLUENCE",
    "MAX_INT",
    "MAX_KEY",
    "MAX_NAMES",
    "MAX_QUESTION_BYTES",
    "MAX_SEED",
    "MAX_SIZE",
    "MAX_STRING",
    "MAX_TASKS",
    "MAX_TEXT",
    "MAX_TOKENS",
    "MAX_VALUE_BYTES",
    "MAX_VARIANT_INT",
    "MAX_VARIANT_TEXT",
    "MIN_FAMILIES",
    "PHASES",
    "PILES",
    "QUOTE",
    "Ability",
    "AbilityError",
    "Activated",
    "Answer",
    "Applied",
    "At",
    "BotKind",
    "BotSetting",
    "Bribed",
    "Budget",
    "CardDataError",
    "CardDef",
    "CardId",
    "CardSet",
    "CardType",
    "ConfigError",
    "Decision",
    "DecisionKind",
    "DeterminiseError",
    "Discarded",
    "Effects",
    "Eliminated",
    "Event",
    "Gained",
    "Game",
    "GameConfig",
    "GameEnded",
    "GameRules",
    "GameStarted",
    "IllegalAnswer",
    "Key",
    "Lost",
    "Moved",
    "Observation",
    "OriflammeError",
    "Placed",
    "Placement",
    "Placements",
    "PluginError",
    "Position",
    "PositionError",
    "QueueCard",
    "Registry",
    "RevealTokens",
    "Revealed",
    "RoundEnded",
    "RoundStarted",
    "SaveError",
    "SettingValue",
    "Setup",
    "SharedKind",
    "Stolen",
    "TokenAdded",
    "Variant",
    "YamlDocument",
    "builtin_plugins",
    "control_problem",
    "cut",
    "escaped",
    "event_to_dict",
    "game_of",
    "hookimpl",
    "hookspec",
    "i64",
    "languages",
    "mypyc_attr",
    "one_line",
    "parse_yaml",
    "question_bytes",
    "question_problem",
    "quote",
    "read_text",
    "short",
    "show",
    "snapshot",
    "value_bytes",
    "value_problem",
]
