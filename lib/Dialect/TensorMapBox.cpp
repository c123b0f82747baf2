//===- TensorMapBox.cpp - the boxes a wgmma_tma kernel loads --------------===//
//
// The one formula for a wgmma_tma kernel's TMA boxes (TensorMapBox.h), read
// by the manifest writer and the GPU generator.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/TensorMapBox.h"

using namespace mlir;
using namespace mlir::sol;

TensorMapBox mlir::sol::getTensorMapBoxA(PlanAttr plan) {
  ArrayRef<int64_t> tile = plan.getTile();
  return {tile[2], tile[0]};
}

TensorMapBox mlir::sol::getTensorMapBoxB(PlanAttr plan, int64_t numWeights) {
  ArrayRef<int64_t> tile = plan.getTile();
  return {tile[2], tile[1] / numWeights / plan.getCluster()};
}

NMajorTensorMapBox mlir::sol::getNMajorTensorMapBoxB(PlanAttr plan) {
  return {kNMajorBoxColumns, plan.getTile()[2]};
}
