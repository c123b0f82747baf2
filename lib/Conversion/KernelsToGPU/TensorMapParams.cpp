//===- TensorMapParams.cpp - TMA maps as by-value kernel parameters -------===//
//
// A TMA load names its tensor map by a generic address. CUDA kernels take the
// map as `const __grid_constant__ CUtensorMap`: a 128-byte by-value
// parameter the TMA reads in place, written by the launch itself. The
// alternative, a device buffer holding the map, costs the launcher an
// allocation and a copy ordered before the launch (and a synchronisation
// when the launch goes to another stream) for every new set of buffers, and
// cannot be set up inside CUDA graph capture.
//
// gpu.func cannot carry the attributes (nvvm.grid_constant is verified on
// LLVM kernels only, and convert-gpu-to-nvvm drops llvm.byval), so this pass
// runs on the LLVM form: the plan's path says which kernels take maps
// (KernelPathInfo::getNumTensorMaps), and the generator's ABI puts them last,
// or last but the dynamic dim's value in a dynamic kernel (KernelsToGPU.cpp).
//
//===----------------------------------------------------------------------===//

#include "SolDialect/KernelPath.h"
#include "SolDialect/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::sol {
#define GEN_PASS_DEF_SOLTENSORMAPPARAMSPASS
#include "SolDialect/Passes.h.inc"
} // namespace mlir::sol

using namespace mlir;
using namespace mlir::sol;

namespace {

/// sizeof and alignof CUtensorMap (cuda.h), as i64 words and bytes.
constexpr int64_t kTensorMapWords = 16;
constexpr int64_t kTensorMapAlign = 64;

struct TensorMapParamsPass
    : sol::impl::SolTensorMapParamsPassBase<TensorMapParamsPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    Builder b(ctx);
    auto mapType = LLVM::LLVMArrayType::get(b.getI64Type(), kTensorMapWords);
    WalkResult result = getOperation().walk([&](LLVM::LLVMFuncOp func) {
      auto plan = func->getAttrOfType<PlanAttr>(SolDialect::kPlanAttrName);
      if (!plan)
        return WalkResult::advance();
      // Whether the path's kernels take maps at all; how many (the count
      // of its matmuls decides) the conversion recorded.
      const KernelPathInfo &path = lookupKernelPath(plan.getPath());
      if (path.getNumTensorMaps(/*numContractions=*/1) == 0)
        return WalkResult::advance();
      // A's map and one per weight (convert-sol-kernels-to-gpu says how
      // many).
      auto count =
          func->getAttrOfType<IntegerAttr>(SolDialect::kTensorMapsAttrName);
      if (!count)
        return WalkResult(func.emitError()
                          << "sol-tensor-map-params: the " << path.getName()
                          << " kernel @" << func.getName()
                          << " does not say how many "
                          << "tensor maps it takes ('"
                          << SolDialect::kTensorMapsAttrName << "')");
      unsigned numMaps = count.getInt();
      // A dynamic kernel (one row of a plan table) takes the value of its
      // dynamic dim after the maps.
      bool dynamic = func->hasAttr(SolDialect::kPlansAttrName);
      unsigned numArgs = func.getNumArguments();
      unsigned mapsEnd = numArgs - (dynamic ? 1 : 0);
      if (dynamic && (numArgs == 0 ||
                      !func.getArgument(numArgs - 1).getType().isInteger(64)))
        return WalkResult(func.emitError()
                          << "sol-tensor-map-params: a dynamic kernel ends "
                             "with the i64 value of its dynamic dim; @"
                          << func.getName() << " does not");
      if (mapsEnd < numMaps)
        return WalkResult(
            func.emitError()
            << "sol-tensor-map-params: a " << path.getName()
            << " kernel ends with its " << numMaps << " tensor-map parameters"
            << (dynamic ? " (then its dynamic dim)" : "") << "; @"
            << func.getName() << " has " << numArgs << " parameter(s)");
      for (unsigned i = mapsEnd - numMaps; i < mapsEnd; ++i) {
        if (!isa<LLVM::LLVMPointerType>(func.getArgument(i).getType()))
          return WalkResult(func.emitError()
                            << "sol-tensor-map-params: parameter " << i
                            << " of @" << func.getName()
                            << " is not the pointer a tensor map lowers to");
        func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(mapType));
        func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                        b.getI64IntegerAttr(kTensorMapAlign));
        func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                        b.getUnitAttr());
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
