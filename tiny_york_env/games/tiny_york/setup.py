"""A new game: rulebook setup steps 1-17 with R1, R4 and R5."""

import numpy as np

from ...core.jit import jit
from ...core.rng import randbelow, seed_rng
from .cards import draw_to_reserve
from .components import (
    BASE_VALUES,
    CARDS_PER_TYPE,
    MAX_SEATS,
    NEUTRAL,
    NEUTRAL_PRESS_START,
    NEUTRAL_SKYSCRAPERS_PER_BOROUGH,
    NUM_BOROUGHS,
    NUM_CARD_TYPES,
    NUM_PRESTIGE_TILES,
    NUM_START_STACKS,
    NUM_VESSELS,
    SEQUENCE_X,
    START_BOARD_SKYSCRAPERS,
    START_DOLLARS,
    START_RESERVE,
)
from .elevator import shuffle_elevator_stacks
from .press import reverse_agent_press_order
from .state import (
    EMPTY,
    LOC_START_STACK,
    NO_SEAT,
    PRESTIGE_IN_STACK,
    STACK_HIDDEN,
    STACK_REVEALED,
    STAGE_START_CHARACTERS,
    VESSEL_ON_BOARD,
)


@jit
def shuffle_in_place(st, arr, n):
    """Fisher-Yates shuffle of ``arr[:n]`` with the record's generator."""
    for i in range(n - 1, 0, -1):
        j = randbelow(st["rng"], i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp


@jit
def _setup_start_stacks(st):
    """Setup step 4 and R4: six stacks of one value-1 and one value-5 start tile; reveal
    participants + 1 stacks without Toms, one per participant with Toms."""
    low = np.arange(NUM_START_STACKS)
    high = np.arange(NUM_START_STACKS) + NUM_START_STACKS
    shuffle_in_place(st, low, NUM_START_STACKS)
    shuffle_in_place(st, high, NUM_START_STACKS)
    has_tom = st["num_agents"] < st["num_seats"]
    revealed = st["num_seats"] if has_tom else st["num_seats"] + 1
    for k in range(NUM_START_STACKS):
        st["start_stacks"][k, 0] = low[k]
        st["start_stacks"][k, 1] = high[k]
        for tile in (low[k], high[k]):
            st["tile_loc"][tile] = LOC_START_STACK
            st["tile_owner"][tile] = NO_SEAT
        st["start_stack_status"][k] = STACK_REVEALED if k < revealed else STACK_HIDDEN


@jit
def _setup_board(st):
    """Setup steps 5-9 and 12: sequence and base tiles, prestige stack, vessels, neutrals."""
    sequence = np.arange(NUM_BOROUGHS)
    shuffle_in_place(st, sequence, NUM_BOROUGHS)
    base = BASE_VALUES.copy()
    shuffle_in_place(st, base, NUM_BOROUGHS)
    for b in range(NUM_BOROUGHS):
        st["borough_sequence"][b] = sequence[b]
        st["borough_base"][b] = base[b]
        st["borough_prestige"][b] = 0
        st["skyscrapers"][b, NEUTRAL] = NEUTRAL_SKYSCRAPERS_PER_BOROUGH
    for k in range(NUM_PRESTIGE_TILES):
        st["prestige_stack"][k] = k
        st["prestige_loc"][k] = PRESTIGE_IN_STACK
    shuffle_in_place(st, st["prestige_stack"], NUM_PRESTIGE_TILES)
    st["prestige_next"] = 0
    for k in range(st["prestige_revealed"].shape[0]):
        st["prestige_revealed"][k] = EMPTY
    st["statue_flipped"] = 0
    for v in range(NUM_VESSELS):
        st["vessel_owner"][v] = VESSEL_ON_BOARD
    st["mayor"] = -1


@jit
def _setup_cards(st):
    """Setup step 11: the 105 cards shuffled into the draw pile."""
    n = 0
    for t in range(NUM_CARD_TYPES):
        for _ in range(CARDS_PER_TYPE):
            st["draw_pile"][n] = t
            n += 1
    shuffle_in_place(st, st["draw_pile"], n)
    st["draw_count"] = n


@jit
def _setup_participants(st):
    """Setup steps 12, 14 and 15 with R5: press tokens in random order on space 0, the neutral
    token on 8/7/6, one skyscraper on the X borough each; agents get 4 board skyscrapers,
    1 dollar and a 2-card reserve, Toms none of those."""
    n = st["num_seats"]
    x_borough = 0
    for b in range(NUM_BOROUGHS):
        if st["borough_sequence"][b] == SEQUENCE_X:
            x_borough = b
    heights = np.arange(n) + 1
    shuffle_in_place(st, heights, n)
    for seat in range(n):
        st["press_space"][seat] = 0
        st["press_height"][seat] = heights[seat]
        st["skyscrapers"][x_borough, seat] = 1
        if st["is_tom"][seat] == 0:
            st["board_skyscrapers"][seat] = START_BOARD_SKYSCRAPERS
            st["dollars"][seat] = START_DOLLARS
            st["reserve_size"][seat] = START_RESERVE
    st["press_moves"] = n
    st["press_space"][NEUTRAL] = NEUTRAL_PRESS_START[n]
    st["press_height"][NEUTRAL] = 0
    for seat in range(n):
        if st["is_tom"][seat] == 0:
            draw_to_reserve(st, seat, START_RESERVE)


@jit
def init_game(st, num_agents, num_toms, tom_modes, tom_draws, tom_levels, seed):
    """Fill a zeroed record with a new game (setup steps 1-15), up to the start-character draft."""
    st["num_agents"] = num_agents
    st["num_seats"] = num_agents + num_toms
    for seat in range(MAX_SEATS):
        st["is_tom"][seat] = 1 if num_agents <= seat < num_agents + num_toms else 0
        if st["is_tom"][seat] != 0:
            st["tom_mode"][seat] = tom_modes[seat - num_agents]
            st["tom_draw"][seat] = tom_draws[seat - num_agents]
            st["tom_level"][seat] = tom_levels[seat - num_agents]
    seed_rng(st["rng"], seed)
    shuffle_elevator_stacks(st)
    _setup_start_stacks(st)
    _setup_board(st)
    _setup_cards(st)
    _setup_participants(st)
    for p in range(st["pairs"].shape[0]):
        st["pairs"][p, 0] = EMPTY
        st["pairs"][p, 1] = EMPTY
    st["actor"] = NO_SEAT
    st["winner"] = NO_SEAT
    st["bonus_winner"] = NO_SEAT
    st["runner_up"] = NO_SEAT
    st["round"] = 0
    st["stage"] = STAGE_START_CHARACTERS
    st["cursor"] = 0
    reverse_agent_press_order(st, st["order"])
