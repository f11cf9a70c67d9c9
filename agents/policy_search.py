"""``PolicySearchAgent``: determinized search with a learned prior, policy playouts and a learned
value, for any game of the registry (the game contract).

Each decision, from the seat's view (the hidden parts redrawn for every playout with the game's
``determinize``, R25 for Tiny York):

1. **Prior and widening.** One network call gives the policy's probabilities over the legal
   actions. Only the ``candidates(simulations)`` most probable are searched (progressive
   widening: ``max(2, ceil(widening * sqrt(simulations)))``, so a bigger budget looks at more
   actions); with ``prior=False`` the candidates are drawn at random. Every candidate gets at
   least one playout, so a very small budget with a wide search plays a few more playouts.
2. **Sequential halving** (Karnin, Koren and Somekh 2013; the root of Gumbel MuZero): in
   ``ceil(log2 k)`` rounds every remaining candidate gets the same number of playouts, from the
   same redrawn views (common random numbers: two candidates are compared on the same deals),
   and the better half by mean result goes on. The last one standing is played.
3. **Playouts**, all of a round in one batch: the candidate's action, then every agent seat
   plays the policy's most probable legal action (``playout="policy"``; the engine plays its own
   participants, Toms, Dirk, bots). With ``forward="compiled"`` the whole batch is one compiled
   call (``core/batch_loops.py``'s ``network_playouts``: the engine's steps, the encoder and the
   network's forward pass of ``core/network.py``, game after game, no return to Python); with
   ``forward="torch"`` Python steps the batch, one batched torch call a step over every running
   game; both choose the same actions but for float rounding of near-ties. Or uniformly random
   actions (``"random"``), or the game's compiled greedy heuristic (``"greedy"``, where the contract
   has ``greedy_playout``). A playout's result for the searching seat is

       1 / (number of winners) when the seat wins, else 0,
       + ``margin_weight`` * clip((own score - best other score) / Game.score_scale, -1, 1).

   With ``opponents="greedy"`` (or ``"random"``) the other agent seats of a policy playout play
   that heuristic of the contract instead of the network (an opponent model: for an opponent
   known to play it, as the engine plays the Toms and bots by their rules); the searching seat
   plays the network.
   With ``value_depth=D`` a policy playout stops after D decisions (of any agent seat) and the
   network's value of the searching seat's observation stands for the rest. The shipped networks
   learned it on the "score" reward discounted by 0.995, so v is a discounted margin estimate
   (smaller than the final margin the earlier in the game); it counts as
   ``sigmoid(v * VALUE_WIN_SLOPE) + margin_weight * clip(v, -1, 1)``, a hand-set reading of v
   as a chance to win (not calibrated; the ablation measures what it buys).

Budgets: ``simulations`` playouts a decision, and ``time_limit`` seconds a decision: against the
clock the first round is played in batches that start at one redrawn view and double (every
candidate gets a result early), each later round in one batch as without a limit (a batch costs a
network call a step however few games it holds: with every round in batches of one view doubling,
as before 2026-11-27, the champion took 1.6x as long a searched decision), and the search stops at
the deadline (within one engine step for policy playouts, one playout for the others), keeping
every finished batch (each covers all the round's candidates alike); if none finished, the first
candidate is played (the prior's most probable action; a random one with ``prior=False``). The
limit is read on ``clock`` (``time.perf_counter`` unless given).
``skip_above=T`` plays the prior's choice without a search when its probability is at least T
(most decisions of the shipped Tiny York policy are that sure: 74% at 0.9). Given its seed and a
budget in simulations the agent is deterministic; a wall-time budget depends on the machine.

Where the time goes: nearly all of it in the network (one evaluation a decision of every
playout). The torch path batches up to ``MAX_BATCH`` games a call and multiplies only the
observation entries a batch sets and the actions some row may take; the compiled path evaluates
one observation at a time (its first layer a sum of the weight rows of the set entries, its later
layers BLAS vector-matrix products, its head only the legal actions' rows); for a small network
(256-32) the step's work around the network (the encoder, the first layer's update, the
activations) costs more than its layers.
``benchmarks/compiled_playouts.py``, ``benchmarks/policy_search.py`` and the ablation
(``training/experiments/search_ablation.py``) measure it. Against the clock the compiled path
reads the clock between batches only (a batch may end past the deadline; its results count).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from tiny_york_env.agents.compiled_network import CompiledNetwork
from tiny_york_env.agents.game_search import MAX_PLAYOUT_DECISIONS, RNG_WORDS, check_view, playout_value
from tiny_york_env.agents.ppo_agent import (
    MODELS_DIR,
    adapt_to_current_layout,
    build_network,
    card_game,
    file_actor,
    file_critic,
    load_into,
    load_policy,
)
from tiny_york_env.contract import Game
from tiny_york_env.core.batch_loops import REFUSED
from tiny_york_env.core.options import check_int, check_number
from tiny_york_env.core.rng import seed_rng
from tiny_york_env.core.seeds import SEED_LIMIT
from tiny_york_env.envs.batch import batch_kernels
from tiny_york_env.registry import DEFAULT_GAME, get_game

PLAYOUTS = ("policy", "random", "greedy")
FORWARDS = ("compiled", "torch")  # how policy playouts evaluate the network (module doc)
OPPONENT_MODELS = ("greedy", "random")  # heuristics of the contract the other seats' playouts may play
DEFAULT_SIMULATIONS = 64
DEFAULT_MARGIN_WEIGHT = 0.5  # the margin tells apart candidates that win equally often
DEFAULT_WIDENING = 1.0  # candidates = ceil(widening * sqrt(simulations))
MIN_CANDIDATES = 2  # a search compares at least two actions
VALUE_WIN_SLOPE = 4.0  # a margin estimate of +0.25 (12.5 points at scale 50) reads as a 73% win
MAX_BATCH = 256  # games played out together (one network call a step for all of them)


def check_search_settings(game: Game, simulations: object, playout: object, prior: object,
                          value_depth: object, time_limit: object, margin_weight: object,
                          widening: object, skip_above: object) -> None:
    """ValueError naming the first bad PolicySearchAgent option and what it may be."""
    check_int("simulations", simulations, 1, "playouts per decision")
    if playout not in PLAYOUTS:
        raise ValueError(f"playout must be one of {PLAYOUTS}, got {playout!r}")
    if playout == "greedy" and game.greedy_playout is None:
        raise ValueError(f"{game.title} has no compiled greedy heuristic for playouts; use "
                         f"playout='policy' or 'random'")
    if value_depth is not None:
        check_int("value_depth", value_depth, 0, "decisions before the value cut-off")
        if playout != "policy":
            raise ValueError("value_depth cuts policy playouts: it needs playout='policy'")
    if time_limit is not None:
        check_number("time_limit", time_limit, 0.0, strict=True, meaning="seconds per decision")
    if skip_above is not None:
        check_number("skip_above", skip_above, 0.0, strict=True)
        if skip_above > 1 or not prior:
            raise ValueError(f"skip_above is a prior probability in (0, 1] and needs prior=True, "
                             f"got {skip_above!r} with prior={prior!r}")
    check_number("margin_weight", margin_weight, 0.0)
    check_number("widening", widening, 0.0, strict=True)


def check_opponent_model(game: Game, opponents: object, playout: object) -> None:
    """ValueError unless ``opponents`` is None or a heuristic the game's other seats can play out."""
    if opponents is None:
        return
    if opponents not in OPPONENT_MODELS:
        raise ValueError(f"opponents must be None (the network) or one of {OPPONENT_MODELS}, "
                         f"got {opponents!r}")
    if playout != "policy":
        raise ValueError("opponents sets who plays the other seats of policy playouts: it needs "
                         "playout='policy'")
    if opponents == "greedy" and game.greedy_action is None:
        raise ValueError(f"{game.title} has no greedy heuristic (greedy_action) to model its "
                         f"opponents with")


Evaluation = tuple[NDArray[np.float32], NDArray[np.float32] | None]  # logits, values (or None)


class PolicyNetwork:
    """A policy file's network as batched numpy calls: logits and values of many observations
    (``game`` is the game the file was trained on, from its card).

    Observations are mostly zeros (about 110 of Tiny York's nearly 2,000 entries are set), so the first
    layer multiplies only the columns that some row of the batch sets: the same result as the
    dense layer (to float rounding) at a fraction of the work, the largest share of a playout's
    time."""

    def __init__(self, path: str | Path | None = None, game: str | Game | None = None) -> None:
        import torch  # noqa: F401  (a clear ImportError without the train extra)

        if path is None:
            played = get_game(DEFAULT_GAME if game is None else game)
            if played.default_policy is None:
                raise ValueError(f"give the policy file for {played.title} (network=PATH; "
                                 f"agents.shipped.shipped_policy_path(game, players) names the "
                                 f"shipped ones): it depends on the number of players")
            path = MODELS_DIR / played.default_policy
        loaded = load_policy(path)
        self.source = str(path)
        self.game = card_game(loaded.card)
        if game is not None and get_game(game).name != self.game.name:
            raise ValueError(f"{self.source} plays {self.game.title}, not {get_game(game).title}")
        self.network = loaded.network
        self.activation_name = loaded.card["network"]["activation"]
        if loaded.index is not None:
            # Read the current observation whole: the trained layout's columns are placed in
            # zero-padded input weights, so no column gather a call (a copy of every batch).
            wide = {**loaded.card, "observation_size": self.game.obs_size}
            self.network = load_into(build_network(wide), adapt_to_current_layout(
                loaded.card, loaded.network.state_dict()), self.source).requires_grad_(False)
        self._logits, self._values = file_actor(self.network), file_critic(self.network)
        body = self.network["mlp_extractor"]
        self._policy_input = _input_layer(body["policy_net"])
        self._value_input = _input_layer(body["value_net"])
        head = self.network["action_net"]
        self.num_actions = head.out_features
        self._action_weights, self._action_bias = head.weight.detach().numpy(), head.bias.detach()
        self._compiled: CompiledNetwork | None = None

    @property
    def compiled(self) -> CompiledNetwork:
        """The network as arrays for the compiled forward pass (exported on first use)."""
        if self._compiled is None:
            self._compiled = CompiledNetwork.from_policy_network(self)
        return self._compiled

    def evaluate(self, observations: NDArray[np.float32], with_value: bool = False,
                 masks: NDArray[np.bool_] | None = None) -> Evaluation:
        """(logits float32[N, num_actions], values float32[N] or None) of N current observations;
        with ``masks`` only the logits of actions legal in some row are computed (the rest -inf)."""
        observations = self._batch(observations)
        return self._logits_of(observations, masks), self.values(observations) if with_value else None

    def values(self, observations: NDArray[np.float32]) -> NDArray[np.float32]:
        """The value head alone, float32[N], of N current observations (no logits computed)."""
        import torch
        observations = self._batch(observations)
        with torch.no_grad():
            if self._value_input is None:  # a network without hidden layers: the dense path
                return self._values(torch.from_numpy(np.ascontiguousarray(observations)))[:, 0].numpy()
            x, columns = _set_columns(observations)
            return self.network["value_net"](self._value_input(x, columns))[:, 0].numpy()

    def _logits_of(self, observations: NDArray[np.float32], masks: NDArray[np.bool_] | None):
        """The policy's logits of a checked batch (-inf outside the actions ``masks`` allow in some row)."""
        import torch
        with torch.no_grad():
            if self._policy_input is None:  # a network without hidden layers: the dense path
                logits = self._logits(torch.from_numpy(np.ascontiguousarray(observations))).numpy()
                return logits if masks is None else np.where(masks.any(axis=0), logits, np.float32(-np.inf))
            x, columns = _set_columns(observations)
            features = self._policy_input(x, columns)
            if masks is None:
                return self.network["action_net"](features).numpy()
            # the action layer's rows of the actions some row may take
            actions = np.flatnonzero(masks.any(axis=0))
            logits = np.full((observations.shape[0], self.num_actions), -np.inf, dtype=np.float32)
            logits[:, actions] = torch.addmm(self._action_bias[actions], features,
                                             torch.from_numpy(self._action_weights[actions]).T).numpy()
            return logits

    def _batch(self, observations) -> NDArray[np.float32]:
        """``observations`` as float32[N, obs_size]; ValueError for any other shape."""
        batch = np.asarray(observations, dtype=np.float32)
        if batch.ndim != 2 or batch.shape[1] != self.game.obs_size:
            raise ValueError(f"give a batch of {self.game.title} observations, shape "
                             f"(N, {self.game.obs_size}) (one observation: obs[None]), "
                             f"got shape {batch.shape}")
        return batch


def _set_columns(observations: NDArray[np.float32]):
    """(the batch's columns that some row sets, as a torch tensor; their indices)."""
    import torch
    columns = np.flatnonzero(observations.any(axis=0))
    return torch.from_numpy(np.ascontiguousarray(observations[:, columns])), columns


class _SparseInputLayer:
    """An MLP whose first layer reads only the given columns of its input (the others are zero)."""

    def __init__(self, weights_by_input: NDArray[np.float32], bias, rest) -> None:
        self.weights_by_input, self.bias, self.rest = weights_by_input, bias, rest

    def __call__(self, x, columns: NDArray[np.int64]):
        """The MLP's output for inputs whose nonzero entries are ``x``'s, at ``columns``."""
        import torch
        hidden = torch.addmm(self.bias, x, torch.from_numpy(self.weights_by_input[columns]))
        return self.rest(hidden)


def _input_layer(mlp) -> _SparseInputLayer | None:
    """``mlp`` (a torch Sequential starting with a Linear) as a _SparseInputLayer; None if empty."""
    if len(mlp) == 0:
        return None
    first = mlp[0]
    return _SparseInputLayer(np.ascontiguousarray(first.weight.detach().numpy().T), first.bias.detach(),
                             mlp[1:])


def value_cut_result(values: NDArray, margin_weight: float) -> NDArray[np.float64]:
    """The result of playouts cut at ``value_depth`` from the value head's ``values`` (module
    doc): ``sigmoid(v * VALUE_WIN_SLOPE) + margin_weight * clip(v, -1, 1)``."""
    margin = np.clip(values.astype(np.float64), -1.0, 1.0)
    return 1.0 / (1.0 + np.exp(-VALUE_WIN_SLOPE * values)) + margin_weight * margin


def masked_argmax(logits: NDArray[np.float32], masks: NDArray[np.bool_]) -> NDArray[np.int64]:
    """Each row's most probable legal action (the first of ties)."""
    return np.argmax(np.where(masks, logits, -np.inf), axis=1)


def halving_schedule(candidates: int, simulations: int) -> list[tuple[int, int]]:
    """Sequential halving's rounds as (candidates in the round, playouts each): ceil(log2 k)
    rounds sharing ``simulations`` equally, at least one playout each; one round for k <= 2."""
    rounds = max(1, math.ceil(math.log2(candidates)))
    schedule, remaining = [], candidates
    for _ in range(rounds):
        schedule.append((remaining, max(1, simulations // (rounds * remaining))))
        remaining = max(1, math.ceil(remaining / 2))
    return schedule


class PolicySearchAgent:
    """Sequential-halving search over determinized views with a network prior and policy playouts
    (module doc); plays through ``act_state(view, seat)``."""

    def __init__(self, game: str | Game = DEFAULT_GAME, simulations: int = DEFAULT_SIMULATIONS,
                 seed: int | None = None, playout: str = "policy", prior: bool = True,
                 value_depth: int | None = None, time_limit: float | None = None,
                 margin_weight: float = DEFAULT_MARGIN_WEIGHT, widening: float = DEFAULT_WIDENING,
                 network: str | Path | PolicyNetwork | None = None, skip_above: float | None = None,
                 clock: Callable[[], float] = time.perf_counter, opponents: str | None = None,
                 forward: str = "compiled") -> None:
        self.game = get_game(game)
        if forward not in FORWARDS:
            raise ValueError(f"forward must be one of {FORWARDS}, got {forward!r}")
        self.clock = clock  # seconds, read against time_limit (a test injects one of its own)
        check_search_settings(self.game, simulations, playout, prior, value_depth, time_limit,
                              margin_weight, widening, skip_above)
        check_opponent_model(self.game, opponents, playout)
        self.opponents = opponents
        self.skip_above = None if skip_above is None else float(skip_above)
        self.simulations, self.playout_kind, self.prior = int(simulations), playout, bool(prior)
        self.value_depth = None if value_depth is None else int(value_depth)
        self.time_limit = None if time_limit is None else float(time_limit)
        self.margin_weight, self.widening = float(margin_weight), float(widening)
        needs_network = prior or playout == "policy"
        if isinstance(network, PolicyNetwork):
            self.network = network
        else:
            self.network = PolicyNetwork(network, self.game) if needs_network else None
        if self.network is not None and self.network.game.name != self.game.name:
            raise ValueError(f"the network plays {self.network.game.title}, not {self.game.title}")
        # policy playouts in one compiled call a batch unless a Python opponent model plays a
        # seat; else (and with forward="torch") stepped from Python, the network through torch
        self.forward = forward if playout == "policy" and opponents is None else "torch"
        if self.forward == "compiled":
            self.network.compiled.check_fits(self.game)  # compiled code reads the arrays unchecked
        self.rng = np.random.default_rng(seed)
        self._opponent_policy = None
        if opponents == "greedy":
            self._opponent_policy = self.game.greedy_action
        elif opponents == "random":
            own_stream = np.random.default_rng(self.rng.integers(SEED_LIMIT))
            legal = self.game.legal_mask
            self._opponent_policy = lambda state: int(own_stream.choice(np.flatnonzero(legal(state))))
        self._kernels = batch_kernels(self.game)
        self._words = np.zeros(RNG_WORDS, dtype=np.int64)
        self.last_search: dict | None = None  # what the last search did (for tests and tables)
        self.evaluations = 0  # network rows evaluated in playouts so far (benchmarks count them)

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.bool_]) -> int:
        """Refused: a search needs the engine view, not the observation vector."""
        raise ValueError("PolicySearchAgent plans on the engine's view, not on an observation: give it "
                         "act_state(game.determinize(state, seat, rng), seat) (agents.base.choose_action "
                         "does)")

    def candidates(self, simulations: int) -> int:
        """How many actions a search of ``simulations`` playouts looks at (progressive widening)."""
        return max(MIN_CANDIDATES, math.ceil(self.widening * math.sqrt(simulations)))

    # ------------------------------------------------------------------ playouts

    def _policy_playouts(self, states: np.ndarray, seat: int, deadline: float | None) -> NDArray | None:
        """Play every game of ``states`` with the policy (cut at ``value_depth``); the values of
        games cut early for ``seat`` (NaN for finished ones), or None past the deadline."""
        if self.forward == "compiled":
            return self._compiled_playouts(states, seat)
        n, game = states.shape[0], self.game
        live = np.ones(n, dtype=np.bool_)
        obs = np.zeros((n, game.obs_size), dtype=np.float32)
        masks = np.zeros((n, game.num_actions), dtype=np.bool_)
        actions = np.zeros(n, dtype=np.int64)
        leaf = np.full(n, np.nan)
        for step in range(MAX_PLAYOUT_DECISIONS):
            if self._kernels.rollout_observe(states, live, obs, masks) == 0:
                break
            if deadline is not None and self.clock() > deadline:
                return None
            rows = np.flatnonzero(live)
            if self.value_depth is not None and step >= self.value_depth:
                own = np.zeros((rows.size, game.obs_size), dtype=np.float32)
                for j, i in enumerate(rows):
                    self._kernels.encode_at(states, i, seat, own[j])
                values = self.network.values(own)
                self.evaluations += rows.size
                leaf[rows] = value_cut_result(values, self.margin_weight)
                break
            if self._opponent_policy is not None:
                rows = self._opponents_move(states, rows, seat, actions)
            if rows.size:
                logits, _ = self.network.evaluate(obs[rows], masks=masks[rows])
                self.evaluations += rows.size
                actions[rows] = masked_argmax(logits, masks[rows])
            self._kernels.rollout_apply(states, live, actions)
        return leaf

    def _compiled_playouts(self, states: np.ndarray, seat: int) -> NDArray[np.float64]:
        """``_policy_playouts`` in one compiled call for the whole batch (``network_playouts``):
        the same actions but for float rounding of near-ties; the clock is not read inside."""
        compiled = self.network.compiled
        leaf = np.full(states.shape[0], np.nan)
        depth = -1 if self.value_depth is None else self.value_depth
        self.evaluations += self._kernels.network_playouts(
            states, seat, *compiled.policy_arrays, *compiled.value_arrays, compiled.activation, depth,
            MAX_PLAYOUT_DECISIONS, leaf)
        cut = ~np.isnan(leaf)
        self.evaluations += int(cut.sum())
        leaf[cut] = value_cut_result(leaf[cut], self.margin_weight)
        return leaf

    def _opponents_move(self, states: np.ndarray, rows: NDArray[np.int64], seat: int,
                        actions: NDArray[np.int64]) -> NDArray[np.int64]:
        """The opponent model's actions for the ``rows`` where another agent seat is to move (into
        ``actions``); the rows where ``seat`` is, for the network."""
        mine = np.ones(rows.size, dtype=np.bool_)
        for j, i in enumerate(rows):
            state = states[i:i + 1].reshape(())
            if self.game.current_player(state) != seat:
                actions[i] = self._opponent_policy(state)
                mine[j] = False
        return rows[mine]

    def _playouts(self, states: np.ndarray, seat: int, deadline: float | None) -> NDArray | None:
        """Each game of ``states`` played out: its result for ``seat``; None when the deadline
        passes before every game has finished (checked each policy step, each other playout)."""
        leaf = np.full(states.shape[0], np.nan)
        if self.playout_kind == "policy":
            leaf = self._policy_playouts(states, seat, deadline)
            if leaf is None:
                return None
        else:
            seed_rng(self._words, int(self.rng.integers(SEED_LIMIT)))
            for i in range(states.shape[0]):
                if deadline is not None and self.clock() > deadline:
                    return None
                if self.playout_kind == "greedy":
                    self.game.greedy_playout(states, i)
                else:
                    self._kernels.play_random_batch(states[i:i + 1], self._words, MAX_PLAYOUT_DECISIONS)
        return np.array([leaf[i] if not np.isnan(leaf[i])
                         else playout_value(self.game, states[i:i + 1].reshape(()), seat, self.margin_weight)
                         for i in range(states.shape[0])])

    # ------------------------------------------------------------------ the search

    def _root(self, view: np.ndarray, seat: int, legal: NDArray[np.int64]) -> NDArray[np.float64]:
        """The prior over ``legal`` (uniform without a network prior)."""
        if not self.prior:
            return np.full(legal.size, 1.0 / legal.size)
        logits, _ = self.network.evaluate(self.game.encode(view, seat).reshape(1, -1))
        chosen = logits[0, legal].astype(np.float64)
        weights = np.exp(chosen - chosen.max())
        return weights / weights.sum()

    def search(self, view: np.ndarray, seat: int) -> dict:
        """One search from ``view`` for ``seat`` (the seat to move): a dict of the ``legal``
        actions, their ``prior``, the searched ``candidates``, their ``visits`` and ``means``, the
        ``action`` chosen, the ``playouts`` run and the ``seconds`` taken."""
        check_view(self.game, view, seat)
        start = self.clock()
        deadline = None if self.time_limit is None else start + self.time_limit
        legal = np.flatnonzero(self.game.legal_mask(view)).astype(np.int64)
        prior = self._root(view, seat, legal)
        order = (np.lexsort((np.arange(legal.size), -prior)) if self.prior
                 else self.rng.permutation(legal.size))
        k = min(legal.size, self.candidates(self.simulations))
        if self.skip_above is not None and prior.max() >= self.skip_above:
            k = 1  # the prior is sure enough: its choice without a search
        visits = np.zeros(legal.size, dtype=np.int64)
        totals = np.zeros(legal.size, dtype=np.float64)
        playouts = self._halving(view, seat, legal, prior, list(order[:k]), visits, totals, deadline)
        means = totals / np.maximum(visits, 1)
        searched = [i for i in order[:k] if visits[i] > 0]
        best = (min(searched, key=lambda i: (-visits[i], -means[i], -prior[i])) if searched
                else int(order[0]))  # nothing finished in time: the first candidate
        self.last_search = {"legal": legal, "prior": prior, "candidates": legal[order[:k]],
                            "visits": visits, "means": means, "action": int(legal[best]),
                            "playouts": playouts, "seconds": self.clock() - start}
        return self.last_search

    def _halving(self, view, seat, legal, prior, alive, visits, totals, deadline) -> int:
        """Sequential halving over ``alive`` (indices into ``legal``, best prior first), adding
        each candidate's playouts to ``visits`` and ``totals``; the number of playouts run."""
        playouts = 0
        schedule = halving_schedule(len(alive), self.simulations) if len(alive) > 1 else []
        for round_index, (remaining, per) in enumerate(schedule):
            alive = alive[:remaining]
            most = max(1, MAX_BATCH // remaining)  # redrawn views a batch: every candidate on each
            # against the clock the first round starts small (a result early), the later go whole
            chunk = 1 if deadline is not None and round_index == 0 else most
            done = 0
            while done < per:
                results = self._chunk(view, seat, legal[alive], min(chunk, per - done), deadline)
                if results is None:
                    return playouts
                totals[alive] += results.sum(axis=1)
                visits[alive] += results.shape[1]
                playouts += results.size
                done += results.shape[1]
                chunk = min(most, 2 * chunk)
            means = totals / np.maximum(visits, 1)
            alive.sort(key=lambda i: (-means[i], -prior[i]))  # best mean first, then the prior
        return playouts

    def _chunk(self, view: np.ndarray, seat: int, actions: NDArray[np.int64], views: int,
               deadline: float | None) -> NDArray[np.float64] | None:
        """Results float[len(actions), views]: ``views`` redrawn views, each played out after
        every one of ``actions`` (common random numbers); None past the deadline."""
        if deadline is not None and self.clock() > deadline:
            return None
        redrawn = [self.game.determinize(view, seat, self.rng) for _ in range(views)]
        states = np.empty(actions.size * views, dtype=self.game.state_dtype)
        for c, action in enumerate(actions):
            for d in range(views):
                states[c * views + d] = redrawn[d]
                if self._kernels.apply_at(states, c * views + d, int(action)) == REFUSED:
                    raise ValueError(f"action {action} is illegal in a redrawn view: the game's "
                                     f"determinize changed what seat {seat} may do")
        results = self._playouts(states, seat, deadline)
        return None if results is None else results.reshape(actions.size, views)

    def act_state(self, view: np.ndarray, seat: int) -> int:
        """The action for ``seat``, the seat to move in ``view`` (a determinized game)."""
        check_view(self.game, view, seat)
        legal = np.flatnonzero(self.game.legal_mask(view))
        if legal.size == 1:
            return int(legal[0])
        return self.search(view, int(seat))["action"]


CHAMPION_SIMULATIONS = 256  # playouts a decision (docs/champion.md: the budget measured)
CHAMPION_SKIP_ABOVE = 0.9  # the prior's choice when it is this sure: 4x faster, as strong (ablation)
CHAMPION_MARGIN_WEIGHT = 2.0  # more than DEFAULT_MARGIN_WEIGHT: chosen on the ablation (docs/champion.md)


class ChampionAgent(PolicySearchAgent):
    """The strongest shipped agent of a game: ``PolicySearchAgent`` with the game's champion network,
    ``CHAMPION_SIMULATIONS`` playouts where the prior is below ``CHAMPION_SKIP_ABOVE``, a playout's
    margin weighted ``CHAMPION_MARGIN_WEIGHT`` (docs/champion.md is its model card). Its strength is
    defined by those counts alone: no wall-clock limit, so a seed gives the same game on any machine
    (``time_limit=S`` or the name ``champion@S`` adds one for people who play against it). Tiny
    York's is the default game, its network the champion's own (``CHAMPION_MODEL_PATH``: the
    shipped policy after a generation of expert iteration); another game gives its ``network``
    (the shipped one of the setup: ``agents.shipped.shipped_policy_path``).

    The skip is what keeps the search no weaker than its policy where playouts are noisy: in
    Construction Yard, plain psearch (every decision searched) loses to the policy it searches,
    because a few playouts a candidate overturn choices the policy is sure of (docs/champion.md,
    In Construction Yard and 5th Avenue)."""

    def __init__(self, seed: int | None = None, simulations: int = CHAMPION_SIMULATIONS,
                 time_limit: float | None = None,
                 skip_above: float | None = CHAMPION_SKIP_ABOVE,
                 margin_weight: float = CHAMPION_MARGIN_WEIGHT, *, game: str | Game = DEFAULT_GAME,
                 **options) -> None:
        if isinstance(seed, (str, Game)):
            raise ValueError(f"ChampionAgent's first argument is the seed, got {seed!r}: give the "
                             f"game as game=...")
        if options.get("network") is None and get_game(game).champion_policy is not None:
            options["network"] = MODELS_DIR / get_game(game).champion_policy
        super().__init__(game, simulations=simulations, seed=seed, time_limit=time_limit,
                         skip_above=skip_above, margin_weight=margin_weight, **options)
