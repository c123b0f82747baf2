//===- Passes.td - sol passes ------------------------------*- tablegen -*-===//
//
// The sol passes, grouped under banners in the order the pipelines
// (lib/Pipelines/Pipelines.cpp) run them. Ordering rule: a pass runs after
// every pass whose annotation it reads; the target comes first, as every
// decision reads it.
//
// sol-to-ptx, on a module whose #sol.target is set (sol-attach-target or the
// module's own attribute):
//   sol-fuse                    groups sol ops into sol.kernels
//   sol-cost-model              annotates each kernel with #sol.cost; runs
//                               again after sol-tile, for the chosen plans
//   sol-form-kernels            wraps each op left alone into its own kernel
//   sol-tile                    chooses each kernel's #sol.plan
//   sol-write-manifests         writes each planned kernel's manifest
//   convert-sol-to-linalg       outlines each kernel into linalg on tensors
//   convert-sol-kernels-to-gpu  generates each kernel's gpu.func from its plan
//   sol-attach-nvvm-target      attaches #nvvm.target for the target's chip
//   sol-tensor-map-params       passes TMA maps as grid constants (on the
//                               LLVM form, after convert-gpu-to-nvvm)
//   sol-write-binaries          writes each gpu.binary's PTX and cubin (after
//                               gpu-module-to-binary)
// sol-lower-to-cpu, on convert-sol-to-linalg's output:
//   sol-strip-host-funcs        keeps the kernel functions only
//   sol-drop-kernel-results     drops the results after one-shot-bufferize
//   sol-cpu-kernel-abi          passes a dynamic dim through one pointer
//
//===----------------------------------------------------------------------===//

#ifndef SOL_PASSES
#define SOL_PASSES

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Target
//===----------------------------------------------------------------------===//

def SolAttachTargetPass : Pass<"sol-attach-target", "::mlir::ModuleOp"> {
  let summary = "Pin the module's #sol.target from a preset or a JSON file";
  let description = [{
    Sets the `sol.target` module attribute, which every later sol pass reads.
    `preset` names a built-in device (a100-80gb, h100-sxm, h100-pcie, h200,
    b200, l40s);
    `file` loads a calibrated description from JSON (see Target.h). Exactly
    one must be given. An existing `sol.target` is replaced.
  }];
  let options = [
    Option<"preset", "preset", "std::string", /*default=*/"\"\"",
           "Name of a built-in target preset">,
    Option<"file", "file", "std::string", /*default=*/"\"\"",
           "Path of a JSON target description">,
  ];
  let dependentDialects = ["::mlir::sol::SolDialect"];
}

//===----------------------------------------------------------------------===//
// Fusion, cost and tiling (sol level)
//===----------------------------------------------------------------------===//

def SolFusePass : Pass<"sol-fuse", "::mlir::ModuleOp"> {
  let summary = "Group sol ops into sol.kernels: matmul epilogues, elementwise chains";
  let description = [{
    Outlines groups of sol ops into `sol.kernel`s, one GPU launch each, so
    that intermediates stay on chip. Runs after sol-attach-target (the
    profitability check reads the module's #sol.target) and before
    sol-cost-model (which annotates the kernels formed here).

    Ordering rule: epilogues first, then elementwise groups. Each sol.matmul,
    in program order, grows a kernel with its elementwise consumers (bias,
    residual, activation, scaling, cast), earliest first, up to
    `max-epilogue-ops` (the ops weighed by their FLOPs per element). Before
    that, a sibling matmul may join it: one over
    the same A with a weight of the same type, whose result meets the
    first's in an elementwise op (SwiGLU's `silu(x W_g^T) * (x W_u^T)`),
    where the target has a generator for the pair (wgmma_tma, at least one
    128-row tile of A); the two then run as one matmul of twice the width
    and the epilogue combines them in registers. Otherwise two matmuls never
    share a kernel. The elementwise ops
    left then form groups from each remaining op, in program order, through
    consumers and producers of the same shape: chains, fan-ins, fan-outs and
    diamonds. Each group is outlined as soon as it stops growing, so later
    decisions see earlier kernels.

    Every candidate gets a decision with its reason: the legality predicates
    (elementwise, no matmul feeding a matmul, the iteration space is kept, no
    cycle through an outside op, the epilogue budget), then the profitability
    check: fuse when the cost model's predicted time of the fused kernel is
    not above the two kernels' sum. A group value also used outside is
    materialised as an extra kernel output (never recomputed) and that
    output's bytes count in the comparison. Scalar sol.constants are cloned
    into kernels. An op that fuses with nothing stays a plain op (the cost
    model already treats it as a kernel of its own). `remarks` emits each
    decision as a remark at the candidate op.

    No kernel weighs more than `max-kernel-ops` (default 256), each op
    weighed by the scalar code it expands to (its FLOPs per element, at
    least 1: a tanh-GELU weighs 9): ptxas took 83 s on one kernel of 2 000
    elementwise ops, so a longer chain is split into kernels of that
    weight, each reading the previous one's output, and a remark says where
    (with or without `remarks`). The driver is linear in the length of a
    chain.

    Kernels are named `<func>_<anchor op kind>_<n>`, the function's name
    sanitised to [A-Za-z0-9_] (a name becomes a PTX entry and file names),
    skipping names already taken in the module. sol ops in a nested module
    are an error: no later pass would compile them.

    `force=always` fuses whenever legal without consulting the cost model;
    `force=never` puts every sol compute op in a kernel of its own. Both work
    without a target (sibling matmuls then stay apart: whether a generator
    takes the pair depends on the target); otherwise a missing #sol.target
    is an error.
  }];
  let options = [
    Option<"fuseEpilogues", "fuse-epilogues", "bool", /*default=*/"true",
           "Fuse elementwise consumers into each sol.matmul's kernel">,
    Option<"fuseSiblings", "fuse-siblings", "bool", /*default=*/"true",
           "Let a sibling matmul (same A, same weight type, results meeting "
           "in the epilogue) join a sol.matmul's kernel">,
    Option<"fuseElementwise", "fuse-elementwise", "bool", /*default=*/"true",
           "Group the remaining elementwise ops into kernels">,
    Option<"maxEpilogueOps", "max-epilogue-ops", "unsigned", /*default=*/"16",
           "Most elementwise ops one matmul epilogue may hold, each weighed "
           "by its FLOPs per element (at least 1): bias, tanh GELU and a "
           "residual weigh 11, SwiGLU's silu and product 6">,
    Option<"maxKernelOps", "max-kernel-ops", "unsigned", /*default=*/"256",
           "Most ops one kernel may hold, each weighed by its FLOPs per "
           "element (0: no limit); a longer chain is split into several "
           "kernels, with a remark">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit every fusion decision, with its reason, as a remark">,
    Option<"force", "force", "std::string", /*default=*/"\"\"",
           "'' (cost model decides), 'always' (fuse whenever legal) or "
           "'never' (one kernel per op)">,
  ];
  let dependentDialects = ["::mlir::sol::SolDialect"];
}

def SolCostModelPass : Pass<"sol-cost-model", "::mlir::ModuleOp"> {
  let summary = "Annotate every kernel with its speed-of-light cost (#sol.cost)";
  let description = [{
    Under the module's #sol.target, writes `cost = #sol.cost<...>` on every
    sol.kernel and `sol.cost` on every sol compute op outside a kernel (it
    will become a kernel of its own): FLOPs (tensor-core and elementwise
    apart), minimum bytes, intensity, balance, bound, T_ideal, T_pred,
    SOL_pred and the dominant term of T_pred (see CostModel.h). The module
    gets `sol.cost_summary`: totals and the bytes fusion saved against the
    same graph unfused. A kernel the model cannot bound (dynamic shapes, no
    peak for its dtype on the target) is annotated `bound = unknown` with the
    reason, and a warning names it.

    `report=table` prints a table a person reads at a glance, `report=json`
    the same for tools, to `report-file` (default: stdout).
  }];
  let options = [
    Option<"report", "report", "std::string", /*default=*/"\"none\"",
           "Print a report: none, table or json">,
    Option<"reportFile", "report-file", "std::string", /*default=*/"\"-\"",
           "Where the report goes ('-': stdout)">,
  ];
  let dependentDialects = ["::mlir::sol::SolDialect"];
}

def SolFormKernelsPass : Pass<"sol-form-kernels", "::mlir::ModuleOp"> {
  let summary = "Wrap every sol compute op left outside a kernel into its own sol.kernel";
  let description = [{
    Fusion leaves an op that fuses with nothing as a plain sol op. This pass
    outlines each such op into a single-op `sol.kernel` named
    `<func>_<op kind>_<n>` (sol-fuse's scheme; n continues the function's
    kernel count and skips names already taken in the module), moves its
    `sol.cost` onto the kernel's `cost` and clones scalar `sol.constant`
    operands into the kernel. Afterwards every sol compute op is inside a
    kernel: code generators see one unit kind.
  }];
  let dependentDialects = ["::mlir::sol::SolDialect"];
}

def SolTilePass : Pass<"sol-tile", "::mlir::ModuleOp"> {
  let summary = "Choose each kernel's launch and tile plan (#sol.plan)";
  let description = [{
    For every sol.kernel, chooses the code-generation path and its tiling
    from the kernel's shapes and the module's #sol.target, and records it as
    `plan = #sol.plan<...>`; the GPU code generator implements exactly that
    plan. For a matmul with f16/bf16 operands every plan a generator can
    build (gemv, mma.sync tiles, on sm_90a wgmma and wgmma_tma tiles) is
    priced by the cost model and the fastest is recorded, so prefill and
    decode shapes get different paths and tiles; other matmuls take the SIMT
    path; kernels without a matmul the elementwise path. A sibling pair (two
    matmuls over one A, see sol-fuse) is priced as one matmul of twice the
    width on the wgmma_tma tiles alone, without clusters, each tile holding
    half its columns from each weight. The kernel's `cost`
    is rewritten for the chosen plan. Run after sol-form-kernels (lone ops
    are not tiled). `remarks` says, per kernel, what was chosen, the
    runner-up and why.

    A kernel whose outermost dim is dynamic gets `plans`, a table of
    #sol.plan_entry rows covering its #sol.dim_range, instead of `plan`
    (docs/dynamic-shapes.md, section 3): the best plan at each sample point,
    neighbours of one plan merged, each boundary bisected to where the next
    row's plan wins, each row's plan built at its m_max. `cost` is the
    prediction at the range's max, `costs` the rows' predictions at the
    report points; `remarks` gives one remark per row, with both plans'
    times on either side of its boundary.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark per kernel with the chosen plan and its reason">,
    Option<"paths", "paths", "std::string", /*default=*/"\"\"",
           "Comma-separated matmul paths the tiler may choose from (gemv, "
           "mma_sync, wgmma, wgmma_tma; empty: all), for A/B measurements">,
    Option<"maxSplitK", "max-split-k", "int64_t", /*default=*/"16",
           "Most blocks a plan may split one output tile's K over">,
    Option<"maxCluster", "max-cluster", "int64_t", /*default=*/"1",
           "Largest thread-block cluster a plan may use (2: B tiles "
           "multicast to 2-CTA clusters; off by default, it measured no "
           "faster on the H200)">,
    Option<"minCluster", "min-cluster", "int64_t", /*default=*/"1",
           "Smallest thread-block cluster a plan may use, for A/B "
           "measurements (plans without clusters count as 1)">,
    Option<"schedules", "schedules", "std::string", /*default=*/"\"\"",
           "Comma-separated wgmma_tma consumer schedules the tiler may "
           "choose from (cooperative, pingpong; empty: all)">,
    Option<"tiles", "tiles", "std::string", /*default=*/"\"\"",
           "Comma-separated MxN output tiles the wgmma and wgmma_tma plans "
           "may use (e.g. 128x256; empty: all), for A/B measurements">,
    Option<"nMajorTma", "n-major-tma", "bool", /*default=*/"true",
           "Let wgmma_tma take a [K, N] weight, read N-major (false keeps "
           "such a weight on mma.sync, for A/B measurements)">,
    Option<"smallMTma", "small-m-tma", "bool", /*default=*/"true",
           "Let wgmma_tma offer its small-M plans: 64-row ping-pong tiles "
           "and split K over 2, 3, 4, 6 or 8 units (false: without them, "
           "for A/B measurements)">,
    Option<"smallMSiblings", "small-m-siblings", "bool", /*default=*/"false",
           "Let a sibling pair take wgmma_tma's 64-row tiles too (not yet "
           "run on a GPU: for the GPU matrix, until it passes them)">,
    Option<"swapAbRowTile64", "swap-ab-row-tile-64", "bool",
           /*default=*/"false",
           "Let weight-only fp8 swap_ab past 32 rows take a 64-row tile (eight "
           "n8 tiles on each converted code) instead of stacking 32-row "
           "blocks (not yet measured: for A/B on the GPU)">,
    Option<"blockSplitK", "block-split-k", "bool", /*default=*/"false",
           "Let a matmul with block-wise fp8 scales split K on wgmma_tma "
           "(each split promotes its own K tiles, and the splits' promoted "
           "partials sum as any split's do; correct on an H100's GPU "
           "matrix, not yet timed: for A/B on the GPU)">,
    Option<"hopperMmaSyncFp8", "hopper-mma-sync-fp8", "bool",
           /*default=*/"false",
           "Let mma.sync's m16n8k32 take fp8 matmuls on sm_90, where wgmma is "
           "fp8's path (sm_89 takes it by default; for the GPU matrix and "
           "A/B on a Hopper card)">,
    Option<"splitK", "split-k", "int64_t", /*default=*/"0",
           "Test-only: take only plans that split K over exactly this many "
           "blocks (0: any), so the GPU matrix runs split K where the cost "
           "model would not choose it">,
    Option<"rank", "rank", "int64_t", /*default=*/"0",
           "Take the candidate at this place in the cost model's order "
           "instead of the best (0: the best, 1: the runner-up; past the "
           "last candidate: the last), for measured plan choice. A kernel "
           "one path takes alone (no matmul, SIMT) has one plan. A dynamic "
           "kernel's plan table takes it at each sample point, before "
           "neighbours of one plan merge; its boundaries and each row's "
           "plan at another M are priced as at rank 0">,
    Option<"planCache", "plan-cache", "std::string", /*default=*/"\"\"",
           "A plan cache file (include/SolDialect/PlanCache.h): a static "
           "kernel whose key (the manifest's plan_key) it holds takes the "
           "measured plan there when that plan is among its candidates, "
           "else the cost model's, saying why">,
  ];
  let dependentDialects = ["::mlir::sol::SolDialect"];
}

//===----------------------------------------------------------------------===//
// Manifests (sol level, once planned)
//===----------------------------------------------------------------------===//

def SolWriteManifestsPass : Pass<"sol-write-manifests", "::mlir::ModuleOp"> {
  let summary = "Write one JSON manifest per planned sol.kernel, for the runtime";
  let description = [{
    For every sol.kernel with a #sol.plan, writes `<dir>/<kernel>.json`: the
    entry name, the argument list (inputs then outputs: name, role, dtype,
    shape), the launch geometry and dynamic shared memory from the plan,
    the target facts the runner needs, the cost annotation, the plan, and
    the kernel's sol ops as a small program (`program`, `outputs`) that the
    runner evaluates independently, in float64, as the reference. Runs at
    the sol level (after sol-tile); the binaries come later from
    sol-write-binaries under the same names.
  }];
  let options = [
    Option<"dir", "dir", "std::string", /*default=*/"\"\"",
           "Directory the manifests are written to (created if missing)">,
  ];
}

//===----------------------------------------------------------------------===//
// Lowering to linalg
//===----------------------------------------------------------------------===//

def ConvertSolToLinalgPass : Pass<"convert-sol-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Outline every sol.kernel into a func.func of canonical linalg on tensors";
  let description = [{
    First wraps lone sol compute ops into kernels (sol-form-kernels). Then each
    `sol.kernel @name` becomes `func.func @name` in destination-passing style,
    and the kernel op becomes `func.call @name(ins..., tensor.empty()...)`:

      func.func @name(%in0, ..., %out0, ...) -> (results)
          attributes {sol.kernel, sol.cost = <the kernel's cost>, sol.<attr> ...}

    arguments: the kernel's inputs, then one tensor per kernel result (the
    outs); the function returns the epilogue's results. Other discardable
    attributes of the kernel are copied with a `sol.` prefix.

    The body has exactly this canonical form, which GPU code generators match:

      1. Only if the kernel holds a sol.matmul (one, or a sibling pair over
         one A, each lowered so in block order):
           %init = tensor.empty() : tensor<...xf32>     // matmul result shape
           %acc0 = linalg.fill ins(%c0_f32) outs(%init)
           %acc  = <contraction> ins(%lhs, %rhs) outs(%acc0)
         where the contraction is `linalg.matmul` for a rank-2 lhs (with
         explicit `indexing_maps` [(m,n,k)->(m,k), (m,n,k)->(n,k),
         (m,n,k)->(m,n)] under transpose_b), and for a batched lhs a
         `linalg.generic` over (b..., m, n, k) with iterators
         [parallel x batch, parallel, parallel, reduction], maps
         A: (b...,m,k), B: (k,n) / (n,k) for a rank-2 rhs (shared by every
         batch) or (b...,k,n) / (b...,n,k) for a batched one, C: (b...,m,n),
         and the body extf (non-f32 operands) + mulf + addf.
      2. Always exactly one all-parallel `linalg.generic`, the epilogue, over
         the kernel's output shape (all results share it). ins: the f32
         accumulators first (if any, in block order), then each kernel input
         the elementwise
         ops read (matmul-only inputs are not ins), each with a numpy
         broadcasting map: trailing dims align, a size-1 dim that broadcasts
         reads index 0, missing leading dims are dropped. outs: the out
         arguments. Body: each loaded f16/bf16 value is extended to f32, each
         sol op becomes f32 arith/math code (emitScalarElementwise, see
         Conversion/ScalarCodegen.h), sol.constants become arith.constant,
         and each yielded value is truncated to its output's element type.
         Intermediates stay f32 (no rounding between ops) except across a
         narrowing sol.cast, which rounds (truncf then extf). A kernel
         result that is the matmul's result yields the truncated
         accumulator.
      3. func.return of the epilogue's results.

    A kernel with a dynamic outermost dim (docs/dynamic-shapes.md) keeps it:
    its function takes and returns `tensor<?x...>`, each accumulator's
    `tensor.empty(%dim)` takes `%dim = tensor.dim` of the first dynamic
    argument at index 0 (built only when there is an accumulator), and the
    host sizes the outs it passes the same way. Such a function also carries
    the kernel's plan table (`sol.plans`) and, where its function or module
    declares one, `sol.dim_range`.

    Kernel functions hold no sol ops. Two matmuls that are not siblings (or
    more than two) in a kernel, a matmul operand computed inside the kernel
    (a prologue) and kernel results of different shapes are located errors.
  }];
  let dependentDialects = [
    "::mlir::sol::SolDialect", "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect"
  ];
}

//===----------------------------------------------------------------------===//
// GPU code generation and binaries
//===----------------------------------------------------------------------===//

def ConvertSolKernelsToGPUPass
    : Pass<"convert-sol-kernels-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Generate one gpu.func per sol kernel function, as its #sol.plan says";
  let description = [{
    Takes the linalg-on-tensors kernel functions of convert-sol-to-linalg
    (functions marked `sol.kernel`, carrying `sol.plan`) and replaces each by
    a `gpu.module` holding one `gpu.func` kernel of the same name whose
    arguments are the function's (inputs then outputs) as flat memrefs,
    followed for `wgmma_tma` by its TMA maps (A's, then each weight's; the
    kernel's `sol.tensor_maps` counts them). The plan's path decides
    the code: `mma_sync` (cp.async multi-stage pipeline, ldmatrix, m16n8k16
    mma.sync), `wgmma` (wgmma.mma_async on swizzled stages fed by cp.async),
    `wgmma_tma` (persistent and warp-specialised: TMA through mbarriers,
    optionally 2-CTA clusters multicasting B), `gemv` (a warp per weight
    row), `simt` (one thread per output element) or `elementwise`; every
    matmul path runs the epilogue on the accumulators. Edges of any static
    shape are handled by zero-filled loads and predicated stores. Host
    functions are removed: launching is the runtime's job.

    With `fast-math`, every f32 tanh of the kernels' elementwise bodies
    (matmul epilogues and elementwise kernels alike; GELU's tanh form)
    becomes one `tanh.approx.f32` (about 5e-4 absolute error) instead of
    libdevice's two-MUFU expansion: the MLP + GELU ran 22-53 us faster on
    the H200 (2026-11-30), but GELU's 1 + tanh(u) then loses its relative
    accuracy for x in about [-5, -3] (bench/NOTES.md section 17). Off by
    default.

    With `wide-stores`, the wgmma and wgmma_tma epilogues store f16/bf16
    results (N a multiple of 8) four n8 fragment blocks at a time: a
    transpose across each quad of lanes (four shuffles per four words)
    gives each lane eight consecutive columns, stored with one 16-byte
    `st.global.v4`, a quarter of the store instructions of the
    fragment's 4-byte pairs. On by default since the GPU matrix passed it
    (an H100, 2026-12-07: 472 static kernels, 18 dynamic at 136 Ms) and
    the cooperative 128x256 o_proj at 8192 rows ran 170.4 against 200.3
    us (bench/NOTES.md section 52); `wide-stores=false` keeps the pairs.

    With `overwrite-first-k`, each wgmma_tma unit's first K tile is peeled
    off its K loop and its first wgmma writes the accumulators (scale-d =
    0) instead of adding to registers zeroed by `mov`s; block-wise fp8
    partial sums overwrite theirs on every K tile. ptxas then has no
    register writes to fence before the first wgmma, where it injects a
    warpgroup.arrive (C7519) and, on ping-pong tiles, a warpgroup.wait
    (C7517) that serialises the unit's first wgmmas. Off by default: on an
    H100 it passed the GPU matrix (578 kernels, 470 dynamic runs) but ran
    no faster, -4 to +5 % per clock (bench/NOTES.md sections 54, 55).
  }];
  let options = [
    Option<"fastMath", "fast-math", "bool", /*default=*/"false",
           "Approximate the kernels' f32 tanh with tanh.approx.f32">,
    Option<"wideStores", "wide-stores", "bool", /*default=*/"true",
           "Store the wgmma paths' 16-bit results 16 bytes per lane">,
    Option<"overwriteFirstK", "overwrite-first-k", "bool", /*default=*/"false",
           "Start each wgmma_tma unit's accumulators with a scale-d = 0 "
           "wgmma instead of zeroed registers">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def SolAttachNVVMTargetPass
    : Pass<"sol-attach-nvvm-target", "::mlir::ModuleOp"> {
  let summary = "Attach #nvvm.target for the module's #sol.target chip to every gpu.module";
  let description = [{
    The chip comes from the module's `sol.target` (sm_90a for H100/H200,
    sm_80 for A100, ...) unless `chip` overrides it. The PTX ISA asked
    for is 8.0 (LLVM's default, 6.0, cannot target sm_90) or the chip's own
    minimum where that is higher (8.6 for sm_100a); a chip LLVM's NVPTX
    backend does not know is refused with an error.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Override the chip of the module's #sol.target">,
    Option<"optLevel", "O", "unsigned", /*default=*/"3",
           "LLVM optimisation level of the NVPTX backend">,
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def SolTensorMapParamsPass
    : Pass<"sol-tensor-map-params", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Pass a wgmma_tma kernel's TMA maps by value, as grid constants";
  let description = [{
    Runs on the LLVM form of the kernels (after convert-gpu-to-nvvm, which
    drops `llvm.byval` from gpu.func arguments). For every kernel whose
    `sol.plan` is `wgmma_tma`, marks its last `sol.tensor_maps` arguments
    (the A map, then one per weight: two, or three for sibling matmuls)
    `llvm.byval = !llvm.array<16 x i64>`, `llvm.align = 64` and
    `nvvm.grid_constant`: each becomes a 128-byte `.param` the TMA reads in
    place (CUDA's `const __grid_constant__ CUtensorMap`), so the launcher
    passes host bytes with the launch: no device copy, no synchronisation,
    capturable in CUDA graphs.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def SolWriteBinariesPass : Pass<"sol-write-binaries", "::mlir::ModuleOp"> {
  let summary = "Write each gpu.binary's PTX (and, through ptxas, its cubin)";
  let description = [{
    For every `gpu.binary` whose object is PTX text (gpu-module-to-binary
    format=isa), writes `<dir>/<name>.ptx`; with `cubin`, also assembles it
    with ptxas for the object's chip into `<dir>/<name>.cubin` (ptxas is
    looked up in `cuda-path`/bin, $CUDA_HOME/bin, then PATH). A ptxas
    failure is an error that carries ptxas's own message.
  }];
  let options = [
    Option<"dir", "dir", "std::string", /*default=*/"\"\"",
           "Directory the binaries are written to (created if missing)">,
    Option<"cubin", "cubin", "bool", /*default=*/"true",
           "Also assemble a cubin with ptxas">,
    Option<"cudaPath", "cuda-path", "std::string", /*default=*/"\"\"",
           "CUDA toolkit root (default: $CUDA_HOME, then /usr/local/cuda)">,
  ];
}

//===----------------------------------------------------------------------===//
// The CPU numerics library (sol-lower-to-cpu)
//===----------------------------------------------------------------------===//

def SolStripHostFuncsPass : Pass<"sol-strip-host-funcs", "::mlir::ModuleOp"> {
  let summary = "Keep only the kernel functions (sol.kernel) and drop sol annotations";
  let description = [{
    For building the kernels on their own as the CPU numerics library
    (sol-lower-to-cpu; convert-sol-kernels-to-gpu drops the host functions
    itself): erases every function without the `sol.kernel` attribute
    (the host functions that call the kernels) and then every `sol.*`
    attribute of the module and of the kernel functions, so that the result
    no longer needs the sol dialect (mlir-translate does not load it).
  }];
}

def SolDropKernelResultsPass
    : Pass<"sol-drop-kernel-results", "::mlir::ModuleOp"> {
  let summary = "Drop the results of bufferized kernel functions (they are the out arguments)";
  let description = [{
    Runs after one-shot-bufferize on a module of kernel functions only
    (sol-strip-host-funcs): each function returns the out buffers it was
    given, since destination-passing style bufferizes in place. Their results
    are dropped so that each kernel has the C signature
    `void name(void *in..., void *out...)`. Unlike upstream
    drop-equivalent-buffer-results this applies to public functions. A
    result that is not an argument of its function (it would need a copy into
    the caller's buffer) and a kernel function with callers are errors.
  }];
}

def SolExpandFp8ConversionsPass : Pass<"sol-expand-fp8-conversions"> {
  let summary = "Expand conversions between f32 and fp8 (e4m3fn, e5m2) into integer code";
  let description = [{
    For the CPU build (sol-lower-to-cpu): LLVM has no fp8 type and no
    conversion to or from it, so each scalar `arith.extf` of an f8E4M3FN or
    f8E5M2 value to f32 becomes integer code on its byte (the exact value of
    the code: normal, subnormal, e5m2's infinities, NaN), and each scalar
    `arith.truncf` of an f32 to fp8 integer code on the f32's bits (round to
    nearest even, subnormals included; past the largest finite value
    e4m3fn's NaN and e5m2's infinity, as arith defines it: sol.cast's
    saturation is a clamp before it). The bf16 conversions are expanded for
    the same reason. The GPU kernels convert with cvt instead.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def SolCpuKernelAbiPass : Pass<"sol-cpu-kernel-abi", "::mlir::ModuleOp"> {
  let summary = "Give dynamic kernel functions the CPU ABI `void name(void *in..., void *out..., const int64_t *dim)`";
  let description = [{
    Runs in sol-lower-to-cpu after bufferization and sol-drop-kernel-results,
    on a module of kernel functions only. The bare-pointer calling convention
    the kernel library uses passes a static memref as one pointer but cannot
    pass a dynamic one (its sizes are not in the type). Each function with a
    memref argument whose outermost dim is dynamic is rewritten in place:
    every such argument becomes a rank-0 memref of its element type (one
    pointer to the dense row-major buffer), a trailing `memref<i64>` argument
    (the pointer to the dim) is added, and the body sees each buffer rebuilt
    by `memref.reinterpret_cast` with the loaded dim as its outermost size
    and row-major strides. One function serves every M
    (docs/dynamic-shapes.md, section 4). Static functions are untouched. A
    dynamic inner dim, a non-identity layout or a remaining result is an
    error.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // SOL_PASSES
