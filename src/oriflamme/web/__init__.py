"""Play in a browser: ``oriflamme serve`` (the optional extra ``oriflamme[web]``).

:func:`oriflamme.web.app.create_app` is the ASGI app; docs/web.md describes its pages,
its JSON API and how each seat's secrets are kept. Importing this package needs none
of the extra's dependencies.
"""
