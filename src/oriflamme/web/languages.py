"""The languages a view may be told in (``?language=`` on the API and the websocket).

The sentences and card names come from :mod:`oriflamme.text` and the card data; the
pages' own words are the page's (``static/words.js``). A language nobody asked for is
English; one the server does not speak is refused, naming the ones it does.
"""

from __future__ import annotations

from collections.abc import Mapping

from oriflamme.text import quote

#: The languages of the views, English first (the default).
LANGUAGES = ("en", "fr", "pl")
DEFAULT = LANGUAGES[0]


class UnknownLanguage(ValueError):
    """A ``language`` the server does not speak; its message says which it does."""


def read_language(params: Mapping[str, str]) -> str:
    """The ``language`` of a request's query parameters: :data:`DEFAULT` if none."""
    value = params.get("language")
    if value is None:
        return DEFAULT
    if value not in LANGUAGES:
        raise UnknownLanguage(
            f"language {quote(value, 20)} is not one this server speaks: use one of "
            f"{', '.join(LANGUAGES)}"
        )
    return value
