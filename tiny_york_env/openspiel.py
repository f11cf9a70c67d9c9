"""OpenSpiel bridge: importing this module registers Tiny York as the pyspiel game "python_tiny_york".

| | |
|---|---|
| Import | `import tiny_york_env.openspiel` (the `openspiel` extra: `pip install tiny-york-env[openspiel]`) |
| Load | `pyspiel.load_game("python_tiny_york", {"players": 2, "toms": "5", "reward": "win"})` |
| Parameters | `players` agent seats 1-4 (int, default 2); `toms` the Toms' levels 1-12 or codes like `B4`, |
| | comma-separated in seat order (str, default `""`: none); `reward` `"win"`, `"rank"` or `"score"` |
| Players | OpenSpiel players 0..players-1 = the engine's agent seats; Toms (the seats after them) are |
| | played by the engine inside `apply_action` and are not OpenSpiel players |
| Actions | `num_distinct_actions` 264, the engine's flat action table (docs/actions.md) |
| Chance | one explicit chance node first: the deal, uniform over `NUM_DEALS` seeds; deal `k` is |
| | `new_game(config, seed=k)`, and every later draw of the engine follows from that seed |
| Information | imperfect; information-state and observation tensors are `observation.encode` (1929 |
| | floats, named parts as in docs/observation.md); strings are `render_text(state, viewer=p)`, |
| | a digest of the tensor and, on p's turn, its legal actions (see `TinyYorkObserver.string_from`) |
| Returns | 0 until the end, then `envs.rewards.final_rewards(state, reward)` of the agent seats |
| Utility | zero-sum for "win" and "rank" without Toms, general-sum otherwise (see `utility_bounds`) |
| Length | at most `MAX_GAME_LENGTH` moves, the deal included |

Why the later draws are not chance nodes: the engine draws cards, tiles and Toms' choices from a
generator inside its record, in the middle of its compiled ``apply_action`` (a draw can sit deep
in a character ability or a Tom's turn). Turning each draw into an OpenSpiel chance node would
mean stopping the compiled engine at every draw, that is a different engine. So the game tree
has exactly one chance node, the deal, whose outcome (a seed) fixes every later draw; this is an
exact extensive-form game (``ChanceMode.EXPLICIT_STOCHASTIC``: all randomness is in the explicit
deal), in which the seed is hidden from every player and each draw becomes known only as the
rules reveal it. See docs/openspiel.md.

Hidden information: a player's information state and observation are what its seat may know
(R25), never the seed, other hands or the order of the piles. ``resample_from_infostate`` is the
engine's ``determinize`` (a copy with everything hidden redrawn, rulings D1-D7 in
game/determinize.py), so OpenSpiel's IS-MCTS works; perfect recall is not claimed (the tensor is
the encoder's view of the present, not the history of observations).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from string import digits
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as error:  # the optional extra is missing
    raise ImportError("tiny_york_env.openspiel needs OpenSpiel: pip install 'tiny-york-env[openspiel]' "
                      "(or pip install open_spiel)") from error

from .envs.rewards import SCORE_MARGIN_SCALE, check_reward_kind, final_rewards
from .game import (
    NUM_ACTIONS,
    GameConfig,
    apply_action,
    current_player,
    describe_action,
    determinize,
    legal_mask,
    new_game,
    render_text,
)
from .game.components import MAX_SEATS
from .game.config import MIN_AGENTS
from .game.kernels import apply_kernel, empty_mask, legal_mask_kernel
from .game.state import DEC_GAME_OVER
from .observation import OBS_SIZE, OBS_SLICES, POINTS_CAP, encode

GAME_SHORT_NAME = "python_tiny_york"
GAME_LONG_NAME = "Python Tiny York"
NUM_DEALS = 2 ** 16  # chance outcomes of the deal; deal k = new_game(config, seed=k)
DEAL_CHANCE_NODES = 1  # the deal is the only chance node of a history
# Longest games measured (docs/openspiel.md): 503 agent decisions in 16,000 uniformly random games
# (2,000 for each of 8 setups, 1-4 agents, with and without Toms), 532 in 3,000 games of a policy that
# never stops a bid, a build, a turn or an ability while it may go on; always with 4 agents (Toms
# play inside the engine and take no OpenSpiel moves). With the deal, 533 moves; the bound is
# about twice that, a power of two.
MAX_GAME_LENGTH = 1024
TOM_SEPARATOR = ","
CANONICAL_TOM_SEPARATOR = "+"  # also accepted on input; see canonical_toms
DEFAULT_PLAYERS = 2
DEFAULT_TOMS = ""
DEFAULT_REWARD = "win"
PARAMETERS = {"players": DEFAULT_PLAYERS, "toms": DEFAULT_TOMS, "reward": DEFAULT_REWARD}
RANK_BEST, RANK_WORST = 1.0, -1.0  # envs/rewards.py: "rank" runs from +1 (first) to -1 (last)
WIN_REWARD = 1.0  # envs/rewards.py: "win" gives the winner +1, each other participant -1/(P-1)
# "score" is (own total - best other total) / SCORE_MARGIN_SCALE. Totals are >= 0 and no game has
# come near POINTS_CAP (200; the observation encoder's cap "far above anything seen in play"), so
# the margin is taken to lie within +-POINTS_CAP: an empirical bound, not a proof.
SCORE_TOTAL_BOUND = POINTS_CAP
OBSERVATION_DIGEST_BYTES = 16  # blake2b digest of the observation tensor in the strings
PROBABILITY_SEED_BITS = 53  # a double in [0, 1) carries 53 random bits: the determinization seed


@dataclass(frozen=True)
class TinyYorkSpec:
    """What one loaded game fixes: the engine's config and the reward kind (shared, never copied)."""

    config: GameConfig
    reward: str

    def __deepcopy__(self, memo: dict) -> TinyYorkSpec:
        """The spec is immutable, so pyspiel's clone (a deepcopy of each attribute) shares it."""
        return self


def parse_toms(toms: str | int) -> tuple[int | str, ...]:
    """The Toms of the ``toms`` parameter: ``"5,B4"`` (or ``"5+B4"``) -> ``(5, "B4")``; ``""`` -> none."""
    if isinstance(toms, (int, np.integer)) and not isinstance(toms, (bool, np.bool_)):
        return (int(toms),)
    if not isinstance(toms, str):
        raise ValueError(f"toms must be a string of Tom levels 1-12 or codes like 'B4', separated by "
                         f"'{TOM_SEPARATOR}' (e.g. '5' or '3,B4'), got {toms!r}")
    text = toms.replace(CANONICAL_TOM_SEPARATOR, TOM_SEPARATOR)
    parts = [part.strip() for part in text.split(TOM_SEPARATOR)] if text.strip() else []
    if any(not part for part in parts):
        raise ValueError(f"toms {toms!r} has an empty entry: give Tom levels 1-12 or codes like 'B4' "
                         f"separated by '{TOM_SEPARATOR}', e.g. '3,B4'")
    return tuple(int(part) if all(c in digits for c in part) else part for part in parts)


def canonical_toms(config: GameConfig) -> str:
    """The ``toms`` parameter a loaded game reports: Tom codes joined by '+', e.g. ``"B4+A6"``.
    Codes, not levels, and '+', not ',', so that the game's string (``str(game)``) loads again:
    pyspiel's game-string parser reads ``toms=5`` as an int and splits at every comma."""
    return CANONICAL_TOM_SEPARATOR.join(config.toms)


def spec_from_parameters(params: Mapping[str, Any]) -> TinyYorkSpec:
    """The spec for pyspiel game parameters; ValueError names an unknown or bad parameter."""
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown} for {GAME_SHORT_NAME}; "
                         f"the parameters are {sorted(PARAMETERS)}")
    players = params.get("players", DEFAULT_PLAYERS)
    if isinstance(players, (bool, np.bool_)) or not isinstance(players, (int, np.integer)) \
            or not MIN_AGENTS <= players <= MAX_SEATS:
        raise ValueError(f"players is the number of agent seats, an int {MIN_AGENTS}-{MAX_SEATS} (Toms "
                         f"come on top, 2-{MAX_SEATS} participants in all), got {players!r}")
    config = GameConfig(num_agents=int(players), toms=parse_toms(params.get("toms", DEFAULT_TOMS)))
    return TinyYorkSpec(config, check_reward_kind(params.get("reward", DEFAULT_REWARD)))


def utility_bounds(spec: TinyYorkSpec) -> tuple[float, float, float | None]:
    """(min utility, max utility, utility sum or None) of one player under ``spec``'s reward."""
    participants = spec.config.num_participants
    zero_sum = not spec.config.toms and spec.reward in ("win", "rank")
    utility_sum = 0.0 if zero_sum else None
    if spec.reward == "win":
        return -WIN_REWARD / (participants - 1), WIN_REWARD, utility_sum
    if spec.reward == "rank":
        return RANK_WORST, RANK_BEST, utility_sum
    bound = SCORE_TOTAL_BOUND / SCORE_MARGIN_SCALE
    return -bound, bound, utility_sum


def game_type(utility: pyspiel.GameType.Utility = pyspiel.GameType.Utility.GENERAL_SUM) -> pyspiel.GameType:
    """The GameType of Tiny York (registered as general-sum; a loaded game states its own)."""
    return pyspiel.GameType(
        short_name=GAME_SHORT_NAME,
        long_name=GAME_LONG_NAME,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_SEATS,
        min_num_players=MIN_AGENTS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS,
        default_loadable=True,
        provides_factored_observation_string=False)


class TinyYorkGame(pyspiel.Game):
    """Tiny York as an OpenSpiel game: agent seats are the players, Toms play inside the engine."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.spec = spec_from_parameters(params)
        low, high, utility_sum = utility_bounds(self.spec)
        utility = (pyspiel.GameType.Utility.ZERO_SUM if utility_sum is not None
                   else pyspiel.GameType.Utility.GENERAL_SUM)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_DEALS,
            num_players=self.spec.config.num_agents,
            min_utility=low,
            max_utility=high,
            utility_sum=utility_sum,
            max_game_length=MAX_GAME_LENGTH)
        canonical = {**PARAMETERS, **params, "toms": canonical_toms(self.spec.config)}
        super().__init__(game_type(utility), info, canonical)

    def new_initial_state(self) -> TinyYorkState:
        """A game before the deal (a chance node)."""
        return TinyYorkState(self)

    def max_chance_nodes_in_history(self) -> int:
        """One: the deal."""
        return DEAL_CHANCE_NODES

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: Mapping[str, Any] | None = None) -> TinyYorkObserver:
        """The observer for a player's own view (the only kind this game provides)."""
        return TinyYorkObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


_DEAL_OUTCOMES = [(deal, 1.0 / NUM_DEALS) for deal in range(NUM_DEALS)]


class TinyYorkState(pyspiel.State):
    """One game: ``record`` is the engine's state record (None before the deal)."""

    def __init__(self, game: TinyYorkGame) -> None:
        super().__init__(game)
        self.spec = game.spec
        self.record: np.ndarray | None = None

    def current_player(self) -> int:
        """The chance player before the deal, then the agent seat to move, TERMINAL at the end."""
        if self.record is None:
            return pyspiel.PlayerId.CHANCE
        # The record's own fields (what game.current_player reads), without the API's checks:
        # search calls this thousands of times per move.
        if self.record["decision"] == DEC_GAME_OVER:
            return pyspiel.PlayerId.TERMINAL
        return int(self.record["actor"])

    def _legal_actions(self, player: int) -> list[int]:
        """The engine's legal actions for the seat to move, ascending."""
        mask = empty_mask()
        legal_mask_kernel(self.record.reshape(1), 0, mask)
        return np.flatnonzero(mask).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deal: each of the NUM_DEALS seeds with equal probability."""
        return _DEAL_OUTCOMES

    def _apply_action(self, action: int) -> None:
        """Deal (seed ``action``) or play ``action``; the engine runs Toms and automatic steps."""
        if self.record is None:
            if not 0 <= action < NUM_DEALS:
                raise ValueError(f"the deal is a seed 0..{NUM_DEALS - 1}, got {action}")
            self.record = new_game(self.spec.config, seed=action)
        elif not 0 <= action < NUM_ACTIONS or apply_kernel(self.record.reshape(1), 0, action) != 0:
            apply_action(self.record, action)  # refused, state unchanged: raises the engine's message

    def _action_to_string(self, player: int, action: int) -> str:
        """The engine's description of ``action`` (with what it refers to once dealt)."""
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return describe_action(action, self.record)

    def is_terminal(self) -> bool:
        """True after the final scoring."""
        return self.record is not None and bool(self.record["decision"] == DEC_GAME_OVER)

    def returns(self) -> list[float]:
        """Each agent seat's reward: 0 until the end, then ``final_rewards`` of its seat."""
        if not self.is_terminal():
            return [0.0] * self.spec.config.num_agents
        return final_rewards(self.record, self.spec.reward)[: self.spec.config.num_agents].tolist()

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> TinyYorkState:
        """A copy in which everything hidden from ``player_id`` is redrawn (the engine's
        ``determinize``), its generator seeded from one draw of ``probability_sampler``."""
        state = self.clone()
        if self.record is not None:
            seed = int(probability_sampler() * 2 ** PROBABILITY_SEED_BITS)
            state.record = determinize(self.record, player_id, seed)
        return state

    def __str__(self) -> str:
        """The whole state as text (every hand shown), for debugging."""
        return "Tiny York - waiting for the deal" if self.record is None else render_text(self.record)


class TinyYorkObserver:
    """A player's own view (``observation.encode`` and ``render_text(viewer=player)``); pyspiel's
    PyObserver interface: ``tensor``, ``dict`` (the encoder's named parts), ``set_from``,
    ``string_from``."""

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"{GAME_SHORT_NAME} observers take no parameters, got {dict(params)}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError(
                f"{GAME_SHORT_NAME} provides only a player's own view (public_info=True, "
                f"private_info=SINGLE_PLAYER, perfect_recall either, both give the same view); "
                f"got public_info={iig_obs_type.public_info}, private_info={iig_obs_type.private_info}, "
                f"perfect_recall={iig_obs_type.perfect_recall}")
        self.tensor = np.zeros(OBS_SIZE, np.float32)
        self.dict = {name: self.tensor[part] for name, part in OBS_SLICES.items()}

    def set_from(self, state: TinyYorkState, player: int) -> None:
        """Write ``player``'s observation of ``state`` (zeros before the deal)."""
        if state.record is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = encode(state.record, player)

    def string_from(self, state: TinyYorkState, player: int) -> str:
        """``player``'s view of ``state`` as text: ``render_text(viewer=player)`` (other hands and
        reserves only as sizes), then a digest of ``player``'s observation tensor and, on its
        turn, its legal actions. The text alone leaves out parts of the encoder's view (e.g. the
        exchanges left in a bid); with the digest, two states give the same string exactly when
        they give the same tensor, so IS-MCTS (which keys its nodes by this string) never merges
        states the player can tell apart, and the legal-action line makes equal strings offer
        equal actions."""
        if state.record is None:
            return f"P{player} - waiting for the deal"
        tensor = encode(state.record, player)
        digest = hashlib.blake2b(tensor.tobytes(), digest_size=OBSERVATION_DIGEST_BYTES).hexdigest()
        lines = [render_text(state.record, viewer=player), f"Observation digest: {digest}"]
        if current_player(state.record) == player:
            lines.append("Legal actions: " + " ".join(map(str, np.flatnonzero(legal_mask(state.record)))))
        return "\n".join(lines)


def _check_observation_parts() -> None:
    """The encoder's named parts tile its vector in order, so pyspiel (which writes the parts of
    ``dict`` one after another) writes exactly ``encode``'s vector."""
    stop = 0
    for name, part in OBS_SLICES.items():
        if part.start != stop:
            raise AssertionError(f"observation part {name} does not follow the previous one")
        stop = part.stop
    if stop != OBS_SIZE:
        raise AssertionError("the observation parts do not cover the vector")


_check_observation_parts()

if GAME_SHORT_NAME not in pyspiel.registered_names():
    pyspiel.register_game(game_type(), TinyYorkGame)
