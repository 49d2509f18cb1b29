"""Bots for both games; importing this package registers them (``bestiary.core.agent``)."""

from bestiary.bots import critters, critters_search, wild, wild_exploiters

__all__ = ["critters", "critters_search", "wild", "wild_exploiters"]
