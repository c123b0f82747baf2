//===- Passes.td - sol passes ------------------------------*- tablegen -*-===//
//
// Pass ordering: sol-attach-target first (every later decision reads the
// target), then fusion, then the cost model, which annotates what fusion
// formed.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_PASSES
#define SOL_PASSES

include "mlir/Pass/PassBase.td"

def SolAttachTargetPass : Pass<"sol-attach-target", "::mlir::ModuleOp"> {
  let summary = "Pin the module's #sol.target from a preset or a JSON file";
  let description = [{
    Sets the `sol.target` module attribute, which every later sol pass reads.
    `preset` names a built-in device (a100-80gb, h100-sxm, h200, b200);
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

def SolTilePass : Pass<"sol-tile", "::mlir::ModuleOp"> {
  let summary = "Choose each kernel's launch and tile plan (#sol.plan)";
  let description = [{
    For every sol.kernel, chooses the code-generation path and its tiling
    from the kernel's shapes and the module's #sol.target, and records it as
    `plan = #sol.plan<...>`; the GPU code generator implements exactly that
    plan. Matmuls with f16/bf16 operands whose rows the 16-byte loads can
    reach take the mma.sync path, with the tile the cost model predicts
    fastest (so prefill and decode shapes get different tiles); other
    matmuls take the SIMT path; kernels without a matmul the elementwise
    path. The kernel's `cost` is rewritten for the chosen plan. Run after
    sol-form-kernels (lone ops are not tiled). `remarks` says, per kernel,
    what was chosen and why.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark per kernel with the chosen plan and its reason">,
  ];
  let dependentDialects = ["::mlir::sol::SolDialect"];
}

def ConvertSolKernelsToGPUPass
    : Pass<"convert-sol-kernels-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Generate one gpu.func per sol kernel function, as its #sol.plan says";
  let description = [{
    Takes the linalg-on-tensors kernel functions of convert-sol-to-linalg
    (functions marked `sol.kernel`, carrying `sol.plan`) and replaces each by
    a `gpu.module` holding one `gpu.func` kernel of the same name whose
    arguments are the function's (inputs then outputs) as flat memrefs. The
    plan's path decides the code: `mma_sync` (cp.async multi-stage pipeline,
    ldmatrix, m16n8k16 mma.sync, epilogue on the accumulator registers),
    `simt` (one thread per output element) or `elementwise`. Edges of any
    static shape are handled by zero-filled loads and predicated stores.
    Host functions are removed: launching is the runtime's job.
  }];
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
    sm_80 for A100, ...) unless `chip` overrides it. PTX ISA 8.0 is
    requested: LLVM's default (6.0) cannot target sm_90.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Override the chip of the module's #sol.target">,
    Option<"optLevel", "O", "unsigned", /*default=*/"3",
           "LLVM optimisation level of the NVPTX backend">,
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

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
    `max-epilogue-ops`; two matmuls never share a kernel. The elementwise ops
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

    `force=always` fuses whenever legal without consulting the cost model;
    `force=never` puts every sol compute op in a kernel of its own. Both work
    without a target; otherwise a missing #sol.target is an error.
  }];
  let options = [
    Option<"fuseEpilogues", "fuse-epilogues", "bool", /*default=*/"true",
           "Fuse elementwise consumers into each sol.matmul's kernel">,
    Option<"fuseElementwise", "fuse-elementwise", "bool", /*default=*/"true",
           "Group the remaining elementwise ops into kernels">,
    Option<"maxEpilogueOps", "max-epilogue-ops", "unsigned", /*default=*/"16",
           "Most elementwise ops one matmul epilogue may hold">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit every fusion decision, with its reason, as a remark">,
    Option<"force", "force", "std::string", /*default=*/"\"\"",
           "'' (cost model decides), 'always' (fuse whenever legal) or "
           "'never' (one kernel per op)">,
  ];
  let dependentDialects = ["::mlir::sol::SolDialect"];
}

#endif // SOL_PASSES
