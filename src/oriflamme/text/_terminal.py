"""The sentences of ``oriflamme play`` around the table: prompts, help, refusals, the
final scores, the lines about a save. The table, the questions and the story are worded
by the other modules of :mod:`oriflamme.text`; what is here is only the terminal's own.
"""

from __future__ import annotations

from collections.abc import Iterable

from oriflamme.text import QUOTE, quote

from ._languages import Templates, spoken


def terminal_text(language: str, key: str, /, **values: object) -> str:
    """The terminal's sentence ``key`` in ``language`` (English if the project does not
    speak it), its fields filled with ``values``. The keys are those of the table below:
    a key that is not one is a programming error (KeyError)."""
    return _say(language, key, **values)


#: Quotation marks around what someone typed, by language (English: as ``repr`` quotes).
_QUOTES = {"fr": ("« ", " »"), "pl": ("„", "”")}


def typed_text(text: str, language: str) -> str:
    """What someone typed, quoted as ``language`` quotes (``'xyz'``, ``« xyz »``,
    ``„xyz”``), its first :data:`~oriflamme.text.QUOTE` characters only and then
    ``...``: the closing mark says where what was written stops."""
    marks = _QUOTES.get(spoken(language))
    if marks is None:
        return quote(text)
    opening, closing = marks
    more = "..." if len(text) > QUOTE else ""
    return f"{opening}{text[:QUOTE]}{closing}{more}"


def sets_text(sets: Iterable[tuple[str, str]], language: str) -> str:
    """The card sets of a game, given as (key, title), in ``language``: ``base,ablaze``
    in English (as ``--sets`` takes them), ``jeu de base + extension Ablaze``,
    ``podstawowy, Ablaze``. A plugin's set is named by its title (its key in English)."""
    named = []
    for key, title in sets:
        if f"set.{key}" in _say.table:
            named.append(_say(language, f"set.{key}"))
        else:  # English names a set as --sets takes it
            named.append(key if spoken(language) == "en" else title)
    return _say(language, "sets.join").join(named)


def bot_text(kind: str, settings: str, *, plugin: bool, language: str) -> str:
    """A bot kind with the settings chosen for it (``settings`` as typed, after the
    kind: ``:iterations=2000``), in ``language``: ``heuristic``, ``heuristique``,
    ``ISMCTS:iterations=2000``. A plugin's kind keeps its name."""
    if plugin or f"bot.{kind}" not in _say.table:
        return kind + settings
    return _say(language, f"bot.{kind}") + settings


_say = Templates(
    "terminal",
    {
        "intro": {
            "en": "You are {you}. Cards: {names}.",
            "fr": "Vous jouez {you}. Cartes : {names}.",
            "pl": "Grasz jako: {you}. Karty: {names}.",
        },
        "how": {
            "en": "Type the number of an answer; c shows the cards' texts; q leaves the game.",
            "fr": "Tapez le numéro d'une réponse ; c montre les textes des cartes ; q quitte "
            "la partie.",
            "pl": "Wpisz numer odpowiedzi; c pokazuje teksty kart; q kończy grę.",
        },
        "thinking": {
            "en": "{family} is thinking…",
            "fr": "{family} réfléchit…",
            "pl": "{family} myśli…",
        },
        "left": {
            "en": "You left the game.",
            "fr": "Vous avez quitté la partie.",
            "pl": "Opuszczasz grę.",
        },
        "card_line": {
            "en": "  c {number} {name}: {text}",
            "fr": "  c {number} {name} : {text}",
            "pl": "  c {number} {name}: {text}",
        },
        "texts_in_english": {
            "en": "(texts in English{some}: the card data has none in {language})",
            "fr": "(textes en anglais{some} : les données des cartes n'en ont pas en {language})",
            "pl": "(teksty po angielsku{some}: dane kart nie mają tekstów w języku: {language})",
        },
        "texts_in_english.some": {
            "en": " for {names}",
            "fr": " pour {names}",
            "pl": " dla: {names}",
        },
        "cards": {
            "en": "The cards of this game (c N or a card's name shows one):",
            "fr": "Les cartes de cette partie (c N ou le nom d'une carte en montre une) :",
            "pl": "Karty tej gry (c N albo nazwa karty pokazuje jedną z nich):",
        },
        "card_number": {
            "en": "c N shows card N, from 1 to {count}; c lists them.",
            "fr": "c N montre la carte N, de 1 à {count} ; c les liste toutes.",
            "pl": "c N pokazuje kartę nr N, od 1 do {count}; c wypisuje wszystkie.",
        },
        "no_card": {
            "en": "No card of this game is called {name}; c lists them.",
            "fr": "Aucune carte de cette partie ne s'appelle {name} ; c les liste toutes.",
            "pl": "Żadna karta tej gry nie nazywa się {name}; c wypisuje wszystkie.",
        },
        "back": {"en": "  b) back", "fr": "  b) retour", "pl": "  b) wróć"},
        "please": {
            "en": "Please type a number from 1 to {count}{back}, c for the cards' texts, or q to "
            "leave.",
            "fr": "Tapez un numéro de 1 à {count}{back}, c pour les textes des cartes, ou q pour "
            "quitter.",
            "pl": "Wpisz numer od 1 do {count}{back}, c, by zobaczyć teksty kart, albo q, by "
            "wyjść.",
        },
        "please.back": {
            "en": ", b to go back",
            "fr": ", b pour revenir en arrière",
            "pl": ", b, by wrócić",
        },
        "too_wrong": {
            "en": "{count} answers in a row were not one of the choices: game over.",
            "fr": "{count} réponses de suite n'étaient pas l'un des choix : fin de la partie.",
            "pl": "{count} odpowiedzi z rzędu nie było żadną z opcji: koniec gry.",
        },
        "too_many": {
            "en": "{count} lines in a row answered nothing: game over.",
            "fr": "{count} lignes de suite ne répondaient à rien : fin de la partie.",
            "pl": "{count} wierszy z rzędu na nic nie odpowiadało: koniec gry.",
        },
        "which_card": {
            "en": "Which card will you place, face down?",
            "fr": "Quelle carte allez-vous placer, face cachée ?",
            "pl": "Którą kartę kładziesz, zakrytą?",
        },
        "where": {
            "en": "Where will your {card} go?",
            "fr": "Où placer votre carte {card} ?",
            "pl": "Gdzie położyć twoją kartę {card}?",
        },
        "setup": {
            "en": "{families}, sets {sets}, seed {seed}",
            "fr": "{families}, {sets}, graine {seed}",
            "pl": "{families}, zestawy: {sets}, ziarno {seed}",
        },
        # The sets that ship with oriflamme; English names them by key, as --sets does.
        "set.base": {"en": "base", "fr": "jeu de base", "pl": "podstawowy"},
        "set.ablaze": {"en": "ablaze", "fr": "extension Ablaze", "pl": "Ablaze"},
        "sets.join": {"en": ",", "fr": " + ", "pl": ", "},
        # The bot kinds that ship with oriflamme (English: as --bots takes them).
        "bot.random": {"en": "random", "fr": "au hasard", "pl": "losowy"},
        "bot.heuristic": {"en": "heuristic", "fr": "heuristique", "pl": "heurystyczny"},
        "bot.learned": {"en": "learned", "fr": "appris", "pl": "wyuczony"},
        "bot.ismcts": {"en": "ismcts", "fr": "ISMCTS", "pl": "ISMCTS"},
        "bot": {"en": "{family} ({bot})", "fr": "{family} ({bot})", "pl": "{family} ({bot})"},
        # The bot levels (oriflamme.bots.levels; English: as --bots takes them), and
        # what each one is, said to the player who plays against it.
        "bot.beginner": {"en": "beginner", "fr": "débutant", "pl": "początkujący"},
        "bot.easy": {"en": "easy", "fr": "facile", "pl": "łatwy"},
        "bot.medium": {"en": "medium", "fr": "moyen", "pl": "średni"},
        "bot.hard": {"en": "hard", "fr": "difficile", "pl": "trudny"},
        "level": {"en": "{level}: {help}.", "fr": "{level} : {help}.", "pl": "{level}: {help}."},
        "levels": {
            "en": "Levels, weakest first, chosen with --bots: {levels}.",
            "fr": "Niveaux, du plus faible au plus fort, à choisir avec --bots : {levels}.",
            "pl": "Poziomy od najsłabszego, do wyboru przez --bots: {levels}.",
        },
        "level.beginner": {
            "en": "plays any legal answer at random, to learn the rules against",
            "fr": "joue au hasard n'importe quelle réponse permise, pour apprendre les règles",
            "pl": "gra losowo dowolną dozwoloną odpowiedź, by nauczyć się zasad",
        },
        "level.easy": {
            "en": "tries each move in a few games played out at random, and often misjudges",
            "fr": "essaie chaque coup dans quelques parties jouées au hasard, et se trompe souvent",
            "pl": "sprawdza każdy ruch w kilku partiach rozegranych losowo i często się myli",
        },
        "level.medium": {
            "en": "plays at once by a good player's rules of thumb",
            "fr": "joue aussitôt selon les règles empiriques d'un bon joueur",
            "pl": "gra od razu według praktycznych zasad dobrego gracza",
        },
        "level.hard": {
            "en": "thinks ahead, playing out a few hundred possible games before each move",
            "fr": "réfléchit : joue quelques centaines de parties possibles avant chaque coup",
            "pl": "myśli naprzód: rozgrywa kilkaset możliwych partii przed każdym ruchem",
        },
        "new_game": {
            "en": "Oriflamme: {setup} (replay with --seed {seed}).",
            "fr": "Oriflamme : {setup} (rejouez-la avec --seed {seed}).",
            "pl": "Oriflamme: {setup} (powtórka: --seed {seed}).",
        },
        "saved_game": {
            "en": "Oriflamme: the game saved in {load}, {setup}: round {round}, {phase}.",
            "fr": "Oriflamme : la partie enregistrée dans {load}, {setup} : tour {round}, {phase}.",
            "pl": "Oriflamme: gra zapisana w {load}, {setup}: runda {round}, {phase}.",
        },
        "bots": {"en": "Bots: {bots}", "fr": "Bots : {bots}", "pl": "Boty: {bots}"},
        "saving": {
            "en": "The game is saved in {save} after every answer (--load continues it).",
            "fr": "La partie est enregistrée dans {save} après chaque réponse (--load la reprend).",
            "pl": "Gra jest zapisywana w {save} po każdej odpowiedzi (--load ją wznawia).",
        },
        "stopped": {
            "en": "The game stopped: {error}",
            "fr": "La partie s'est arrêtée : {error}",
            "pl": "Gra została przerwana: {error}",
        },
        "not_saved": {
            "en": "The game was not saved, so it cannot go on; play with --save FILE to keep a "
            "game you can go on with.",
            "fr": "La partie n'était pas enregistrée : elle ne peut pas reprendre ; jouez avec "
            "--save FICHIER pour garder une partie à reprendre.",
            "pl": "Gra nie była zapisywana, więc nie można jej wznowić; graj z --save PLIK, aby "
            "zachować grę do wznowienia.",
        },
        "saved_leaving": {
            "en": "The game is saved in {save}. To go on with it: {command}",
            "fr": "La partie est enregistrée dans {save}. Pour la reprendre : {command}",
            "pl": "Gra jest zapisana w {save}. Aby ją wznowić: {command}",
        },
    },
)
