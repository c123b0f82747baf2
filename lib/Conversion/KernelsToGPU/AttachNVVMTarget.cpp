//===- AttachNVVMTarget.cpp - NVVM target from the module's #sol.target ---===//
//
// Upstream's nvvm-attach-target takes the chip as an option; sol already
// knows it from the module's #sol.target, which is what the tests and the
// cost model read too. One source for the chip keeps PTX, plan and cost on
// the same device.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/Passes.h"
#include "SolDialect/Target.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::sol {
#define GEN_PASS_DEF_SOLATTACHNVVMTARGETPASS
#include "SolDialect/Passes.h.inc"
} // namespace mlir::sol

using namespace mlir;
using namespace mlir::sol;

namespace {
struct AttachNVVMTargetPass
    : sol::impl::SolAttachNVVMTargetPassBase<AttachNVVMTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string targetChip = chip;
    if (targetChip.empty()) {
      TargetAttr target = lookupTarget(module);
      if (!target) {
        emitMissingTargetError(module, "sol-attach-nvvm-target");
        return signalPassFailure();
      }
      targetChip = target.getChip().str();
    }
    // LLVM's NVPTX backend stops the process on a chip it does not know, or
    // one the PTX version cannot target (sm_100a needs PTX 8.6): refuse the
    // one and ask for the chip's own version on the other. A #sol.target's
    // chip was checked when it was built; the option was not.
    const ChipInfo *info = lookupChip(targetChip);
    if (!info) {
      module.emitError() << "sol-attach-nvvm-target: chip '" << targetChip
                         << "' is not a processor LLVM's NVPTX backend knows "
                            "(sm_80, sm_90a, sm_100a, ...)";
      return signalPassFailure();
    }
    module.walk([&](gpu::GPUModuleOp gpuModule) {
      int64_t version = getPtxVersion(*info);
      if (auto minVersion = gpuModule->getAttrOfType<IntegerAttr>(
              SolDialect::kMinPtxVersionAttrName))
        version = std::max<int64_t>(version, minVersion.getInt());
      auto nvvmTarget = NVVM::NVVMTargetAttr::get(
          &getContext(), optLevel, "nvptx64-nvidia-cuda", targetChip,
          "+ptx" + std::to_string(version));
      gpuModule.setTargetsAttr(ArrayAttr::get(&getContext(), {nvvmTarget}));
    });
  }
};
} // namespace
