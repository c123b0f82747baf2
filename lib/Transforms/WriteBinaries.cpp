//===- WriteBinaries.cpp - PTX and cubin files out of gpu.binary ops ------===//
//
// The last step of sol-to-ptx: kernels leave the compiler as files the
// runtime loads (PTX for any driver, a cubin assembled ahead of time so the
// first launch pays no JIT), named after the kernel like its manifest.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/Fusion.h"
#include "SolDialect/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::sol {
#define GEN_PASS_DEF_SOLWRITEBINARIESPASS
#include "SolDialect/Passes.h.inc"
} // namespace mlir::sol

using namespace mlir;
using namespace mlir::sol;

/// ptxas from the given toolkit, $CUDA_HOME, /usr/local/cuda, then PATH.
static std::string findPtxas(StringRef cudaPath) {
  SmallVector<std::string> roots;
  if (!cudaPath.empty())
    roots.push_back(cudaPath.str());
  if (std::optional<std::string> home = llvm::sys::Process::GetEnv("CUDA_HOME"))
    roots.push_back(*home);
  roots.push_back("/usr/local/cuda");
  for (const std::string &root : roots) {
    llvm::SmallString<256> candidate(root);
    llvm::sys::path::append(candidate, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(candidate))
      return candidate.str().str();
  }
  if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName("ptxas"))
    return *onPath;
  return "";
}

namespace {
struct WriteBinariesPass
    : sol::impl::SolWriteBinariesPassBase<WriteBinariesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (dir.empty()) {
      getModuleDiagnosticAnchor(module)->emitError(
          "sol-write-binaries: no 'dir' given");
      return signalPassFailure();
    }
    if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
      getModuleDiagnosticAnchor(module)->emitError()
          << "sol-write-binaries: cannot create '" << dir
          << "': " << ec.message();
      return signalPassFailure();
    }
    std::string ptxas;
    if (cubin) {
      ptxas = findPtxas(cudaPath);
      if (ptxas.empty()) {
        getModuleDiagnosticAnchor(module)->emitError(
            "sol-write-binaries: ptxas not found (set CUDA_HOME "
            "or cuda-path, or pass cubin=false)");
        return signalPassFailure();
      }
    }
    for (auto binary : module.getOps<gpu::BinaryOp>()) {
      if (failed(writeBinary(binary, ptxas)))
        return signalPassFailure();
    }
  }

  LogicalResult writeBinary(gpu::BinaryOp binary, StringRef ptxas) {
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      if (object.getFormat() != gpu::CompilationTarget::Assembly)
        return binary.emitError("sol-write-binaries: expected PTX objects "
                                "(gpu-module-to-binary format=isa)");
      auto nvvmTarget = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget());
      if (!nvvmTarget)
        return binary.emitError("sol-write-binaries: not an NVVM object");
      // The name becomes a file name: hand-written IR could say "../x".
      if (std::string why = whyNotSafeKernelName(binary.getSymName());
          !why.empty())
        return binary.emitError("sol-write-binaries: binary @")
               << binary.getSymName() << " cannot name a file: " << why;
      llvm::SmallString<256> ptxPath(dir);
      llvm::sys::path::append(ptxPath, binary.getSymName() + ".ptx");
      {
        std::error_code ec;
        llvm::raw_fd_ostream os(ptxPath, ec);
        if (ec)
          return binary.emitError("sol-write-binaries: cannot write '")
                 << ptxPath << "': " << ec.message();
        os << object.getObject().getValue();
      }
      if (ptxas.empty())
        continue;
      llvm::SmallString<256> cubinPath(dir);
      llvm::sys::path::append(cubinPath, binary.getSymName() + ".cubin");
      llvm::SmallString<128> logPath;
      llvm::sys::fs::createTemporaryFile("sol-ptxas", "log", logPath);
      std::string arch = "-arch=" + nvvmTarget.getChip().str();
      SmallVector<StringRef> argv = {ptxas,   arch, "-O3",
                                     ptxPath, "-o", cubinPath};
      std::optional<StringRef> redirects[] = {std::nullopt, logPath.str(),
                                              logPath.str()};
      std::string error;
      int rc = llvm::sys::ExecuteAndWait(ptxas, argv, std::nullopt, redirects,
                                         0, 0, &error);
      if (rc != 0) {
        std::string log;
        if (auto buffer = llvm::MemoryBuffer::getFile(logPath))
          log = (*buffer)->getBuffer().str();
        llvm::sys::fs::remove(logPath);
        return binary.emitError("sol-write-binaries: ptxas failed on '")
               << ptxPath << "': " << (error.empty() ? log : error);
      }
      llvm::sys::fs::remove(logPath);
    }
    return success();
  }
};
} // namespace
