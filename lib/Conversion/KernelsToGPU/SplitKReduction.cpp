//===- SplitKReduction.cpp - split K's partials and last arrival ----------===//
//
// The one scheme by which a matmul path splits an output tile's K over
// several blocks (the plan's split_k): each block stores its f32 partial
// accumulators into a module-global workspace and counts its arrival on the
// tile's counter; the last to arrive sums every split's partials in split
// order (deterministic whatever the arrival order), runs the fused epilogue
// and resets the counter, so the counts are zero again for the next launch.
// mma.sync counts whole blocks per output tile (a barrier and a shared flag
// pass the verdict); wgmma_tma counts each consumer warp per tile (a warp
// shuffle passes it), since its other warps are busy with other units.
//
//===----------------------------------------------------------------------===//

#include "KernelCodegen.h"

namespace mlir::sol::codegen {

/// The workspace's globals live in the kernel's own gpu.module, so each
/// kernel's are its own whatever the names.
SplitKWorkspace emitSplitKWorkspace(OpBuilder &b, Location loc,
                                    GpuKernel &kernel, int64_t splits,
                                    int64_t slots, int64_t slotElems) {
  MLIRContext *ctx = b.getContext();
  SplitKWorkspace w;
  w.splits = splits;
  w.slots = slots;
  w.slotElems = slotElems;
  auto globalSpace = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Global);
  auto partialsType =
      MemRefType::get({splits * slots * slotElems}, b.getF32Type(),
                      MemRefLayoutAttrInterface(), globalSpace);
  auto arrivalsType = MemRefType::get({slots}, b.getI32Type(),
                                      MemRefLayoutAttrInterface(), globalSpace);
  auto gpuModule = kernel.args.front()
                       .getParentRegion()
                       ->getParentOfType<gpu::GPUModuleOp>();
  {
    OpBuilder mb = OpBuilder::atBlockBegin(gpuModule.getBody());
    memref::GlobalOp::create(mb, loc, "sol_split_k_partials",
                             mb.getStringAttr("private"), partialsType,
                             Attribute(), /*constant=*/false, IntegerAttr());
    memref::GlobalOp::create(
        mb, loc, "sol_split_k_arrivals", mb.getStringAttr("private"),
        arrivalsType,
        DenseElementsAttr::get(RankedTensorType::get({slots}, mb.getI32Type()),
                               mb.getI32IntegerAttr(0)),
        /*constant=*/false, IntegerAttr());
  }
  w.partials =
      memref::GetGlobalOp::create(b, loc, partialsType, "sol_split_k_partials");
  w.arrivals =
      memref::GetGlobalOp::create(b, loc, arrivalsType, "sol_split_k_arrivals");
  return w;
}

Value getSplitKPartialIndex(IndexBuilder &ib, const SplitKWorkspace &w,
                            Value split, Value slot, Value row, Value col,
                            int64_t pitch) {
  Value base = ib.mul(ib.add(ib.mul(split, w.slots), slot), w.slotElems);
  return ib.add(base, ib.add(ib.mul(row, pitch), col));
}

void emitDeviceFence(OpBuilder &b, Location loc) {
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel, "device");
}

Value emitSplitKArrival(OpBuilder &b, Location loc, const SplitKWorkspace &w,
                        Value slot) {
  Value one = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1));
  Value before = memref::AtomicRMWOp::create(
      b, loc, arith::AtomicRMWKind::addi, one, w.arrivals, ValueRange{slot});
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, before,
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(w.splits - 1)));
}

Value emitSplitKSum(OpBuilder &b, Location loc, const SplitKWorkspace &w,
                    function_ref<Value(IndexBuilder &, Value)> indexOf) {
  IndexBuilder ib(b, loc);
  Value sum;
  for (int64_t s = 0; s < w.splits; ++s) {
    Value part = memref::LoadOp::create(b, loc, w.partials,
                                        ValueRange{indexOf(ib, ib.c(s))});
    sum = sum ? arith::AddFOp::create(b, loc, sum, part).getResult() : part;
  }
  return sum;
}

void emitSplitKReset(OpBuilder &b, Location loc, const SplitKWorkspace &w,
                     Value slot) {
  memref::StoreOp::create(
      b, loc, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)),
      w.arrivals, ValueRange{slot});
}

} // namespace mlir::sol::codegen
