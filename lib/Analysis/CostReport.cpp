//===- CostReport.cpp - cost tables for people and JSON for tools ---------===//
//
// The module totals of the kernels' #sol.cost (#sol.cost_summary) and their
// two renderings: a table in the manner of Nsight Compute's Speed Of Light
// section, and JSON for the benchmark, the PyTorch backend and other tools.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/CostModel.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::sol;

CostSummaryAttr mlir::sol::summarizeCosts(MLIRContext *context,
                                          ArrayRef<CostRecord> records,
                                          int64_t unfusedBytes) {
  int64_t known = 0, unknown = 0, bytes = 0;
  double tIdeal = 0, tPred = 0;
  for (const CostRecord &r : records) {
    if (r.cost.getBound() == Bound::unknown) {
      ++unknown;
      continue;
    }
    ++known;
    bytes += r.cost.getBytes();
    tIdeal += r.cost.getTIdealUs();
    tPred += r.cost.getTPredUs();
  }
  auto round3 = [](double v) { return std::round(v * 1000) / 1000; };
  return CostSummaryAttr::get(context, known, unknown, round3(tIdeal),
                              round3(tPred), bytes, unfusedBytes,
                              unfusedBytes - bytes);
}

/// 1.07e+11-style spelling for large counts in a fixed-width column.
static std::string sci(double v) {
  char buf[32];
  snprintf(buf, sizeof(buf), "%.3g", v);
  return buf;
}

void mlir::sol::printCostTable(raw_ostream &os, TargetAttr target,
                               ArrayRef<CostRecord> records,
                               CostSummaryAttr summary) {
  os << "sol cost report: target " << target.getName() << " ("
     << target.getChip() << ", " << target.getSmCount() << " SMs, "
     << formatReal(target.getF16Tflops()) << " TFLOP/s f16, "
     << formatReal(target.getHbmGbps()) << " GB/s HBM)\n";
  // A dynamic kernel prints a line per report point, `name[m=M]`; the
  // totals count it once, at its range's max.
  struct Line {
    std::string name;
    CostAttr cost;
  };
  SmallVector<Line> lines;
  bool anyDynamic = false;
  for (const CostRecord &r : records) {
    if (r.points.empty()) {
      lines.push_back({r.kernel, r.cost});
      continue;
    }
    anyDynamic = true;
    for (auto [m, cost] : r.points)
      lines.push_back({r.kernel + "[m=" + std::to_string(m) + "]", cost});
  }
  if (anyDynamic)
    os << "dynamic kernels: one line per point of the dim range "
          "(name[m=M]); the totals count each at its range's max\n";
  size_t nameWidth = 6;
  for (const Line &l : lines)
    nameWidth = std::max(nameWidth, l.name.size());
  os << llvm::left_justify("kernel", nameWidth)
     << "     FLOPs     bytes  FLOP/B  bound      T_ideal us   T_pred us "
        " SOL_pred  limiter\n";
  for (const Line &r : lines) {
    CostAttr c = r.cost;
    os << llvm::left_justify(r.name, nameWidth) << " "
       << llvm::right_justify(sci(c.getTcFlops() + c.getEwFlops()), 9) << " "
       << llvm::right_justify(sci(c.getBytes()), 9);
    if (c.getBound() == Bound::unknown) {
      os << "  unknown: " << c.getReason() << "\n";
      continue;
    }
    os << " " << llvm::format("%7.1f", c.getIntensity()) << "  "
       << llvm::left_justify(stringifyBound(c.getBound()), 8)
       << llvm::format("%12.3f", c.getTIdealUs())
       << llvm::format("%12.3f", c.getTPredUs())
       << llvm::format("%10.3f", c.getSolPred()) << "  "
       << stringifyLimiter(c.getLimiter()) << "\n";
  }
  os << "total: " << summary.getKernels() << " kernel(s)";
  if (summary.getUnknownKernels())
    os << " (+" << summary.getUnknownKernels() << " unknown)";
  os << ", T_ideal " << llvm::format("%.3f", summary.getTIdealUs())
     << " us, T_pred " << llvm::format("%.3f", summary.getTPredUs()) << " us";
  if (summary.getTPredUs() > 0)
    os << ", SOL_pred "
       << llvm::format("%.3f", summary.getTIdealUs() / summary.getTPredUs());
  os << "\ntraffic: " << llvm::format("%.1f", summary.getBytes() / 1e6)
     << " MB fused, " << llvm::format("%.1f", summary.getUnfusedBytes() / 1e6)
     << " MB unfused, " << llvm::format("%.1f", summary.getSavedBytes() / 1e6)
     << " MB saved by fusion\n";
}

void mlir::sol::printCostJSON(raw_ostream &os, TargetAttr target,
                              ArrayRef<CostRecord> records,
                              CostSummaryAttr summary) {
  auto costFields = [](llvm::json::Object &k, CostAttr c) {
    k["bound"] = stringifyBound(c.getBound());
    k["tc_flops"] = c.getTcFlops();
    k["ew_flops"] = c.getEwFlops();
    k["bytes"] = c.getBytes();
    if (c.getBound() == Bound::unknown) {
      k["reason"] = c.getReason();
      return;
    }
    k["intensity"] = c.getIntensity();
    k["balance"] = c.getBalance();
    k["t_compute_us"] = c.getTComputeUs();
    k["t_memory_us"] = c.getTMemoryUs();
    k["t_ideal_us"] = c.getTIdealUs();
    k["t_pred_us"] = c.getTPredUs();
    k["sol_pred"] = c.getSolPred();
    k["limiter"] = stringifyLimiter(c.getLimiter());
  };
  llvm::json::Array kernels;
  for (const CostRecord &r : records) {
    // A dynamic kernel's fields are its cost at the range's max (what the
    // summary counts); `cost_at` has each report point's.
    llvm::json::Object k{{"kernel", r.kernel}};
    costFields(k, r.cost);
    if (!r.points.empty()) {
      llvm::json::Array points;
      for (auto [m, cost] : r.points) {
        llvm::json::Object point{{"m", m}};
        costFields(point, cost);
        points.push_back(std::move(point));
      }
      k["cost_at"] = std::move(points);
    }
    kernels.push_back(std::move(k));
  }
  llvm::json::Object root{
      {"target", llvm::json::Object{{"name", target.getName()},
                                    {"chip", target.getChip()},
                                    {"f16_tflops", target.getF16Tflops()},
                                    {"bf16_tflops", target.getBf16Tflops()},
                                    {"hbm_gbps", target.getHbmGbps()}}},
      {"kernels", std::move(kernels)},
      {"summary",
       llvm::json::Object{{"kernels", summary.getKernels()},
                          {"unknown_kernels", summary.getUnknownKernels()},
                          {"t_ideal_us", summary.getTIdealUs()},
                          {"t_pred_us", summary.getTPredUs()},
                          {"bytes", summary.getBytes()},
                          {"unfused_bytes", summary.getUnfusedBytes()},
                          {"saved_bytes", summary.getSavedBytes()}}},
  };
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}
