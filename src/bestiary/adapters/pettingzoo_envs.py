"""Import this to register ``bestiary/critters_v0`` and ``bestiary/wild_v0`` with PettingZoo.

>>> import pettingzoo
>>> import bestiary.adapters.pettingzoo_envs
>>> env = pettingzoo.make("aec", "bestiary/critters_v0", players=2)
>>> par = pettingzoo.make("parallel", "bestiary/wild_v0", players=3)
"""

from bestiary.adapters import critters_v0, wild_v0

__all__ = ["critters_v0", "wild_v0"]
