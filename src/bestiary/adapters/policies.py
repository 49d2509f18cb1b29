"""Bring your model to the table: trained policies as bestiary agents, and opponents for envs.

A *policy* here is anything that maps an adapter observation ``{"observation": float32 vector,
"action_mask": int8 vector}`` (the encodings of ``critters_v0``/``wild_v0`` and the Gym envs)
to an action id. ``as_policy`` accepts:

- a Stable-Baselines3 / sb3-contrib model or policy (anything with ``predict``): called
  deterministically, with ``action_masks`` when its ``predict`` takes them (MaskablePPO);
- a ``torch.nn.Module`` mapping a batch of observation vectors to one logit per action id: the
  mask is applied (illegal logits to -inf) and the best id is played;
- any other callable ``observation -> action id``.

``policy_agent(policy, game, player)`` wraps one as a bestiary ``Agent`` (``act(view, legal)``)
that plays in ``bestiary sim``, the server and the Gym envs; ``policy_factory(policy, game)``
is the ``(player, rng) -> Agent`` factory that ``register_bot`` and ``--bot module:NAME`` take.
The agent encodes the seat's own view with the game's encoding (nothing else reaches the
policy) and turns the chosen id back into an action. An id the mask forbids raises
``IllegalAction`` in one sentence (no silent substitute), except in wild where it is a wait,
as in the tick model.

``snapshot(model)`` freezes a copy of a model's policy (later training does not change it):
what self-play and league training put in the opponents' seats.

>>> agent = policy_agent(lambda obs: int(obs["action_mask"].nonzero()[0][0]), "critters", "bo")
>>> agent.player
'bo'
"""

from __future__ import annotations

import copy
import inspect
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from bestiary.adapters.encoding import encoding_for
from bestiary.core.agent import Agent, make_bot
from bestiary.core.errors import BadOption, IllegalAction
from bestiary.core.game import get_game

Observation = dict[str, np.ndarray]
Policy = Callable[[Observation], int]
ViewEncoder = Callable[[Mapping[str, Any]], np.ndarray]


def _predict_policy(model: Any) -> Policy:
    predict = model.predict
    masked = "action_masks" in inspect.signature(predict).parameters

    def play(observation: Observation) -> int:
        kwargs: dict[str, Any] = {"deterministic": True}
        if masked:
            kwargs["action_masks"] = observation["action_mask"].astype(bool)
        action, _ = predict(observation, **kwargs)
        return int(np.asarray(action).reshape(-1)[0])

    return play


def _torch_policy(module: Any) -> Policy:
    import torch

    def play(observation: Observation) -> int:
        with torch.no_grad():
            x = torch.as_tensor(observation["observation"], dtype=torch.float32).unsqueeze(0)
            logits = module(x).reshape(-1)
        mask = torch.as_tensor(observation["action_mask"], dtype=torch.bool)
        if logits.shape != mask.shape:
            raise BadOption(
                f"the module gives {logits.numel()} logits for {mask.numel()} action ids"
            )
        return int(torch.where(mask, logits, -torch.inf).argmax())

    return play


def _is_torch_module(thing: Any) -> bool:
    torch = __import__("sys").modules.get("torch")
    return torch is not None and isinstance(thing, torch.nn.Module)


def as_policy(thing: Any) -> Policy | None:
    """``thing`` as a policy (observation -> action id), or None if it is not one."""
    if callable(getattr(thing, "predict", None)):  # SB3 models and policies (torch modules too)
        return _predict_policy(thing)
    if _is_torch_module(thing):
        return _torch_policy(thing)
    if callable(thing) and not isinstance(thing, type):
        return thing  # type: ignore[no-any-return]
    return None


def _frozen_copy(policy: Any) -> Any:
    rebuild = getattr(policy, "_get_constructor_parameters", None)
    if callable(rebuild):
        # An SB3 policy: a deep copy trips over its non-leaf tensors; rebuild and load weights.
        clone = type(policy)(**rebuild())
        clone.load_state_dict(policy.state_dict())
        clone.set_training_mode(False)
        return clone
    return copy.deepcopy(policy)


def snapshot(model: Any) -> Policy:
    """A frozen copy of ``model``'s policy (an SB3 model, its policy, a torch module)."""
    frozen = _frozen_copy(getattr(model, "policy", model))
    policy = as_policy(frozen)
    if policy is None:
        raise BadOption(f"cannot take a snapshot of a {type(model).__name__}: it is no policy")
    return policy


def encoding_from_view(game: str, view: Mapping[str, Any]) -> Any:
    """The adapters' encoding of ``game`` for the table a seat's view shows: the one the game
    declares, else the generic one from its view and legal actions (``adapters.encoding``)."""
    return encoding_for(game, view)


class PolicyAgent:
    """A trained policy in one seat: the seat's view in, one action out.

    The encoding is the env's when an env seats it, else made from the first view it gets
    (``bestiary sim``, the server): the same ids and vectors the policy was trained on.
    """

    def __init__(
        self,
        policy: Policy,
        game: str,
        player: str,
        encoding: Any = None,
        observe: ViewEncoder | None = None,
    ) -> None:
        self.policy = policy
        self.game = game
        self.player = player
        self.encoding = encoding
        self.observe = observe
        try:
            # In a real-time game an action the mask forbids is a wait, as in the tick model.
            self.can_wait = get_game(game).info.real_time
        except KeyError as err:
            raise BadOption(str(err.args[0])) from None

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
        if not legal:
            return None
        if self.encoding is None:
            self.encoding = encoding_from_view(self.game, view)
        enc = self.encoding
        vector = self.observe(view) if self.observe is not None else enc.observe(view)
        mask = enc.mask(legal)
        choice = int(self.policy({"observation": vector, "action_mask": mask}))
        if 0 <= choice < len(mask) and mask[choice]:
            return enc.action(self.player, choice)
        if self.can_wait:
            return None
        raise IllegalAction(f"the policy in seat {self.player} chose action {choice}, not legal")


def policy_agent(policy: Any, game: str, player: str) -> PolicyAgent:
    """``policy`` (see ``as_policy``) as a bestiary Agent playing ``player`` at ``game``."""
    play = as_policy(policy)
    if play is None:
        raise BadOption(f"a {type(policy).__name__} is not a policy (callable, predict, module)")
    return PolicyAgent(play, game, player)


def policy_factory(policy: Any, game: str) -> Callable[[str, random.Random], PolicyAgent]:
    """A bot factory ``(player, rng) -> Agent`` for ``register_bot`` or ``--bot module:NAME``."""
    policy_agent(policy, game, "probe")  # refuses a non-policy now, in one sentence

    def make(player: str, rng: random.Random) -> PolicyAgent:
        return policy_agent(policy, game, player)

    return make


def opponent(
    spec: Any, game: str, player: str, seed: int, encoding: Any, observe: ViewEncoder
) -> Agent:
    """One opponent seat of an env: a bot name, an Agent, a policy or a snapshot.

    Anything else is refused with one sentence (``BadOption``), unknown bot names included.
    """
    if isinstance(spec, str):
        try:
            return make_bot(game, spec, player, seed)
        except ValueError as err:
            raise BadOption(str(err)) from None
    if callable(getattr(spec, "act", None)):
        return spec  # type: ignore[no-any-return]
    play = as_policy(spec)
    if play is None:
        raise BadOption(
            f"an opponent must be a bot name, an Agent, a policy or a snapshot, "
            f"not a value of type {type(spec).__name__}"
        )
    return PolicyAgent(play, game, player, encoding, observe)
