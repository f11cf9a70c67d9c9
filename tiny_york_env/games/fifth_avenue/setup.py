"""5th Avenue's set-up ("PREPARATION"; "Special rules for 2 players"), up to the first decision:
the first starting skyscraper.

Seat 0 is the starting player ("the youngest (or starting player, chosen in any way the players
want)"); play runs clockwise by seat number, so a player's right neighbour is the seat before.
"""

import numpy as np

from ...core.jit import jit
from ...core.rng import randbelow, seed_rng
from .config import BOT_RANDOM
from .data import (
    ALEA_PLAYERS,
    BLACK_PER_VALUE,
    BUSINESSES_PER_TYPE,
    CITY_HALL,
    COLOURED_PER_VALUE,
    MAX_PLAYERS,
    NUM_BUSINESS_TYPES,
    NUM_CARD_COLOURS,
    NUM_CARD_VALUES,
    NUM_DISTRICTS,
    NUM_PLOTS,
    PLOT_COLOUR,
    PLOTS_PER_DISTRICT,
    SKYSCRAPERS_PER_COLOUR,
    START_BLACK_CARDS,
    START_ON_BOARD,
    START_SCORING_MARKER,
    START_SUPPLY,
    SUPPLY_ROW_SPACES,
)
from .state import (
    ALEA_ROW,
    BLACK,
    CARDS_PER_COLOUR,
    DEC_START_SKYSCRAPER,
    NO_BUSINESS,
    NO_CARD,
    NO_OPTION,
    NO_PLAYER,
    NO_PLOT,
    NUM_BLACK,
)

NUM_BUSINESSES = NUM_BUSINESS_TYPES * BUSINESSES_PER_TYPE
MAX_PLOTS_PER_COLOUR_AT_SETUP = 2  # "none are placed so that more than two plots of a color are used"


@jit
def shuffle(cards, count, rng):
    """Fisher-Yates shuffle of ``cards[:count]`` with the record's generator."""
    for k in range(count - 1, 0, -1):
        j = randbelow(rng, k + 1)
        cards[k], cards[j] = cards[j], cards[k]


@jit
def draw_coloured(st, colour):
    """The top card (a value index) of a coloured stack, or -1 when it is empty."""
    n = st["coloured_count"][colour]
    if n == 0:
        return -1
    st["coloured_count"][colour] = n - 1
    return st["coloured_stack"][colour, n - 1]


@jit
def draw_black(st):
    """The top black card, shuffling the face-up returned cards in when the face-down part is
    used up ("As soon as the first face up card is encountered in the black stack, it is
    shuffled and placed face down"); -1 when there is none at all."""
    if st["black_count"] == 0 and st["black_returned_count"] > 0:
        for k in range(st["black_returned_count"]):
            st["black_stack"][k] = st["black_returned"][k]
            st["black_returned"][k] = -1
        st["black_count"] = st["black_returned_count"]
        st["black_returned_count"] = 0
        shuffle(st["black_stack"], st["black_count"], st["rng"])
    n = st["black_count"]
    if n == 0:
        return -1
    st["black_count"] = n - 1
    card = st["black_stack"][n - 1]
    st["black_stack"][n - 1] = -1
    return card


@jit
def placing_seat(start, n, step):
    """The seat placing starting skyscraper ``step`` (0..2n-1): first round from the starting
    player counter-clockwise, second round clockwise from the last ("Anna - Kevin - Ken -
    Alfonzo" then "Alfonzo - Ken - Kevin - Anna")."""
    if step < n:
        return (start - step) % n
    return (start + 1 + step - n) % n


@jit
def _setup_colour(uses, districts_left, rng):
    """A plot colour for the next district's business: every colour used at least once over the
    7 districts and none more than twice, uniformly among the colours that keep that possible."""
    unused = 0
    for c in range(NUM_CARD_COLOURS):
        if uses[c] == 0:
            unused += 1
    allowed = 0
    for c in range(NUM_CARD_COLOURS):
        if (uses[c] == 0 or (unused < districts_left and uses[c] < MAX_PLOTS_PER_COLOUR_AT_SETUP)):
            allowed += 1
    k = randbelow(rng, allowed)
    for c in range(NUM_CARD_COLOURS):
        if uses[c] == 0 or (unused < districts_left and uses[c] < MAX_PLOTS_PER_COLOUR_AT_SETUP):
            if k == 0:
                return c
            k -= 1
    return -1


@jit
def deal_businesses(st, tiles):
    """One business face up on a plot of each district, 20 on the supply row in the order drawn,
    the rest back in the box unseen ("PREPARATION")."""
    n = 0
    for t in range(NUM_BUSINESS_TYPES):
        for _ in range(BUSINESSES_PER_TYPE):
            tiles[n] = t
            n += 1
    shuffle(tiles, NUM_BUSINESSES, st["rng"])
    for p in range(NUM_PLOTS):
        for k in range(st["plot_business"].shape[1]):
            st["plot_business"][p, k] = NO_BUSINESS
    uses = np.zeros(NUM_CARD_COLOURS, np.int64)
    for d in range(NUM_DISTRICTS):
        colour = _setup_colour(uses, NUM_DISTRICTS - d, st["rng"])
        uses[colour] += 1
        for p in range(d * PLOTS_PER_DISTRICT, (d + 1) * PLOTS_PER_DISTRICT):
            if PLOT_COLOUR[p] == colour:
                st["plot_business"][p, 0] = tiles[d]
    for s in range(SUPPLY_ROW_SPACES):
        st["supply_row"][s] = tiles[NUM_DISTRICTS + s]
    for k in range(NUM_DISTRICTS + SUPPLY_ROW_SPACES, NUM_BUSINESSES):
        st["unused_business"][tiles[k]] += 1
    for k in range(st["park_business"].shape[0]):
        st["park_business"][k] = NO_BUSINESS


@jit
def deal_cards(st, n):
    """The coloured stacks and the black stack shuffled; each player one card of each colour and
    4 black cards ("Each player draws one card of each color as his starting hand")."""
    for c in range(NUM_CARD_COLOURS):
        k = 0
        for v in range(NUM_CARD_VALUES):
            for _ in range(COLOURED_PER_VALUE[v]):
                st["coloured_stack"][c, k] = v
                k += 1
        st["coloured_count"][c] = CARDS_PER_COLOUR
        shuffle(st["coloured_stack"][c], CARDS_PER_COLOUR, st["rng"])
    k = 0
    for v in range(NUM_CARD_VALUES):
        for _ in range(BLACK_PER_VALUE[v]):
            st["black_stack"][k] = v
            k += 1
    st["black_count"] = NUM_BLACK
    shuffle(st["black_stack"], NUM_BLACK, st["rng"])
    for k in range(NUM_BLACK):
        st["black_returned"][k] = -1
    for seat in range(n):
        for c in range(NUM_CARD_COLOURS):
            st["hand"][seat, c, draw_coloured(st, c)] += 1
        for _ in range(START_BLACK_CARDS):
            st["hand"][seat, BLACK, draw_black(st)] += 1


@jit
def clear_turn_fields(st):
    """The turn's and the auctions' fields start empty (no option, business, bid or plot), not
    as zeros that name a first option, business type, colour or seat."""
    st["option"] = NO_OPTION
    st["held_business"] = NO_BUSINESS
    st["high_bidder"] = NO_PLAYER
    st["park_colour"] = NO_CARD
    st["build_plot"] = NO_PLOT
    for row in range(st["bid_colour"].shape[0]):
        st["bid_colour"][row] = NO_CARD


@jit
def init_game(st, num_players, num_agents, seed, tiles):
    """A fresh game on a zeroed record up to the first decision (``tiles``: int64 scratch of 36)."""
    seed_rng(st["rng"], seed)
    n = num_players
    st["num_players"] = n
    st["num_agents"] = num_agents
    for seat in range(num_agents, n):
        st["bot_kind"][seat] = BOT_RANDOM  # the last seats: the engine's random bots
    st["has_alea"] = 1 if n == ALEA_PLAYERS else 0
    st["alea_colour"] = n if n == ALEA_PLAYERS else NO_PLAYER  # an unchosen colour
    deal_businesses(st, tiles)
    deal_cards(st, n)
    for p in range(st["plot_owner"].shape[0]):
        st["plot_owner"][p] = NO_PLAYER
    for seat in range(MAX_PLAYERS):
        if seat < n:
            st["supply"][seat] = START_SUPPLY
            st["general"][seat] = (SKYSCRAPERS_PER_COLOUR - START_SCORING_MARKER - START_ON_BOARD
                                   - START_SUPPLY)
    if st["has_alea"]:
        st["general"][ALEA_ROW] = SKYSCRAPERS_PER_COLOUR
    for c in range(st["commissioner_place"].shape[0]):
        st["commissioner_place"][c] = CITY_HALL
        for k in range(st["commissioner_markers"].shape[1]):
            st["commissioner_markers"][c, k] = -1
    clear_turn_fields(st)
    st["start_player"] = 0
    st["placing_step"] = 0
    st["decision"] = DEC_START_SKYSCRAPER
    st["actor"] = placing_seat(0, n, 0)
