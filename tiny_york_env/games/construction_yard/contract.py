"""Construction Yard's game record for the registry (``tiny_york_env.contract.Game``)."""

from ...contract import Game, GameKernels
from ...core.labels import bot_label
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
from .rules import apply, apply_unchecked
from .state import STATE_DTYPE
from .text import render_text
from .validate import validate_state

SCORE_SCALE = 50.0  # the "score" reward: margin to the best other seat / 50 points


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
        config_type=GameConfig, make_config=GameConfig,
        num_agents=lambda config: config.num_agents,
        num_participants=lambda config: config.num_participants,
        config_params=api.config_params,
        seat_config=lambda agents, automatic: GameConfig(num_players=agents + len(automatic),
                                                         bots=tuple(automatic)),
        automatic_of=lambda config: tuple(config.bots),
        automatic_kind="bots",
        automatic_label=bot_label,
        automatic_choices=("greedy", "random"),
        state_dtype=STATE_DTYPE, num_actions=NUM_ACTIONS,
        new_game=api.new_game, current_player=api.current_player, legal_mask=api.legal_mask,
        apply_action=api.apply_action, step=api.step, is_terminal=api.is_terminal,
        final_scores=api.final_scores, winners=api.winners, placings=api.placings,
        score_breakdown=api.score_breakdown, describe_action=describe_action,
        pending_decision=api.pending_decision,
        render_text=render_text, determinize=determinize,
        validate_state=validate_state, save_state=save_state, load_state=load_state,
        automatic_moves=bot_moves_of,
        obs_size=observation.OBS_SIZE, encode=observation.encode,
        observation_space=observation.observation_space, obs_slices=observation.OBS_SLICES,
        kernels=GameKernels(
            init_record=kernels.init_record, fill_legal_mask=fill_legal_mask,
            apply_checked=apply, apply_unchecked=apply_unchecked, is_over=kernels.is_over,
            actor_of=kernels.actor_of, encode_record=observation.encode_record),
        batch_module="tiny_york_env.games.construction_yard.batch",
        score_scale=SCORE_SCALE, greedy_action=api.greedy_choice, board_svg=construction_yard_svg,
        render_rgb=render_rgb,
        greedy_playout=kernels.greedy_playout,
        env_defaults={"num_players": 2, "bots": ("greedy",)},
        aec_defaults={"num_players": 3, "bots": ()},
        train_defaults={"eval_levels": (), "eval_opponents": ("greedy", "random")},
        global_state=encode_global_state, global_state_space=global_state_space,
        benchmark_setups=(
            ("2 players + Dirk", {"num_players": 2}), ("3 players", {"num_players": 3}),
            ("4 players", {"num_players": 4}), ("6 players", {"num_players": 6}),
            ("1 agent vs 2 greedy", {"num_players": 3, "bots": ("greedy", "greedy")})),
        example_setups=(
            {"num_players": 2, "bots": ()}, {"num_players": 2, "bots": ("greedy",)},
            {"num_players": 3, "bots": ("random", "greedy")}, {"num_players": 4, "bots": ()},
            {"num_players": 6, "bots": ("greedy", "random")}),
        legend=LEGEND,
        shipped_policies={2: "construction_yard-2p.zip", 3: "construction_yard-3p.zip"},
        # Longest game measured: 559 agent decisions (5 agents, a policy that takes the action with the
        # longest random playouts), 436 in uniformly random games; with OpenSpiel's deal 560 moves, with
        # half as much again rounded up to a power of two. Measured with
        #   python scripts/measure_game_length.py --game construction_yard --games 2000 --seed 0 \
        #       --automatic random,greedy
        max_decisions=1024,
        max_score=observation.SCORE_CAP,  # the encoder's cap; the highest total measured above: 155
        docs=("docs/construction-yard.md", "docs/construction-yard-observation.md"),
    )
