"""ctypes declarations of libsol_capi.so (include/sol-c/sol.h).

The library is looked up, in order, at $SOL_CAPI_LIB, next to this package
(sol/_lib/libsol_capi.so, where the wheel of scripts/build-wheel.sh has the
self-contained one) and in the repository's build/lib, so a source checkout
works without installing anything. It is
loaded on first use: importing sol never fails for lack of it.
"""

import ctypes
import hashlib
import os
from pathlib import Path

LIBRARY_NAME = "libsol_capi.so"


class SolError(RuntimeError):
    """A compile, load or launch failed; the message is sol's diagnostics."""


def _candidates():
    env = os.environ.get("SOL_CAPI_LIB")
    if env:
        yield Path(env)
        return
    here = Path(__file__).resolve().parent
    yield here / "_lib" / LIBRARY_NAME
    yield here.parent.parent / "build" / "lib" / LIBRARY_NAME


_lib = None
_lib_path = None
_build_id = None


def lib():
    """The loaded library, with argument and result types declared."""
    global _lib, _lib_path
    if _lib is not None:
        return _lib
    tried = []
    for path in _candidates():
        tried.append(str(path))
        if path.is_file():
            _lib_path = path
            _lib = _declare(ctypes.CDLL(str(path)))
            return _lib
    raise SolError(
        f"{LIBRARY_NAME} not found (tried: {', '.join(tried)}); build sol "
        "(scripts/build.sh), install its wheel (scripts/build-wheel.sh) or "
        "set SOL_CAPI_LIB to the library's path")


def build_id():
    """The SHA-256 of the loaded library file: what identifies the compiler
    that made a kernel, for caches (the version string stays the same from
    one build to the next, a fix to the compiler does not). Hashed once per
    process."""
    global _build_id
    if _build_id is None:
        lib()
        digest = hashlib.sha256()
        with open(_lib_path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        _build_id = digest.hexdigest()
    return _build_id


def _declare(l):
    vp, cp, sz = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t
    out = ctypes.POINTER(ctypes.c_void_p)
    signatures = {
        "sol_version": (cp, []),
        "sol_string_free": (None, [vp]),
        "sol_compile": (ctypes.c_int, [cp, cp, out, out]),
        "sol_compile_with_options": (ctypes.c_int, [cp, cp, cp, out, out]),
        "sol_compilation_free": (None, [vp]),
        "sol_compilation_num_kernels": (sz, [vp]),
        "sol_kernel_name": (cp, [vp, sz]),
        "sol_kernel_ptx": (cp, [vp, sz]),
        "sol_kernel_cubin": (vp, [vp, sz, ctypes.POINTER(sz)]),
        "sol_kernel_manifest_json": (cp, [vp, sz]),
        "sol_kernel_num_plans": (sz, [vp, sz]),
        "sol_kernel_plan_name": (cp, [vp, sz, sz]),
        "sol_kernel_plan_ptx": (cp, [vp, sz, sz]),
        "sol_kernel_plan_cubin": (vp, [vp, sz, sz, ctypes.POINTER(sz)]),
        "sol_compilation_cost_report_json": (vp, [vp]),
        "sol_compilation_host_program_json": (cp, [vp]),
        "sol_module_load": (ctypes.c_int, [vp, sz, cp, cp, out, out]),
        "sol_module_load_on_device": (ctypes.c_int,
                                      [vp, sz, cp, cp, ctypes.c_int, out,
                                       out]),
        "sol_module_load_plans": (ctypes.c_int,
                                  [ctypes.POINTER(vp), ctypes.POINTER(sz), sz,
                                   cp, cp, ctypes.c_int, out, out]),
        "sol_kernel_launch": (ctypes.c_int, [vp, ctypes.POINTER(vp), sz, vp,
                                             out]),
        "sol_kernel_launch_dim": (ctypes.c_int,
                                  [vp, ctypes.POINTER(vp), sz,
                                   ctypes.c_int64, vp, out]),
        "sol_loaded_kernel_dim_range": (ctypes.c_int,
                                        [vp, ctypes.POINTER(ctypes.c_int64),
                                         ctypes.POINTER(ctypes.c_int64)]),
        "sol_loaded_kernel_num_args": (sz, [vp]),
        "sol_loaded_kernel_free": (None, [vp]),
        "sol_loaded_kernel_device": (ctypes.c_int, [vp]),
        "sol_loaded_kernel_attribute": (ctypes.c_int,
                                        [vp, ctypes.c_int,
                                         ctypes.POINTER(ctypes.c_int), out]),
        "sol_manifest_check": (ctypes.c_int, [cp, out]),
    }
    for name, (restype, argtypes) in signatures.items():
        # A library older than this package lacks the newest entry points:
        # it still loads, and only what needs one says so (require()).
        function = getattr(l, name, None)
        if function is None and name in _NEWER:
            continue
        if function is None:
            raise SolError(f"{_lib_path or LIBRARY_NAME} does not export "
                           f"{name}: rebuild it (scripts/build.sh)")
        function.restype = restype
        function.argtypes = argtypes
    return l


# Entry points added after the first wheels (see _declare).
_NEWER = {"sol_loaded_kernel_attribute", "sol_manifest_check"}


def require(name):
    """The library's entry point `name`; SolError when the library is older
    than it."""
    function = getattr(lib(), name, None)
    if function is None:
        raise SolError(f"{_lib_path} does not export {name}: it is older "
                       "than this package (rebuild it, scripts/build.sh)")
    return function


def take_string(pointer):
    """Copies and frees a string the library handed over (an error)."""
    if not pointer:
        return ""
    try:
        return ctypes.string_at(pointer).decode("utf-8", "replace")
    finally:
        lib().sol_string_free(pointer)
