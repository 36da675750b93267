"""For learning agents: a fixed action space over every decision (:mod:`.actions`).

The standard interfaces (PettingZoo, OpenSpiel) build on it; they need the optional
extra ``oriflamme[rl]``, this package's own modules do not.
"""
