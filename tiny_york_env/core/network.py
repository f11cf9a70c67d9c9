"""A network's forward pass in compiled code, over plain arrays (no torch): what the compiled
playouts (``core/batch_loops.py``'s ``network_playouts``) evaluate at every decision.

A *tower* is a stack of dense layers, an activation after each but the last:

- ``first``: float32[obs_size, widths[0]], the first layer's weights **by input** (row k is what
  observation entry k adds). Observations are mostly zeros (about 108 of Tiny York's 1,929 entries
  are set), so the first layer is a sum of the rows of the set entries, scaled by their values,
  plus its bias: the same as the dense product at a few percent of its work.
- ``params``: float32[...], everything else flat, in order: the first layer's bias; then for each
  later hidden layer its weights transposed (float32[width in, width out], row-major: the layer is
  one vector-matrix product, numba's ``np.dot``, which calls SciPy's BLAS) and its bias; last the
  head's weights as they are (float32[width out, width in]: one row an action, so a masked head
  reads only the legal actions' rows) and its bias.
- ``widths``: int64[L], each layer's output width; the last is the tower's output (the action
  logits, or 1 for a value).

``agents/compiled_network.py`` exports a policy file's towers (MaskablePPO's policy and value
MLPs with their heads) to these arrays.
"""

import numpy as np

from .jit import jit

TANH = 0
RELU = 1
ACTIVATIONS = {"tanh": TANH, "relu": RELU}  # a policy card's activation -> its code here

# tanh as a rational function of x (x * P(x^2) / Q(x^2), Eigen's float32 tanh): within 3.5e-7 of
# tanh everywhere (a test checks), and, unlike a call to the C library's tanhf, a loop of it is
# vectorised: the compiled forward pass spent a third of its time in tanhf.
TANH_CLAMP = np.float32(7.90531110763549805)  # beyond it tanh is 1 to float32 precision
TANH_P = tuple(np.float32(c) for c in (4.89352455891786e-03, 6.37261928875436e-04,
                                       1.48572235717979e-05, 5.12229709037114e-08,
                                       -8.60467152213735e-11, 2.00018790482477e-13,
                                       -2.76076847742355e-16))
TANH_Q = tuple(np.float32(c) for c in (4.89352518554385e-03, 2.26843463243900e-03,
                                       1.18534705686654e-04, 1.19825839466702e-06))
P1, P3, P5, P7, P9, P11, P13 = TANH_P
Q0, Q2, Q4, Q6 = TANH_Q


@jit
def rational_tanh(h):
    """tanh of every entry of ``h``, in place, by the rational function above."""
    for j in range(h.shape[0]):
        x = h[j]
        x = TANH_CLAMP if x > TANH_CLAMP else (-TANH_CLAMP if x < -TANH_CLAMP else x)
        x2 = x * x
        p = x2 * (x2 * (x2 * (x2 * (x2 * (x2 * P13 + P11) + P9) + P7) + P5) + P3) + P1
        q = x2 * (x2 * (x2 * Q6 + Q4) + Q2) + Q0
        h[j] = x * p / q


@jit
def activate(h, activation):
    """Apply the activation (``TANH`` or ``RELU``) to ``h`` in place."""
    if activation == TANH:
        rational_tanh(h)
    else:
        for j in range(h.shape[0]):
            if h[j] < 0.0:
                h[j] = 0.0


WORD = 8  # flags tested eight at a time, as one uint64


@jit
def scan_buffers(size):
    """(flags, indices) work space of the scans below for vectors of ``size`` entries: uint8 flags
    padded with zeros to whole words, int64 indices."""
    return np.zeros((size + WORD - 1) // WORD * WORD, np.uint8), np.empty(size, np.int64)


@jit
def flagged_entries(flags, indices):
    """The positions of the nonzero ``flags`` into ``indices``, in order; how many. Tested a word
    at a time: a loop over 1,929 entries with a branch each cost ten times as long."""
    words = flags.view(np.uint64)
    count = 0
    for w in range(words.shape[0]):
        if words[w] != 0:
            for k in range(WORD * w, WORD * w + WORD):
                if flags[k]:
                    indices[count] = k
                    count += 1
    return count


@jit
def set_entries(obs, flags, indices):
    """The positions of the nonzero entries of ``obs`` into ``indices``; how many."""
    for k in range(obs.shape[0]):
        flags[k] = obs[k] != 0.0
    return flagged_entries(flags, indices)


@jit
def add_rows(h, first, obs, indices, count, scale_from):
    """``h`` += (obs[k] - scale_from[k]) * first[k] for the first ``count`` of ``indices``."""
    for t in range(count):
        k = indices[t]
        change = obs[k] - scale_from[k]
        for j in range(h.shape[0]):  # first[k, j], not a row view: a view here stops vectorising
            h[j] += change * first[k, j]


@jit
def first_layer(obs, first, params):
    """The first layer's pre-activation for ``obs``: its bias plus ``first``'s rows of the set
    entries of ``obs``, each scaled by its value."""
    h = params[:first.shape[1]].copy()
    flags, indices = scan_buffers(obs.shape[0])
    count = set_entries(obs, flags, indices)
    add_rows(h, first, obs, indices, count, np.zeros(obs.shape[0], np.float32))
    return h


@jit
def dense_layer(h, params, offset, width_out):
    """A later layer's pre-activation for input ``h``: its transposed weights and bias read from
    ``params`` at ``offset``; returns (the output, the offset after the layer)."""
    width_in = h.shape[0]
    weights = params[offset:offset + width_in * width_out].reshape((width_in, width_out))
    offset += width_in * width_out
    # BLAS's vector-matrix product: a loop here does not vectorise (4.5x slower at 256 x 32)
    out = np.dot(h, weights) + params[offset:offset + width_out]
    offset += width_out
    return out, offset


@jit
def start_accumulator(obs, first, params, previous, accumulator):
    """``accumulator`` becomes the first layer's pre-activation for ``obs``, ``previous`` a copy
    of ``obs`` (what ``update_accumulator`` compares with next)."""
    accumulator[:] = first_layer(obs, first, params)
    previous[:] = obs


@jit
def update_accumulator(obs, first, previous, accumulator, flags, indices):
    """Bring ``accumulator``, the first layer's pre-activation for ``previous``, to ``obs``'s: the
    rows of the entries that changed, scaled by the change (about 10 of Tiny York's 1,929 from
    one decision of a seat to its next, against about 108 set); ``previous`` becomes ``obs``.
    ``flags``, ``indices``: ``scan_buffers`` of the observation's size."""
    for k in range(obs.shape[0]):
        flags[k] = obs[k] != previous[k]
    count = flagged_entries(flags, indices)
    add_rows(accumulator, first, obs, indices, count, previous)
    for t in range(count):
        previous[indices[t]] = obs[indices[t]]


@jit
def hidden_features(obs, first, params, widths, activation):
    """The tower's last hidden layer for ``obs`` (activated) and the offset in ``params`` where its
    head starts; for a tower of one layer (no hidden layer), the head's output itself."""
    return later_layers(first_layer(obs, first, params), first, params, widths, activation)


@jit
def later_layers(h, first, params, widths, activation):
    """``hidden_features`` from the first layer's pre-activation ``h`` (changed in place)."""
    offset = first.shape[1]
    if widths.shape[0] == 1:
        return h, offset
    activate(h, activation)
    for layer in range(1, widths.shape[0] - 1):
        h, offset = dense_layer(h, params, offset, widths[layer])
        activate(h, activation)
    return h, offset


@jit
def head_output(h, params, offset, mask, out):
    """The head's outputs for the hidden features ``h`` into ``out`` where ``mask`` allows
    (-inf elsewhere); its weights (float32[len(out), len(h)]) and bias read at ``offset``."""
    width_in, width_out = h.shape[0], out.shape[0]
    weights = params[offset:offset + width_out * width_in].reshape((width_out, width_in))
    bias = params[offset + width_out * width_in:offset + width_out * width_in + width_out]
    for a in range(width_out):
        if not mask[a]:
            out[a] = -np.inf
            continue
        out[a] = np.dot(weights[a], h) + bias[a]  # BLAS: a loop's sum does not vectorise (2x slower)


@jit
def masked_output(obs, mask, first, params, widths, activation, out):
    """The tower's outputs for ``obs`` into ``out`` where ``mask`` allows (-inf elsewhere): the
    head is computed only for the allowed entries."""
    h, offset = hidden_features(obs, first, params, widths, activation)
    tower_head(h, offset, params, widths, mask, out)


@jit
def tower_head(h, offset, params, widths, mask, out):
    """The tower's outputs into ``out`` where ``mask`` allows (-inf elsewhere) from what
    ``hidden_features`` returned (``h`` and the head's ``offset``)."""
    if widths.shape[0] == 1:
        for a in range(out.shape[0]):
            out[a] = h[a] if mask[a] else -np.inf
    else:
        head_output(h, params, offset, mask, out)


@jit
def tower_output(obs, first, params, widths, activation):
    """The tower's whole output (float32[widths[-1]]) for the observation ``obs``."""
    out = np.empty(widths[widths.shape[0] - 1], np.float32)
    masked_output(obs, np.ones(out.shape[0], np.bool_), first, params, widths, activation, out)
    return out


@jit
def masked_argmax(obs, mask, first, params, widths, activation, logits):
    """The most probable action ``mask`` allows for ``obs`` (the first of ties; -1 if none), its
    logits into ``logits``."""
    masked_output(obs, mask, first, params, widths, activation, logits)
    return best_allowed(logits, mask)


@jit
def best_allowed(logits, mask):
    """The allowed entry of ``logits`` with the largest value (the first of ties), -1 if none."""
    best = -1
    for a in range(logits.shape[0]):
        if mask[a] and (best < 0 or logits[a] > logits[best]):
            best = a
    return best


@jit
def accumulated_argmax(accumulator, mask, first, params, widths, activation, logits):
    """``masked_argmax`` from the first layer's pre-activation ``accumulator`` (left unchanged)."""
    h, offset = later_layers(accumulator.copy(), first, params, widths, activation)
    tower_head(h, offset, params, widths, mask, logits)
    return best_allowed(logits, mask)
