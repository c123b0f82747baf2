//===- CpuKernelAbi.cpp - the CPU ABI of dynamic kernels ------------------===//
//
// sol-cpu-kernel-abi: the CPU kernel library exports every kernel as a C
// function on bare pointers to dense row-major buffers (the bare-pointer
// calling convention of convert-func-to-llvm). That convention passes a
// static memref as one pointer; a memref with a dynamic size has no such
// form, as the size is not in the type. A kernel whose outermost dim is
// dynamic therefore takes the value of that dim through one more pointer:
//
//   void name(void *in..., void *out..., const int64_t *dim)
//
// (docs/dynamic-shapes.md, section 4). This pass rewrites each such function
// in place, before the lowering to LLVM: each dynamic buffer argument becomes
// a rank-0 memref (one pointer under the bare-pointer convention), a trailing
// `memref<i64>` is the dim, and the body sees each buffer rebuilt with
// `memref.reinterpret_cast` at the loaded dim with row-major strides. One
// function thus serves every M, and no wrapper or descriptor crosses the C
// boundary. Static kernels keep exactly their signature.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::sol {
#define GEN_PASS_DEF_SOLCPUKERNELABIPASS
#include "SolDialect/Passes.h.inc"
} // namespace mlir::sol

using namespace mlir;
using namespace mlir::sol;

/// A buffer the bare-pointer convention cannot pass as it is: its outermost
/// size is only known at the call.
static bool isDynamicBuffer(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.getRank() > 0 && memref.isDynamicDim(0);
}

/// Empty when a buffer argument can be rebuilt from a pointer and the dim,
/// else why not: the rest of its shape must be static (docs/dynamic-shapes.md
/// section 1) and it must be dense row-major, as the caller allocates it.
static std::string whyNotRebuildable(MemRefType type) {
  for (int64_t d = 1; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      return "only the outermost dim of a kernel buffer may be dynamic";
  if (!type.getLayout().isIdentity())
    return "a kernel buffer must be dense row-major (identity layout)";
  return "";
}

/// The row-major strides of a buffer of `type`'s shape (its outermost size
/// never enters them).
static SmallVector<int64_t> getRowMajorStrides(MemRefType type) {
  SmallVector<int64_t> strides(type.getRank(), 1);
  for (int64_t d = type.getRank() - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * type.getDimSize(d + 1);
  return strides;
}

static LogicalResult rewriteToCpuAbi(func::FuncOp func) {
  if (func.isExternal() ||
      !llvm::any_of(func.getArgumentTypes(), isDynamicBuffer))
    return success();
  if (func.getNumResults() != 0)
    return func.emitError() << "dynamic kernel function @" << func.getSymName()
                            << " still returns values; run "
                               "sol-drop-kernel-results first";
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
    if (auto memref = dyn_cast<MemRefType>(type))
      if (std::string why = whyNotRebuildable(memref); !why.empty())
        return func.emitError()
               << "cannot give kernel function @" << func.getSymName()
               << " the CPU ABI: argument #" << i << " is " << type << ": "
               << why;

  MLIRContext *ctx = func.getContext();
  Location loc = func.getLoc();
  auto dimType = MemRefType::get({}, IntegerType::get(ctx, 64));
  if (failed(func.insertArgument(func.getNumArguments(), dimType,
                                 DictionaryAttr::get(ctx), loc)))
    return func.emitError()
           << "cannot add the dim argument to @" << func.getSymName();
  Block &entry = func.front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  Value dim =
      memref::LoadOp::create(b, loc, entry.getArguments().back(), ValueRange());
  Value dimIndex = arith::IndexCastOp::create(b, loc, b.getIndexType(), dim);

  for (BlockArgument arg : entry.getArguments().drop_back()) {
    if (!isDynamicBuffer(arg.getType()))
      continue;
    auto type = cast<MemRefType>(arg.getType());
    auto pointerType =
        MemRefType::get({}, type.getElementType(), MemRefLayoutAttrInterface(),
                        type.getMemorySpace());
    arg.setType(pointerType);
    SmallVector<OpFoldResult> sizes = {dimIndex};
    for (int64_t size : type.getShape().drop_front())
      sizes.push_back(b.getIndexAttr(size));
    SmallVector<OpFoldResult> strides = llvm::map_to_vector(
        getRowMajorStrides(type),
        [&](int64_t stride) -> OpFoldResult { return b.getIndexAttr(stride); });
    auto buffer = memref::ReinterpretCastOp::create(
        b, loc, type, arg, b.getIndexAttr(0), sizes, strides);
    arg.replaceAllUsesExcept(buffer, buffer);
  }
  func.setFunctionType(
      FunctionType::get(ctx, entry.getArgumentTypes(), TypeRange()));
  return success();
}

namespace {
struct CpuKernelAbiPass : sol::impl::SolCpuKernelAbiPassBase<CpuKernelAbiPass> {
  using Base::Base;

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(rewriteToCpuAbi(func)))
        return signalPassFailure();
  }
};
} // namespace
