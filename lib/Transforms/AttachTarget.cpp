//===- AttachTarget.cpp - pin the module's #sol.target --------------------===//
//
// Every later sol decision (fusion profitability, cost, tiling) reads the
// module's `sol.target`. This pass sets it from a preset or a calibrated JSON
// file, so a pipeline can retarget a file without editing it.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/Passes.h"
#include "SolDialect/Target.h"

#include "llvm/ADT/StringExtras.h"

namespace mlir::sol {
#define GEN_PASS_DEF_SOLATTACHTARGETPASS
#include "SolDialect/Passes.h.inc"
} // namespace mlir::sol

using namespace mlir;
using namespace mlir::sol;

namespace {
struct AttachTargetPass : sol::impl::SolAttachTargetPassBase<AttachTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto emitError = [&] {
      return getModuleDiagnosticAnchor(module)->emitError();
    };
    if (preset.empty() == file.empty()) {
      emitError() << "sol-attach-target needs exactly one of 'preset' "
                     "(known: "
                  << llvm::join(getTargetPresetNames(), ", ")
                  << ") or 'file' (a JSON target description)";
      return signalPassFailure();
    }
    TargetAttr target;
    if (!preset.empty()) {
      target = getTargetPreset(&getContext(), preset);
      if (!target) {
        emitError() << "unknown target preset '" << preset
                    << "'; known presets: "
                    << llvm::join(getTargetPresetNames(), ", ");
        return signalPassFailure();
      }
    } else {
      FailureOr<TargetAttr> loaded =
          loadTargetFile(&getContext(), file, emitError);
      if (failed(loaded))
        return signalPassFailure();
      target = *loaded;
    }
    module->setAttr(SolDialect::kTargetAttrName, target);
  }
};
} // namespace
