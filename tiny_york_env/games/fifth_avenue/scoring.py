"""5th Avenue's board values and scorings: plots and districts, a district's scoring, the special
scorings and the final scoring with the tie rule ("Scoring a district"; "Special scorings";
"GAME END"). ``rules.py`` plays the turn and calls them. Readings of the text: docs/fifth-avenue.md.
"""

import numpy as np

from ...core.jit import jit
from .data import (
    MAX_BUSINESSES_PER_PLOT,
    NEXT_TABLE,
    NUM_BUSINESS_TYPES,
    NUM_DISTRICTS,
    NUM_PLOTS,
    PARK_TILES_TURNED,
    PLOT_ADJACENT,
    PLOTS_PER_DISTRICT,
    SPECIAL_SCORINGS,
    VP_BY_BUSINESS_TYPES,
)
from .setup import shuffle
from .state import DEC_GAME_OVER, NO_BUSINESS, NO_PLAYER

MAX_NEXT = 4  # a place's next places, building stops skipped (Times Square's two, each skipped: 2)
NEXT = NEXT_TABLE  # data.NEXT_PLACES for compiled code (fig. 02-04)


# --- the board ---------------------------------------------------------------------------------
@jit
def next_places(st, place, out):
    """The places a commissioner on ``place`` may move to, stopped districts skipped over
    ("the player simply skips over the building stopped district"); how many, into ``out``."""
    n = 0
    todo = np.empty(2 * MAX_NEXT * MAX_NEXT, np.int64)
    m = 0
    for k in range(NEXT.shape[1]):
        if NEXT[place + 1, k] >= 0:
            todo[m] = NEXT[place + 1, k]
            m += 1
    while m > 0:
        m -= 1
        p = todo[m]
        if p < NUM_DISTRICTS and st["stopped"][p]:
            for k in range(NEXT.shape[1]):
                if NEXT[p + 1, k] >= 0:
                    todo[m] = NEXT[p + 1, k]
                    m += 1
            continue
        seen = False
        for j in range(n):
            seen = seen or out[j] == p
        if not seen:
            out[n] = p
            n += 1
    return n


@jit
def business_count(st, plot):
    n = 0
    for k in range(MAX_BUSINESSES_PER_PLOT):
        if st["plot_business"][plot, k] != NO_BUSINESS:
            n += 1
    return n


@jit
def is_empty_plot(st, plot):
    """'an empty building plot': no business and no skyscraper."""
    return business_count(st, plot) == 0 and st["plot_owner"][plot] == NO_PLAYER


@jit
def own_plot(st, row, district):
    """The plot where ``row`` has skyscrapers in ``district`` (one per district), or -1."""
    for p in range(district * PLOTS_PER_DISTRICT, (district + 1) * PLOTS_PER_DISTRICT):
        if st["plot_owner"][p] == row and st["plot_skyscrapers"][p] > 0:
            return p
    return -1


@jit
def plot_value(st, plot):
    """VP per skyscraper on ``plot``: by the number of different business types directly
    adjacent ("If a skyscraper is adjacent to several businesses of the same type, only one
    counts")."""
    seen = np.zeros(NUM_BUSINESS_TYPES, np.bool_)
    for q in range(NUM_PLOTS):
        if PLOT_ADJACENT[plot, q]:
            for k in range(MAX_BUSINESSES_PER_PLOT):
                t = st["plot_business"][q, k]
                if t != NO_BUSINESS:
                    seen[t] = True
    return VP_BY_BUSINESS_TYPES[np.sum(seen)]


@jit
def district_points(st, row, district):
    """What ``row`` scores for its skyscrapers in ``district`` ("Scoring districts")."""
    points = 0
    for p in range(district * PLOTS_PER_DISTRICT, (district + 1) * PLOTS_PER_DISTRICT):
        if st["plot_owner"][p] == row:
            points += st["plot_skyscrapers"][p] * plot_value(st, p)
    return points


@jit
def score_district(st, district):
    """Option D: every player scores his skyscrapers there (Alea never scores)."""
    for seat in range(st["num_players"]):
        st["score"][seat] += district_points(st, seat, district)


@jit
def districts_with_skyscrapers(st, row):
    n = 0
    for d in range(NUM_DISTRICTS):
        for p in range(d * PLOTS_PER_DISTRICT, (d + 1) * PLOTS_PER_DISTRICT):
            if st["plot_owner"][p] == row and st["plot_skyscrapers"][p] > 0:
                n += 1
                break
    return n


@jit
def commissioner_district(st, c):
    """The district commissioner ``c`` stands in, or -1 (City Hall, Central Park)."""
    place = st["commissioner_place"][c]
    return place if 0 <= place < NUM_DISTRICTS else -1


@jit
def special_scoring(st):
    """After the 3rd, 6th and 9th business placed on a plot: 4, 6, 8 VP to each player with a
    skyscraper in at least 3, 4, 5 different districts."""
    for k in range(len(SPECIAL_SCORINGS)):
        placed, needed, points = SPECIAL_SCORINGS[k]
        if st["businesses_placed"] == placed:
            for seat in range(st["num_players"]):
                if districts_with_skyscrapers(st, seat) >= needed:
                    st["score"][seat] += points


# --- the end -----------------------------------------------------------------------------------
@jit
def hand_size(st, seat):
    return np.sum(st["hand"][seat])


@jit
def end_game(st):
    """Final scoring: every district without a building stop once, then Central Park with 3 of
    its businesses turned over at random; the most VP wins, ties by the most cards in hand."""
    for d in range(NUM_DISTRICTS):
        if not st["stopped"][d]:
            score_district(st, d)
    n = st["park_business_count"]
    tiles = np.empty(max(n, 1), np.int64)
    for k in range(n):
        tiles[k] = st["park_business"][k]
    shuffle(tiles, n, st["rng"])
    seen = np.zeros(NUM_BUSINESS_TYPES, np.bool_)
    for k in range(min(PARK_TILES_TURNED, n)):
        seen[tiles[k]] = True
    value = VP_BY_BUSINESS_TYPES[np.sum(seen)]
    for seat in range(st["num_players"]):
        st["score"][seat] += st["park_skyscrapers"][seat] * value
    best, best_cards = -1, -1
    for seat in range(st["num_players"]):
        cards = hand_size(st, seat)
        if st["score"][seat] > best or (st["score"][seat] == best and cards > best_cards):
            best, best_cards = st["score"][seat], cards
    mask = 0
    for seat in range(st["num_players"]):
        if st["score"][seat] == best and hand_size(st, seat) == best_cards:
            mask |= 1 << seat
    st["winner_mask"] = mask
    st["decision"] = DEC_GAME_OVER
    st["actor"] = NO_PLAYER


