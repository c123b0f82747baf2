//===- SolAttrs.td - sol attributes and enums --------------*- tablegen -*-===//
//
// The device as data (#sol.target) and the enums sol ops carry.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_ATTRS
#define SOL_ATTRS

include "SolDialect/SolDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Sol_GeluApproximation : I32EnumAttr<"GeluApproximation",
    "how sol.gelu evaluates the Gaussian CDF", [
      I32EnumAttrCase<"erf", 0>,
      I32EnumAttrCase<"tanh", 1>,
    ]> {
  let cppNamespace = "::mlir::sol";
}

def Sol_Bound : I32EnumAttr<"Bound",
    "what limits a kernel at its speed of light", [
      I32EnumAttrCase<"compute", 0>,
      I32EnumAttrCase<"memory", 1>,
      I32EnumAttrCase<"latency", 2>,
      I32EnumAttrCase<"unknown", 3>,
    ]> {
  let cppNamespace = "::mlir::sol";
  let genSpecializedAttr = 0;
}

def Sol_Limiter : I32EnumAttr<"Limiter",
    "the term that dominates a kernel's predicted time", [
      I32EnumAttrCase<"launch", 0>,
      I32EnumAttrCase<"matmul", 1>,
      I32EnumAttrCase<"elementwise", 2>,
      I32EnumAttrCase<"hbm", 3>,
      I32EnumAttrCase<"l2", 4>,
      I32EnumAttrCase<"unknown", 5>,
      I32EnumAttrCase<"kloop", 6>,
    ]> {
  let cppNamespace = "::mlir::sol";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// #sol.target
//===----------------------------------------------------------------------===//

// A double attribute parameter (builtin ODS has none that hashes).
class Sol_RealParameter<string desc>
    : AttrOrTypeParameter<"::mlir::sol::Real", desc, "double"> {
  let convertFromStorage = "$_self.value";
  let parser = "::mlir::sol::parseReal($_parser)";
  let printer = "::mlir::sol::printReal($_printer, $_self)";
}

/// A bracketed list of integers, `[128, 128, 32]`.
def Sol_I64ListParameter : ArrayRefParameter<"int64_t", ""> {
  let parser = "::mlir::sol::parseI64List($_parser)";
  let printer = "::mlir::sol::printI64List($_printer, $_self)";
}

// An integer list that may be left out (printed only when not empty).
def Sol_OptionalI64ListParameter : ArrayRefParameter<"int64_t", ""> {
  let parser = "::mlir::sol::parseI64List($_parser)";
  let printer = "::mlir::sol::printI64List($_printer, $_self)";
  let defaultValue = "::llvm::SmallVector<int64_t>()";
  let comparator = "::llvm::ArrayRef<int64_t>($_lhs) == ::llvm::ArrayRef<int64_t>($_rhs)";
}

class Sol_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Sol_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Sol_KernelPath : I32EnumAttr<"KernelPath",
    "the code-generation path of a kernel", [
      I32EnumAttrCase<"mma_sync", 0>,
      I32EnumAttrCase<"simt", 1>,
      I32EnumAttrCase<"elementwise", 2>,
      I32EnumAttrCase<"gemv", 3>,
      I32EnumAttrCase<"wgmma", 4>,
      I32EnumAttrCase<"wgmma_tma", 5>,
      I32EnumAttrCase<"swap_ab", 6>,
    ]> {
  let cppNamespace = "::mlir::sol";
  let genSpecializedAttr = 0;
}

def Sol_ConsumerSchedule : I32EnumAttr<"ConsumerSchedule",
    "how the consumer warpgroups of a wgmma_tma kernel share its tiles", [
      I32EnumAttrCase<"cooperative", 0>,
      I32EnumAttrCase<"pingpong", 1>,
    ]> {
  let cppNamespace = "::mlir::sol";
  let genSpecializedAttr = 0;
}

def Sol_TargetAttr : Sol_Attr<"Target", "target"> {
  let summary = "A GPU described as data: what the cost model and tiling read";
  let description = [{
    Datasheet facts (peaks are dense, without sparsity) and calibration
    constants of one device. Units are in the key names: TFLOP/s, GB/s
    (10^9 bytes/s), bytes, MHz, microseconds.

    Two spellings parse:
    - a preset by name, `#sol.target<"h200">` (presets: `a100-80gb`,
      `h100-sxm`, `h200`, `b200`; see Target.cpp for their sources);
    - every field spelled out, `#sol.target<name = "...", chip = "sm_90a",
      ...>`, as written by a calibration run or a JSON target file.
    An attribute equal to its preset prints in the short form.

    A peak of 0 means the device has no such path (e.g. fp8 on an A100).
    The calibration fields:
    - `launch_us`: fixed cost of one kernel launch and its ramp-up/tail, as
      seen between back-to-back launches;
    - `mma_efficiency`: fraction of the tensor-core peak sol's matmul path
      reaches on a full wave of large tiles;
    - `hbm_efficiency`: fraction of the datasheet HBM bandwidth a streaming
      kernel reaches.
  }];
  let parameters = (ins
    StringRefParameter<"device name">:$name,
    StringRefParameter<"PTX target chip, e.g. sm_90a">:$chip,
    "int64_t":$smCount,
    "int64_t":$clockMhz,
    Sol_RealParameter<"">:$f16Tflops,
    Sol_RealParameter<"">:$bf16Tflops,
    Sol_RealParameter<"">:$tf32Tflops,
    Sol_RealParameter<"">:$fp8Tflops,
    Sol_RealParameter<"">:$f32SimtTflops,
    Sol_RealParameter<"">:$hbmGbps,
    Sol_RealParameter<"">:$l2Gbps,
    "int64_t":$l2Bytes,
    "int64_t":$smemPerSmBytes,
    "int64_t":$regsPerSm,
    Sol_RealParameter<"">:$launchUs,
    Sol_RealParameter<"">:$mmaEfficiency,
    Sol_RealParameter<"">:$hbmEfficiency
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Dense tensor-core peak in FLOP/s for matmul operands of `elementType`
    /// (f32 operands run on the SIMT path). 0 when the device has no path.
    double getMatmulPeakFlops(::mlir::Type elementType) const;
    /// SIMT FP32 peak in FLOP/s, the rate elementwise work runs at.
    double getSimtPeakFlops() const { return getF32SimtTflops() * 1e12; }
    /// Datasheet HBM bandwidth in bytes/s.
    double getHbmBytesPerSecond() const { return getHbmGbps() * 1e9; }
    /// Machine balance (FLOP/byte) of the matmul path for `elementType`.
    double getBalance(::mlir::Type elementType) const {
      return getMatmulPeakFlops(elementType) / getHbmBytesPerSecond();
    }
  }];
}

//===----------------------------------------------------------------------===//
// #sol.cost
//===----------------------------------------------------------------------===//

def Sol_CostAttr : Sol_Attr<"Cost", "cost"> {
  let summary = "How close one kernel can get to the hardware limit";
  let description = [{
    Written by `sol-cost-model` on each sol.kernel (and on each sol op that
    will become a kernel of its own) under the module's #sol.target:

    - `tc_flops`: matmul FLOPs, 2*M*N*K per matmul, batch included (what
      SOL-ExecBench counts); `ew_flops`: the elementwise FLOPs, apart;
    - `bytes`: the minimum device-memory traffic, each global input read once
      and each output written once at its element size; values that stay
      inside the kernel count zero;
    - `intensity` = (tc_flops + ew_flops) / bytes and `balance`, the
      target's peak FLOP/s for the kernel's path over its HBM bandwidth;
    - `t_compute_us`, the compute floor (tensor-core FLOPs at the peak of the
      operands' dtype, elementwise FLOPs at the SIMT peak, whichever takes
      longer), and `t_memory_us`, the memory floor (bytes at the datasheet
      HBM bandwidth);
    - `t_ideal_us` = max(t_compute_us, t_memory_us): the speed-of-light time;
    - `t_pred_us`: the time predicted for the kernel sol generates (launch,
      wave quantisation, tile re-reads through L2, achievable fractions of
      peak), `limiter` its dominant term;
    - `sol_pred` = t_ideal_us / t_pred_us;
    - `bound`: compute or memory by the roofline, latency when the launch
      cost exceeds the speed-of-light time, unknown (with `reason`) when the
      model cannot bound the kernel (dynamic dims, no peak for its dtype).
  }];
  let parameters = (ins
    EnumParameter<Sol_Bound>:$bound,
    "int64_t":$tc_flops,
    "int64_t":$ew_flops,
    "int64_t":$bytes,
    Sol_RealParameter<"">:$intensity,
    Sol_RealParameter<"">:$balance,
    Sol_RealParameter<"">:$t_compute_us,
    Sol_RealParameter<"">:$t_memory_us,
    Sol_RealParameter<"">:$t_ideal_us,
    Sol_RealParameter<"">:$t_pred_us,
    Sol_RealParameter<"">:$sol_pred,
    EnumParameter<Sol_Limiter>:$limiter,
    StringRefParameter<"why the cost is unknown", "\"\"">:$reason
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Sol_CostSummaryAttr : Sol_Attr<"CostSummary", "cost_summary"> {
  let summary = "The module-level view of sol-cost-model: totals over kernels";
  let description = [{
    Totals over every kernel of the module with a known cost: speed-of-light
    and predicted time (the model-level view, like MFU, beside each kernel's
    SOL), the minimum traffic as fused, the traffic of the same graph with
    every sol op a kernel of its own, and the difference: the bytes fusion
    saves. `unknown_kernels` counts kernels left out of the totals.
  }];
  let parameters = (ins
    "int64_t":$kernels,
    "int64_t":$unknown_kernels,
    Sol_RealParameter<"">:$t_ideal_us,
    Sol_RealParameter<"">:$t_pred_us,
    "int64_t":$bytes,
    "int64_t":$unfused_bytes,
    "int64_t":$saved_bytes
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def Sol_PlanAttr : Sol_Attr<"Plan", "plan"> {
  let summary = "The launch and tile plan sol-tile chose for one kernel";
  let description = [{
    The contract between `sol-tile` and the GPU code generator: which path
    generates the kernel and how it is cut.

    - `path`: `mma_sync` (f16/bf16 tensor cores: m16n8k16 mma.sync fed by a
      multi-stage cp.async pipeline), `simt` (a matmul on the FP32 SIMT
      units: f32 operands, or operands the 16-byte loads cannot reach),
      `wgmma` (sm_90a: two warpgroups of wgmma.mma_async reading 128-byte
      swizzled shared memory through descriptors, fed by the same cp.async
      pipeline), `wgmma_tma` (sm_90a: a persistent, warp-specialised
      kernel: one producer warpgroup issues TMA tile loads into an
      mbarrier-synchronised ring of stages, two consumer warpgroups run
      wgmma on them; with `cluster` = 2, pairs of CTAs share each B tile
      through TMA multicast), `elementwise` (no matmul), `gemv` (decode: a few rows of A against an
      [N, K] weight, one warp per output column streaming its weight row with
      128-bit loads, a shuffle reduction, the epilogue in the lanes),
      `swap_ab` (decode on tensor cores: the weight is mma.sync's 16-row A
      operand and the few tokens its n8 B operand, both loaded from global
      memory in 128-bit vectors straight into fragments, K split over the
      block's warps and summed through shared memory);
    - `tile`: `[tile_m, tile_n, tile_k]` of a thread block for matmul paths
      (gemv: `[rows, columns per block, elements per lane load]`; swap_ab:
      `[rows in n8 tiles, columns per block, K per block per trip]`);
      `[elements per block]` for the elementwise path;
    - `warps`: `[warps_m, warps_n]`, how the block tile is cut among warps
      (swap_ab: `[warps splitting K, warp groups along N]`);
    - `stages`: shared-memory pipeline depth (mma_sync), `split_k`: K slices;
    - `cluster`: thread blocks per cluster along grid x (1: no cluster;
      printed only when not 1);
    - `schedule` (wgmma_tma): `cooperative`, both consumer warpgroups on
      one tile (64 rows each), then both run its epilogue while the tensor
      cores idle; or `pingpong`, each consumer warpgroup owns whole tiles
      (128 rows by at most 192 columns: its accumulators fit its registers),
      alternating, so one's epilogue runs during the other's K loop
      (CUTLASS's KernelTmaWarpSpecializedPingpong). Printed only when not
      `cooperative`.

    The plan keeps the choices alone: the launch geometry (grid, block,
    dynamic shared memory) follows from them and the kernel's shapes, and
    the path derives it wherever it is needed (getPlanLaunchGeometry,
    KernelPath.h), so no copy of it can disagree with the path. The
    manifest records the derived geometry for the runtime.
  }];
  let parameters = (ins
    EnumParameter<Sol_KernelPath>:$path,
    Sol_I64ListParameter:$tile,
    Sol_I64ListParameter:$warps,
    "int64_t":$stages,
    "int64_t":$split_k,
    DefaultValuedParameter<"int64_t", "1">:$cluster,
    DefaultValuedParameter<"::mlir::sol::ConsumerSchedule",
                           "::mlir::sol::ConsumerSchedule::cooperative">:$schedule
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Dynamic leading dims: the range, the plan table, the cost at points
//===----------------------------------------------------------------------===//

def Sol_DimRangeAttr : Sol_Attr<"DimRange", "dim_range"> {
  let summary = "The values a dynamic leading dim takes, and its size hints";
  let description = [{
    sol's dynamic dim is the outermost dim of a kernel's tensors (the token
    count M of `tensor<?x2560xf16>`; see docs/dynamic-shapes.md). A module
    or a function declares the range it takes with the `sol.dim_range`
    attribute; without one it is 1..65536 with no hints. `hints` are the
    sizes the cost report prices besides the range's ends (a serving
    stack's typical batch, or the prefill length); each lies in the range.

    ```mlir
    module attributes {sol.dim_range = #sol.dim_range<min = 1, max = 8192, hints = [1, 16, 4096]>}
    ```
  }];
  let parameters = (ins
    "int64_t":$min,
    "int64_t":$max,
    Sol_OptionalI64ListParameter:$hints
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Sol_PlanEntryAttr : Sol_Attr<"PlanEntry", "plan_entry"> {
  let summary = "One row of a dynamic kernel's plan table: a range of M and its plan";
  let description = [{
    sol-tile plans a kernel whose outermost dim is dynamic as a table of
    disjoint, increasing ranges of that dim, `m_min..m_max` (both
    inclusive), that together cover the kernel's #sol.dim_range; each row's
    #sol.plan is built and checked at `m_max` (its launch geometry is
    derived there: the largest grid the row launches; the launch computes
    the grid for the actual M). Each row
    becomes one generated kernel, named `<kernel>__m<m_min>_<m_max>`.
  }];
  let parameters = (ins
    "int64_t":$m_min,
    "int64_t":$m_max,
    "::mlir::sol::PlanAttr":$plan
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Sol_CostPointAttr : Sol_Attr<"CostPoint", "cost_point"> {
  let summary = "A dynamic kernel's #sol.cost at one value of its dynamic dim";
  let parameters = (ins
    "int64_t":$m,
    "::mlir::sol::CostAttr":$cost
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def Sol_PlanTable : TypedArrayAttrBase<Sol_PlanEntryAttr,
    "a dynamic kernel's plan table">;
def Sol_CostPoints : TypedArrayAttrBase<Sol_CostPointAttr,
    "a dynamic kernel's cost at points of its range">;

#endif // SOL_ATTRS
