"""sol: compile sol MLIR to GPU kernels, read their cost, launch them.

    import sol
    compilation = sol.compile(mlir_text, target="h200")
    print(compilation.cost_report())
    kernel = compilation.kernels[0]   # .name .ptx .cubin .manifest .cost
    out = kernel.launch(x, w, r)      # torch CUDA tensors; outputs allocated

A dynamic kernel (`tensor<?x...>`, docs/dynamic-shapes.md) serves every M of
its range: `kernel.is_dynamic`, its rows' binaries in `kernel.plans`, and
`launch` takes M from its tensors' outermost dim.

A kernel sol-opt wrote to disk (`--sol-to-ptx=out-dir=...`, a bench bundle)
loads with `sol.Kernel.from_manifest(path)`. Every launch goes through the C
API and so through sol's one launch library (runtime/Launch.h): the manifest
reader, tensor-map encoding and cluster launches that sol-run uses too.

`sol.torch_backend` registers the torch.compile backend "sol".
"""

import ctypes
import json

import os

from ._capi import SolError, build_id, lib, require, take_string

__all__ = ["SolError", "Compilation", "Kernel", "PlanBinary", "build_id",
           "check_manifest", "compile", "version"]

# cuda.h's CUfunction_attribute values that Kernel.attributes reports.
_FUNCTION_ATTRIBUTES = {"max_threads": 0, "static_smem": 1, "local_bytes": 3,
                        "regs": 4}

# The manifest's dtypes (runtime/DType.h) as torch names them (resolved
# lazily, torch_dtype: torch is optional).
_TORCH_DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32",
                 "f8e4m3fn": "float8_e4m3fn", "f8e5m2": "float8_e5m2"}


def torch_dtype(manifest_dtype):
    """The torch dtype of a manifest's dtype name ("bf16", "f8e4m3fn", ...)."""
    import torch
    return getattr(torch, _TORCH_DTYPES[manifest_dtype])


def version():
    """The C library's version ("MAJOR.MINOR.PATCH")."""
    return lib().sol_version().decode()


def check_manifest(manifest_json):
    """Raises SolError unless `manifest_json` (text) is a manifest the
    launcher takes, checked as loading checks it but without a GPU; the
    message names the field by its JSON path."""
    error = ctypes.c_void_p()
    if require("sol_manifest_check")(manifest_json.encode(),
                                     ctypes.byref(error)):
        raise SolError(take_string(error))


class PlanBinary:
    """One row of a dynamic kernel's plan table: its GPU kernel's name and
    binaries (the manifest's "plans" row of the same index says which M it
    serves)."""

    def __init__(self, name, ptx, cubin):
        self.name = name
        self.ptx = ptx
        self.cubin = cubin

    def __repr__(self):
        return f"<sol.PlanBinary {self.name}>"


class Kernel:
    """One compiled kernel: its binaries, manifest and cost. A dynamic
    kernel's binaries are per row of its plan table (`plans`); its `ptx` and
    `cubin` are empty. Its modules stay loaded while it lives (`unload`,
    and freeing it, unload them): keep it as long as any CUDA graph that
    captured one of its launches may be replayed."""

    def __init__(self, name, ptx, cubin, manifest_json, plans=None):
        self.name = name
        self.ptx = ptx
        self.cubin = cubin
        self.manifest_json = manifest_json
        self.manifest = json.loads(manifest_json)
        self.plans = list(plans or [])
        self._loaded = {}   # CUDA device ordinal -> loaded kernel handle
        self._bound = {}    # CUDA device ordinal -> bind()'s launch function

    @classmethod
    def from_manifest(cls, path):
        """The kernel whose manifest sol-opt wrote at `path`, with the cubin
        and PTX it names (relative to its folder; a dynamic manifest's per
        plans row). A binary the manifest names but the folder lacks is
        empty. Raises SolError for a manifest that is not JSON."""
        directory = os.path.dirname(os.path.abspath(path))
        with open(path) as f:
            text = f.read()
        try:
            doc = json.loads(text)
        except ValueError as e:
            raise SolError(f"{path}: malformed JSON: {e}") from None
        if not isinstance(doc, dict):
            raise SolError(f"{path}: the top level must be an object")

        def read(entry, key, binary):
            name = entry.get(key)
            if not isinstance(name, str) or not name:
                return b"" if binary else ""
            file = os.path.join(directory, name)
            if not os.path.isfile(file):
                return b"" if binary else ""
            with open(file, "rb") as f:
                data = f.read()
            return data if binary else data.decode()

        plans = [PlanBinary(row.get("kernel", ""), read(row, "ptx", False),
                            read(row, "cubin", True))
                 for row in doc.get("plans") or [] if isinstance(row, dict)]
        return cls(str(doc.get("kernel", "")), read(doc, "ptx", False),
                   read(doc, "cubin", True), text, plans)

    @property
    def is_dynamic(self):
        """Whether the outermost dim of its tensors is M, given at launch."""
        return "dynamic_dim" in self.manifest

    @property
    def dim_range(self):
        """(min, max) of M for a dynamic kernel, else None."""
        if not self.is_dynamic:
            return None
        dim = self.manifest["dynamic_dim"]
        return dim["min"], dim["max"]

    def dim_of(self, tensors):
        """A dynamic kernel's M: the outermost dim of the first tensor whose
        manifest shape is dynamic (-1 in dim 0); None for a static kernel."""
        index = self.__dict__.get("_dynamic_arg", -2)
        if index == -2:   # found once: this runs on every launch
            index = next((i for i, spec in enumerate(self.manifest["args"])
                          if spec["shape"] and spec["shape"][0] == -1), -1)
            self._dynamic_arg = index
        return int(tensors[index].shape[0]) if index >= 0 else None

    @property
    def cost(self):
        """The cost model's verdict (bound, intensity, sol_pred, ...)."""
        return self.manifest.get("cost", {})

    @property
    def inputs(self):
        return [a for a in self.manifest["args"] if a["role"] == "input"]

    @property
    def outputs(self):
        return [a for a in self.manifest["args"] if a["role"] == "output"]

    def __repr__(self):
        return f"<sol.Kernel {self.name}>"

    def load(self, device=0):
        """Loads the cubin (the PTX, JIT-compiled, when there is no cubin) on
        CUDA device `device` (an ordinal; once per device); raises
        SolError."""
        handle = self._loaded.get(device)
        if handle is None:
            handle = ctypes.c_void_p()
            error = ctypes.c_void_p()
            if self.is_dynamic:
                # One image per plan row, in the manifest's order.
                images = [p.cubin or p.ptx.encode() for p in self.plans]
                status = lib().sol_module_load_plans(
                    (ctypes.c_void_p * len(images))(
                        *[ctypes.cast(ctypes.c_char_p(i), ctypes.c_void_p)
                          for i in images]),
                    (ctypes.c_size_t * len(images))(*map(len, images)),
                    len(images), self.name.encode(),
                    self.manifest_json.encode(), device, ctypes.byref(handle),
                    ctypes.byref(error))
            else:
                image = self.cubin or self.ptx.encode()
                status = lib().sol_module_load_on_device(
                    image, len(image), self.name.encode(),
                    self.manifest_json.encode(), device, ctypes.byref(handle),
                    ctypes.byref(error))
            if status:
                raise SolError(take_string(error))
            self._loaded[device] = handle
        return handle

    def attributes(self, device=0):
        """The loaded function's registers per thread, local (spill) bytes,
        static shared memory and most threads per block, as the driver
        reports them ({"regs": ..., "local_bytes": ..., "static_smem": ...,
        "max_threads": ...}); a dynamic kernel's first plan row's. Loads the
        kernel on `device` first. Raises SolError."""
        handle = self.load(device)
        function = require("sol_loaded_kernel_attribute")
        result = {}
        for name, attribute in _FUNCTION_ATTRIBUTES.items():
            value, error = ctypes.c_int(), ctypes.c_void_p()
            if function(handle, attribute, ctypes.byref(value),
                        ctypes.byref(error)):
                raise SolError(take_string(error))
            result[name] = value.value
        return result

    def unload(self):
        """Frees the modules `load` loaded (on every device); a later launch
        loads again."""
        loaded, self._loaded = getattr(self, "_loaded", None) or {}, {}
        self._bound = {}
        for handle in loaded.values():
            try:
                lib().sol_loaded_kernel_free(handle)
            except Exception:
                pass

    def __del__(self):
        self.unload()

    def check_args(self, tensors):
        """Raises SolError unless `tensors` match the manifest's args (inputs,
        or inputs then outputs): torch tensors, CUDA, contiguous, dtype and
        shape as compiled. A dynamic kernel's -1 (the outermost dim) matches
        one M, the same in every tensor and within the kernel's range."""
        import torch
        specs = self.manifest["args"]
        if len(tensors) not in (len(self.inputs), len(specs)):
            raise SolError(
                f"kernel {self.name} takes {len(self.inputs)} inputs (and "
                f"optionally {len(self.outputs)} outputs), got {len(tensors)}")
        m = None
        for spec, tensor in zip(specs, tensors):
            where = f"kernel {self.name}, {spec['role']} {spec['name']}"
            if not isinstance(tensor, torch.Tensor):
                raise SolError(f"{where}: expected a torch.Tensor, got "
                               f"{type(tensor).__name__}")
            dtype = getattr(torch, _TORCH_DTYPES.get(spec["dtype"], ""), None)
            if tensor.dtype != dtype:
                raise SolError(f"{where}: dtype {tensor.dtype}, compiled for "
                               f"{spec['dtype']}")
            shape = list(spec["shape"])
            if shape and shape[0] == -1 and tensor.dim() == len(shape):
                if m is None:
                    m = int(tensor.shape[0])
                    low, high = self.dim_range
                    if not low <= m <= high:
                        raise SolError(
                            f"{where}: M = {m} is outside the kernel's range "
                            f"[{low}, {high}]")
                shape[0] = m
            if list(tensor.shape) != shape:
                raise SolError(f"{where}: shape {list(tensor.shape)}, "
                               f"compiled for {spec['shape']}"
                               + (f" (M = {m})" if m is not None else ""))
        # Where the tensors live, once their types and shapes are right.
        for spec, tensor in zip(specs, tensors):
            where = f"kernel {self.name}, {spec['role']} {spec['name']}"
            if not tensor.is_cuda:
                raise SolError(f"{where}: tensor is on {tensor.device}, not "
                               "CUDA")
            if tensor.device != tensors[0].device:
                raise SolError(f"{where}: tensor is on {tensor.device}, the "
                               f"first on {tensors[0].device}")
            if not tensor.is_contiguous():
                raise SolError(f"{where}: tensor is not contiguous")

    def launch(self, *tensors, stream=None):
        """Launches on `stream` (default: torch.cuda.current_stream()).
        Pass the inputs (outputs are allocated and returned) or inputs and
        outputs. Returns the output tensor, or a tuple when there are
        several."""
        import torch
        self.check_args(tensors)
        args = list(tensors)
        if len(args) == len(self.inputs):
            device = args[0].device if args else torch.device("cuda", 0)
            for shape, dtype in self.output_specs(self.dim_of(args)):
                args.append(torch.empty(shape, device=device, dtype=dtype))
        if stream is None:
            stream = torch.cuda.current_stream(args[0].device)
        self.launch_raw(args, getattr(stream, "cuda_stream", stream) or 0)
        outputs = tuple(args[len(self.inputs):])
        return outputs[0] if len(outputs) == 1 else outputs

    def output_specs(self, m=None):
        """(shape, torch dtype) of each output, in order; a dynamic kernel's
        shapes hold -1 for M unless `m` gives it."""
        return [(tuple(m if m is not None and i == 0 and d == -1 else d
                       for i, d in enumerate(spec["shape"])),
                 torch_dtype(spec["dtype"])) for spec in self.outputs]

    def launch_raw(self, tensors, stream):
        """Launches on the raw CUDA stream handle `stream` with `tensors`
        (inputs then outputs) as they are: no checks. For callers that ran
        check_args on tensors of the same shapes, dtypes and device before
        (the torch backend, whose graph guards keep them). The kernel runs
        on the device of the first tensor (loaded there the first time);
        `stream` must belong to it. A dynamic kernel runs at the M of its
        tensors (dim_of). Raises SolError."""
        device = (tensors[0].device.index or 0) if tensors else 0
        self.launch_pointers([t.data_ptr() for t in tensors], stream, device,
                             self.dim_of(tensors) if self.is_dynamic else None)

    def launch_pointers(self, pointers, stream=0, device=0, dim=None):
        """Launches with `pointers` (device addresses of the args' dense
        row-major buffers, inputs then outputs, as ints or a ctypes
        c_void_p array, which callers that launch often build once) on the
        raw CUDA stream handle `stream` of CUDA device `device`; a dynamic
        kernel at M = `dim`. No checks beyond the C API's (the count, the
        maps' alignment). Raises SolError."""
        if not isinstance(pointers, ctypes.Array):
            pointers = (ctypes.c_void_p * len(pointers))(*pointers)
        if isinstance(stream, ctypes.c_void_p):
            stream = stream.value
        launch = self._bound.get(device) or self.bind(device)
        launch(pointers, stream, dim)

    def bind(self, device=0):
        """This kernel's launch function on CUDA device `device` (an
        ordinal), `launch(pointers, stream, dim=None)`: loaded there and its
        C entry point resolved once, so a launch is one ctypes call. For
        callers that launch often (the torch backend's hot path, where a
        decode step's host time is its time). `pointers` is a ctypes
        c_void_p array (inputs then outputs), `stream` a raw CUDA stream
        handle (an int, 0 or None for the default stream), `dim` a dynamic
        kernel's M. No checks beyond the C API's. Raises SolError."""
        launch = self._bound.get(device)
        if launch is not None:
            return launch
        handle = self.load(device)
        name = self.name
        byref, void_p = ctypes.byref, ctypes.c_void_p
        if self.is_dynamic:
            entry = lib().sol_kernel_launch_dim

            def launch(pointers, stream=None, dim=None):
                if dim is None:
                    raise SolError(f"kernel {name} is dynamic: launch it "
                                   "at one M (dim)")
                error = void_p()
                if entry(handle, pointers, len(pointers), dim, stream,
                         byref(error)):
                    raise SolError(take_string(error))
        else:
            entry = lib().sol_kernel_launch

            def launch(pointers, stream=None, dim=None):
                error = void_p()
                if entry(handle, pointers, len(pointers), stream,
                         byref(error)):
                    raise SolError(take_string(error))
        self._bound[device] = launch
        return launch


class Compilation:
    """The kernels one sol.compile produced, and how the module uses them."""

    def __init__(self, kernels, host_program):
        self.kernels = kernels
        self.host_program = host_program

    def kernel(self, name):
        for kernel in self.kernels:
            if kernel.name == name:
                return kernel
        raise KeyError(name)

    def cost_report(self):
        """A printable table: kernel, intensity, bound, predicted SOL."""
        rows = [("kernel", "intensity", "bound", "t_ideal_us", "t_pred_us",
                 "SOL_pred")]
        for k in self.kernels:
            c = k.cost
            rows.append((k.name, f"{c.get('intensity', 0):.1f}",
                         c.get("bound", "?"), f"{c.get('t_ideal_us', 0):.2f}",
                         f"{c.get('t_pred_us', 0):.2f}",
                         f"{c.get('sol_pred', 0):.3f}"))
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = ["  ".join(cell.ljust(w) if i in (0, 2) else cell.rjust(w)
                           for i, (cell, w) in enumerate(zip(row, widths)))
                 for row in rows]
        lines.insert(1, "-" * len(lines[0]))
        return "\n".join(lines)

    def to_json(self):
        """Everything needed to rebuild the compilation (the disk cache)."""
        return {"kernels": [{"name": k.name, "ptx": k.ptx,
                             "cubin": k.cubin.hex(),
                             "manifest": k.manifest_json,
                             "plans": [{"name": p.name, "ptx": p.ptx,
                                        "cubin": p.cubin.hex()}
                                       for p in k.plans]}
                            for k in self.kernels],
                "host_program": self.host_program}

    @classmethod
    def from_json(cls, data):
        return cls([Kernel(k["name"], k["ptx"], bytes.fromhex(k["cubin"]),
                           k["manifest"],
                           [PlanBinary(p["name"], p["ptx"],
                                       bytes.fromhex(p["cubin"]))
                            for p in k.get("plans", [])])
                    for k in data["kernels"]],
                   data["host_program"])


def compile(mlir_text, target=None, options=None):
    """Compiles sol MLIR text through the sol-to-ptx pipeline.

    `target`: a preset name ("h200", ...), a target JSON path, or None for
    the module's own #sol.target. `options`: sol-to-ptx's options as sol-opt
    spells them, e.g. "fast-math=true schedules=pingpong", or "rank=1" for
    each kernel's runner-up plan in the cost model's order (see
    sol_compile_with_options in sol-c/sol.h). Raises SolError with sol's
    diagnostics ("<input>:line:col: error: ...") on failure."""
    l = lib()
    handle = ctypes.c_void_p()
    error = ctypes.c_void_p()
    if l.sol_compile_with_options(
            mlir_text.encode(), target.encode() if target else None,
            options.encode() if options else None, ctypes.byref(handle),
            ctypes.byref(error)):
        raise SolError(take_string(error))
    try:
        kernels = []
        for i in range(l.sol_compilation_num_kernels(handle)):
            size = ctypes.c_size_t()
            cubin = l.sol_kernel_cubin(handle, i, ctypes.byref(size))
            plans = []
            for row in range(l.sol_kernel_num_plans(handle, i)):
                row_size = ctypes.c_size_t()
                row_cubin = l.sol_kernel_plan_cubin(handle, i, row,
                                                    ctypes.byref(row_size))
                plans.append(PlanBinary(
                    l.sol_kernel_plan_name(handle, i, row).decode(),
                    l.sol_kernel_plan_ptx(handle, i, row).decode(),
                    ctypes.string_at(row_cubin, row_size.value)
                    if row_cubin else b""))
            kernels.append(Kernel(
                l.sol_kernel_name(handle, i).decode(),
                l.sol_kernel_ptx(handle, i).decode(),
                ctypes.string_at(cubin, size.value) if size.value else b"",
                l.sol_kernel_manifest_json(handle, i).decode(), plans))
        host = json.loads(l.sol_compilation_host_program_json(handle))
    finally:
        l.sol_compilation_free(handle)
    return Compilation(kernels, host)
