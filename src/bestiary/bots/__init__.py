"""Bots for both games; importing this package registers them (``bestiary.core.agent``)."""

from bestiary.bots import wild

__all__ = ["wild"]
