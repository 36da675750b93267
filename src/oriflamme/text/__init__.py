"""Words for people: text from a plugin or a save shown safely (control characters
escaped), and counts written out ("3 cards")."""

from ..core import control_problem, counted, escaped

__all__ = ["control_problem", "counted", "escaped"]
