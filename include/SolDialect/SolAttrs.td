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

//===----------------------------------------------------------------------===//
// #sol.target
//===----------------------------------------------------------------------===//

// A double attribute parameter (builtin ODS has none that hashes).
class Sol_RealParameter<string desc>
    : AttrOrTypeParameter<"::mlir::sol::Real", desc, "double"> {
  let convertFromStorage = "$_self.value";
}

class Sol_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Sol_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
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

#endif // SOL_ATTRS
