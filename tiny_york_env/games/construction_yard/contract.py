"""Construction Yard's game record for the registry (``tiny_york_env.contract.Game``)."""

from ...contract import Game, GameKernels, PublishedRun, verb_fields
from ...core.seats import bot_seat_fields
from . import api, kernels, observation
from .actions import NUM_ACTIONS, describe_action
from .board_svg import construction_yard_svg
from .bot_moves import bot_moves_of
from .config import GameConfig
from .determinize import determinize
from .global_state import encode_global_state, global_state_space
from .legal import fill_legal_mask
from .legend import LEGEND
from .persist import load_state, save_state
from .places import action_place
from .players import PLAYERS
from .rules import apply, apply_unchecked
from .state import STATE_DTYPE
from .text import phase_text, render_text
from .validate import validate_state

SCORE_SCALE = 50.0  # the "score" reward: margin to the best other seat / 50 points

# The published figures beyond the standard matches (scripts/publish_runs.py): the champion's
# (seed 3) and the sequential test of the champion's search against its policy
PUBLISHED_RUNS = (
    PublishedRun("champion", "ladder", "construction-yard-2p", ("--levels", "greedy,random"), 200, 50),
    PublishedRun("champion", "match", "construction-yard-3p-greedy-bots",
                 ("--vs", "champion", "--bots", "greedy", "greedy"), 200),
    PublishedRun("champion", "match", "construction-yard-2p-greedy-agent",
                 ("--vs", "champion", "greedy"), 100),
    PublishedRun("comparisons", "compare", "cy-champion-greedy",
                 ("ppo", "champion", "--vs", "greedy", "--max-pairs", "400")),
)


def render_rgb(state):
    """The public table as a picture (``picture.py``, imported on first use: it needs pillow)."""
    from .picture import render_rgb as draw

    return draw(state)



def construction_yard_game() -> Game:
    """The record the adapters read (docs/games.md)."""
    return Game(
        name="construction_yard", title="Construction Yard", version="1",
        env_id="ConstructionYard-v0", aec_name="construction_yard_v0",
        rules_source="rules/construction-yard-rules-en.txt (docs/construction-yard.md)",
        automatic_participants="bots ('random', 'greedy') in the last seats; Dirk in every "
                               "two-player game (not a seat: he scores but never wins)",
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
            apply_checked=apply, apply_unchecked=apply_unchecked, is_over=kernels.is_over,
            actor_of=kernels.actor_of, encode_record=observation.encode_record),
        batch_module="tiny_york_env.games.construction_yard.batch",
        score_scale=SCORE_SCALE, greedy_action=api.greedy_choice, players=PLAYERS,
        board_svg=construction_yard_svg, action_place=action_place,
        render_rgb=render_rgb,
        greedy_playout=kernels.greedy_playout,
        env_defaults={"num_players": 2, "bots": ("greedy",)},
        aec_defaults={"num_players": 3, "bots": ()},
        train_defaults={"eval_levels": (), "eval_opponents": ("greedy", "random"),
                        # training/recipes/game_agents.py: the shipped policies were the checkpoints at
                        # 17,998,848 and 23,998,464 steps of runs meant for 40M, stopped for time once
                        # the periodic evaluations had levelled off; the steps below end on those weights
                        "shipped_recipe": {"bc_games": 4000, "bc_epochs": 10, "eval_every": 2_000_000,
                                           "eval_games": 400, "steps": {2: 17_989_632, 3: 23_986_176}}},
        global_state=encode_global_state, global_state_space=global_state_space,
        benchmark_setups=(
            ("2 players + Dirk", {"num_players": 2}), ("3 players", {"num_players": 3}),
            ("4 players", {"num_players": 4}), ("6 players", {"num_players": 6}),
            ("1 agent vs 2 greedy", {"num_players": 3, "bots": ("greedy", "greedy")})),
        example_setups=(
            {"num_players": 2, "bots": ()}, {"num_players": 2, "bots": ("greedy",)},
            {"num_players": 3, "bots": ("random", "greedy")}, {"num_players": 4, "bots": ()},
            {"num_players": 6, "bots": ("greedy", "random")}),
        legend=LEGEND, phase=phase_text,
        shipped_policies={2: "construction_yard-2p.zip", 3: "construction_yard-3p.zip"},
        # Longest game measured: 559 agent decisions (5 agents, a policy that takes the action with the
        # longest random playouts), 436 in uniformly random games; with OpenSpiel's deal 560 moves, with
        # half as much again rounded up to a power of two. Measured with
        #   python scripts/measure_game_length.py --game construction_yard --games 2000 --seed 0 \
        #       --automatic random,greedy
        max_decisions=1024,
        max_score=observation.SCORE_CAP,  # the encoder's cap; the highest total measured above: 155
        published_runs=PUBLISHED_RUNS,
        docs=("docs/construction-yard.md", "docs/construction-yard-observation.md"),
    )
