"""Tiny York's game record for the registry (``tiny_york_env.contract.Game``)."""

from ...contract import Game, GameKernels, PublishedRun, verb_fields
from . import (
    NUM_ACTIONS,
    STATE_DTYPE,
    GameConfig,
    api,
    describe_action,
    determinize,
    global_state,
    kernels,
    legal,
    load_state,
    observation,
    render_text,
    rules,
    save_state,
    search,
    tom_events_of,
    validate_state,
)
from .board_svg import tiny_york_svg
from .character_texts import explain_term, option_note
from .config import NUM_TOM_LEVELS, tom_label
from .greedy import greedy_action
from .legend import LEGEND
from .places import action_place
from .players import PLAYERS
from .text import phase_text

SCORE_SCALE = 50.0  # the "score" reward: margin to the best other participant / 50 points

# The published figures beyond the standard ones (scripts/publish_runs.py): the champion's ladder by
# its playouts (seed 3, resumable parts of 100) and the sequential tests of expert iteration's first
# generation alone against the shipped PPO network
PUBLISHED_RUNS = (
    PublishedRun("champion", "ladder", "tiny-york-tom10-tom12", ("--levels", "12,10"), 400, 100),
    PublishedRun("champion", "ladder", "tiny-york-tom1-6", ("--levels", "6,5,4,3,2,1"), 100, 100),
    PublishedRun("champion", "ladder", "tiny-york-tom7-11", ("--levels", "11,9,8,7"), 400, 100),
    PublishedRun("comparisons", "compare", "gen1-alone-tom12",
                 ("ppo", "ppo:agents/models/champion.zip", "--vs", "12")),
    PublishedRun("comparisons", "compare", "gen1-alone-tom10",
                 ("ppo", "ppo:agents/models/champion.zip", "--vs", "10")),
)


def tiny_york_game() -> Game:
    """The record the adapters read (docs/games.md)."""
    def render_rgb(state):
        from .picture import render_rgb as draw  # pillow is only needed for pictures

        return draw(state)

    return Game(
        name="tiny_york", title="Tiny York", version="1", env_id="TinyYork-v0",
        aec_name="tiny_york_v0", rules_source="rules/rulebook-en.txt (docs/rules.md)",
        automatic_participants="Toms (levels 1-12 or codes like 'B4'), after the agent seats",
        config_type=GameConfig, make_config=GameConfig,
        num_agents=lambda config: config.num_agents,
        num_participants=lambda config: config.num_participants,
        config_params=api.config_params,
        seat_config=lambda agents, automatic: GameConfig(num_agents=agents, toms=tuple(automatic)),
        automatic_of=lambda config: tuple(config.toms),
        automatic_kind="toms",
        automatic_label=tom_label,
        automatic_choices=tuple(range(1, NUM_TOM_LEVELS + 1)),
        state_dtype=STATE_DTYPE, num_actions=NUM_ACTIONS,
        **verb_fields(api), describe_action=describe_action,
        render_text=render_text, determinize=determinize,
        validate_state=validate_state, save_state=save_state, load_state=load_state,
        automatic_moves=tom_events_of,
        obs_size=observation.OBS_SIZE, encode=observation.encode,
        observation_space=observation.observation_space, obs_slices=observation.OBS_SLICES,
        obs_denominators=observation.OBS_DENOMINATOR_VECTOR, obs_quanta=observation.OBS_QUANTA,
        kernels=GameKernels(
            init_record=kernels.init_record, fill_legal_mask=legal.fill_legal_mask,
            apply_checked=rules.apply, apply_unchecked=rules.apply_unchecked,
            is_over=kernels.is_over, actor_of=kernels.actor_of,
            encode_record=observation.encode_record),
        batch_module=f"{__package__}.batch",
        score_scale=SCORE_SCALE, render_rgb=render_rgb, board_svg=tiny_york_svg, action_place=action_place,
        search_kernel=search.search_kernel, greedy_action=greedy_action, players=PLAYERS,
        describe_option=describe_action,
        global_state=global_state.encode_global_state,
        global_state_space=global_state.global_state_space,
        env_defaults={"toms": (5,)},
        aec_defaults={"num_agents": 2, "toms": ()},
        train_defaults={"eval_levels": (1, 5, 9), "eval_opponents": (),
                        "search_levels": (1, 4, 7, 10, 12), "search_eval_levels": (5, 10, 12)},
        benchmark_setups=(
            ("2 agents", {"num_agents": 2}), ("3 agents", {"num_agents": 3}), ("4 agents", {"num_agents": 4}),
            ("1 agent vs Tom 5", {"num_agents": 1, "toms": (5,)}),
            ("2 agents + Tom 12", {"num_agents": 2, "toms": (12,)})),
        example_setups=(
            {"num_agents": 2, "toms": ()}, {"num_agents": 1, "toms": (5,)},
            {"num_agents": 3, "toms": ("C9",)}, {"num_agents": 1, "toms": (12, 3)},
            {"num_agents": 4, "toms": ()}),
        legend=LEGEND, phase=phase_text, board_defaults=(5,), explain=explain_term, option_note=option_note,
        default_policy="ppo.zip", champion_policy="champion.zip",  # agents/models (docs/champion.md)
        # Longest games measured (docs/openspiel.md): 503 agent decisions in 16,000 uniformly random
        # games (2,000 for each of 8 setups, 1-4 agents, with and without Toms), 532 in 3,000 games of
        # a policy that never stops a bid, a build, a turn or an ability while it may go on; always
        # with 4 agents (Toms play inside the engine and take no decisions). With OpenSpiel's deal,
        # 533 moves; rounded up to a power of two, about twice that. Measured again with
        #   python scripts/measure_game_length.py --game tiny_york --games 2000 --seed 0
        # 506 random, 536 never stopping, 547 with the longest-playout policy: 548 moves, the same bound.
        max_decisions=1024,
        # totals are >= 0 and none has come near the encoder's cap (16,000 random games: 14-138)
        max_score=observation.POINTS_CAP,
        published_runs=PUBLISHED_RUNS,
        docs=("docs/rules.md", "docs/actions.md", "docs/observation.md", "docs/global-state.md"),
    )
