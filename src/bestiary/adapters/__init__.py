"""Research adapters: PettingZoo, Gymnasium and OpenSpiel faces of both games.

This package is the only place that imports ``pettingzoo``, ``gymnasium`` or ``pyspiel``
(optional extras ``bestiary[rl]`` and ``bestiary[openspiel]``). Importing the package itself
needs neither: each library has its own modules.

- ``wild_encoding``, ``critters_encoding``: dense action ids and observation vectors (NumPy).
- ``ticks``: Call of the Wild on discrete ticks (every seat acts each tick, ``wait`` included).
- ``critters_v0``, ``wild_v0``: the PettingZoo envs (``pettingzoo_envs`` registers both).
- ``gym_envs``: ``bestiary/Critters-v0`` and ``bestiary/Wild-v0`` against bots.
- ``openspiel_critters``, ``openspiel_wild``: ``python_bestiary_critters``/``_wild`` games.
- ``spiel_cells``: cheap copies for OpenSpiel's ``clone()``.
- ``speed``: steps/s through each adapter and the peers (``bestiary bench --adapters``).

See docs/rl.md for the encodings and the choices made.
"""
