"""5th Avenue's game record for the registry (``tiny_york_env.contract.Game``)."""

from ..contract import Game, GameKernels
from . import api, kernels, observation
from .actions import NUM_ACTIONS, describe_action
from .config import GameConfig
from .determinize import determinize
from .engine import apply, play
from .persist import load_state, save_state
from .rules import fill_legal_mask
from .state import STATE_DTYPE
from .text import bot_moves_of, render_text
from .validate import validate_state

SCORE_SCALE = 50.0  # the "score" reward: margin to the best other seat / 50 VP


def render_rgb(state):
    """The public table as a picture (``tiny_york_env.fifth_avenue_render``, imported on first use)."""
    from ..fifth_avenue_render import render_rgb as draw  # needs pillow; lives outside this package

    return draw(state)


def fifth_avenue_game() -> Game:
    """The record the adapters read (docs/games.md)."""
    return Game(
        name="fifth_avenue", title="5th Avenue", version="1", env_id="FifthAvenue-v0",
        aec_name="fifth_avenue_v0", rules_source="rules/fifth-avenue-rules-en.txt (docs/fifth-avenue.md)",
        automatic_participants="bots ('random', 'greedy') in the last seats; Alea bids and builds in every "
                               "two-player game (not a seat: he never scores)",
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
            apply_checked=apply, apply_unchecked=play, is_over=kernels.is_over,
            actor_of=kernels.actor_of, encode_record=observation.encode_record),
        batch_module="tiny_york_env.fifth_avenue.batch",
        score_scale=SCORE_SCALE, greedy_action=api.greedy_choice, greedy_playout=kernels.greedy_playout,
        render_rgb=render_rgb,
        env_defaults={"num_players": 2, "bots": ("greedy",)},
        docs=("docs/fifth-avenue.md",),
    )
