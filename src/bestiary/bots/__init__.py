"""Bots for both games; importing this package registers them (``bestiary.core.agent``)."""

from bestiary.bots import critters, wild

__all__ = ["critters", "wild"]
