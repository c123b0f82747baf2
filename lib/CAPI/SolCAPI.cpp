//===- SolCAPI.cpp - the sol C API ----------------------------------------===//
//
// Implements include/sol-c/sol.h. A compile runs sol-opt's sol-to-ptx
// pipeline in process on a fresh MLIRContext, lets the pipeline write its
// manifests, PTX and cubins into a private temporary directory (the same
// files sol-opt writes, so the C API cannot drift from the command line),
// reads them back into memory and removes the directory. Every diagnostic is
// captured and returned as a string; nothing here aborts on bad input.
//
// Loading and launching go through the no-LLVM runtime's CudaDriver, which
// dlopens libcuda, so this library links and loads on machines without a
// GPU and reports a clean error at load time instead.
//
//===----------------------------------------------------------------------===//

#include "sol-c/sol.h"

#include "SolDialect/Passes.h"
#include "SolDialect/Pipelines.h"
#include "SolDialect/SolDialect.h"
#include "SolDialect/Target.h"
#include "runtime/CudaDriver.h"
#include "runtime/Launch.h"
#include "runtime/Manifest.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <signal.h>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <unordered_map>
#include <vector>

using namespace mlir;
namespace cuda = ::sol::runtime::cuda;

#define SOL_CAPI_VERSION "0.1.0"

/// One row of a dynamic kernel's plan table: its GPU kernel's binaries.
struct SolPlanBinary {
  std::string name, ptx, cubin;
};

struct SolKernel {
  std::string name, ptx, cubin, manifest;
  /// A dynamic kernel's rows, in the manifest's "plans" order (its ptx and
  /// cubin above are empty); none for a static kernel.
  std::vector<SolPlanBinary> plans;
};

struct sol_compilation {
  std::vector<SolKernel> kernels;
  std::string hostProgram;
};

struct sol_loaded_kernel {
  /// A static kernel's module and function; a dynamic kernel's first row's.
  cuda::CUmodule module = nullptr;
  cuda::CUfunction function = nullptr;
  /// A dynamic kernel's modules and functions, one per "plans" row (the
  /// first is also `module`, `function`).
  std::vector<cuda::CUmodule> rowModules;
  std::vector<cuda::CUfunction> rowFunctions;
  ::sol::runtime::Manifest manifest;
  /// The CUDA device (ordinal) whose primary context holds the module.
  int device = 0;

  /// A dynamic kernel resolved at one M: the manifest at M and its row's
  /// function. Resolving copies the whole manifest (program, args, rows).
  /// Done on every launch, dynamic launches from Python ran 7-11 us slower
  /// than static ones with the same plans at M = 8..37 on the H200
  /// (2026-12-01, bench/results/2026-12-01-h200-dynamic/sweep.json);
  /// resolved once per M, 0-3 us (sweep-resolve-cache.json). Decode and
  /// prefill see few distinct M.
  struct AtDim {
    ::sol::runtime::Manifest manifest;
    cuda::CUfunction function = nullptr;
  };
  /// The most M kept resolved (then the cache starts over).
  static constexpr size_t kMaxResolvedDims = 256;
  std::mutex resolvedMutex;
  std::unordered_map<int64_t, std::shared_ptr<const AtDim>> resolved;

  /// The kernel resolved at `dim` (cached), or null with `message` set.
  std::shared_ptr<const AtDim> resolve(int64_t dim, std::string &message) {
    std::lock_guard<std::mutex> lock(resolvedMutex);
    auto it = resolved.find(dim);
    if (it != resolved.end())
      return it->second;
    auto atDim = std::make_shared<AtDim>();
    if (!::sol::runtime::specializeManifest(manifest, dim, atDim->manifest,
                                            message))
      return nullptr;
    atDim->function = function;
    for (size_t i = 0; i < manifest.plans.size(); ++i)
      if (manifest.plans[i].mMin == atDim->manifest.rowMin)
        atDim->function = rowFunctions[i];
    if (resolved.size() >= kMaxResolvedDims)
      resolved.clear();
    resolved.emplace(dim, atDim);
    return atDim;
  }
};

/// A heap copy the caller frees with sol_string_free (NULL when out of
/// memory).
static char *copyString(const char *text, size_t size) {
  char *copy = static_cast<char *>(std::malloc(size + 1));
  if (copy) {
    std::memcpy(copy, text, size);
    copy[size] = '\0';
  }
  return copy;
}

static char *copyString(const std::string &text) {
  return copyString(text.data(), text.size());
}

/// Sets `*error` (when asked for) and returns the failure status.
static int fail(char **error, const std::string &message) {
  if (error)
    *error = copyString(message);
  return 1;
}

/// fail() that allocates nothing but the copy: for out-of-memory paths.
static int fail(char **error, const char *message) {
  if (error)
    *error = copyString(message, std::strlen(message));
  return 1;
}

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

/// The pass registry is global and not thread-safe to fill: register the
/// passes the textual part of the pipeline names once per process.
static void registerPassesOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerAllPasses();
    mlir::sol::registerSolPasses();
    mlir::sol::registerSolPipelines();
  });
}

/// What sol-opt registers: the sol dialect, every upstream dialect and
/// extension, and the GPU-to-LLVM-IR translations gpu-module-to-binary uses.
static void buildRegistry(DialectRegistry &registry) {
  registry.insert<mlir::sol::SolDialect>();
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllGPUToLLVMIRTranslations(registry);
}

/// "file:line:col" for the locations users can act on, else MLIR's form.
static void printLocation(llvm::raw_ostream &os, Location loc) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc)) {
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn();
    return;
  }
  if (isa<UnknownLoc>(loc)) {
    os << "<input>";
    return;
  }
  if (auto nameLoc = dyn_cast<NameLoc>(loc))
    return printLocation(os, nameLoc.getChildLoc());
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return printLocation(os, callSite.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations()) {
      if (isa<FileLineColLoc>(inner))
        return printLocation(os, inner);
    }
  }
  os << loc;
}

static void printDiagnostic(llvm::raw_ostream &os, Diagnostic &diag) {
  printLocation(os, diag.getLocation());
  switch (diag.getSeverity()) {
  case DiagnosticSeverity::Error:
    os << ": error: ";
    break;
  case DiagnosticSeverity::Warning:
    os << ": warning: ";
    break;
  case DiagnosticSeverity::Note:
    os << ": note: ";
    break;
  case DiagnosticSeverity::Remark:
    os << ": remark: ";
    break;
  }
  os << diag << "\n";
  for (Diagnostic &note : diag.getNotes())
    printDiagnostic(os, note);
}

/// Removes a temporary directory however the compile ends.
namespace {
struct TempDir {
  llvm::SmallString<128> path;
  ~TempDir() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
  }
};
} // namespace

static bool readFile(const llvm::Twine &path, std::string &contents) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return false;
  contents = (*buffer)->getBuffer().str();
  return true;
}

/// Pins `target` (a preset name or a target JSON file) on `module`.
static LogicalResult attachTarget(ModuleOp module, StringRef target) {
  MLIRContext *context = module.getContext();
  mlir::sol::TargetAttr attr = mlir::sol::getTargetPreset(context, target);
  if (!attr) {
    if (!llvm::sys::fs::exists(target))
      return module.emitError()
             << "unknown target '" << target << "': neither a preset (known: "
             << llvm::join(mlir::sol::getTargetPresetNames(), ", ")
             << ") nor an existing target JSON file";
    FailureOr<mlir::sol::TargetAttr> loaded = mlir::sol::loadTargetFile(
        context, target, [&] { return module.emitError(); });
    if (failed(loaded))
      return failure();
    attr = *loaded;
  }
  module->setAttr(mlir::sol::SolDialect::kTargetAttrName, attr);
  return success();
}

/// The launches each host function makes, in order, and where every kernel
/// operand and function result comes from: {"arg": i} (the function's
/// argument i) or {"kernel": k, "result": j} (result j of launch k). Anything
/// else (a constant or op left on the host) is {"unsupported": "<op>"}, for
/// the caller to refuse. The lowering to GPU keeps only the kernels, so this
/// is read off the sol level, once every kernel is formed and planned.
static llvm::json::Array describeHostProgram(ModuleOp module) {
  llvm::json::Array functions;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    llvm::DenseMap<Value, std::pair<int64_t, int64_t>> kernelResults;
    auto describe = [&](Value value) -> llvm::json::Value {
      if (auto arg = dyn_cast<BlockArgument>(value))
        if (arg.getOwner() == &func.getBody().front())
          return llvm::json::Object{{"arg", arg.getArgNumber()}};
      auto it = kernelResults.find(value);
      if (it != kernelResults.end())
        return llvm::json::Object{{"kernel", it->second.first},
                                  {"result", it->second.second}};
      Operation *def = value.getDefiningOp();
      return llvm::json::Object{
          {"unsupported",
           def ? def->getName().getStringRef().str() : "a block argument"}};
    };
    llvm::json::Array launches, results, hostOps;
    for (Operation &op : func.getBody().front()) {
      if (auto kernel = dyn_cast<mlir::sol::KernelOp>(op)) {
        llvm::json::Array inputs;
        for (Value input : kernel.getInputs())
          inputs.push_back(describe(input));
        for (auto [i, result] : llvm::enumerate(kernel.getResults()))
          kernelResults[result] = {static_cast<int64_t>(launches.size()),
                                   static_cast<int64_t>(i)};
        launches.push_back(llvm::json::Object{{"kernel", kernel.getSymName()},
                                              {"inputs", std::move(inputs)}});
      } else if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        for (Value value : ret.getOperands())
          results.push_back(describe(value));
      } else {
        hostOps.push_back(op.getName().getStringRef().str());
      }
    }
    functions.push_back(llvm::json::Object{{"name", func.getSymName()},
                                           {"num_args", func.getNumArguments()},
                                           {"launches", std::move(launches)},
                                           {"results", std::move(results)},
                                           {"host_ops", std::move(hostOps)}});
  }
  return functions;
}

namespace {
/// Records the host program just before convert-sol-to-linalg: kernels are
/// formed, tiled and costed there, and the host side is still sol.
struct HostProgramRecorder : public PassInstrumentation {
  std::string &json;
  explicit HostProgramRecorder(std::string &json) : json(json) {}
  void runBeforePass(Pass *pass, Operation *op) override {
    auto module = dyn_cast<ModuleOp>(op);
    if (!module || pass->getArgument() != "convert-sol-to-linalg")
      return;
    llvm::raw_string_ostream os(json);
    os << llvm::json::Value(describeHostProgram(module));
  }
};
} // namespace

using mlir::sol::SolToPTXPipelineOptions;

/// The first of sol-to-ptx's options that `options` was given and the
/// library sets itself, if any: where the outputs go (a private directory it
/// reads back, cubins included) and what only a terminal reads (remarks, the
/// cost report).
static std::optional<StringRef>
findLibraryOwnedOption(const SolToPTXPipelineOptions &options) {
  const llvm::cl::Option *owned[] = {&options.outDir, &options.cubin,
                                     &options.remarks, &options.report};
  for (const llvm::cl::Option *option : owned)
    if (option->getNumOccurrences())
      return option->ArgStr;
  return std::nullopt;
}

/// Parses sol_compile_with_options' text with sol-to-ptx's own options
/// parser, so that it takes what `sol-opt --sol-to-ptx="..."` takes. Values
/// are checked where sol-opt checks them: by the passes, as diagnostics.
static std::unique_ptr<SolToPTXPipelineOptions>
parseCompileOptions(StringRef text, std::string &message) {
  auto options = std::make_unique<SolToPTXPipelineOptions>();
  std::string parserMessage;
  llvm::raw_string_ostream parserStream(parserMessage);
  if (failed(options->parseFromString(text, parserStream))) {
    // The parser reports an unknown key to `parserStream`; llvm::cl reports
    // a value its option's type refuses (fast-math=maybe) to llvm::errs().
    StringRef why = StringRef(parserMessage).trim();
    why.consume_front("<Pass-Options-Parser>: ");
    if (why.empty())
      why = "a value is not of its option's type (llvm::cl wrote which to "
            "stderr)";
    std::string known;
    llvm::raw_string_ostream knownStream(known);
    SolToPTXPipelineOptions().print(knownStream);
    message = ("sol_compile: bad options '" + text + "': " + why +
               " (sol-to-ptx's options, with their defaults: " + known + ")")
                  .str();
    return nullptr;
  }
  if (std::optional<StringRef> key = findLibraryOwnedOption(*options)) {
    message = ("sol_compile: option '" + *key +
               "' is the library's own: it writes its outputs to a private "
               "directory and returns them")
                  .str();
    return nullptr;
  }
  return options;
}

//===----------------------------------------------------------------------===//
// Crash containment
//===----------------------------------------------------------------------===//
//
// The compile runs on a thread of its own under an llvm::CrashRecoveryContext
// (what upstream's PassManager does for its crash reproducers, and clang for
// an in-process cc1): a signal there (SIGSEGV, SIGABRT from an uncaught
// exception or an assertion, SIGFPE, SIGBUS, SIGILL, SIGTRAP) and LLVM's
// report_fatal_error (which would otherwise exit(1)) come back to
// sol_compile, which returns an error instead of taking the host process
// down. The signal handlers and LLVM's fatal-error handlers are installed
// only while a compile runs (counted, for concurrent compiles) and the
// previous ones restored after; a signal raised on another thread meanwhile
// goes on to the handler the host had.

namespace {
/// Why a compile stopped abnormally: set by the handlers below on the
/// compile's thread, read by sol_compile once the recovery context returns.
struct CompileAbort {
  enum Reason { None, FatalError, OutOfMemory } reason = None;
  std::string message;
};
/// The compile running on this thread, if any.
thread_local CompileAbort *currentCompile = nullptr;
} // namespace

static void onFatalError(void *, const char *reason, bool) {
  llvm::CrashRecoveryContext *recovery =
      llvm::CrashRecoveryContext::GetCurrent();
  if (currentCompile && recovery) {
    currentCompile->reason = CompileAbort::FatalError;
    currentCompile->message = reason ? reason : "";
    recovery->HandleExit(1);
  }
  // Not a sol compile (another user of LLVM in the process): LLVM's own
  // behaviour, which exits once this returns.
  llvm::errs() << "LLVM ERROR: " << (reason ? reason : "") << "\n";
}

/// Must not allocate (LLVM's contract for bad-alloc handlers).
static void onBadAlloc(void *, const char *reason, bool) {
  llvm::CrashRecoveryContext *recovery =
      llvm::CrashRecoveryContext::GetCurrent();
  if (currentCompile && recovery) {
    currentCompile->reason = CompileAbort::OutOfMemory;
    recovery->HandleExit(1);
  }
  static const char message[] = "LLVM ERROR: out of memory\n";
  (void)!::write(2, message, sizeof(message) - 1);
}

/// The signals llvm::CrashRecoveryContext catches on Unix.
static const int kCrashSignals[] = {SIGABRT, SIGBUS,  SIGFPE,
                                    SIGILL,  SIGSEGV, SIGTRAP};

/// Lets the crash handlers run on the thread's alternate signal stack: a
/// stack overflow (the parser recurses per level of an affine expression,
/// `- - - ... d0`, which brackets do not show) raises SIGSEGV with no stack
/// left for a handler on the thread's own. The recovery context installs
/// its handlers without SA_ONSTACK; the same handlers with it behave the
/// same on threads that have no alternate stack.
static void runCrashHandlersOnAltStack() {
  for (int signal : kCrashSignals) {
    struct sigaction action;
    if (sigaction(signal, nullptr, &action) != 0 ||
        (action.sa_flags & SA_ONSTACK))
      continue;
    if (!(action.sa_flags & SA_SIGINFO) &&
        (action.sa_handler == SIG_DFL || action.sa_handler == SIG_IGN))
      continue;
    action.sa_flags |= SA_ONSTACK;
    sigaction(signal, &action, nullptr);
  }
}

namespace {
/// An alternate signal stack for the calling thread while it lives (the
/// memory is the caller's, and outlives the thread).
class AltSignalStack {
public:
  explicit AltSignalStack(std::vector<char> &memory) {
    stack_t stack = {};
    stack.ss_sp = memory.data();
    stack.ss_size = memory.size();
    installed = sigaltstack(&stack, &previous) == 0;
  }
  ~AltSignalStack() {
    if (installed)
      sigaltstack(&previous, nullptr);
  }

private:
  stack_t previous = {};
  bool installed = false;
};

/// Installs the crash and fatal-error handlers for the duration of one
/// compile; the first of concurrent compiles installs, the last removes.
class ProtectedScope {
public:
  ProtectedScope() {
    std::lock_guard<std::mutex> lock(getMutex());
    if (getCount()++ == 0) {
      llvm::CrashRecoveryContext::Enable();
      runCrashHandlersOnAltStack();
      llvm::install_fatal_error_handler(onFatalError);
      llvm::install_bad_alloc_error_handler(onBadAlloc);
    }
  }
  ~ProtectedScope() {
    std::lock_guard<std::mutex> lock(getMutex());
    if (--getCount() == 0) {
      llvm::remove_bad_alloc_error_handler();
      llvm::remove_fatal_error_handler();
      llvm::CrashRecoveryContext::Disable();
    }
  }

private:
  static std::mutex &getMutex() {
    static std::mutex mutex;
    return mutex;
  }
  static int &getCount() {
    static int count = 0;
    return count;
  }
};
} // namespace

/// The signal behind a crash recovery context's return code (128 + signal).
static std::string describeCrash(int retCode) {
  if (retCode > 128) {
    int signal = retCode - 128;
    const char *name = strsignal(signal);
    return "signal " + std::to_string(signal) + " (" +
           (name ? name : "unknown") + ")";
  }
  return "exit code " + std::to_string(retCode);
}

/// The deepest bracket nesting of `text` outside string literals and
/// comments. The
/// parser recurses per level, and a stack overflow is the one crash no
/// signal handler can catch (it has no stack left to run on): inputs nested
/// deeper than any sol module are refused before they are parsed.
static int64_t getBracketDepth(StringRef text) {
  int64_t depth = 0, deepest = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = std::min(text.find('\n', i), text.size()); // a comment
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ')' || c == ']' || c == '}' ||
                (c == '>' && (i == 0 || text[i - 1] != '-'))) &&
               depth > 0) {
      --depth;
    }
  }
  return deepest;
}

static constexpr int64_t kMaxBracketDepth = 256;
/// The compile thread's stack: far more than a sol module needs, so that the
/// host thread's (possibly small) stack is not the limit.
static constexpr unsigned kCompileStackBytes = 64u << 20;

/// The dialects a sol_compile input may use: sol ops in func.funcs, with
/// arith and tensor ops left on the host (reported as host_ops). The input
/// is parsed with only these registered, so that text for any other dialect
/// is refused by the parser ("dialect 'linalg' is unknown") instead of
/// reaching that dialect's parser and verifier, which are not hardened
/// against hostile input; the full registry is appended after parsing, for
/// the pipeline.
static void buildInputRegistry(DialectRegistry &registry) {
  registry.insert<mlir::sol::SolDialect, func::FuncDialect, arith::ArithDialect,
                  tensor::TensorDialect>();
}

/// Whether `module` holds an op of the sol dialect.
static bool hasSolOps(ModuleOp module) {
  StringRef solNamespace = mlir::sol::SolDialect::getDialectNamespace();
  WalkResult walk = module.walk([&](Operation *op) {
    return op->getName().getDialectNamespace() == solNamespace
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// SOL_CAPI_TEST_FAULT=segv|abort|fatal|oom|llvm-oom|throw makes the next
/// compiles fail that way once they have parsed their input, inside the
/// crash boundary: how test/CAPI proves that each kind of failure comes back
/// as an error string. Unset (always, outside the tests), it does nothing.
static void injectTestFault() {
  const char *fault = std::getenv("SOL_CAPI_TEST_FAULT");
  if (!fault || !*fault)
    return;
  StringRef kind(fault);
  if (kind == "segv")
    std::raise(SIGSEGV);
  else if (kind == "abort")
    std::abort();
  else if (kind == "fatal")
    llvm::report_fatal_error("SOL_CAPI_TEST_FAULT=fatal", false);
  else if (kind == "oom")
    throw std::bad_alloc();
  else if (kind == "llvm-oom")
    llvm::report_bad_alloc_error("SOL_CAPI_TEST_FAULT=llvm-oom");
  else if (kind == "throw")
    throw std::runtime_error("SOL_CAPI_TEST_FAULT=throw");
}

namespace {
/// Everything one compile owns. Heap-allocated and deleted only when the
/// compile returns normally: after a crash its state cannot be trusted, so
/// it is leaked rather than destroyed.
struct CompileJob {
  DialectRegistry inputRegistry, fullRegistry;
  std::unique_ptr<MLIRContext> context;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<PassManager> pm;
};
} // namespace

/// The unprotected compile. Fills `compilation` and returns 0, or sets
/// `message` and returns nonzero; `diagnostics` collects every diagnostic.
/// Reads dynamic kernel `name`'s manifest and each of its rows' binaries,
/// in the manifest's "plans" order, into a new kernel of `compilation`.
static bool readDynamicKernel(StringRef outDir, StringRef name,
                              sol_compilation &compilation,
                              std::string &message) {
  SolKernel kernel;
  kernel.name = name.str();
  llvm::SmallString<256> base(outDir);
  llvm::sys::path::append(base, name);
  auto fail = [&](const std::string &what) {
    message = "sol_compile: " + what + " for kernel '" + kernel.name + "'";
    return false;
  };
  if (!readFile(base + ".json", kernel.manifest))
    return fail("the pipeline wrote no manifest");
  llvm::Expected<llvm::json::Value> manifest =
      llvm::json::parse(kernel.manifest);
  if (!manifest) {
    llvm::consumeError(manifest.takeError());
    return fail("the pipeline wrote a manifest that is not JSON");
  }
  const llvm::json::Object *root = manifest->getAsObject();
  const llvm::json::Array *rows = root ? root->getArray("plans") : nullptr;
  if (!rows || rows->empty())
    return fail("the pipeline wrote a dynamic manifest without plans");
  for (const llvm::json::Value &row : *rows) {
    const llvm::json::Object *entry = row.getAsObject();
    std::optional<StringRef> rowName =
        entry ? entry->getString("kernel") : std::nullopt;
    if (!rowName)
      return fail("a plans row without its kernel's name");
    SolPlanBinary binary;
    binary.name = rowName->str();
    llvm::SmallString<256> rowBase(outDir);
    llvm::sys::path::append(rowBase, binary.name);
    if (!readFile(rowBase + ".ptx", binary.ptx) ||
        !readFile(rowBase + ".cubin", binary.cubin))
      return fail("the pipeline wrote no PTX or cubin of row '" + binary.name +
                  "'");
    kernel.plans.push_back(std::move(binary));
  }
  compilation.kernels.push_back(std::move(kernel));
  return true;
}

static int runCompile(CompileJob &job, StringRef mlirText, const char *target,
                      SolToPTXPipelineOptions &options, StringRef outDir,
                      std::string &diagnostics, sol_compilation &compilation,
                      std::string &message) {
  buildInputRegistry(job.inputRegistry);
  buildRegistry(job.fullRegistry);
  // One thread: diagnostics come out in a stable order, and a host process
  // (Python, a framework) gets no thread pool it did not ask for.
  job.context = std::make_unique<MLIRContext>(job.inputRegistry,
                                              MLIRContext::Threading::DISABLED);
  MLIRContext &context = *job.context;
  // The error string is for people: the message and location, not an IR dump
  // of the failing op.
  context.printOpOnDiagnostic(false);
  // Attributes of the sol dialect (the target) are built before any sol op
  // may have been parsed: load it up front.
  context.getOrLoadDialect<mlir::sol::SolDialect>();

  llvm::raw_string_ostream diagnosticStream(diagnostics);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    printDiagnostic(diagnosticStream, diag);
    return success();
  });
  auto failWithDiagnostics = [&](const char *what) {
    message = diagnostics.empty()
                  ? std::string(what)
                  : std::string(llvm::StringRef(diagnostics).rtrim());
    return 1;
  };

  job.module = parseSourceString<ModuleOp>(mlirText, ParserConfig(&context),
                                           /*sourceName=*/"<input>");
  if (!job.module)
    return failWithDiagnostics("sol_compile: cannot parse the input");
  ModuleOp module = *job.module;
  injectTestFault();
  if (target && *target && failed(attachTarget(module, target)))
    return failWithDiagnostics("sol_compile: bad target");
  if (!hasSolOps(module)) {
    // At the first op: the implicit module of text without `module {}` is
    // at line 0.
    Block *body = module.getBody();
    Location loc = body->empty() ? module.getLoc() : body->front().getLoc();
    emitError(loc) << "the input has no sol op: nothing to compile "
                      "(sol_compile takes func.funcs of sol ops)";
    return failWithDiagnostics("sol_compile: the input has no sol op");
  }
  // The pipeline's dialects (linalg, gpu, nvvm, llvm, ...) and extensions.
  context.appendDialectRegistry(job.fullRegistry);

  job.pm =
      std::make_unique<PassManager>(&context, ModuleOp::getOperationName());
  options.outDir = outDir.str();
  mlir::sol::buildSolToPTXPipeline(*job.pm, options);
  job.pm->addInstrumentation(
      std::make_unique<HostProgramRecorder>(compilation.hostProgram));
  if (failed(job.pm->run(module)))
    return failWithDiagnostics("sol_compile: the sol-to-ptx pipeline failed");

  // Kernels in module order: each static kernel became a gpu.binary named
  // after it, each row of a dynamic kernel's plan table one named
  // <kernel>__m<min>_<max> (its manifest, <kernel>.json, lists them).
  llvm::StringSet<> dynamicKernels;
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    StringRef binaryName = binary.getSymName();
    llvm::SmallString<256> base(outDir);
    llvm::sys::path::append(base, binaryName);
    if (llvm::sys::fs::exists(base + ".json")) {
      SolKernel kernel;
      kernel.name = binaryName.str();
      if (!readFile(base + ".json", kernel.manifest) ||
          !readFile(base + ".ptx", kernel.ptx) ||
          !readFile(base + ".cubin", kernel.cubin)) {
        message = "sol_compile: the pipeline wrote no manifest, PTX or cubin "
                  "for kernel '" +
                  kernel.name + "'";
        return 1;
      }
      compilation.kernels.push_back(std::move(kernel));
      continue;
    }
    size_t row = binaryName.rfind("__m");
    StringRef kernelName = binaryName.substr(0, row);
    if (row == StringRef::npos || !dynamicKernels.insert(kernelName).second)
      continue; // a later row of a dynamic kernel read already
    if (!readDynamicKernel(outDir, kernelName, compilation, message))
      return 1;
  }
  return 0;
}

extern "C" int sol_compile(const char *mlirText, const char *target,
                           sol_compilation **out, char **error) {
  return sol_compile_with_options(mlirText, target, nullptr, out, error);
}

/// sol_compile_with_options, outside the crash boundary.
static int compileWithOptions(const char *mlirText, const char *target,
                              const char *optionText, sol_compilation **out,
                              char **error) {
  if (out)
    *out = nullptr;
  if (!mlirText || !out)
    return fail(error, "sol_compile: mlir_text and out must not be NULL");
  StringRef text(mlirText);
  if (text.trim().empty())
    return fail(error, "sol_compile: the input is empty (expected a module "
                       "of sol ops in func.funcs)");
  int64_t depth = getBracketDepth(text);
  if (depth > kMaxBracketDepth)
    return fail(error, "sol_compile: the input nests brackets " +
                           std::to_string(depth) + " deep (at most " +
                           std::to_string(kMaxBracketDepth) + ")");
  std::string optionError;
  std::unique_ptr<SolToPTXPipelineOptions> options =
      parseCompileOptions(optionText ? optionText : "", optionError);
  if (!options)
    return fail(error, optionError);
  registerPassesOnce();

  // Outside the crash boundary, so it is removed however the compile ends.
  TempDir outDir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("sol-capi", outDir.path))
    return fail(error, "sol_compile: cannot create a temporary directory: " +
                           ec.message());

  auto compilation = std::make_unique<sol_compilation>();
  std::string diagnostics, message;
  int status = 1;
  bool threw = false;
  CompileAbort aborted;
  // The compile thread's alternate signal stack: freed only once that thread
  // has been joined.
  std::vector<char> altStack(std::max<size_t>(SIGSTKSZ, size_t(64) << 10));
  ProtectedScope scope;
  llvm::CrashRecoveryContext recovery;
  bool completed = recovery.RunSafelyOnThread(
      [&] {
        // Not unregistered after a crash: the thread ends right after.
        AltSignalStack signalStack(altStack);
        currentCompile = &aborted;
        auto *job = new CompileJob();
        try {
          status = runCompile(*job, text, target, *options, outDir.path,
                              diagnostics, *compilation, message);
          delete job;
        } catch (const std::bad_alloc &) {
          // Thrown through LLVM's frames, which run no cleanups (they are
          // built without exceptions): the job is as untrustworthy as after
          // a crash, and is leaked too.
          aborted.reason = CompileAbort::OutOfMemory;
        } catch (...) {
          threw = true;
        }
        currentCompile = nullptr;
      },
      kCompileStackBytes);

  if (completed && !threw && aborted.reason == CompileAbort::None) {
    if (status != 0)
      return fail(error, message);
    *out = compilation.release();
    return 0;
  }
  // The compile's state is abandoned (leaked, not destroyed): report what
  // happened, with the diagnostics it had emitted so far.
  std::string report;
  if (aborted.reason == CompileAbort::OutOfMemory) {
    report = "sol_compile: out of memory while compiling (the compile was "
             "abandoned)";
  } else {
    std::string what =
        threw ? "threw an unexpected C++ exception"
        : aborted.reason == CompileAbort::FatalError
            ? "stopped on an LLVM fatal error: " + aborted.message
            : "crashed (" + describeCrash(recovery.RetCode) + ")";
    report = "sol_compile: internal error: the compiler " + what +
             "; this is a sol bug: please report it with the input "
             "(sol-opt --sol-to-ptx on the same text gives a backtrace)";
  }
  StringRef emitted = StringRef(diagnostics).rtrim();
  if (!emitted.empty())
    report += "\n" + emitted.str();
  // Not `compilation`: the crashed thread may have been filling it.
  compilation.release();
  return fail(error, report);
}

extern "C" int sol_compile_with_options(const char *mlirText,
                                        const char *target,
                                        const char *optionText,
                                        sol_compilation **out, char **error) {
  try {
    return compileWithOptions(mlirText, target, optionText, out, error);
  } catch (const std::bad_alloc &) {
    return fail(error, "sol_compile: out of memory");
  }
}

extern "C" void sol_compilation_free(sol_compilation *compilation) {
  delete compilation;
}

extern "C" size_t
sol_compilation_num_kernels(const sol_compilation *compilation) {
  return compilation ? compilation->kernels.size() : 0;
}

static const SolKernel *getKernel(const sol_compilation *compilation,
                                  size_t index) {
  if (!compilation || index >= compilation->kernels.size())
    return nullptr;
  return &compilation->kernels[index];
}

extern "C" const char *sol_kernel_name(const sol_compilation *compilation,
                                       size_t index) {
  const SolKernel *kernel = getKernel(compilation, index);
  return kernel ? kernel->name.c_str() : nullptr;
}

extern "C" const char *sol_kernel_ptx(const sol_compilation *compilation,
                                      size_t index) {
  const SolKernel *kernel = getKernel(compilation, index);
  return kernel ? kernel->ptx.c_str() : nullptr;
}

extern "C" const void *sol_kernel_cubin(const sol_compilation *compilation,
                                        size_t index, size_t *size) {
  const SolKernel *kernel = getKernel(compilation, index);
  if (size)
    *size = kernel ? kernel->cubin.size() : 0;
  return kernel ? kernel->cubin.data() : nullptr;
}

extern "C" const char *
sol_kernel_manifest_json(const sol_compilation *compilation, size_t index) {
  const SolKernel *kernel = getKernel(compilation, index);
  return kernel ? kernel->manifest.c_str() : nullptr;
}

extern "C" size_t sol_kernel_num_plans(const sol_compilation *compilation,
                                       size_t index) {
  const SolKernel *kernel = getKernel(compilation, index);
  return kernel ? kernel->plans.size() : 0;
}

static const SolPlanBinary *getPlan(const sol_compilation *compilation,
                                    size_t index, size_t row) {
  const SolKernel *kernel = getKernel(compilation, index);
  if (!kernel || row >= kernel->plans.size())
    return nullptr;
  return &kernel->plans[row];
}

extern "C" const char *sol_kernel_plan_name(const sol_compilation *compilation,
                                            size_t index, size_t row) {
  const SolPlanBinary *plan = getPlan(compilation, index, row);
  return plan ? plan->name.c_str() : nullptr;
}

extern "C" const char *sol_kernel_plan_ptx(const sol_compilation *compilation,
                                           size_t index, size_t row) {
  const SolPlanBinary *plan = getPlan(compilation, index, row);
  return plan ? plan->ptx.c_str() : nullptr;
}

extern "C" const void *
sol_kernel_plan_cubin(const sol_compilation *compilation, size_t index,
                      size_t row, size_t *size) {
  const SolPlanBinary *plan = getPlan(compilation, index, row);
  if (size)
    *size = plan ? plan->cubin.size() : 0;
  return plan ? plan->cubin.data() : nullptr;
}

static char *getCostReport(const sol_compilation *compilation) {
  llvm::json::Array report;
  if (compilation) {
    for (const SolKernel &kernel : compilation->kernels) {
      llvm::json::Object row{{"kernel", kernel.name}};
      llvm::Expected<llvm::json::Value> manifest =
          llvm::json::parse(kernel.manifest);
      if (!manifest) {
        llvm::consumeError(manifest.takeError());
      } else if (const llvm::json::Object *root = manifest->getAsObject()) {
        if (const llvm::json::Object *cost = root->getObject("cost"))
          for (const auto &entry : *cost)
            row[entry.first] = entry.second;
      }
      report.push_back(std::move(row));
    }
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(report));
  return copyString(text);
}

extern "C" char *
sol_compilation_cost_report_json(const sol_compilation *compilation) {
  try {
    return getCostReport(compilation);
  } catch (const std::bad_alloc &) {
    return nullptr;
  }
}

extern "C" const char *
sol_compilation_host_program_json(const sol_compilation *compilation) {
  if (!compilation)
    return nullptr;
  return compilation->hostProgram.empty() ? "[]"
                                          : compilation->hostProgram.c_str();
}

extern "C" const char *sol_version(void) { return SOL_CAPI_VERSION; }

extern "C" void sol_string_free(char *string) { std::free(string); }

//===----------------------------------------------------------------------===//
// Loading and launching
//===----------------------------------------------------------------------===//

/// The driver (loaded once per process) and the primary context of CUDA
/// device `ordinal` (retained the first time it is asked for), made current
/// on the calling thread.
static bool initCuda(const cuda::CudaDriver *&driverOut, std::string &error,
                     int ordinal = 0, cuda::CUcontext *contextOut = nullptr) {
  static cuda::CudaDriver driver;
  static std::mutex mutex;
  static bool initialized = false;
  static int count = 0;
  static std::vector<cuda::CUcontext> contexts;
  std::lock_guard<std::mutex> lock(mutex);
  driverOut = &driver;
  if (!initialized) {
    // SOL_CAPI_LIBCUDA names another driver library: the tests load a fake.
    const char *library = std::getenv("SOL_CAPI_LIBCUDA");
    if (!driver.load(error, library && *library ? library : "libcuda.so.1"))
      return false;
    if (!driver.check(driver.cuInit(0), "cuInit", error) ||
        !driver.check(driver.cuDeviceGetCount(&count), "cuDeviceGetCount",
                      error))
      return false;
    if (count <= 0) {
      error = "no CUDA device";
      return false;
    }
    contexts.assign(count, nullptr);
    initialized = true;
  }
  if (ordinal < 0 || ordinal >= count) {
    error = "CUDA device " + std::to_string(ordinal) + " does not exist (" +
            std::to_string(count) + " device" + (count == 1 ? "" : "s") + ")";
    return false;
  }
  cuda::CUcontext &context = contexts[ordinal];
  if (!context) {
    cuda::CUdevice device = 0;
    if (!driver.check(driver.cuDeviceGet(&device, ordinal), "cuDeviceGet",
                      error) ||
        !driver.check(driver.cuDevicePrimaryCtxRetain(&context, device),
                      "cuDevicePrimaryCtxRetain", error)) {
      context = nullptr;
      return false;
    }
  }
  if (contextOut)
    *contextOut = context;
  // The calling thread may have no current context yet (a new thread, a
  // framework that has not touched the device), or another device's.
  return driver.check(driver.cuCtxSetCurrent(context), "cuCtxSetCurrent",
                      error);
}

/// Makes `kernel`'s device current; its driver is returned.
static bool enterKernelDevice(const sol_loaded_kernel *kernel,
                              const cuda::CudaDriver *&driver,
                              std::string &error) {
  return initCuda(driver, error, kernel->device);
}

/// Loads `image` (a cubin or PTX, `size` bytes) as a module and looks up
/// `entry`, letting it use `smem` bytes of dynamic shared memory (the launch
/// library's loadKernel); on failure the message, and any module loaded is
/// left in `module` for the caller to free.
static bool loadImage(const cuda::CudaDriver &driver, const void *image,
                      size_t size, const std::string &entry, unsigned smem,
                      cuda::CUmodule &module, cuda::CUfunction &function,
                      std::string &message) {
  // PTX is read as a C string: make sure one NUL ends it.
  std::string bytes(static_cast<const char *>(image), size);
  bytes.push_back('\0');
  return ::sol::runtime::loadKernel(driver, bytes, entry, smem,
                                    "the module of '" + entry + "'", module,
                                    function, message);
}

/// Loads a kernel from `numImages` images: one for a static manifest, one
/// per "plans" row (in order) for a dynamic one (only when `allowDynamic`:
/// sol_module_load's single image cannot hold a plan table). `api` names the
/// entry point in messages.
static int loadModules(const void *const *images, const size_t *sizes,
                       size_t numImages, const char *kernelName,
                       const char *manifestJson, int device, bool allowDynamic,
                       const char *api, sol_loaded_kernel **out,
                       char **error) {
  std::string prefix = std::string(api) + ": ";
  if (!images || !sizes || !kernelName || !manifestJson || !out)
    return fail(error, prefix + "image, kernel_name, manifest_json and out "
                                "must be given (and size nonzero)");
  for (size_t i = 0; i < numImages; ++i)
    if (!images[i] || sizes[i] == 0)
      return fail(error, prefix + "image, kernel_name, manifest_json and out "
                                  "must be given (and size nonzero)");
  auto kernel = std::make_unique<sol_loaded_kernel>();
  std::string message;
  ::sol::runtime::Manifest &manifest = kernel->manifest;
  if (!::sol::runtime::parseManifest(manifestJson, "", manifest, message))
    return fail(error, prefix + message);
  if (manifest.kernel != kernelName)
    return fail(error, prefix + "the manifest describes kernel '" +
                           manifest.kernel + "', not '" + kernelName + "'");
  size_t expected = manifest.isDynamic() ? manifest.plans.size() : 1;
  if (manifest.isDynamic() && !allowDynamic)
    return fail(error, prefix + "kernel '" + manifest.kernel +
                           "' is dynamic (M in " +
                           ::sol::runtime::formatDimRange(manifest.dynamicDim) +
                           "): load its " + std::to_string(expected) +
                           " plan rows' images with sol_module_load_plans");
  if (numImages != expected)
    return fail(error, prefix + "kernel '" + manifest.kernel + "' takes " +
                           std::to_string(expected) + " image" +
                           (expected == 1 ? "" : "s") +
                           (manifest.isDynamic() ? " (one per plans row)" : "") +
                           ", got " + std::to_string(numImages));

  const cuda::CudaDriver *driver = nullptr;
  kernel->device = device;
  if (!initCuda(driver, message, device))
    return fail(error, prefix + message);
  std::unique_ptr<sol_loaded_kernel, void (*)(sol_loaded_kernel *)> guard(
      kernel.release(), sol_loaded_kernel_free);
  if (!guard->manifest.isDynamic()) {
    if (!::sol::runtime::checkLaunchSupport(*driver, guard->manifest, message))
      return fail(error, prefix + message);
    if (!loadImage(*driver, images[0], sizes[0], guard->manifest.kernel,
                   guard->manifest.launch.dynamicSharedBytes, guard->module,
                   guard->function, message))
      return fail(error, prefix + message);
    *out = guard.release();
    return 0;
  }
  // Each row is a kernel of its own, with its launch (cluster, maps, smem).
  for (size_t i = 0; i < numImages; ++i) {
    const ::sol::runtime::PlanRow &row = guard->manifest.plans[i];
    ::sol::runtime::Manifest rowView;
    rowView.kernel = row.kernel;
    rowView.launch = row.launch;
    rowView.tensorMaps = row.tensorMaps;
    cuda::CUmodule module = nullptr;
    cuda::CUfunction function = nullptr;
    bool loaded =
        ::sol::runtime::checkLaunchSupport(*driver, rowView, message) &&
        loadImage(*driver, images[i], sizes[i], row.kernel,
                  row.launch.dynamicSharedBytes, module, function, message);
    if (module)
      guard->rowModules.push_back(module);
    guard->rowFunctions.push_back(function);
    if (!loaded)
      return fail(error, prefix + "plans[" + std::to_string(i) + "]: " +
                             message);
  }
  guard->module = guard->rowModules.front();
  guard->function = guard->rowFunctions.front();
  *out = guard.release();
  return 0;
}

static int loadModule(const void *image, size_t size, const char *kernelName,
                      const char *manifestJson, int device,
                      sol_loaded_kernel **out, char **error) {
  if (!image || size == 0)
    return fail(error, "sol_module_load: image, kernel_name, manifest_json "
                       "and out must be given (and size nonzero)");
  return loadModules(&image, &size, 1, kernelName, manifestJson, device,
                     /*allowDynamic=*/false, "sol_module_load", out, error);
}

/// Launches `kernel` (a static one, or a dynamic one at `dim`, >= 0).
static int launchLoadedKernel(sol_loaded_kernel *kernel,
                              void **argDevicePointers, size_t numArgs,
                              int64_t dim, void *cudaStream, char **error) {
  const char *api = dim < 0 ? "sol_kernel_launch" : "sol_kernel_launch_dim";
  std::string prefix = std::string(api) + ": ";
  if (!kernel || !kernel->function)
    return fail(error, prefix + "no loaded kernel");
  // A dynamic kernel launches the row holding M, resolved at M.
  std::shared_ptr<const sol_loaded_kernel::AtDim> atDim;
  cuda::CUfunction function = kernel->function;
  if (kernel->manifest.isDynamic() != (dim >= 0))
    return fail(error,
                prefix + "kernel '" + kernel->manifest.kernel + "' is " +
                    (kernel->manifest.isDynamic()
                         ? "dynamic (M in " +
                               ::sol::runtime::formatDimRange(
                                   kernel->manifest.dynamicDim) +
                               "): launch it with sol_kernel_launch_dim"
                         : std::string("static: launch it with "
                                       "sol_kernel_launch")));
  std::string message;
  if (dim >= 0) {
    atDim = kernel->resolve(dim, message);
    if (!atDim)
      return fail(error, prefix + message);
    function = atDim->function;
  }
  const ::sol::runtime::Manifest &manifest =
      atDim ? atDim->manifest : kernel->manifest;
  if (numArgs != manifest.args.size())
    return fail(error, prefix + "kernel '" + manifest.getHostEntry() +
                           "' takes " + std::to_string(manifest.args.size()) +
                           " arguments, got " + std::to_string(numArgs));
  if (numArgs > 0 && !argDevicePointers)
    return fail(error, prefix + "arg_device_pointers is NULL");
  // M = 0: empty outputs, nothing to launch.
  if (manifest.isEmptyLaunch())
    return 0;
  const cuda::CudaDriver *driver = nullptr;
  if (!enterKernelDevice(kernel, driver, message))
    return fail(error, prefix + message);
  // Bare-pointer calling convention: one device pointer per argument, then
  // each tensor map by value (runtime/Launch.h), encoded now on the host over
  // these buffers. The driver copies the parameters at the launch call, so
  // nothing outlives it: no device memory, no synchronization, and the launch
  // may be captured in a CUDA graph.
  std::vector<cuda::CUdeviceptr> pointers(numArgs);
  for (size_t i = 0; i < numArgs; ++i)
    pointers[i] = reinterpret_cast<cuda::CUdeviceptr>(argDevicePointers[i]);
  ::sol::runtime::KernelParams params;
  if (!params.init(*driver, manifest, pointers.data(), message))
    return fail(error, prefix + "kernel '" + manifest.kernel + "': " + message);
  if (!driver->check(
          ::sol::runtime::launchKernel(
              *driver, function, manifest.launch,
              static_cast<cuda::CUstream>(cudaStream), params.data()),
          manifest.launch.hasCluster() ? "cuLaunchKernelEx" : "cuLaunchKernel",
          message))
    return fail(error, prefix + "kernel '" + manifest.kernel + "': " + message);
  return 0;
}

extern "C" int sol_module_load(const void *image, size_t size,
                               const char *kernelName, const char *manifestJson,
                               sol_loaded_kernel **out, char **error) {
  if (out)
    *out = nullptr;
  try {
    return loadModule(image, size, kernelName, manifestJson, 0, out, error);
  } catch (const std::bad_alloc &) {
    return fail(error, "sol_module_load: out of memory");
  }
}

extern "C" int sol_module_load_on_device(const void *image, size_t size,
                                         const char *kernelName,
                                         const char *manifestJson, int device,
                                         sol_loaded_kernel **out,
                                         char **error) {
  if (out)
    *out = nullptr;
  try {
    return loadModule(image, size, kernelName, manifestJson, device, out,
                      error);
  } catch (const std::bad_alloc &) {
    return fail(error, "sol_module_load_on_device: out of memory");
  }
}

extern "C" int sol_module_load_plans(const void *const *images,
                                     const size_t *sizes, size_t num_images,
                                     const char *kernelName,
                                     const char *manifestJson, int device,
                                     sol_loaded_kernel **out, char **error) {
  if (out)
    *out = nullptr;
  try {
    return loadModules(images, sizes, num_images, kernelName, manifestJson,
                       device, /*allowDynamic=*/true, "sol_module_load_plans",
                       out, error);
  } catch (const std::bad_alloc &) {
    return fail(error, "sol_module_load_plans: out of memory");
  }
}

extern "C" int sol_loaded_kernel_device(const sol_loaded_kernel *kernel) {
  return kernel ? kernel->device : -1;
}

extern "C" int sol_kernel_launch(sol_loaded_kernel *kernel,
                                 void **argDevicePointers, size_t numArgs,
                                 void *cudaStream, char **error) {
  try {
    return launchLoadedKernel(kernel, argDevicePointers, numArgs, -1,
                              cudaStream, error);
  } catch (const std::bad_alloc &) {
    return fail(error, "sol_kernel_launch: out of memory");
  }
}

extern "C" int sol_kernel_launch_dim(sol_loaded_kernel *kernel,
                                     void **argDevicePointers, size_t numArgs,
                                     int64_t dim, void *cudaStream,
                                     char **error) {
  if (dim < 0)
    return fail(error, "sol_kernel_launch_dim: M = " + std::to_string(dim) +
                           " is negative");
  try {
    return launchLoadedKernel(kernel, argDevicePointers, numArgs, dim,
                              cudaStream, error);
  } catch (const std::bad_alloc &) {
    return fail(error, "sol_kernel_launch_dim: out of memory");
  }
}

extern "C" int sol_loaded_kernel_dim_range(const sol_loaded_kernel *kernel,
                                           int64_t *min, int64_t *max) {
  if (!kernel || !kernel->manifest.isDynamic())
    return 0;
  if (min)
    *min = kernel->manifest.dynamicDim.min;
  if (max)
    *max = kernel->manifest.dynamicDim.max;
  return 1;
}

extern "C" size_t sol_loaded_kernel_num_args(const sol_loaded_kernel *kernel) {
  return kernel ? kernel->manifest.args.size() : 0;
}

extern "C" int sol_loaded_kernel_attribute(const sol_loaded_kernel *kernel,
                                           int attribute, int *value,
                                           char **error) {
  try {
    if (!kernel || !kernel->function || !value)
      return fail(error, "sol_loaded_kernel_attribute: kernel and value must "
                         "be given");
    const cuda::CudaDriver *driver = nullptr;
    std::string message;
    if (!enterKernelDevice(kernel, driver, message))
      return fail(error, "sol_loaded_kernel_attribute: " + message);
    if (!driver->cuFuncGetAttribute)
      return fail(error, "sol_loaded_kernel_attribute: the CUDA driver does "
                         "not export cuFuncGetAttribute");
    if (!driver->check(driver->cuFuncGetAttribute(value, attribute,
                                                  kernel->function),
                       "cuFuncGetAttribute", message))
      return fail(error, "sol_loaded_kernel_attribute: " + message);
    return 0;
  } catch (const std::bad_alloc &) {
    return fail(error, "sol_loaded_kernel_attribute: out of memory");
  }
}

extern "C" int sol_manifest_check(const char *manifestJson, char **error) {
  try {
    if (!manifestJson)
      return fail(error, "sol_manifest_check: manifest_json must be given");
    ::sol::runtime::Manifest manifest;
    std::string message;
    if (!::sol::runtime::parseManifest(manifestJson, "", manifest, message))
      return fail(error, "sol_manifest_check: " + message);
    return 0;
  } catch (const std::bad_alloc &) {
    return fail(error, "sol_manifest_check: out of memory");
  }
}

extern "C" void sol_loaded_kernel_free(sol_loaded_kernel *kernel) {
  if (!kernel)
    return;
  std::vector<cuda::CUmodule> modules = kernel->rowModules;
  if (modules.empty() && kernel->module)
    modules.push_back(kernel->module);
  if (!modules.empty()) {
    const cuda::CudaDriver *driver = nullptr;
    std::string ignored;
    if (enterKernelDevice(kernel, driver, ignored))
      for (cuda::CUmodule module : modules)
        driver->cuModuleUnload(module);
  }
  delete kernel;
}
