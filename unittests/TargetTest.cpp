//===- TargetTest.cpp - presets, JSON target files, assembly round trip ---===//

#include "SolDialect/Target.h"
#include "SolDialect/KernelPath.h"
#include "SolDialect/SolDialect.h"
#include "SolDialect/TilePlan.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include "gtest/gtest.h"

#include <set>

using namespace mlir;
using namespace mlir::sol;

namespace {

class TargetTest : public ::testing::Test {
protected:
  TargetTest() { context.loadDialect<SolDialect>(); }

  /// Parses `json`, capturing the diagnostic text in `errors`.
  FailureOr<TargetAttr> parse(StringRef json) {
    errors.clear();
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      errors += diag.str();
      return success();
    });
    return parseTargetJSON(
        &context, json, [&] { return emitError(UnknownLoc::get(&context)); });
  }

  MLIRContext context;
  std::string errors;
};

TEST_F(TargetTest, PresetNamesAreSortedAndAllLoad) {
  ArrayRef<StringRef> names = getTargetPresetNames();
  ASSERT_EQ(names.size(), 6u);
  EXPECT_TRUE(llvm::is_sorted(names));
  for (StringRef name : names) {
    TargetAttr target = getTargetPreset(&context, name);
    ASSERT_TRUE(target) << name.str();
    EXPECT_EQ(target.getName(), name);
  }
}

TEST_F(TargetTest, L40sPresetIsAdaWithFp8OnMmaSync) {
  // Datasheet figures (dense) and sm_89's limits: the preset that gives
  // fp8 to mma.sync's m16n8k32 by default (isMmaSyncFp8DefaultOnChip).
  TargetAttr l40s = getTargetPreset(&context, "l40s");
  ASSERT_TRUE(l40s);
  EXPECT_EQ(l40s.getChip(), "sm_89");
  EXPECT_EQ(l40s.getSmCount(), 142);
  EXPECT_DOUBLE_EQ(l40s.getF16Tflops(), 362);
  EXPECT_DOUBLE_EQ(l40s.getFp8Tflops(), 733);
  EXPECT_DOUBLE_EQ(l40s.getHbmGbps(), 864);
  EXPECT_EQ(l40s.getSmemPerSmBytes(), 100 * 1024);
  EXPECT_TRUE(isMmaSyncFp8DefaultOnChip(l40s));
  EXPECT_FALSE(
      isMmaSyncFp8DefaultOnChip(getTargetPreset(&context, "h100-sxm")));
}

TEST_F(TargetTest, H200PresetHasDatasheetFigures) {
  TargetAttr h200 = getTargetPreset(&context, "h200");
  ASSERT_TRUE(h200);
  EXPECT_EQ(h200.getChip(), "sm_90a");
  EXPECT_EQ(h200.getSmCount(), 132);
  EXPECT_DOUBLE_EQ(h200.getF16Tflops(), 989);
  EXPECT_DOUBLE_EQ(h200.getHbmGbps(), 4800);
  Builder b(&context);
  EXPECT_DOUBLE_EQ(h200.getMatmulPeakFlops(b.getF16Type()), 989e12);
  EXPECT_DOUBLE_EQ(h200.getMatmulPeakFlops(b.getF32Type()), 66.9e12);
  // Balance ~206 FLOP/B in fp16 (device H200.md).
  EXPECT_NEAR(h200.getBalance(b.getF16Type()), 206.0, 0.1);
}

TEST_F(TargetTest, H100PciePresetHasDatasheetFigures) {
  // The PCIe card: fewer SMs, a lower clock, HBM2e at 2.0 TB/s.
  TargetAttr pcie = getTargetPreset(&context, "h100-pcie");
  ASSERT_TRUE(pcie);
  EXPECT_EQ(pcie.getChip(), "sm_90a");
  EXPECT_EQ(pcie.getSmCount(), 114);
  EXPECT_DOUBLE_EQ(pcie.getF16Tflops(), 756);
  EXPECT_DOUBLE_EQ(pcie.getHbmGbps(), 2000);
  Builder b(&context);
  EXPECT_DOUBLE_EQ(pcie.getMatmulPeakFlops(b.getF16Type()), 756e12);
  // Balance 378 FLOP/B in fp16: the PCIe card is more memory-bound.
  EXPECT_NEAR(pcie.getBalance(b.getF16Type()), 378.0, 0.1);
}

TEST_F(TargetTest, PresetLookupIsCaseInsensitiveAndRejectsUnknown) {
  EXPECT_EQ(getTargetPreset(&context, "H200"),
            getTargetPreset(&context, "h200"));
  EXPECT_FALSE(getTargetPreset(&context, "h300"));
  EXPECT_FALSE(getTargetPreset(&context, ""));
}

TEST_F(TargetTest, A100HasNoFp8Path) {
  TargetAttr a100 = getTargetPreset(&context, "a100-80gb");
  ASSERT_TRUE(a100);
  EXPECT_EQ(a100.getFp8Tflops(), 0.0);
  EXPECT_EQ(a100.getChip(), "sm_80");
}

TEST_F(TargetTest, JsonWithBaseOverridesOnlyNamedFields) {
  FailureOr<TargetAttr> t = parse(
      R"({"base": "h200", "name": "h200-calibrated", "hbm_gbps": 4380.5,
          "launch_us": 2.5})");
  ASSERT_TRUE(succeeded(t)) << errors;
  TargetAttr h200 = getTargetPreset(&context, "h200");
  EXPECT_EQ(t->getName(), "h200-calibrated");
  EXPECT_DOUBLE_EQ(t->getHbmGbps(), 4380.5);
  EXPECT_DOUBLE_EQ(t->getLaunchUs(), 2.5);
  EXPECT_EQ(t->getSmCount(), h200.getSmCount());
  EXPECT_DOUBLE_EQ(t->getF16Tflops(), h200.getF16Tflops());
}

TEST_F(TargetTest, JsonWithoutBaseNeedsEveryField) {
  FailureOr<TargetAttr> t = parse(R"({"name": "x", "chip": "sm_90a"})");
  EXPECT_TRUE(failed(t));
  EXPECT_NE(errors.find("missing field"), std::string::npos) << errors;
}

TEST_F(TargetTest, JsonSyntaxErrorIsReported) {
  EXPECT_TRUE(failed(parse(R"({"base": "h200",)")));
  EXPECT_NE(errors.find("invalid JSON"), std::string::npos) << errors;
}

TEST_F(TargetTest, JsonMustBeAnObject) {
  EXPECT_TRUE(failed(parse("[1, 2]")));
  EXPECT_NE(errors.find("must be a JSON object"), std::string::npos) << errors;
}

TEST_F(TargetTest, JsonUnknownFieldIsNamed) {
  EXPECT_TRUE(failed(parse(R"({"base": "h200", "hbm_tbps": 4.8})")));
  EXPECT_NE(errors.find("unknown field 'hbm_tbps'"), std::string::npos)
      << errors;
}

TEST_F(TargetTest, JsonWrongValueTypeIsNamed) {
  EXPECT_TRUE(failed(parse(R"({"base": "h200", "sm_count": "many"})")));
  EXPECT_NE(errors.find("'sm_count' must be an integer"), std::string::npos)
      << errors;
  EXPECT_TRUE(failed(parse(R"({"base": "h200", "sm_count": 13.5})")));
  EXPECT_NE(errors.find("'sm_count' must be an integer"), std::string::npos)
      << errors;
  EXPECT_TRUE(failed(parse(R"({"base": "h200", "chip": 90})")));
  EXPECT_NE(errors.find("'chip' must be a string"), std::string::npos)
      << errors;
}

TEST_F(TargetTest, JsonUnknownBaseListsPresets) {
  EXPECT_TRUE(failed(parse(R"({"base": "h300"})")));
  EXPECT_NE(errors.find("unknown base preset 'h300'"), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("h100-sxm"), std::string::npos) << errors;
}

TEST_F(TargetTest, JsonInvalidValueIsRejectedByTheVerifier) {
  EXPECT_TRUE(failed(parse(R"({"base": "h200", "hbm_gbps": -1})")));
  EXPECT_NE(errors.find("'hbm_gbps' must be positive"), std::string::npos)
      << errors;
  EXPECT_TRUE(failed(parse(R"({"base": "h200", "mma_efficiency": 1.5})")));
  EXPECT_NE(errors.find("'mma_efficiency' must be a fraction"),
            std::string::npos)
      << errors;
}

TEST_F(TargetTest, MissingFileIsReportedWithItsPath) {
  errors.clear();
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    errors += diag.str();
    return success();
  });
  FailureOr<TargetAttr> t =
      loadTargetFile(&context, "/nonexistent/sol-target.json",
                     [&] { return emitError(UnknownLoc::get(&context)); });
  EXPECT_TRUE(failed(t));
  EXPECT_NE(errors.find("/nonexistent/sol-target.json"), std::string::npos)
      << errors;
}

TEST_F(TargetTest, FileRoundTripsThroughDisk) {
  SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("sol-target", "json", path));
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << R"({"base": "a100-80gb", "launch_us": 4.0})";
  }
  FailureOr<TargetAttr> t = loadTargetFile(
      &context, path, [&] { return emitError(UnknownLoc::get(&context)); });
  llvm::sys::fs::remove(path);
  ASSERT_TRUE(succeeded(t));
  EXPECT_EQ(t->getName(), "a100-80gb");
  EXPECT_DOUBLE_EQ(t->getLaunchUs(), 4.0);
}

TEST_F(TargetTest, PresetPrintsShortAndCustomPrintsEveryFieldAndRoundTrips) {
  TargetAttr h200 = getTargetPreset(&context, "h200");
  std::string printed;
  llvm::raw_string_ostream(printed) << h200;
  EXPECT_EQ(printed, "#sol.target<\"h200\">");

  FailureOr<TargetAttr> custom =
      parse(R"({"base": "h200", "hbm_gbps": 4321.125, "l2_bytes": 12345})");
  ASSERT_TRUE(succeeded(custom));
  std::string long_form;
  llvm::raw_string_ostream(long_form) << *custom;
  EXPECT_NE(long_form.find("hbm_gbps = 4321.125"), std::string::npos)
      << long_form;
  Attribute reparsed = parseAttribute(long_form, &context);
  EXPECT_EQ(reparsed, *custom);
}

// The chip table stands in for LLVM's NVPTX processor list (which aborts on
// a processor it lacks): it must name exactly the processors of the backend
// sol links, so an LLVM upgrade that adds or drops one fails here.
TEST_F(TargetTest, ChipTableMatchesLLVMNVPTXProcessors) {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTargetMC();
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string error;
  const llvm::Target *nvptx = llvm::TargetRegistry::lookupTarget(triple, error);
  ASSERT_TRUE(nvptx) << error;
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      nvptx->createMCSubtargetInfo(triple, "sm_80", ""));
  ASSERT_TRUE(subtarget);
  std::set<std::string> llvmChips;
  for (const llvm::SubtargetSubTypeKV &cpu :
       subtarget->getAllProcessorDescriptions())
    llvmChips.insert(cpu.Key);
  std::set<std::string> solChips;
  for (const ChipInfo &chip : getKnownChips())
    solChips.insert(chip.name.str());
  EXPECT_EQ(solChips, llvmChips);
}

TEST_F(TargetTest, PtxVersionCoversTheChip) {
  const ChipInfo *b200 = lookupChip("sm_100a");
  ASSERT_TRUE(b200);
  EXPECT_EQ(b200->smVersion, 100);
  EXPECT_TRUE(b200->archSpecific());
  EXPECT_EQ(getPtxVersion(*b200), 86);
  // sol's floor, 8.0, where the chip's own minimum is older.
  EXPECT_EQ(getPtxVersion(*lookupChip("sm_80")), 80);
  EXPECT_EQ(getPtxVersion(*lookupChip("sm_90a")), 80);
  EXPECT_EQ(lookupChip("sm_89a"), nullptr);
  EXPECT_EQ(lookupChip("sm_999"), nullptr);
  EXPECT_EQ(lookupChip("sm_-1"), nullptr);
}

TEST_F(TargetTest, JsonOutOfRangeFiguresAreRefused) {
  EXPECT_TRUE(
      failed(parse(R"({"base": "h200", "sm_count": 4611686018427387904})")));
  EXPECT_NE(errors.find("'sm_count' must be at most 1024"), std::string::npos)
      << errors;
  EXPECT_TRUE(failed(parse(R"({"base": "h200", "f16_tflops": 1e308})")));
  EXPECT_NE(errors.find("'f16_tflops' must be at most"), std::string::npos)
      << errors;
  EXPECT_TRUE(failed(parse(R"({"base": "h200", "hbm_gbps": 1e-308})")));
  EXPECT_NE(errors.find("'hbm_gbps' must be at least 1.0"), std::string::npos)
      << errors;
  EXPECT_TRUE(failed(parse(R"({"base": "h200", "regs_per_sm": 1})")));
  EXPECT_NE(errors.find("'regs_per_sm' must be at least 8192"),
            std::string::npos)
      << errors;
  EXPECT_TRUE(failed(parse(R"({"base": "h200", "chip": "sm_89a"})")));
  EXPECT_NE(errors.find("chip 'sm_89a' is not a processor"), std::string::npos)
      << errors;
  // Every preset keeps the ranges.
  for (StringRef name : getTargetPresetNames())
    EXPECT_TRUE(getTargetPreset(&context, name)) << name.str();
}

// The register budgets of plans are computed without the target, for
// kRegistersPerSm: every preset has that many.
TEST_F(TargetTest, PresetsHaveTheRegistersTheBudgetsAssume) {
  for (StringRef name : getTargetPresetNames())
    EXPECT_EQ(getTargetPreset(&context, name).getRegsPerSm(), kRegistersPerSm)
        << name.str();
}

TEST_F(TargetTest, LaunchLimitsAreCudas) {
  EXPECT_EQ(whyNotLaunchable({132, 1, 1}, {384, 1, 1}), "");
  EXPECT_EQ(whyNotLaunchable({kMaxGridX, kMaxGridYZ, kMaxGridYZ}, {1024, 1, 1}),
            "");
  EXPECT_NE(whyNotLaunchable({kMaxGridX + 1, 1, 1}, {32, 1, 1}), "");
  EXPECT_NE(whyNotLaunchable({1, kMaxGridYZ + 1, 1}, {32, 1, 1}), "");
  EXPECT_NE(whyNotLaunchable({1, 1, 1}, {32, 32, 2}), "");
  EXPECT_NE(whyNotLaunchable({0, 1, 1}, {32, 1, 1}), "");
  EXPECT_NE(whyNotLaunchable({1, 1}, {32, 1, 1}), "");
}

} // namespace
