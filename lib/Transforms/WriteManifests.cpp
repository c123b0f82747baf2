//===- WriteManifests.cpp - one JSON manifest per planned kernel ----------===//
//
// The runtime has no MLIR: everything it needs to launch a kernel, check it
// and judge its speed travels in a manifest written here, at the sol level,
// where the kernel's meaning is still plain. The `program` is the kernel's
// sol ops in SSA order; the runner evaluates it in float64 as the
// reference, so the check does not trust any code the compiler generated.
//
// A dynamic kernel (docs/dynamic-shapes.md, section 5) has one manifest for
// every M: its shapes hold -1 for the dynamic dim, and its launch is a table
// of `plans` rows, one per range of M, each naming its GPU kernel and
// binaries and saying how the grid follows M (`grid_rows`), so that the
// runtime can resolve the manifest at the M of a launch without the
// compiler.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/DynamicShapes.h"
#include "SolDialect/Fusion.h"
#include "SolDialect/Passes.h"
#include "SolDialect/PlanCache.h"
#include "SolDialect/Target.h"
#include "SolDialect/TensorMapBox.h"
#include "SolDialect/TilePlan.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cmath>

namespace mlir::sol {
#define GEN_PASS_DEF_SOLWRITEMANIFESTSPASS
#include "SolDialect/Passes.h.inc"
} // namespace mlir::sol

using namespace mlir;
using namespace mlir::sol;

static std::string dtypeName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "f32";
  // The runtime's spellings (runtime/DType.h).
  if (isa<Float8E4M3FNType>(type))
    return "f8e4m3fn";
  if (isa<Float8E5M2Type>(type))
    return "f8e5m2";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

/// What a manifest's shapes hold for the dynamic dim.
constexpr int64_t kManifestDynamicDim = -1;

static llvm::json::Array shapeOf(Type type) {
  llvm::json::Array shape;
  for (int64_t d : cast<RankedTensorType>(type).getShape())
    shape.push_back(ShapedType::isDynamic(d) ? kManifestDynamicDim : d);
  return shape;
}

static llvm::json::Array toJson(ArrayRef<int64_t> values) {
  llvm::json::Array array;
  for (int64_t v : values)
    array.push_back(v);
  return array;
}

/// The kernel's sol ops as the runner's reference program, or failure (with
/// a diagnostic) for an op the manifest format cannot state.
static FailureOr<llvm::json::Object> buildProgram(KernelOp kernel) {
  llvm::DenseMap<Value, int64_t> ids;
  llvm::json::Array program;
  Block &body = kernel.getBodyBlock();
  for (BlockArgument arg : body.getArguments()) {
    ids[arg] = program.size();
    program.push_back(
        llvm::json::Object{{"op", "arg"}, {"index", arg.getArgNumber()}});
  }
  for (Operation &op : body.without_terminator()) {
    if (op.getNumResults() != 1)
      return op.emitError("sol-write-manifests: expected one result");
    Value result = op.getResult(0);
    llvm::json::Object entry{
        {"op", op.getName().stripDialect().str()},
        {"dtype", dtypeName(getElementTypeOrSelf(result.getType()))},
        {"shape", shapeOf(result.getType())}};
    llvm::json::Array operands;
    auto matmul = dyn_cast<MatmulOp>(op);
    // A matmul's operands are A and B; its scales are named fields, as
    // their meaning is their role, not their place.
    SmallVector<Value> listed =
        matmul ? SmallVector<Value>{matmul.getLhs(), matmul.getRhs()}
               : SmallVector<Value>(op.getOperands());
    for (Value operand : listed)
      operands.push_back(ids.lookup(operand));
    entry["operands"] = std::move(operands);
    if (matmul) {
      entry["transpose_b"] = matmul.getTransposeB();
      std::pair<const char *, Value> scales[] = {
          {"scale_a", matmul.getScaleA()},
          {"scale_b", matmul.getScaleB()},
          {"scale_out", matmul.getScaleOut()}};
      for (auto [key, scale] : scales)
        if (scale)
          entry[key] = ids.lookup(scale);
    }
    if (auto gelu = dyn_cast<GeluOp>(op))
      entry["approximate"] =
          stringifyGeluApproximation(gelu.getApproximation());
    if (auto constant = dyn_cast<ConstantOp>(op)) {
      auto value = dyn_cast<FloatAttr>(constant.getValue());
      if (!value)
        return op.emitError("sol-write-manifests: a non-float constant");
      // JSON has no infinities nor NaN: those go as the strings "inf",
      // "-inf" and "nan", which every manifest reader accepts.
      double number = value.getValueAsDouble();
      if (std::isfinite(number))
        entry["value"] = number;
      else
        entry["value"] = std::isnan(number) ? "nan"
                         : number > 0       ? "inf"
                                            : "-inf";
    }
    ids[result] = program.size();
    program.push_back(std::move(entry));
  }
  llvm::json::Array outputs;
  for (Value value : kernel.getYield().getValues())
    outputs.push_back(ids.lookup(value));
  return llvm::json::Object{{"program", std::move(program)},
                            {"outputs", std::move(outputs)}};
}

static llvm::json::Object costToJson(CostAttr cost) {
  return llvm::json::Object{{"bound", stringifyBound(cost.getBound())},
                            {"tc_flops", cost.getTcFlops()},
                            {"ew_flops", cost.getEwFlops()},
                            {"bytes", cost.getBytes()},
                            {"intensity", cost.getIntensity()},
                            {"t_ideal_us", cost.getTIdealUs()},
                            {"t_pred_us", cost.getTPredUs()},
                            {"sol_pred", cost.getSolPred()},
                            {"limiter", stringifyLimiter(cost.getLimiter())}};
}

static llvm::json::Object planToJson(PlanAttr plan) {
  llvm::json::Object json{{"path", stringifyKernelPath(plan.getPath())},
                          {"tile", toJson(plan.getTile())},
                          {"warps", toJson(plan.getWarps())},
                          {"stages", plan.getStages()},
                          {"split_k", plan.getSplitK()},
                          {"cluster", plan.getCluster()}};
  if (lookupKernelPath(plan.getPath()).hasConsumerSchedule())
    json["schedule"] = stringifyConsumerSchedule(plan.getSchedule());
  return json;
}

/// The TMA maps a wgmma_tma kernel reads its operands through, in the order
/// of the kernel's trailing map parameters: A as a [rows, K] matrix, then
/// each weight B ([N, K], or one [K, N] weight read N-major), in the boxes
/// the generator loads (TensorMapBox.h). All with the 128-byte swizzle the
/// wgmma descriptors name; out-of-bounds boxes zero-fill, which masks the
/// edges.
static FailureOr<llvm::json::Array> buildTensorMaps(KernelOp kernel,
                                                    PlanAttr plan) {
  std::string reason;
  FailureOr<SmallVector<MatmulOp, 2>> matmuls =
      getKernelMatmuls(kernel.getBodyBlock(), reason);
  if (failed(matmuls) || matmuls->empty())
    return kernel.emitError("sol-write-manifests: a wgmma_tma plan needs "
                            "one matmul or a sibling pair")
           << (reason.empty() ? "" : ": ") << reason;
  MatmulOp matmul = matmuls->front();
  auto lhs = dyn_cast<BlockArgument>(matmul.getLhs());
  bool nMajorB = matmuls->size() == 1 && !matmul.getTransposeB();
  if (!lhs || !llvm::all_of(*matmuls, [&](MatmulOp mm) {
        return isa<BlockArgument>(mm.getRhs()) &&
               (mm.getTransposeB() || nMajorB);
      }))
    return kernel.emitError("sol-write-manifests: a wgmma_tma plan needs A "
                            "and an [N, K] B (or one [K, N] B) that are "
                            "kernel arguments");
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  int64_t k = lhsType.getShape().back();
  // A dynamic A's rows follow M: -1, which the launch resolves to its
  // element count over K.
  auto rowsOf = [&](RankedTensorType type) -> int64_t {
    return hasDynamicLeadingDim(type) ? kManifestDynamicDim
                                      : type.getNumElements() / k;
  };
  TensorMapBox boxB =
      getTensorMapBoxB(plan, static_cast<int64_t>(matmuls->size()));
  // Dims and box innermost first, as cuTensorMapEncodeTiled takes them.
  auto map = [&](BlockArgument arg, std::array<int64_t, 2> dims,
                 std::array<int64_t, 2> box) {
    return llvm::json::Object{
        {"arg", arg.getArgNumber()},
        {"dtype", dtypeName(getElementTypeOrSelf(arg.getType()))},
        {"dims", llvm::json::Array{dims[0], dims[1]}},
        {"box", llvm::json::Array{box[0], box[1]}},
        {"swizzle", "128B"},
        {"l2_promotion", "256B"},
        {"oob_fill", "zero"}};
  };
  TensorMapBox boxA = getTensorMapBoxA(plan);
  llvm::json::Array maps{map(lhs, {k, rowsOf(lhsType)}, {boxA.k, boxA.rows})};
  if (nMajorB) {
    // [K, N]: N is the inner dim, K the rows.
    auto rhs = cast<BlockArgument>(matmul.getRhs());
    ArrayRef<int64_t> shape = cast<RankedTensorType>(rhs.getType()).getShape();
    NMajorTensorMapBox box = getNMajorTensorMapBoxB(plan);
    maps.push_back(
        map(rhs, {shape.back(), shape.front()}, {box.columns, box.k}));
    return maps;
  }
  for (MatmulOp mm : *matmuls) {
    auto rhs = cast<BlockArgument>(mm.getRhs());
    maps.push_back(map(rhs, {k, rowsOf(cast<RankedTensorType>(rhs.getType()))},
                       {boxB.k, boxB.rows}));
  }
  return maps;
}

/// The launch of `plan`, whose geometry its path derives (the plan records
/// only its choices): the runtime has no path to ask.
static llvm::json::Object launchToJson(PlanAttr plan,
                                       const LaunchGeometry &geometry) {
  return llvm::json::Object{
      {"grid", toJson(geometry.grid)},
      {"block", toJson(geometry.block)},
      {"smem", geometry.smem},
      {"cluster", llvm::json::Array{plan.getCluster(), 1, 1}}};
}

/// Whether the kernel of `plan` takes TMA maps after its buffers.
static bool takesTensorMaps(PlanAttr plan, KernelOp kernel) {
  std::string ignored;
  FailureOr<SmallVector<MatmulOp, 2>> matmuls =
      getKernelMatmuls(kernel.getBodyBlock(), ignored);
  unsigned numMatmuls = succeeded(matmuls) ? matmuls->size() : 1;
  return lookupKernelPath(plan.getPath()).getNumTensorMaps(numMatmuls) > 0;
}

static llvm::json::Object gridRuleToJson(const DynamicGridRule &rule) {
  return llvm::json::Object{{"axis", static_cast<int64_t>(rule.axis)},
                            {"elements_per_dim", rule.elementsPerDim},
                            {"elements_per_block", rule.elementsPerBlock},
                            {"times", rule.times},
                            {"max", rule.max}};
}

/// The cost the kernel carries at `m` (one of its report points), or null.
static CostAttr getCostAt(KernelOp kernel, int64_t m) {
  if (ArrayAttr costs = kernel.getCostsAttr())
    for (auto point : costs.getAsRange<CostPointAttr>())
      if (point.getM() == m)
        return point.getCost();
  return {};
}

/// The `plans` rows of a dynamic kernel: each row's GPU kernel and binaries
/// (named as the GPU conversion names them), its plan and launch at its
/// m_max, the rule its grid follows M by, its TMA maps (the dynamic rows as
/// -1) and, where the cost model priced m_max, its cost there.
static FailureOr<llvm::json::Array> buildPlanRows(KernelOp kernel,
                                                  TargetAttr target) {
  llvm::json::Array rows;
  for (auto entry : kernel.getPlansAttr().getAsRange<PlanEntryAttr>()) {
    PlanAttr plan = entry.getPlan();
    std::string name = getPlanEntryKernelName(kernel.getSymName(), entry);
    std::string reason;
    FailureOr<LaunchGeometry> geometry =
        getPlanEntryLaunchGeometry(kernel, entry, target, reason);
    if (failed(geometry))
      return kernel.emitError("sol-write-manifests: the plan of row ")
             << entry.getMMin() << ".." << entry.getMMax() << " of @"
             << kernel.getSymName() << " cannot launch: " << reason;
    llvm::json::Object launch = launchToJson(plan, *geometry);
    launch["grid_rows"] =
        gridRuleToJson(getDynamicGridRule(kernel, plan, *geometry));
    llvm::json::Object row{{"m_min", entry.getMMin()},
                           {"m_max", entry.getMMax()},
                           {"kernel", name},
                           {"ptx", name + ".ptx"},
                           {"cubin", name + ".cubin"},
                           {"plan", planToJson(plan)},
                           {"launch", std::move(launch)}};
    if (takesTensorMaps(plan, kernel)) {
      FailureOr<llvm::json::Array> maps = buildTensorMaps(kernel, plan);
      if (failed(maps))
        return failure();
      row["tensor_maps"] = std::move(*maps);
    }
    if (CostAttr cost = getCostAt(kernel, entry.getMMax()))
      row["cost"] = costToJson(cost);
    rows.push_back(std::move(row));
  }
  return rows;
}

/// The fields a dynamic kernel's manifest has instead of a static one's
/// binaries, launch, plan and maps: its range, its plan rows and its cost at
/// each report point.
static LogicalResult addDynamicFields(KernelOp kernel, TargetAttr target,
                                      llvm::json::Object &manifest) {
  DimRangeAttr range = lookupDimRange(kernel);
  manifest["dynamic_dim"] =
      llvm::json::Object{{"min", range.getMin()},
                         {"max", range.getMax()},
                         {"hints", toJson(range.getHints())}};
  FailureOr<llvm::json::Array> rows = buildPlanRows(kernel, target);
  if (failed(rows))
    return failure();
  manifest["plans"] = std::move(*rows);
  if (ArrayAttr costs = kernel.getCostsAttr()) {
    llvm::json::Array points;
    for (auto point : costs.getAsRange<CostPointAttr>()) {
      llvm::json::Object json = costToJson(point.getCost());
      json["m"] = point.getM();
      points.push_back(std::move(json));
    }
    manifest["cost_at"] = std::move(points);
  }
  return success();
}

namespace {
struct WriteManifestsPass
    : sol::impl::SolWriteManifestsPassBase<WriteManifestsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (dir.empty()) {
      getModuleDiagnosticAnchor(module)->emitError(
          "sol-write-manifests: no 'dir' given");
      return signalPassFailure();
    }
    TargetAttr target = lookupTarget(module);
    if (!target) {
      emitMissingTargetError(getModuleDiagnosticAnchor(module),
                             "sol-write-manifests");
      return signalPassFailure();
    }
    if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
      getModuleDiagnosticAnchor(module)->emitError()
          << "sol-write-manifests: cannot create '" << dir
          << "': " << ec.message();
      return signalPassFailure();
    }
    WalkResult result = module.walk([&](KernelOp kernel) {
      return succeeded(writeManifest(kernel, target)) ? WalkResult::advance()
                                                      : WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  LogicalResult writeManifest(KernelOp kernel, TargetAttr target) {
    // The name becomes `<dir>/<name>.json`: nothing but an identifier may
    // reach the file system ('/', "..", NUL would leave the directory).
    if (std::string why = whyNotSafeKernelName(kernel.getSymName());
        !why.empty())
      return kernel.emitError("sol-write-manifests: kernel @")
             << kernel.getSymNameAttr() << " cannot name a file: its name "
             << why;
    bool isDynamic = isDynamicKernel(kernel);
    PlanAttr plan = kernel.getPlanAttr();
    if (isDynamic && !kernel.getPlansAttr())
      return kernel.emitError("sol-write-manifests: dynamic kernel @")
             << kernel.getSymName()
             << " has no plan table ('plans'): run sol-tile first";
    if (!isDynamic && !plan)
      return kernel.emitError("sol-write-manifests: kernel @")
             << kernel.getSymName() << " has no plan: run sol-tile first";
    FailureOr<llvm::json::Object> program = buildProgram(kernel);
    if (failed(program))
      return failure();

    std::string name = kernel.getSymName().str();
    llvm::json::Array args;
    for (auto [i, input] : llvm::enumerate(kernel.getInputs()))
      args.push_back(llvm::json::Object{
          {"name", "arg" + std::to_string(i)},
          {"role", "input"},
          {"dtype", dtypeName(getElementTypeOrSelf(input.getType()))},
          {"shape", shapeOf(input.getType())}});
    for (auto [i, result] : llvm::enumerate(kernel.getResults()))
      args.push_back(llvm::json::Object{
          {"name", "out" + std::to_string(i)},
          {"role", "output"},
          {"dtype", dtypeName(getElementTypeOrSelf(result.getType()))},
          {"shape", shapeOf(result.getType())}});

    // The peak the kernel is judged against: its matmul dtype's tensor-core
    // peak, else the SIMT peak.
    double peakTflops = target.getF32SimtTflops();
    for (MatmulOp matmul : kernel.getBodyBlock().getOps<MatmulOp>())
      peakTflops = target.getMatmulPeakFlops(
                       getElementTypeOrSelf(matmul.getLhs().getType())) /
                   1e12;

    // The top-level kernel is the CPU function's name (the host backend);
    // a dynamic kernel's rows name its GPU kernels.
    llvm::json::Object manifest{
        {"kernel", name},
        {"target", llvm::json::Object{{"name", target.getName()},
                                      {"chip", target.getChip()},
                                      {"l2_bytes", target.getL2Bytes()},
                                      {"peak_tflops", peakTflops},
                                      {"peak_gbps", target.getHbmGbps()}}},
        {"args", std::move(args)},
        {"program", std::move((*program)["program"])},
        {"outputs", std::move((*program)["outputs"])}};
    if (isDynamic) {
      if (failed(addDynamicFields(kernel, target, manifest)))
        return failure();
    } else {
      std::string reason;
      FailureOr<LaunchGeometry> geometry =
          getPlanLaunchGeometry(plan, kernel, target, reason);
      if (failed(geometry))
        return kernel.emitError("sol-write-manifests: the plan of @")
               << kernel.getSymName() << " cannot launch: " << reason;
      manifest["ptx"] = name + ".ptx";
      manifest["cubin"] = name + ".cubin";
      manifest["launch"] = launchToJson(plan, *geometry);
      manifest["plan"] = planToJson(plan);
      // What a tuner files a measured plan under (sol-tile's plan-cache),
      // with the plan as sol prints it, which the cache holds.
      manifest["plan_key"] = getPlanCacheKey(kernel, target);
      std::string planText;
      llvm::raw_string_ostream(planText) << Attribute(plan);
      manifest["plan_attr"] = planText;
      if (takesTensorMaps(plan, kernel)) {
        FailureOr<llvm::json::Array> maps = buildTensorMaps(kernel, plan);
        if (failed(maps))
          return failure();
        manifest["tensor_maps"] = std::move(*maps);
      }
    }
    if (CostAttr cost = kernel.getCostAttr())
      manifest["cost"] = costToJson(cost);

    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, name + ".json");
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return kernel.emitError("sol-write-manifests: cannot write '")
             << path << "': " << ec.message();
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest)))
       << "\n";
    return success();
  }
};
} // namespace
