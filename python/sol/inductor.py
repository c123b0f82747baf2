"""sol inside Inductor: the matmuls with their epilogues go to sol kernels,
everything else to Inductor's own code.

    import sol.torch_backend
    model = torch.compile(model, backend="sol")

The backend calls Inductor (`compile_fx`) with `SolPostGradPass` as its
post-grad custom pass. On the functional ATen graph (after decompositions,
before Inductor lowers it) the pass:

1. finds the matmul roots: `mm`, `addmm` (Inductor may already have split it
   into `mm` + `add`: both match), the weight read through `permute`/`t`
   of a 2-D tensor (nn.Linear, `transpose_b`) or as it is (`[K, N]`, GPT-2's
   Conv1D); and `torch._scaled_mm` (fp8 operands, their scales as
   sol.matmul's scale operands: docs/fp8.md), which the wgmma_tma path
   compiles once the backend's `fp8` option asks for it (an fp8 result is
   not built yet and stays with Inductor). A
   fused gated projection whose halves meet (Phi-3's gate_up_proj) is first
   split into two matmuls (`split_fused_projections`);
2. grows each root into a region through the elementwise ops of its epilogue
   (bias, residual, activations, even as Inductor decomposed them: silu is
   `x / (1 + exp(-x))` by then; casts) and the reshapes of leading dims
   between them, merging two roots whose results meet in one op (SwiGLU's
   gate and up projections: sol-fuse makes the pair one kernel). A region
   stays convex (nothing outside it both reads a member and feeds one);
3. replaces each region with one call of the custom op `sol::fused`, whose
   spec (a JSON string after its digest, so Inductor's FX-graph cache can
   keep it) holds the region as sol IR over 2-D `[M, N]` values with M left
   open, and the same region as ATen ops for the fallback. Everything else
   (norms, rotary, softmax, attention, the reshapes) stays in Inductor's
   graph.

`sol::fused` is functional, its fake implementation returns the symbolic
output shapes (passed as SymInt arguments), and its implementation runs the
region's dynamic kernel set: compiled once (memory and disk caches) with M
open (`tensor<?x...>`, docs/dynamic-shapes.md), it serves every M in
DYNAMIC_RANGE from a plan table chosen by the cost model, M passed at
launch. A region whose dynamic set does not compile, or an M outside the
range, is compiled for that M alone (one compile per distinct M, 0.05-0.8
s the first time). Kernels launch on `torch.cuda.current_stream()`; after
the first call at some output dims a call is resolved (`_SolCall`: the
inputs' pointers, the outputs allocated at their final shapes, one C call
per kernel), since in a decode step without CUDA graphs the host time per
call is the step's time. So one compiled graph serves every batch size and
sequence length, under dynamo's automatic dynamic shapes too, and
Inductor's `reduce-overhead` mode captures sol's launches in its CUDA
graphs. The backend's `dynamic` option
(default True) set to False compiles every M on its own.

Nothing here raises into the user's model: a region sol cannot compile at
trace time stays with Inductor (the reason is in the report); one that fails
to compile or launch later runs its ATen ops instead, with a logged reason.
The measured choice (`choose`) times sol and cuBLAS with the inputs cold in
L2, as a model step's weights are (`rotation`).
With the backend's `tune` option N (default off) each region's kernel set
is first compiled at sol-tile's ranks 0..N-1 (the cost model's best N plans
per kernel; a dynamic set's table takes the rank at each sample point), each
distinct one timed the same way (`tune`, through the `tune_timing` hook) at
the first M it serves, and the fastest kept: in the disk cache, with every
candidate's plan, predicted and measured time in `tuning.jsonl` there (what
the cost model's calibration is refit from) and in the report. The measured
choice against cuBLAS then takes the winner.
`report(graph_index=None)` says, per graph, each sol region with its kernels,
plans, predicted times and FLOPs, each matmul left to Inductor and why, and
the share of the graph's matmul FLOPs that sol runs.
"""

import contextlib
import ctypes
import hashlib
import itertools
import json
import logging
import operator
import os
import threading
import time
from dataclasses import dataclass, field

import torch
import torch.fx

import sol

log = logging.getLogger("sol")

aten = torch.ops.aten
prims = torch.ops.prims

_DTYPES = {torch.float16: "f16", torch.bfloat16: "bf16", torch.float32: "f32"}
# A region's output types (the spec's out_dtypes): its float types, and
# fp8 codes a cast to fp8 at the end of an epilogue writes (a static
# quantisation of the next layer's input, docs/fp8.md).
_OUT_DTYPES = {**_DTYPES, torch.float8_e4m3fn: "f8e4m3fn",
               torch.float8_e5m2: "f8e5m2"}
_TORCH_DTYPES = {v: k for k, v in _OUT_DTYPES.items()}
# fp8 storage types: operands of `torch._scaled_mm` alone (docs/fp8.md).
_FP8 = {torch.float8_e4m3fn: "f8E4M3FN", torch.float8_e5m2: "f8E5M2"}

#===----------------------------------------------------------------------===#
# What the pass recognises
#===----------------------------------------------------------------------===#

# ATen elementwise ops and the sol op each becomes.
_BINARY = {
    aten.add.Tensor: "add", aten.sub.Tensor: "sub", aten.mul.Tensor: "mul",
    aten.div.Tensor: "div", aten.maximum.default: "max",
    aten.minimum.default: "min",
}
_UNARY = {
    aten.neg.default: "neg", aten.abs.default: "abs", aten.exp.default: "exp",
    aten.tanh.default: "tanh", aten.erf.default: "erf",
    aten.sigmoid.default: "sigmoid",
    aten.relu.default: "relu", aten.silu.default: "silu",
}
_CASTS = {prims.convert_element_type.default, aten._to_copy.default}
# clamp(x, lo, hi) with constant bounds (either may be None): sol.max and
# sol.min with constants. A static fp8 quantisation clamps to the kind's
# range before its cast.
_CLAMPS = {aten.clamp.default, aten.clamp_min.default,
           aten.clamp_max.default}
_GELU = {aten.gelu.default}
_POW = {aten.pow.Tensor_Scalar}
# Reshapes the pass looks through (of leading dims only: the last dim, the
# one sol's [M, N] values are laid out along, stays).
_RESHAPES = {aten.view.default, aten.reshape.default,
             aten._unsafe_view.default, aten.squeeze.dim,
             aten.unsqueeze.default}
_TRANSPOSES = {aten.permute.default, aten.t.default,
               aten.transpose.int}
_MATMULS = {aten.mm.default, aten.addmm.default, aten._scaled_mm.default}
# Matmuls the pass counts but does not take (yet); `_why_not_batched`
# says why for each.
_OTHER_MATMULS = {aten.bmm.default, aten.baddbmm.default}


def _why_not_batched(node):
    """Why a bmm/baddbmm stays with Inductor, for the report. Its usual
    form in a model is eager attention (scores Q @ K^T, context P @ V):
    both operands are activations and the sequence is a dynamic N or K,
    where sol's dynamic kernels take a dynamic M alone."""
    name = str(node.target).split(".")[1]
    b = node.args[-1]
    if _is_tensor(b) and any(isinstance(d, torch.SymInt)
                             for d in _shape(b)[1:]):
        return (f"{name} with a dynamic N or K (attention over the "
                "sequence): sol's dynamic kernels take a dynamic M alone")
    return (f"{name}: sol's batched matmul (mma.sync with a batched B) is "
            "not taken from the graph yet")



def _is_elementwise(target):
    """Whether an ATen op is one of the elementwise ops sol's epilogues
    spell (the growth's and the fused-projection split's one list)."""
    return target in _BINARY or target in _UNARY or target in _CASTS or \
        target in _GELU or target in _POW or target in _CLAMPS


def _clamp_bounds(node):
    """(lo, hi) of a clamp node, None where it has none."""
    if node.target == aten.clamp_min.default:
        return node.args[1], None
    if node.target == aten.clamp_max.default:
        return None, node.args[1]
    args = list(node.args[1:]) + [None, None]
    return (node.kwargs.get("min", args[0]), node.kwargs.get("max", args[1]))


# The integer powers written as products (x**2, GELU-tanh's x**3).
_MAX_INTEGER_POWER = 4


def _val(node):
    return node.meta.get("val") if isinstance(node, torch.fx.Node) else None


def _is_tensor(node):
    return isinstance(_val(node), torch.Tensor)


def _shape(node):
    return tuple(_val(node).shape)


def _hint(dim):
    """A concrete value for a possibly symbolic size (its example value)."""
    if isinstance(dim, int):
        return dim
    try:
        return int(dim.node.hint) if dim.node.hint is not None else \
            int(dim.node.shape_env.size_hint(dim.node.expr))
    except Exception:
        return int(dim.node.shape_env.size_hint(dim.node.expr))


def _same_dim(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    expr = lambda d: d.node.expr if isinstance(d, torch.SymInt) else d
    try:
        import sympy
        return sympy.simplify(expr(a) - expr(b)) == 0
    except Exception:
        return str(expr(a)) == str(expr(b))


def _numel(shape):
    n = 1
    for d in shape:
        n = n * d
    return n


def _weight_of(b):
    """(weight node, transpose_b) for a matmul's B operand: nn.Linear's
    `permute(w, [1, 0])` / `t(w)` of a 2-D `[N, K]` tensor is read as `w`
    with transpose_b; a plain `[K, N]` tensor as it is."""
    src = _transpose_source(b)
    if src is not None and _val(src).is_contiguous():
        return src, True
    return b, False


def _arg_of(node, target, index=0):
    """`node.args[index]` when `node` calls `target` (a set of ops), else
    None."""
    if isinstance(node, torch.fx.Node) and node.op == "call_function" and \
            node.target in target and len(node.args) > index:
        return node.args[index]
    return None


def _cast_to(node):
    """The dtype a convert_element_type / _to_copy `node` casts to, else
    None."""
    if not isinstance(node, torch.fx.Node) or node.op != "call_function" \
            or node.target not in _CASTS:
        return None
    if set(node.kwargs) - {"dtype"}:
        return None
    if node.target == prims.convert_element_type.default:
        return node.args[1] if len(node.args) > 1 else None
    return node.kwargs.get("dtype")


def _dequantised_weight(weight):
    """(codes, scale or None, chain) when `weight` (a matmul's B, [N, K]
    before its transpose) is fp8 weight codes dequantised to a 16-bit type
    in the graph (weight-only fp8, docs/fp8.md): `codes.to(T)`, or
    `(codes.to(f32) * scale).to(T)` with an f32 scale per output channel
    ([N, 1]) or per tensor, as torchao's float8 weight-only layers and
    bench/hf_models.py's Fp8WeightOnlyLinear write it. `chain` is the
    dequantising nodes from the codes' first cast to `weight`. sol reads the
    codes and applies the scale to the f32 product (scale_b), so the
    dequantised weight is never written; else None."""
    if _cast_to(weight) not in (torch.float16, torch.bfloat16):
        return None
    chain, scale, codes = [weight], None, weight.args[0]
    mul = codes
    if isinstance(mul, torch.fx.Node) and mul.op == "call_function" and \
            mul.target == aten.mul.Tensor and len(mul.args) == 2:
        cast, scale = mul.args
        if _cast_to(cast) is None:
            cast, scale = scale, cast
        if _cast_to(cast) != torch.float32 or not _is_tensor(scale) or \
                _val(scale).dtype != torch.float32:
            return None
        chain, codes = [cast, mul, weight], cast.args[0]
    if not _is_tensor(codes) or _val(codes).dtype not in _FP8 or \
            len(_shape(codes)) != 2 or not _val(codes).is_contiguous():
        return None
    if scale is not None and \
            _scale_role(scale, _shape(codes)[0]) not in ("scalar", "channel"):
        return None
    return codes, scale, chain


def _scale_role(scale, n):
    """How a scale enters sol.matmul: 'scalar' (one value), 'vector' ([N] or
    [1, N], per output channel as _scaled_mm writes it), 'channel' ([N, 1],
    per output channel as a dequantised [N, K] weight's rows scale), else
    None."""
    shape = _shape(scale)
    if all(_same_dim(d, 1) for d in shape):
        return "scalar"
    if len(shape) >= 1 and _same_dim(shape[-1], n) and \
            all(_same_dim(d, 1) for d in shape[:-1]):
        return "vector"
    if len(shape) == 2 and _same_dim(shape[0], n) and _same_dim(shape[1], 1):
        return "channel"
    return None


def _weight_only(node):
    """`_dequantised_weight` of a mm/addmm root's transposed weight, or
    None."""
    if node.target not in (aten.mm.default, aten.addmm.default):
        return None
    b = node.args[2] if node.target == aten.addmm.default else node.args[1]
    weight, transpose_b = _weight_of(b)
    return _dequantised_weight(weight) if transpose_b else None


_SCALED_MM_ARGS = ("self", "mat2", "scale_a", "scale_b", "bias",
                   "scale_result", "out_dtype", "use_fast_accum")


def _scaled_mm_args(node):
    """`torch._scaled_mm`'s arguments by name, defaults filled in."""
    named = dict(zip(_SCALED_MM_ARGS, node.args), **node.kwargs)
    for name in _SCALED_MM_ARGS[4:]:
        named.setdefault(name, None)
    return named


def _scales_of(node):
    """(scale_a, scale_b) nodes of an fp8 root (a weight-only one's scale_b
    alone, or none); (None, None) otherwise."""
    if node.target != aten._scaled_mm.default:
        weight_only = _weight_only(node)
        return None, weight_only[1] if weight_only else None
    named = _scaled_mm_args(node)
    return named["scale_a"], named["scale_b"]


def _matmul_parts(node):
    """(A, B node, transpose_b, bias or None) of a root, else a reason."""
    if node.target == aten._scaled_mm.default:
        named = _scaled_mm_args(node)
        if named["scale_result"] is not None:
            return "_scaled_mm with an fp8 result (scale_result)"
        if _val(node).dtype not in _DTYPES:
            return f"_scaled_mm into {_val(node).dtype}"
        weight, transpose_b = _weight_of(named["mat2"])
        if not transpose_b:
            # fp8 tensor cores read B K-major: sol takes it as the
            # transposed view of a contiguous [N, K] weight (docs/fp8.md).
            return "_scaled_mm whose B is not the transposed view of a " \
                "contiguous [N, K] weight"
        return named["self"], weight, transpose_b, named["bias"]
    if node.target == aten.addmm.default:
        if node.kwargs.get("beta", 1) != 1 or node.kwargs.get("alpha", 1) != 1:
            return "addmm with alpha or beta"
        bias, a, b = node.args[:3]
    else:
        a, b = node.args[:2]
        bias = None
    weight, transpose_b = _weight_of(b)
    weight_only = _dequantised_weight(weight) if transpose_b else None
    if weight_only:
        weight = weight_only[0]
    return a, weight, transpose_b, bias


#===----------------------------------------------------------------------===#
# Fused projections
#===----------------------------------------------------------------------===#

_SPLITS = {aten.split.Tensor, aten.split_with_sizes.default}


def _chunk_bounds(split, cols):
    """[(first, last)) column ranges of a split of the last dim into
    `cols` columns, or None."""
    sizes = split.args[1]
    dim = split.args[2] if len(split.args) > 2 else split.kwargs.get("dim", 0)
    if dim not in (-1, len(_shape(split.args[0])) - 1):
        return None
    if split.target == aten.split.Tensor:
        if not isinstance(sizes, int) or sizes <= 0:
            return None
        sizes = [min(sizes, cols - c) for c in range(0, cols, sizes)]
    if not all(isinstance(c, int) for c in sizes) or sum(sizes) != cols:
        return None
    bounds, first = [], 0
    for size in sizes:
        bounds.append((first, first + size))
        first += size
    return bounds


# How far (in elementwise ops) the two halves of a fused projection may run
# apart before they meet: Inductor's decompositions make silu(gate) * up
# four ops deep (gate / (1 + exp(-gate)) * up), tanh-GELU about ten.
_MEET_DEPTH = 12


def _elementwise_reach(node, depth=_MEET_DEPTH):
    """The nodes reached from `node` through elementwise ops alone."""
    reached, frontier = set(), [node]
    for _ in range(depth):
        frontier = [u for n in frontier for u in n.users
                    if u.op == "call_function" and u not in reached and
                    _is_elementwise(u.target)]
        if not frontier:
            break
        reached.update(frontier)
    return reached


def _chunks_meet(items):
    """Whether the two chunks' values meet in one elementwise op, as a gated
    MLP's gate and up halves do (silu(gate) * up): only then does splitting
    the projection pay, since the pair becomes one sibling kernel whose
    epilogue writes the product, not both halves."""
    first, second = items
    return bool(_elementwise_reach(first) & _elementwise_reach(second))


def _fused_projection(split):
    """(root, reshapes, getitems, bounds) when `split` cuts the output of an
    nn.Linear-style root (an [N, K] weight read transposed), through
    reshapes of its leading dims only, into two equal column halves that
    meet in a binary op; else None."""
    chain, node = [], split.args[0]
    while node.op == "call_function" and node.target in _RESHAPES:
        if len(node.users) != 1 or not _is_tensor(node.args[0]) or \
                not _same_dim(_shape(node)[-1], _shape(node.args[0])[-1]):
            return None
        chain.append(node)
        node = node.args[0]
    root = node
    if root.op != "call_function" or root.target not in _MATMULS or \
            len(root.users) != 1:
        return None
    parts = _matmul_parts(root)
    if isinstance(parts, str) or not parts[2]:
        return None
    cols = _shape(root)[-1]
    bounds = _chunk_bounds(split, cols) if isinstance(cols, int) else None
    items = list(split.users)
    if bounds is None or len(bounds) != 2 or \
            bounds[0][1] - bounds[0][0] != bounds[1][1] - bounds[1][0] or \
            len(items) != 2 or any(u.target != operator.getitem
                                   for u in items):
        return None
    items.sort(key=lambda u: u.args[1])
    if [u.args[1] for u in items] != [0, 1] or not _chunks_meet(items):
        return None
    return root, list(reversed(chain)), items, bounds


def _replay_reshape(graph, reshape, value, cols):
    """`reshape` (of leading dims) applied to `value`, whose last dim is
    `cols` wide: a view's target shape gets `cols` as its last entry."""
    arg = reshape.args[1]
    if reshape.target in (aten.squeeze.dim, aten.unsqueeze.default):
        fake_arg = arg
    else:
        arg = list(arg)
        arg[-1] = cols
        fake_arg = [_val(d) if isinstance(d, torch.fx.Node) else d
                    for d in arg]
    fake = reshape.target(_val(value), fake_arg)
    node = graph.call_function(reshape.target, (value, arg))
    node.meta["val"] = fake
    return node


def split_fused_projections(graph):
    """Rewrites `split(x @ W^T, N/2, -1)` whose halves meet in one op (Phi-3's
    gate_up_proj, chunked) as two matmuls over the weight's row halves, so
    the growth below pairs them as sibling matmuls with the gated product
    in their epilogue: sol then writes [M, N/2] once instead of [M, N] for
    Inductor to read back. The row halves of a contiguous [N, K] weight are
    contiguous views; a [K, N] weight's column halves would not be, so only
    the transposed reading is split. Returns the split root names."""
    done = []
    for split in [n for n in graph.nodes
                  if n.op == "call_function" and n.target in _SPLITS]:
        found = _fused_projection(split)
        if found is None:
            continue
        root, chain, items, bounds = found
        a, weight, _, bias = _matmul_parts(root)
        # A weight-only fp8 projection's halves read its dequantised weight
        # (a bf16 matmul each): slicing the codes alone would drop the
        # dequantisation.
        weight_only = _weight_only(root)
        if weight_only:
            weight = weight_only[2][-1]
        for item, (first, last) in zip(items, bounds):
            with graph.inserting_before(item):
                half = graph.call_function(aten.slice.Tensor,
                                           (weight, 0, first, last))
                half.meta["val"] = aten.slice.Tensor(_val(weight), 0, first,
                                                     last)
                b = graph.call_function(aten.permute.default, (half, [1, 0]))
                b.meta["val"] = aten.permute.default(half.meta["val"], [1, 0])
                if bias is None:
                    value = graph.call_function(aten.mm.default, (a, b))
                    value.meta["val"] = aten.mm.default(_val(a),
                                                        b.meta["val"])
                else:
                    part = graph.call_function(aten.slice.Tensor,
                                               (bias, -1, first, last))
                    part.meta["val"] = aten.slice.Tensor(_val(bias), -1,
                                                         first, last)
                    value = graph.call_function(aten.addmm.default,
                                                (part, a, b))
                    value.meta["val"] = aten.addmm.default(
                        part.meta["val"], _val(a), b.meta["val"])
                for reshape in chain:
                    value = _replay_reshape(graph, reshape, value,
                                            last - first)
            item.replace_all_uses_with(value)
        for dead in items + [split] + list(reversed(chain)) + [root]:
            graph.erase_node(dead)
        done.append(root.name)
    return done


#===----------------------------------------------------------------------===#
# Regions
#===----------------------------------------------------------------------===#

@dataclass
class Region:
    """One sol::fused call: matmul roots, their epilogue and the reshapes
    between them, in graph order."""
    roots: list
    members: list = field(default_factory=list)
    m: object = None          # the rows of every [M, N] value (maybe a SymInt)

    def contains(self, node):
        return node in self._set

    def add(self, node):
        self.members.append(node)
        self._set.add(node)

    def __post_init__(self):
        self._set = set()
        # The regions gathered into this one (`_Grower.gather`), each as its
        # roots and whether Inductor would run its epilogue as a pass of its
        # own (`_epilogue_feeds_a_matmul`): the trace-time bar prices that
        # pass part by part.
        self.parts = []
        # Those regions themselves, as they were before gathering: where
        # the gathered call loses the trace-time choice, each is tried alone
        # (`rewrite`), so one losing part does not take its winners with it.
        self.pieces = []

    def alone(self):
        """A copy of this region as it stands: a piece (`pieces`)."""
        piece = Region(roots=list(self.roots), m=self.m)
        for node in self.members:
            piece.add(node)
        piece.parts = list(self.parts)
        return piece


class _Topo:
    """Graph positions, for the convexity check."""

    def __init__(self, graph):
        self.index = {n: i for i, n in enumerate(graph.nodes)}

    def depends_on(self, node, members, lowest):
        """Whether `node` (outside the region) is computed from a member:
        then the region cannot take a consumer of `node`."""
        stack, seen = [node], set()
        while stack:
            n = stack.pop()
            if n in seen or self.index.get(n, -1) < lowest:
                continue
            seen.add(n)
            if n in members:
                return True
            stack.extend(n.all_input_nodes)
        return False


def _rows_of(node, m, n_cols=None):
    """Whether `node` is an [M, *] value for the region: its leading dims
    multiply to M (2-D `[M, N]` after a reshape of leading dims)."""
    shape = _shape(node)
    if len(shape) < 1:
        return False
    return _same_dim(_numel(shape[:-1]), m) and \
        (n_cols is None or _same_dim(shape[-1], n_cols))


def _classify_input(node, m, n_cols):
    """How an outside tensor enters an epilogue: 'rows' ([..., N] with M
    rows), 'vector' ([N] or [1, .., 1, N]), 'scalar' (one element), or a
    reason it cannot."""
    if not _is_tensor(node):
        return None
    value = _val(node)
    if value.dtype not in _DTYPES:
        return f"an input of dtype {value.dtype}"
    shape = _shape(node)
    if all(_same_dim(d, 1) for d in shape):
        return "scalar"
    if _same_dim(shape[-1], n_cols) and \
            all(_same_dim(d, 1) for d in shape[:-1]):
        return "vector"
    if _rows_of(node, m, n_cols):
        if not value.is_contiguous():
            return "a non-contiguous [M, N] input"
        return "rows"
    return f"an input of shape {list(shape)} (not [M, N], [N] or a scalar)"


def _scale_blocks(size):
    """Blocks of a block-wise fp8 scale along a dim of `size` (the
    reference's SCALE_BLOCK: torch._scaled_mm's BlockWise1x128 and
    BlockWise128x128 scalings); None for a symbolic size."""
    from .reference import SCALE_BLOCK
    return -(-size // SCALE_BLOCK) if isinstance(size, int) else None


def _block_scale_a(node):
    """Whether an fp8 root's scale_a is block-wise: [M, ceil(K/128)], one
    per token and 128-deep group of K, more than one group (sol reads
    `_block_scale_a_rows`)."""
    scale = _block_scale_a_rows(node)
    if node.target != aten._scaled_mm.default or scale is None or \
            not _is_tensor(scale):
        return False
    shape, k = _shape(scale), _shape(_matmul_parts(node)[0])[-1]
    blocks = _scale_blocks(k)
    return len(shape) == 2 and blocks is not None and blocks > 1 and \
        _same_dim(shape[1], blocks)


# Where `row_major_block_scales` found an fp8 root's scale_a stored M-major
# (`node.meta` key): the row-major [M, ceil(K/128)] node sol reads instead.
_SCALE_A_ROWS = "sol_block_scale_a_rows"


def _block_scale_a_rows(node):
    """The scale_a node sol reads for an fp8 root: the row-major form
    `row_major_block_scales` found or made for an M-major one, else the
    root's own scale_a."""
    return node.meta.get(_SCALE_A_ROWS) or _scales_of(node)[0]


def _transpose_source(node):
    """`x` where `node` is a 2-D transpose of a 2-D `x` (permute [1, 0],
    t, transpose), else None."""
    if not isinstance(node, torch.fx.Node) or node.op != "call_function" \
            or node.target not in _TRANSPOSES or len(_shape(node)) != 2:
        return None
    if node.target == aten.permute.default and list(node.args[1]) != [1, 0]:
        return None
    return node.args[0] if _is_tensor(node.args[0]) else None


def _contiguous_copy_source(node):
    """`x` where `node` is a contiguous copy of `x` (`x.contiguous()` /
    `clone` into the contiguous format), else None."""
    if not isinstance(node, torch.fx.Node) or node.op != "call_function" \
            or node.target != aten.clone.default:
        return None
    fmt = node.kwargs.get("memory_format")
    if fmt not in (None, torch.contiguous_format):
        return None
    return node.args[0]


def row_major_block_scales(graph):
    """Gives each `_scaled_mm` with block-wise scales whose scale_a is
    stored M-major (the transpose of a contiguous [ceil(K/128), M]: what
    torch's CUDA _scaled_mm requires for BlockWise1x128, ScaledBlas.cpp's
    is_blockwise_1x128_scaling) the row-major [M, ceil(K/128)] node sol's
    kernels read (sol's dynamic M is the outermost dim of every operand,
    docs/dynamic-shapes.md). That is the tensor the M-major one was made
    from where the model wrote `s.t().contiguous().t()`, else a contiguous
    copy inserted before the matmul (a small transpose Inductor compiles,
    M x ceil(K/128) floats; dropped as dead code when the region stays
    with Inductor, whose _scaled_mm reads the M-major form it has).
    Returns the roots' names and whether a copy was made."""
    done = []
    for node in [n for n in graph.nodes if n.op == "call_function" and
                 n.target == aten._scaled_mm.default]:
        scale = _scales_of(node)[0]
        if scale is None or not _is_tensor(scale) or \
                _val(scale).is_contiguous():
            continue
        m_major = _transpose_source(scale)
        if m_major is None or not _val(m_major).is_contiguous():
            continue
        rows = _transpose_source(_contiguous_copy_source(m_major))
        if rows is not None and _val(rows).is_contiguous():
            node.meta[_SCALE_A_ROWS] = rows
            done.append((node.name, False))
            continue
        with graph.inserting_before(node):
            rows = graph.call_function(
                aten.clone.default, (scale,),
                {"memory_format": torch.contiguous_format})
        rows.meta["val"] = aten.clone.default(
            _val(scale), memory_format=torch.contiguous_format)
        node.meta[_SCALE_A_ROWS] = rows
        done.append((node.name, True))
    return done


def _block_scale_b(node):
    """(is block-wise, source) for an fp8 root's scale_b: torch._scaled_mm
    takes B's 128 x 128 block scales [ceil(K/128), ceil(N/128)]; sol reads
    them [ceil(N/128), ceil(K/128)], which the usual transposed view of a
    checkpoint's `weight_scale_inv` is of: its source, or None where the
    scale is another tensor."""
    scale = _scales_of(node)[1]
    if node.target != aten._scaled_mm.default or scale is None or \
            not _is_tensor(scale):
        return False, None
    shape = _shape(scale)
    k = _shape(_matmul_parts(node)[0])[-1]
    n = _shape(node)[-1]
    if len(shape) != 2 or _scale_blocks(k) is None or \
            not _same_dim(shape[0], _scale_blocks(k)) or \
            not _same_dim(shape[1], _scale_blocks(n)) or \
            _same_dim(shape[1], n):
        return False, None
    source, transposed = _weight_of(scale)
    return True, source if transposed else None


def _why_not_scales(node, m, n):
    """Why sol cannot take an fp8 root's scales ('' when it can): f32, per
    tensor or per token ([M, 1]) for A, per tensor or per output channel
    ([1, N] / [N]) for B, as sol.matmul's scale operands take them; or
    block-wise (`_block_scale_a`, `_block_scale_b`)."""
    block_b, source = _block_scale_b(node)
    if block_b and source is None:
        return ("_scaled_mm's block-wise scale_b is not the transpose of a "
                "contiguous [ceil(N/128), ceil(K/128)] tensor (sol reads B's "
                "block scales N-major)")
    for what, scale, per in (("scale_a", _scales_of(node)[0], "rows"),
                             ("scale_b", _scales_of(node)[1], "vector")):
        if scale is None:
            continue
        if not _is_tensor(scale) or _val(scale).dtype != torch.float32:
            return f"_scaled_mm's {what} is not an f32 tensor"
        if what == "scale_b" and block_b:
            continue
        if what == "scale_a" and _block_scale_a(node):
            scale = _block_scale_a_rows(node)
            kind = _classify_input(scale, m, _shape(scale)[-1])
            if kind != "rows":
                return f"_scaled_mm's block-wise scale_a: {kind}"
            continue
        if what == "scale_b" and _scale_role(scale, n) == "channel" and \
                node.target != aten._scaled_mm.default:
            continue   # a dequantised weight's per-row scale
        kind = _classify_input(scale, m, 1 if per == "rows" else n)
        if kind not in ("scalar", per):
            return f"_scaled_mm's {what}: {kind}"
    return ""


class _Grower:
    """Grows regions from the matmul roots of one graph."""

    def __init__(self, graph):
        self.graph = graph
        self.topo = _Topo(graph)
        self.owner = {}        # node -> Region
        self.regions = []
        self.refused = {}      # matmul node name -> reason

    def root(self, node):
        parts = _matmul_parts(node)
        if isinstance(parts, str):
            self.refused[node.name] = parts
            return
        a, b, transpose_b, bias = parts
        dtypes = _FP8 if node.target == aten._scaled_mm.default else _DTYPES
        # Weight-only fp8: a 16-bit A against the codes its graph
        # dequantised (`_dequantised_weight`).
        weight_only = _weight_only(node) is not None
        for what, operand in (("A", a), ("B", b)):
            if not _is_tensor(operand):
                self.refused[node.name] = f"{what} is not a tensor"
                return
            allowed = _FP8 if weight_only and what == "B" else dtypes
            if _val(operand).dtype not in allowed:
                self.refused[node.name] = \
                    f"{what} has dtype {_val(operand).dtype}"
                return
        if not weight_only and _val(a).dtype != _val(b).dtype:
            self.refused[node.name] = "A and B have different dtypes"
            return
        if len(_shape(a)) != 2 or len(_shape(b)) != 2:
            self.refused[node.name] = "A or B is not 2-D"
            return
        for what, dim in (("N", _shape(b)[0 if transpose_b else 1]),
                          ("K", _shape(a)[1])):
            if not isinstance(dim, int):
                self.refused[node.name] = f"{what} is symbolic (weights are " \
                    "static)"
                return
        if bias is not None:
            kind = _classify_input(bias, _shape(a)[0], _shape(node)[1])
            if kind not in ("vector", "rows", "scalar"):
                self.refused[node.name] = f"addmm's bias: {kind}"
                return
        reason = _why_not_scales(node, _shape(a)[0], _shape(node)[1])
        if reason:
            self.refused[node.name] = reason
            return
        region = Region(roots=[node], m=_shape(a)[0])
        region.add(node)
        self.owner[node] = region
        self.regions.append(region)

    def convex(self, members):
        """Whether nothing outside `members` both reads a member and feeds
        one (then the fused call could be placed nowhere)."""
        lowest = min(self.topo.index[n] for n in members)
        for node in members:
            for arg in node.all_input_nodes:
                if arg not in members and \
                        self.topo.depends_on(arg, members, lowest):
                    return False
        return True

    def pending(self, node):
        """Whether `node` is not in a region yet but another region will
        take it: a consumer of `node` waits for that, so a SwiGLU product
        sees both projections' regions (`_taker`)."""
        return self._taker(node, _MEET_DEPTH, {}) is not None

    def _taker(self, node, depth, seen):
        """The region that will take `node`, not in one yet: a reshape or
        elementwise op over its members, or over such ops it takes first,
        up to `depth` ops back (`seen`: the answers so far, so a node
        reached along several paths is asked once). One op back is not
        enough: in bf16 the gate of a SwiGLU reaches the product through
        two casts and silu's four ops, while the up projection's region
        reaches it at once, and took it alone (reading the gate's result as
        an input) before the gate's region got there, so the pair was never
        one sibling kernel."""
        if node in seen:
            return seen[node]
        seen[node] = None
        if node in self.owner or node.op != "call_function" or depth == 0 \
                or not (_is_elementwise(node.target) or
                        node.target in _RESHAPES):
            return None
        for arg in node.all_input_nodes:
            region = self.owner.get(arg) or self._taker(arg, depth - 1, seen)
            if region is not None and \
                    self.absorbable(node, region, probe=True)[0] is None:
                seen[node] = region
                return region
        return None

    def absorbable(self, node, region, probe=False):
        """(None, regions to merge) if `node` can join `region`, else
        (the reason, ())."""
        target = node.target
        if node.op != "call_function":
            return "not a function call", ()
        if not _is_tensor(node) or (_val(node).dtype not in _DTYPES and not (
                target in _CASTS and _val(node).dtype in _FP8)):
            return "not a float tensor", ()
        if target in _RESHAPES:
            src = node.args[0]
            if not (_rows_of(node, region.m) and
                    _same_dim(_shape(node)[-1], _shape(src)[-1])):
                return "a reshape of the last dim", ()
            return None, ()
        if not _is_elementwise(target):
            return f"{target} is not elementwise", ()
        if target in _POW and not (isinstance(node.args[1], (int, float))
                                   and float(node.args[1]).is_integer() and
                                   1 <= node.args[1] <= _MAX_INTEGER_POWER):
            return "pow with a non-integer exponent", ()
        if target in _CASTS and set(node.kwargs) - {"dtype"}:
            return "a copy with layout or device changes", ()
        if target in _CLAMPS and not all(
                b is None or isinstance(b, (int, float))
                for b in _clamp_bounds(node)):
            return "clamp with tensor bounds", ()
        if target in _GELU and node.kwargs.get("approximate", "none") not in \
                ("none", "tanh"):
            return "gelu approximation", ()
        if target in _BINARY and node.kwargs.get("alpha", 1) != 1:
            return "add with alpha", ()
        if not _rows_of(node, region.m):
            return f"its shape {list(_shape(node))} has not M rows", ()
        if probe:
            return None, ()
        n_cols = _shape(node)[-1]
        merges = []
        lowest = min(self.topo.index[r] for r in region.members)
        for arg in node.args:
            if not isinstance(arg, torch.fx.Node) or region.contains(arg):
                continue
            other = self.owner.get(arg)
            if other is not None and other is not region and \
                    other not in merges and _same_dim(other.m, region.m) and \
                    self.convex(region._set | other._set | {node}):
                merges.append(other)
                continue
            if self.pending(arg):
                return "it waits for another region", ()
            kind = _classify_input(arg, region.m, n_cols)
            if kind not in ("rows", "vector", "scalar"):
                return f"it reads {kind}", ()
            if self.topo.depends_on(arg, region._set, lowest):
                return "its input depends on the region (a cycle)", ()
        return None, merges

    def merge(self, region, other):
        for n in other.members:
            self.owner[n] = region
        region.roots.extend(other.roots)
        merged = sorted(set(region.members) | set(other.members),
                        key=self.topo.index.get)
        region.members, region._set = [], set()
        for n in merged:
            region.add(n)
        self.regions.remove(other)

    def take(self, region, node):
        region.add(node)
        region.members.sort(key=self.topo.index.get)
        self.owner[node] = region

    def grow_all(self):
        """Grows every region through its consumers until none changes,
        then drops the members that only add an output."""
        changed = True
        while changed:
            changed = False
            for region in list(self.regions):
                if region not in self.regions:
                    continue
                for member in list(region.members):
                    for user in sorted(member.users, key=self.topo.index.get):
                        if user in self.owner:
                            continue
                        reason, merges = self.absorbable(user, region)
                        if reason is not None:
                            continue
                        for other in merges:
                            self.merge(region, other)
                        self.take(region, user)
                        changed = True
        for region in self.regions:
            self.prune(region)

    def gather(self):
        """Merges regions into one sol::fused call where no code of
        Inductor's has to run between them: regions whose matmuls read one
        A (a layer's q, k and v projections) and a region whose matmul reads
        another's result as its A (a SwiGLU product's down projection,
        GPT-2's GELU into c_proj). The kernels stay the same; only the calls
        do not. Outside CUDA graphs a decode step is host-bound, and one op
        call costs more host time than Inductor's extern mm (the dispatcher
        into Python, the outputs' allocation, the C launch: NOTES section
        49), so a Llama layer's six calls become three. Regions join where
        the union stays convex (it has one place in the graph) and is of one
        kind (`_kind`: an fp8 region with an fp8 one, a weight-only one with
        a weight-only one), so a backend option or a row limit that applies
        to one kind never moves another."""
        for region in self.regions:
            region.parts = [(list(region.roots), _epilogue_feeds_a_matmul(
                region, _outputs_of(region)))]
            region.pieces = [region.alone()]
        changed = True
        while changed:
            changed = False
            by_a = {}
            for region in self.regions:
                for root in region.roots:
                    by_a.setdefault(_value_key(_matmul_parts(root)[0]),
                                    []).append(region)
            for region in list(self.regions):
                if region not in self.regions:
                    continue
                for other in self._neighbours(region, by_a):
                    if other is region or other not in self.regions or \
                            _kind(other) != _kind(region) or \
                            not _same_dim(other.m, region.m) or \
                            not self.convex(region._set | other._set):
                        continue
                    self.merge(region, other)
                    region.parts.extend(other.parts)
                    region.pieces.extend(other.pieces)
                    changed = True
                if changed:
                    break

    def _neighbours(self, region, by_a):
        """The regions reading one A with `region`'s matmuls, then those
        whose matmul reads a result of `region` as its A, in graph order."""
        found = []
        for root in region.roots:
            found += by_a.get(_value_key(_matmul_parts(root)[0]), [])
        for node in region.members:
            for user in node.users:
                other = self.owner.get(user)
                if other is not None and user in other.roots and \
                        _matmul_parts(user)[0] is node:
                    found.append(other)
        unique = list({id(r): r for r in found}.values())
        return sorted(unique, key=lambda r: self.topo.index[r.members[0]])

    def prune(self, region):
        """Drops members no other member reads whose inputs in the region
        are outputs anyway (RMSNorm's square of a residual sum): they would
        add an output and save nothing; Inductor fuses them with their
        consumers instead. Also drops such a member that writes more bytes
        per row than the inputs it would make outputs, where Inductor fuses
        it into every consumer (`_inductor_fuses_into`): an fp8 layer's
        activation quantisation reads the SwiGLU product as f32 and its
        absolute value, two f32 outputs of the region where the bf16
        product is one at half the bytes of either."""
        changed = True
        while changed:
            changed = False
            for node in reversed(list(region.members)):
                if node in region.roots or \
                        any(region.contains(u) for u in node.users):
                    continue
                inside = [a for a in node.all_input_nodes
                          if region.contains(a)]
                newly_out = [a for a in inside
                             if not any(not region.contains(u) and u is not
                                        node for u in a.users)]
                if not newly_out or (
                        sum(map(_row_bytes, newly_out)) < _row_bytes(node)
                        and all(map(_inductor_fuses_into, node.users))):
                    region.members.remove(node)
                    region._set.discard(node)
                    del self.owner[node]
                    changed = True


# Reductions Inductor fuses a pointwise producer into (the activation
# quantisation's amax, a norm's mean).
_REDUCTIONS = {aten.amax.default, aten.amin.default, aten.sum.dim_IntList,
               aten.mean.dim, aten.max.dim, aten.min.dim,
               aten.var_mean.correction, aten.var.correction}


def _kind(region):
    """What `_Grower.gather` keeps apart: regions of fp8 matmuls
    (`torch._scaled_mm`), of weight-only fp8 ones and of the others."""
    return (any(r.target == aten._scaled_mm.default for r in region.roots),
            any(_weight_only(r) is not None for r in region.roots))


def _inductor_fuses_into(user):
    """Whether Inductor computes a pointwise producer inside `user`'s own
    kernel (a pointwise op or a reduction), so the producer costs no pass
    of its own; not an extern kernel (a matmul, attention) nor the graph's
    output, which read it from memory."""
    if user.op != "call_function":
        return False
    return user.target in _REDUCTIONS or \
        torch.Tag.pointwise in getattr(user.target, "tags", ())


def _row_bytes(node):
    """Bytes of one of `node`'s [M, N] rows."""
    value = _val(node)
    return _hint(_shape(node)[-1]) * value.dtype.itemsize


#===----------------------------------------------------------------------===#
# A region as sol IR and as ATen ops
#===----------------------------------------------------------------------===#

def _value_key(node):
    """What identifies `node`'s value among a region's inputs: a reshape of
    a source to a shape is the same value as any other reshape of that
    source to that shape. Inductor's graph reads the gate and up
    projections' A as two views of the normed hidden state; as two inputs
    sol-fuse could not pair the matmuls as siblings (one A for both)."""
    if node.op == "call_function" and node.target in _RESHAPES and \
            isinstance(node.args[0], torch.fx.Node):
        return ("reshape", _value_key(node.args[0]),
                tuple(str(d) for d in _shape(node)))
    return node


class _Spec:
    """Builds a region's spec: sol IR over [M, N] values with "{M}" for the
    rows, the roles of the op's inputs and the ATen program for the
    fallback."""

    def __init__(self, region):
        self.region = region
        self.inputs = []       # fx Nodes, in op order
        self.roles = []        # "rows" | "vector" | "scalar" | "a" | "b"
        self.values = {}       # fx Node -> (ssa, type)
        self.keyed = {}        # _value_key -> the input node of that value
        self.aliases = {}      # fx Node -> the input node of its value
        self.lines = []
        self.count = 0

    def fresh(self):
        self.count += 1
        return f"%v{self.count}"

    def ty(self, cols, elem):
        return f"tensor<{{M}}x{cols}x{elem}>"

    def arg(self, node, role):
        if node in self.values:
            return self.values[node]
        same = self.keyed.get(_value_key(node))
        if same is not None and self.roles[self.inputs.index(same)] == role:
            self.aliases[node] = same
            self.values[node] = self.values[same]
            return self.values[node]
        self.keyed[_value_key(node)] = node
        index = len(self.inputs)
        self.inputs.append(node)
        self.roles.append(role)
        shape = _shape(node)
        elem = {**_DTYPES, **_FP8}[_val(node).dtype]
        if role in ("a", "rows"):
            ty = self.ty(shape[-1], elem)
        elif role == "b":
            ty = f"tensor<{shape[0]}x{shape[1]}x{elem}>"
        elif role == "vector":
            ty = f"tensor<{shape[-1]}x{elem}>"
        elif role == "channel":   # [N, 1], flattened to [N]
            ty = f"tensor<{shape[0]}x{elem}>"
        else:
            ty = f"tensor<{elem}>"
        self.values[node] = (f"%arg{index}", ty)
        return self.values[node]

    def operand(self, node, n_cols):
        if node in self.values:
            return self.values[node]
        return self.arg(node, _classify_input(node, self.region.m, n_cols))

    def cast(self, value, elem):
        name, ty = value
        old = ty.rsplit("x", 1)[-1][:-1] if "x" in ty else ty[7:-1]
        if old == elem:
            return value
        new_ty = ty[:len(ty) - len(old) - 1] + elem + ">"
        new = self.fresh()
        self.lines.append(f"{new} = sol.cast {name} : {ty} to {new_ty}")
        return new, new_ty

    def constant(self, value, elem):
        name = self.fresh()
        self.lines.append(f"{name} = sol.constant {float(value):.17e} : "
                          f"{elem}")
        return name, f"tensor<{elem}>"

    def scalar_or_tensor(self, arg, elem, cols):
        if isinstance(arg, torch.fx.Node):
            return self.cast(self.operand(arg, cols), elem)
        return self.constant(arg, elem)

    def emit(self, node):
        target = node.target
        elem = {**_DTYPES, **_FP8}[_val(node).dtype]
        cols = _shape(node)[-1]
        result = self.ty(cols, elem)
        if target in _MATMULS:
            a, b, transpose_b, bias = _matmul_parts(node)
            av, bv = self.arg(a, "a"), self.arg(b, "b")
            tb = " transpose_b" if transpose_b else ""
            block_b, block_source = _block_scale_b(node)
            for what, scale in zip(("scale_a", "scale_b"), _scales_of(node)):
                if scale is not None and what == "scale_b" and block_b:
                    # [ceil(N/128), ceil(K/128)], a static 2-D input.
                    sv = self.arg(block_source, "b")
                    tb += f" {what}({sv[0]} : {sv[1]})"
                elif scale is not None and what == "scale_a" and \
                        _block_scale_a(node):
                    rows = _block_scale_a_rows(node)
                    sv = self.operand(rows, _shape(rows)[-1])
                    tb += f" {what}({sv[0]} : {sv[1]})"
                elif scale is not None and what == "scale_b" and \
                        _scale_role(scale, cols) == "channel":
                    sv = self.arg(scale, "channel")
                    tb += f" {what}({sv[0]} : {sv[1]})"
                elif scale is not None:
                    sv = self.operand(scale, 1 if what == "scale_a" else cols)
                    tb += f" {what}({sv[0]} : {sv[1]})"
            name = self.fresh()
            self.lines.append(f"{name} = sol.matmul {av[0]}, {bv[0]}{tb} : "
                              f"{av[1]}, {bv[1]} -> {result}")
            value = (name, result)
            if bias is not None:
                c = self.cast(self.operand(bias, cols), elem)
                total = self.fresh()
                self.lines.append(f"{total} = sol.add {name}, {c[0]} : "
                                  f"{result}, {c[1]} -> {result}")
                value = (total, result)
            return value
        if target in _RESHAPES:
            return self.values[node.args[0]]
        if target in _CASTS:
            return self.cast(self.values[node.args[0]], elem)
        if target in _BINARY:
            a = self.scalar_or_tensor(node.args[0], elem, cols)
            b = self.scalar_or_tensor(node.args[1], elem, cols)
            name = self.fresh()
            self.lines.append(f"{name} = sol.{_BINARY[target]} {a[0]}, "
                              f"{b[0]} : {a[1]}, {b[1]} -> {result}")
            return name, result
        if target in _CLAMPS:
            value = self.cast(self.operand(node.args[0], cols), elem)
            for op, bound in zip(("max", "min"), _clamp_bounds(node)):
                if bound is None:
                    continue
                c = self.constant(bound, elem)
                name = self.fresh()
                self.lines.append(f"{name} = sol.{op} {value[0]}, {c[0]} : "
                                  f"{value[1]}, {c[1]} -> {result}")
                value = (name, result)
            return value
        if target in _POW:
            x = self.cast(self.operand(node.args[0], cols), elem)
            value = x
            for _ in range(int(node.args[1]) - 1):
                name = self.fresh()
                self.lines.append(f"{name} = sol.mul {value[0]}, {x[0]} : "
                                  f"{value[1]}, {x[1]} -> {result}")
                value = (name, result)
            return value
        x = self.cast(self.operand(node.args[0], cols), elem)
        name = self.fresh()
        if target in _GELU:
            approx = node.kwargs.get("approximate", "none")
            kind = "tanh" if approx == "tanh" else "erf"
            self.lines.append(f"{name} = sol.gelu {kind} {x[0]} : {result}")
        else:
            self.lines.append(f"{name} = sol.{_UNARY[target]} {x[0]} : "
                              f"{result}")
        return name, result

    def build(self, outputs):
        for node in self.region.members:
            self.values[node] = self.emit(node)
        results = [self.values[n] for n in outputs]
        args = ", ".join(f"{self.values[n][0]}: {self.values[n][1]}"
                         for n in self.inputs)
        body = "\n".join("    " + line for line in self.lines)
        return ("  func.func @sol_region(" + args + ") -> ("
                + ", ".join(t for _, t in results) + ") {\n" + body + "\n"
                + "    return " + ", ".join(v for v, _ in results) + " : "
                + ", ".join(t for _, t in results) + "\n  }")


def _aten_program(region, inputs, outputs, aliases=None, roles=None):
    """The region's ATen ops as JSON: the fallback when sol cannot run it.
    Values: {"in": i} an op input, {"node": j} an earlier op's result,
    {"col": v} a [N, 1] input flattened to [N] (`roles`); `aliases` maps a
    node to the input that holds its value (_value_key). A weight-only fp8
    matmul's dequantisation comes before it, marked "prologue": sol reads
    the codes, the ATen ops the dequantised weight."""
    where = {n: {"col": {"in": i}} if roles and roles[i] == "channel" else
             {"in": i} for i, n in enumerate(inputs)}
    for node, same in (aliases or {}).items():
        where[node] = where[same]
    program = []

    def encode(arg):
        if isinstance(arg, torch.fx.Node):
            if arg in where:
                return where[arg]
            raise ValueError(f"{arg.name} is neither an input nor earlier")
        if isinstance(arg, (list, tuple)):
            return {"list": [encode(a) for a in arg]}
        if isinstance(arg, torch.dtype):
            return {"dtype": str(arg).replace("torch.", "")}
        if isinstance(arg, torch.SymInt):
            return {"symint": True}
        if isinstance(arg, (bool, int, float, str)) or arg is None:
            return {"const": arg}
        raise ValueError(f"cannot encode {arg!r}")

    needed = list(region.members)
    # The transposed weight is an input (the permute's source); its
    # permute is rebuilt by the fallback.
    for node in needed:
        if node.target in _MATMULS:
            a, b, transpose_b, bias = _matmul_parts(node)
            weight_only = _weight_only(node)
            if weight_only:
                for step in weight_only[2]:
                    if step not in where:
                        program.append({
                            "op": str(step.target), "prologue": True,
                            "args": [encode(x) for x in step.args],
                            "kwargs": {k: encode(v)
                                       for k, v in step.kwargs.items()}})
                        where[step] = {"node": len(program) - 1}
                dequantise = {"codes": encode(weight_only[0]), "dtype": str(
                    _val(weight_only[2][-1]).dtype).replace("torch.", "")}
                b = weight_only[2][-1]
            args = [encode(a), {"t": encode(b)} if transpose_b else encode(b)]
            kwargs = {}
            if node.target == aten._scaled_mm.default:
                named = _scaled_mm_args(node)
                # A block-wise scale_b is its source's transpose (the
                # input the spec reads), as _scaled_mm takes it; an M-major
                # scale_a is its row-major form (`row_major_block_scales`)
                # handed back M-major.
                block_b, source = _block_scale_b(node)
                given = dict(named)
                if block_b:
                    given["scale_b"] = {"t": source}
                if _SCALE_A_ROWS in node.meta and _block_scale_a(node):
                    given["scale_a"] = {"m_major": node.meta[_SCALE_A_ROWS]}
                kwargs = {k: {how: encode(v) for how, v in given[k].items()}
                          if isinstance(given[k], dict) else encode(given[k])
                          for k in ("scale_a", "scale_b", "bias", "out_dtype",
                                    "use_fast_accum") if given[k] is not None}
            elif bias is not None:
                args = [encode(bias)] + args
            program.append({"op": str(node.target), "args": args,
                            "kwargs": kwargs})
            if weight_only:   # the codes and the type they dequantise to
                program[-1]["dequantise"] = dequantise
        elif node.target in _RESHAPES:
            program.append({"op": "reshape_rows", "args": [
                encode(node.args[0])], "kwargs": {},
                "cols": _shape(node)[-1]})
        else:
            program.append({"op": str(node.target),
                            "args": [encode(a) for a in node.args],
                            "kwargs": {k: encode(v)
                                       for k, v in node.kwargs.items()}})
        where[node] = {"node": len(program) - 1}
    return program, [where[n]["node"] for n in outputs]


#===----------------------------------------------------------------------===#
# The custom op
#===----------------------------------------------------------------------===#

_library = torch.library.Library("sol", "FRAGMENT")
_library.define("fused(Tensor[] inputs, SymInt[] out_dims, str spec) "
                "-> Tensor[]")
# The Python implementation under its own name: where sol::fused's kernel is
# the C++ one (sol/fast_op.py), that kernel serves the resolved calls and
# hands every other call to this one.
_library.define("fused_py(Tensor[] inputs, SymInt[] out_dims, str spec) "
                "-> Tensor[]")


def _out_shapes(out_dims, spec):
    shapes, at = [], 0
    for rank in spec["out_ranks"]:
        shapes.append(list(out_dims[at:at + rank]))
        at += rank
    return shapes


@torch.library.register_fake("sol::fused")
def _fused_fake(inputs, out_dims, spec):
    spec = _parse_spec(spec)
    return [inputs[0].new_empty(shape, dtype=_TORCH_DTYPES[dt])
            for shape, dt in zip(_out_shapes(out_dims, spec),
                                 spec["out_dtypes"])]


_spec_cache = {}


# A spec is its JSON after a digest of it, `_SPEC_KEY_CHARS` hex digits:
# the op's hot path keys on the digest alone. The dispatcher hands the
# implementation a new str each call, so a key on the whole spec (a few KB)
# would hash all of it on every call.
_SPEC_KEY_CHARS = 32


def _keyed(spec_json):
    return hashlib.sha256(spec_json.encode()).hexdigest()[:_SPEC_KEY_CHARS] \
        + spec_json


def _parse_spec(text):
    spec = _spec_cache.get(text)
    if spec is None:
        spec = json.loads(text[_SPEC_KEY_CHARS:])
        _spec_cache[text] = spec
    return spec


# Launchers by name (the spec names one): "device" launches sol's kernels on
# CUDA tensors and evaluates their manifests' programs in torch on others
# (the reference launcher: what CI runs without a GPU). Tests add theirs.
launchers = {}


def _device_launch(kernel, tensors):
    if tensors[0].is_cuda:
        kernel.launch_raw(tensors,
                          torch.cuda.current_stream(tensors[0].device)
                          .cuda_stream)
    else:
        from .reference import _reference_raw
        _reference_raw(kernel, tensors)


def _device_bind(kernel, device):
    """The hot-path form of the device launcher (see `_SolCall`): a
    function (pointers, M) launching `kernel` on `device`'s current stream,
    or None off CUDA (the reference launcher takes tensors, not pointers).
    The raw stream handle is what Inductor's own wrapper code reads: no
    torch.cuda.Stream object per call."""
    if device.type != "cuda":
        return None
    index = device.index if device.index is not None else \
        torch.cuda.current_device()
    bound = kernel.bind(index)
    raw_stream = torch._C._cuda_getCurrentRawStream

    def launch(pointers, m):
        bound(pointers, raw_stream(index), m)
    return launch


def _device_raw_bind(kernel, device):
    """(the C API's launch entry point, the kernel loaded on `device`) as
    addresses, for the C++ kernel (sol/fast_op.py); None off CUDA."""
    if device.type != "cuda":
        return None
    from . import fast_op
    index = device.index if device.index is not None else \
        torch.cuda.current_device()
    return fast_op.launch_entry(kernel.is_dynamic), kernel.load(index).value


# A launcher may carry `bind(kernel, device)`: the pointer form `_SolCall`
# launches through when it returns a function; and `raw_bind(kernel,
# device)`: C entry points the C++ kernel launches through.
_device_launch.bind = _device_bind
_device_launch.raw_bind = _device_raw_bind
launchers["device"] = _device_launch

# Where compiled regions are kept on disk (the backend's cache_dir option;
# None: SOL_CACHE_DIR or ~/.cache/sol). Not part of the spec: a cached graph
# must not depend on it.
cache_dir = None

_runners = {}
_runner_lock = threading.Lock()
# Regions that failed for an M: (spec, M) -> reason; they run their ATen ops.
failures = {}


# The token counts one dynamic kernel set covers (sol's default
# #sol.dim_range, docs/dynamic-shapes.md). An M outside it, or a region
# whose dynamic compilation failed, is compiled for that M alone.
DYNAMIC_RANGE = (1, 65536)
# Where a region whose matmuls could pair as siblings splits its dynamic
# kernel sets (the backend's `sibling_sets` option, on by default): sibling
# kernels need a full 128-row tile (whyNotSiblingWgmmaTma), and sol-fuse pairs a
# dynamic pair only where a generator takes it at every sample point of
# the set's range, so one set from M = 1 keeps two kernels at every M.
# Below, the decode paths' kernels; from here, one sibling kernel.
SIBLING_ROWS = 128
# The most rows a weight-only fp8 region has kernels for (gemv and swap_ab
# are the paths that read fp8 codes against a 16-bit A; past 32 rows
# swap_ab stacks 32-row blocks, each streaming the codes again, so its
# advantage over dequantising to bf16 for cuBLAS shrinks with M: 64 rows,
# decode's batch sizes). Past them the op runs Inductor's code for the
# region (`_past_max_rows`).
WEIGHT_ONLY_ROWS = 64


def _may_pair(spec):
    """Whether the region has two matmuls over one A (a SwiGLU's gate and
    up projections, one input since `_value_key`): sibling candidates."""
    return spec["roles"].count("a") == 1 and spec["roles"].count("b") >= 2


def dynamic_sets(spec):
    """The region's dynamic kernel sets: (key, min M, max M) each, the key
    "?" for the one from DYNAMIC_RANGE's start."""
    lo, hi = DYNAMIC_RANGE
    if spec.get("max_rows"):
        return [("?", lo, min(hi, spec["max_rows"]))]
    if spec.get("sibling_sets") and lo < SIBLING_ROWS <= hi:
        return [("?", lo, SIBLING_ROWS - 1),
                (f"?{SIBLING_ROWS}", SIBLING_ROWS, hi)]
    return [("?", lo, hi)]


def dynamic_key(spec, m):
    """The key of the dynamic kernel set holding M."""
    return next(key for key, lo, hi in dynamic_sets(spec) if lo <= m <= hi)


# Regions whose dynamic compilation failed: spec text -> the reason.
dynamic_failures = {}


def region_ir(spec, m):
    """The region's module at M rows; `m` a key of `dynamic_sets` ("?") for
    the dynamic module that serves every M of that set's range."""
    preset = spec["target"]
    attrs = []
    if preset and not preset.endswith(".json"):
        attrs.append(f'sol.target = #sol.target<"{preset}">')
    dim = str(m)
    if dim.startswith("?"):
        lo, hi = next((lo, hi) for key, lo, hi in dynamic_sets(spec)
                      if key == dim)
        attrs.append("sol.dim_range = #sol.dim_range<min = %d, max = %d>"
                     % (lo, hi))
        dim = "?"
    head = f" attributes {{{', '.join(attrs)}}}" if attrs else ""
    return f"module{head} {{\n" + spec["ir"].replace("{M}", dim) + "\n}\n"


def wants_dynamic(spec, text, m):
    """Whether M is served by the region's dynamic kernel set: the backend's
    `dynamic` option (default on), M in DYNAMIC_RANGE, and no earlier
    failure to compile that set."""
    return (spec.get("dynamic", True) and
            DYNAMIC_RANGE[0] <= m <= DYNAMIC_RANGE[1] and
            not _past_max_rows(spec, m) and text not in dynamic_failures)


def _past_max_rows(spec, m):
    """Whether M is past the rows any of the region's kernels take (a
    weight-only fp8 region's `max_rows`): the op runs its fallback there."""
    return bool(spec.get("max_rows")) and m > spec["max_rows"]


def compile_region(spec, m, rank=0):
    """The region's compilation at M rows, or for every M of a dynamic set
    when `m` is its key ("?"; caches: memory, then disk); with `rank` K,
    each kernel's K-th plan in the cost model's order (sol-tile's rank:
    what tuning times)."""
    from .torch_backend import _host_program_problem, compile_cached
    ir = region_ir(spec, m)
    target = spec["target"]
    options = dict(spec["options"], cache_dir=cache_dir)
    if rank:
        options["sol_options"] = " ".join(
            filter(None, [options.get("sol_options", ""), f"rank={rank}"]))
    compilation, _ = compile_cached(ir, None if ir.startswith(
        "module attributes") else target, options)
    problem = _host_program_problem(compilation)
    if problem:
        raise sol.SolError(problem)
    return compilation


def _runner(text, spec, m):
    if wants_dynamic(spec, text, m):
        key = dynamic_key(spec, m)
        runner = _runners.get((text, key))
        if runner is not None:
            return runner
        with _runner_lock:
            runner = _runners.get((text, key))
            if runner is None and text not in dynamic_failures:
                from .torch_backend import HostProgram
                try:
                    runner = HostProgram(compile_region(spec, key))
                    _runners[(text, key)] = runner
                except Exception as error:
                    dynamic_failures[text] = f"{type(error).__name__}: {error}"
                    log.warning("a sol region compiles per M: its dynamic "
                                "kernel set failed: %s", dynamic_failures[text])
        if runner is not None:
            return runner
    key = (text, m)
    runner = _runners.get(key)
    if runner is None:
        with _runner_lock:
            runner = _runners.get(key)
            if runner is None:
                from .torch_backend import HostProgram
                runner = HostProgram(compile_region(spec, m))
                _runners[key] = runner
    return runner


def _flatten(tensor, role, m):
    if role in ("a", "rows"):
        if not tensor.is_contiguous():
            tensor = tensor.contiguous()
        if tensor.dim() == 2:   # the matmul's own A: already [M, K]
            return tensor
        return tensor.reshape(m, tensor.shape[-1])
    if role == "vector":
        return tensor.reshape(tensor.shape[-1]).contiguous()
    if role == "channel":
        return tensor.reshape(tensor.shape[0]).contiguous()
    if role == "scalar":
        return tensor.reshape(()).contiguous()
    return tensor.contiguous()


# The hot path. In a decode step without CUDA graphs the host is the
# bottleneck and one sol::fused call is one region of one layer, so its host
# time is what sol adds over Inductor's extern mm (issue 16: 37 us against
# aten::mm's 25 on the H200). Everything that depends only on the spec and
# the output dims (the parsed spec, the choice, the runner for this M, the
# kernels bound to the device, the outputs' shapes) is resolved by the first
# call at those dims into a `_calls` entry; a later call reads its inputs'
# pointers, allocates its outputs and launches. Keyed by the spec's digest
# (`_SPEC_KEY_CHARS`) and the dims, not by M: [2, 6, N] and [3, 4, N]
# outputs have the same M but not the same shapes.
_calls = {}


def _fused_impl(inputs, out_dims, spec_text):
    call = _calls.get((spec_text[:_SPEC_KEY_CHARS], *out_dims))
    if call is not None:
        try:
            return call(inputs)
        except Exception as error:  # the model must not break
            _forget(_calls.pop((spec_text[:_SPEC_KEY_CHARS], *out_dims),
                               None), (spec_text[:_SPEC_KEY_CHARS],
                                       *out_dims))
            spec = _parse_spec(spec_text)
            m = inputs[0].shape[0]
            failures[(spec_text, m)] = f"{type(error).__name__}: {error}"
            log.warning("a sol region runs its ATen ops at M=%d from now on:"
                        " %s", m, failures[(spec_text, m)])
            return _run_fallback(inputs, _out_shapes(out_dims, spec), spec,
                                 spec_text)
    return _fused_first(inputs, out_dims, spec_text)


def _fused_first(inputs, out_dims, spec_text):
    """The first call at these output dims: makes the choice, runs it and
    keeps it in `_calls` once it is final."""
    spec = _parse_spec(spec_text)
    m = inputs[0].shape[0]
    shapes = _out_shapes(out_dims, spec)
    if m == 0:
        return [inputs[0].new_empty(s, dtype=_TORCH_DTYPES[dt])
                for s, dt in zip(shapes, spec["out_dtypes"])]
    key = (spec_text, m)
    call_key = (spec_text[:_SPEC_KEY_CHARS], *out_dims)
    if key not in failures and not _past_max_rows(spec, m):
        try:
            tuned = tune(inputs, shapes, spec, spec_text, m)
            measured = inputs[0].is_cuda and spec.get("measure")
            if measured and key not in choices:
                choose(inputs, shapes, spec, spec_text, m)
            if choices.get(key, "sol") == "sol":
                call = _sol_call(shapes, spec, spec_text, m)
                outputs = call(inputs)
                # Not kept while the choice or the tuning waits (a CUDA
                # graph was being captured): the next call makes it.
                if (key in choices or not measured) and tuned:
                    _calls[call_key] = call
                    _register_fast(call_key, call)
                return outputs
        except Exception as error:  # the model must not break
            failures[key] = f"{type(error).__name__}: {error}"
            log.warning("a sol region runs its ATen ops at M=%d from now on:"
                        " %s", m, failures[key])
    _calls[call_key] = lambda inputs: _run_fallback(inputs, shapes, spec,
                                                    spec_text)
    return _run_fallback(inputs, shapes, spec, spec_text)


def _fast_key(call_key):
    """The C++ kernel's key of a `_calls` key: the spec's digest, then each
    output dim after a colon (csrc/fused_op.cpp, keyOf)."""
    return call_key[0] + "".join(f":{int(d)}" for d in call_key[1:])


def _register_fast(call_key, call):
    """Hands a resolved call in its pointer form to the C++ kernel, where
    that kernel serves the call's device and the launcher has raw entry
    points (`raw_bind`)."""
    from . import fast_op
    if not isinstance(call, _SolCall) or call.raw is None or \
            not fast_op.installed(call.device.type):
        return
    kernels = [(entry, handle, dynamic, plan) for (entry, handle, dynamic),
               (_, _, plan) in zip(call.raw, call.steps)]
    fast_op.register(_fast_key(call_key), call.device, call.m, call.allocs,
                     call.workspace, kernels)
    call.fast_key = _fast_key(call_key)


def _forget(call, call_key):
    if getattr(call, "fast_key", None):
        from . import fast_op
        fast_op.forget(_fast_key(call_key))


#===----------------------------------------------------------------------===#
# Measured choice: sol's kernels against cuBLAS at the same M
#===----------------------------------------------------------------------===#

# (spec, M) -> "sol" | "aten"; with the measured times in `measurements`.
choices = {}
measurements = {}


def _gpu_us(fn, graphs, reps=20, rotation=1):
    """`_gpu_us_each` of one function."""
    return _gpu_us_each([fn], graphs, reps, rotation)[0]


# Milliseconds of the timed calls run before any window is timed. Under a
# large matmul the H200 runs at its 700 W cap and its clock sags over the
# first tens of milliseconds of load, so a side timed first on a cool card
# runs at a higher clock than the side after it (bench/NOTES.md section
# 22, 2026-11-30, which found the backend check biased this way); the
# windows also alternate between the sides for the same reason.
_HEAT_MS = 30.0
# Timed windows per side; each side's figure is its best window.
_WINDOWS = 3


def _gpu_us_each(fns, graphs, reps=20, rotation=1):
    """Microseconds per call of each `fn(i)`, where `i` picks the copy of
    the inputs (`rotation`): the calls cycle through `rotation` copies.
    Replays of a CUDA graph of the calls when the model runs in CUDA graphs
    (host time does not count there; the graph holds every copy at least
    once, so a replay finds none in L2 either), else back-to-back calls
    between CUDA events (host time counts). The sides are heated together
    for `_HEAT_MS`, then timed in alternating windows (`_WINDOWS` each, the
    best kept), so that none of them is timed on a cooler card."""
    runs = [_timed_calls(fn, graphs, reps, rotation) for fn in fns]
    heat_end = time.perf_counter() + _HEAT_MS / 1e3
    while time.perf_counter() < heat_end:
        for run, _ in runs:
            run()
        torch.cuda.synchronize()
    best = [float("inf")] * len(runs)
    for _ in range(_WINDOWS):
        for j, (run, calls) in enumerate(runs):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            run()
            end.record()
            end.synchronize()
            best[j] = min(best[j], start.elapsed_time(end) * 1e3 / calls)
    return best


def _timed_calls(fn, graphs, reps, rotation):
    """What `_gpu_us_each` times for `fn`: a function running `calls`
    calls of it (a CUDA graph's replay in graph mode), and `calls`."""
    counter = itertools.count()

    def call():
        fn(next(counter) % rotation)
    call()
    torch.cuda.synchronize()
    if not graphs:
        def run():
            for _ in range(reps):
                call()
        return run, reps
    calls = max(reps, rotation)
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        call()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(calls):
            call()
    return graph.replay, calls


# L2-cold timing. In a model step each layer's weights come from HBM (the
# other layers' weights evicted them), but a timing loop over one set of
# inputs finds them in L2 (60 MB on the H200) from the second call on, which
# flatters whichever kernel re-reads more and does not match the step. So
# the calls rotate among copies of the inputs that together exceed the L2
# (what PyTorch's TunableOp does with its rotating buffer, and hipBLASLt-
# bench's --rotating) rather than flush it with a memset between calls (what
# Triton's do_bench does): a flush between calls is timed with them unless
# every call gets its own events, which hides the host time that plain mode
# must count and does not fit a CUDA graph of back-to-back calls.
#
# The copies together hold this many times the L2: under a replacement
# policy that is not strict LRU (and the H200's L2 is two partitions) one
# L2's worth of other data does not evict all of a copy.
_L2_MARGIN = 2
# Where the device's properties do not give the L2 size (an older torch).
_DEFAULT_L2_BYTES = 64 << 20
# At most this many copies: a small region (a 64 KB weight needs ~2000 to
# cover the margin) is latency-bound anyway, and the CUDA graph holds one
# call per copy.
_MAX_ROTATION = 1024
# Each copy starts at a multiple of this (TMA wants 16-byte aligned bases;
# the allocator's own blocks are 512-byte aligned).
_COPY_ALIGN_BYTES = 256


def l2_bytes(device):
    """The L2 size of CUDA device `device` from its properties."""
    props = torch.cuda.get_device_properties(device)
    return int(getattr(props, "L2_cache_size", 0) or _DEFAULT_L2_BYTES)


def rotation_count(set_bytes, l2):
    """How many copies of one call's inputs (`set_bytes` of them) the timing
    rotates among: enough that the other copies, touched between two uses
    of one, hold `_L2_MARGIN` times the L2 (`l2` bytes). One when a call's
    own inputs hold that much already (an lm_head's weight): each call
    streams them through the L2, and a copy would only cost memory."""
    if set_bytes >= _L2_MARGIN * l2:
        return 1
    need = -(-_L2_MARGIN * l2 // max(set_bytes, 1)) + 1
    return min(need, _MAX_ROTATION)


def _padded(numel, element_size):
    step = max(_COPY_ALIGN_BYTES // element_size, 1)
    return -(-numel // step) * step


def rotation(inputs):
    """The copies of `inputs` an L2-cold timing cycles through, a list of
    input lists (see `rotation_count`); just [inputs] off CUDA. Each input's
    copies are rows of one buffer: one allocation and one copy per input,
    not one per copy (choosing runs at compile time, for every region)."""
    tensors = [t for t in inputs if isinstance(t, torch.Tensor)]
    if not tensors or not tensors[0].is_cuda:
        return [list(inputs)]
    return _copies(inputs, l2_bytes(tensors[0].device))


def _copies(inputs, l2):
    """`rotation` for an L2 of `l2` bytes, on any device."""
    set_bytes = sum(_padded(t.numel(), t.element_size()) * t.element_size()
                    for t in inputs if isinstance(t, torch.Tensor))
    count = rotation_count(set_bytes, l2)
    if count == 1:
        return [list(inputs)]
    sets = [[] for _ in range(count)]
    for t in inputs:
        if not isinstance(t, torch.Tensor):
            for copy in sets:
                copy.append(t)
            continue
        numel = t.numel()
        block = t.new_empty((count, _padded(numel, t.element_size())))
        block[:, :numel].copy_(t.reshape(1, numel).expand(count, numel))
        for i, copy in enumerate(sets):
            copy.append(block[i, :numel].view(t.shape))
    return sets


def _cublas_matmuls(spec):
    """The region's matmuls alone through ATen (cuBLAS): what Inductor would
    run for them, before any epilogue; a function of the op's inputs. Where
    the spec says Inductor's epilogue would be a pass of its own
    (`epilogue_pass`), one elementwise pass over the results follows, with
    the bytes of Inductor's fused epilogue kernel: the product of a sibling
    pair (reading both results, writing one), else the results read and
    written once.

    Each input list's operands are resolved (decoded from the spec, viewed
    2-D) on its first call and kept, so a timed call is the `torch.mm`
    calls alone, as Inductor's code calls its extern mm on buffers it
    already holds: resolving them on every call adds Python time that
    Inductor's code does not spend, and outside CUDA graphs host time
    counts."""
    mats = [op for op in spec["aten"] if op["op"] in
            ("aten.mm.default", "aten.addmm.default",
             "aten._scaled_mm.default")]
    resolved = {}

    def operands(inputs):
        # A gathered region's later matmul reads an earlier part's result
        # (`_Grower.gather`): the program's values, computed once here, give
        # it that operand; the timed calls are the matmuls alone.
        reads_values = any('"node"' in json.dumps(op["args"][-2:])
                           for op in mats)
        values = _aten_all_values(inputs, spec) if reads_values else []
        calls = []
        for op in mats:
            dequantise = op.get("dequantise")
            if dequantise:
                # Weight-only fp8: Inductor's code casts and scales the
                # codes in one kernel per call (1 byte read, 2 written per
                # element), then calls cuBLAS. The cast alone moves those
                # bytes (a bar no slower than Inductor's; compiling the
                # dequantisation here would nest torch.compile in the
                # compile that traces this region).
                a = _decode(op["args"][-2], inputs, values)
                codes = _decode(dequantise["codes"], inputs, values)
                dtype = getattr(torch, dequantise["dtype"])
                calls.append((_dequantise_then_mm, (
                    a.reshape(-1, a.shape[-1]), codes, dtype), {}))
                continue
            a, b = [_decode(x, inputs, values) for x in op["args"][-2:]]
            a = a.reshape(-1, a.shape[-1])
            if op["op"] != "aten._scaled_mm.default":
                calls.append((torch.mm, (a, b), {}))
                continue
            # fp8: cuBLASLt's scaled matmul with the region's scales.
            kwargs = _scaled_mm_kwargs({k: _decode(v, inputs, values)
                                        for k, v in op["kwargs"].items()})
            calls.append((torch._scaled_mm, (a, b), kwargs))
        return calls

    passes = spec.get("epilogue_passes") or (
        [[0, len(mats) - 1]] if spec.get("epilogue_pass") else [])

    def run(inputs):
        calls = resolved.get(id(inputs))
        if calls is None or calls[0] is not inputs:
            calls = resolved[id(inputs)] = (inputs, operands(inputs))
        results = [fn(*args, **kwargs) for fn, args, kwargs in calls[1]]
        for i, j in passes:
            first, last = results[i], results[j]
            torch.mul(first, last if last.shape == first.shape else first)
    return run


def _dequantise_then_mm(a, codes, dtype):
    return torch.mm(a, codes.to(dtype).t())


# How much faster than the bar sol must measure to keep a region. A
# region timed alone is not the region in the model: Llama's lm_head
# (2048 x 128256 x 2048, H200, 2026-12-03, bench/results/2026-12-03-h200-
# s8-llama) measured 1616 against cuBLAS's 1637 us in the choice, a 1.3 %
# win, and then ran 1461 against cuBLAS's 1379 us in the model's own
# profile; the two sides' ratio moved by 7 % between the two settings.
# Outside CUDA graphs sol's op also costs more host time than an extern mm
# (README, the torch backend). So a win inside the noise goes to the bar.
_WIN_MARGIN = 0.03


def sol_wins(sol_us, other_us):
    """Whether sol keeps a region: faster than what would run instead
    (`choose`'s bar) by more than the choice's noise (_WIN_MARGIN); a tie
    goes to the other."""
    return sol_us < other_us * (1 - _WIN_MARGIN)


def choose(inputs, shapes, spec, text, m, bar="fallback"):
    """Times sol's kernels for this region at M against the code that
    would run instead, and keeps the faster (`sol_wins`). Called once per
    (region, M), never while a CUDA graph is being captured (then sol
    runs).

    The bar is what the region becomes when sol loses:
    - "cublas" at trace time, where the region is left to Inductor, whose
      own code for it is cuBLAS's matmuls and an epilogue that often fuses
      into the next kernel for nothing: the bare matmuls are the honest bar,
      with one elementwise pass over their results where the epilogue
      cannot fuse onward (it feeds a matmul: `_epilogue_feeds_a_matmul`);
    - "fallback" in the op (an M a dynamic graph first meets), where the
      region stays in sol's op and losing means `_run_fallback`: that is
      what is timed, since a bar it cannot reach would move the region to
      something slower than sol (NOTES section 30)."""
    key = (text, m)
    if key in choices or _capturing():
        return
    graphs = bool(spec.get("cudagraphs"))
    # The path the model's calls take (outside CUDA graphs its host time
    # counts): the op itself where its C++ kernel serves the call.
    call, out_dims = _sol_call(shapes, spec, text, m), sum(shapes, [])
    call = _as_the_model_calls(call, inputs, out_dims, text)
    if bar == "cublas":
        other = _cublas_matmuls(spec)
    else:
        def other(inputs):
            return _run_fallback(inputs, shapes, spec, text)
    with torch.no_grad():
        copies = rotation(inputs)   # L2-cold: see _L2_MARGIN

        def bar_call(i):
            try:
                return other(copies[i])
            except Exception as error:  # the bar's library refused
                raise _BarRefused(error) from error
        try:
            sol_us, other_us = _gpu_us_each(
                [lambda i: call(copies[i]), bar_call], graphs,
                rotation=len(copies))
        except _BarRefused as refused:
            # Nothing else can run the region here (cuBLASLt's block-wise
            # fp8 refused M = 1 and 4097 with NOT_SUPPORTED on an H100,
            # 2026-12-07, bench/NOTES.md section 51): sol keeps it.
            error = refused.__cause__
            why = f"{type(error).__name__}: {str(error).splitlines()[0]}"
            measurements[key] = {f"{bar}_error": why}
            choices[key] = "sol"
            log.info("region at M=%d: sol, the %s cannot run it: %s", m,
                     bar, why)
            return
        count = len(copies)
    measurements[key] = {"sol_us": sol_us, f"{bar}_us": other_us,
                         "copies": count}
    choices[key] = "sol" if sol_wins(sol_us, other_us) else "aten"
    if choices[key] != "sol":
        _forget(call, (text[:_SPEC_KEY_CHARS], *out_dims))
    log.info("region at M=%d: sol %.1f us, %s %.1f us: %s", m, sol_us,
             "cuBLAS matmuls" if bar == "cublas" else "its ATen fallback",
             other_us, choices[key])


class _BarRefused(Exception):
    """The measured choice's bar raised (its cause): it cannot run the
    region at this M."""


def _as_the_model_calls(call, inputs, out_dims, text):
    """The sol side of a choice as the model's op call runs it: where the
    C++ kernel serves `call`'s device, `call` registered there (forgotten
    again if sol loses) and timed through the op, so the choice sees the
    host time the model will pay, not the Python pointer form's; else
    `call` itself."""
    from . import fast_op
    device = inputs[0].device
    if not fast_op.installed(device.type):
        return call
    if call.device_index is None:
        call._bind(device)
    _register_fast((text[:_SPEC_KEY_CHARS], *out_dims), call)
    if call.fast_key is None:
        return call
    op = torch.ops.sol.fused.default

    def through_the_op(inputs):
        return op(inputs, out_dims, text)
    through_the_op.fast_key = call.fast_key
    return through_the_op


def _run_sol(inputs, shapes, spec, text, m):
    return _sol_call(shapes, spec, text, m)(inputs)


def _sol_call(shapes, spec, text, m):
    return _SolCall(_runner(text, spec, m), launchers[spec["launcher"]],
                    shapes, spec["roles"], m)


class _SolCall:
    """A region's kernels at one M and one set of output shapes, resolved
    once. Called with the op's inputs, it returns its outputs.

    When the launcher has a pointer form (`bind`, the device launcher on
    CUDA) and the inputs are contiguous, a call is: the op's outputs
    allocated at their final shapes (a kernel's [M, N] output is the same
    buffer), one workspace for the values only its kernels read (a gathered
    region's intermediates: the SwiGLU product its down projection reads),
    every pointer from a flat plan, one C call per kernel. No views, no
    per-call spec or manifest lookups, no torch.cuda.Stream object.
    Otherwise (the reference launcher on the CPU, a non-contiguous input,
    another device) it runs the general path: the inputs flattened to the
    kernels' 2-D shapes, HostProgram.run, the results viewed to the op's
    shapes."""

    def __init__(self, runner, launcher, shapes, roles, m):
        self.runner = runner
        self.launcher = launcher
        self.shapes = [list(s) for s in shapes]
        self.roles = roles
        self.m = m
        self.device_index = None   # the pointer form's device (get_device)
        self.steps = None          # the pointer form's launches
        self.raw = None            # the C++ kernel's launches (_bind)
        self.fast_key = None       # its key once registered there

    def __call__(self, inputs):
        if self.steps is None and self.device_index is None:
            self._bind(inputs[0].device)
        if self.steps is not None and \
                inputs[0].get_device() == self.device_index and \
                all(map(_is_contiguous, inputs)):
            return self.pointers(inputs)
        return self.general(inputs)

    def general(self, inputs):
        m = self.m
        flat = [_flatten(t, role, m) for t, role in zip(inputs, self.roles)]
        results = self.runner.run(flat, self.launcher)
        return [r.view(s) for r, s in zip(results, self.shapes)]

    def pointers(self, inputs):
        device, m = self.device, self.m
        empty, data_ptr = torch.empty_strided, torch.Tensor.data_ptr
        outs = [empty(shape, strides, dtype=dtype, device=device)
                for shape, strides, dtype in self.allocs]
        if self.single is not None:   # one kernel: inputs, then outputs
            launch, array = self.single
            launch(array(*map(data_ptr, inputs), *map(data_ptr, outs)), m)
            return outs
        # Pointers by kind (`_bind`): 0 an input, 1 an output, 2 a workspace
        # offset.
        # The workspace is held until the launches are issued: on CUDA the
        # caching allocator then reuses it only in stream order, after the
        # kernels that read it.
        table = ([data_ptr(t) for t in inputs], [data_ptr(t) for t in outs])
        workspace = empty((self.workspace,), (1,), dtype=torch.uint8,
                          device=device) if self.workspace else None
        base = data_ptr(workspace) if self.workspace else 0
        for launch, array, plan in self.steps:
            launch(array(*[base + i if kind == 2 else table[kind][i]
                           for kind, i in plan]), m)
        return outs

    def _bind(self, device):
        """Builds the pointer form for `device`, if the launcher has one
        there and each result is its own kernel output (a result that is an
        input, or one output twice, takes the general path): each kernel's
        pointers as (kind, index) pairs, the outputs to allocate, and the
        workspace offsets of the values no result is."""
        self.device_index = -2   # tried: not again
        bind = getattr(self.launcher, "bind", None)
        results = self.runner.results
        if bind is None or any(k is None for k, _ in results) or \
                len(set(results)) != len(results):
            return
        final = {source: j for j, source in enumerate(results)}
        allocs = [None] * len(results)
        where, workspace, steps, raw = {}, 0, [], []
        raw_bind = getattr(self.launcher, "raw_bind", None)
        for k, (kernel, sources, _, _) in enumerate(self.runner.steps):
            launch = bind(kernel, device)
            if launch is None:
                return
            entry = raw_bind(kernel, device) if raw_bind else None
            raw.append(None if entry is None else
                       (*entry, kernel.is_dynamic))
            plan = [(0, i) if source is None else where[(source, i)]
                    for source, i in sources]
            for i, (shape, dtype) in enumerate(kernel.output_specs(self.m)):
                j = final.get((k, i))
                if j is None:   # read by a later kernel alone
                    where[(k, i)] = (2, workspace)
                    size = _numel(shape) * dtype.itemsize
                    workspace += -(-size // _WORKSPACE_ALIGN) * \
                        _WORKSPACE_ALIGN
                else:
                    if _numel(self.shapes[j]) != _numel(shape):
                        return
                    shape = tuple(self.shapes[j])
                    allocs[j] = (shape, _row_major(shape), dtype)
                    where[(k, i)] = (1, j)
                plan.append(where[(k, i)])
            steps.append((launch, ctypes.c_void_p * len(plan), plan))
        self.allocs, self.workspace = allocs, workspace
        # Per kernel (C entry point, loaded kernel, dynamic): what the C++
        # kernel launches with (`_register_fast`); None without raw_bind.
        self.raw = raw if None not in raw else None
        self.single = None
        if len(steps) == 1 and [kind for kind, _ in steps[0][2]] == \
                [0] * len(self.roles) + [1] * len(allocs) and \
                [i for _, i in steps[0][2]] == \
                list(range(len(self.roles))) + list(range(len(allocs))):
            self.single = steps[0][:2]
        self.device = device
        self.steps = steps
        self.device_index = _device_index(device)


# Where a gathered region's intermediates start in its workspace: the
# caching allocator's own granularity, so every kernel sees a buffer as
# aligned as one of its own (TMA maps need 16 bytes).
_WORKSPACE_ALIGN = 512


def _row_major(shape):
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step *= max(d, 1)
    return tuple(reversed(strides))


_is_contiguous = torch.Tensor.is_contiguous


def _device_index(device):
    """What Tensor.get_device() says for a tensor on `device`."""
    if device.type == "cpu":
        return -1
    return device.index if device.index is not None else \
        torch.cuda.current_device()


def _decode(arg, inputs, values):
    if "in" in arg:
        return inputs[arg["in"]]
    if "node" in arg:
        return values[arg["node"]]
    if "t" in arg:
        return _decode(arg["t"], inputs, values).t()
    if "m_major" in arg:   # a row-major [M, KB] scale stored M-major
        return _decode(arg["m_major"], inputs, values).t().contiguous().t()
    if "col" in arg:   # a per-row scale, an input flattened to [N]
        return _decode(arg["col"], inputs, values).reshape(-1, 1)
    if "list" in arg:
        return [_decode(a, inputs, values) for a in arg["list"]]
    if "dtype" in arg:
        return getattr(torch, arg["dtype"])
    return arg.get("const")


def _resolve_op(name):
    namespace, rest = name.split(".", 1)
    packet, overload = rest.rsplit(".", 1)
    return getattr(getattr(getattr(torch.ops, namespace), packet), overload)


def _aten_steps(spec):
    """The region's ATen program resolved once (ops looked up, constant
    arguments decoded): the fallback's hot path is then one call per op."""
    steps = spec.get("_aten_steps")
    if steps is None:
        steps = []
        for op in spec["aten"]:
            if op["op"] == "reshape_rows":
                steps.append(("reshape", op["cols"], op["args"], {}))
                continue
            kind = {"aten.mm.default": "mm", "aten.addmm.default": "mm",
                    "aten._scaled_mm.default": "scaled_mm"}.get(op["op"],
                                                                "op")
            steps.append((kind, _resolve_op(op["op"]), op["args"],
                          op["kwargs"]))
        spec["_aten_steps"] = steps
    return steps


def _scaled_mm_kwargs(kwargs):
    """`torch._scaled_mm`'s keyword arguments from a region's inputs: a
    per-channel scale_b enters flattened to [N] (sol's operand), and
    _scaled_mm takes it as [1, N]."""
    if kwargs["scale_b"].dim() == 1:
        kwargs = dict(kwargs, scale_b=kwargs["scale_b"].reshape(1, -1))
    return kwargs


def _run_aten(inputs, shapes, spec):
    """The region's own ATen ops called one by one (the interpreted
    fallback), over the same 2-D [M, N] view of its inputs that sol's
    kernels take."""
    return [v.reshape(s) for v, s in zip(_aten_values(inputs, spec), shapes)]


def _aten_values(inputs, spec):
    """`_run_aten`'s outputs before their final reshape."""
    values = _aten_all_values(inputs, spec)
    return [values[i] for i in spec["aten_outputs"]]


def _aten_all_values(inputs, spec):
    """Every value of the region's ATen program, in program order."""
    m = inputs[0].shape[0]
    inputs = [_flatten(t, role, m) for t, role in zip(inputs, spec["roles"])]
    values = []
    for kind, fn, arg_specs, kwarg_specs in _aten_steps(spec):
        args = [_decode(a, inputs, values) for a in arg_specs]
        if kind == "reshape":
            values.append(args[0].reshape(-1, fn))
            continue
        kwargs = {k: _decode(v, inputs, values)
                  for k, v in kwarg_specs.items()} if kwarg_specs else {}
        if kind == "scaled_mm":
            kwargs = _scaled_mm_kwargs(kwargs)
        if kind == "mm":
            # Matmuls over the flattened rows, as the region reads them.
            mats = [a.reshape(-1, a.shape[-1]) if a.dim() > 2 else a
                    for a in args[-2:]]
            args = args[:-2] + mats
        values.append(fn(*args, **kwargs))
    return values


#===----------------------------------------------------------------------===#
# The fallback: the region's ATen ops as Inductor compiles them
#===----------------------------------------------------------------------===#

# spec text -> the region's ATen ops compiled by Inductor for every M; None
# where that compilation failed (the ops then run one by one).
_compiled_fallbacks = {}


def compiles_fallback(inputs):
    """Whether the op's fallback is Inductor's compilation of the region's
    ATen ops, not the ops called one by one from Python: on CUDA, where the
    op falls back at every M its kernels lose at (the measured choice), so
    the fallback must cost what Inductor's code for the region would.
    Called one by one, Phi-3's gated region is eight f32 kernels and their
    host time, and its 64-token decode step ran 4x Inductor's (NOTES
    section 30). On the CPU the fallback only catches failures, and the
    interpreted ops are the simplest reference."""
    return inputs[0].is_cuda


# (spec text, M) at which the compiled fallback has run outside a CUDA
# graph capture: only those may run inside one (`_run_fallback`).
_fallbacks_ran = set()


def _capturing():
    """Whether a CUDA graph is being captured on the current stream."""
    return torch.cuda.is_available() and \
        torch.cuda.is_current_stream_capturing()


def _run_fallback(inputs, shapes, spec, text):
    """The region's ATen ops at these inputs: compiled where
    `compiles_fallback`, interpreted otherwise or where compiling failed.
    Inside a CUDA graph capture the compiled form runs only at an M it has
    already run at (so compiled and guarded): dynamo and Inductor compiling
    there would break the capture, and the interpreted ops capture as they
    are."""
    m = inputs[0].shape[0]
    if compiles_fallback(inputs) and (not _capturing() or
                                      (text, m) in _fallbacks_ran):
        fn = _compiled_fallback(spec, text)
        if fn is not None:
            try:
                outputs = [v.reshape(s) for v, s in zip(fn(*inputs), shapes)]
                _fallbacks_ran.add((text, m))
                return outputs
            except Exception as error:  # the model must not break
                _compiled_fallbacks[text] = None
                log.warning("a sol region's ATen ops did not compile; they "
                            "run one by one: %s: %s", type(error).__name__,
                            error)
    return _run_aten(inputs, shapes, spec)


def _compiled_fallback(spec, text):
    """The region's ATen ops through torch.compile (Inductor, a dynamic M:
    one compilation serves every M but dynamo's 0/1 specialisation), built
    on first use; None once that failed."""
    if text not in _compiled_fallbacks:
        def region(*inputs):
            return tuple(_aten_values(list(inputs), spec))
        # Dynamo keeps at most `recompile_limit` compilations per code
        # object and every region's closure would share this one: a code
        # object of its own gives each region its own entries.
        region.__code__ = region.__code__.replace(
            co_name=f"sol_fallback_{len(_compiled_fallbacks)}")
        _compiled_fallbacks[text] = torch.compile(
            region, backend="inductor", dynamic=True, fullgraph=True)
    return _compiled_fallbacks[text]


def _install_fast_op():
    """The dispatch keys whose sol::fused kernel is the C++ one (none where
    it does not build: then Python serves every call)."""
    from . import fast_op
    try:
        return fast_op.install(fast_op.wanted_keys(),
                               fast_op.free_string_entry())
    except Exception as error:  # the backend must work without it
        log.warning("sol::fused runs in Python: %s: %s",
                    type(error).__name__, error)
        return set()


for _key in ("CPU", "CUDA"):
    _library.impl("fused_py", _fused_impl, _key)
_FAST_KEYS = _install_fast_op()
for _key in ("CPU", "CUDA"):
    if _key not in _FAST_KEYS:
        _library.impl("fused", _fused_impl, _key)


#===----------------------------------------------------------------------===#
# Tuning: the cost model's best few plans, timed (the backend's `tune`)
#===----------------------------------------------------------------------===#

def _time_on_device(call, copies, graphs, candidate):
    """The default `tune_timing`: microseconds per call of `call` over
    `copies` (rotation's L2-cold copies of the inputs), timed as `choose`
    times sol; None off CUDA, where there is nothing to time and the cost
    model's plan stays."""
    first = next((t for t in copies[0] if isinstance(t, torch.Tensor)), None)
    if first is None or not first.is_cuda:
        return None
    return _gpu_us(lambda i: call(copies[i]), graphs, rotation=len(copies))


# How tuning times one candidate: (call, copies, graphs, candidate) ->
# microseconds, or None for nothing to time. `candidate` is its record so
# far (rank, plan, t_pred_us). Tests without a GPU put their own here.
tune_timing = _time_on_device

# (spec text, M or "?" for the dynamic kernel set) -> the candidates timed,
# each {rank, plan, t_pred_us, t_pred_m, measured_us, chosen, kernels}; []
# where there was nothing to time.
tunings = {}

# The file under the cache dir that every tuning appends its candidates to,
# one JSON object a line: what the cost model's calibration is refit from.
TUNING_LOG = "tuning.jsonl"


def _kernel_set(spec, text, m):
    """The key of the kernel set serving M: a dynamic set's ("?"), else M."""
    return dynamic_key(spec, m) if wants_dynamic(spec, text, m) else m


def _plans_of(compilation):
    """What makes two compilations of one region the same candidate: every
    kernel's plan, or plan table."""
    return json.dumps([k.manifest.get("plans", k.manifest.get("plan"))
                       for k in compilation.kernels], sort_keys=True)


def _candidate(compilation, rank, m):
    """A candidate's record: the plans that run at M and their predicted
    time. A dynamic kernel's manifest prices only some M (`cost_near`):
    `t_pred_m` says which M the prediction is for (None where its kernels'
    differ), so a refit of the cost model pairs a measurement only with a
    prediction at its own M."""
    kernels = []
    for kernel in compilation.kernels:
        row = plan_row(kernel.manifest, m)
        cost, cost_m = cost_near(kernel.manifest, row, m)
        kernels.append({"name": kernel.name, "plan": row.get("plan", {}),
                        "t_pred_us": float(cost.get("t_pred_us", 0.0)),
                        "t_pred_m": m if cost_m is None else cost_m,
                        # A static kernel's plan-cache entry (sol-tile's
                        # plan-cache): its key and the plan as sol prints
                        # it; None for a dynamic set's kernels.
                        "plan_key": kernel.manifest.get("plan_key"),
                        "plan_attr": kernel.manifest.get("plan_attr")})
    priced_at = {k["t_pred_m"] for k in kernels}
    return {"rank": rank,
            "plan": "; ".join(_plan_text(k["plan"]) for k in kernels),
            "t_pred_us": sum(k["t_pred_us"] for k in kernels),
            "t_pred_m": priced_at.pop() if len(priced_at) == 1 else None,
            "kernels": kernels}


def _device_name(device):
    if device.type == "cuda":
        return torch.cuda.get_device_name(device)
    return device.type


def _tuned_path(spec, kernel_set, count, device):
    """The disk cache entry of a tuning's winner: keyed by what its
    compilations are keyed by and by the tuning itself (how many candidates,
    on which device), so an untuned compile never reads it."""
    from .torch_backend import cache_dir as cache_path, compile_options
    key = hashlib.sha256("\0".join([
        region_ir(spec, kernel_set), spec["target"] or "",
        compile_options(spec["options"]), f"tune={count}", device,
        sol.version(), sol.build_id()]).encode()).hexdigest()
    return cache_path({"cache_dir": cache_dir}) / f"tuned-{key}.json"


def _tuning_log_path():
    from .torch_backend import cache_dir as cache_path
    return cache_path({"cache_dir": cache_dir}) / TUNING_LOG


def _read_tuned(path):
    try:
        data = json.loads(path.read_text())
        return int(data["rank"]), list(data["candidates"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _write_tuning(path, spec, text, m, kernel_set, device, candidates):
    winner = next(c for c in candidates if c["chosen"])
    lines = [json.dumps({
        "region": text[:_SPEC_KEY_CHARS], "target": spec["target"],
        "device": device, "m": m, "dynamic": str(kernel_set).startswith("?"),
        "tune": int(spec["tune"]), **candidate}, sort_keys=True)
        for candidate in candidates]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps({"rank": winner["rank"],
                                   "candidates": candidates}))
        tmp.replace(path)
        with open(_tuning_log_path(), "a") as log_file:
            log_file.write("".join(line + "\n" for line in lines))
    except OSError as error:
        log.warning("cannot record the tuning in %s: %s", path.parent, error)


# How far a candidate's outputs may be from the first candidate's (the cost
# model's plan) on the tuning's inputs: split-K and tile shapes change the
# order of the f32 accumulation, a wrong kernel is off by far more.
_TUNE_RTOL = _TUNE_ATOL = 1e-2


def _agrees(outputs, reference):
    """Whether a candidate's outputs match the reference's: a plan seldom
    chosen by default is seldom run, and the fastest wrong answer must not
    be kept."""
    return all(torch.allclose(o.float(), r.float(), rtol=_TUNE_RTOL,
                              atol=_TUNE_ATOL)
               for o, r in zip(outputs, reference))


def tune(inputs, shapes, spec, text, m):
    """With the backend's `tune` option N: compiles the region's kernel set
    serving M at sol-tile ranks 0..N-1 (a rank whose plans an earlier one
    already has is the same candidate; one whose outputs disagree with the
    first's, `_agrees`, is dropped), times each with `tune_timing` on
    `inputs` and keeps the fastest as the set's kernels (`_runners`), its
    record in `tunings`, the disk cache and TUNING_LOG. A winner already in
    the disk cache is taken without timing. Once per kernel set, never while
    a CUDA graph is being captured. Returns whether the tuning is settled
    (False only while it waits for the capture to end)."""
    count = int(spec.get("tune") or 0)
    if count < 1:
        return True
    kernel_set = _kernel_set(spec, text, m)
    key = (text, kernel_set)
    if key in tunings:
        return True
    if _capturing():
        return False
    from .torch_backend import HostProgram
    device = _device_name(inputs[0].device)
    path = _tuned_path(spec, kernel_set, count, device)
    cached = _read_tuned(path)
    if cached is not None:
        rank, candidates = cached
        program = HostProgram(compile_region(spec, kernel_set, rank))
        with _runner_lock:
            _runners[key] = program
            tunings[key] = candidates
        return True
    graphs = bool(spec.get("cudagraphs"))
    launcher = launchers[spec["launcher"]]
    candidates, programs, seen = [], {}, set()
    first_call = reference = None   # the first candidate, and its outputs
    with torch.no_grad():
        copies = rotation(inputs)   # L2-cold, as `choose` times
        for rank in range(count):
            try:
                compilation = compile_region(spec, kernel_set, rank)
            except Exception as error:
                log.info("tuning: rank %d does not compile: %s", rank, error)
                continue
            plans = _plans_of(compilation)
            if plans in seen:
                continue
            seen.add(plans)
            program = HostProgram(compilation)
            candidate = _candidate(compilation, rank, m)
            call = _SolCall(program, launcher, shapes, spec["roles"], m)
            if candidates:
                if reference is None:
                    reference = first_call(copies[0])
                if not _agrees(call(copies[0]), reference):
                    log.warning("tuning: rank %d (%s) disagrees with rank "
                                "%d: not kept", rank, candidate["plan"],
                                candidates[0]["rank"])
                    continue
            else:
                first_call, reference = call, None
            us = tune_timing(call, copies, graphs, candidate)
            if us is None:   # nothing to time: the cost model's plan stays
                tunings[key] = []
                return True
            candidate["measured_us"] = float(us)
            candidates.append(candidate)
            programs[rank] = program
    if not candidates:
        tunings[key] = []
        return True
    best = min(candidates, key=lambda c: (c["measured_us"], c["rank"]))
    for candidate in candidates:
        candidate["chosen"] = candidate is best
    with _runner_lock:
        _runners[key] = programs[best["rank"]]
        tunings[key] = candidates
    _write_tuning(path, spec, text, m, kernel_set, device, candidates)
    log.info("region at M=%d tuned: rank %d of %d candidates (%.1f us)", m,
             best["rank"], len(candidates), best["measured_us"])
    return True


#===----------------------------------------------------------------------===#
# The pass
#===----------------------------------------------------------------------===#

@dataclass
class RegionReport:
    matmuls: list             # names of the matmul nodes it runs
    nodes: list               # every node it replaced
    flops: int                # at the graph's example sizes
    status: str               # "sol", or why it stayed with Inductor
    kernels: list = field(default_factory=list)   # name, plan, t_pred_us
    ir: str = ""
    dynamic: bool = False     # one kernel set for every M, not one per M
    tuning: list = field(default_factory=list)    # tune's candidates
    tuned_m: int = 0          # the M they were timed at


@dataclass
class GraphReport:
    regions: list
    inductor: dict            # matmul node -> why Inductor runs it
    matmul_flops: int = 0     # every matmul of the graph (example sizes)
    sol_flops: int = 0
    dynamic: bool = False

    @property
    def sol_flop_share(self):
        return self.sol_flops / self.matmul_flops if self.matmul_flops \
            else 0.0

    def summary(self):
        lines = [f"sol ran {self.sol_flop_share:.1%} of this graph's matmul "
                 f"FLOPs ({self.sol_flops} of {self.matmul_flops}"
                 f"{', dynamic M' if self.dynamic else ''})"]
        for i, r in enumerate(self.regions):
            kernels = ", one kernel set for every M" if r.dynamic else ""
            lines.append(f"region {i}: {r.status}: " + ", ".join(r.nodes)
                         + f" ({r.flops} FLOP{kernels})")
            for k in r.kernels:
                at = (f" at M={k['cost_m']}" if k.get("cost_m") is not None
                      else "")
                if k.get("cost_plan") and k["cost_plan"] != k["plan"]:
                    at += f" (on that M's plan, {k['cost_plan']})"
                lines.append(f"  kernel {k['name']}: {k['plan']}, "
                             f"T_pred {k['t_pred_us']:.2f} us, "
                             f"{k['flops']} FLOP{at}")
            for c in r.tuning:
                kept = ", kept" if c.get("chosen") else ""
                at = ("" if c.get("t_pred_m") == r.tuned_m else
                      f" at M={c.get('t_pred_m')}")
                lines.append(f"  tuned at M={r.tuned_m}: rank {c['rank']}: "
                             f"{c['plan']}, T_pred {c['t_pred_us']:.2f} us"
                             f"{at}, measured {c['measured_us']:.2f} us"
                             f"{kept}")
        for name, reason in self.inductor.items():
            lines.append(f"inductor {name}: {reason}")
        return "\n".join(lines)


# Every graph the pass saw, in order; `report()` prints them.
history = []


def report(index=None):
    """The report of graph `index` (default: all of them) as text; the
    whole report ends with dynamo's graph breaks, if it made any."""
    reports = history if index is None else [history[index]]
    text = "\n\n".join(f"graph {i}:\n{r.summary()}"
                       for i, r in enumerate(reports))
    breaks = graph_breaks() if index is None else None
    return text + f"\n\n{breaks}" if breaks else text


def graph_breaks():
    """What dynamo's graph breaks leave out of the report, or "": the code
    between two graphs runs eagerly, outside every graph sol sees, so a
    share of 100 % can hide it (Mixtral's experts, whose loop is
    data-dependent, run so). From dynamo's counters, which count from the
    start of the process (`torch._dynamo.reset()` keeps them)."""
    try:
        from torch._dynamo.utils import counters
    except ImportError:
        return ""
    reasons = counters.get("graph_break") or {}
    total = sum(reasons.values())
    if not total:
        return ""
    lines = [f"dynamo's graph breaks in this process: {total}; the code "
             "between two graphs runs eagerly and is in none of the shares "
             "above:"]
    for reason, count in sorted(reasons.items(), key=lambda r: -r[1])[:5]:
        first = str(reason).strip().splitlines()[0][:160]
        lines.append(f"  {count} x {first}")
    return "\n".join(lines)


def _matmul_flops(node):
    value = _val(node)
    if node.target in _MATMULS:
        a = node.args[1] if node.target == aten.addmm.default else node.args[0]
        m, k = _shape(a) if _is_tensor(a) else (0, 0)
        return 2 * _hint(m) * _hint(k) * _hint(value.shape[-1])
    if node.target in (aten.bmm.default, aten.baddbmm.default):
        a = node.args[-2]
        if not _is_tensor(a):
            return 0
        b, m, k = (_hint(d) for d in _shape(a))
        return 2 * b * m * k * _hint(value.shape[-1])
    return 0


class _SymbolResolver:
    """FX values for the symbolic sizes of a region's outputs."""

    def __init__(self, graph):
        self.graph = graph
        self.known = {}
        for node in graph.nodes:
            value = _val(node)
            if isinstance(value, torch.SymInt):
                self.known.setdefault(str(value.node.expr), node)

    def dims(self, shape, inputs, before):
        out = []
        for d in shape:
            if isinstance(d, int):
                out.append(d)
                continue
            key = str(d.node.expr)
            if key in self.known:
                out.append(self.known[key])
                continue
            found = None
            for node in inputs:
                for axis, e in enumerate(_shape(node)):
                    if not isinstance(e, int) and str(e.node.expr) == key:
                        with self.graph.inserting_before(before):
                            found = self.graph.call_function(
                                aten.sym_size.int, (node, axis))
                        found.meta["val"] = e
                        break
                if found is not None:
                    break
            if found is None:
                raise ValueError(f"no value for the size {key}")
            self.known[key] = found
            out.append(found)
        return out


class SolPostGradPass:
    """Inductor's post-grad custom pass: regions to `sol::fused`."""

    def __init__(self, options):
        self.options = options

    def uuid(self):
        # The pass's sources, the compiler build and the options that shape
        # the IR: Inductor's FX-graph cache keys on this.
        from pathlib import Path
        digest = hashlib.sha256()
        here = Path(__file__).parent
        for name in ("inductor.py", "torch_backend.py", "reference.py"):
            digest.update((here / name).read_bytes())
        digest.update(sol.build_id().encode())
        digest.update(json.dumps({k: str(v) for k, v in sorted(
            self.options.items()) if k in ("target", "fast_math",
                                           "sol_options", "launcher_name",
                                           "measure", "cudagraphs",
                                           "tune", "fp8", "sibling_sets",
                                           "gather")}
                               ).encode())
        return digest.hexdigest()

    def __call__(self, graph):
        try:
            rewrite(graph, self.options)
        except Exception as error:  # Inductor keeps the whole graph
            log.warning("sol's pass left this graph to Inductor: %s: %s",
                        type(error).__name__, error)
            # What the pass inserted for regions it did not place (a
            # row-major copy of a block-wise scale) is dead code.
            with contextlib.suppress(Exception):
                graph.eliminate_dead_code()
            history.append(GraphReport([], {"<graph>": f"{error}"}))


def _place_region(graph, region, options, resolver, report):
    """Replaces `region` with a sol::fused call, or leaves it to Inductor
    with the reason in `report`; where sol compiled it and lost the
    measured choice, raises that `_MeasuredLoss` again once it is reported,
    so the caller may try the region's pieces."""
    flops = sum(_matmul_flops(r) for r in region.roots)
    entry = RegionReport([r.name for r in region.roots],
                         [n.name for n in region.members], flops, "pending")
    report.regions.append(entry)
    loss = None
    try:
        _replace_region(graph, region, options, resolver, entry)
    except _LeftToInductor as why:
        entry.status = f"inductor: {why}"
        loss = why if isinstance(why, _MeasuredLoss) else None
    except Exception as error:
        entry.status = f"inductor: {type(error).__name__}: {error}"
        log.info("sol region %s stays with Inductor: %s", entry.nodes, error)
    else:
        report.sol_flops += flops
        return
    for r in region.roots:
        report.inductor[r.name] = entry.status
    if loss is not None:
        raise loss


def _outputs_of(region):
    return [n for n in region.members
            if any(not region.contains(u) for u in n.users)]


def rewrite(graph, options):
    """Replaces the regions of `graph` that sol compiles with sol::fused."""
    from torch._inductor.pattern_matcher import stable_topological_sort
    split_fused_projections(graph)
    row_major_block_scales(graph)
    grower = _Grower(graph)
    inductor, flops = {}, {}
    dynamic = False
    for node in graph.nodes:
        if node.op != "call_function":
            continue
        if node.target in _MATMULS or node.target in _OTHER_MATMULS:
            flops[node] = _matmul_flops(node)
            if node.target in _OTHER_MATMULS:
                inductor[node.name] = _why_not_batched(node)
                continue
            grower.root(node)
    grower.grow_all()
    if options.get("gather", True):
        grower.gather()
    inductor.update(grower.refused)
    report = GraphReport([], inductor, matmul_flops=sum(flops.values()))
    resolver = _SymbolResolver(graph)
    for region in grower.regions:
        dynamic |= not isinstance(region.m, int)
        try:
            _place_region(graph, region, options, resolver, report)
        except _MeasuredLoss:
            # A gathered call that loses the measured choice may hold parts
            # that win alone: each is measured against its own bar (its
            # matmuls and, where Inductor would run one, its epilogue pass)
            # and kept or left on its own. The winners stay separate calls.
            if len(region.pieces) < 2:
                continue
            report.regions[-1].status += \
                f"; its {len(region.pieces)} parts were tried alone"
            for piece in region.pieces:
                for r in piece.roots:
                    report.inductor.pop(r.name, None)
                try:
                    _place_region(graph, piece, options, resolver, report)
                except _MeasuredLoss:
                    pass
    report.dynamic = dynamic
    stable_topological_sort(graph)
    graph.eliminate_dead_code()
    graph.lint()
    history.append(report)
    if options.get("report"):
        print(f"sol report:\n{report.summary()}")
    return report


# Why an fp8 region stays with Inductor when the backend's `fp8` option is
# off. It is on by default: sol's fp8 kernels (wgmma_tma, docs/fp8.md)
# passed the GPU matrix (bench/results/2026-12-03-h200-s8-smallm: 196 runs,
# static and dynamic M, sanitizers clean), and the measured choice gives a
# region to sol only where it beats torch._scaled_mm.
FP8_OPTION_OFF = "the backend's fp8 option is off (options={'fp8': False})"


def _epilogue_feeds_a_matmul(region, outputs):
    """Whether Inductor, left this region, would run its epilogue as a pass
    of its own over the matmul results: the region has elementwise ops past
    its matmuls and every reader of its outputs (through reshapes) is a
    matmul, an extern kernel Inductor fuses nothing into. So it is for the
    gated product of a SwiGLU (feeding the down projection) and GPT-2's
    GELU (feeding c_proj); a residual add feeding a norm is not: Inductor
    fuses it into the norm's kernel for nothing."""
    if all(n.target in _MATMULS or n.target in _RESHAPES
           for n in region.members):
        return False
    readers, frontier = [], list(outputs)
    while frontier:
        node = frontier.pop()
        for user in node.users:
            if user.op == "call_function" and user.target in _RESHAPES:
                frontier.append(user)
            else:
                readers.append(user)
    return bool(readers) and all(
        u.op == "call_function" and u.target in _MATMULS for u in readers)


def _epilogue_passes(region):
    """The epilogue passes Inductor's code for a gathered region would run
    (`_Grower.gather`): for each part whose epilogue is a pass of its own,
    the indices of its first and last matmul among the region's matmuls in
    graph order (the ATen program's order, which `_cublas_matmuls` times)."""
    order = [n for n in region.members if n in region.roots]
    return [[order.index(min(roots, key=order.index)),
             order.index(max(roots, key=order.index))]
            for roots, own_pass in region.parts if own_pass]


def _replace_region(graph, region, options, resolver, entry):
    outputs = _outputs_of(region)
    spec = _Spec(region)
    ir = spec.build(outputs)
    if not options.get("fp8", True) and any(_val(n).dtype in _FP8
                                            for n in spec.inputs):
        raise _LeftToInductor(FP8_OPTION_OFF)
    aten_program, aten_outputs = _aten_program(region, spec.inputs, outputs,
                                               spec.aliases, spec.roles)
    record = {
        "ir": ir, "roles": spec.roles, "target": options.get("target"),
        "options": {k: options[k] for k in ("fast_math", "sol_options")
                    if options.get(k)},
        "launcher": options.get("launcher_name", "device"),
        "out_ranks": [len(_shape(n)) for n in outputs],
        "out_dtypes": [_OUT_DTYPES[_val(n).dtype] for n in outputs],
        "aten": aten_program, "aten_outputs": aten_outputs,
        # Time sol against cuBLAS per M (on CUDA; options["measure"]).
        "measure": bool(options.get("measure", True)) and
        _measures_at_trace(spec.inputs),
        "cudagraphs": bool(options.get("cudagraphs")),
        # One kernel set for every M (docs/dynamic-shapes.md).
        "dynamic": bool(options.get("dynamic", True)),
    }
    # Inductor's code for the region would write its matmuls' results and
    # read them back in an epilogue pass (`_epilogue_feeds_a_matmul`): the
    # trace-time bar counts that pass. Only when so, so other regions' specs
    # (and every cache keyed by them) are as before.
    if len(region.parts) > 1:
        passes = _epilogue_passes(region)
        if passes:
            record["epilogue_passes"] = passes
    elif _epilogue_feeds_a_matmul(region, outputs):
        record["epilogue_pass"] = True
    # Two dynamic kernel sets, the upper one pairing the matmuls as
    # siblings (`dynamic_sets`), where they could pair (unless the option
    # is off). On by default since 2026-12-07 (bench/NOTES.md section 51,
    # an H100): the pair as one sibling kernel ran Llama 3.2 1B's SwiGLU at
    # 2048 tokens in 223.1 us against 272.2 for cuBLAS's two GEMMs and
    # eager's product (fp16); in the model the gathered SwiGLU + down region
    # then beat its bar, and the 1 x 2048 prefill took 3.996 against 4.366
    # ms without the option.
    if options.get("sibling_sets", True) and _may_pair(record):
        record["sibling_sets"] = True
    # The cost model's best `tune` plans timed (`tune`); only when asked,
    # so an untuned region's spec, and every cache keyed by it, is as
    # before.
    if int(options.get("tune") or 0) > 0:
        record["tune"] = int(options["tune"])
    # Weight-only fp8 has kernels for decode's rows alone (gemv's, swap_ab's).
    if any(_weight_only(root) for root in region.roots):
        record["max_rows"] = WEIGHT_ONLY_ROWS
    text = _keyed(json.dumps(record, sort_keys=True))
    m = _hint(region.m)
    if _past_max_rows(record, m):
        # Traced past the rows (a prefill): the region is sol's only where
        # the graph serves decode's rows too (a dynamic M), and at the
        # example M the op runs Inductor's code for it.
        if not (record["dynamic"] and isinstance(region.m, torch.SymInt)):
            raise _LeftToInductor(
                f"weight-only fp8 at {m} rows: sol reads fp8 codes against "
                f"a 16-bit A on gemv and swap_ab alone, up to {WEIGHT_ONLY_ROWS} rows")
        for key, _, _ in dynamic_sets(record):
            compilation = compile_region(record, key)
        entry.ir = region_ir(record, "?")
        entry.dynamic = True
        _describe_kernels(entry, compilation, WEIGHT_ONLY_ROWS)
        _insert_fused(graph, region, outputs, spec, text, resolver)
        entry.status = "sol"
        return
    # Compile now (the dynamic kernel set, else at the example M): a region
    # sol refuses stays with Inductor, and the report has the plan and the
    # predicted time at the example M.
    entry.ir = region_ir(record, m)   # kept in the report if sol refuses it
    compilation, entry.ir = _compile_at_trace(record, text, m)
    entry.dynamic = text not in dynamic_failures and record["dynamic"]
    if record.get("tune"):
        compilation = _tune_at_trace(record, text, spec.inputs, outputs, m,
                                     compilation, entry)
    _describe_kernels(entry, compilation, m)
    # Measured at the graph's example M (for a dynamic M, its hint; other
    # M are measured when they are first seen, in the op).
    if record["measure"]:
        verdict = _measure_at_trace(record, text, spec.inputs, outputs, m)
        if verdict:
            raise _MeasuredLoss(verdict)
    _insert_fused(graph, region, outputs, spec, text, resolver)
    entry.status = "sol"


def _describe_kernels(entry, compilation, m):
    """The report's kernels of a region at M: each one's plan, predicted
    time (and the M it was priced at, where another) and FLOPs."""
    for kernel in compilation.kernels:
        row = plan_row(kernel.manifest, m)
        cost, cost_m = cost_near(kernel.manifest, row, m)
        priced = plan_row(kernel.manifest, cost_m) if cost_m is not None \
            else row
        entry.kernels.append({
            "name": kernel.name,
            "plan": _plan_text(row.get("plan", {})),
            "t_pred_us": float(cost.get("t_pred_us", 0.0)),
            "cost_m": cost_m,
            # The plan the figure is for, where it is another row's.
            "cost_plan": None if priced is row else
            _plan_text(priced.get("plan", {})),
            "flops": int(cost.get("tc_flops", 0)) +
            int(cost.get("ew_flops", 0))})


def _insert_fused(graph, region, outputs, spec, text, resolver):
    """Replaces the region's members with one sol::fused call."""
    last = region.members[-1]
    out_dims = []
    for node in outputs:
        out_dims += resolver.dims(_shape(node), spec.inputs, last)
    with graph.inserting_before(last):
        fused = graph.call_function(
            torch.ops.sol.fused.default, (list(spec.inputs), out_dims, text))
    fused.meta["val"] = [_val(n) for n in outputs]
    with graph.inserting_after(fused):
        items = []
        for i, node in enumerate(outputs):
            item = graph.call_function(operator.getitem, (fused, i))
            item.meta["val"] = fused.meta["val"][i]
            items.append(item)
    for node, item in zip(outputs, items):
        node.replace_all_uses_with(item)
    for node in reversed(region.members):
        if not node.users:
            graph.erase_node(node)


def _compile_at_trace(record, text, m):
    """The region's compilation and its IR: the dynamic kernel set when the
    region wants one and it compiles (else the reason is kept in
    dynamic_failures), or the compilation at the example M."""
    if wants_dynamic(record, text, m):
        try:
            # Every set now, so no M compiles in the op (nor in a capture).
            for key, _, _ in dynamic_sets(record):
                compile_region(record, key)
            key = dynamic_key(record, m)
            return compile_region(record, key), region_ir(record, key)
        except Exception as error:
            dynamic_failures[text] = f"{type(error).__name__}: {error}"
            log.info("a sol region compiles per M: %s", dynamic_failures[text])
    return compile_region(record, m), region_ir(record, m)


def plan_row(manifest, m):
    """The part of a kernel's manifest that runs at M: the plan-table row
    holding M for a dynamic kernel, the manifest itself for a static one."""
    for row in manifest.get("plans", []):
        if row["m_min"] <= m <= row["m_max"]:
            return row
    return manifest


def cost_near(manifest, row, m):
    """The predicted cost the manifest has for M, and the M it was priced
    at (None: at M itself). A dynamic kernel is priced at its range's ends
    and hints (`cost_at`) and at the ends of some rows: the report says
    which M a figure is for rather than pass it off as M's."""
    if "plans" not in manifest:
        return manifest.get("cost", {}), None
    for point in manifest.get("cost_at", []):
        if point.get("m") == m:
            return point, None
    if row.get("cost"):
        return row["cost"], row["m_max"]
    return manifest.get("cost", {}), manifest["dynamic_dim"]["max"]


def _plan_text(plan):
    """"wgmma_tma 128x128x64 pingpong split-k 1" from a manifest's plan."""
    if not isinstance(plan, dict):
        return str(plan)
    words = [plan.get("path", "?"),
             "x".join(str(t) for t in plan.get("tile", []))]
    if plan.get("schedule"):
        words.append(plan["schedule"])
    if plan.get("split_k", 1) != 1:
        words.append(f"split-k {plan['split_k']}")
    return " ".join(w for w in words if w)


class _LeftToInductor(Exception):
    """A region that stays with Inductor, with the reason."""


class _MeasuredLoss(_LeftToInductor):
    """A region sol compiles but loses the trace-time measured choice."""


def _measure_at_trace(record, text, inputs, outputs, m):
    """For a region on CUDA: the measured reason to leave it to Inductor
    (sol slower than cuBLAS's matmuls alone at the example M), or None. On
    random inputs of the graph's shapes."""
    from torch._subclasses.fake_tensor import unset_fake_temporarily
    with unset_fake_temporarily():
        return _measure_real(record, text, inputs, outputs, m)


def _measures_at_trace(inputs):
    """Whether a region over these graph inputs is timed against cuBLAS:
    CUDA tensors on a machine with CUDA (a test stands in a timer to run
    the path on the CPU)."""
    return torch.cuda.is_available() and all(
        _val(n).device.type == "cuda" for n in inputs)


def random_tensor(shape, dtype, generator, device):
    """N(0, 0.01) values of `dtype`: drawn in f32 and converted where torch
    draws no normal values of the type itself (fp8: "normal_kernel_cuda"
    is not implemented for Float8_e4m3fn, and every fp8 region's trace-time
    measurement failed on it, leaving them all to Inductor on the GPU)."""
    draw = dtype if dtype.is_floating_point and dtype.itemsize > 1 else \
        torch.float32
    values = torch.randn(shape, generator=generator, device=device,
                         dtype=draw) * 0.1
    return values if draw == dtype else values.to(dtype)


def _random_inputs(inputs, device):
    """Inputs of the graph's shapes (at their hints) on `device`: what the
    measurements at trace time run on."""
    generator = torch.Generator(device=device).manual_seed(0)
    return [random_tensor([_hint(d) for d in _val(node).shape],
                          _val(node).dtype, generator, device)
            for node in inputs]


def _tune_at_trace(record, text, inputs, outputs, m, compilation, entry):
    """Tunes the region at the example M, on random inputs on the graph's
    device: the compilation the region then runs (the winner's; the cost
    model's where there was nothing to time), its candidates in `entry`."""
    from torch._subclasses.fake_tensor import unset_fake_temporarily
    spec = _parse_spec(text)
    with unset_fake_temporarily():
        tensors = _random_inputs(inputs, _val(inputs[0]).device)
        shapes = [[_hint(d) for d in _shape(n)] for n in outputs]
        tune(tensors, shapes, spec, text, m)
    kernel_set = _kernel_set(spec, text, m)
    candidates = tunings.get((text, kernel_set), [])
    entry.tuning, entry.tuned_m = candidates, m
    winner = next((c for c in candidates if c.get("chosen")), None)
    if winner is None or winner["rank"] == 0:
        return compilation
    return compile_region(spec, kernel_set, winner["rank"])


def _measure_real(record, text, inputs, outputs, m):
    spec = _parse_spec(text)
    tensors = _random_inputs(inputs, _val(inputs[0]).device)
    shapes = [[_hint(d) for d in _shape(n)] for n in outputs]
    choose(tensors, shapes, spec, text, m, bar="cublas")
    times = measurements.get((text, m))
    if times and choices[(text, m)] != "sol":
        bar = ("and the epilogue pass" if spec.get("epilogue_pass") or
               spec.get("epilogue_passes") else "alone")
        return (f"measured: sol {times['sol_us']:.1f} us, cuBLAS's matmuls "
                f"{bar} {times['cublas_us']:.1f} us")
    return None


#===----------------------------------------------------------------------===#
# The backend
#===----------------------------------------------------------------------===#

def compile_with_inductor(gm, example_inputs, options, mode=None):
    """torch.compile's "sol" backend: Inductor with sol's post-grad pass."""
    from torch._inductor import list_mode_options
    from torch._inductor.compile_fx import compile_fx
    patches = {}
    mode = options.get("mode", mode)
    if mode and mode != "default":
        patches.update(list_mode_options(mode))
    patches.update(options.get("inductor_config", {}))
    options = dict(options, cudagraphs=bool(patches.get(
        "triton.cudagraphs")))
    patches["post_grad_custom_post_pass"] = SolPostGradPass(options)
    return compile_fx(gm, example_inputs, config_patches=patches)
