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
    // PTX ISA 8.0 is the first with sm_90a; it also covers sm_80/86/89.
    auto nvvmTarget = NVVM::NVVMTargetAttr::get(
        &getContext(), optLevel, "nvptx64-nvidia-cuda", targetChip, "+ptx80");
    module.walk([&](gpu::GPUModuleOp gpuModule) {
      gpuModule.setTargetsAttr(ArrayAttr::get(&getContext(), {nvvmTarget}));
    });
  }
};
} // namespace
