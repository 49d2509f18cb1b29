"""Research adapters: PettingZoo, Gymnasium and OpenSpiel faces of every registered game.

This package is the only place that imports ``pettingzoo``, ``gymnasium`` or ``pyspiel``
(optional extras ``bestiary[rl]`` and ``bestiary[openspiel]``). Importing the package itself
needs neither: each library has its own modules.

- ``wild_encoding``, ``critters_encoding``: dense action ids and observation vectors (NumPy).
- ``ticks``: Call of the Wild on discrete ticks (every seat acts each tick, ``wait`` included).
- ``critters_v0``, ``wild_v0``: the PettingZoo envs (``pettingzoo_envs`` registers both).
- ``gym_envs``: ``bestiary/Critters-v0`` and ``bestiary/Wild-v0`` against bots.
- ``openspiel_critters``, ``openspiel_wild``: ``python_bestiary_critters``/``_wild`` games,
  declared over ``spiel_face`` (table, game, state), ``spiel_chance`` (cards dealt one at a
  time), ``spiel_ticks`` (a game on ticks) and ``spiel_pieces`` (game type, observers).
- ``spiel_cells``: cheap copies for OpenSpiel's ``clone()``, and each parameter set's table.
- ``observation_space``: the ``{"observation", "action_mask"}`` space every encoded face has.
- ``encoding``: the encoding a game declares (``GameInfo.faces.encoding``), else the generic one
  from its view and legal actions; ``generic_aec`` (PettingZoo), ``generic_gym``
  (``bestiary/Game-v0`` and ``vector_env``), ``generic_spiel`` (``python_bestiary_game``): the
  faces any turn-based game gets from it, with no module of its own; ``CrittersEnv`` and
  ``critters_v0`` are these faces with critters' declarations. ``generic_parallel``: a game on
  ticks as a PettingZoo ``ParallelEnv`` (``wild_v0`` declares wild over it).
- ``speed``: steps/s through each adapter and the peers (``bestiary bench --adapters``).
- ``sb3_vector``, ``tianshou_vector``: the vector envs as SB3's ``VecEnv`` and Tianshou's
  vector env, as they are.
- ``evaluate`` (``protocols.toml``), ``leaderboard``: ``bestiary evaluate``, any policy on a
  fixed, versioned protocol, and docs/leaderboard.md; ``trajectories``: ``bestiary export
  trajectories``, records as offline-RL steps; ``commands``: both commands' CLI.
- ``release``, ``league``: the released checkpoints (``checkpoints/``, package data) and the
  league baseline that trains some of them.

See docs/rl.md for the encodings and the choices made.
"""
