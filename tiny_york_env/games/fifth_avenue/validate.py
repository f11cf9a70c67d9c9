"""``validate_state``: is a record one 5th Avenue's engine could have made? (the door check)

The compiled engine trusts its record: it indexes arrays with the record's seats, plots, card
values, business types, places and counts. A record from outside (a saved game, a socket, a
damaged checkpoint) is checked here first, and a ValueError names the first field that is wrong
and what is allowed. Checked:

- the setup: players 2-4, agent seats, each seat's kind (agents first, then bots), Alea and his
  colour exactly in two-player games, the start player, the starting placements;
- every index-like field in its range, whatever the decision (stale auction fields included:
  the observation and the next auction read them);
- the cards: every coloured card (12 per colour: 5/4/3 of values 4/5/6) and black card (20/16/14)
  in exactly one place (its stack, the face-up returned black cards, a hand, a bid, Alea's draw);
- the businesses: plots packed (a second tile only on a first), none under skyscrapers; the
  supply row emptied set by set from the left (a set keeps all its tiles, all but one, or none;
  each emptied set's last tile below Central Park); the tiles placed, held, removed by building
  stops and in the box add up to the 36;
- the skyscrapers: 17 per player (18 less the scoring marker) and 18 for Alea in exactly one
  place (general supply, summary card, a plot, Central Park, removed by a building stop); a
  player in at most one plot per district; owners and counts agree;
- the commissioners: places, markers only for districts left behind and no more than the
  route allows, building stops counted;
- the pending decision and whose it is (an agent's seat: the engine runs the bots itself), what
  each decision needs (a held business, an auction's place, bids that add up, each of one
  colour, the colour set exactly when a bidder still in has a coloured card on the table,
  Central Park's colour set exactly when a bidder has one, a plot to build on) and at least one
  legal action;
- scores, the winners at the end, the generator's words, unused seats zero, the bot log.
"""

from __future__ import annotations

import numpy as np

from ...core.move_log import move_log_problem
from .actions import MAX_BUILD, NUM_ACTIONS
from .api import as_batch
from .batch import legal_mask_kernel
from .config import BOT_GREEDY, BOT_NONE, BOT_RANDOM
from .data import (
    ALEA_PLAYERS,
    BLACK_PER_VALUE,
    BUILDING_STOPS_TO_END,
    BUSINESSES_PER_TYPE,
    CARD_VALUES,
    CENTRAL_PARK,
    CITY_HALL,
    COLOURED_PER_VALUE,
    MARKERS_PER_COMMISSIONER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NEXT_PLACES,
    NUM_BUSINESS_TYPES,
    NUM_CARD_COLOURS,
    NUM_CARD_VALUES,
    NUM_DISTRICTS,
    NUM_PLOTS,
    PLOT_COLOUR,
    PLOT_DISTRICT,
    SKYSCRAPERS_PER_COLOUR,
    START_ON_BOARD,
    START_SCORING_MARKER,
    START_SUPPLY,
    SUPPLY_SETS,
    TURN_LIMIT,
    alea_bid_range,
)
from .rules import FIRST_ACTION, SECOND_ACTION, THIRD_ACTION, district_is_full, first_colour_allowed
from .setup import placing_seat
from .state import (
    ALEA_ROW,
    BLACK,
    CARDS_PER_COLOUR,
    DEC_BID,
    DEC_BUILD,
    DEC_BUSINESS_PLOT,
    DEC_GAME_OVER,
    DEC_OPTION,
    DEC_START_SKYSCRAPER,
    NO_BUSINESS,
    NO_CARD,
    NO_OPTION,
    NO_PLAYER,
    NUM_BLACK,
    NUM_PARK_BUSINESSES,
    NUM_ROWS,
    OPTION_D,
    STATE_DTYPE,
)

WORD_LIMIT = 2 ** 32  # the generator's words are 32-bit values (core/rng.py)
MAX_SCORE = 30_000  # above any total TURN_LIMIT turns allow (real games stay below 200 VP)
MAX_LOGGED = 10_000  # bot moves since the last agent decision: far above any real game
TURN_STEPS = (FIRST_ACTION, SECOND_ACTION, THIRD_ACTION)  # the turn's three actions
MAX_BID = NUM_BLACK * max(CARD_VALUES) + CARDS_PER_COLOUR * max(CARD_VALUES)  # every card of a bid's kinds
PLAYER_SKYSCRAPERS = SKYSCRAPERS_PER_COLOUR - START_SCORING_MARKER
NUM_BUSINESSES = NUM_BUSINESS_TYPES * BUSINESSES_PER_TYPE
START_BUSINESSES = NUM_DISTRICTS  # one on a plot of each district at setup


def _districts_before():
    """The most districts a commissioner can have left behind on reaching each place (its
    markers' limit): 0 at City Hall and in a 34th Street district, 1 in 42nd Street or Times
    Square, 2 in 52nd Street, 3 in Central Park."""
    depth = {CITY_HALL: 0}
    for _ in range(NUM_DISTRICTS + 1):
        for place, nxt in NEXT_PLACES.items():
            if place in depth:
                for p in nxt:
                    depth[p] = max(depth.get(p, 0), depth[place] + (place != CITY_HALL))
    return depth


DISTRICTS_BEFORE = _districts_before()


class StateError(ValueError):
    """A record the engine could not have made (a ValueError naming the field)."""


def _fail(index: int | None, message: str) -> None:
    where = "" if index is None else f"record {index}: "
    raise StateError(f"invalid 5th Avenue state: {where}{message}")


def _in_range(value: int, low: int, high: int, field: str, index: int | None) -> int:
    value = int(value)
    if not low <= value <= high:
        _fail(index, f"{field} is {value}, allowed {low}..{high}")
    return value


def _all_in(values: np.ndarray, low: int, high: int, field: str, index: int | None) -> None:
    values = np.asarray(values, dtype=np.int64).reshape(-1)
    bad = np.flatnonzero((values < low) | (values > high))
    if bad.size:
        _fail(index, f"{field} holds {int(values[bad[0]])}, allowed {low}..{high}")


def _rows_in_play(rec, n):
    """The per-player rows in play: the seats, and Alea's in two-player games."""
    return [*range(n)] + ([ALEA_ROW] if rec["has_alea"] else [])


def _check_setup(rec, index):
    n = _in_range(rec["num_players"], MIN_PLAYERS, MAX_PLAYERS, "num_players", index)
    agents = _in_range(rec["num_agents"], 0, n, "num_agents", index)
    if int(rec["has_alea"]) != int(n == ALEA_PLAYERS):
        _fail(index, f"has_alea is {int(rec['has_alea'])} with {n} players (Alea plays exactly in "
                     f"two-player games)")
    alea_colour = n if n == ALEA_PLAYERS else NO_PLAYER
    if int(rec["alea_colour"]) != alea_colour:
        _fail(index, f"alea_colour is {int(rec['alea_colour'])}, must be {alea_colour} with {n} players")
    for seat in range(MAX_PLAYERS):
        kind = int(rec["bot_kind"][seat])
        allowed = (BOT_NONE,) if seat < agents or seat >= n else (BOT_RANDOM, BOT_GREEDY)
        if kind not in allowed:
            _fail(index, f"bot_kind[{seat}] is {kind}, allowed {allowed} (agents in seats "
                         f"0..{agents - 1}, bots after them, nothing beyond seat {n - 1})")
    _in_range(rec["start_player"], 0, n - 1, "start_player", index)
    _in_range(rec["turn"], 0, TURN_LIMIT, "turn", index)
    _in_range(rec["decision"], 0, DEC_GAME_OVER, "decision", index)
    step = _in_range(rec["placing_step"], 0, 2 * n, "placing_step", index)
    if (step < 2 * n) != (rec["decision"] == DEC_START_SKYSCRAPER):
        _fail(index, f"placing_step {step} of {2 * n} does not fit decision {int(rec['decision'])}: the "
                     f"starting skyscrapers are placed exactly while steps are left")
    words = rec["rng"].astype(np.int64)
    if words.min() < 0 or words.max() >= WORD_LIMIT or not words.any():
        _fail(index, "the generator's words must be 32-bit values, not all zero")
    return n


def _check_ranges(rec, n, index):
    """Every field the compiled code indexes with, in its range (module doc)."""
    rows = (NO_PLAYER, *_rows_in_play(rec, n))
    if rec["decision"] == DEC_GAME_OVER:
        _in_range(rec["actor"], NO_PLAYER, NO_PLAYER, "actor (game over)", index)
    else:
        _in_range(rec["actor"], 0, n - 1, "actor", index)
    for p, owner in enumerate(rec["plot_owner"]):
        if int(owner) not in rows:
            _fail(index, f"plot_owner[{p}] is {int(owner)}, allowed {rows}")
    _all_in(rec["plot_skyscrapers"], 0, SKYSCRAPERS_PER_COLOUR, "plot_skyscrapers", index)
    _all_in(rec["plot_business"], NO_BUSINESS, NUM_BUSINESS_TYPES - 1, "plot_business", index)
    _all_in(rec["supply_row"], NO_BUSINESS, NUM_BUSINESS_TYPES - 1, "supply_row", index)
    park = _in_range(rec["park_business_count"], 0, NUM_PARK_BUSINESSES, "park_business_count", index)
    _all_in(rec["park_business"][:park], 0, NUM_BUSINESS_TYPES - 1, "park_business", index)
    _all_in(rec["park_business"][park:], NO_BUSINESS, NO_BUSINESS, "park_business beyond its count", index)
    _all_in(rec["unused_business"], 0, BUSINESSES_PER_TYPE, "unused_business", index)
    _in_range(rec["held_business"], NO_BUSINESS, NUM_BUSINESS_TYPES - 1, "held_business", index)
    _in_range(rec["businesses_removed"], 0, NUM_BUSINESSES, "businesses_removed", index)
    _in_range(rec["businesses_placed"], 0, NUM_BUSINESSES, "businesses_placed", index)
    _all_in(rec["commissioner_place"], CITY_HALL, CENTRAL_PARK, "commissioner_place", index)
    _all_in(rec["commissioner_markers"], -1, NUM_DISTRICTS - 1, "commissioner_markers", index)
    _all_in(rec["markers_placed"], 0, MARKERS_PER_COMMISSIONER, "markers_placed", index)
    _all_in(rec["stopped"], 0, 1, "stopped", index)
    stops = _in_range(rec["building_stops"], 0, BUILDING_STOPS_TO_END, "building_stops", index)
    if stops != int(rec["stopped"].sum()):
        _fail(index, f"building_stops is {stops} but {int(rec['stopped'].sum())} districts are stopped")
    _in_range(rec["option"], NO_OPTION, OPTION_D, "option", index)
    _in_range(rec["turn_step"], 0, max(TURN_STEPS), "turn_step", index)
    _in_range(rec["resume_step"], 0, max(TURN_STEPS), "resume_step", index)
    count = _in_range(rec["auction_count"], 0, MARKERS_PER_COMMISSIONER + 1, "auction_count", index)
    _in_range(rec["auction_at"], 0, count, "auction_at", index)
    _all_in(rec["auction_places"][:count], 0, CENTRAL_PARK, "auction_places", index)
    _in_range(rec["auction_trigger"], 0, n - 1, "auction_trigger", index)
    _in_range(rec["bidder"], 0, n - 1, "bidder", index)
    _all_in(rec["bid_colour"], NO_CARD, NUM_CARD_COLOURS - 1, "bid_colour", index)
    _all_in(rec["bid_total"], 0, MAX_BID, "bid_total", index)
    _all_in(rec["bid_min_pictured"], 0, MAX_BUILD, "bid_min_pictured", index)
    _all_in(rec["passed"], 0, 1, "passed", index)
    _in_range(rec["added_this_turn"], 0, 1, "added_this_turn", index)
    _in_range(rec["high_bid"], 0, MAX_BID, "high_bid", index)
    if int(rec["high_bidder"]) not in rows:
        _fail(index, f"high_bidder is {int(rec['high_bidder'])}, allowed {rows}")
    _in_range(rec["park_colour"], NO_CARD, NUM_CARD_COLOURS - 1, "park_colour", index)
    _in_range(rec["alea_in"], 0, int(rec["has_alea"]), "alea_in", index)
    drawn = _in_range(rec["alea_card_count"], 0, NUM_CARD_VALUES + 1, "alea_card_count", index)
    _all_in(rec["alea_cards"][:drawn], 0, NUM_CARD_VALUES - 1, "alea_cards", index)
    _in_range(rec["district_full"], 0, 1, "district_full", index)
    _in_range(rec["build_limit"], 0, MAX_BUILD, "build_limit", index)
    _in_range(rec["build_plot"], -1, NUM_PLOTS - 1, "build_plot", index)
    scores = rec["score"].astype(np.int64)
    if scores.min() < 0 or scores.max() > MAX_SCORE or scores[n:].any():
        _fail(index, f"score must be 0..{MAX_SCORE}, zero beyond seat {n - 1}")


def _check_cards(rec, n, index):
    """Every card in exactly one place (module doc)."""
    coloured = rec["coloured_count"].astype(np.int64)
    _all_in(coloured, 0, CARDS_PER_COLOUR, "coloured_count", index)
    black = _in_range(rec["black_count"], 0, NUM_BLACK, "black_count", index)
    returned = _in_range(rec["black_returned_count"], 0, NUM_BLACK, "black_returned_count", index)
    _all_in(rec["black_stack"][:black], 0, NUM_CARD_VALUES - 1, "black_stack", index)
    _all_in(rec["black_returned"][:returned], 0, NUM_CARD_VALUES - 1, "black_returned", index)
    hands, bids = rec["hand"].astype(np.int64), rec["bid_cards"].astype(np.int64)
    for field, cards in (("hand", hands), ("bid_cards", bids)):
        if cards.min() < 0 or cards[n:].any():
            _fail(index, f"{field} counts must be non-negative, and zero beyond seat {n - 1}")
    held = hands.sum(axis=0) + bids.sum(axis=0)  # [colour or black, value]
    for c in range(NUM_CARD_COLOURS):
        stack = rec["coloured_stack"][c, :coloured[c]].astype(np.int64)
        _all_in(stack, 0, NUM_CARD_VALUES - 1, f"coloured_stack[{c}]", index)
        counts = np.bincount(stack, minlength=NUM_CARD_VALUES) + held[c]
        if np.any(counts != COLOURED_PER_VALUE):
            _fail(index, f"the {c}-coloured cards by value are {counts.tolist()} over stack, hands and "
                         f"bids; the game has {list(COLOURED_PER_VALUE)}")
    loose = np.concatenate([rec["black_stack"][:black], rec["black_returned"][:returned],
                            rec["alea_cards"][:int(rec["alea_card_count"])]]).astype(np.int64)
    counts = np.bincount(loose, minlength=NUM_CARD_VALUES) + held[BLACK]
    if np.any(counts != BLACK_PER_VALUE):
        _fail(index, f"the black cards by value are {counts.tolist()} over the stack, the returned "
                     f"cards, hands, bids and Alea's draw; the game has {list(BLACK_PER_VALUE)}")


def _check_supply_row(rec, index):
    """Sets emptied from the left; a set's last tile below Central Park; (tiles taken from the row)."""
    row = rec["supply_row"]
    start, emptied, taken, current_seen = 0, 0, 0, False
    for size in SUPPLY_SETS:
        left = int(np.sum(row[start:start + size] != NO_BUSINESS))
        allowed = (0, size - 1, size) if size > 2 else (0, size)
        if left not in allowed:
            _fail(index, f"supply-row set at spaces {start + 1}-{start + size} holds {left} tiles; a set "
                         f"keeps all its tiles, all but one (a set of 3), or none")
        if current_seen and left != size:
            _fail(index, f"supply-row set at spaces {start + 1}-{start + size} was taken from before a set "
                         f"left of it was emptied")
        if left:
            current_seen = True
        else:
            emptied += 1
            taken += size - 1  # its last tile went below Central Park
        if 0 < left < size:
            taken += size - left
        start += size
    if int(rec["park_business_count"]) != emptied:
        _fail(index, f"park_business_count is {int(rec['park_business_count'])} but {emptied} supply-row "
                     f"sets are emptied (each puts its last tile below Central Park)")
    return taken


def _check_businesses(rec, n, index):
    plots = rec["plot_business"]
    if np.any((plots[:, 0] == NO_BUSINESS) & (plots[:, 1] != NO_BUSINESS)):
        _fail(index, "plot_business: a plot's second tile without a first")
    on_plots = plots[plots != NO_BUSINESS].astype(np.int64)
    built = rec["plot_owner"] != NO_PLAYER
    if np.any(built & (plots[:, 0] != NO_BUSINESS)):
        _fail(index, "a plot holds both skyscrapers and a business")
    held = int(rec["held_business"])
    if (held != NO_BUSINESS) != (rec["decision"] == DEC_BUSINESS_PLOT):
        _fail(index, f"held_business is {held}: a business is held exactly while it is being placed")
    taken = _check_supply_row(rec, index)
    placed = int(rec["businesses_placed"])
    if placed != taken - (held != NO_BUSINESS):
        _fail(index, f"businesses_placed is {placed} but {taken} tiles were taken from the supply row "
                     f"({'one held' if held != NO_BUSINESS else 'none held'})")
    if on_plots.size + int(rec["businesses_removed"]) != START_BUSINESSES + placed:
        _fail(index, f"{on_plots.size} businesses on plots and {int(rec['businesses_removed'])} removed do "
                     f"not make the {START_BUSINESSES} of the setup and the {placed} placed")
    if int(rec["unused_business"].sum()) != NUM_BUSINESSES - START_BUSINESSES - len(rec["supply_row"]):
        _fail(index, "unused_business must count the tiles left in the box at setup")
    row = rec["supply_row"][rec["supply_row"] != NO_BUSINESS].astype(np.int64)
    park = rec["park_business"][:int(rec["park_business_count"])].astype(np.int64)
    loose = np.concatenate([on_plots, row, park, [held] if held != NO_BUSINESS else []]).astype(np.int64)
    by_type = np.bincount(loose, minlength=NUM_BUSINESS_TYPES) + rec["unused_business"]
    if np.any(by_type > BUSINESSES_PER_TYPE):
        _fail(index, f"more businesses of a type than the game has: {by_type.tolist()} > "
                     f"{BUSINESSES_PER_TYPE}")


def _unplaced(rec, n, seat):
    """The seat's starting skyscrapers not yet on the board (in hand while the placing rounds run)."""
    done = sum(placing_seat(int(rec["start_player"]), n, step) == seat
               for step in range(int(rec["placing_step"])))
    return START_ON_BOARD - done


def _check_skyscrapers(rec, n, index):
    owners, heights = rec["plot_owner"], rec["plot_skyscrapers"].astype(np.int64)
    if np.any((owners == NO_PLAYER) != (heights == 0)):
        _fail(index, "plot_owner and plot_skyscrapers disagree: an owned plot has skyscrapers, others none")
    rows = _rows_in_play(rec, n)
    for field in ("supply", "general", "park_skyscrapers", "skyscrapers_removed"):
        values = rec[field].astype(np.int64)
        unused = np.ones(NUM_ROWS, bool)
        unused[rows] = False
        if values.min() < 0 or values[unused].any():
            _fail(index, f"{field} must be non-negative, zero in rows of absent participants")
    for row in rows:
        on_plots = int(heights[owners == row].sum())
        total = (int(rec["general"][row]) + int(rec["supply"][row]) + on_plots
                 + int(rec["park_skyscrapers"][row]) + int(rec["skyscrapers_removed"][row]))
        expected = SKYSCRAPERS_PER_COLOUR if row == ALEA_ROW else PLAYER_SKYSCRAPERS - _unplaced(rec, n, row)
        if total != expected:
            _fail(index, f"row {row}'s skyscrapers add up to {total} (general, summary card, plots, Central "
                         f"Park, removed); the colour has {expected} in play")
        if row == ALEA_ROW:
            if rec["supply"][row] or rec["park_skyscrapers"][row]:
                _fail(index, "Alea has no summary card and never builds in Central Park")
            continue
        per_district = np.bincount(PLOT_DISTRICT[owners == row], minlength=NUM_DISTRICTS)
        if np.any(per_district > 1):
            _fail(index, f"seat {row} builds on two plots of one district")
    stopped = rec["stopped"].astype(bool)
    if np.any(built_in := (owners != NO_PLAYER) & stopped[PLOT_DISTRICT]):
        _fail(index, f"plot {int(np.flatnonzero(built_in)[0])} has skyscrapers in a stopped district")
    if np.any((rec["plot_business"][:, 0] != NO_BUSINESS) & stopped[PLOT_DISTRICT]):
        _fail(index, "a stopped district still holds businesses")


def _check_commissioners(rec, index):
    stops = int(rec["building_stops"])
    if stops >= BUILDING_STOPS_TO_END and rec["decision"] != DEC_GAME_OVER:
        _fail(index, "the second building stop ends the game, but it is not over")
    for c, place in enumerate(rec["commissioner_place"]):
        placed = int(rec["markers_placed"][c])
        limit = DISTRICTS_BEFORE[int(place)]
        if placed > limit:
            _fail(index, f"commissioner {c} in place {int(place)} has placed {placed} markers; at most "
                         f"{limit} districts lie behind it")
        markers = rec["commissioner_markers"][c]
        if np.any(markers[placed:] != -1):
            _fail(index, f"commissioner_markers[{c}] holds markers beyond markers_placed {placed}")
        kept = markers[:placed][markers[:placed] >= 0]
        if len(set(kept.tolist())) != kept.size or np.any(rec["stopped"][kept]):
            _fail(index, f"commissioner_markers[{c}] names a district twice or a stopped district")


def _check_auction(rec, n, index):
    decision = int(rec["decision"])
    in_auction = decision in (DEC_BID, DEC_BUILD)
    bids = rec["bid_cards"].astype(np.int64)
    if decision != DEC_BID and (bids.any() or rec["alea_card_count"]):
        _fail(index, "cards lie on the table (bid_cards, alea_cards) outside a bidding round")
    if not in_auction:
        return
    at, count = int(rec["auction_at"]), int(rec["auction_count"])
    if at >= count:
        _fail(index, f"auction_at {at} is past the {count} auctions of the set")
    place = int(rec["auction_places"][at])
    if place < NUM_DISTRICTS and rec["stopped"][place]:
        _fail(index, f"an auction runs in stopped district {place}")
    places = rec["auction_places"][:count]
    if places[-1] != CENTRAL_PARK or np.any(places[:-1] >= NUM_DISTRICTS):
        _fail(index, f"auction_places {places.tolist()}: districts, then Central Park last")
    full = place < NUM_DISTRICTS and district_is_full(rec, place)
    if int(rec["district_full"]) != int(full):
        _fail(index, f"district_full is {int(rec['district_full'])} but the auction's district is "
                     f"{'' if full else 'not '}full (nothing is built while the bidding runs)")
    if int(rec["resume_step"]) not in TURN_STEPS:
        _fail(index, f"resume_step is {int(rec['resume_step'])}, allowed {TURN_STEPS}")
    if decision == DEC_BID:
        seat = int(rec["actor"])
        if int(rec["bidder"]) != seat or rec["passed"][seat]:
            _fail(index, "the bidder is the actor, and has not passed")
        for row in range(n):
            total = int(np.dot(bids[row].sum(axis=0), CARD_VALUES))
            if total != int(rec["bid_total"][row]):
                _fail(index, f"bid_total[{row}] is {int(rec['bid_total'][row])}, its cards make {total}")
            colours = np.flatnonzero(bids[row, :NUM_CARD_COLOURS].sum(axis=1))
            if colours.size > 1 or (colours.size == 1 and colours[0] != rec["bid_colour"][row]) \
                    or (bids[row].any() and colours.size == 0):
                _fail(index, f"seat {row}'s bid must be one colour (bid_colour) and black cards")
            if not rec["passed"][row] and colours.size == 0 and rec["bid_colour"][row] != NO_CARD:
                _fail(index, f"seat {row} has bid_colour {int(rec['bid_colour'][row])} but no card of it on "
                             f"the table: a bidder's colour is its first coloured card's, until it passes")
        for row in range(n):
            colour = int(rec["bid_colour"][row])
            if colour != NO_CARD and not first_colour_allowed(rec, row, colour):
                _fail(index, f"seat {row} bids colour {colour}, which this auction does not allow it")
            if rec["passed"][row] and (bids[row].any() or rec["bid_total"][row]):
                _fail(index, f"seat {row} passed but still has cards on the table (a pass takes them back)")
        _check_park_colour(rec, place, n, index)
        _check_high_bid(rec, index)
        if rec["has_alea"]:
            low, high = 0, alea_bid_range()[1]
            _in_range(rec["bid_total"][ALEA_ROW], low, high, "Alea's bid_total", index)
    else:
        winner = int(rec["actor"])
        plot = int(rec["build_plot"])
        if place == CENTRAL_PARK:
            if plot != -1:
                _fail(index, "build_plot must be -1 for Central Park")
        elif not (0 <= plot < NUM_PLOTS and PLOT_DISTRICT[plot] == place
                  and PLOT_COLOUR[plot] == rec["bid_colour"][winner]
                  and first_colour_allowed(rec, winner, int(PLOT_COLOUR[plot]))):
            _fail(index, f"build_plot {plot} is not a plot of the bid colour in district {place} the winner "
                         f"may have bid for")


def _check_park_colour(rec, place, n, index):
    """During the bidding: Central Park's one colour is the first coloured card bid there, so it
    is set exactly when a seat has a bid colour, and no other auction has one."""
    park = int(rec["park_colour"])
    colours = {int(c) for c in rec["bid_colour"][:n] if c != NO_CARD}
    if place != CENTRAL_PARK and park != NO_CARD:
        _fail(index, f"park_colour is {park} in an auction for district {place}: only Central Park's has one")
    if place == CENTRAL_PARK and (park == NO_CARD) != (not colours):
        _fail(index, f"park_colour is {park} in Central Park's auction while the bid colours are "
                     f"{sorted(colours)}: it is the first coloured card's, and every bidder's")


def _check_high_bid(rec, index):
    """During the bidding: the high bid is the bid of the high bidder, who has not passed (a
    seat's finished bid or Alea's standing one), or nothing (0 and no bidder)."""
    high, bidder = int(rec["high_bid"]), int(rec["high_bidder"])
    if (bidder == NO_PLAYER) != (high == 0):
        _fail(index, f"high_bid {high} and high_bidder {bidder}: a high bid has a bidder, and only then")
    if bool(rec["alea_in"]) != (bidder == ALEA_ROW):
        _fail(index, "alea_in is set exactly while Alea holds the high bid")
    if bidder == NO_PLAYER:
        return
    if int(rec["bid_total"][bidder]) != high:
        _fail(index, f"high_bid is {high} but the high bidder's bid is {int(rec['bid_total'][bidder])}")
    if bidder != ALEA_ROW and (rec["passed"][bidder] or rec["bid_colour"][bidder] == NO_CARD):
        _fail(index, f"the high bidder, seat {bidder}, has passed or bid no colour")


def _check_placing(rec, n, index):
    """While the starting skyscrapers are placed nothing else has happened: each seat's placed
    ones on the board, its supply and general supply as dealt, no turn, business, marker or VP."""
    if rec["decision"] != DEC_START_SKYSCRAPER:
        return
    owners = rec["plot_owner"]
    for seat in range(n):
        placed = START_ON_BOARD - _unplaced(rec, n, seat)
        if int(rec["plot_skyscrapers"][owners == seat].sum()) != placed:
            _fail(index, f"seat {seat} has placed {placed} starting skyscrapers, the board shows others")
        if int(rec["supply"][seat]) != START_SUPPLY:
            _fail(index, f"seat {seat}'s summary card holds {int(rec['supply'][seat])} while placing, "
                         f"not the {START_SUPPLY} dealt")
    if (rec["turn"] or rec["businesses_placed"] or rec["score"].any() or rec["building_stops"]
            or np.any(rec["commissioner_place"] != CITY_HALL) or rec["markers_placed"].any()
            or np.any(owners == ALEA_ROW)):
        _fail(index, "while the starting skyscrapers are placed, no turn, business, building stop, "
                     "commissioner move, VP or Alea skyscraper can have happened")


def _check_decision(rec, n, index):
    decision = int(rec["decision"])
    winners = int(rec["winner_mask"])
    if decision == DEC_GAME_OVER:
        _in_range(winners, 1, (1 << n) - 1, "winner_mask (game over)", index)
        return
    if winners:
        _fail(index, "winner_mask is set before the game is over")
    seat = int(rec["actor"])
    if rec["bot_kind"][seat] != BOT_NONE:
        _fail(index, f"seat {seat} (a bot) is to decide; the engine stops only at agents' decisions")
    if decision == DEC_START_SKYSCRAPER:
        expected = placing_seat(int(rec["start_player"]), n, int(rec["placing_step"]))
        if seat != expected:
            _fail(index, f"starting skyscraper {int(rec['placing_step'])} is seat {expected}'s, not {seat}'s")
    if decision != DEC_START_SKYSCRAPER and int(rec["turn_step"]) not in TURN_STEPS:
        _fail(index, f"turn_step is {int(rec['turn_step'])}, allowed {TURN_STEPS} once the turns begin")
    if decision == DEC_OPTION and int(rec["option"]) != NO_OPTION:
        _fail(index, "an option is recorded before the turn's option is chosen")


def _check_some_action(batch, i, index):
    """A live game's pending decision has a legal action (the engine's own test, run only on a
    record whose fields passed the checks above)."""
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    legal_mask_kernel(batch, i, mask)
    if batch[i]["decision"] != DEC_GAME_OVER and not mask.any():
        _fail(index, f"decision {int(batch[i]['decision'])} has no legal action")


def validate_record(rec: np.void, index: int | None = None) -> None:
    """ValueError (``StateError``) naming the first thing wrong with one record."""
    n = _check_setup(rec, index)
    _check_ranges(rec, n, index)
    _check_cards(rec, n, index)
    _check_businesses(rec, n, index)
    _check_skyscrapers(rec, n, index)
    _check_commissioners(rec, index)
    _check_auction(rec, n, index)
    _check_placing(rec, n, index)
    problem = move_log_problem(rec, n, NUM_ACTIONS, MAX_LOGGED)
    if problem:
        _fail(index, problem)
    _check_decision(rec, n, index)


def validate_state(state: np.ndarray) -> None:
    """ValueError unless ``state`` (one game of shape ``()`` or a 1-d batch of STATE_DTYPE) holds
    only records the engine could have made; see the module doc for what is checked."""
    if not isinstance(state, np.ndarray) or state.dtype != STATE_DTYPE or state.ndim > 1:
        raise StateError("validate_state takes a numpy array of 5th Avenue's STATE_DTYPE: one game "
                         "(shape ()) or a 1-d batch")
    batch = as_batch(state) if state.ndim == 0 else state
    for i in range(batch.shape[0]):
        index = None if state.ndim == 0 else i
        validate_record(batch[i], index)
        _check_some_action(batch, i, index)
