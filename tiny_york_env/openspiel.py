"""OpenSpiel bridge: importing this module registers every registered game as a pyspiel game
``python_<name>`` ("python_tiny_york", "python_construction_yard", "python_fifth_avenue").

| | |
|---|---|
| Import | `import tiny_york_env.openspiel` (the `openspiel` extra: `pip install tiny-york-env[openspiel]`) |
| Load | `pyspiel.load_game("python_tiny_york", {"players": 2, "toms": "5", "reward": "win"})`, |
| | `pyspiel.load_game("python_construction_yard", {"players": 1, "bots": "greedy,random"})` |
| Parameters | `players` agent seats (int; default: the fewest that play without automatic participants); |
| | the automatic participants under the game's `Game.automatic_kind` (`toms`, `bots`), comma- |
| | separated in seat order (str, default `""`: none); `reward` `"win"`, `"rank"` or `"score"` |
| Players | OpenSpiel players 0..players-1 = the engine's agent seats; the automatic participants (the |
| | seats after them) are played by the engine inside `apply_action` and are not OpenSpiel players |
| Actions | `num_distinct_actions` = `Game.num_actions`, the engine's flat action table |
| Chance | one explicit chance node first: the deal, uniform over `NUM_DEALS` seeds; deal `k` is |
| | `Game.new_game(config, seed=k)`, and every later draw of the engine follows from that seed |
| Information | imperfect; information-state and observation tensors are `Game.encode` (`Game.obs_size` |
| | floats, named parts `Game.obs_slices`); strings are `Game.render_text(state, p)`, a digest of |
| | the tensor and, on p's turn, its legal actions (see `ContractObserver.string_from`) |
| Returns | 0 until the end, then `envs.rewards.final_rewards(state, reward)` of the agent seats |
| Utility | zero-sum for "win" and "rank" without automatic seats, general-sum otherwise (`utility_bounds`) |
| Length | at most `Game.max_decisions` moves, the deal included |
| Plug-ins | `register_openspiel_game(game)` adds a game registered later (`registry.register_game`) |

Everything here is written against ``contract.Game``: what differs between games is a field of
the record, never a branch on a game's name.

Why the later draws are not chance nodes: the engines draw cards, tiles and the automatic
participants' choices from a generator inside their record, in the middle of their compiled
``apply_action`` (a draw can sit deep in a rule or in an automatic participant's turn). Turning
each draw into an OpenSpiel chance node would mean stopping the compiled engine at every draw,
that is a different engine. So the game tree has exactly one chance node, the deal, whose
outcome (a seed) fixes every later draw; this is an exact extensive-form game
(``ChanceMode.EXPLICIT_STOCHASTIC``: all randomness is in the explicit deal), in which the seed
is hidden from every player and each draw becomes known only as the rules reveal it. See
docs/openspiel.md.

Hidden information: a player's information state and observation are what its seat may know,
never the seed, other hands or the order of the piles. ``resample_from_infostate`` is the game's
``determinize`` (a copy with everything hidden redrawn), so OpenSpiel's IS-MCTS works; perfect
recall is not claimed (the tensor is the encoder's view of the present, not the history of
observations).
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from string import digits
from types import ModuleType
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as error:  # the optional extra is missing
    raise ImportError("tiny_york_env.openspiel needs OpenSpiel: pip install 'tiny-york-env[openspiel]' "
                      "(or pip install open_spiel)") from error

from .contract import Game
from .core.batch_loops import REFUSED
from .core.checked import is_int
from .envs.batch import batch_kernels
from .envs.rewards import check_reward_kind, final_rewards
from .registry import DEFAULT_GAME, game_names, get_game

SHORT_NAME_PREFIX = "python_"  # pyspiel's convention for games written in Python
LONG_NAME_PREFIX = "Python "
NUM_DEALS = 2 ** 16  # chance outcomes of the deal; deal k = new_game(config, seed=k)
DEAL_CHANCE_NODES = 1  # the deal is the only chance node of a history
PLAYERS = "players"
REWARD = "reward"
DEFAULT_REWARD = "win"
AUTOMATIC_SEPARATOR = ","
CANONICAL_SEPARATOR = "+"  # also accepted on input; see canonical_automatic
NO_AUTOMATIC = ""  # the automatic-participants parameter's default: none
RANK_BEST, RANK_WORST = 1.0, -1.0  # envs/rewards.py: "rank" runs from +1 (first) to -1 (last)
WIN_REWARD = 1.0  # envs/rewards.py: "win" gives the winner +1, each other participant -1/(P-1)
ZERO_SUM_REWARDS = ("win", "rank")  # zero-sum over the participants (envs/rewards.py)
OBSERVATION_DIGEST_BYTES = 16  # blake2b digest of the observation tensor in the strings
PROBABILITY_SEED_BITS = 53  # a double in [0, 1) carries 53 random bits: the determinization seed
SEAT_PROBE_LIMIT = 64  # agent counts tried when reading a game's seat range from its seat_config


def short_name(game: Game | str) -> str:
    """The pyspiel name of ``game`` (a record or a registered name): ``python_<name>``."""
    return SHORT_NAME_PREFIX + get_game(game).name


@dataclass(frozen=True)
class SeatRange:
    """The OpenSpiel players a game offers, read from its ``seat_config``: ``fewest``..``most``
    agent seats; ``default`` agents play without automatic participants."""

    fewest: int
    most: int
    default: int


def _accepts(game: Game, agents: int, automatic: tuple) -> bool:
    """True when ``game.seat_config`` takes ``agents`` agent seats and ``automatic``."""
    try:
        game.seat_config(agents, automatic)
    except ValueError:
        return False
    return True


_seat_ranges: dict[str, tuple[Game, SeatRange]] = {}  # game name -> (its record, its seats)


def seat_range(game: Game) -> SeatRange:
    """``game``'s agent seats as its ``seat_config`` accepts them: ``most`` and ``default`` (the
    most and the fewest that play without automatic participants), ``fewest`` also counting
    games with automatic participants (the first of ``automatic_choices``, as the parameter gives
    it); ValueError when no game of agents only is accepted."""
    known = _seat_ranges.get(game.name)
    if known is not None and known[0] is game:
        return known[1]
    alone = [n for n in range(1, SEAT_PROBE_LIMIT + 1) if _accepts(game, n, ())]
    if not alone:
        raise ValueError(f"{game.name}: seat_config accepts no game of 1-{SEAT_PROBE_LIMIT} agents "
                         f"without automatic participants; OpenSpiel needs one for its default")
    sample = parse_automatic(game.automatic_choices[0]) if game.automatic_choices else ()
    helped = [n for n in range(1, alone[0]) if sample and _accepts(game, n, sample)]
    seats = SeatRange(fewest=min(helped + alone), most=max(alone), default=alone[0])
    _seat_ranges[game.name] = (game, seats)
    return seats


def parameters(game: Game) -> dict[str, Any]:
    """``game``'s pyspiel parameters and their defaults: players, its automatic participants (under
    its ``automatic_kind``) and reward."""
    return {PLAYERS: seat_range(game).default, game.automatic_kind: NO_AUTOMATIC, REWARD: DEFAULT_REWARD}


def parse_automatic(value: str | int, name: str = "automatic participants",
                    about: str = "") -> tuple[int | str, ...]:
    """The entries of an automatic-participants parameter: ``"5,B4"`` (or ``"5+B4"``) ->
    ``(5, "B4")`` (ASCII digits become ints), ``""`` -> none; ``name`` and ``about`` (what an
    entry may be) go into the error messages."""
    about = f" ({about})" if about else ""
    if is_int(value):
        return (int(value),)
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a string of entries separated by '{AUTOMATIC_SEPARATOR}'"
                         f"{about}, one per automatic seat in seat order, got {value!r}")
    text = value.replace(CANONICAL_SEPARATOR, AUTOMATIC_SEPARATOR)
    parts = [part.strip() for part in text.split(AUTOMATIC_SEPARATOR)] if text.strip() else []
    if any(not part for part in parts):
        raise ValueError(f"{name} {value!r} has an empty entry: give the entries{about} separated by "
                         f"'{AUTOMATIC_SEPARATOR}'")
    return tuple(int(part) if all(c in digits for c in part) else part for part in parts)


def parse_toms(toms: str | int) -> tuple[int | str, ...]:
    """Tiny York's ``toms`` parameter (kept for its callers): ``"5,B4"`` -> ``(5, "B4")``."""
    return parse_automatic(toms, "toms", "Tom levels 1-12 or codes like 'B4'")


@dataclass(frozen=True)
class OpenSpielSpec:
    """What one loaded game fixes: the game, the engine's config, the automatic participants as
    given and the reward kind (shared, never copied); ``kernels`` is the game's compiled batch
    module (``envs.batch.batch_kernels``)."""

    game: Game
    config: Any
    automatic: tuple
    reward: str
    kernels: ModuleType = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kernels", batch_kernels(self.game))

    @property
    def num_agents(self) -> int:
        """The agent seats: OpenSpiel's players."""
        return self.game.num_agents(self.config)

    def __deepcopy__(self, memo: dict) -> OpenSpielSpec:
        """The spec is immutable, so pyspiel's clone (a deepcopy of each attribute) shares it."""
        return self

    def __reduce__(self) -> tuple:
        """Pickle without the module (the registry pickles the game record by its name)."""
        return OpenSpielSpec, (self.game, self.config, self.automatic, self.reward)


def canonical_automatic(spec: OpenSpielSpec) -> str:
    """The automatic-participants parameter a loaded game reports, joined by '+': the config's own
    normal form where it keeps one under the kind's name (Tiny York's ``GameConfig.toms`` holds
    codes, so ``"5,3"`` reports ``"B4+C2"``), else the entries as given. '+', not ',', so that the
    game's string (``str(game)``) loads again: pyspiel's game-string parser splits at every comma
    and reads ``toms=5`` as an int."""
    entries = getattr(spec.config, spec.game.automatic_kind, spec.automatic)
    return CANONICAL_SEPARATOR.join(str(entry) for entry in entries)


def spec_from_parameters(game: Game, params: Mapping[str, Any]) -> OpenSpielSpec:
    """The spec for pyspiel game parameters; ValueError names an unknown or bad parameter."""
    allowed = parameters(game)
    kind = game.automatic_kind
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown} for {short_name(game)}; "
                         f"the parameters are {sorted(allowed)}")
    seats = seat_range(game)
    players = params.get(PLAYERS, allowed[PLAYERS])
    if not is_int(players) or not seats.fewest <= players <= seats.most:
        raise ValueError(f"players is the number of agent seats, an int {seats.fewest}-{seats.most} "
                         f"(the {kind} take the seats after them), got {players!r}")
    given = params.get(kind, NO_AUTOMATIC)
    automatic = parse_automatic(given, kind, game.automatic_participants)
    try:
        config = game.seat_config(int(players), automatic)
    except ValueError as error:
        raise ValueError(f"{error} (here players={players} and {kind}={given!r})") from None
    return OpenSpielSpec(game, config, automatic, check_reward_kind(params.get(REWARD, DEFAULT_REWARD)))


def utility_bounds(spec: OpenSpielSpec) -> tuple[float, float, float | None]:
    """(min utility, max utility, utility sum or None) of one player under ``spec``'s reward;
    ValueError for "score" when the game gives no ``max_score``."""
    game = spec.game
    participants = game.num_participants(spec.config)
    zero_sum = participants == spec.num_agents and spec.reward in ZERO_SUM_REWARDS
    utility_sum = 0.0 if zero_sum else None
    if spec.reward == "win":
        return -WIN_REWARD / (participants - 1), WIN_REWARD, utility_sum
    if spec.reward == "rank":
        return RANK_WORST, RANK_BEST, utility_sum
    # "score" is (own total - best other total) / score_scale, and totals lie in 0..max_score
    # (a measured bound, contract.Game), so the margin lies within +-max_score.
    if game.max_score is None:
        raise ValueError(f"reward 'score' needs a bound on {game.title}'s final totals "
                         f"(contract.Game.max_score), which this game does not give")
    bound = game.max_score / game.score_scale
    return -bound, bound, utility_sum


def game_type(game: Game,
              utility: pyspiel.GameType.Utility = pyspiel.GameType.Utility.GENERAL_SUM) -> pyspiel.GameType:
    """The GameType of ``game`` (registered as general-sum; a loaded game states its own)."""
    seats = seat_range(game)
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=LONG_NAME_PREFIX + game.title,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=seats.most,
        min_num_players=seats.fewest,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(game),
        default_loadable=True,
        provides_factored_observation_string=False)


class ContractGame(pyspiel.Game):
    """A ``contract.Game`` as an OpenSpiel game: agent seats are the players, the automatic
    participants play inside the engine."""

    def __init__(self, game: Game, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.spec = spec_from_parameters(game, params)
        low, high, utility_sum = utility_bounds(self.spec)
        utility = (pyspiel.GameType.Utility.ZERO_SUM if utility_sum is not None
                   else pyspiel.GameType.Utility.GENERAL_SUM)
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            max_chance_outcomes=NUM_DEALS,
            num_players=self.spec.num_agents,
            min_utility=low,
            max_utility=high,
            utility_sum=utility_sum,
            max_game_length=game.max_decisions)
        canonical = {**parameters(game), **params, game.automatic_kind: canonical_automatic(self.spec)}
        super().__init__(game_type(game, utility), info, canonical)

    def new_initial_state(self) -> ContractState:
        """A game before the deal (a chance node)."""
        return ContractState(self)

    def max_chance_nodes_in_history(self) -> int:
        """One: the deal."""
        return DEAL_CHANCE_NODES

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: Mapping[str, Any] | None = None) -> ContractObserver:
        """The observer for a player's own view (the only kind these games provide)."""
        return ContractObserver(self.spec.game,
                                iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


_DEAL_OUTCOMES = [(deal, 1.0 / NUM_DEALS) for deal in range(NUM_DEALS)]


class ContractState(pyspiel.State):
    """One game: ``record`` is the engine's state record (None before the deal)."""

    def __init__(self, game: ContractGame) -> None:
        super().__init__(game)
        self.spec = game.spec
        self.record: np.ndarray | None = None

    def _actor(self) -> int:
        """The engine's seat to decide, -1 at the end (one compiled call: search asks this
        thousands of times per move)."""
        return int(self.spec.kernels.actor_at(self.record.reshape(1), 0))

    def current_player(self) -> int:
        """The chance player before the deal, then the agent seat to move, TERMINAL at the end."""
        if self.record is None:
            return pyspiel.PlayerId.CHANCE
        actor = self._actor()
        return pyspiel.PlayerId.TERMINAL if actor < 0 else actor

    def _legal_actions(self, player: int) -> list[int]:
        """The engine's legal actions for the seat to move, ascending."""
        mask = self.spec.game.empty_mask()
        self.spec.kernels.mask_at(self.record.reshape(1), 0, mask)
        return np.flatnonzero(mask).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deal: each of the NUM_DEALS seeds with equal probability."""
        return _DEAL_OUTCOMES

    def _apply_action(self, action: int) -> None:
        """Deal (seed ``action``) or play ``action``; the engine runs its automatic participants."""
        game = self.spec.game
        if self.record is None:
            if not 0 <= action < NUM_DEALS:
                raise ValueError(f"the deal is a seed 0..{NUM_DEALS - 1}, got {action}")
            self.record = game.new_game(self.spec.config, seed=action)
        elif not 0 <= action < game.num_actions or \
                self.spec.kernels.apply_at(self.record.reshape(1), 0, action) == REFUSED:
            game.apply_action(self.record, action)  # refused, state unchanged: raises the engine's message

    def _action_to_string(self, player: int, action: int) -> str:
        """The game's description of ``action`` (with what it refers to once dealt, where the game
        describes options in a state)."""
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        game = self.spec.game
        if game.describe_option is not None and self.record is not None:
            return game.describe_option(action, self.record)
        return game.describe_action(action)

    def is_terminal(self) -> bool:
        """True after the final scoring."""
        return self.record is not None and self._actor() < 0

    def returns(self) -> list[float]:
        """Each agent seat's reward: 0 until the end, then ``final_rewards`` of its seat."""
        agents = self.spec.num_agents
        if not self.is_terminal():
            return [0.0] * agents
        return final_rewards(self.record, self.spec.reward, self.spec.game)[:agents].tolist()

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> ContractState:
        """A copy in which everything hidden from ``player_id`` is redrawn (the game's
        ``determinize``), its generator seeded from one draw of ``probability_sampler``."""
        state = self.clone()
        if self.record is not None:
            seed = int(probability_sampler() * 2 ** PROBABILITY_SEED_BITS)
            state.record = self.spec.game.determinize(self.record, player_id, seed)
        return state

    def __str__(self) -> str:
        """The whole state as text (every hand shown), for debugging."""
        game = self.spec.game
        if self.record is None:
            return f"{game.title} - waiting for the deal"
        return game.render_text(self.record)


class ContractObserver:
    """A player's own view (``Game.encode`` and ``Game.render_text(state, player)``); pyspiel's
    PyObserver interface: ``tensor``, ``dict`` (the encoder's named parts), ``set_from``,
    ``string_from``."""

    def __init__(self, game: Game, iig_obs_type: pyspiel.IIGObservationType,
                 params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"{short_name(game)} observers take no parameters, got {dict(params)}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError(
                f"{short_name(game)} provides only a player's own view (public_info=True, "
                f"private_info=SINGLE_PLAYER, perfect_recall either, both give the same view); "
                f"got public_info={iig_obs_type.public_info}, private_info={iig_obs_type.private_info}, "
                f"perfect_recall={iig_obs_type.perfect_recall}")
        self.game = game
        self.tensor = np.zeros(game.obs_size, np.float32)
        self.dict = {name: self.tensor[part] for name, part in game.obs_slices.items()}

    def set_from(self, state: ContractState, player: int) -> None:
        """Write ``player``'s observation of ``state`` (zeros before the deal)."""
        if state.record is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.game.encode(state.record, player)

    def string_from(self, state: ContractState, player: int) -> str:
        """``player``'s view of ``state`` as text: ``render_text(state, player)`` (other hands only
        as sizes), then a digest of ``player``'s observation tensor and, on its turn, its legal
        actions. The text alone may leave out parts of the encoder's view (e.g. Tiny York's
        exchanges left in a bid); with the digest, two states give the same string exactly when
        they give the same tensor, so IS-MCTS (which keys its nodes by this string) never merges
        states the player can tell apart, and the legal-action line makes equal strings offer
        equal actions."""
        if state.record is None:
            return f"{self.game.seat_name(player)} - waiting for the deal"
        tensor = self.game.encode(state.record, player)
        digest = hashlib.blake2b(tensor.tobytes(), digest_size=OBSERVATION_DIGEST_BYTES).hexdigest()
        lines = [self.game.render_text(state.record, player), f"Observation digest: {digest}"]
        if state.current_player() == player:
            lines.append("Legal actions: " + " ".join(map(str, state.legal_actions())))
        return "\n".join(lines)


def check_observation_parts(game: Game) -> None:
    """ValueError unless the encoder's named parts tile its vector in order, so that pyspiel
    (which writes the parts of ``dict`` one after another) writes exactly ``encode``'s vector."""
    stop = 0
    for name, part in game.obs_slices.items():
        if part.start != stop:
            raise ValueError(f"{game.name}: observation part {name} does not follow the previous one")
        stop = part.stop
    if stop != game.obs_size:
        raise ValueError(f"{game.name}: the observation parts do not cover the vector")


_registered: dict[str, Game] = {}  # pyspiel name -> the record registered under it
_constructors: dict[str, Callable[..., ContractGame]] = {}  # pyspiel name -> what pyspiel calls


def register_openspiel_game(game: Game | str) -> str:
    """Register ``game`` (a registered ``contract.Game`` or its name) with pyspiel as
    ``python_<name>``; its pyspiel name. Again for the same record: nothing to do. ValueError
    when the game is not in the registry (states pickle by the game's name), has no
    ``max_decisions``, has observation parts that do not tile its vector, or its pyspiel name is
    taken."""
    name = game.name if isinstance(game, Game) else game
    try:
        record = get_game(name)
    except ValueError:
        raise ValueError(f"{name!r} is not a registered game; add it with tiny_york_env.registry."
                         f"register_game first (states pickle by the game's name)") from None
    if isinstance(game, Game) and record is not game:
        raise ValueError(f"the registry holds another record under {name!r}; register this one with "
                         f"registry.register_game (replace=True) first")
    spiel_name = short_name(record)
    if _registered.get(spiel_name) is record:
        return spiel_name
    if spiel_name in pyspiel.registered_names():
        raise ValueError(f"pyspiel already has a game named {spiel_name!r} (pyspiel cannot replace one)")
    if record.max_decisions is None:
        raise ValueError(f"{name}: OpenSpiel needs a bound on a game's length, contract.Game."
                         f"max_decisions (scripts/measure_game_length.py measures one)")
    check_observation_parts(record)
    constructor = functools.partial(ContractGame, record)
    pyspiel.register_game(game_type(record), constructor)
    _registered[spiel_name] = record
    # pyspiel's registry holds the constructor past the interpreter's life and drops it at process
    # exit without the GIL: were that the last reference, freeing it would call into a finalized
    # interpreter (a fatal error, exit status 134). This module's dict is cleared while the
    # interpreter shuts down, so one reference is made permanent: the constructor is never freed.
    _constructors[spiel_name] = constructor
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(constructor))
    return spiel_name


def _register_every_game() -> None:
    """Register every game of the registry (a game that cannot be is skipped with a warning)."""
    for name in game_names():
        if short_name(name) in pyspiel.registered_names():
            continue  # a reload of this module: pyspiel keeps its first registration
        try:
            register_openspiel_game(name)
        except ValueError as error:
            warnings.warn(f"{name} is not registered with OpenSpiel: {error}", stacklevel=2)


_register_every_game()

# The default game's names, kept for existing callers.
GAME_SHORT_NAME = short_name(DEFAULT_GAME)
MAX_GAME_LENGTH = get_game(DEFAULT_GAME).max_decisions
