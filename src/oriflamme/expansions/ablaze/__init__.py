"""Oriflamme: Ablaze. Not implemented yet: this plugin registers nothing."""
