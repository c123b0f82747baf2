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

namespace mlir::sol {

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
