"""Construction Yard's game record for the registry (``tiny_york_env.contract.Game``)."""

from ..contract import Game, GameKernels
from . import api, kernels, observation
from .actions import NUM_ACTIONS, describe_action
from .bot_moves import bot_moves_of
from .config import GameConfig
from .determinize import determinize
from .legal import fill_legal_mask
from .persist import load_state, save_state
from .rules import apply, apply_unchecked
from .state import STATE_DTYPE
from .text import render_text
from .validate import validate_state

SCORE_SCALE = 50.0  # the "score" reward: margin to the best other seat / 50 points


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
        state_dtype=STATE_DTYPE, num_actions=NUM_ACTIONS,
        new_game=api.new_game, current_player=api.current_player, legal_mask=api.legal_mask,
        apply_action=api.apply_action, step=api.step, is_terminal=api.is_terminal,
        final_scores=api.final_scores, winners=api.winners, placings=api.placings,
        score_breakdown=api.score_breakdown, describe_action=describe_action,
        render_text=render_text, determinize=determinize,
        validate_state=validate_state, save_state=save_state, load_state=load_state,
        automatic_moves=bot_moves_of,
        obs_size=observation.OBS_SIZE, encode=observation.encode,
        observation_space=observation.observation_space, obs_slices=observation.OBS_SLICES,
        kernels=GameKernels(
            init_record=kernels.init_record, fill_legal_mask=fill_legal_mask,
            apply_checked=apply, apply_unchecked=apply_unchecked, is_over=kernels.is_over,
            actor_of=kernels.actor_of, encode_record=observation.encode_record),
        batch_module="tiny_york_env.construction_yard.batch",
        score_scale=SCORE_SCALE, greedy_action=api.greedy_choice,
        greedy_playout=kernels.greedy_playout,
        env_defaults={"num_players": 2, "bots": ("greedy",)},
        docs=("docs/construction-yard.md", "docs/construction-yard-observation.md"),
    )
