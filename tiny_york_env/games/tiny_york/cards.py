"""Card movements: drawing (with the reshuffle of R7), dealing pairs, discarding."""

from ...core.jit import jit
from ...core.rng import randbelow
from .components import NUM_CARD_TYPES
from .state import EMPTY


@jit
def shuffle_discard_into_draw(st):
    """R7: the discard pile, shuffled, becomes the draw pile."""
    n = 0
    for t in range(NUM_CARD_TYPES):
        for _ in range(st["discard"][t]):
            st["draw_pile"][n] = t
            n += 1
        st["discard"][t] = 0
    for i in range(n - 1, 0, -1):
        j = randbelow(st["rng"], i + 1)
        tmp = st["draw_pile"][i]
        st["draw_pile"][i] = st["draw_pile"][j]
        st["draw_pile"][j] = tmp
    st["draw_count"] = n


@jit
def draw_card(st):
    """Take the top card of the draw pile (R7: reshuffle the discard when empty); EMPTY if none."""
    if st["draw_count"] == 0:
        shuffle_discard_into_draw(st)
        if st["draw_count"] == 0:
            return EMPTY
    st["draw_count"] -= 1
    card = st["draw_pile"][st["draw_count"]]
    st["draw_pile"][st["draw_count"]] = EMPTY  # a drawn card leaves no trace in the pile (R25)
    return card


@jit
def draw_to_hand(st, seat, n):
    """Draw up to ``n`` cards into ``seat``'s hand ("Take X cards")."""
    for _ in range(n):
        c = draw_card(st)
        if c != EMPTY:
            st["hand"][seat, c] += 1


@jit
def draw_to_reserve(st, seat, n):
    """Draw up to ``n`` cards into ``seat``'s reserve (setup step 15)."""
    for _ in range(n):
        c = draw_card(st)
        if c != EMPTY:
            st["reserve"][seat, c] += 1


@jit
def draw_faceup_to_reserve(st, seat):
    """Character 3: draw 1 card and place it face up in ``seat``'s reserve (addendum 3; public,
    R25, P24)."""
    c = draw_card(st)
    if c != EMPTY:
        st["reserve"][seat, c] += 1
        st["reserve_faceup"][seat, c] += 1


@jit
def take_from_reserve(st, seat, t, n):
    """Remove ``n`` cards of type ``t`` from ``seat``'s reserve (an exchange, characters 8, 12,
    15): face-down copies leave first, so a face-up card stays face up while a copy of its type
    stays in the reserve (P24). The caller puts the cards where they go."""
    st["reserve"][seat, t] -= n
    if st["reserve_faceup"][seat, t] > st["reserve"][seat, t]:
        st["reserve_faceup"][seat, t] = st["reserve"][seat, t]


@jit
def discard_hand(st, seat):
    """Put every card in ``seat``'s hand on the discard pile (R19)."""
    for t in range(NUM_CARD_TYPES):
        st["discard"][t] += st["hand"][seat, t]
        st["hand"][seat, t] = 0


@jit
def discard_played(st, seat):
    """Put ``seat``'s played cards on the discard pile after the bidding round."""
    for t in range(NUM_CARD_TYPES):
        st["discard"][t] += st["played"][seat, t]
        st["played"][seat, t] = 0


@jit
def deal_pairs(st, n):
    """Phase 0: deal ``n`` pairs of cards face up (a card short when both piles run dry)."""
    for p in range(st["pairs"].shape[0]):
        st["pairs"][p, 0] = EMPTY
        st["pairs"][p, 1] = EMPTY
    for p in range(n):
        st["pairs"][p, 0] = draw_card(st)
        st["pairs"][p, 1] = draw_card(st)
    st["num_pairs"] = n


@jit
def pair_is_available(st, p):
    """True when pair slot ``p`` still holds at least one card."""
    return st["pairs"][p, 0] != EMPTY or st["pairs"][p, 1] != EMPTY


@jit
def take_pair(st, seat, p):
    """Move pair ``p`` into ``seat``'s hand."""
    for k in range(2):
        c = st["pairs"][p, k]
        if c != EMPTY:
            st["hand"][seat, c] += 1
        st["pairs"][p, k] = EMPTY


@jit
def discard_pairs(st):
    """End of Phase I: pairs nobody took go to the discard pile (R6)."""
    for p in range(st["pairs"].shape[0]):
        for k in range(2):
            c = st["pairs"][p, k]
            if c != EMPTY:
                st["discard"][c] += 1
            st["pairs"][p, k] = EMPTY
