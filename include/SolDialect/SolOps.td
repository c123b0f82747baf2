//===- SolOps.td - sol operations --------------------------*- tablegen -*-===//
//
// Matmul, elementwise ops with numpy-style broadcasting, and the sol.kernel
// region that becomes one GPU launch.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_OPS
#define SOL_OPS

include "SolDialect/SolDialect.td"
include "SolDialect/SolAttrs.td"
include "SolDialect/SolInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Sol_Float : AnyTypeOf<[F16, BF16, F32], "f16, bf16 or f32">;
def Sol_FloatTensor : RankedTensorOf<[F16, BF16, F32]>;
def Sol_ScalarTensor : 0DTensorOf<[F16, BF16, F32]>;
// fp8 is a storage type: matmul operands (and, with an output scale, its
// result), sol.cast's either side and kernel boundaries; the elementwise ops
// compute in f16/bf16/f32 (docs/fp8.md).
def Sol_StorageTensor : RankedTensorOf<[F16, BF16, F32, F8E4M3FN, F8E5M2]>;

//===----------------------------------------------------------------------===//
// sol.matmul
//===----------------------------------------------------------------------===//

def Sol_MatmulOp : Sol_Op<"matmul", [Pure, AttrSizedOperandSegments]> {
  let summary = "batched matrix product with f32 accumulation";
  let description = [{
    `[..., M, K] x [K, N] -> [..., M, N]`, or with `transpose_b` the nn.Linear
    layout `[..., M, K] x [N, K]^T`. The right operand is either rank 2 (shared
    by every batch) or has the left operand's leading batch dims. Operands are
    f16, bf16 or f32 of one element type; products accumulate in f32 and are
    rounded once to the result element type.

    ```mlir
    %y = sol.matmul %x, %w transpose_b
        : tensor<16x512x2560xf16>, tensor<2560x2560xf16> -> tensor<16x512x2560xf16>
    ```

    **fp8** (docs/fp8.md): both operands f8E4M3FN or f8E5M2, in any pair
    (Hopper's wgmma takes all four), B stored `[N, K]` (`transpose_b`: fp8
    tensor cores read both operands K-major). A stored value `q` stands for
    `q * scale`: `scale_a` is A's dequantisation scale, per tensor (`[]` or
    `[1]`) or per token (A's shape with K replaced by 1, `[M, 1]`);
    `scale_b` is B's, per tensor or per output channel (`[N]`). Both are
    f32 and multiply the f32 accumulator, `acc * scale_a * scale_b`, before
    anything else reads it. The result is f16, bf16 or f32, or fp8 with
    `scale_out` (per tensor), the result's own dequantisation scale: the
    stored result is `acc * scale_a * scale_b / scale_out`, rounded to
    nearest even and saturated as sol.cast does. A missing scale is 1.

    **Block-wise scales** (DeepSeek-V3's and Qwen3-FP8's checkpoints):
    `scale_b` of shape `[ceil(N/128), ceil(K/128)]`, one per 128 x 128 block
    of B, and `scale_a` of A's shape with K replaced by `ceil(K/128)`, one
    per token and 128-deep group of K. They scale each K block's partial
    sum: `acc = sum_kb scale_a[m, kb] * scale_b[n/128, kb] * sum_{k in kb}
    A[m, k] B[n, k]`. Either may be block-wise with the other per tensor,
    token or channel (which then scales `acc` as above).

    ```mlir
    %y = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<f32>)
        scale_b(%sw : tensor<2560xf32>)
        : tensor<512x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN> -> tensor<512x2560xbf16>
    ```
  }];
  let arguments = (ins Sol_StorageTensor:$lhs, Sol_StorageTensor:$rhs,
                       // f32; the verifier says so for another float type.
                       Optional<Sol_StorageTensor>:$scale_a,
                       Optional<Sol_StorageTensor>:$scale_b,
                       Optional<Sol_StorageTensor>:$scale_out,
                       UnitAttr:$transpose_b);
  let results = (outs Sol_StorageTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs (`transpose_b` $transpose_b^)?
    (`scale_a` `(` $scale_a^ `:` type($scale_a) `)`)?
    (`scale_b` `(` $scale_b^ `:` type($scale_b) `)`)?
    (`scale_out` `(` $scale_out^ `:` type($scale_out) `)`)? attr-dict
    `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Number of leading batch dims of the left operand.
    int64_t getNumBatchDims() { return getLhs().getType().getRank() - 2; }

    /// Whether `type` is an fp8 element type a matmul takes (e4m3, e5m2).
    static bool isFp8(::mlir::Type type);
    /// Whether both operands are fp8 (an fp8 A needs an fp8 B).
    bool hasFp8Operands() { return isFp8(getLhs().getType().getElementType()); }
    /// Whether this is a weight-only fp8 matmul: a 16-bit A against fp8
    /// weight codes, dequantised by scale_b (docs/fp8.md, "Weight-only").
    bool isWeightOnlyFp8() {
      return !hasFp8Operands() && isFp8(getRhs().getType().getElementType());
    }
    /// Whether B is fp8 (both operands, or weight-only).
    bool hasFp8Weight() { return isFp8(getRhs().getType().getElementType()); }
    /// Whether any of scale_a, scale_b, scale_out is present.
    bool hasScales() { return getScaleA() || getScaleB() || getScaleOut(); }

    /// The side of a block-wise scale's blocks along K (and N for B's):
    /// DeepSeek-V3's and Qwen3-FP8's `weight_block_size` [128, 128], and one
    /// fp8 wgmma K tile (128 one-byte elements).
    static constexpr int64_t kScaleBlock = 128;
    /// Whether scale_a / scale_b is block-wise: it scales each K block's
    /// partial sum, not the accumulator. Told by the operand's shape (the
    /// verifier admits one meaning per shape): scale_a of more than one K
    /// group (one group, K <= 128, is the per-token scale it equals), a
    /// rank-2 scale_b.
    bool isBlockScaleA();
    bool isBlockScaleB();
    /// Whether scale_a or scale_b is block-wise.
    bool hasBlockScales() { return isBlockScaleA() || isBlockScaleB(); }

    /// The start of every refusal of an fp8 use by code generation: the
    /// wgmma_tma path reads fp8 matmul operands; the other paths, fp8
    /// results and conversions are not generated yet (docs/fp8.md says what
    /// each will need).
    static constexpr ::llvm::StringLiteral kNoFp8PathYet =
        "fp8 is not generated here yet";
  }];
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

// `flops` is the cost-model convention for one result element.
class Sol_ElementwiseOp<string mnemonic, int flops, list<Trait> traits = []>
    : Sol_Op<mnemonic, traits # [Pure, Sol_ElementwiseOpInterface]> {
  let extraClassDeclaration = [{
    int64_t getFlopsPerElement() { return }] # flops # [{; }
  }];
}

class Sol_BinaryOp<string mnemonic, int flops, string expr,
                   list<Trait> traits = []>
    : Sol_ElementwiseOp<mnemonic, flops, traits> {
  let summary = "elementwise `" # expr # "` with numpy-style broadcasting";
  let description = [{
    Computes `}] # expr # [{` per element. Shapes broadcast numpy-style:
    trailing dims align, and each pair of dims must be equal or one of them 1
    (a bias `[N]` or a row scale `[M, 1]` against `[M, N]`). The broadcast is
    an indexing rule, never a materialised tensor. Operands and result share
    one element type: a dtype change is an explicit `sol.cast`.
    Costs }] # flops # [{ FLOP per result element.
  }];
  let arguments = (ins Sol_FloatTensor:$lhs, Sol_FloatTensor:$rhs);
  let results = (outs Sol_FloatTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Sol_AddOp : Sol_BinaryOp<"add", 1, "lhs + rhs", [Commutative]>;
def Sol_SubOp : Sol_BinaryOp<"sub", 1, "lhs - rhs">;
def Sol_MulOp : Sol_BinaryOp<"mul", 1, "lhs * rhs", [Commutative]>;
def Sol_DivOp : Sol_BinaryOp<"div", 1, "lhs / rhs">;
def Sol_MaxOp : Sol_BinaryOp<"max", 1, "max(lhs, rhs)", [Commutative]>;
def Sol_MinOp : Sol_BinaryOp<"min", 1, "min(lhs, rhs)", [Commutative]>;

class Sol_UnaryOp<string mnemonic, int flops, string expr,
                  list<Trait> traits = []>
    : Sol_ElementwiseOp<mnemonic, flops, traits # [SameOperandsAndResultType]> {
  let summary = "elementwise `" # expr # "`";
  let description = [{
    Computes `}] # expr # [{` per element, in f32 for f16/bf16 operands.
    Costs }] # flops # [{ FLOP per element.
  }];
  let arguments = (ins Sol_FloatTensor:$input);
  let results = (outs Sol_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  // Only the outermost dim may be dynamic (docs/dynamic-shapes.md).
  let hasVerifier = 1;
}

def Sol_NegOp : Sol_UnaryOp<"neg", 1, "-x"> { let hasFolder = 1; }
def Sol_AbsOp : Sol_UnaryOp<"abs", 1, "|x|"> {
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}
def Sol_ExpOp : Sol_UnaryOp<"exp", 1, "e^x">;
def Sol_TanhOp : Sol_UnaryOp<"tanh", 1, "tanh(x)">;
// The error function: exact GELU as its frameworks decompose it,
// x * 0.5 * (1 + erf(x / sqrt(2))) (Inductor's graphs hold that, not gelu).
def Sol_ErfOp : Sol_UnaryOp<"erf", 1, "erf(x)">;
// -x, exp, +1, reciprocal.
def Sol_SigmoidOp : Sol_UnaryOp<"sigmoid", 4, "1 / (1 + e^-x)">;
def Sol_ReluOp : Sol_UnaryOp<"relu", 1, "max(x, 0)"> { let hasFolder = 1; }
// x * sigmoid(x): sigmoid's 4 and one multiply.
def Sol_SiluOp : Sol_UnaryOp<"silu", 5, "x / (1 + e^-x)">;

def Sol_GeluOp : Sol_ElementwiseOp<"gelu", 0, [SameOperandsAndResultType]> {
  let summary = "elementwise GELU, exact (erf) or tanh-approximated";
  let description = [{
    `erf`:  `0.5 * x * (1 + erf(x / sqrt(2)))` (PyTorch's default), 5 FLOP.
    `tanh`: `0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))`
    (PyTorch's `approximate="tanh"`), 9 FLOP.

    ```mlir
    %g = sol.gelu tanh %x : tensor<8192x10240xf16>
    ```
  }];
  let arguments = (ins Sol_FloatTensor:$input,
                       Sol_GeluApproximation:$approximation);
  let results = (outs Sol_FloatTensor:$result);
  let assemblyFormat = "$approximation $input attr-dict `:` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getFlopsPerElement() {
      return getApproximation() == GeluApproximation::tanh ? 9 : 5;
    }
  }];
}

def Sol_CastOp : Sol_ElementwiseOp<"cast", 0> {
  let summary = "elementwise float conversion (round to nearest even)";
  let description = [{
    Converts each element to the result's element type; shapes must match.
    A conversion is not counted as a FLOP.

    To fp8 (f8E4M3FN, f8E5M2) the conversion saturates: a value beyond the
    largest finite one, infinities included, becomes it with its sign
    (448 for e4m3, 57344 for e5m2), and NaN stays NaN; that is PTX's
    `cvt.rn.satfinite.{e4m3,e5m2}x2.f32` and what fp8 checkpoints are
    quantised with. From fp8 every value is exact.

    ```mlir
    %h = sol.cast %acc : tensor<8192x2560xf32> to tensor<8192x2560xf16>
    ```
  }];
  let arguments = (ins Sol_StorageTensor:$input);
  let results = (outs Sol_StorageTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Sol_ConstantOp : Sol_ElementwiseOp<"constant", 0,
    [ConstantLike, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "a scalar constant, broadcast wherever it is used";
  let description = [{
    A rank-0 tensor holding one f16, bf16 or f32 value; it broadcasts against
    any shape. Folding elementwise ops on constants produces these.

    ```mlir
    %half = sol.constant 5.000000e-01 : f16   // tensor<f16>
    ```
  }];
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs Sol_ScalarTensor:$result);
  let assemblyFormat = "$value attr-dict";
  let hasFolder = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// sol.kernel / sol.yield
//===----------------------------------------------------------------------===//

def Sol_KernelOp : Sol_Op<"kernel", [
    IsolatedFromAbove, SingleBlockImplicitTerminator<"YieldOp">,
    RecursiveMemoryEffects]> {
  let summary = "a fused region that becomes one GPU launch";
  let description = [{
    Operands are the kernel's global inputs: each is read from device memory
    once. The body's block arguments stand for them (same order and types);
    its ops are sol compute ops; `sol.yield` names the values written back.
    Everything else inside lives on chip. The cost model writes `cost`
    (#sol.cost), the tiler the tile plan. A kernel whose outermost dim is
    dynamic carries, instead of one cost and one plan, `costs` (its
    #sol.cost at the hints and the ends of its #sol.dim_range; `cost` is
    the one at the range's max) and `plans` (sol-tile's table of M ranges,
    each with its #sol.plan).

    ```mlir
    %o = sol.kernel @oproj_residual ins(%x, %w, %r : tensor<...>, ...) -> tensor<...> {
    ^bb0(%xa: tensor<...>, %wa: tensor<...>, %ra: tensor<...>):
      %mm = sol.matmul %xa, %wa transpose_b : ...
      %y = sol.add %mm, %ra : ...
      sol.yield %y : tensor<...>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       Variadic<Sol_StorageTensor>:$inputs,
                       OptionalAttr<Sol_CostAttr>:$cost,
                       OptionalAttr<Sol_PlanAttr>:$plan,
                       OptionalAttr<Sol_CostPoints>:$costs,
                       OptionalAttr<Sol_PlanTable>:$plans);
  let results = (outs Variadic<Sol_StorageTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `ins` `(` $inputs `:` type($inputs) `)` (`->` type($results)^)?
    attr-dict-with-keyword $body
  }];
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name, "::mlir::TypeRange":$resultTypes,
                   "::mlir::ValueRange":$inputs)>
  ];
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    YieldOp getYield();
  }];
}

def Sol_YieldOp : Sol_Op<"yield", [
    Pure, Terminator, ReturnLike, HasParent<"KernelOp">]> {
  let summary = "the values a sol.kernel writes back to device memory";
  let arguments = (ins Variadic<Sol_StorageTensor>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing to build */ }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // SOL_OPS
