//===- MmaSyncPath.cpp - the mma.sync path --------------------------------===//
//
// m16n8k16 tensor cores on every chip from sm_80 (m16n8k32 on fp8 codes
// from sm_89): a multi-stage cp.async pipeline into padded shared memory,
// ldmatrix, mma.sync in f32 registers, the epilogue on the accumulators.
//
//===----------------------------------------------------------------------===//

#include "KernelCodegen.h"

namespace mlir::sol::codegen {

/// Everything the mma.sync generator derives from the plan.
struct MmaLayout {
  MmaSyncTile tile;
  int64_t threads, warpTileM, warpTileN, fragsM, fragsN;
  int64_t aPitch, bPitch;
  int64_t aStageElems, bStageElems;
  /// Bytes per operand element (2; 1 for fp8) and the K of one mma.sync
  /// (16; 32 for fp8): 32 bytes of each row either way.
  int64_t elementBytes, instructionK;
  bool transposeB;
};

static FailureOr<MmaLayout> getMmaLayout(KernelSpec &spec) {
  PlanAttr plan = spec.plan;
  ArrayRef<int64_t> tile = plan.getTile();
  ArrayRef<int64_t> warps = plan.getWarps();
  if (tile.size() != 3 || warps.size() != 2)
    return spec.func.emitError("sol kernel: an mma_sync plan needs tile = "
                               "[m, n, k] and warps = [m, n]");
  MmaLayout l;
  l.tile = {tile[0],  tile[1],          tile[2],         warps[0],
            warps[1], plan.getStages(), plan.getSplitK()};
  l.transposeB = spec.transposeB;
  Type elementType =
      cast<ShapedType>(spec.func.getArgument(spec.lhsArg).getType())
          .getElementType();
  l.elementBytes = elementType.getIntOrFloatBitWidth() / 8;
  l.instructionK = getMmaSyncInstructionK(elementType);
  l.threads = warps[0] * warps[1] * 32;
  l.warpTileM = tile[0] / warps[0];
  l.warpTileN = tile[1] / warps[1];
  if (tile[0] % warps[0] || tile[1] % warps[1] || l.warpTileM % 16 ||
      l.warpTileN % 16 || tile[2] % l.instructionK || l.tile.stages < 2 ||
      plan.getSplitK() < 1 || plan.getSplitK() > 16 ||
      (plan.getSplitK() > 1 && spec.batchedB))
    return spec.func.emitError("sol kernel: the mma_sync plan is not one the "
                               "generator implements (warp tiles must be "
                               "multiples of 16x16, tile_k of 16 (32 for "
                               "fp8), at least 2 "
                               "stages, split_k 1 to 16 and 1 for a batched "
                               "B)");
  l.fragsM = l.warpTileM / 16;
  l.fragsN = l.warpTileN / 8;
  l.aPitch = getMmaSyncAPitch(l.tile, l.elementBytes);
  l.bPitch = getMmaSyncBPitch(l.tile, l.transposeB, l.elementBytes);
  l.aStageElems = l.tile.tileM * l.aPitch;
  l.bStageElems = (l.transposeB ? l.tile.tileN : l.tile.tileK) * l.bPitch;
  return l;
}

/// The accumulators of one warp: fragsM x fragsN m16n8 fragments of four
/// f32 each, flattened in (mi, ni, e) order.
static int64_t accIndex(const MmaLayout &l, int64_t mi, int64_t ni, int64_t e) {
  return (mi * l.fragsN + ni) * 4 + e;
}

namespace {

/// The mma.sync kernel, phase by phase: the block's and warp's coordinates
/// and the shared-memory stages (prologue), the K loop (main loop, one
/// ldmatrix + mma.sync step per 16 of K), then the epilogue on the
/// accumulators, through the split-K reduction when the plan splits K.
class MmaSyncEmitter {
public:
  MmaSyncEmitter(OpBuilder &b, Location loc, GpuKernel &kernel,
                 const MatmulGeometry &g, const MmaLayout &l)
      : b(b), loc(loc), kernel(kernel), g(g), l(l), t(l.tile) {}

  /// Coordinates, the stage views, and the first stages-1 K tiles in
  /// flight.
  void emitPrologue();
  /// The K loop: returns the accumulators it leaves.
  SmallVector<Value> emitMainLoop();
  /// Where each thread's accumulator elements sit in the output.
  void emitAccumulatorCoords();
  /// The epilogue on accumulators `acc` (every block's with one K split).
  void emitEpilogue(OpBuilder &b, ArrayRef<Value> acc);
  /// Split K: the partials' exchange, then the last block's epilogue.
  void emitSplitKEpilogue(SmallVector<Value> acc);

private:
  /// Issues the copies of K tile `kTile` into `stage` as one cp.async group
  /// (tiles past the last K tile zero-fill, like edges).
  void issueTileLoads(OpBuilder &b, Value stage, Value kTile);
  SplitKWorkspace emitSplitKWorkspace();
  /// Element (mi, ni, e) of this thread's accumulators in split `split`'s
  /// partial tile.
  Value partialIndex(IndexBuilder &ib, const SplitKWorkspace &w, Value split,
                     int64_t mi, int64_t ni, int64_t e);
  /// Stores this block's partials and counts its arrival: whether it is
  /// the output tile's last block.
  Value emitLastArrival(const SplitKWorkspace &w, ArrayRef<Value> acc);
  /// The last block: the sum of every split's partials (in split order)
  /// into `acc`, the epilogue, and the tile's count reset.
  void emitSplitKReduction(OpBuilder &b, const SplitKWorkspace &w,
                           MutableArrayRef<Value> acc);
  /// The K tile in `stage`, 16 of K at a time: the warp's A and B
  /// fragments by ldmatrix, then an m16n8k16 mma.sync per fragment pair,
  /// accumulating into `acc`.
  void emitKTile(OpBuilder &b, Value stage, MutableArrayRef<Value> acc);

  OpBuilder &b;
  Location loc;
  GpuKernel &kernel;
  const MatmulGeometry &g;
  const MmaLayout &l;
  const MmaSyncTile &t;
  /// A's and B's element types (they differ for e4m3 x e5m2 fp8).
  Type elemType, weightType;
  bool isBF16;
  Value tid, bx, by, bz, lane, warpM, warpN, rowBase, colBase, aBase, bBase;
  Value dyn, sA, sB, globalA, globalB, firstKTile;
  /// What ldmatrix reads: the stages themselves, or for fp8 i8 views of
  /// them (NVGPU's ldmatrix lowering builds LLVM vectors of the element
  /// type, which fp8 has none of).
  Value fragA, fragB;
  int64_t numKTiles;
  /// Where a thread's accumulator elements sit (emitEpilogue).
  Value laneRow, laneCol, warpRow, warpCol;
};

} // namespace

void MmaSyncEmitter::emitPrologue() {
  IndexBuilder ib(b, loc);
  elemType = cast<MemRefType>(kernel.args[kernel.spec.lhsArg].getType())
                 .getElementType();
  weightType = cast<MemRefType>(kernel.args[kernel.spec.rhsArg].getType())
                   .getElementType();
  isBF16 = elemType.isBF16();
  MLIRContext *ctx = b.getContext();
  auto wgSpace = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);

  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  by = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  bz = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  Value warp = ib.div(tid, 32);
  lane = ib.rem(tid, 32);
  warpM = ib.div(warp, t.warpsN);
  warpN = ib.rem(warp, t.warpsN);
  rowBase = ib.mul(by, t.tileM);
  colBase = ib.mul(bx, t.tileN);
  aBase = ib.mul(bz, g.aSliceStride);
  bBase = ib.mul(bz, g.bSliceStride);

  // Shared memory: `stages` A tiles then `stages` B tiles, rows padded.
  auto dynType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                 MemRefLayoutAttrInterface(), wgSpace);
  dyn = gpu::DynamicSharedMemoryOp::create(b, loc, dynType);
  auto aType = MemRefType::get({t.stages, t.tileM, l.aPitch}, elemType,
                               MemRefLayoutAttrInterface(), wgSpace);
  int64_t bRows = l.transposeB ? t.tileN : t.tileK;
  auto bType = MemRefType::get({t.stages, bRows, l.bPitch}, weightType,
                               MemRefLayoutAttrInterface(), wgSpace);
  // A's stages from byte 0, B's after them; for fp8, ldmatrix reads i8
  // views of the same bytes.
  auto viewAt = [&](MemRefType type, int64_t byteOffset) -> Value {
    return memref::ViewOp::create(b, loc, type, dyn, ib.c(byteOffset),
                                  ValueRange{});
  };
  auto asI8 = [&](MemRefType type) {
    return MemRefType::get(type.getShape(), b.getI8Type(),
                           MemRefLayoutAttrInterface(), wgSpace);
  };
  int64_t bOffset = t.stages * l.aStageElems * l.elementBytes;
  sA = viewAt(aType, 0);
  sB = viewAt(bType, bOffset);
  bool fp8 = MatmulOp::isFp8(elemType);
  fragA = fp8 ? viewAt(asI8(aType), 0) : sA;
  fragB = fp8 ? viewAt(asI8(bType), bOffset) : sB;
  globalA = kernel.args[kernel.spec.lhsArg];
  globalB = kernel.args[kernel.spec.rhsArg];
  // With split K, block z of an output tile walks K tiles
  // [z * numKTiles, (z + 1) * numKTiles).
  numKTiles =
      llvm::divideCeilSigned(llvm::divideCeilSigned(g.k, t.tileK), t.kSplits);
  firstKTile = t.kSplits > 1 ? ib.mul(bz, numKTiles) : ib.c(0);

  for (int64_t s = 0; s + 1 < t.stages; ++s)
    issueTileLoads(b, ib.c(s), ib.c(s));
}

void MmaSyncEmitter::issueTileLoads(OpBuilder &b, Value stage, Value kTile) {
  IndexBuilder ib(b, loc);
  Value kBase = ib.mul(ib.add(firstKTile, kTile), t.tileK);
  // A: tileM rows of A, tileK columns.
  emitAsyncRowTileCopy(b, loc, tid, l.threads, globalA, aBase, rowBase, g,
                       kBase, g.k, sA, stage, t.tileM, t.tileK, false);
  if (l.transposeB) // B is [N, K]: tileN rows of B, tileK columns.
    emitAsyncTileCopy(b, loc, tid, l.threads, globalB, bBase, colBase, g.n,
                      kBase, g.k, sB, stage, t.tileN, t.tileK, false);
  else // B is [K, N]: tileK rows of B, tileN columns.
    emitAsyncTileCopy(b, loc, tid, l.threads, globalB, bBase, kBase, g.k,
                      colBase, g.n, sB, stage, t.tileK, t.tileN, false);
  NVVM::CpAsyncCommitGroupOp::create(b, loc);
}

SmallVector<Value> MmaSyncEmitter::emitMainLoop() {
  IndexBuilder ib(b, loc);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0));
  SmallVector<Value> accInit(l.fragsM * l.fragsN * 4, zero);
  auto kLoop =
      scf::ForOp::create(b, loc, ib.c(0), ib.c(numKTiles), ib.c(1), accInit);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(kLoop.getBody());
    IndexBuilder lb(b, loc);
    Value kt = kLoop.getInductionVar();
    // Tile kt has landed once at most stages-2 younger groups are pending;
    // the barrier also tells every warp that stage (kt-1) % stages, which
    // the loads below overwrite, has been consumed.
    NVVM::CpAsyncWaitGroupOp::create(b, loc, t.stages - 2);
    gpu::BarrierOp::create(b, loc);
    Value nextTile = lb.add(kt, t.stages - 1);
    issueTileLoads(b, lb.rem(nextTile, t.stages), nextTile);
    Value stage = lb.rem(kt, t.stages);

    SmallVector<Value> acc(kLoop.getRegionIterArgs().begin(),
                           kLoop.getRegionIterArgs().end());
    emitKTile(b, stage, acc);
    scf::YieldOp::create(b, loc, acc);
  }
  // Nothing may stay in flight past the kernel (the tail groups are empty
  // or zero-fills, but an exiting thread must not leave copies pending).
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  return SmallVector<Value>(kLoop.getResults().begin(),
                            kLoop.getResults().end());
}

/// One m16n8k32 mma.sync on fp8 fragments (four and two b32 registers of
/// four codes each): NVVM's mma op has no fp8 form in MLIR 22, so it is
/// PTX's own instruction (sm_89+), accumulating in f32.
static Value emitFp8MmaSync(OpBuilder &b, Location loc, Type resultType,
                            Type aType, Type bType, ValueRange a, ValueRange bv,
                            ValueRange c) {
  auto ptxName = [](Type type) {
    return isa<Float8E5M2Type>(type) ? "e5m2" : "e4m3";
  };
  std::string asmText = std::string("mma.sync.aligned.m16n8k32.row.col.f32.") +
                        ptxName(aType) + "." + ptxName(bType) +
                        ".f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, "
                        "{$10, $11, $12, $13};";
  SmallVector<Value> operands(a.begin(), a.end());
  operands.append(bv.begin(), bv.end());
  operands.append(c.begin(), c.end());
  return LLVM::InlineAsmOp::create(
             b, loc, resultType, operands, asmText,
             "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f", /*has_side_effects=*/false,
             /*is_align_stack=*/false, LLVM::TailCallKind::None,
             LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

void MmaSyncEmitter::emitKTile(OpBuilder &b, Value stage,
                               MutableArrayRef<Value> acc) {
  IndexBuilder lb(b, loc);
  MLIRContext *ctx = b.getContext();
  auto i32 = b.getI32Type();
  bool fp8 = MatmulOp::isFp8(elemType);
  auto asOperand = [&](Value v) -> Value {
    // bf16 fragments go to mma.sync as packed b32 registers, fp8 ones as
    // four codes in a b32.
    if (fp8) {
      Value word =
          vector::BitCastOp::create(b, loc, VectorType::get({1}, i32), v);
      return vector::ExtractOp::create(b, loc, word, ArrayRef<int64_t>{0});
    }
    return isBF16 ? LLVM::BitcastOp::create(b, loc, i32, v).getResult() : v;
  };
  auto extractRow = [&](Value matrix, int64_t i) -> Value {
    return vector::ExtractOp::create(b, loc, matrix, ArrayRef<int64_t>{i});
  };
  // Each thread's share of one 8x8 b16 matrix: two 16-bit elements or four
  // fp8 codes; a matrix row (16 bytes) is half of one mma's K.
  Type fragA16 = fp8 ? b.getI8Type() : elemType;
  Type fragB16 = fp8 ? b.getI8Type() : weightType;
  auto fragmentType = [&](Type type) {
    return VectorType::get({4, 4 / l.elementBytes}, type);
  };
  int64_t halfK = l.instructionK / 2;
  auto f32 = b.getF32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(ctx, {f32, f32, f32, f32});
  Value laneRow16 = lb.rem(lane, 16), laneHalf = lb.div(lane, 16);
  Value lane8 = lb.rem(lane, 8), laneOct = lb.rem(lb.div(lane, 8), 2);
  for (int64_t kk = 0; kk < t.tileK; kk += l.instructionK) {
    // A fragments: ldmatrix.x4 of rows lane%16, columns (lane/16)*halfK:
    // for fp8, thread t's register i holds row t/4 (+8 for i = 1, 3), codes
    // 4*(t%4) .. +3 (+16 for i >= 2), m16n8k32's A layout.
    SmallVector<SmallVector<Value, 4>> aFrags;
    for (int64_t mi = 0; mi < l.fragsM; ++mi) {
      Value r = lb.add(lb.add(lb.mul(warpM, l.warpTileM), mi * 16), laneRow16);
      Value c = lb.add(lb.mul(laneHalf, halfK), kk);
      Value m = nvgpu::LdMatrixOp::create(b, loc, fragmentType(fragA16), fragA,
                                          ValueRange{stage, r, c},
                                          /*transpose=*/false, /*numTiles=*/4);
      aFrags.push_back(
          {asOperand(extractRow(m, 0)), asOperand(extractRow(m, 1)),
           asOperand(extractRow(m, 2)), asOperand(extractRow(m, 3))});
    }
    // B fragments, two n8 fragments per ldmatrix.x4.
    SmallVector<std::pair<Value, Value>> bFrags;
    for (int64_t nj = 0; nj < l.fragsN / 2; ++nj) {
      Value nBase = lb.add(lb.mul(warpN, l.warpTileN), nj * 16);
      Value m;
      if (l.transposeB) {
        // sB[n][k]: matrices (n0-7, k 0..halfK) (n0-7, k halfK..2halfK)
        // (n8-15, k 0..halfK) ...
        Value n = lb.add(lb.add(nBase, lane8), lb.mul(laneHalf, 8));
        Value k = lb.add(lb.mul(laneOct, halfK), kk);
        m = nvgpu::LdMatrixOp::create(b, loc, fragmentType(fragB16), fragB,
                                      ValueRange{stage, n, k}, false, 4);
      } else {
        // sB[k][n], transposed on load: thread gets (k pair, n = lane/4).
        // (16-bit only: an fp8 B is [N, K], the verifier's rule.)
        Value k = lb.add(lb.add(lane8, lb.mul(laneOct, 8)), kk);
        Value n = lb.add(nBase, lb.mul(laneHalf, 8));
        m = nvgpu::LdMatrixOp::create(b, loc, fragmentType(fragB16), fragB,
                                      ValueRange{stage, k, n}, true, 4);
      }
      bFrags.push_back(
          {asOperand(extractRow(m, 0)), asOperand(extractRow(m, 1))});
      bFrags.push_back(
          {asOperand(extractRow(m, 2)), asOperand(extractRow(m, 3))});
    }
    NVVM::MMATypes ptxType =
        isBF16 ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
    for (int64_t mi = 0; mi < l.fragsM; ++mi) {
      for (int64_t ni = 0; ni < l.fragsN; ++ni) {
        SmallVector<Value> c;
        for (int64_t e = 0; e < 4; ++e)
          c.push_back(acc[accIndex(l, mi, ni, e)]);
        SmallVector<Value, 2> bFrag{bFrags[ni].first, bFrags[ni].second};
        Value d =
            fp8 ? emitFp8MmaSync(b, loc, resultType, elemType, weightType,
                                 aFrags[mi], bFrag, c)
                : NVVM::MmaOp::create(
                      b, loc, resultType, aFrags[mi], bFrag, c,
                      ArrayRef<int64_t>{16, 8, 16}, std::nullopt, std::nullopt,
                      std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
                      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                                     NVVM::MMALayout::col})
                      .getResult();
        for (int64_t e = 0; e < 4; ++e)
          acc[accIndex(l, mi, ni, e)] =
              LLVM::ExtractValueOp::create(b, loc, d, ArrayRef<int64_t>{e});
      }
    }
  }
}

void MmaSyncEmitter::emitAccumulatorCoords() {
  // Element e of fragment (mi, ni) sits at row lane/4 (+8 for e >= 2),
  // column 2*(lane%4) (+1 for odd e).
  IndexBuilder ib(b, loc);
  laneRow = ib.div(lane, 4);
  laneCol = ib.mul(ib.rem(lane, 4), 2);
  warpRow = ib.add(rowBase, ib.mul(warpM, l.warpTileM));
  warpCol = ib.add(colBase, ib.mul(warpN, l.warpTileN));
}

void MmaSyncEmitter::emitEpilogue(OpBuilder &b, ArrayRef<Value> acc) {
  IndexBuilder ib(b, loc);
  for (int64_t mi = 0; mi < l.fragsM; ++mi)
    emitFragmentEpilogue(b, loc, kernel, g, bz,
                         ib.add(ib.add(warpRow, laneRow), mi * 16),
                         ib.add(warpCol, laneCol), l.fragsN,
                         [&](OpBuilder &, unsigned, int64_t ni, int64_t e) {
                           return acc[accIndex(l, mi, ni, e)];
                         });
}

/// Split K's workspace (SplitKReduction.cpp), one slot per output tile of
/// the block's partial tile. A dynamic kernel sizes it for its row's m_max
/// (the plan's grid) and numbers tiles by that grid's width, the N tiles,
/// which the launch keeps: a launch at a smaller M runs fewer M tiles (grid
/// y), whose ids stay below the m_max count.
SplitKWorkspace MmaSyncEmitter::emitSplitKWorkspace() {
  IndexBuilder ib(b, loc);
  ArrayRef<int64_t> grid = kernel.launch.grid;
  SplitKWorkspace w =
      codegen::emitSplitKWorkspace(b, loc, kernel, t.kSplits, grid[0] * grid[1],
                                   t.tileM * t.tileN);
  w.tileId = ib.add(ib.mul(by, grid[0]), bx);
  return w;
}

Value MmaSyncEmitter::partialIndex(IndexBuilder &ib, const SplitKWorkspace &w,
                                   Value split, int64_t mi, int64_t ni,
                                   int64_t e) {
  Value row = ib.add(ib.add(ib.mul(warpM, l.warpTileM), laneRow),
                     mi * 16 + (e / 2) * 8);
  Value col =
      ib.add(ib.add(ib.mul(warpN, l.warpTileN), laneCol), ni * 8 + e % 2);
  return getSplitKPartialIndex(ib, w, split, w.tileId, row, col, t.tileN);
}

Value MmaSyncEmitter::emitLastArrival(const SplitKWorkspace &w,
                                      ArrayRef<Value> acc) {
  IndexBuilder ib(b, loc);
  auto wgSpace =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  for (int64_t mi = 0; mi < l.fragsM; ++mi)
    for (int64_t ni = 0; ni < l.fragsN; ++ni)
      for (int64_t e = 0; e < 4; ++e)
        memref::StoreOp::create(b, loc, acc[accIndex(l, mi, ni, e)], w.partials,
                                ValueRange{partialIndex(ib, w, bz, mi, ni, e)});
  emitDeviceFence(b, loc);
  // Every warp is past its K loop (and its last ldmatrix): the stages'
  // memory can carry the verdict.
  gpu::BarrierOp::create(b, loc);
  auto flagType = MemRefType::get({1}, b.getI32Type(),
                                  MemRefLayoutAttrInterface(), wgSpace);
  Value flag =
      memref::ViewOp::create(b, loc, flagType, dyn, ib.c(0), ValueRange{});
  Value isThreadZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, ib.c(0));
  emitIf(b, loc, isThreadZero, [&](OpBuilder &b) {
    IndexBuilder ib(b, loc);
    Value last = arith::ExtUIOp::create(b, loc, b.getI32Type(),
                                        emitSplitKArrival(b, loc, w, w.tileId));
    memref::StoreOp::create(b, loc, last, flag, ValueRange{ib.c(0)});
  });
  gpu::BarrierOp::create(b, loc);
  Value verdict = memref::LoadOp::create(b, loc, flag, ValueRange{ib.c(0)});
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne, verdict,
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)));
}

void MmaSyncEmitter::emitSplitKReduction(OpBuilder &b, const SplitKWorkspace &w,
                                         MutableArrayRef<Value> acc) {
  IndexBuilder ib(b, loc);
  emitDeviceFence(b, loc);
  for (int64_t mi = 0; mi < l.fragsM; ++mi)
    for (int64_t ni = 0; ni < l.fragsN; ++ni)
      for (int64_t e = 0; e < 4; ++e)
        acc[accIndex(l, mi, ni, e)] =
            emitSplitKSum(b, loc, w, [&](IndexBuilder &ib, Value split) {
              return partialIndex(ib, w, split, mi, ni, e);
            });
  emitEpilogue(b, acc);
  emitIf(b, loc,
         arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, ib.c(0)),
         [&](OpBuilder &b) { emitSplitKReset(b, loc, w, w.tileId); });
}

/// Every block stores its f32 partial tile; the last of an output tile's
/// blocks to arrive (counted per tile) sums all partials in split order
/// (deterministic whatever the arrival order), runs the epilogue and resets
/// the tile's count, so the counts are zero again for the next launch.
void MmaSyncEmitter::emitSplitKEpilogue(SmallVector<Value> acc) {
  SplitKWorkspace w = emitSplitKWorkspace();
  Value isLast = emitLastArrival(w, acc);
  emitIf(b, loc, isLast, [&](OpBuilder &b) { emitSplitKReduction(b, w, acc); });
}

LogicalResult emitMmaSyncKernel(OpBuilder &b, Location loc, GpuKernel &kernel) {
  FailureOr<MmaLayout> layout = getMmaLayout(kernel.spec);
  if (failed(layout))
    return failure();
  MatmulGeometry g = getGeometry(kernel);
  if (layout->instructionK == 32) // fp8's m16n8k32 needs PTX ISA 8.4.
    requirePtxVersion(kernel.args.front().getParentRegion()->getParentOp(),
                      kFp8MmaSyncPtxVersion);
  MmaSyncEmitter emitter(b, loc, kernel, g, *layout);
  emitter.emitPrologue();
  SmallVector<Value> acc = emitter.emitMainLoop();
  emitter.emitAccumulatorCoords();
  if (layout->tile.kSplits == 1)
    emitter.emitEpilogue(b, acc);
  else
    emitter.emitSplitKEpilogue(std::move(acc));
  return success();
}

} // namespace mlir::sol::codegen
