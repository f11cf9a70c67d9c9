"""Policies of any registered game by name: one seat's decision maker as a function of the state.

``seat_policy(game, name, rng, config)`` is the one way the terminal game, the browser board and
the matches make a seat's policy. Every name is in one table, the agent registry's
(``agents/registry.AGENTS``): a name whose class is written for the game (its entry's ``games``)
is that agent, deciding through ``base.choose_action``; a name the registry marks
``contract_policy`` plays every other game as the contract's policy below, which every game has
through its record.

The contract's policies (``POLICY_NAMES``, from the registry): ``random`` (uniform among the legal
actions, from a seeded generator); ``greedy`` for a game whose contract names a heuristic
(``Game.greedy_action``); ``ppo`` (the shipped trained policy of the game and player count, where
one is shipped: ``SHIPPED_POLICIES``) and ``ppo:PATH`` (a policy file trained for the game, e.g. by
``python -m tiny_york_env.training.train_ppo --game NAME``); ``search`` and ``search:N`` (flat Monte
Carlo search over the game's determinized views with N playouts per decision, default 64,
``agents/game_search.py``; ``gsearch[:N]`` the same with greedy playouts); ``psearch[:N]`` (the
shipped policy of the setup as prior and playout policy, sequential halving over its most probable
actions, ``agents/policy_search.py``); ``champion`` (the same search with the champion's settings,
``agents.policy_search.ChampionAgent``; ``champion:PATH`` on the policy file PATH). Both may end in
a time limit: ``champion@0.5`` (seconds a decision), ``psearch:64@none``. In Python an agent may
also be a function of the state returning the action of the seat to move, or an ``act(observation,
mask)`` agent wrapped by ``act_policy``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tiny_york_env.agents.ppo_agent import MODELS_DIR
from tiny_york_env.agents.registry import contract_policy_names
from tiny_york_env.contract import Game

# the names every game plays, from the agent registry's table (its ``contract_policy`` entries)
POLICY_NAMES = contract_policy_names()
PPO_PREFIX, SEARCH_PREFIX, GREEDY_SEARCH_PREFIX = "ppo", "search", "gsearch"  # gsearch: greedy playouts
POLICY_SEARCH_PREFIX = "psearch"  # the shipped policy as prior and playout policy
CHAMPION = "champion"  # psearch with the champion's settings (agents.policy_search.ChampionAgent)


def _name_forms(names: Sequence[str]) -> str:
    """``("ppo", "ppo:PATH", "psearch@S")`` as ``"ppo[:PATH], psearch[@S]"``: each name once, what may
    follow it in brackets."""
    arguments = {name: argument for name, _, argument in (n.partition(":") for n in names) if argument}
    limits = {name for name, at, _ in (n.partition("@") for n in names) if at}
    return ", ".join(n + (f"[:{arguments[n]}]" if n in arguments else "") + ("[@S]" if n in limits else "")
                     for n in names if ":" not in n and "@" not in n)


POLICY_FORMS = _name_forms(POLICY_NAMES)  # for help texts: "random, greedy, ppo[:PATH], search[:N], ..."
Policy = Callable[[np.ndarray], int]
POLICY_SEED_BOUND = 2 ** 31  # a seeded policy's own seed is drawn below this from the match's generator
# The policies the browser board offers for a seat (names only: no files, no budgets), where the
# game has them (``offered_policies``)
BOARD_POLICIES = ("greedy", "random", "ppo", "search", "tomrules")


def shipped_policy_path(game: Game, players: int) -> Path:
    """The shipped policy file for ``game`` with ``players`` seats (agents and bots, the record's
    ``shipped_policies``, else its ``default_policy``); ValueError when none is shipped for that
    setup."""
    name = game.shipped_policies.get(players, game.default_policy)
    if name is None:
        shipped = sorted(f"{n} players" for n in game.shipped_policies) or "none"
        raise ValueError(f"no trained policy is shipped for {game.title} with {players} players "
                         f"(shipped: {shipped}); give ppo:PATH of one you trained")
    return MODELS_DIR / name


def act_policy(game: Game, agent: Any) -> Policy:
    """A state policy of an ``act(observation, mask)`` agent: it sees only the seat's observation
    and legal mask, like in the envs."""
    def policy(state: np.ndarray) -> int:
        seat = game.current_player(state)
        return int(agent.act(game.encode(state, seat), game.legal_mask(state)))
    return policy


class StatePolicyAgent:
    """A state policy (a function of the state returning the action of the seat to move) as an
    agent that plans on the seat's determinized view (``act_state``): what the evaluation harness
    and the self-play pools play."""

    def __init__(self, policy: Policy, label: str = "policy") -> None:
        self.policy, self.label = policy, label

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Refused: this policy decides from the game record (``act_state``)."""
        raise ValueError(f"{self.label} decides from the game record: call act_state(view, seat)")

    def act_state(self, view: np.ndarray, seat: int) -> int:
        """The policy's action for ``seat``, the seat to move in ``view``."""
        return int(self.policy(view))


def ppo_policy(game: Game, name: str, config: Any, seed: int, unsafe_unpickle: bool = False) -> Policy:
    """``ppo`` (the shipped policy for this setup) or ``ppo:PATH`` as a state policy;
    ``unsafe_unpickle`` lets PATH be an SB3 checkpoint (it runs code from the file)."""
    from tiny_york_env.agents.ppo_agent import PPOAgent
    path = (shipped_policy_path(game, game.num_participants(config)) if name == PPO_PREFIX
            else name.split(":", 1)[1])
    return act_policy(game, PPOAgent(path, game=game, seed=seed, unsafe_unpickle=unsafe_unpickle))


def search_policy(game: Game, name: str, seed: int, playout: str = "random") -> Policy:
    """``search[:N]`` or ``gsearch[:N]`` (N playouts per decision; random or greedy playouts) as
    a state policy: the agent plans on ``game.determinize`` of the state from the mover's seat,
    never on the state itself."""
    from tiny_york_env.agents.game_search import DEFAULT_SIMULATIONS, GameSearchAgent
    budget = name.partition(":")[2] or str(DEFAULT_SIMULATIONS)
    if not budget.isdigit() or int(budget) < 1:
        raise ValueError(f"{name!r}: the search budget after the colon must be a positive int of "
                         f"playouts per decision, e.g. search:64")
    agent = GameSearchAgent(game, simulations=int(budget), seed=seed, playout=playout)
    rng = np.random.default_rng(seed)

    def policy(state: np.ndarray) -> int:
        seat = game.current_player(state)
        return agent.act_state(game.determinize(state, seat, rng), seat)
    return policy


def psearch_budget(name: str) -> int | None:
    """N of ``psearch:N`` (None for plain ``psearch``); ValueError when what follows the colon is
    not a positive int."""
    _, colon, argument = name.partition(":")
    if not colon:
        return None
    if not argument.isdigit() or int(argument) < 1:
        raise ValueError(f"{name!r}: the search budget after the colon must be a positive int of "
                         f"playouts per decision, e.g. psearch:64")
    return int(argument)


def split_search_name(name: str) -> tuple[str, dict[str, float | None]]:
    """``name`` without the time limit that ``psearch`` and ``champion`` may end in
    (``'champion@0.5'``: ``('champion', {'time_limit': 0.5})``), and that limit as options;
    ValueError for a limit on another policy."""
    from tiny_york_env.agents.registry import split_time_limit
    untimed, limit = split_time_limit(name)
    prefix, colon, _ = untimed.partition(":")
    if not limit or prefix in (POLICY_SEARCH_PREFIX, CHAMPION):
        return untimed, limit
    if prefix == PPO_PREFIX and colon:  # 'ppo:runs/policy@2': an '@' inside a path
        return name, {}
    raise ValueError(f"{name!r}: only psearch and champion take a time limit (e.g. champion@0.5, "
                     f"psearch:64@none)")


def policy_search_policy(game: Game, name: str, config: Any, seed: int) -> Policy:
    """``psearch[:N]`` (agents/policy_search.py, N playouts per decision, the shipped policy for
    this setup as prior and playout policy) or ``champion`` (``ChampionAgent`` with that policy;
    ``champion:PATH`` with the policy file PATH), either with an ``@S`` time limit, as a state
    policy on ``game.determinize`` views."""
    from tiny_york_env.agents.policy_search import DEFAULT_SIMULATIONS, ChampionAgent, PolicySearchAgent
    search_seed, view_seed = np.random.SeedSequence(seed).generate_state(2)
    name, limit = split_search_name(name)
    prefix, colon, path = name.partition(":")
    given = prefix == CHAMPION and colon  # 'champion:PATH': that policy file
    network = path if given else shipped_policy_path(game, game.num_participants(config))
    if prefix == CHAMPION:
        agent = ChampionAgent(seed=int(search_seed), game=game, network=network, **limit)
    else:
        agent = PolicySearchAgent(game, simulations=psearch_budget(name) or DEFAULT_SIMULATIONS,
                                  seed=int(search_seed), network=network, **limit)
    rng = np.random.default_rng(int(view_seed))

    def policy(state: np.ndarray) -> int:
        seat = game.current_player(state)
        return agent.act_state(game.determinize(state, seat, rng), seat)
    policy.agent = agent  # the search behind it (for tests and tables)
    return policy


def check_policy_name(game: Game, name: object, config: Any = None) -> str:
    """``name`` when it names a policy of ``game`` (POLICY_NAMES); ValueError saying why not. The
    policy files of ``ppo``, ``psearch`` and ``champion`` are only read when the policy is made,
    but with a ``config`` the shipped one must exist for its number of players."""
    if not isinstance(name, str):
        raise ValueError(f"a policy is named by a string {POLICY_NAMES}, got {name!r}")
    if registry_agent_for(game, name):  # an agent of the registry for this game (or an outside one)
        return name
    typed = name  # returned as given, time limit included
    name, _ = split_search_name(name)
    prefix, colon, _ = name.partition(":")
    if prefix == CHAMPION and colon:
        path = name.partition(":")[2]
        if not Path(path).is_file():
            raise ValueError(f"{name!r}: champion:PATH searches the policy file PATH (its budget is its "
                             f"own; psearch:N sets one), and {path!r} is no file")
        return typed
    if prefix == POLICY_SEARCH_PREFIX:
        psearch_budget(name)
    if name in (PPO_PREFIX, POLICY_SEARCH_PREFIX, CHAMPION) or prefix == POLICY_SEARCH_PREFIX:
        if config is not None:  # the shipped policy of this setup (a ValueError naming the shipped ones)
            shipped_policy_path(game, game.num_participants(config))
        return typed
    if prefix != PPO_PREFIX:
        make_policy(game, name, np.random.default_rng(0), config)
    return typed


def make_policy(game: Game, name: str | Policy, rng: np.random.Generator,
                config: Any = None, unsafe_unpickle: bool = False) -> Policy:
    """The policy ``name`` for ``game`` (``config``: the setup, whose shipped policy ``ppo``,
    ``psearch`` and ``champion`` play): a function of the state (the seat to move decides); a
    function passes through. ``unsafe_unpickle`` lets ``ppo:PATH`` be an SB3 checkpoint."""
    if callable(name):
        return name
    if name == PPO_PREFIX or str(name).startswith(PPO_PREFIX + ":"):
        return ppo_policy(game, name, game.make_config() if config is None else config,
                          int(rng.integers(POLICY_SEED_BOUND)), unsafe_unpickle)
    untimed, _ = split_search_name(str(name))
    if untimed.partition(":")[0] in (POLICY_SEARCH_PREFIX, CHAMPION):
        return policy_search_policy(game, name, game.make_config() if config is None else config,
                                    int(rng.integers(POLICY_SEED_BOUND)))
    if name == SEARCH_PREFIX or str(name).startswith(SEARCH_PREFIX + ":"):
        return search_policy(game, name, int(rng.integers(POLICY_SEED_BOUND)))
    if name == GREEDY_SEARCH_PREFIX or str(name).startswith(GREEDY_SEARCH_PREFIX + ":"):
        return search_policy(game, name, int(rng.integers(POLICY_SEED_BOUND)), playout="greedy")
    if name == "random":
        return lambda state: int(rng.choice(np.flatnonzero(game.legal_mask(state))))
    if name == "greedy":
        if game.greedy_action is None:
            raise ValueError(f"{game.title} has no greedy heuristic (its record names no "
                             f"greedy_action); its policies: {POLICY_NAMES}")
        return game.greedy_action
    from tiny_york_env.agents.registry import AGENTS
    written = [n for n, entry in AGENTS.items() if entry.games is None or game.name in entry.games]
    raise ValueError(f"unknown agent {name!r} for {game.title} (--game {game.name}): not one of its "
                     f"policies ({POLICY_FORMS}) nor one of the known agents of the registry written "
                     f"for it "                     f"({', '.join(written) or 'none'}), nor MODULE:ATTRIBUTE")


def registry_agent_for(game: Game, name: str) -> bool:
    """True when ``name`` is an agent of the registry written for ``game`` (its entry's ``games``)."""
    from tiny_york_env.agents.registry import agent_entry, parse_agent_name
    try:
        base, _ = parse_agent_name(name)
    except ValueError:
        return False
    games = agent_entry(base).games
    return games is None or game.name in games


def seat_policy(game: Game, name: str | Policy, rng: np.random.Generator, config: Any = None,
                agent_seed: int | None = None, unsafe_unpickle: bool = False) -> Policy:
    """One seat's policy ``name`` for ``game``: a registry agent written for the game (seeded with
    ``agent_seed``, else a draw from ``rng``), deciding through ``choose_action`` with ``rng``; else
    the contract's policy of that name (``make_policy``). ``unsafe_unpickle`` lets a ``ppo:PATH``
    agent be an SB3 checkpoint (it runs code from the file)."""
    if isinstance(name, str) and registry_agent_for(game, name):
        from tiny_york_env.agents.base import check_agent, choose_action
        from tiny_york_env.agents.registry import agent_specs, make_agent_from_spec
        seed = int(rng.integers(POLICY_SEED_BOUND)) if agent_seed is None else agent_seed
        agent = make_agent_from_spec(agent_specs([name], unsafe_unpickle)[0], seed)
        check_agent(agent, name)

        def policy(state: np.ndarray) -> int:
            return int(choose_action(agent, state, rng))
        policy.agent = agent
        return policy
    return make_policy(game, name, rng, config, unsafe_unpickle)


def policy_agent(game: Game, name: str, seed: int, config: Any = None) -> Any:
    """An agent (``act`` or ``act_state``) by name for ``game``: a registry agent written for the
    game, seeded with ``seed``, else the contract's policy of that name as a ``StatePolicyAgent``
    (its own generator seeded with ``seed``). The self-play pool's baselines and imitation's
    teachers."""
    if registry_agent_for(game, name):
        from tiny_york_env.agents.registry import make_agent_from_spec
        return make_agent_from_spec(name, seed)
    return StatePolicyAgent(make_policy(game, name, np.random.default_rng(seed), config), name)


def offered_policies(game: Game) -> tuple[str, ...]:
    """The names of ``BOARD_POLICIES`` that ``game`` has: a registry agent written for it, or one of
    the contract's policies it can play (``greedy`` needs the record's heuristic, ``ppo`` a shipped
    policy)."""
    def has(name):
        if registry_agent_for(game, name):
            return True
        if name == "greedy":
            return game.greedy_action is not None
        if name == PPO_PREFIX:
            return bool(game.shipped_policies)
        return name in POLICY_NAMES
    return tuple(name for name in BOARD_POLICIES if has(name))
