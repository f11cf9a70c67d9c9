"""The one table of players, for every game: the evaluation harness, the tournament, the terminal
game, the browser board, the demo and training all make a player here.

A player is named by the grammar of ``agents/names.py`` (``NAME[:BUDGET][@SECONDS]``,
``NAME:PATH``, ``MODULE:ATTRIBUTE``). Its row (``contract.PlayerEntry``) comes from one of:

- ``PLAYERS``, the players of every game, written against the game contract: ``random``,
  ``search[:N]`` and ``gsearch[:N]`` (``agents/game_search.py``), ``psearch[:N][@S]`` and
  ``champion[:PATH][@S]`` (``agents/policy_search.py``), ``ppo[:PATH]`` (``agents/ppo_agent.py``)
  and ``rllib:OUT`` (``agents/rllib_agent.py``); a row's ``plays`` says which games it plays
  (``gsearch`` needs the record's compiled greedy heuristic, ``psearch`` a shipped policy);
- the game's own players, its record's ``players`` (every built-in game's ``greedy``, Tiny York's
  ``tomrules``), so a game with a player of its own touches no file outside its package;
- installed packages' players, the entry-point group ``ENTRY_POINT_GROUP``
  (``[project.entry-points."tiny_york_env.agents"] mybot = "mypkg.bots:MyBot"``), and any
  ``MODULE:ATTRIBUTE``: a factory taking ``seed=`` (and ``game=`` where its signature has it)
  that returns an agent; they play every game.

``make_player(game, spec, seed, config)`` is the one way to build a player for a game: a name,
an ``AgentFactory`` (a name with constructor options) or a ``factory(seed)``. The name alone is
case-insensitive; the label of a player in results is its name spelt one way
(``normalize_agent_name``).
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import inspect
import json
import zipfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tiny_york_env.agents import names
from tiny_york_env.agents.base import Agent, check_agent
from tiny_york_env.agents.game_search import DEFAULT_SIMULATIONS as SEARCH_SIMULATIONS
from tiny_york_env.agents.game_search import GameSearchAgent
from tiny_york_env.agents.policy_search import DEFAULT_SIMULATIONS as POLICY_SEARCH_SIMULATIONS
from tiny_york_env.agents.policy_search import ChampionAgent, PolicySearchAgent
from tiny_york_env.agents.ppo_agent import CARD_MEMBER, PPOAgent, resolve_model_path
from tiny_york_env.agents.random_agent import RandomAgent
from tiny_york_env.agents.rllib_agent import RLlibAgent, is_rllib_run, read_run_card
from tiny_york_env.agents.shipped import champion_network, has_shipped_policy, setup_policy_path
from tiny_york_env.contract import Game, PlayerEntry
from tiny_york_env.registry import DEFAULT_GAME, game_names, get_game

# the grammar's names, kept here for the callers that read them from the registry
BUDGET_SEPARATOR, TIME_LIMIT_SEPARATOR = names.BUDGET_SEPARATOR, names.TIME_LIMIT_SEPARATOR
NO_TIME_LIMIT, TIME_LIMIT_OPTION = names.NO_TIME_LIMIT, names.TIME_LIMIT_OPTION
split_time_limit, time_limit_text = names.split_time_limit, names.time_limit_text
ENTRY_POINT_GROUP = "tiny_york_env.agents"  # installed packages' players: name = "module:attribute"
# The players the browser board offers for a seat (names only: no files, no budgets), where the
# game has them (``offered_players``); ``play --resume`` plays a saved seat's name only if it is one
BOARD_PLAYERS = ("greedy", "random", "ppo", "champion", "psearch", "gsearch", "search", "tomrules")
AgentSpec = str | Callable[[int], Agent]  # a name ('search:64'), an AgentFactory or a factory(seed)


# ---------------------------------------------------------------- the players of every game

def build_random(game: Game, config: Any, seed: int | None) -> RandomAgent:
    """Uniform over the legal actions, from its own seeded generator."""
    return RandomAgent(seed)


def build_search(game: Game, config: Any, seed: int | None, simulations: int = SEARCH_SIMULATIONS,
                 **options: Any) -> GameSearchAgent:
    """Flat Monte Carlo search with random playouts (the game's compiled search where it has one)."""
    return GameSearchAgent(game, simulations, seed, **options)


def build_greedy_search(game: Game, config: Any, seed: int | None, simulations: int = SEARCH_SIMULATIONS,
                        **options: Any) -> GameSearchAgent:
    """Flat Monte Carlo search whose playouts play the game's compiled greedy heuristic."""
    return GameSearchAgent(game, simulations, seed, playout="greedy", **options)


def build_policy_search(game: Game, config: Any, seed: int | None,
                        simulations: int = POLICY_SEARCH_SIMULATIONS, **options: Any) -> PolicySearchAgent:
    """Sequential halving with the shipped policy of the setup as prior and playout policy."""
    options.setdefault("network", setup_policy_path(game, config))
    return PolicySearchAgent(game, simulations=simulations, seed=seed, **options)


def build_champion(game: Game, config: Any, seed: int | None, network: Any = None,
                   **options: Any) -> ChampionAgent:
    """The champion's search on its network (``champion:PATH``: on the policy file PATH)."""
    return ChampionAgent(seed, game=game, network=network or champion_network(game, config), **options)


def build_ppo(game: Game, config: Any, seed: int | None, path_or_model: Any = None,
              **options: Any) -> PPOAgent:
    """A trained policy: ``ppo:PATH``'s file, plain ``ppo`` the shipped policy of the setup."""
    return PPOAgent(path_or_model or setup_policy_path(game, config), game=game, seed=seed, **options)


def build_rllib(game: Game, config: Any, seed: int | None, path: Any = None, **options: Any) -> RLlibAgent:
    """A module of an RLlib run folder (``rllib:OUT``), which must play ``game``."""
    if path is None:
        raise ValueError("rllib needs its run folder: rllib:OUT (the --out of training/rllib_train.py)")
    agent = RLlibAgent(path, seed=seed, **options)
    if agent.game.name != game.name:
        raise ValueError(f"{path!r} is an RLlib run of {agent.game.title}, not {game.title}")
    return agent


PLAYERS = {entry.name: entry for entry in (
    PlayerEntry("random", "uniform over the legal actions", build_random),
    PlayerEntry("search", "determinized flat Monte Carlo search with random playouts; 'search:N' sets "
                          "N playouts a decision", build_search, budget_option="simulations"),
    PlayerEntry("gsearch", "the same search with the game's compiled greedy heuristic in its playouts "
                           "(games whose record has one); 'gsearch:N' sets N playouts",
                build_greedy_search, budget_option="simulations",
                plays=lambda game: game.greedy_playout is not None),
    PlayerEntry("psearch", "determinized search with the shipped policy as prior and playout policy; "
                           "'psearch:N' sets N playouts per decision, 'psearch@S' at most S seconds a "
                           "decision (default: no limit)", build_policy_search, budget_option="simulations",
                timed=True, plays=has_shipped_policy, check=setup_policy_path),
    PlayerEntry("champion", "the strongest shipped agent: psearch with its tuned budget on the champion's "
                            "network (docs/champion.md); 'champion:PATH' searches with the policy file "
                            "PATH instead (an expert-iteration generation); 'champion@S' adds a limit of "
                            "S seconds a decision (its strength is set by playouts alone)",
                build_champion, path_option="network", timed=True,
                plays=lambda game: game.champion_policy is not None or has_shipped_policy(game),
                check=champion_network),
    PlayerEntry("ppo", "trained MaskablePPO policy; 'ppo:PATH' loads a policy file (a training run's "
                       "policy.zip or training.export's output), plain 'ppo' the shipped model",
                build_ppo, path_option="path_or_model", check=setup_policy_path),
    PlayerEntry("rllib", "a module trained with RLlib (training/rllib_train.py); 'rllib:OUT' loads the "
                         "run folder OUT (needs the ray extra's msgpack)", build_rllib, path_option="path"),
)}


# ---------------------------------------------------------------- outside players

def load_attribute(spec: str) -> Callable[..., Agent]:
    """The factory ``MODULE:ATTRIBUTE`` names (imported now); ValueError when it is missing."""
    module_name, _, attribute = spec.partition(names.EXTERNAL_SEPARATOR)
    module_name, attribute = module_name.strip(), attribute.strip()
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        raise ValueError(f"agent {spec!r}: its module {module_name} cannot be imported: {error}") from error
    try:
        return functools.reduce(getattr, attribute.split("."), module)
    except AttributeError as error:
        raise ValueError(f"agent {spec!r}: {module_name} has no {attribute}") from error


def outside_entry(name: str, spec: str, description: str) -> PlayerEntry:
    """The row of an outside player: ``spec`` = ``MODULE:ATTRIBUTE``, a factory taking ``seed=``
    (and ``game=`` where its signature has one), loaded when a player is made."""
    def build(game: Game, config: Any, seed: int | None, **options: Any) -> Agent:
        factory = load_attribute(spec)
        try:
            takes_game = "game" in inspect.signature(factory).parameters
        except (TypeError, ValueError):  # a builtin or C callable: no signature to read
            takes_game = False
        return factory(seed=seed, **({"game": game} if takes_game else {}), **options)
    return PlayerEntry(name, description, build)


@functools.cache
def installed_players() -> dict[str, PlayerEntry]:
    """The players that installed packages declare in the entry-point group ``ENTRY_POINT_GROUP``."""
    return {point.name.lower(): outside_entry(point.name.lower(), point.value,
                                              f"installed agent ({point.value})")
            for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}


# ---------------------------------------------------------------- the table

def player_table(game: Game | None = None) -> dict[str, PlayerEntry]:
    """Name -> row for ``game`` (every game's players, its own, the installed ones), or for every
    registered game when None (what the grammar reads before the game is known)."""
    games = [game] if game is not None else [get_game(name) for name in game_names()]
    table = dict(PLAYERS)
    for played in games:
        for entry in played.players:
            if entry.name in PLAYERS:
                raise ValueError(f"{played.title}'s own player {entry.name!r} has the name of a player "
                                 f"of every game; give it another name")
            table.setdefault(entry.name, entry)
    for name, entry in installed_players().items():
        table.setdefault(name, entry)
    return table


def player_entry(game: Game, name: str) -> PlayerEntry:
    """The row of the parsed name ``name`` for ``game``; ValueError when it is no player of it."""
    table = player_table(game)
    if name in table and table[name].plays_game(game):
        return table[name]
    if names.is_external_name(name, table):
        return outside_entry(name, name, f"outside agent {name}")
    raise ValueError(f"unknown agent {name!r} for {game.title} (--game {game.name}); its players: "
                     f"{agent_name_forms(game)}, or MODULE:ATTRIBUTE")


def parse_agent_name(spec: str, game: Game | None = None) -> tuple[str, dict[str, Any]]:
    """``'search:64'`` as ``('search', {'simulations': 64})`` (``names.parse_name`` over every
    game's table); with ``game``, ValueError unless the name is a player of that game."""
    name, options = names.parse_name(spec, player_table())
    if game is not None:
        player_entry(game, name)
    return name, options


def normalize_agent_name(spec: str) -> str:
    """``spec`` spelt one way (``names.normal_name``): the label of a player in results."""
    return names.normal_name(spec, player_table())


def is_external_name(spec: str) -> bool:
    """True for an outside player named ``MODULE:ATTRIBUTE``."""
    return names.is_external_name(spec, player_table())


def agent_name_forms(game: Game | None = None) -> str:
    """The names as typed (``search[:N]``, ``ppo[:PATH]``, ``[@S]``) for help texts: of ``game``'s
    players, of every game's when None."""
    table = player_table(game)
    return names.name_forms({n: e for n, e in table.items() if game is None or e.plays_game(game)})


def player_names(game: Game) -> tuple[str, ...]:
    """The names of the players of ``game``, in the table's order."""
    return tuple(name for name, entry in player_table(game).items() if entry.plays_game(game))


def offered_players(game: Game) -> tuple[str, ...]:
    """The names of ``BOARD_PLAYERS`` that play ``game`` (``ppo`` where a policy is shipped)."""
    playable = set(player_names(game)) - ({"ppo"} if not has_shipped_policy(game) else set())
    return tuple(name for name in BOARD_PLAYERS if name in playable)


# ---------------------------------------------------------------- making players

@dataclass(frozen=True)
class AgentFactory:
    """A player by name with extra constructor ``options`` (``--unsafe-unpickle``), labelled by its
    name; ``factory(seed)`` makes one for Tiny York, the arena makes one for its game."""

    name: str
    options: dict[str, Any] = field(default_factory=dict, hash=False)

    @property
    def label(self) -> str:
        """The name the results show."""
        return self.name

    def __call__(self, seed: int | None) -> Agent:
        """A new agent of the default game seeded with ``seed``."""
        return make_agent(self.name, seed=seed, **self.options)


def spec_name(spec: object) -> str | None:
    """The player name behind ``spec`` (a name or an ``AgentFactory``), None for a factory."""
    if isinstance(spec, AgentFactory):
        return spec.name
    return spec if isinstance(spec, str) else None


def make_player(game: str | Game, spec: AgentSpec, seed: int | None = None, config: Any = None,
                **options: Any) -> Agent:
    """A fresh player of ``game`` for the setup ``config`` (None: the default setup), seeded with
    ``seed``: a name of the table, an ``AgentFactory`` (its options, then ``options``) or a
    ``factory(seed)``; ValueError when the name is no player of the game or the agent has no
    ``act``."""
    game = get_game(game)
    if isinstance(spec, AgentFactory):
        return make_player(game, spec.name, seed, config, **{**spec.options, **options})
    if isinstance(spec, str):
        name, given = parse_agent_name(spec, game)
        agent = player_entry(game, name).build(game, config, seed, **{**given, **options})
    elif callable(spec):
        agent = spec(seed)
    else:
        raise ValueError(f"an agent is a name (e.g. 'random', 'search:64') or a callable factory(seed) "
                         f"-> agent; got {spec!r}")
    check_agent(agent, spec_name(spec) or getattr(spec, "label", repr(spec)))
    return agent


def file_game(path: str) -> str | None:
    """The game the file or run folder ``path`` names: a policy file's card, an RLlib run's card
    (``rllib.json``); None where it names none or cannot be read (making the player then says why)."""
    try:
        location = Path(path)
        if location.is_dir() and is_rllib_run(location):
            return str(read_run_card(location)["game"])
        with zipfile.ZipFile(resolve_model_path(location)) as archive:
            return str(json.loads(archive.read(CARD_MEMBER)).get("game", DEFAULT_GAME))
    except (OSError, ValueError, KeyError, TypeError, AttributeError, zipfile.BadZipFile):
        return None


def make_agent(name: str, seed: int | None = None, *, game: str | Game | None = None, config: Any = None,
               **options: Any) -> Agent:
    """A new player by name (``'search:64'`` sets the budget) of ``game``, seeded with ``seed``;
    without a game, the game the name's file plays (``ppo:PATH``, ``champion:PATH``, ``rllib:OUT``),
    else Tiny York. ``options`` go to the constructor and override a budget given in the name."""
    if game is None:
        parsed, given = parse_agent_name(name) if isinstance(name, str) else (None, {})
        entry = player_table().get(parsed) if parsed else None
        path = given.get(entry.path_option) if entry is not None and entry.path_option else None
        game = (file_game(path) if path is not None else None) or DEFAULT_GAME
    return make_player(game, name, seed, config, **options)


def make_agent_from_spec(spec: AgentSpec, seed: int | None, game: str | Game = DEFAULT_GAME) -> Agent:
    """A new player from a name, an ``AgentFactory`` or a ``factory(seed)``."""
    return make_player(game, spec, seed)


def agent_specs(specs: Iterable[str], unsafe_unpickle: bool) -> list[AgentSpec]:
    """Names for the arena: each ``ppo`` name as an ``AgentFactory`` that may unpickle an SB3
    checkpoint when ``unsafe_unpickle``, the others unchanged."""
    if not unsafe_unpickle:
        return list(specs)
    return [AgentFactory(name, {"unsafe_unpickle": True}) if parse_agent_name(name)[0] == "ppo" else name
            for name in specs]


def check_player(game: str | Game, spec: object, config: Any = None) -> Any:
    """``spec`` when it names a player of ``game`` (the name parsed, its file there where it names one)
    or is a callable ``factory(seed)``; ValueError saying why not. With a ``config``, a name that
    plays a shipped policy must have one for that setup."""
    game = get_game(game)
    name_text = spec_name(spec)
    if name_text is None:
        if not callable(spec):
            raise ValueError(f"an agent is a name (e.g. 'random', 'search:64') or a callable factory(seed) "
                             f"-> agent; got {spec!r}")
        return spec
    name, given = parse_agent_name(name_text, game)
    entry = player_entry(game, name)
    path = given.get(entry.path_option) if entry.path_option else None
    if path is not None and not Path(path).exists():
        raise ValueError(f"{name_text!r}: {name}:PATH plays the file (or run folder) PATH, and {path!r} "
                         f"is no file")
    if path is None and config is not None and entry.check is not None:
        entry.check(game, config)  # ValueError naming the setups a policy is shipped for
    return spec


def player_rows(game: Game) -> Mapping[str, PlayerEntry]:
    """The rows of the players of ``game`` (for tables of who plays what)."""
    return {name: entry for name, entry in player_table(game).items() if entry.plays_game(game)}
