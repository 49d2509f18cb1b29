"""bestiary: Call of the Wild and the critter set-collection game as real software."""

__version__ = "0.1.0"
