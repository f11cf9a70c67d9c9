"""The round: lay a bid, resolve the round once every seat has bid, open the next one or end the
game (R3-R6). ``apply_unchecked`` plays one decision and then the automatic steps (bots) up to
the next agent decision or the end."""

import numpy as np

from tiny_york_env.core.jit import jit
from tiny_york_env.core.move_log import clear_moves, record_move

from .actions import BID, NUM_ACTIONS
from .bots import bot_action
from .legal import fill_legal_mask
from .scoring import highest_bidder, set_winners
from .setup import open_round
from .state import BOT_NONE, DEC_BID, DEC_GAME_OVER, MIN_BID, NO_CARD, NO_SEAT, NUM_ROUNDS

ILLEGAL = 1  # apply's status for an illegal action (0: applied)


@jit
def lay_bid(st, value):
    """The actor lays its card ``value`` face down; it leaves the hand for good (R4). The next
    seat clockwise bids, or the round is resolved once every seat has bid (R3, R5)."""
    seat = st["actor"]
    st["hand"][seat, value - MIN_BID] = 0
    st["pending_bid"][seat] = value
    st["bids_made"] += 1
    if st["bids_made"] == st["num_players"]:
        resolve_round(st)
    else:
        st["actor"] = (seat + 1) % st["num_players"]


@jit
def resolve_round(st):
    """Turn every bid up: the single highest bid wins the prize, a tie for the highest discards
    it (R5); the bids become public history. Then the next round opens, or the game ends after
    the last one (R6)."""
    r = st["round"]
    winner = highest_bidder(st)
    for seat in range(st["num_players"]):
        st["bid_history"][seat, r] = st["pending_bid"][seat]
        st["pending_bid"][seat] = NO_CARD
    st["prize_history"][r] = st["prize"]
    st["round_winner"][r] = winner
    if winner != NO_SEAT:
        st["score"][winner] += st["prize"]
    st["round"] = r + 1
    st["log_round_start"] = st["bot_move_count"]  # the bots' bids logged so far are public now
    if st["round"] == NUM_ROUNDS:
        end_game(st)
    else:
        open_round(st)


@jit
def end_game(st):
    """Every hand is empty: the highest score wins, tied seats share the win (R6)."""
    st["prize"] = NO_CARD
    st["actor"] = NO_SEAT
    st["bids_made"] = 0
    st["decision"] = DEC_GAME_OVER
    set_winners(st)


@jit
def play(st, a):
    """Apply the legal action ``a`` of the seat to move (no automatic steps)."""
    if st["decision"] == DEC_BID:
        lay_bid(st, a - BID + MIN_BID)


@jit
def advance(st):
    """Let the bots bid until an agent seat must decide or the game is over (R1)."""
    if st["decision"] == DEC_GAME_OVER or st["bot_kind"][st["actor"]] == BOT_NONE:
        return
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    while st["decision"] != DEC_GAME_OVER and st["bot_kind"][st["actor"]] != BOT_NONE:
        fill_legal_mask(st, mask)
        seat, action = st["actor"], bot_action(st, mask)
        record_move(st, seat, action)  # logged before play: a resolution marks it public
        play(st, action)


@jit
def apply_unchecked(st, a):
    """Apply an action the legal mask allows, then the automatic steps."""
    clear_moves(st)  # the log holds what follows this decision
    st["log_round_start"] = 0
    play(st, a)
    advance(st)


@jit
def apply(st, a):
    """Apply ``a`` if it is legal (status 0) or leave the record unchanged (status ILLEGAL)."""
    if a < 0 or a >= NUM_ACTIONS or st["decision"] != DEC_BID:
        return ILLEGAL
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    fill_legal_mask(st, mask)
    if not mask[a]:
        return ILLEGAL
    apply_unchecked(st, a)
    return 0
