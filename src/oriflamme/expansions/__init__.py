"""The card sets that ship with ``oriflamme``, each a plugin like any other."""
