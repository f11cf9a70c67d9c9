"""A policy file's network as plain arrays for the compiled forward pass (``core/network.py``).

``CompiledNetwork(policy_network)`` exports the towers of a loaded ``PolicyNetwork`` (the
MaskablePPO policy MLP with its action head, the value MLP with its value head; already widened
to the current observation layout) once; its ``logits`` and ``values`` run the compiled forward
pass on a batch, and ``policy_arrays``/``value_arrays`` are what the compiled playouts
(``core/batch_loops.py``'s ``network_playouts``) take. Torch stays the format the network is
trained and stored in (SB3 and RLlib load it); these arrays are a read-only copy for playing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from tiny_york_env.core.network import ACTIVATIONS, masked_output

Tower = tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.int64]]  # first, params, widths


def _linears(sequential) -> list:
    """The Linear layers of a torch Sequential, in order."""
    return [module for module in sequential if hasattr(module, "weight")]


def _numpy(tensor) -> NDArray[np.float32]:
    """A torch tensor as a float32 numpy array (a copy)."""
    return tensor.detach().to("cpu").float().numpy().copy()


def tower_arrays(hidden_layers: list, head) -> Tower:
    """(first, params, widths) of a stack of torch Linear layers ending in ``head``, in the
    layout ``core/network.py`` states."""
    layers = [*hidden_layers, head]
    first = np.ascontiguousarray(_numpy(layers[0].weight).T)
    params = [_numpy(layers[0].bias)]
    for layer in layers[1:-1]:
        params += [np.ascontiguousarray(_numpy(layer.weight).T).ravel(), _numpy(layer.bias)]
    if len(layers) > 1:
        params += [_numpy(head.weight).ravel(), _numpy(head.bias)]
    widths = np.array([layer.out_features for layer in layers], dtype=np.int64)
    tower = first, np.concatenate(params).astype(np.float32), widths
    check_tower(tower)
    return tower


def params_size(widths: NDArray[np.int64]) -> int:
    """The entries of ``params`` of a tower of ``widths``: the first layer's bias, then each later
    layer's weights and bias."""
    size, width_in = int(widths[0]), int(widths[0])
    for width in widths[1:]:
        size += width_in * int(width) + int(width)
        width_in = int(width)
    return size


def check_tower(tower: Tower) -> None:
    """ValueError unless the tower's arrays have the dtypes, layout and sizes ``core/network.py``
    reads (the compiled code reads them unchecked)."""
    first, params, widths = tower
    if first.dtype != np.float32 or params.dtype != np.float32 or widths.dtype != np.int64 \
            or first.ndim != 2 or params.ndim != 1 or widths.ndim != 1 or widths.size == 0 \
            or not (first.flags.c_contiguous and params.flags.c_contiguous) \
            or np.any(widths < 1) or first.shape[1] != widths[0]:
        raise ValueError("a tower is float32 first[obs_size, widths[0]] and params[...] (C order) "
                         "and int64 widths[L >= 1] of positive widths")
    if params.size != params_size(widths):
        raise ValueError(f"a tower of widths {widths.tolist()} has {params_size(widths)} params, "
                         f"got {params.size}")


@dataclass(frozen=True)
class CompiledNetwork:
    """The policy and value towers of a ``PolicyNetwork`` as arrays, with a compiled forward pass."""

    obs_size: int
    num_actions: int
    activation: int  # core.network.TANH or RELU
    policy_arrays: Tower
    value_arrays: Tower

    @classmethod
    def from_policy_network(cls, network) -> CompiledNetwork:
        """Export ``network`` (an ``agents.policy_search.PolicyNetwork``) to arrays."""
        torch_network = network.network
        body = torch_network["mlp_extractor"]
        activation = network.activation_name
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation {activation!r} has no compiled form; one of {tuple(ACTIVATIONS)}")
        return cls(obs_size=network.game.obs_size, num_actions=network.num_actions,
                   activation=ACTIVATIONS[activation],
                   policy_arrays=tower_arrays(_linears(body["policy_net"]), torch_network["action_net"]),
                   value_arrays=tower_arrays(_linears(body["value_net"]), torch_network["value_net"]))

    def check_fits(self, game) -> None:
        """ValueError unless the towers read ``game``'s observation and give its actions' logits
        and one value (what the compiled playouts of ``game`` assume)."""
        policy_first, _, policy_widths = self.policy_arrays
        value_first, _, value_widths = self.value_arrays
        if policy_first.shape[0] != game.obs_size or value_first.shape[0] != game.obs_size \
                or policy_widths[-1] != game.num_actions or value_widths[-1] != 1:
            raise ValueError(f"the network reads {policy_first.shape[0]} observation entries and "
                             f"gives {policy_widths[-1]} logits and {value_widths[-1]} values; "
                             f"{game.title} has {game.obs_size} entries and {game.num_actions} "
                             f"actions, and one value")

    def logits(self, observations: NDArray[np.float32],
               masks: NDArray[np.bool_] | None = None) -> NDArray[np.float32]:
        """float32[N, num_actions]: the policy's logits of N observations (-inf where ``masks``
        forbids), by the compiled forward pass."""
        observations = self._batch(observations)
        if masks is None:
            masks = np.ones((observations.shape[0], self.num_actions), dtype=np.bool_)
        masks = np.ascontiguousarray(masks, dtype=np.bool_)
        if masks.shape != (observations.shape[0], self.num_actions):
            raise ValueError(f"give masks of shape {(observations.shape[0], self.num_actions)} "
                             f"(one row an observation), got shape {masks.shape}")
        out = np.empty((observations.shape[0], self.num_actions), dtype=np.float32)
        for i in range(observations.shape[0]):
            masked_output(observations[i], masks[i], *self.policy_arrays, self.activation, out[i])
        return out

    def values(self, observations: NDArray[np.float32]) -> NDArray[np.float32]:
        """float32[N]: the value head's output for N observations, by the compiled forward pass."""
        observations = self._batch(observations)
        out = np.empty((observations.shape[0], 1), dtype=np.float32)
        allowed = np.ones(1, dtype=np.bool_)
        for i in range(observations.shape[0]):
            masked_output(observations[i], allowed, *self.value_arrays, self.activation, out[i])
        return out[:, 0]

    def _batch(self, observations) -> NDArray[np.float32]:
        """``observations`` as C-contiguous float32[N, obs_size]; ValueError for any other shape."""
        batch = np.ascontiguousarray(observations, dtype=np.float32)
        if batch.ndim != 2 or batch.shape[1] != self.obs_size:
            raise ValueError(f"give a batch of observations of shape (N, {self.obs_size}), "
                             f"got shape {batch.shape}")
        return batch
