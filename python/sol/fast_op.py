"""sol::fused's resolved calls in C++ (csrc/fused_op.cpp): built once per
machine and torch against the installed torch's headers, loaded with
torch.ops.load_library, installed as sol::fused's kernel for a dispatch key.

Outside CUDA graphs a decode step is host-bound, and sol::fused's Python
implementation costs about twice an extern mm's host time per call (the
dispatcher's hop into the interpreter and back, the lookups, one ctypes call
per kernel). The C++ kernel serves every call Python has resolved
(`register`) and hands the rest to `sol::fused_py`, the Python
implementation (sol/inductor.py).

Where it is used: the CUDA key when CUDA is available; `SOL_FAST_OP` names
the keys instead (`CPU` for tests with a stand-in launch, `0` or empty for
none). Building needs a C++20 compiler (`CXX`, else `c++`); where the build
or the load fails the Python implementation serves every call, with the
reason logged once.
"""

import ctypes
import hashlib
import logging
import os
import subprocess
import tempfile
from pathlib import Path

import torch

log = logging.getLogger("sol")

SOURCE = Path(__file__).parent / "csrc" / "fused_op.cpp"
# The standards tried in order: torch 2.15's headers need C++20, 2.11's
# build with either.
_STANDARDS = ("c++20", "c++17")
_state = {"loaded": None, "installed": set(), "scalar_types": {}}


def wanted_keys():
    """The dispatch keys the C++ kernel should serve (`SOL_FAST_OP`)."""
    setting = os.environ.get("SOL_FAST_OP")
    if setting is None:
        return ["CUDA"] if torch.cuda.is_available() else []
    return [k for k in setting.replace(",", " ").split() if k != "0"]


def _cache_dir():
    root = os.environ.get("SOL_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "sol")
    return Path(root) / "fast_op"


def _compile(target):
    from torch.utils import cpp_extension
    lib_dir = Path(torch.__file__).parent / "lib"
    flags = ["-O2", "-shared", "-fPIC",
             f"-D_GLIBCXX_USE_CXX11_ABI={int(torch._C._GLIBCXX_USE_CXX11_ABI)}"]
    flags += [f"-I{p}" for p in cpp_extension.include_paths()]
    libs = [f"-L{lib_dir}", f"-Wl,-rpath,{lib_dir}", "-ltorch_cpu", "-lc10"]
    compiler = os.environ.get("CXX", "c++")
    errors = []
    for standard in _STANDARDS:
        command = [compiler, f"-std={standard}", *flags, str(SOURCE), "-o",
                   str(target), *libs]
        try:
            done = subprocess.run(command, capture_output=True, text=True)
        except OSError as error:   # no such compiler
            errors.append(str(error))
            break
        if done.returncode == 0:
            return
        errors.append((done.stderr.strip().splitlines() or ["?"])[-1])
    raise RuntimeError(f"{compiler} failed: {'; '.join(errors)}")


def _build():
    """The library's path, compiled if this source and torch have none."""
    digest = hashlib.sha256(SOURCE.read_bytes())
    digest.update(torch.__version__.encode())
    directory = _cache_dir()
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / f"fused_op-{digest.hexdigest()[:16]}.so"
    if not target.exists():
        # Built beside and renamed: a concurrent process sees a whole file.
        fd, partial = tempfile.mkstemp(dir=directory, suffix=".so")
        os.close(fd)
        try:
            _compile(partial)
            os.replace(partial, target)
        finally:
            if os.path.exists(partial):
                os.unlink(partial)
    return target


def load():
    """Whether the library is loaded (built and loaded on the first call)."""
    if _state["loaded"] is None:
        try:
            torch.ops.load_library(str(_build()))
            _state["loaded"] = True
        except Exception as error:
            _state["loaded"] = False
            log.warning("sol::fused runs in Python: its C++ kernel did not "
                        "build or load: %s: %s", type(error).__name__, error)
    return _state["loaded"]


def install(keys, free_string):
    """Installs the C++ kernel for each of `keys` it can; returns those.
    `free_string` is the C API's string free function (an address)."""
    if not keys or not load():
        return set()
    for key in keys:
        if key not in _state["installed"]:
            torch.ops.sol.fast_install(key, free_string)
            _state["installed"].add(key)
    return set(_state["installed"])


def installed(device_type):
    """Whether the C++ kernel serves tensors of `device_type` ("cuda")."""
    return device_type.upper() in _state["installed"]


def _scalar_type(dtype):
    code = _state["scalar_types"].get(dtype)
    if code is None:
        code = torch.ops.sol.fast_scalar_type(torch.empty(0, dtype=dtype))
        _state["scalar_types"][dtype] = code
    return code


# c10::DeviceType's values for the devices sol launches on.
_DEVICE_TYPES = {"cpu": 0, "cuda": 1}


def register(key, device, m, allocs, workspace, kernels):
    """A resolved call for the C++ kernel: `key` (the spec's digest and the
    output dims, `call_key`), its device, M, the outputs to allocate
    ((shape, strides, dtype) each), the workspace's bytes and per kernel
    (entry address, loaded kernel address, dynamic, plan of (kind, index))."""
    outputs = []
    for shape, strides, dtype in allocs:
        outputs += [len(shape), *shape, *strides, _scalar_type(dtype)]
    steps = []
    for entry, kernel, dynamic, plan in kernels:
        steps += [entry, kernel, int(dynamic), len(plan)]
        for kind, index in plan:
            steps += [kind, index]
    index = device.index if device.index is not None else (
        torch.cuda.current_device() if device.type == "cuda" else -1)
    torch.ops.sol.fast_register(key, _DEVICE_TYPES[device.type], index, m,
                                workspace, outputs, steps)


def forget(key):
    torch.ops.sol.fast_forget(key)


def count():
    """How many resolved calls the C++ kernel holds."""
    return torch.ops.sol.fast_count() if _state["loaded"] else 0


def launch_entry(dynamic):
    """The C API's launch entry point for a dynamic or a static kernel."""
    from ._capi import lib
    function = lib().sol_kernel_launch_dim if dynamic else \
        lib().sol_kernel_launch
    return ctypes.cast(function, ctypes.c_void_p).value


def free_string_entry():
    from ._capi import lib
    return ctypes.cast(lib().sol_string_free, ctypes.c_void_p).value
