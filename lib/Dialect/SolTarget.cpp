//===- SolTarget.cpp - #sol.target, its presets and JSON files ------------===//
//
// The device as data. One field table drives the attribute's parser and
// printer and the JSON loader, so the IR spelling and the file format cannot
// drift apart. Every preset figure cites its source; figures not on a
// datasheet are marked as leads to be replaced by measurements.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/DynamicShapes.h"
#include "SolDialect/SolDialect.h"
#include "SolDialect/Target.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

using namespace mlir;
using namespace mlir::sol;

#define GET_ATTRDEF_CLASSES
#include "SolDialect/SolAttrs.cpp.inc"

void SolDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "SolDialect/SolAttrs.cpp.inc"
      >();
}

namespace {

/// Plain copy of every TargetAttr parameter, so that presets, the parser and
/// the JSON loader fill one struct and build the attribute in one place.
struct TargetParams {
  std::string name;
  std::string chip;
  int64_t smCount = 0;
  int64_t clockMhz = 0;
  double f16Tflops = 0, bf16Tflops = 0, tf32Tflops = 0, fp8Tflops = 0;
  double f32SimtTflops = 0;
  double hbmGbps = 0, l2Gbps = 0;
  int64_t l2Bytes = 0, smemPerSmBytes = 0, regsPerSm = 0;
  double launchUs = 0, mmaEfficiency = 0, hbmEfficiency = 0;

  static TargetParams fromAttr(TargetAttr attr) {
    TargetParams p;
    p.name = attr.getName().str();
    p.chip = attr.getChip().str();
    p.smCount = attr.getSmCount();
    p.clockMhz = attr.getClockMhz();
    p.f16Tflops = attr.getF16Tflops();
    p.bf16Tflops = attr.getBf16Tflops();
    p.tf32Tflops = attr.getTf32Tflops();
    p.fp8Tflops = attr.getFp8Tflops();
    p.f32SimtTflops = attr.getF32SimtTflops();
    p.hbmGbps = attr.getHbmGbps();
    p.l2Gbps = attr.getL2Gbps();
    p.l2Bytes = attr.getL2Bytes();
    p.smemPerSmBytes = attr.getSmemPerSmBytes();
    p.regsPerSm = attr.getRegsPerSm();
    p.launchUs = attr.getLaunchUs();
    p.mmaEfficiency = attr.getMmaEfficiency();
    p.hbmEfficiency = attr.getHbmEfficiency();
    return p;
  }

  TargetAttr getChecked(function_ref<InFlightDiagnostic()> emitError,
                        MLIRContext *ctx) const {
    return TargetAttr::getChecked(
        emitError, ctx, name, chip, smCount, clockMhz, f16Tflops, bf16Tflops,
        tf32Tflops, fp8Tflops, f32SimtTflops, hbmGbps, l2Gbps, l2Bytes,
        smemPerSmBytes, regsPerSm, launchUs, mmaEfficiency, hbmEfficiency);
  }
};

enum class FieldKind { String, Integer, Real };

/// One key of the IR and JSON spellings.
struct Field {
  StringLiteral key;
  FieldKind kind;
  std::string TargetParams::*str = nullptr;
  int64_t TargetParams::*integer = nullptr;
  double TargetParams::*real = nullptr;
};

constexpr Field strField(StringLiteral key, std::string TargetParams::*m) {
  return {key, FieldKind::String, m, nullptr, nullptr};
}
constexpr Field intField(StringLiteral key, int64_t TargetParams::*m) {
  return {key, FieldKind::Integer, nullptr, m, nullptr};
}
constexpr Field realField(StringLiteral key, double TargetParams::*m) {
  return {key, FieldKind::Real, nullptr, nullptr, m};
}

/// The order here is the printed order.
const Field kFields[] = {
    strField("name", &TargetParams::name),
    strField("chip", &TargetParams::chip),
    intField("sm_count", &TargetParams::smCount),
    intField("clock_mhz", &TargetParams::clockMhz),
    realField("f16_tflops", &TargetParams::f16Tflops),
    realField("bf16_tflops", &TargetParams::bf16Tflops),
    realField("tf32_tflops", &TargetParams::tf32Tflops),
    realField("fp8_tflops", &TargetParams::fp8Tflops),
    realField("f32_simt_tflops", &TargetParams::f32SimtTflops),
    realField("hbm_gbps", &TargetParams::hbmGbps),
    realField("l2_gbps", &TargetParams::l2Gbps),
    intField("l2_bytes", &TargetParams::l2Bytes),
    intField("smem_per_sm_bytes", &TargetParams::smemPerSmBytes),
    intField("regs_per_sm", &TargetParams::regsPerSm),
    realField("launch_us", &TargetParams::launchUs),
    realField("mma_efficiency", &TargetParams::mmaEfficiency),
    realField("hbm_efficiency", &TargetParams::hbmEfficiency),
};

const Field *lookupField(StringRef key) {
  for (const Field &f : kFields)
    if (f.key == key)
      return &f;
  return nullptr;
}

std::string knownFieldList() {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(kFields, os, [&](const Field &f) { os << f.key; });
  return s;
}

//===----------------------------------------------------------------------===//
// Presets
//===----------------------------------------------------------------------===//

// Calibration leads shared by the Hopper presets until each card is measured
// with sol's own kernels (bench/NOTES.md):
// - launch_us = 3.2: the fastest peer for the 13.1 MB decode o_proj on an
//   H200 took 6.2 us in a CUDA graph of back-to-back calls; streaming 13.1 MB
//   at the 4.38 TB/s the best memory-bound kernel reached takes 3.0 us, the
//   remaining 3.2 us is fixed cost (../shared/PEERS.md, measured 2026-11-29).
// - mma_efficiency = 0.70: cuBLAS fp16 8192^3 reached 679-709 TFLOP/s of 989
//   on the H200 (PEERS.md, 2026-11-29); sol's path is assumed no better until
//   measured.
// - hbm_efficiency = 0.90: a device-to-device copy moved 4.3 TB/s and
//   Inductor's fused SwiGLU 4.38 TB/s of 4.8 on the H200 (device KINDS.md,
//   2026-10-28; PEERS.md, 2026-11-29).
constexpr double kHopperLaunchUs = 3.2;
constexpr double kHopperMmaEfficiency = 0.70;
constexpr double kHopperHbmEfficiency = 0.90;

TargetParams makeH100Sxm() {
  // NVIDIA H100 Tensor Core GPU datasheet (SXM5, dense figures, i.e. half of
  // the "with sparsity" ones) and the Hopper architecture whitepaper:
  // 132 SMs; fp16/bf16 1979 sparse -> 989 dense (132 SM x 4096 FLOP/clk x
  // 1.83 GHz boost = 989.4; 989 is the figure DESIGN.md and PEERS.md compute
  // SOL with, kept so sol's SOL compares with theirs); 494.7 tf32; 1978.9
  // fp8; 66.9 fp32; 3.35 TB/s HBM3; 50 MB L2; 228 KB shared memory and 64K
  // 32-bit registers per SM.
  TargetParams p;
  p.name = "h100-sxm";
  p.chip = "sm_90a";
  p.smCount = 132;
  p.clockMhz = 1830;
  p.f16Tflops = 989;
  p.bf16Tflops = 989;
  p.tf32Tflops = 494.7;
  p.fp8Tflops = 1978.9;
  p.f32SimtTflops = 66.9;
  p.hbmGbps = 3350;
  // Not a datasheet figure: the highest rate measured on the H200, a lower
  // bound of what L2 delivers. sol's ping-pong wgmma_tma kernel on 128x128
  // tiles ran the bf16 o_proj prefill (8192x2560x2560) in 155.2 us while
  // re-reading 1.68 GB of A and B panels through L2 (20 column tiles x 42 MB
  // of A + 64 row tiles x 13 MB of B): 10.8 TB/s (2026-11-30, bench/results/
  // 2026-11-30-h200-s3-v16b-pingpong). Where B takes over 3/4 of L2 the
  // model takes 0.80 of it (CostModel.cpp). Earlier figures (8.7 TB/s on the
  // SwiGLU down projection, 6.33 TB/s on 2026-11-29) came from kernels bound
  // elsewhere.
  p.l2Gbps = 10800;
  p.l2Bytes = 50ll * 1024 * 1024;
  p.smemPerSmBytes = 228 * 1024;
  p.regsPerSm = 65536;
  p.launchUs = kHopperLaunchUs;
  p.mmaEfficiency = kHopperMmaEfficiency;
  p.hbmEfficiency = kHopperHbmEfficiency;
  return p;
}

TargetParams makeH100Pcie() {
  // NVIDIA H100 Tensor Core GPU datasheet (PCIe, 80 GB, dense figures: half
  // of the "with sparsity" ones): 756 TFLOP/s fp16/bf16, 1513 fp8, 378
  // tf32, 51 fp32; 2.0 TB/s HBM2e; 114 SMs (the whitepaper's GH100 with 114
  // SMs enabled) at the 1620 MHz the dense peak implies (756 / (114 x 4096
  // FLOP/clk)); 50 MB L2. L2 bandwidth scaled from the SXM lead by SMs x
  // clock; the calibration constants are the Hopper leads. Not measured:
  // no PCIe card has been lent.
  TargetParams p = makeH100Sxm();
  p.name = "h100-pcie";
  p.smCount = 114;
  p.clockMhz = 1620;
  p.f16Tflops = 756;
  p.bf16Tflops = 756;
  p.tf32Tflops = 378;
  p.fp8Tflops = 1513;
  p.f32SimtTflops = 51;
  p.hbmGbps = 2000;
  p.l2Gbps = 10800.0 * (114.0 * 1620) / (132.0 * 1830);
  return p;
}

TargetParams makeH200() {
  // NVIDIA H200 Tensor Core GPU datasheet (SXM): the H100 SXM's compute
  // (989 TFLOP/s dense fp16/bf16, 1979 fp8, 494.7 tf32, 67 fp32) with 4.8 TB/s
  // HBM3e. 132 SMs and 60 MB of L2 as PyTorch reported them on the device
  // machine (device KINDS.md, 2026-10-28).
  TargetParams p = makeH100Sxm();
  p.name = "h200";
  p.hbmGbps = 4800;
  p.l2Bytes = 60ll * 1024 * 1024;
  return p;
}

TargetParams makeA100() {
  // NVIDIA A100 Tensor Core GPU datasheet (80GB SXM, dense) and the Ampere
  // GA100 whitepaper: 108 SMs at 1410 MHz boost; 312 TFLOP/s fp16/bf16, 156
  // tf32, no fp8, 19.5 fp32; 2039 GB/s HBM2e; 40 MB L2 read at 5120 B/clk
  // (7.2 TB/s); 164 KB shared memory and 64K registers per SM.
  TargetParams p;
  p.name = "a100-80gb";
  p.chip = "sm_80";
  p.smCount = 108;
  p.clockMhz = 1410;
  p.f16Tflops = 312;
  p.bf16Tflops = 312;
  p.tf32Tflops = 156;
  p.fp8Tflops = 0;
  p.f32SimtTflops = 19.5;
  p.hbmGbps = 2039;
  p.l2Gbps = 7219;
  p.l2Bytes = 40ll * 1024 * 1024;
  p.smemPerSmBytes = 164 * 1024;
  p.regsPerSm = 65536;
  // Leads carried over from the H200 measurements above; not measured on an
  // A100.
  p.launchUs = kHopperLaunchUs;
  p.mmaEfficiency = kHopperMmaEfficiency;
  p.hbmEfficiency = kHopperHbmEfficiency;
  return p;
}

TargetParams makeL40s() {
  // NVIDIA L40S datasheet (dense figures, half of the "with sparsity" ones):
  // 362 TFLOP/s fp16/bf16 with f32 accumulation, 733 fp8, 183 tf32, 91.6
  // fp32; 864 GB/s GDDR6; 142 SMs (18176 CUDA cores / 128) at a 2520 MHz
  // boost; 96 MB L2 (AD102). sm_89 (Ada): 100 KB of shared memory per SM
  // (CUDA programming guide, compute capability 8.9), no wgmma or TMA, so
  // mma.sync (m16n8k32 for fp8) is every tensor-core path. From the A100
  // preset, as leads not measured (no Ada card has been lent): its 64K
  // registers per SM, its L2's 5120 B/clk (at this clock) and the Hopper
  // calibration constants it carries.
  TargetParams p = makeA100();
  p.name = "l40s";
  p.chip = "sm_89";
  p.smCount = 142;
  p.clockMhz = 2520;
  p.f16Tflops = 362;
  p.bf16Tflops = 362;
  p.tf32Tflops = 183;
  p.fp8Tflops = 733;
  p.f32SimtTflops = 91.6;
  p.hbmGbps = 864;
  p.l2Gbps = 5120.0 * 2520 / 1000;
  p.l2Bytes = 96ll * 1024 * 1024;
  p.smemPerSmBytes = 100 * 1024;
  return p;
}

TargetParams makeB200() {
  // NVIDIA HGX B200 datasheet, per GPU, dense (half the sparse figures):
  // 2250 TFLOP/s fp16/bf16, 4500 fp8, 1125 tf32, 75 fp32; 8 TB/s HBM3e.
  // 148 SMs, 228 KB shared memory and 64K registers per SM (Blackwell tuning
  // guide). Leads, not on the datasheet: 1965 MHz boost, 126 MB L2, L2
  // bandwidth; the calibration constants are the Hopper leads.
  TargetParams p;
  p.name = "b200";
  p.chip = "sm_100a";
  p.smCount = 148;
  p.clockMhz = 1965;
  p.f16Tflops = 2250;
  p.bf16Tflops = 2250;
  p.tf32Tflops = 1125;
  p.fp8Tflops = 4500;
  p.f32SimtTflops = 75;
  p.hbmGbps = 8000;
  p.l2Gbps = 20000;
  p.l2Bytes = 126ll * 1024 * 1024;
  p.smemPerSmBytes = 228 * 1024;
  p.regsPerSm = 65536;
  p.launchUs = kHopperLaunchUs;
  p.mmaEfficiency = kHopperMmaEfficiency;
  p.hbmEfficiency = kHopperHbmEfficiency;
  return p;
}

struct Preset {
  StringLiteral name;
  TargetParams (*make)();
};

// Sorted by name.
// clang-format off
const Preset kPresets[] = {
    {"a100-80gb", makeA100},
    {"b200", makeB200},
    {"h100-pcie", makeH100Pcie},
    {"h100-sxm", makeH100Sxm},
    {"h200", makeH200},
    {"l40s", makeL40s},
};
// clang-format on

const Preset *lookupPreset(StringRef name) {
  for (const Preset &p : kPresets)
    if (p.name.equals_insensitive(name))
      return &p;
  return nullptr;
}

std::string knownPresetList() {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(kPresets, os, [&](const Preset &p) { os << p.name; });
  return s;
}

//===----------------------------------------------------------------------===//
// Chips
//===----------------------------------------------------------------------===//

// The processors of LLVM 22's NVPTX backend (`llc -march=nvptx64
// -mattr=help`) with the oldest PTX version each accepts (the lowest
// `-mattr=+ptxNN` with which llc emits code for it; below that it stops with
// "PTX version X does not support target"). TargetTest checks the table
// against the backend linked into sol.
const ChipInfo kChips[] = {
    {"sm_20", 20, 32},    {"sm_21", 21, 32},   {"sm_30", 30, 32},
    {"sm_32", 32, 40},    {"sm_35", 35, 32},   {"sm_37", 37, 41},
    {"sm_50", 50, 40},    {"sm_52", 52, 41},   {"sm_53", 53, 42},
    {"sm_60", 60, 50},    {"sm_61", 61, 50},   {"sm_62", 62, 50},
    {"sm_70", 70, 60},    {"sm_72", 72, 61},   {"sm_75", 75, 63},
    {"sm_80", 80, 70},    {"sm_86", 86, 71},   {"sm_87", 87, 74},
    {"sm_88", 88, 90},    {"sm_89", 89, 78},   {"sm_90", 90, 78},
    {"sm_90a", 90, 80},   {"sm_100", 100, 86}, {"sm_100a", 100, 86},
    {"sm_100f", 100, 88}, {"sm_101", 101, 86}, {"sm_101a", 101, 86},
    {"sm_101f", 101, 88}, {"sm_103", 103, 88}, {"sm_103a", 103, 88},
    {"sm_103f", 103, 88}, {"sm_110", 110, 90}, {"sm_110a", 110, 90},
    {"sm_110f", 110, 90}, {"sm_120", 120, 87}, {"sm_120a", 120, 87},
    {"sm_120f", 120, 88}, {"sm_121", 121, 88}, {"sm_121a", 121, 88},
    {"sm_121f", 121, 88},
};

} // namespace

const ChipInfo *mlir::sol::lookupChip(StringRef chip) {
  for (const ChipInfo &info : kChips)
    if (info.name == chip)
      return &info;
  return nullptr;
}

ArrayRef<ChipInfo> mlir::sol::getKnownChips() { return kChips; }

int64_t mlir::sol::getPtxVersion(const ChipInfo &chip) {
  return std::max<int64_t>(80, chip.minPtxVersion);
}

FailureOr<Real> mlir::sol::parseReal(AsmParser &parser) {
  // Accept integer spellings too, so that `hbm_gbps = 4800` reads naturally.
  // The sign is taken first: parseOptionalInteger would consume a '-' and
  // then reject the float after it.
  double sign = succeeded(parser.parseOptionalMinus()) ? -1.0 : 1.0;
  uint64_t integer = 0;
  OptionalParseResult isInteger = parser.parseOptionalInteger(integer);
  if (isInteger.has_value()) {
    if (failed(*isInteger))
      return failure();
    return Real(sign * static_cast<double>(integer));
  }
  double value;
  if (parser.parseFloat(value))
    return failure();
  return Real(sign * value);
}

std::string mlir::sol::formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(
      shape, os,
      [&](int64_t d) {
        if (ShapedType::isDynamic(d))
          os << "?";
        else
          os << d;
      },
      "x");
  return s;
}

FailureOr<SmallVector<int64_t>> mlir::sol::parseI64List(AsmParser &parser) {
  SmallVector<int64_t> values;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(values.emplace_back());
      }))
    return failure();
  return values;
}

void mlir::sol::printI64List(AsmPrinter &printer, ArrayRef<int64_t> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

std::string mlir::sol::formatReal(double value) {
  if (!std::isfinite(value)) {
    // Spell non-finite values the way parseFloat reads them back.
    llvm::SmallString<16> s;
    llvm::APFloat(value).toString(s);
    return s.str().str();
  }
  // Plain decimals where they are short (4800.0, 108.52, 0.1667), the
  // exponent form elsewhere; either way the fewest digits that read back
  // exactly.
  char buf[40];
  double magnitude = std::fabs(value);
  bool plain = magnitude == 0 || (magnitude >= 1e-4 && magnitude < 1e15);
  for (int precision = plain ? 0 : 1; precision <= 17; ++precision) {
    snprintf(buf, sizeof(buf), plain ? "%.*f" : "%.*g", precision, value);
    if (strtod(buf, nullptr) == value)
      break;
  }
  // MLIR's lexer reads a float only with a '.' before any exponent.
  std::string s(buf);
  if (s.find('.') == std::string::npos) {
    size_t e = s.find('e');
    s.insert(e == std::string::npos ? s.size() : e, ".0");
  }
  return s;
}

void mlir::sol::printReal(AsmPrinter &printer, double value) {
  if (!std::isfinite(value)) {
    printer.printFloat(llvm::APFloat(value));
    return;
  }
  printer << formatReal(value);
}

std::string mlir::sol::whyNotLaunchable(ArrayRef<int64_t> grid,
                                        ArrayRef<int64_t> block) {
  std::string reason;
  llvm::raw_string_ostream os(reason);
  if (grid.size() != 3 || block.size() != 3) {
    os << "a launch has three grid and three block extents";
    return reason;
  }
  if (llvm::any_of(grid, [](int64_t d) { return d < 1; }) ||
      llvm::any_of(block, [](int64_t d) { return d < 1; })) {
    os << "every grid and block extent must be at least 1";
    return reason;
  }
  if (grid[0] > kMaxGridX)
    os << "grid x = " << grid[0] << " exceeds CUDA's limit of " << kMaxGridX;
  else if (grid[1] > kMaxGridYZ || grid[2] > kMaxGridYZ)
    os << "grid y = " << grid[1] << ", z = " << grid[2]
       << " exceed CUDA's limit of " << kMaxGridYZ;
  else if (block[0] > kMaxBlockThreads || block[1] > kMaxBlockThreads ||
           block[2] > kMaxBlockZ ||
           block[0] * block[1] * block[2] > kMaxBlockThreads)
    os << "a block of " << block[0] << "x" << block[1] << "x" << block[2]
       << " threads exceeds CUDA's limits (x, y <= " << kMaxBlockThreads
       << ", z <= " << kMaxBlockZ << ", " << kMaxBlockThreads
       << " threads in all)";
  return reason;
}

//===----------------------------------------------------------------------===//
// PlanAttr and CostAttr verification
//===----------------------------------------------------------------------===//

LogicalResult PlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               KernelPath path, ArrayRef<int64_t> tile,
                               ArrayRef<int64_t> warps, int64_t stages,
                               int64_t splitK, int64_t cluster,
                               ConsumerSchedule schedule) {
  // The cost model divides by the tile and the code generators loop over
  // it: every extent must be positive. Whether the launch it derives is one
  // CUDA accepts depends on the shapes: its path checks that where it
  // derives the geometry (getPlanLaunchGeometry).
  auto positive = [](ArrayRef<int64_t> values) {
    return !values.empty() &&
           llvm::all_of(values, [](int64_t v) { return v >= 1; });
  };
  if (!positive(tile))
    return emitError() << "#sol.plan: 'tile' must list positive extents";
  if (!positive(warps))
    return emitError() << "#sol.plan: 'warps' must list positive counts";
  if (stages < 1 || splitK < 1 || cluster < 1)
    return emitError() << "#sol.plan: 'stages', 'split_k' and 'cluster' "
                          "must be at least 1, got "
                       << stages << ", " << splitK << " and " << cluster;
  if (splitK > kMaxGridYZ)
    return emitError() << "#sol.plan: 'split_k' = " << splitK << " exceeds the "
                       << kMaxGridYZ << " blocks grid z can hold";
  return success();
}

LogicalResult CostAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               Bound bound, int64_t tcFlops, int64_t ewFlops,
                               int64_t bytes, Real intensity, Real balance,
                               Real tComputeUs, Real tMemoryUs, Real tIdealUs,
                               Real tPredUs, Real solPred, Limiter limiter,
                               StringRef reason) {
  // Manifests and reports copy these into JSON, which has no NaN or
  // infinity, and read counts as sizes.
  if (tcFlops < 0 || ewFlops < 0 || bytes < 0)
    return emitError() << "#sol.cost: 'tc_flops', 'ew_flops' and 'bytes' "
                          "must be >= 0, got "
                       << tcFlops << ", " << ewFlops << " and " << bytes;
  std::pair<StringLiteral, double> reals[] = {
      {"intensity", intensity},     {"balance", balance},
      {"t_compute_us", tComputeUs}, {"t_memory_us", tMemoryUs},
      {"t_ideal_us", tIdealUs},     {"t_pred_us", tPredUs},
      {"sol_pred", solPred}};
  for (auto [key, value] : reals)
    if (!std::isfinite(value) || value < 0)
      return emitError() << "#sol.cost: '" << key
                         << "' must be finite and >= 0, got "
                         << formatReal(value);
  return success();
}

//===----------------------------------------------------------------------===//
// Public preset and lookup API
//===----------------------------------------------------------------------===//

ArrayRef<StringRef> mlir::sol::getTargetPresetNames() {
  static const SmallVector<StringRef> names = [] {
    SmallVector<StringRef> n;
    for (const Preset &p : kPresets)
      n.push_back(p.name);
    return n;
  }();
  return names;
}

TargetAttr mlir::sol::getTargetPreset(MLIRContext *context, StringRef name) {
  const Preset *preset = lookupPreset(name);
  if (!preset)
    return {};
  return preset->make().getChecked(
      [context] { return emitError(UnknownLoc::get(context)); }, context);
}

TargetAttr mlir::sol::lookupTarget(Operation *op) {
  for (; op; op = op->getParentOp())
    if (auto target =
            op->getAttrOfType<TargetAttr>(SolDialect::kTargetAttrName))
      return target;
  return {};
}

InFlightDiagnostic mlir::sol::emitMissingTargetError(Operation *op,
                                                     StringRef passName,
                                                     StringRef purpose) {
  InFlightDiagnostic diag = op->emitError();
  diag << passName << " needs a target" << purpose
       << ": pin one with `module attributes {sol.target = "
          "#sol.target<\"h200\">}` or run --sol-attach-target=preset=<name>";
  return diag;
}

//===----------------------------------------------------------------------===//
// TargetAttr: verification, queries, assembly
//===----------------------------------------------------------------------===//

LogicalResult TargetAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, StringRef name,
    StringRef chip, int64_t smCount, int64_t clockMhz, Real f16Tflops,
    Real bf16Tflops, Real tf32Tflops, Real fp8Tflops, Real f32SimtTflops,
    Real hbmGbps, Real l2Gbps, int64_t l2Bytes, int64_t smemPerSmBytes,
    int64_t regsPerSm, Real launchUs, Real mmaEfficiency, Real hbmEfficiency) {
  if (name.empty())
    return emitError() << "#sol.target: 'name' must not be empty";
  if (!chip.starts_with("sm_"))
    return emitError() << "#sol.target: 'chip' must be a PTX target such as "
                          "sm_90a, got '"
                       << chip << "'";
  // The chip reaches LLVM's NVPTX backend, which stops the process on a
  // processor it does not know: refuse it here, where the error has a
  // location.
  if (!lookupChip(chip))
    return emitError() << "#sol.target: chip '" << chip
                       << "' is not a processor LLVM's NVPTX backend knows "
                          "(sm_<N> with an optional 'a' or 'f' suffix, "
                          "sm_20 to sm_121f: sm_80, sm_90a, sm_100a, ...)";

  // Every figure must be a device's: the model multiplies and divides by
  // them, so a value out of any GPU's range (2^62 SMs, 1e308 TFLOP/s, 1e-308
  // of the peak) overflows its counts or its times instead of predicting
  // anything. The ranges leave an order of magnitude or more around today's
  // devices.
  auto tooLarge = [&](StringRef key, auto v, auto limit,
                      StringRef why) -> LogicalResult {
    InFlightDiagnostic diag = emitError();
    diag << "#sol.target: '" << key << "' must be at most ";
    if constexpr (std::is_floating_point_v<decltype(v)>)
      diag << formatReal(limit) << " (" << why << "), got " << formatReal(v);
    else
      diag << limit << " (" << why << "), got " << v;
    return diag;
  };
  auto positiveInt = [&](StringRef key, int64_t v, int64_t max,
                         StringRef why) -> LogicalResult {
    if (v <= 0)
      return emitError() << "#sol.target: '" << key
                         << "' must be positive, got " << v;
    if (v > max)
      return tooLarge(key, v, max, why);
    return success();
  };
  auto atLeast = [&](StringRef key, int64_t v, int64_t min,
                     StringRef why) -> LogicalResult {
    if (v > 0 && v < min)
      return emitError() << "#sol.target: '" << key << "' must be at least "
                         << min << " (" << why << "), got " << v;
    return success();
  };
  auto realAtLeast = [&](StringRef key, double v, double min,
                         StringRef why) -> LogicalResult {
    if (v > 0 && v < min)
      return emitError() << "#sol.target: '" << key << "' must be at least "
                         << formatReal(min) << " (" << why << "), got "
                         << formatReal(v);
    return success();
  };
  auto positive = [&](StringRef key, double v, double min, double max,
                      StringRef why) -> LogicalResult {
    if (!(v > 0))
      return emitError() << "#sol.target: '" << key
                         << "' must be positive, got " << formatReal(v);
    if (v > max)
      return tooLarge(key, v, max, why);
    return realAtLeast(key, v, min, why);
  };
  auto nonNegative = [&](StringRef key, double v, double min, double max,
                         StringRef why) -> LogicalResult {
    if (!(v >= 0))
      return emitError() << "#sol.target: '" << key
                         << "' must be >= 0 (0: no such path), got "
                         << formatReal(v);
    if (v > max)
      return tooLarge(key, v, max, why);
    return realAtLeast(key, v, min, why);
  };
  auto fraction = [&](StringRef key, double v) -> LogicalResult {
    if (!(v > 0 && v <= 1))
      return emitError() << "#sol.target: '" << key
                         << "' must be a fraction in (0, 1], got "
                         << formatReal(v);
    return realAtLeast(key, v, 0.01,
                       "no path reaches less than 1% of its peak");
  };
  constexpr StringLiteral kPeak = "between 1 GFLOP/s and 1 EFLOP/s";
  constexpr StringLiteral kRate = "between 1 GB/s and 10 PB/s";
  if (failed(positiveInt("sm_count", smCount, 1024,
                         "no GPU has more than a few hundred SMs")) ||
      failed(positiveInt("clock_mhz", clockMhz, 10000, "10 GHz")) ||
      failed(nonNegative("f16_tflops", f16Tflops, 1e-3, 1e6, kPeak)) ||
      failed(nonNegative("bf16_tflops", bf16Tflops, 1e-3, 1e6, kPeak)) ||
      failed(nonNegative("tf32_tflops", tf32Tflops, 1e-3, 1e6, kPeak)) ||
      failed(nonNegative("fp8_tflops", fp8Tflops, 1e-3, 1e6, kPeak)) ||
      failed(positive("f32_simt_tflops", f32SimtTflops, 1e-3, 1e6, kPeak)) ||
      failed(positive("hbm_gbps", hbmGbps, 1, 1e7, kRate)) ||
      failed(positive("l2_gbps", l2Gbps, 1, 1e7, kRate)) ||
      failed(positiveInt("l2_bytes", l2Bytes, int64_t(1) << 40, "1 TiB")) ||
      failed(positiveInt("smem_per_sm_bytes", smemPerSmBytes, int64_t(1) << 24,
                         "16 MiB")) ||
      failed(atLeast("smem_per_sm_bytes", smemPerSmBytes, 1024, "1 KiB")) ||
      failed(positiveInt("regs_per_sm", regsPerSm, int64_t(1) << 20,
                         "1M registers")) ||
      failed(atLeast("regs_per_sm", regsPerSm, 8192,
                     "every CUDA SM has 8192 to 65536 32-bit registers")) ||
      failed(nonNegative("launch_us", launchUs, 0, 1e6, "one second")) ||
      failed(fraction("mma_efficiency", mmaEfficiency)) ||
      failed(fraction("hbm_efficiency", hbmEfficiency)))
    return failure();
  return success();
}

double TargetAttr::getMatmulPeakFlops(Type elementType) const {
  if (elementType.isF16())
    return getF16Tflops() * 1e12;
  if (elementType.isBF16())
    return getBf16Tflops() * 1e12;
  if (elementType.isF32())
    return getF32SimtTflops() * 1e12;
  if (isa<Float8E4M3FNType, Float8E5M2Type>(elementType))
    return getFp8Tflops() * 1e12;
  return 0;
}

Attribute TargetAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  auto emitErrorAtLoc = [&] { return parser.emitError(loc); };
  if (parser.parseLess())
    return {};

  // Short form: a preset by name.
  std::string presetName;
  if (succeeded(parser.parseOptionalString(&presetName))) {
    if (parser.parseGreater())
      return {};
    const Preset *preset = lookupPreset(presetName);
    if (!preset) {
      parser.emitError(loc) << "unknown #sol.target preset '" << presetName
                            << "'; known presets: " << knownPresetList();
      return {};
    }
    return preset->make().getChecked(emitErrorAtLoc, ctx);
  }

  // Long form: every field as `key = value`.
  TargetParams params;
  llvm::StringSet<> seen;
  auto parseEntry = [&]() -> ParseResult {
    SMLoc keyLoc = parser.getCurrentLocation();
    std::string key;
    if (parser.parseKeywordOrString(&key) || parser.parseEqual())
      return failure();
    const Field *field = lookupField(key);
    if (!field)
      return parser.emitError(keyLoc)
             << "unknown #sol.target field '" << key
             << "'; known fields: " << knownFieldList();
    if (!seen.insert(key).second)
      return parser.emitError(keyLoc)
             << "#sol.target field '" << key << "' given twice";
    switch (field->kind) {
    case FieldKind::String:
      return parser.parseString(&(params.*(field->str)));
    case FieldKind::Integer:
      return parser.parseInteger(params.*(field->integer));
    case FieldKind::Real: {
      FailureOr<Real> value = parseReal(parser);
      if (failed(value))
        return failure();
      params.*(field->real) = *value;
      return success();
    }
    }
    llvm_unreachable("unhandled field kind");
  };
  if (parser.parseCommaSeparatedList(parseEntry) || parser.parseGreater())
    return {};
  for (const Field &f : kFields)
    if (!seen.contains(f.key)) {
      parser.emitError(loc) << "#sol.target is missing field '" << f.key
                            << "' (or name a preset: #sol.target<\"h200\">)";
      return {};
    }
  return params.getChecked(emitErrorAtLoc, ctx);
}

void TargetAttr::print(AsmPrinter &printer) const {
  TargetParams params = TargetParams::fromAttr(*this);
  if (const Preset *preset = lookupPreset(getName())) {
    if (getTargetPreset(getContext(), preset->name) == *this) {
      printer << "<\"" << preset->name << "\">";
      return;
    }
  }
  printer << "<";
  llvm::interleaveComma(kFields, printer, [&](const Field &f) {
    printer << f.key << " = ";
    switch (f.kind) {
    case FieldKind::String:
      printer.printString(params.*(f.str));
      break;
    case FieldKind::Integer:
      printer << params.*(f.integer);
      break;
    case FieldKind::Real:
      printReal(printer, params.*(f.real));
      break;
    }
  });
  printer << ">";
}

//===----------------------------------------------------------------------===//
// JSON target files
//===----------------------------------------------------------------------===//

FailureOr<TargetAttr>
mlir::sol::parseTargetJSON(MLIRContext *context, StringRef json,
                           function_ref<InFlightDiagnostic()> emitError) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(json);
  if (!value) {
    std::string message = llvm::toString(value.takeError());
    return emitError() << "invalid JSON in target description: " << message;
  }
  const llvm::json::Object *object = value->getAsObject();
  if (!object)
    return emitError() << "target description must be a JSON object";

  TargetParams params;
  llvm::StringSet<> seen;
  if (const llvm::json::Value *base = object->get("base")) {
    std::optional<StringRef> baseName = base->getAsString();
    if (!baseName)
      return emitError() << "target description: 'base' must be a string "
                            "naming a preset";
    const Preset *preset = lookupPreset(*baseName);
    if (!preset)
      return emitError() << "target description: unknown base preset '"
                         << *baseName
                         << "'; known presets: " << knownPresetList();
    params = preset->make();
    for (const Field &f : kFields)
      seen.insert(f.key);
  }

  // Walk keys in sorted order so that the first error reported does not
  // depend on the hash order of the object.
  SmallVector<StringRef> keys;
  for (const auto &kv : *object)
    keys.push_back(kv.first);
  llvm::sort(keys);
  for (StringRef key : keys) {
    if (key == "base")
      continue;
    const llvm::json::Value &v = *object->get(key);
    const Field *field = lookupField(key);
    if (!field)
      return emitError() << "target description: unknown field '" << key
                         << "'; known fields: base, " << knownFieldList();
    seen.insert(key);
    switch (field->kind) {
    case FieldKind::String: {
      std::optional<StringRef> s = v.getAsString();
      if (!s)
        return emitError() << "target description: '" << key
                           << "' must be a string";
      params.*(field->str) = s->str();
      break;
    }
    case FieldKind::Integer: {
      std::optional<int64_t> i = v.getAsInteger();
      if (!i)
        return emitError() << "target description: '" << key
                           << "' must be an integer";
      params.*(field->integer) = *i;
      break;
    }
    case FieldKind::Real: {
      std::optional<double> d = v.getAsNumber();
      if (!d)
        return emitError() << "target description: '" << key
                           << "' must be a number";
      params.*(field->real) = *d;
      break;
    }
    }
  }
  for (const Field &f : kFields)
    if (!seen.contains(f.key))
      return emitError() << "target description is missing field '" << f.key
                         << "' (or give \"base\": \"<preset>\")";
  TargetAttr attr = params.getChecked(emitError, context);
  if (!attr)
    return failure();
  return attr;
}

FailureOr<TargetAttr>
mlir::sol::loadTargetFile(MLIRContext *context, StringRef path,
                          function_ref<InFlightDiagnostic()> emitError) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return emitError() << "cannot read target file '" << path
                       << "': " << buffer.getError().message();
  return parseTargetJSON(context, (*buffer)->getBuffer(), [&] {
    InFlightDiagnostic diag = emitError();
    diag << "in target file '" << path << "': ";
    return diag;
  });
}

LogicalResult DimRangeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t min, int64_t max,
                                   ArrayRef<int64_t> hints) {
  // M = 0 is a valid launch (no work), so a range may start at 0; the upper
  // end bounds the grids and workspaces sol-tile sizes for the range.
  if (min < 0 || max < min || max > kMaxDynamicDim)
    return emitError() << "#sol.dim_range: need 0 <= min <= max <= "
                       << kMaxDynamicDim << ", got min = " << min
                       << ", max = " << max;
  for (int64_t hint : hints)
    if (hint < min || hint > max)
      return emitError() << "#sol.dim_range: hint " << hint
                         << " lies outside " << min << ".." << max;
  return success();
}

LogicalResult
PlanEntryAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t mMin, int64_t mMax, PlanAttr plan) {
  if (mMin < 0 || mMax < mMin)
    return emitError() << "#sol.plan_entry: need 0 <= m_min <= m_max, got "
                       << mMin << ".." << mMax;
  if (!plan)
    return emitError() << "#sol.plan_entry: no plan";
  return success();
}
