//===- Target.h - device presets and target files ---------------*- C++ -*-===//
//
// Where a #sol.target comes from: a named preset with datasheet figures, or a
// calibrated description in a JSON file, and how an op finds the one that
// governs it.
//
//===----------------------------------------------------------------------===//

#ifndef SOLDIALECT_TARGET_H
#define SOLDIALECT_TARGET_H

#include "SolDialect/SolDialect.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::sol {

/// A PTX target chip as LLVM 22's NVPTX backend names it: `sm_<N>`, with an
/// optional `a` (architecture-specific) or `f` (family-specific) suffix.
struct ChipInfo {
  StringRef name;
  /// N of sm_<N>: 80 for sm_80, 90 for sm_90a.
  int64_t smVersion;
  /// The oldest PTX ISA version that can target the chip, times ten (86:
  /// PTX 8.6). LLVM stops with a fatal error below it.
  int64_t minPtxVersion;
  /// The architecture-specific variant (sm_90a, sm_100a): what wgmma needs.
  bool archSpecific() const { return name.ends_with("a"); }
};

/// The chip `chip` names, or null when LLVM 22's NVPTX backend does not
/// know it (sm_89a, sm_999, sm_-1, gfx90a).
const ChipInfo *lookupChip(StringRef chip);

/// Every chip lookupChip knows, oldest first.
ArrayRef<ChipInfo> getKnownChips();

/// The PTX ISA version (times ten) sol's lowering targets on `chip`: 8.0,
/// the first with every instruction sol's paths emit (wgmma, TMA and
/// mbarriers on sm_90a), or the chip's own minimum where that is later
/// (8.6 for sm_100a).
int64_t getPtxVersion(const ChipInfo &chip);
/// PTX versions (times ten) that code needs beyond getPtxVersion, which its
/// gpu.module asks for (SolDialect::kMinPtxVersionAttrName):
/// mma.sync's fp8 form (m16n8k32 e4m3/e5m2) is PTX ISA 8.4's;
constexpr int64_t kFp8MmaSyncPtxVersion = 84;
/// cvt.rn.f16x2.{e4m3,e5m2}x2 on sm_89 is 8.1's for LLVM's NVPTX backend
/// (it refuses to select it at 8.0 there; sm_90a takes it at 8.0).
constexpr int64_t kFp8ConversionPtxVersion = 81;

/// CUDA's launch limits: grid x at most 2^31 - 1, grid y and z at most
/// 65535; block x and y at most 1024, z at most 64, 1024 threads in all.
constexpr int64_t kMaxGridX = (int64_t(1) << 31) - 1;
constexpr int64_t kMaxGridYZ = 65535;
constexpr int64_t kMaxBlockThreads = 1024;
constexpr int64_t kMaxBlockZ = 64;

/// Empty when a launch of `grid` blocks of `block` threads (three extents
/// each, every one at least 1) keeps CUDA's limits, else the limit it breaks.
std::string whyNotLaunchable(ArrayRef<int64_t> grid, ArrayRef<int64_t> block);

/// Names of the built-in presets, sorted.
ArrayRef<StringRef> getTargetPresetNames();

/// The preset called `name` (case-insensitive), or null when there is none.
TargetAttr getTargetPreset(MLIRContext *context, StringRef name);

/// Parses a target description in JSON. The object holds the fields of
/// #sol.target under the same keys; `"base": "<preset>"` starts from a preset
/// so that a calibration file names only what it measured. Unknown keys,
/// wrong value types, missing fields and invalid values are errors, reported
/// through `emitError` with the offending key (and the JSON position for
/// syntax errors).
FailureOr<TargetAttr>
parseTargetJSON(MLIRContext *context, StringRef json,
                function_ref<InFlightDiagnostic()> emitError);

/// Reads and parses a JSON target file; errors name the file.
FailureOr<TargetAttr>
loadTargetFile(MLIRContext *context, StringRef path,
               function_ref<InFlightDiagnostic()> emitError);

/// The target pinned by the closest enclosing op carrying `sol.target`
/// (normally the module), or null.
TargetAttr lookupTarget(Operation *op);

/// The error every pass that needs a target gives when there is none:
/// "<passName> needs a target<purpose>: pin one with ... or run
/// --sol-attach-target=preset=<name>". Callers may append advice.
InFlightDiagnostic emitMissingTargetError(Operation *op, StringRef passName,
                                          StringRef purpose = "");

} // namespace mlir::sol

#endif // SOLDIALECT_TARGET_H
