"""5th Avenue's automatic players ("bots"), compiled: random and greedy.

The greedy heuristic looks one decision ahead, in victory points (VP) the seat could score,
decision by decision:

- **Starting skyscraper.** The empty plot whose neighbours already show the most different
  business types (its VP per skyscraper now), ties by more businesses around it.
- **Option.** D (score a district) when the seat's own points there reach ``SCORE_THRESHOLD``
  and beat every other seat's; else A (3 skyscrapers) while fewer than ``LOW_SUPPLY`` wait on
  the summary card; else B (a business) when a placement gains the seat VP; else C. From turn
  ``HURRY_TURN`` on (beyond any game greedy players finish normally), B whenever it can, first:
  scoring one district again and again never ends a game, taking businesses does.
- **Business.** The supply-row business and the plot that raise the VP per skyscraper of the
  seat's own plots the most, less what they give the best other seat.
- **Coloured cards.** The two colours the seat holds most of (a bid is one colour plus black
  cards), ties by the higher top card.
- **Commissioner.** Back to City Hall (the auctions) once the seat's best bid would reach
  ``AUCTION_HAND``; else forward to the district whose best plot for the seat is worth most.
- **Bid.** The plot the bid is for (the one allowed colour where the seat builds already, else
  the most valuable allowed plot), worth its VP per skyscraper times what the seat can build;
  cards added while the bid stays within ``CARDS_PER_VP`` times that worth, the colour's lowest
  first, then black cards lowest first; finish once above the high bid, else pass. (A 6 caps
  the building at one skyscraper: adding black 4s before the colour's 6 would often build more.
  Left as it is: the shipped agents were trained against this bot.)
- **Build.** As many as allowed; a building stop instead when the district's skyscrapers
  (1 VP each for the declarer) beat what building would score.

Random picks uniformly among the legal actions with the record's generator. Both read only
what the seat may see (its own hand, the public board and counts).
"""

import numpy as np

from ...core.jit import jit
from ...core.rng import randbelow
from .actions import (
    BID_CARD,
    BID_FINISH,
    BID_PASS,
    BUILD,
    BUILDING_STOP,
    COLOUR_PAIRS,
    DEST_CITY_HALL,
    MAX_BUILD,
    MOVE,
    NUM_ACTIONS,
    NUM_DESTINATIONS,
    OPTION_A,
    OPTION_B,
    OPTION_C,
    PLACE_BUSINESS,
    PLACE_START,
    SCORE_DISTRICT,
    TAKE_ONE,
    TAKE_PAIR,
    TAKE_SPACE,
)
from .config import BOT_RANDOM
from .data import (
    CARD_VALUES,
    CENTRAL_PARK,
    MAX_BUSINESSES_PER_PLOT,
    NUM_BUSINESS_TYPES,
    NUM_CARD_COLOURS,
    NUM_CARD_VALUES,
    NUM_COMMISSIONERS,
    NUM_DISTRICTS,
    NUM_PLOTS,
    PLOT_ADJACENT,
    PLOT_COLOUR,
    PLOTS_PER_DISTRICT,
    SKYSCRAPERS_PICTURED,
    SUPPLY_ROW_SPACES,
    VP_BY_BUSINESS_TYPES,
)
from .rules import auction_place, can_take_business_plot, current_set, first_colour_allowed
from .scoring import business_count, district_points, is_empty_plot, own_plot, plot_value
from .state import (
    BLACK,
    DEC_BID,
    DEC_BUILD,
    DEC_BUSINESS_PLOT,
    DEC_BUSINESS_SPACE,
    DEC_COLOURED_CARDS,
    DEC_COMMISSIONER,
    DEC_OPTION,
    DEC_START_SKYSCRAPER,
    NO_BUSINESS,
    NO_CARD,
    NO_PLAYER,
    NUM_ROWS,
)

SCORE_THRESHOLD = 6  # VP from scoring one district that makes option D worth a turn
LOW_SUPPLY = 3  # take skyscrapers (A) while fewer wait on the summary card
AUCTION_HAND = 20  # the best bid total that makes the seat send a commissioner to City Hall
CARDS_PER_VP = 2.5  # the most card value the seat bids per VP it expects to build
PARK_VP = VP_BY_BUSINESS_TYPES[2]  # the VP a Central Park skyscraper is assumed to make
HURRY_TURN = 40  # greedy-only games ended by turn 36 (3 players, 1,499 of 1,500 seeds; one looped)
NO_ACTION = -1
NO_GAIN = -(1 << 30)  # below any gain, so the first legal choice is taken
FIRST_KEY_WEIGHT = 10  # two-part sort keys: the second part (a value index, businesses around) stays below it


@jit
def value_with_business(st, plot, business):
    """VP per skyscraper on ``plot`` if ``business`` were added next to it (``plot_value`` with
    one more tile)."""
    seen = np.zeros(NUM_BUSINESS_TYPES, np.bool_)
    seen[business] = True
    for q in range(NUM_PLOTS):
        if PLOT_ADJACENT[plot, q]:
            for k in range(MAX_BUSINESSES_PER_PLOT):
                t = st["plot_business"][q, k]
                if t != NO_BUSINESS:
                    seen[t] = True
    return VP_BY_BUSINESS_TYPES[np.sum(seen)]


@jit
def business_gain(st, seat, plot, business):
    """VP the seat's skyscrapers next to ``plot`` gain from ``business`` there, less the best
    other seat's gain."""
    gains = np.zeros(NUM_ROWS, np.int64)
    for q in range(NUM_PLOTS):
        owner = st["plot_owner"][q]
        if PLOT_ADJACENT[plot, q] and owner != NO_PLAYER:
            gains[owner] += st["plot_skyscrapers"][q] * (value_with_business(st, q, business)
                                                         - plot_value(st, q))
    best_other = 0
    for other in range(st["num_players"]):
        if other != seat:
            best_other = max(best_other, gains[other])
    return gains[seat] - best_other


@jit
def best_placement(st, seat, business, mask):
    """(gain, plot) of the best plot for ``business`` among ``mask``'s PLACE_BUSINESS actions."""
    best, best_plot = NO_GAIN, -1
    for p in range(NUM_PLOTS):
        if mask[PLACE_BUSINESS + p]:
            gain = business_gain(st, seat, p, business)
            if gain > best:
                best, best_plot = gain, p
    return best, best_plot


@jit
def placement_mask(st, mask):
    """The plots a business may go on (the rules' test), as PLACE_BUSINESS actions."""
    for p in range(NUM_PLOTS):
        mask[PLACE_BUSINESS + p] = can_take_business_plot(st, p)


@jit
def best_business(st, seat, spaces_mask):
    """(gain, space) of the best supply-row business among ``spaces_mask``'s spaces."""
    plots = np.zeros(NUM_ACTIONS, np.bool_)
    placement_mask(st, plots)
    best, best_space = NO_GAIN, -1
    for s in range(SUPPLY_ROW_SPACES):
        if spaces_mask[s]:
            gain, _ = best_placement(st, seat, st["supply_row"][s], plots)
            if gain > best:
                best, best_space = gain, s
    return best, best_space


@jit
def bid_target(st, seat):
    """(colour, worth in VP) of the plot the seat would bid for in the running auction: the
    allowed colour with the most VP per skyscraper (Central Park: ``PARK_VP``); colour NO_CARD
    when none is allowed or the seat holds no card of it."""
    place = auction_place(st)
    colour = st["bid_colour"][seat]
    build = min(MAX_BUILD, st["supply"][seat])
    if colour != NO_CARD:
        if place == CENTRAL_PARK:
            return colour, PARK_VP * build
        for p in range(place * PLOTS_PER_DISTRICT, (place + 1) * PLOTS_PER_DISTRICT):
            if PLOT_COLOUR[p] == colour:
                return colour, target_worth(st, seat, place, p, build)
    best, best_worth = NO_CARD, -1
    for c in range(NUM_CARD_COLOURS):
        if np.sum(st["hand"][seat, c]) == 0 or not first_colour_allowed(st, seat, c):
            continue
        if place == CENTRAL_PARK:
            worth = PARK_VP * build
        else:
            p = place * PLOTS_PER_DISTRICT
            for q in range(place * PLOTS_PER_DISTRICT, (place + 1) * PLOTS_PER_DISTRICT):
                if PLOT_COLOUR[q] == c:
                    p = q
            worth = target_worth(st, seat, place, p, build)
        if worth > best_worth:
            best, best_worth = c, worth
    return best, best_worth


@jit
def target_worth(st, seat, district, plot, build):
    """VP the seat expects from winning ``plot``: its skyscrapers there times their value, or
    for a building stop (a full district) the district's skyscrapers."""
    if st["district_full"] and own_plot(st, seat, district) < 0:
        total = 0
        for p in range(district * PLOTS_PER_DISTRICT, (district + 1) * PLOTS_PER_DISTRICT):
            total += st["plot_skyscrapers"][p]
        return total
    return plot_value(st, plot) * build


@jit
def bid_reach(st, seat, colour):
    """The highest total the seat could bid in ``colour`` (its cards of that colour and black)."""
    total = 0
    for v in range(NUM_CARD_VALUES):
        total += (st["hand"][seat, colour, v] + st["hand"][seat, BLACK, v]) * CARD_VALUES[v]
    return total


@jit
def choose_bid(st, seat, mask):
    """Finish, add the lowest allowed card of the target colour (black after the first), or pass."""
    if mask[BID_FINISH]:
        return BID_FINISH
    colour, worth = bid_target(st, seat)
    if colour == NO_CARD:
        return BID_PASS
    need = st["high_bid"] + 1
    if bid_reach(st, seat, colour) + st["bid_total"][seat] < need or need > CARDS_PER_VP * worth:
        return BID_PASS
    for v in range(NUM_CARD_VALUES):  # the colour's lowest card first, then black
        if mask[BID_CARD + colour * NUM_CARD_VALUES + v]:
            return BID_CARD + colour * NUM_CARD_VALUES + v
    for v in range(NUM_CARD_VALUES):
        if mask[BID_CARD + BLACK * NUM_CARD_VALUES + v]:
            return BID_CARD + BLACK * NUM_CARD_VALUES + v
    return BID_PASS


@jit
def choose_build(st, seat, mask):
    """The most skyscrapers allowed, or a building stop when it scores more."""
    most = NO_ACTION
    for k in range(MAX_BUILD + 1):
        if mask[BUILD + k]:
            most = BUILD + k
    if not mask[BUILDING_STOP]:
        return most
    if most == NO_ACTION:
        return BUILDING_STOP
    place = auction_place(st)
    total = 0
    for p in range(place * PLOTS_PER_DISTRICT, (place + 1) * PLOTS_PER_DISTRICT):
        total += st["plot_skyscrapers"][p]
    gain = (most - BUILD) * plot_value(st, st["build_plot"])
    return BUILDING_STOP if total > gain else most


@jit
def best_bid_total(st, seat):
    """The most the seat could bid in one colour with its black cards."""
    best = 0
    for c in range(NUM_CARD_COLOURS):
        if np.sum(st["hand"][seat, c]) > 0:
            best = max(best, bid_reach(st, seat, c))
    return best


@jit
def district_worth(st, seat, d):
    """The best plot of district ``d`` for the seat: its own plot's value, or an empty plot's."""
    own = own_plot(st, seat, d)
    if own >= 0:
        return plot_value(st, own) * (1 + st["plot_skyscrapers"][own])
    best = 0
    for p in range(d * PLOTS_PER_DISTRICT, (d + 1) * PLOTS_PER_DISTRICT):
        if is_empty_plot(st, p):
            best = max(best, plot_value(st, p))
    return best


@jit
def choose_move(st, seat, mask):
    """City Hall when the hand is ready for auctions; else the district worth most."""
    best, best_worth = NO_ACTION, -1
    for c in range(NUM_COMMISSIONERS):
        home = MOVE + c * NUM_DESTINATIONS + DEST_CITY_HALL
        if mask[home] and best_bid_total(st, seat) >= AUCTION_HAND:
            return home
        for dest in range(NUM_DESTINATIONS):
            a = MOVE + c * NUM_DESTINATIONS + dest
            if not mask[a]:
                continue
            worth = district_worth(st, seat, dest) if dest < NUM_DISTRICTS else 0
            if worth > best_worth:
                best, best_worth = a, worth
    return best


@jit
def choose_cards(st, seat, mask):
    """The pair of colours held most (ties: the higher top cards); the one colour left else."""
    best, best_key = NO_ACTION, -1
    for k in range(len(COLOUR_PAIRS)):
        if mask[TAKE_PAIR + k]:
            first, second = COLOUR_PAIRS[k]
            key = colour_key(st, seat, first) + colour_key(st, seat, second)
            if key > best_key:
                best, best_key = TAKE_PAIR + k, key
    for c in range(NUM_CARD_COLOURS):
        if mask[TAKE_ONE + c]:
            return TAKE_ONE + c
    return best


@jit
def colour_key(st, seat, colour):
    """How much the seat wants a card of ``colour``: cards held (x10), then the top card's value."""
    count = st["coloured_count"][colour]
    top = st["coloured_stack"][colour, count - 1] if count > 0 else 0
    return FIRST_KEY_WEIGHT * np.sum(st["hand"][seat, colour]) + top


@jit
def choose_option(st, seat, mask):
    """D, A, B or C by the module doc's order."""
    if mask[OPTION_B] and st["turn"] >= HURRY_TURN:
        return OPTION_B
    best_d, best_points = NO_ACTION, SCORE_THRESHOLD - 1
    for d in range(NUM_DISTRICTS):
        if mask[SCORE_DISTRICT + d]:
            mine = district_points(st, seat, d)
            others = 0
            for other in range(st["num_players"]):
                if other != seat:
                    others = max(others, district_points(st, other, d))
            if mine > best_points and mine > others:
                best_d, best_points = SCORE_DISTRICT + d, mine
    if best_d != NO_ACTION:
        return best_d
    if mask[OPTION_A] and st["supply"][seat] < LOW_SUPPLY:
        return OPTION_A
    if mask[OPTION_B]:
        spaces = np.zeros(SUPPLY_ROW_SPACES, np.bool_)
        start, end = current_set(st)
        for s in range(max(start, 0), max(end, 0)):
            spaces[s] = st["supply_row"][s] != NO_BUSINESS
        if best_business(st, seat, spaces)[0] > 0:
            return OPTION_B
    return OPTION_C


@jit
def choose_start(st, mask):
    """The empty plot with the most business types around it (ties: the most businesses)."""
    best, best_key = NO_ACTION, -1
    for p in range(NUM_PLOTS):
        if mask[PLACE_START + p]:
            around = 0
            for q in range(NUM_PLOTS):
                if PLOT_ADJACENT[p, q]:
                    around += business_count(st, q)
            key = FIRST_KEY_WEIGHT * plot_value(st, p) + around
            if key > best_key:
                best, best_key = PLACE_START + p, key
    return best


@jit
def first_legal(mask):
    """The lowest legal action (a fallback that cannot fail while any is legal)."""
    for a in range(NUM_ACTIONS):
        if mask[a]:
            return a
    return NO_ACTION


@jit
def greedy_decision(st, mask):
    """The greedy heuristic's choice for the pending decision (module doc), or NO_ACTION."""
    seat = st["actor"]
    d = st["decision"]
    if d == DEC_START_SKYSCRAPER:
        return choose_start(st, mask)
    if d == DEC_OPTION:
        return choose_option(st, seat, mask)
    if d == DEC_BUSINESS_SPACE:
        spaces = np.zeros(SUPPLY_ROW_SPACES, np.bool_)
        for s in range(SUPPLY_ROW_SPACES):
            spaces[s] = mask[TAKE_SPACE + s]
        return TAKE_SPACE + best_business(st, seat, spaces)[1]
    if d == DEC_BUSINESS_PLOT:
        return PLACE_BUSINESS + best_placement(st, seat, st["held_business"], mask)[1]
    if d == DEC_COLOURED_CARDS:
        return choose_cards(st, seat, mask)
    if d == DEC_COMMISSIONER:
        return choose_move(st, seat, mask)
    if d == DEC_BID:
        return choose_bid(st, seat, mask)
    if d == DEC_BUILD:
        return choose_build(st, seat, mask)
    return NO_ACTION


@jit
def greedy_action(st, mask):
    """The greedy heuristic's action (module doc): one ``mask`` allows, NO_ACTION only for an
    empty mask (never in a live game)."""
    a = greedy_decision(st, mask)
    if a < 0 or a >= NUM_ACTIONS or not mask[a]:
        return first_legal(mask)
    return a


@jit
def random_action(st, mask):
    """A uniformly random legal action, from the record's generator; NO_ACTION for an empty mask."""
    legal = np.sum(mask)
    if legal == 0:
        return NO_ACTION
    k = randbelow(st["rng"], legal)
    for a in range(NUM_ACTIONS):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return NO_ACTION


@jit
def bot_action(st, mask):
    """The action of the bot in the actor's seat (``mask``: its legal actions)."""
    if st["bot_kind"][st["actor"]] == BOT_RANDOM:
        return random_action(st, mask)
    return greedy_action(st, mask)


assert SKYSCRAPERS_PICTURED[0] == MAX_BUILD  # bids start with the lowest card (most pictured)
