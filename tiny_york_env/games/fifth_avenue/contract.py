"""5th Avenue's game record for the registry (``tiny_york_env.contract.Game``)."""

from ...contract import Game, GameKernels, PublishedRun, verb_fields
from ...core.seats import bot_seat_fields
from . import api, kernels, observation
from .actions import NUM_ACTIONS, describe_action
from .board_svg import fifth_avenue_svg
from .bot_moves import bot_moves_of
from .config import GameConfig
from .determinize import determinize
from .engine import apply, play
from .global_state import encode_global_state, global_state_space
from .legal import fill_legal_mask
from .legend import LEGEND
from .persist import load_state, save_state
from .places import action_place
from .players import PLAYERS
from .state import STATE_DTYPE
from .text import phase_text, render_text
from .validate import validate_state

SCORE_SCALE = 50.0  # the "score" reward: margin to the best other seat / 50 VP

# The published figures beyond the standard matches (scripts/publish_runs.py): the search agents'
# matches (fewer games: a search decision costs milliseconds, psearch's far more), the champion's
# (seed 3) and the sequential test of the champion's search against its policy
PUBLISHED_RUNS = (
    PublishedRun("matches", "match", "search64-greedy", ("--vs", "search:64", "greedy"), 40),
    PublishedRun("matches", "match", "gsearch8-search8",
                 ("--vs", "gsearch:8", "search:8", "--seed", "1"), 30),
    PublishedRun("matches", "match", "psearch64-ppo", ("--vs", "psearch:64", "ppo", "--seed", "1"), 20),
    PublishedRun("champion", "ladder", "fifth-avenue-2p", ("--levels", "greedy,random"), 100, 50),
    PublishedRun("champion", "match", "fifth-avenue-2p-greedy-agent", ("--vs", "champion", "greedy"), 100),
    PublishedRun("champion", "match", "fifth-avenue-3p-greedy-bots",
                 ("--vs", "champion", "--bots", "greedy", "greedy"), 100),
    PublishedRun("comparisons", "compare", "5a-champion-greedy",
                 ("ppo", "champion", "--vs", "greedy", "--max-pairs", "400")),
)


def render_rgb(state):
    """The public table as a picture (``picture.py``, imported on first use: it needs pillow)."""
    from .picture import render_rgb as draw

    return draw(state)



def fifth_avenue_game() -> Game:
    """The record the adapters read (docs/games.md)."""
    return Game(
        name="fifth_avenue", title="5th Avenue", version="1", env_id="FifthAvenue-v0",
        aec_name="fifth_avenue_v0", rules_source="rules/fifth-avenue-rules-en.txt (docs/fifth-avenue.md)",
        automatic_participants="bots ('random', 'greedy') in the last seats; Alea bids and builds in every "
                               "two-player game (not a seat: he never scores)",
        **bot_seat_fields(GameConfig), config_params=api.config_params,
        automatic_choices=("greedy", "random"),
        state_dtype=STATE_DTYPE, num_actions=NUM_ACTIONS,
        **verb_fields(api), describe_action=describe_action,
        render_text=render_text, determinize=determinize,
        validate_state=validate_state, save_state=save_state, load_state=load_state,
        automatic_moves=bot_moves_of,
        obs_size=observation.OBS_SIZE, encode=observation.encode,
        observation_space=observation.observation_space, obs_slices=observation.OBS_SLICES,
        obs_denominators=observation.OBS_DENOMINATOR_VECTOR, obs_quanta=observation.OBS_QUANTA,
        kernels=GameKernels(
            init_record=kernels.init_record, fill_legal_mask=fill_legal_mask,
            apply_checked=apply, apply_unchecked=play, is_over=kernels.is_over,
            actor_of=kernels.actor_of, encode_record=observation.encode_record),
        batch_module="tiny_york_env.games.fifth_avenue.batch",
        score_scale=SCORE_SCALE, greedy_action=api.greedy_choice, players=PLAYERS,
        greedy_playout=kernels.greedy_playout,
        render_rgb=render_rgb, board_svg=fifth_avenue_svg, action_place=action_place,
        env_defaults={"num_players": 2, "bots": ("greedy",)},
        aec_defaults={"num_players": 3, "bots": ()},
        train_defaults={"eval_levels": (), "eval_opponents": ("greedy", "random"),
                        # training/recipes/game_agents.py: 120 rollouts of 16,384 steps for each player
                        # count, what one session's time allowed
                        "shipped_recipe": {"bc_games": 3000, "bc_epochs": 8, "eval_every": 491_520,
                                           "eval_games": 200, "steps": {2: 1_966_080, 3: 1_966_080}}},
        global_state=encode_global_state, global_state_space=global_state_space,
        benchmark_setups=(
            ("2 players + Alea", {"num_players": 2}), ("3 players", {"num_players": 3}),
            ("4 players", {"num_players": 4}),
            ("1 agent vs 2 greedy", {"num_players": 3, "bots": ("greedy", "greedy")})),
        example_setups=(
            {"num_players": 2, "bots": ()}, {"num_players": 3, "bots": ("random",)},
            {"num_players": 4, "bots": ()}, {"num_players": 4, "bots": ("greedy", "random")},
            {"num_players": 3, "bots": ("random", "random")}),
        legend=LEGEND, phase=phase_text,
        shipped_policies={2: "fifth_avenue-2p.zip", 3: "fifth_avenue-3p.zip"},
        # Longest game measured: 3,557 agent decisions (4 agents, a policy that takes the action with
        # the longest random playouts), 1,215 in uniformly random games; with OpenSpiel's deal 3,558
        # moves, with half as much again rounded up to a power of two. Measured with
        #   python scripts/measure_game_length.py --game fifth_avenue --games 2000 --seed 0 \
        #       --automatic random,greedy
        max_decisions=8192,
        # the highest total measured there: 573 (random games: 412), above the encoder's cap of 200;
        # with half as much again, rounded up
        max_score=1000,
        published_runs=PUBLISHED_RUNS,
        docs=("docs/fifth-avenue.md",),
    )
