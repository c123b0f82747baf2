//===- fused_op.cpp - sol::fused's resolved calls without Python ----------===//
//
// The torch backend's op, `sol::fused(Tensor[] inputs, SymInt[] out_dims,
// str spec) -> Tensor[]`, is one call per gathered region of a model step.
// Outside CUDA graphs a decode step is host-bound, and in Python each call
// pays the dispatcher's hop into the interpreter and back, the argument
// conversions, the lookups and one ctypes call per kernel: about twice an
// extern mm's host time (bench/NOTES.md section 49). This library serves the
// calls Python has resolved (sol/inductor.py's `_SolCall`, registered here by
// `sol::fast_register`) entirely in C++: look the call up by the spec's
// digest and the output dims, allocate the outputs and one workspace, take
// every kernel pointer from the call's flat plan and launch each kernel
// through the C API's entry point on the device's current stream. Anything
// else (a first call at new dims, a non-contiguous input, another device, a
// failed launch) goes to `sol::fused_py`, the Python implementation, which
// resolves, chooses, tunes and falls back exactly as before.
//
// Only the c10/ATen core and the dispatcher are used: no CUDA headers (the
// current stream comes from the device guard's interface), no pybind11, so
// the library builds in seconds against any installed torch
// (sol/fast_op.py) and its CPU form is testable with a stand-in launch.
//
//===----------------------------------------------------------------------===//

#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_strided.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/library.h>

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

// The C API's launch entry points (include/sol-c/SolCAPI.h).
using LaunchDim = int (*)(void *kernel, void **pointers, size_t count,
                          int64_t dim, void *stream, char **error);
using LaunchStatic = int (*)(void *kernel, void **pointers, size_t count,
                             void *stream, char **error);
using FreeString = void (*)(char *);

// Where a kernel argument's pointer comes from.
enum PointerKind : int64_t { kInput = 0, kOutput = 1, kWorkspace = 2 };

struct Pointer {
  PointerKind kind;
  int64_t index; // the input's or output's index, or a workspace offset
};

struct Step {
  void *entry;  // LaunchDim when dynamic, else LaunchStatic
  void *kernel; // the C API's loaded kernel
  bool dynamic;
  std::vector<Pointer> plan;
};

struct Output {
  std::vector<int64_t> shape, strides;
  c10::ScalarType dtype;
};

struct Call {
  c10::Device device{c10::kCPU};
  int64_t m = 0;
  int64_t workspace = 0;
  std::vector<Output> outputs;
  std::vector<Step> steps;
};

// Calls by key: the spec's digest (its first kDigestChars characters, as
// sol/inductor.py's `_SPEC_KEY_CHARS`) and the output dims.
constexpr size_t kDigestChars = 32;
std::shared_mutex callsMutex;
std::unordered_map<std::string, std::shared_ptr<const Call>> calls;
FreeString freeString = nullptr;

std::string keyOf(std::string_view spec, const std::vector<int64_t> &dims) {
  std::string key(spec.substr(0, kDigestChars));
  for (int64_t d : dims) {
    key += ':';
    key += std::to_string(d);
  }
  return key;
}

std::vector<int64_t> concreteDims(const c10::IValue &value) {
  if (value.isIntList())
    return value.toIntVector();
  std::vector<int64_t> dims;
  for (const c10::SymInt &d : value.toSymIntVector())
    dims.push_back(d.expect_int());
  return dims;
}

void *currentStream(const c10::Device &device) {
  if (device.type() != c10::DeviceType::CUDA)
    return nullptr;
  return c10::impl::getDeviceGuardImpl(device.type())
      ->getStream(device)
      .native_handle();
}

void forget(const std::string &key) {
  std::unique_lock lock(callsMutex);
  calls.erase(key);
}

/// The resolved call for the op's arguments on `stack` (and its key), or
/// null.
std::shared_ptr<const Call> findCall(const torch::jit::Stack &stack,
                                     std::string &key) {
  size_t base = stack.size() - 3;
  if (!stack[base + 2].isString())
    return nullptr;
  std::string_view spec = stack[base + 2].toStringView();
  if (spec.size() < kDigestChars)
    return nullptr;
  key = keyOf(spec, concreteDims(stack[base + 1]));
  std::shared_lock lock(callsMutex);
  auto found = calls.find(key);
  return found == calls.end() ? nullptr : found->second;
}

enum class Outcome { kServed, kDeclined, kFailed };

/// Runs `call` on the op's arguments on `stack`, replacing them with its
/// outputs (kServed); kDeclined (the stack untouched) where these inputs are
/// not the call's (another device, a non-contiguous one); kFailed where a
/// launch was refused.
Outcome runCall(const Call &call, torch::jit::Stack &stack) {
  size_t base = stack.size() - 3;
  c10::List<at::Tensor> inputs = stack[base].toTensorList();
  std::vector<void *> inputPointers;
  inputPointers.reserve(inputs.size());
  for (const at::Tensor &input : inputs) {
    if (input.device() != call.device || !input.is_contiguous())
      return Outcome::kDeclined;
    inputPointers.push_back(input.data_ptr());
  }
  at::TensorOptions options = at::TensorOptions().device(call.device);
  std::vector<at::Tensor> outputs;
  outputs.reserve(call.outputs.size());
  for (const Output &output : call.outputs)
    outputs.push_back(at::empty_strided(output.shape, output.strides,
                                        options.dtype(output.dtype)));
  // Held until every launch is issued: the caching allocator reuses it only
  // in stream order, after the kernels that read it.
  at::Tensor workspace;
  char *workspaceBase = nullptr;
  if (call.workspace > 0) {
    workspace = at::empty({call.workspace}, options.dtype(at::kByte));
    workspaceBase = static_cast<char *>(workspace.data_ptr());
  }
  void *stream = currentStream(call.device);
  std::vector<void *> pointers;
  for (const Step &step : call.steps) {
    pointers.clear();
    for (const Pointer &p : step.plan) {
      switch (p.kind) {
      case kInput:
        pointers.push_back(inputPointers[p.index]);
        break;
      case kOutput:
        pointers.push_back(outputs[p.index].data_ptr());
        break;
      case kWorkspace:
        pointers.push_back(workspaceBase + p.index);
        break;
      }
    }
    char *error = nullptr;
    int status = step.dynamic ? reinterpret_cast<LaunchDim>(step.entry)(
                                    step.kernel, pointers.data(),
                                    pointers.size(), call.m, stream, &error)
                              : reinterpret_cast<LaunchStatic>(step.entry)(
                                    step.kernel, pointers.data(),
                                    pointers.size(), stream, &error);
    if (status != 0) {
      if (error && freeString)
        freeString(error);
      return Outcome::kFailed;
    }
  }
  c10::List<at::Tensor> results(outputs);
  torch::jit::drop(stack, 3);
  torch::jit::push(stack, std::move(results));
  return Outcome::kServed;
}

void fusedBoxed(const c10::OperatorHandle &, torch::jit::Stack *stack) {
  std::string key;
  if (std::shared_ptr<const Call> call = findCall(*stack, key)) {
    Outcome outcome = Outcome::kFailed;
    try {
      outcome = runCall(*call, *stack);
    } catch (const std::exception &error) {
      // An allocation that fails, a stream this torch cannot name: Python
      // serves the call from then on, as where the kernel is absent.
      TORCH_WARN_ONCE("sol::fused's C++ kernel hands a call to Python: ",
                      error.what());
    }
    if (outcome == Outcome::kServed)
      return;
    // Refused or failed: Python launches again, sees any error and records
    // the failure (its fallback from then on).
    if (outcome == Outcome::kFailed)
      forget(key);
  }
  static const c10::OperatorHandle python =
      c10::Dispatcher::singleton().findSchemaOrThrow("sol::fused_py", "");
  python.callBoxed(stack);
}

/// Reads a flat int list front to back, failing with the list's name when it
/// ends early.
struct Reader {
  c10::IntArrayRef values;
  const char *name;
  size_t at = 0;
  bool done() const { return at == values.size(); }
  int64_t next() {
    TORCH_CHECK(at < values.size(), "sol::fast_register: ", name,
                " ends early");
    return values[at++];
  }
};

/// `sol::fast_register(key, device_type, device_index, m, workspace,
/// outputs, steps)`: a resolved call. `outputs` is flat: per output its rank
/// r, r dims, r strides, its c10::ScalarType; `steps` per kernel: the entry
/// point's address, the loaded kernel's, 1 if dynamic, the plan's length n,
/// then n (kind, index) pairs.
void fastRegister(std::string key, int64_t deviceType, int64_t deviceIndex,
                  int64_t m, int64_t workspace, c10::IntArrayRef outputs,
                  c10::IntArrayRef steps) {
  auto call = std::make_shared<Call>();
  call->device = c10::Device(static_cast<c10::DeviceType>(deviceType),
                             static_cast<c10::DeviceIndex>(deviceIndex));
  call->m = m;
  call->workspace = workspace;
  for (Reader r{outputs, "outputs"}; !r.done();) {
    Output output;
    int64_t rank = r.next();
    for (int64_t i = 0; i < rank; ++i)
      output.shape.push_back(r.next());
    for (int64_t i = 0; i < rank; ++i)
      output.strides.push_back(r.next());
    output.dtype = static_cast<c10::ScalarType>(r.next());
    call->outputs.push_back(std::move(output));
  }
  for (Reader r{steps, "steps"}; !r.done();) {
    Step step;
    step.entry = reinterpret_cast<void *>(r.next());
    step.kernel = reinterpret_cast<void *>(r.next());
    step.dynamic = r.next() != 0;
    int64_t count = r.next();
    for (int64_t i = 0; i < count; ++i) {
      int64_t kind = r.next();
      TORCH_CHECK(kind >= kInput && kind <= kWorkspace,
                  "sol::fast_register: pointer kind ", kind);
      step.plan.push_back({static_cast<PointerKind>(kind), r.next()});
    }
    call->steps.push_back(std::move(step));
  }
  std::unique_lock lock(callsMutex);
  calls[key] = std::move(call);
}

void fastForget(std::string key) { forget(key); }

int64_t fastScalarType(const at::Tensor &tensor) {
  return static_cast<int64_t>(tensor.scalar_type());
}

int64_t fastCount() {
  std::shared_lock lock(callsMutex);
  return static_cast<int64_t>(calls.size());
}

/// `sol::fast_install(dispatch_key, free_string)`: sol::fused's kernel for
/// that key (once per process), the C API's string free function.
std::vector<std::unique_ptr<torch::Library>> installed;

void fastInstall(std::string dispatchKey, int64_t freeStringAddress) {
  freeString = reinterpret_cast<FreeString>(freeStringAddress);
  c10::DispatchKey key = c10::parseDispatchKey(dispatchKey);
  installed.push_back(std::make_unique<torch::Library>(
      torch::Library::IMPL, "sol", key, __FILE__, __LINE__));
  installed.back()->impl(
      "fused", torch::CppFunction::makeFromBoxedFunction<&fusedBoxed>());
}

} // namespace

TORCH_LIBRARY_FRAGMENT(sol, m) {
  m.def("fast_register(str key, int device_type, int device_index, int m, "
        "int workspace, int[] outputs, int[] steps) -> ()",
        &fastRegister);
  m.def("fast_forget(str key) -> ()", &fastForget);
  m.def("fast_count() -> int", &fastCount);
  m.def("fast_scalar_type(Tensor tensor) -> int", &fastScalarType);
  m.def("fast_install(str dispatch_key, int free_string) -> ()", &fastInstall);
}
