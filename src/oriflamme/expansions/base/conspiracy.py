"""Conspiracy: gain double the Influence on it when it is revealed. Discard it."""

from __future__ import annotations

from oriflamme import Ability


class Conspiracy(Ability):
    # RULINGS R2, B-Conspiracy: its whole effect is data in cards/base.yaml
    # (reveal_tokens: double, discard_after_use: true); registered all the same
    # so that every base card has an implementation.
    pass
