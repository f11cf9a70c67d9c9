"""The game contract: what a game gives the layers above its engine (docs/games.md).

A game is a rules engine on one numpy structured record (``STATE_DTYPE``) plus the few things
the envs, agents and tools need: its verbs, its observation encoder and space, ``determinize``
for planners and the compiled functions the batch kernels loop over. A ``Game`` collects them;
``registry.py`` maps names to games. The adapters (``envs/``), the agents and the tools read a
game only through this record, so a new game joins by filling one in.

The record is deliberately flat (module-level functions, not methods): the engine functions are
numba-compiled, and the batch kernels (``envs/batch.py``) take the compiled ones as closure
constants, specialised once per game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from gymnasium import spaces

from .core.labels import SEAT_WORD

AUTOMATIC_WORD = "automatic"  # every game's keyword for its automatic participants
# the engine verbs a game's ``api.py`` defines under the record's names (``verb_fields``)
VERB_FIELDS = ("new_game", "current_player", "legal_mask", "apply_action", "step", "is_terminal",
               "final_scores", "winners", "placings", "score_breakdown", "pending_decision")


@dataclass(frozen=True)
class GameKernels:
    """The compiled functions a game's batch loops call, one record (``rec = states[i]``) at a time.

    - ``init_record(states, i, params, seed)``: set up game ``i`` on a zeroed record from
      ``params`` (``Game.config_params``) and run it to the first decision of an agent seat;
    - ``fill_legal_mask(rec, mask)``: the legal actions of the seat to move (all False at the end);
    - ``apply_checked(rec, action)``: 0 when applied, else illegal and ``rec`` unchanged;
    - ``apply_unchecked(rec, action)``: apply an action the mask allows (the caller checked it);
    - ``is_over(rec)``: True once the game has ended; ``actor_of(rec)``: the seat to decide, -1 at
      the end;
    - ``encode_record(rec, seat, out)``: ``seat``'s observation into ``out`` (float32[obs_size]).
    """

    init_record: Callable[..., None]
    fill_legal_mask: Callable[..., None]
    apply_checked: Callable[..., int]
    apply_unchecked: Callable[..., None]
    is_over: Callable[..., bool]
    actor_of: Callable[..., int]
    encode_record: Callable[..., None]


@dataclass(frozen=True)
class PlayerEntry:
    """A player by name: one row of the agent registry's table (``agents/registry.py``), or one of
    a game's own players (its record's ``players``: Tiny York's Tom-rules player, every game's
    greedy heuristic).

    ``build(game, config, seed, **options)`` makes a fresh agent (``act(observation, mask)``, or
    ``act_state(view, seat)`` for one that plans on a seat-safe view) for ``game`` with the setup
    ``config`` (None: the game's default setup), seeded with ``seed``. The name grammar
    (``NAME[:BUDGET][@SECONDS]``, ``NAME:PATH``) sets the options: ``NAME:N`` sets
    ``budget_option``, ``NAME:PATH`` ``path_option`` (kept as typed), ``NAME@S`` the time limit
    (``timed``). ``plays(game)`` says whether the player plays a game (None: every game);
    ``check(game, config)`` raises ValueError when it cannot play that setup without a file of
    its own (no trained policy is shipped for it), before any game is played."""

    name: str
    description: str
    build: Callable[..., Any]
    budget_option: str | None = None
    path_option: str | None = None
    timed: bool = False
    plays: Callable[[Any], bool] | None = None
    check: Callable[[Any, Any], Any] | None = None

    def plays_game(self, game: Game) -> bool:
        """Whether this player plays ``game``."""
        return self.plays is None or bool(self.plays(game))


@dataclass(frozen=True)
class PublishedRun:
    """A figure of a game the docs publish (``docs/results``) and the ``tiny-york`` command line that
    plays it (``scripts/publish_runs.py``): in the publishing script's ``group`` ("champion",
    "matches", "comparisons"), a ``kind`` of run ("ladder": ``eval --agent`` in resumable parts of
    ``part_games`` games a rung; "match": ``eval --vs``; "compare": ``compare A B``), its result's
    ``name`` and the rest of the command's arguments (``args``), ``games`` a rung or a match."""

    group: str
    kind: str
    name: str
    args: tuple[str, ...]
    games: int | None = None
    part_games: int | None = None


@dataclass(frozen=True)
class Game:
    """One game as the adapters see it (the table in docs/games.md lists every field)."""

    # --- identity -----------------------------------------------------------------------------
    name: str  # registry key and ``--game`` value, e.g. "tiny_york"
    title: str  # for people, e.g. "Tiny York"
    version: str  # rules-engine version; bumped when the same seed can play differently
    env_id: str  # Gymnasium id, e.g. "TinyYork-v0"
    aec_name: str  # PettingZoo metadata name, e.g. "tiny_york_v0"
    rules_source: str  # the rulebook the engine follows
    automatic_participants: str  # who the engine plays itself (Toms, bots, Dirk), in words
    # --- configuration --------------------------------------------------------------------------
    config_type: type  # the frozen dataclass that says who plays; validates on construction
    make_config: Callable[..., Any]  # keyword arguments -> a checked config (ValueError otherwise)
    num_agents: Callable[[Any], int]  # agent seats of a config: seats 0..num_agents-1 decide from outside
    num_participants: Callable[[Any], int]  # seats that score and are ranked (agents + automatic seats)
    config_params: Callable[[Any], np.ndarray]  # int64 vector for ``GameKernels.init_record``
    # (num_agents, automatic) -> a checked config: agent seats 0..num_agents-1, then one seat per
    # automatic participant named in ``automatic`` (Tom levels or codes, bot names), in that order
    seat_config: Callable[[int, Sequence[Any]], Any]
    # config -> its automatic participants in seat order, as ``seat_config`` takes them back, each
    # in one spelling (Tiny York's Tom codes, bot names): ``seat_config(num_agents(c), automatic_of(c))``
    # is ``c``; the evaluation harness derives its seeds from them
    automatic_of: Callable[[Any], tuple[Any, ...]]
    automatic_kind: str  # what the automatic seats are called in options and texts: "toms", "bots"
    automatic_label: Callable[[Any], str]  # one automatic participant for people: "Tom 5 (B4)", "greedy bot"
    automatic_choices: tuple[Any, ...]  # the automatic participants a menu offers (levels 1-12, "greedy")
    # --- the engine -----------------------------------------------------------------------------
    state_dtype: np.dtype
    num_actions: int
    new_game: Callable[..., np.ndarray]  # (config=None, seed=None) -> 0-d record
    current_player: Callable[[np.ndarray], int]  # -1 at the end
    legal_mask: Callable[[np.ndarray], np.ndarray]  # bool[num_actions], all False only at the end
    apply_action: Callable[[np.ndarray, int], None]  # in place; ValueError on illegal, state unchanged
    step: Callable[[np.ndarray, int], np.ndarray]  # the pure form
    is_terminal: Callable[[np.ndarray], bool]
    final_scores: Callable[[np.ndarray], np.ndarray]  # int, one per participant seat
    winners: Callable[[np.ndarray], tuple[int, ...]]  # every winning seat (ties share the win)
    placings: Callable[[np.ndarray], np.ndarray]  # float per seat: 0 = first; tied seats share the mean
    score_breakdown: Callable[[np.ndarray], list[dict[str, int]]]
    describe_action: Callable[[int], str]
    pending_decision: Callable[[np.ndarray], str]  # the decision of the seat to move, in words
    render_text: Callable[[np.ndarray], str]
    determinize: Callable[..., np.ndarray]  # (state, seat, rng) -> a copy, hidden parts resampled
    # --- observation ----------------------------------------------------------------------------
    obs_size: int
    encode: Callable[[np.ndarray, int], np.ndarray]  # float32[obs_size], that seat's information only
    observation_space: Callable[[], spaces.Box]  # finite bounds
    obs_slices: Mapping[str, slice]  # the vector's named parts, in order (policy files record them)
    kernels: GameKernels
    batch_module: str  # the module compiling core/batch_loops.py with this game's functions
    # --- rewards and views ------------------------------------------------------------------------
    score_scale: float  # the "score" reward divides the margin to the best other seat by this
    render_rgb: Callable[[np.ndarray], np.ndarray] | None = None  # a picture, when the game has one
    # (state, seat or None) -> an SVG of the table as that seat may see it (the browser board)
    board_svg: Callable[[np.ndarray, int | None], str] | None = None
    # (action, state) -> the places of ``board_svg``'s drawing the action refers to (a plot, a
    # borough, a card pair: keys of its ``data-place``), empty for none; the browser board clicks them
    action_place: Callable[[int, np.ndarray], tuple[str, ...]] | None = None
    # (action, state) -> the action in words, naming what it refers to in that state
    describe_option: Callable[[int, np.ndarray], str] | None = None
    global_state: Callable[[np.ndarray], np.ndarray] | None = None  # PettingZoo ``state()``
    global_state_space: Callable[[], spaces.Box] | None = None
    validate_state: Callable[[np.ndarray], None] | None = None  # ValueError for a foreign record
    save_state: Callable[..., bytes] | None = None  # bytes with header and checksum
    load_state: Callable[..., np.ndarray] | None = None  # validated on the way in
    greedy_action: Callable[[np.ndarray], int] | None = None  # a heuristic for the seat to move
    # the game's own players by name (``PlayerEntry``: its greedy heuristic, Tiny York's Tom-rules
    # player), beside the agent registry's players of every game; a game with its own player
    # touches no file outside its package
    players: tuple[PlayerEntry, ...] = ()
    # (states, i): plays batch game i to its end with that heuristic in every seat, compiled
    # (search playouts, agents/game_search.py); None when the game has no compiled heuristic
    greedy_playout: Callable[[np.ndarray, int], None] | None = None
    # a compiled flat Monte Carlo search of one decision with random playouts (agents/game_search.py
    # runs it instead of its Python loop): (views, seat, actions, simulations, seed, exploration,
    # margin_weight, scratch, visits, totals), visit counts and summed results per root action
    # into the last two; None: the Python loop over the batch kernels
    search_kernel: Callable[..., None] | None = None
    # (seat, words) for each move the engine made for its own participants (Toms, bots) since the
    # last action, public facts only; None when the game keeps no such log
    automatic_moves: Callable[[np.ndarray], list[tuple[int, str]]] | None = None
    # the setup keywords (config fields) of the single-agent, vector and VecEnv envs, with their
    # defaults: one learning seat (and its opponents) against these automatic participants
    env_defaults: dict[str, Any] = field(default_factory=dict)
    # the AEC env's setup keywords (config fields) with their defaults: every seat of the game
    aec_defaults: dict[str, Any] = field(default_factory=dict)
    # the training scripts' defaults that differ by game: ``training.train_ppo``'s periodic
    # evaluation, the ladder's rungs (``eval_levels``, Tiny York's Toms 1, 5, 9) and the match
    # opponents in every other seat (``eval_opponents``); ``training.expert_iteration``'s solo games
    # (``search_levels``) and ladder (``search_eval_levels``), all rungs where not given
    train_defaults: dict[str, Any] = field(default_factory=dict)
    legend: str = ""  # how to read ``render_text``'s board (the terminal game, the browser board)
    # the stage of play for people ("round 2/5, phase II", "auctions"): the terminal game shows
    # the whole board when it changes and what changed between; None: the board at every decision
    phase: Callable[[np.ndarray], str] | None = None
    # a few setups (``make_config`` keywords) that cover the game's player counts and automatic
    # participants, one with a single agent seat and one of agents only among them: the shared
    # tests, the benchmarks and the docs' examples play them
    example_setups: tuple[dict[str, Any], ...] = ()
    # (label, ``make_config`` keywords) of the setups the benchmarks measure and publish (engine,
    # AEC env); empty: the example setups, labelled by their keywords
    benchmark_setups: tuple[tuple[str, dict[str, Any]], ...] = ()
    # players -> the shipped trained policy of that setup, a file in agents/models (``ppo``, ``psearch``)
    shipped_policies: dict[int, str] = field(default_factory=dict)
    # a shipped policy file in agents/models that plays every setup of the game (Tiny York's
    # ``ppo.zip``): the network of ``ppo``, ``psearch`` and self-play's "ppo" start where
    # ``shipped_policies`` names none for the setup; None when the game has no such file
    default_policy: str | None = None
    # the shipped network of the game's champion (``agents.policy_search.ChampionAgent``), None where
    # the champion searches the shipped policy of the setup
    champion_policy: str | None = None
    board_defaults: tuple[Any, ...] = ()  # the automatic participants a new browser game starts with
    # how texts name a seat before its number: "seat 2"; every built-in game keeps this one naming
    seat_word: str = SEAT_WORD
    # a bound on the moves of one game for any config: every agent seat's decisions plus one
    # (OpenSpiel's max_game_length counts its deal); None when the game has not measured one
    max_decisions: int | None = None
    # a bound on every participant's final total, totals lying in 0..max_score (the "score"
    # reward's utility bounds: margins within +-max_score / score_scale, e.g. OpenSpiel's
    # min/max_utility); None when the game has not measured one
    max_score: int | None = None
    docs: Sequence[str] = ()  # the game's pages under docs/
    # the figures of the game its pages publish beside the standard matches of a game that ships a
    # policy per setup (``scripts/publish_runs.py`` plays both)
    published_runs: tuple[PublishedRun, ...] = ()
    # (a word the texts use, e.g. Tiny York's character number "23") -> what it means, for the
    # terminal game's "? 23"; None when it names nothing the game explains
    explain: Callable[[str], str | None] | None = None
    # (action, state) -> a note for people on what the things an option names do (Tiny York: the
    # characters of a start stack or display tile), "" when there is nothing to add
    option_note: Callable[[int, np.ndarray], str] | None = None
    # the compact observation (core/compact.py): each entry's denominator (the encoder writes a
    # whole quantity over it) and its multiplier into a byte (the denominator, over a step where a
    # quantity needs more than a byte); None: the game observes in float32 only, its batch module
    # binding no ``OBS_QUANTA``
    obs_denominators: np.ndarray | None = None
    obs_quanta: np.ndarray | None = None

    def __repr__(self) -> str:
        return f"<Game {self.name!r} ({self.title}) v{self.version}>"

    def option_text(self, action: int, state: np.ndarray) -> str:
        """``action`` in words, naming what it refers to in ``state`` where the game can."""
        if self.describe_option is not None:
            return self.describe_option(action, state)
        return self.describe_action(action)

    def places_of(self, action: int, state: np.ndarray) -> tuple[str, ...]:
        """The board places ``action`` refers to in ``state`` (``action_place``); empty for none."""
        return tuple(self.action_place(action, state)) if self.action_place is not None else ()

    def seat_name(self, seat: int) -> str:
        """A seat as the game's texts name it: "seat 2"."""
        return f"{self.seat_word}{seat}"

    def automatic_from(self, **given: Sequence[Any] | None) -> tuple[Any, ...]:
        """The automatic participants named by ``automatic=`` or by the keyword of this game's
        ``automatic_kind`` (``toms=`` for Tiny York, ``bots=`` for the others) as a tuple (empty
        when none names any); ValueError when another kind's keyword names any, or two name
        different ones."""
        named = {kind: values for kind, values in given.items() if values}
        for kind in named:
            if kind not in (AUTOMATIC_WORD, self.automatic_kind):
                raise ValueError(f"{kind} do not apply to {self.title}: its automatic participants are "
                                 f"{self.automatic_kind} ({self.automatic_kind}=...)")
        if len({tuple(values) for values in named.values()}) > 1:  # the same ones under two words: once
            raise ValueError(f"give the automatic participants once: {self.automatic_kind}= or "
                             f"{AUTOMATIC_WORD}=")
        return tuple(next(iter(named.values()), ()))

    def empty_mask(self) -> np.ndarray:
        """A bool array of ``num_actions`` for the mask kernels to fill."""
        return np.zeros(self.num_actions, dtype=np.bool_)


def verb_fields(api: Any) -> dict[str, Callable[..., Any]]:
    """The record's engine verbs (``VERB_FIELDS``) from a game's ``api`` module, which defines them
    under these names."""
    return {name: getattr(api, name) for name in VERB_FIELDS}


def placings_from_order(order: Sequence[int]) -> np.ndarray:
    """Placings (0 = first) from a strict order of seats, best first (no ties)."""
    out = np.empty(len(order), dtype=np.float64)
    for rank, seat in enumerate(order):
        out[seat] = rank
    return out


def placings_from_scores(scores: Sequence[float]) -> np.ndarray:
    """Placings (0 = first) by score, tied seats sharing the mean of the places they occupy."""
    scores = np.asarray(scores, dtype=np.float64)
    out = np.empty(len(scores), dtype=np.float64)
    for seat, value in enumerate(scores):
        above = int(np.sum(scores > value))
        tied = int(np.sum(scores == value))
        out[seat] = above + (tied - 1) / 2.0
    return out
