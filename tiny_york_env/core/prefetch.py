"""Software prefetch for the batch loops: ask the memory system for a game's rows before the game
is played, so the scattered reads of its record do not each wait for memory.

A batch larger than the caches (B = 1024 Tiny York records are 2.5 MB) leaves every game's record
in memory between steps; the engine then reads its fields in an order no hardware prefetcher
predicts, one cache miss after another. ``prefetch_row`` issues the CPU's prefetch instruction
(LLVM's ``llvm.prefetch``: a hint, never a fault, no result) for every cache line of one row of a
C-contiguous 2-D array, and the loops call it for the next game while they play this one.
"""

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from .jit import JIT_ENABLED, jit

CACHE_LINE_BYTES = 64  # x86-64 and ARMv8 data cache lines
PREFETCH_READ = 0  # llvm.prefetch's rw argument
PREFETCH_KEEP = 3  # its locality: keep in every cache level
PREFETCH_DATA = 1  # its cache type: data


@intrinsic
def prefetch_item(typingctx, array, row, column):
    """Prefetch the cache line holding ``array[row, column]`` (a 2-D array) for reading."""
    if not (isinstance(array, types.Array) and array.ndim == 2 and isinstance(row, types.Integer)
            and isinstance(column, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        struct = context.make_array(array_type)(context, builder, args[0])
        row_index = context.cast(builder, args[1], signature.args[1], types.intp)
        column_index = context.cast(builder, args[2], signature.args[2], types.intp)
        pointer = cgutils.get_item_pointer(context, builder, array_type, struct,
                                           [row_index, column_index], wraparound=False)
        byte_pointer = builder.bitcast(pointer, ir.IntType(8).as_pointer())
        int32 = ir.IntType(32)
        prefetch = builder.module.declare_intrinsic(
            "llvm.prefetch", fnty=ir.FunctionType(ir.VoidType(), (byte_pointer.type, int32, int32, int32)))
        builder.call(prefetch, (byte_pointer, ir.Constant(int32, PREFETCH_READ),
                                ir.Constant(int32, PREFETCH_KEEP), ir.Constant(int32, PREFETCH_DATA)))
        return context.get_dummy_value()

    return types.none(array, row, column), codegen


def prefetch_row_lines(array, row):
    """Prefetch every cache line of ``array[row]`` (a C-contiguous 2-D array; a row outside it is
    ignored)."""
    if row < 0 or row >= array.shape[0] or array.shape[1] == 0:
        return
    step = max(1, CACHE_LINE_BYTES // array.itemsize)
    for column in range(0, array.shape[1], step):
        prefetch_item(array, row, column)
    prefetch_item(array, row, array.shape[1] - 1)  # rows need not start on a line: the last one


def skip_prefetch(array, row):
    """Nothing: plain Python (``TINY_YORK_JIT=0``) has no prefetch, and the results are the same."""


prefetch_row = jit(prefetch_row_lines) if JIT_ENABLED else skip_prefetch
