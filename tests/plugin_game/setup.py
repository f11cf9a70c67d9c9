"""Setup (R2) and the opening of a round (R3)."""

from tiny_york_env.core.jit import jit
from tiny_york_env.core.rng import randbelow, seed_rng

from .state import DEC_BID, MAX_PLAYERS, NO_CARD, NO_SEAT, NUM_BID_CARDS, NUM_PRIZES, NUM_ROUNDS

# init_game's params (api.config_params): num_players, num_agents, then each seat's bot kind.
PARAM_PLAYERS, PARAM_AGENTS, PARAM_BOTS = 0, 1, 2
NUM_PARAMS = PARAM_BOTS + MAX_PLAYERS


@jit
def shuffle(cards, count, words):
    """Shuffle ``cards[:count]`` in place (Fisher-Yates) with the generator ``words``."""
    for k in range(count - 1, 0, -1):
        j = randbelow(words, k + 1)
        cards[k], cards[j] = cards[j], cards[k]


@jit
def open_round(st):
    """Reveal the top prize card; round r is opened by seat r mod n (R3)."""
    st["prize_count"] -= 1
    st["prize"] = st["prize_deck"][st["prize_count"]]
    st["prize_deck"][st["prize_count"]] = 0  # gone from the deck (equal games, equal records)
    st["start_seat"] = st["round"] % st["num_players"]
    st["actor"] = st["start_seat"]
    st["bids_made"] = 0
    st["decision"] = DEC_BID


@jit
def init_game(st, params, seed):
    """A fresh game on a zeroed record: seats, the shuffled prize deck, full hands (R1, R2), and
    the first prize revealed (R3)."""
    seed_rng(st["rng"], seed)
    n = params[PARAM_PLAYERS]
    st["num_players"] = n
    st["num_agents"] = params[PARAM_AGENTS]
    for seat in range(MAX_PLAYERS):
        st["bot_kind"][seat] = params[PARAM_BOTS + seat]
        st["pending_bid"][seat] = NO_CARD
        if seat < n:
            for v in range(NUM_BID_CARDS):
                st["hand"][seat, v] = 1
    for r in range(NUM_ROUNDS):
        st["round_winner"][r] = NO_SEAT
    for k in range(NUM_PRIZES):
        st["prize_deck"][k] = k + 1
    st["prize_count"] = NUM_PRIZES
    shuffle(st["prize_deck"], NUM_PRIZES, st["rng"])
    st["round"] = 0
    open_round(st)
