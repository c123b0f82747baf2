"""The torch.compile backend "sol".

    import sol.torch_backend
    model = torch.compile(model, backend="sol",
                          options={"report": True, "target": "h200"})

By default the backend is Inductor with sol's post-grad pass
(sol/inductor.py): sol takes the matmuls with their epilogues that it wins,
Inductor compiles everything else. This module holds the backend's entry
point, the options, the compile cache both modes share, and the older mode
kept for debugging (`options={"partitioner": "eager"}`), described next.

A plain dynamo backend (no AOTAutograd, inference only) receives the FX graph
and real example inputs. It walks the graph in order and grows partitions of
the nodes sol can express (static shapes, f16/bf16/f32): a partition closes
when an unsupported node consumes one of its values, so the fused call, placed
after its last member, never runs before a value it needs or after a value
that needs it. Each partition becomes one sol module (emitted as text),
compiled through the C API (cached on disk by the sha256 of IR, target,
compile options, sol version and the library file's own hash) and replaced
by a call that runs sol's host program: the kernels in order, each launched by Kernel.launch on the first
call (which checks every argument) and by Kernel.launch_raw after it
(dynamo's guards keep the shapes; the launches are resolved once). The
launches go to torch.cuda.current_stream(), so a compiled module can be
captured in a CUDA graph, which decode-sized calls need (host dispatch
dominates them). Anything that goes wrong — an op,
dtype or dynamic shape sol does not take, a failed compile, no CUDA device at
launch — falls back to the original FX nodes with a reason logged on the
`sol` logger; no exception reaches the user's model.

Options (torch.compile(options=...)): partitioner ("inductor", the default,
or "eager"); mode (Inductor's mode, e.g. "reduce-overhead", since
torch.compile takes mode or options, not both); measure (bool, default True:
time sol against cuBLAS per region and M on CUDA, with the inputs cold in
L2 as a model step's weights are: sol/inductor.py's `rotation`); report (bool; env
SOL_REPORT=1) prints
each graph's cost report; target (preset name or JSON path; default the
current CUDA device's preset, `default_target()`, else "h200");
cache_dir (env SOL_CACHE_DIR, default ~/.cache/sol); fast_math (bool, default
False: GELU's tanh as one tanh.approx.f32, ~5e-4 absolute error);
sol_options (a string of further sol-to-ptx options as sol-opt spells them,
e.g. "schedules=cooperative max-cluster=2" or "fuse-siblings=false", for
experts and autotuning; "n-major-tma=false" keeps [K, N] weights off the
TMA kernels); tune (int, default 0: off; N compiles each
region at the cost model's best N plans, sol-tile's rank=0..N-1, drops any
whose outputs disagree with rank 0's, times the rest L2-cold on the device
and keeps the fastest, cached on disk; every candidate's predicted and
measured time goes to sol.inductor.report() and tuning.jsonl in the cache
dir); fp8 (bool, default True: `torch._scaled_mm` regions go to sol like any
other region, where the measured choice has sol beat torch._scaled_mm;
False keeps them with Inductor); sibling_sets (bool, default True: a
region whose two matmuls share A, a SwiGLU's gate and up, gets two dynamic
kernel sets split at 128 rows, the upper one running them as one sibling
kernel, which one set from M = 1 cannot; False keeps one set); gather
(bool, default True: regions whose matmuls read one A, or whose matmul
reads another's result, become one sol::fused call: fewer calls, less host
time outside CUDA graphs; False keeps one call per region);
unknown keys make the compile fail, so the partition runs eagerly); launcher (a
callable (kernel, inputs) -> outputs replacing Kernel.launch, e.g. for tests
without a GPU).
"""

import hashlib
import json
import logging
import operator
import os
from dataclasses import dataclass, field
from pathlib import Path

import torch
import torch.fx

import sol

log = logging.getLogger("sol")

_DTYPES = {torch.float16: "f16", torch.bfloat16: "bf16", torch.float32: "f32"}

# Everything the backend did, graph by graph: what went to sol and what stayed
# eager (and why). Tests and curious users read it.
history = []
cache_stats = {"hits": 0, "misses": 0, "compiles": 0}
_memory_cache = {}


@dataclass
class Partition:
    nodes: list
    inputs: list = field(default_factory=list)   # fx Nodes
    outputs: list = field(default_factory=list)  # member Nodes used outside
    ir: str = ""
    status: str = "pending"   # "sol", or "eager: <reason>"
    compilation: object = None
    call: object = None       # the SolPartitionCall that replaced it


@dataclass
class GraphReport:
    partitions: list
    eager: dict           # node name -> why it is not in a partition
    cost_report: str = ""

    def summary(self):
        lines = []
        for i, p in enumerate(self.partitions):
            kernels = len(p.compilation.kernels) if p.compilation else 0
            lines.append(f"partition {i}: {p.status}: "
                         + ", ".join(n.name for n in p.nodes)
                         + f" ({kernels} kernels)")
        for name, reason in self.eager.items():
            lines.append(f"eager {name}: {reason}")
        return "\n".join(lines)


class Unsupported(Exception):
    """A node sol cannot take; the message is the reason logged."""


#===----------------------------------------------------------------------===#
# Node classification
#===----------------------------------------------------------------------===#

def _fn_set(*names):
    found = set()
    for name in names:
        obj = torch
        try:
            for part in name.split(".")[1:]:
                obj = getattr(obj, part)
            found.add(obj)
        except AttributeError:
            pass
    return found


_LINEAR = _fn_set("torch.nn.functional.linear", "torch._C._nn.linear")
_MATMUL = _fn_set("torch.matmul", "torch.mm", "torch.bmm") | {operator.matmul}
_ADDMM = _fn_set("torch.addmm")
_BINARY = {
    "add": _fn_set("torch.add") | {operator.add, operator.iadd},
    "sub": _fn_set("torch.sub", "torch.subtract") | {operator.sub,
                                                     operator.isub},
    "mul": _fn_set("torch.mul", "torch.multiply") | {operator.mul,
                                                     operator.imul},
    "div": _fn_set("torch.div", "torch.true_divide") | {operator.truediv,
                                                        operator.itruediv},
    "max": _fn_set("torch.maximum"),
    "min": _fn_set("torch.minimum"),
}
_UNARY = {
    "relu": _fn_set("torch.relu", "torch.nn.functional.relu"),
    "silu": _fn_set("torch.nn.functional.silu", "torch._C._nn.silu"),
    "sigmoid": _fn_set("torch.sigmoid", "torch.nn.functional.sigmoid"),
    "tanh": _fn_set("torch.tanh", "torch.nn.functional.tanh"),
    "exp": _fn_set("torch.exp"),
    "neg": _fn_set("torch.neg", "torch.negative") | {operator.neg},
    "abs": _fn_set("torch.abs") | {operator.abs},
}
_GELU = _fn_set("torch.nn.functional.gelu", "torch._C._nn.gelu")
_METHOD_BINARY = {"add": "add", "sub": "sub", "mul": "mul", "div": "div",
                  "__add__": "add", "__sub__": "sub", "__mul__": "mul",
                  "__truediv__": "div", "add_": None}
_METHOD_UNARY = {"relu", "sigmoid", "tanh", "exp", "neg", "abs"}
_METHOD_CASTS = {"half": torch.float16, "float": torch.float32,
                 "bfloat16": torch.bfloat16}
_MODULE_UNARY = {torch.nn.ReLU: "relu", torch.nn.SiLU: "silu",
                 torch.nn.Sigmoid: "sigmoid", torch.nn.Tanh: "tanh"}


def _meta(node):
    """The fake/real tensor dynamo or ShapeProp recorded for `node`."""
    value = node.meta.get("example_value", node.meta.get("val"))
    if value is None and "tensor_meta" in node.meta:
        value = node.meta["tensor_meta"]
    return value


def _tensor_type(node):
    """"tensor<4x8xf16>" for a node with a static float tensor value."""
    value = _meta(node)
    if value is None or not hasattr(value, "shape") or \
            not hasattr(value, "dtype"):
        raise Unsupported(f"{node.name}: no static tensor value")
    if value.dtype not in _DTYPES:
        raise Unsupported(f"{node.name}: dtype {value.dtype} not supported "
                          "(f16, bf16, f32)")
    dims = []
    for d in value.shape:
        if not isinstance(d, int):
            raise Unsupported(f"{node.name}: dynamic shape {list(value.shape)}")
        dims.append(str(d))
    if not dims:
        return f"tensor<{_DTYPES[value.dtype]}>"
    return f"tensor<{'x'.join(dims)}x{_DTYPES[value.dtype]}>"


def _dtype_of(node):
    return _DTYPES[_meta(node).dtype]


def _elem(ty):
    return ty.rsplit("x", 1)[-1].rstrip(">") if "x" in ty else \
        ty[len("tensor<"):-1]


def _with_elem(ty, elem):
    return ty[:-len(_elem(ty)) - 1] + elem + ">"


class _Emitter:
    """Builds one partition's sol function as text."""

    def __init__(self, gm, partition):
        self.gm = gm
        self.members = set(partition.nodes)
        self.partition = partition
        self.values = {}   # fx Node -> (ssa name, type)
        self.lines = []
        self.counter = 0

    def fresh(self):
        self.counter += 1
        return f"%v{self.counter}"

    def operand(self, arg):
        """SSA name and type of `arg`, a member or a partition input."""
        if arg in self.values:
            return self.values[arg]
        if arg in self.members:
            raise Unsupported(f"{arg.name} used before it is defined")
        name = f"%arg{len(self.partition.inputs)}"
        self.partition.inputs.append(arg)
        self.values[arg] = (name, _tensor_type(arg))
        return self.values[arg]

    def constant(self, value, elem):
        name = self.fresh()
        self.lines.append(f"{name} = sol.constant {float(value):.17e} : "
                          f"{elem}")
        return name, f"tensor<{elem}>"

    def cast(self, operand, elem):
        name, ty = operand
        if _elem(ty) == elem:
            return operand
        result = _with_elem(ty, elem)
        new = self.fresh()
        self.lines.append(f"{new} = sol.cast {name} : {ty} to {result}")
        return new, result

    def scalar_or_tensor(self, arg, elem):
        if isinstance(arg, torch.fx.Node):
            return self.cast(self.operand(arg), elem)
        if isinstance(arg, (int, float)) and not isinstance(arg, bool):
            return self.constant(arg, elem)
        raise Unsupported(f"operand {arg!r} is neither a tensor nor a number")

    def binary(self, node, op, lhs, rhs):
        result = _tensor_type(node)
        elem = _elem(result)
        a = self.scalar_or_tensor(lhs, elem)
        b = self.scalar_or_tensor(rhs, elem)
        name = self.fresh()
        self.lines.append(f"{name} = sol.{op} {a[0]}, {b[0]} : {a[1]}, "
                          f"{b[1]} -> {result}")
        return name, result

    def unary(self, node, op, arg, prefix=""):
        result = _tensor_type(node)
        a = self.cast(self.operand(arg), _elem(result))
        name = self.fresh()
        self.lines.append(f"{name} = sol.{op} {prefix}{a[0]} : {result}")
        return name, result

    def matmul(self, node, lhs, rhs, transpose_b, bias=None):
        result = _tensor_type(node)
        a, b = self.operand(lhs), self.operand(rhs)
        if _elem(a[1]) != _elem(b[1]):
            raise Unsupported(f"{node.name}: matmul of {_elem(a[1])} and "
                              f"{_elem(b[1])}")
        lhs_rank = len(_meta(lhs).shape)
        rhs_rank = len(_meta(rhs).shape)
        if lhs_rank < 2 or rhs_rank < 2 or \
                (rhs_rank > 2 and rhs_rank != lhs_rank):
            raise Unsupported(f"{node.name}: matmul of ranks {lhs_rank} and "
                              f"{rhs_rank}")
        name = self.fresh()
        tb = " transpose_b" if transpose_b else ""
        self.lines.append(f"{name} = sol.matmul {a[0]}, {b[0]}{tb} : {a[1]}, "
                          f"{b[1]} -> {result}")
        if bias is None:
            return name, result
        c = self.cast(self.operand(bias), _elem(result))
        sum_name = self.fresh()
        self.lines.append(f"{sum_name} = sol.add {name}, {c[0]} : {result}, "
                          f"{c[1]} -> {result}")
        return sum_name, result

    def emit(self, node):
        """Translates `node` into sol ops; raises Unsupported."""
        self.values[node] = self.translate(node)

    def translate(self, node):
        target, args, kwargs = node.target, node.args, node.kwargs
        if node.op == "call_module":
            module = self.gm.get_submodule(target)
            if type(module) in _MODULE_UNARY:
                return self.unary(node, _MODULE_UNARY[type(module)], args[0])
            if isinstance(module, torch.nn.GELU):
                return self.unary(node, "gelu", args[0], prefix=(
                    "tanh " if module.approximate == "tanh" else "erf "))
            raise Unsupported(f"{node.name}: module {type(module).__name__} "
                              "not supported")
        if node.op == "call_function":
            if target in _LINEAR:
                bias = args[2] if len(args) > 2 else kwargs.get("bias")
                return self.matmul(node, args[0], args[1], True, bias)
            if target in _MATMUL:
                return self.matmul(node, args[0], args[1], False)
            if target in _ADDMM:
                if kwargs.get("beta", 1) != 1 or kwargs.get("alpha", 1) != 1:
                    raise Unsupported(f"{node.name}: addmm with alpha/beta")
                return self.matmul(node, args[1], args[2], False, args[0])
            for op, fns in _BINARY.items():
                if target in fns:
                    if set(kwargs) - {"alpha"} or kwargs.get("alpha", 1) != 1:
                        raise Unsupported(f"{node.name}: keyword arguments "
                                          f"{dict(kwargs)}")
                    return self.binary(node, op, args[0], args[1])
            for op, fns in _UNARY.items():
                if target in fns and not kwargs.get("inplace", False):
                    return self.unary(node, op, args[0])
            if target in _GELU:
                approximate = kwargs.get(
                    "approximate", args[1] if len(args) > 1 else "none")
                return self.unary(node, "gelu", args[0], prefix=(
                    "tanh " if approximate == "tanh" else "erf "))
            name = getattr(target, "__name__", str(target))
            raise Unsupported(f"{node.name}: op {name} not supported")
        if node.op == "call_method":
            if target in _METHOD_BINARY and _METHOD_BINARY[target] and \
                    not kwargs:
                return self.binary(node, _METHOD_BINARY[target], args[0],
                                   args[1])
            if target in _METHOD_UNARY and not kwargs:
                return self.unary(node, target, args[0])
            if target in _METHOD_CASTS or target in ("to", "type"):
                if target == "to" or target == "type":
                    dtype = kwargs.get("dtype", args[1] if len(args) > 1
                                       else None)
                    if not isinstance(dtype, torch.dtype) or \
                            set(kwargs) - {"dtype"} or len(args) > 2:
                        raise Unsupported(f"{node.name}: .{target}() other "
                                          "than a dtype conversion")
                return self.cast(self.operand(args[0]), _dtype_of(node)) \
                    if _tensor_type(node) else None
            raise Unsupported(f"{node.name}: method .{target}() not "
                              "supported")
        raise Unsupported(f"{node.name}: {node.op} not supported")


def _try_emit(gm, node):
    """Whether `node` translates on its own (with fresh inputs)."""
    probe = Partition(nodes=[node])
    try:
        _Emitter(gm, probe).emit(node)
        return None
    except Unsupported as reason:
        return str(reason)


#===----------------------------------------------------------------------===#
# Partitioning
#===----------------------------------------------------------------------===#

def partition_graph(gm):
    """Partitions `gm` (nodes carrying example values). Returns the
    partitions (IR emitted, not compiled) and the reason each compute node
    stays eager."""
    partitions, eager = [], {}
    current = None

    def close():
        nonlocal current
        if current and current.nodes:
            partitions.append(current)
        current = None

    for node in gm.graph.nodes:
        if node.op in ("placeholder", "get_attr", "output"):
            continue
        reason = _try_emit(gm, node)
        if reason is None:
            if current is None:
                current = Partition(nodes=[])
            current.nodes.append(node)
            continue
        eager[node.name] = reason
        if current and any(a in current.nodes
                           for a in node.all_input_nodes):
            close()
    close()

    for partition in partitions:
        members = set(partition.nodes)
        emitter = _Emitter(gm, partition)
        for node in partition.nodes:
            emitter.emit(node)
        partition.outputs = [n for n in partition.nodes
                             if any(u not in members for u in n.users)]
        args = ", ".join(f"{emitter.values[n][0]}: {emitter.values[n][1]}"
                         for n in partition.inputs)
        results = [emitter.values[n] for n in partition.outputs]
        body = "\n".join("    " + line for line in emitter.lines)
        partition.ir = (
            f"  func.func @sol_graph(" + args + ") -> ("
            + ", ".join(t for _, t in results) + ") {\n" + body + "\n"
            + "    return " + ", ".join(v for v, _ in results) + " : "
            + ", ".join(t for _, t in results) + "\n  }")
    return partitions, eager


def _module_text(function_text, target):
    preset = target if target and not target.endswith(".json") else None
    attrs = (f" attributes {{sol.target = #sol.target<\"{preset}\">}}"
             if preset else "")
    return f"module{attrs} {{\n{function_text}\n}}\n"


#===----------------------------------------------------------------------===#
# Compilation with a disk cache
#===----------------------------------------------------------------------===#

def cache_dir(options=None):
    configured = (options or {}).get("cache_dir") or \
        os.environ.get("SOL_CACHE_DIR")
    return Path(configured) if configured else Path.home() / ".cache" / "sol"


def compile_options(options=None):
    """The sol-to-ptx options string the backend's options ask for."""
    options = options or {}
    flags = ["fast-math=true"] if options.get("fast_math") else []
    if options.get("sol_options"):
        flags.append(str(options["sol_options"]).strip())
    return " ".join(flags)


def _plan_cache_digest(flags):
    """A digest of the plan-cache file the options name (sol-tile's
    plan-cache=FILE), "" without one: its measured plans decide the
    kernels, so an edited file must not be answered from the cache."""
    digest = ""
    for flag in flags.split():
        if flag.startswith("plan-cache="):
            try:
                data = Path(flag.split("=", 1)[1]).expanduser().read_bytes()
            except OSError as error:   # the compile says why, located
                data = f"unreadable: {error}".encode()
            digest += hashlib.sha256(data).hexdigest()
    return digest


def compile_cached(ir, target, options=None):
    """sol.compile(ir, target) through the memory and disk caches."""
    flags = compile_options(options)
    # The library's hash, not just its version: a rebuilt compiler (a fix,
    # a new fusion) must not be answered with kernels an older one made.
    key = hashlib.sha256("\0".join([ir, target or "", flags,
                                    _plan_cache_digest(flags), sol.version(),
                                    sol.build_id()]).encode()).hexdigest()
    if key in _memory_cache:
        cache_stats["hits"] += 1
        return _memory_cache[key], True
    path = cache_dir(options) / f"{key}.json"
    if path.is_file():
        try:
            compilation = sol.Compilation.from_json(
                json.loads(path.read_text()))
            cache_stats["hits"] += 1
            _memory_cache[key] = compilation
            log.debug("cache hit %s", path)
            return compilation, True
        except (ValueError, KeyError) as error:
            log.warning("ignoring a corrupt cache entry %s: %s", path,
                        error)
    cache_stats["misses"] += 1
    cache_stats["compiles"] += 1
    compilation = sol.compile(ir, target=None if ir.startswith(
        "module attributes") else target, options=flags or None)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps(compilation.to_json()))
        tmp.replace(path)
    except OSError as error:
        log.warning("cannot write the cache entry %s: %s", path, error)
    _memory_cache[key] = compilation
    return compilation, False


#===----------------------------------------------------------------------===#
# Running a partition
#===----------------------------------------------------------------------===#

def default_launcher(kernel, inputs):
    outputs = kernel.launch(*inputs)
    return list(outputs) if isinstance(outputs, tuple) else [outputs]


def _launch_raw(kernel, tensors):
    import torch
    kernel.launch_raw(tensors, torch.cuda.current_stream().cuda_stream)


# After one checked call, the backend launches through this (inputs and
# preallocated outputs in, nothing back): the hot path. A launcher may carry
# its own `raw` (tests do).
default_launcher.raw = _launch_raw


class SolPartitionCall(torch.nn.Module):
    """Replaces a partition in the graph (a submodule, called like the
    original nodes): runs sol's host program, or the original nodes when sol
    cannot run (the reason is logged once)."""

    def __init__(self, name, compilation, eager, launcher):
        super().__init__()
        self.name = name
        self.compilation = compilation
        self.eager = eager
        self.launcher = launcher
        self.fallback_reason = None
        function = compilation.host_program[0]
        self.function = function
        # The launches resolved once (kernel, where each input comes from,
        # its outputs' shapes and dtypes), built after a first checked call.
        self._steps = None

    def forward(self, *args):
        if self.fallback_reason is None:
            try:
                return self.run(args)
            except Exception as error:  # anything: the model must not break
                self.fallback_reason = f"{type(error).__name__}: {error}"
                log.warning("%s runs eagerly from now on: %s",
                            self.name, self.fallback_reason)
        return self.eager(*args)

    def run(self, args):
        if self._steps is not None:
            return self._run_resolved(args)
        if self.launcher is default_launcher:
            if not torch.cuda.is_available():
                raise sol.SolError("no CUDA device")
            if any(isinstance(a, torch.Tensor) and not a.is_cuda
                   for a in args):
                raise sol.SolError("inputs are not on a CUDA device")
        args = [a.contiguous() for a in args]
        launched = []

        def resolve(source):
            if "arg" in source:
                return args[source["arg"]]
            return launched[source["kernel"]][source["result"]]

        for launch in self.function["launches"]:
            kernel = self.compilation.kernel(launch["kernel"])
            inputs = [resolve(s) for s in launch["inputs"]]
            launched.append(list(self.launcher(kernel, inputs)))
        if getattr(self.launcher, "raw", None):
            self._steps = self._resolve_steps()
        return tuple(resolve(s) for s in self.function["results"])

    def _resolve_steps(self):
        return HostProgram(self.compilation)

    def _run_resolved(self, args):
        """The hot path: the first call checked every kernel's arguments and
        dynamo's guards keep this graph's shapes, dtypes and device, so the
        launches go straight to the launcher's `raw` (for the default one,
        Kernel.launch_raw on the current stream)."""
        args = [a if a.is_contiguous() else a.contiguous() for a in args]
        return tuple(self._steps.run(args, self.launcher.raw))


class HostProgram:
    """A compilation's host function with its launches resolved once: each
    kernel, where each of its inputs comes from (an argument, or an output
    of an earlier launch) and its outputs' shapes and dtypes. Both backend
    modes run their kernels through it."""

    def __init__(self, compilation):
        function = compilation.host_program[0]
        self.steps = []
        for launch in function["launches"]:
            kernel = compilation.kernel(launch["kernel"])
            self.steps.append((kernel, [self._where(s)
                                        for s in launch["inputs"]],
                               kernel.output_specs(),
                               self._dynamic_input(kernel)))
        self.results = [self._where(s) for s in function["results"]]

    @staticmethod
    def _dynamic_input(kernel):
        """The input whose outermost dim is a dynamic kernel's dynamic dim
        (-1 in its manifest shape; docs/dynamic-shapes.md), or None."""
        for index, spec in enumerate(kernel.inputs):
            if spec["shape"] and spec["shape"][0] == -1:
                return index
        return None

    @staticmethod
    def _where(source):
        if "arg" in source:
            return (None, source["arg"])
        return (source["kernel"], source["result"])

    def run(self, args, launch):
        """The results (a list) for `args`: each kernel's outputs allocated
        on the first argument's device, then `launch(kernel, inputs +
        outputs)`."""
        device = args[0].device if args else torch.device("cuda", 0)
        launched = []
        for kernel, sources, outputs, dynamic_input in self.steps:
            tensors = [args[i] if k is None else launched[k][i]
                       for k, i in sources]
            if dynamic_input is not None:
                m = tensors[dynamic_input].shape[0]
                outputs = [(tuple(m if d == -1 else d for d in shape), dtype)
                           for shape, dtype in outputs]
            outs = [torch.empty(shape, dtype=dtype, device=device)
                    for shape, dtype in outputs]
            launch(kernel, tensors + outs)
            launched.append(outs)
        return [args[i] if k is None else launched[k][i]
                for k, i in self.results]


def _eager_module(gm, partition):
    """The partition's original nodes as a GraphModule over its inputs."""
    graph = torch.fx.Graph()
    env = {}
    for node in partition.inputs:
        env[node] = graph.placeholder(node.name)
    for node in partition.nodes:
        env[node] = graph.node_copy(node, lambda n: env[n])
    graph.output(tuple(env[n] for n in partition.outputs))
    return torch.fx.GraphModule(gm, graph)


def _host_program_problem(compilation):
    if len(compilation.host_program) != 1:
        return f"{len(compilation.host_program)} host functions"
    function = compilation.host_program[0]
    if function["host_ops"]:
        return "ops left on the host: " + ", ".join(function["host_ops"])
    sources = list(function["results"])
    for launch in function["launches"]:
        sources += launch["inputs"]
    for source in sources:
        if "unsupported" in source:
            return f"a value from {source['unsupported']} on the host"
    return None


# The cost model's preset for the card a graph runs on, by a marker in
# torch.cuda.get_device_name(): its peaks and HBM bandwidth price every plan,
# so a card priced as another picks plans measured slower on it (an H100
# priced as an H200 sends 1-row weight-only fp8 decode to swap_ab where
# gemv is up to 1.3x faster there: bench/NOTES.md section 43). First match
# wins: "H100 PCIe" before the other H100s (SXM, NVL: the SXM preset).
DEVICE_PRESETS = (("H200", "h200"), ("H100 PCIe", "h100-pcie"),
                  ("H100", "h100-sxm"), ("A100", "a100-80gb"),
                  ("B200", "b200"), ("L40S", "l40s"))
FALLBACK_TARGET = "h200"


def target_for_device_name(name):
    """The preset for a CUDA device name, or None."""
    return next((preset for marker, preset in DEVICE_PRESETS
                 if marker in name), None)


def default_target():
    """The preset of the current CUDA device; FALLBACK_TARGET without CUDA
    (the CPU tests) or for a card with no preset, which is logged."""
    if not torch.cuda.is_available():
        return FALLBACK_TARGET
    name = torch.cuda.get_device_name(torch.cuda.current_device())
    preset = target_for_device_name(name)
    if preset is None:
        log.warning("no target preset for %r; plans are priced as an "
                    "%s's (options={'target': ...} names one, or a target "
                    "JSON)", name, FALLBACK_TARGET)
        return FALLBACK_TARGET
    return preset


def _options(options):
    options = dict(options or {})
    if "report" not in options:
        options["report"] = os.environ.get("SOL_REPORT", "") not in ("",
                                                                     "0")
    if "target" not in options:
        options["target"] = default_target()
    options.setdefault("launcher", default_launcher)
    return options


def _ensure_metadata(gm, example_inputs):
    """Dynamo records example values; a hand-made GraphModule gets them from
    ShapeProp over the example inputs."""
    if all(_meta(n) is not None for n in gm.graph.nodes
           if n.op not in ("output",)):
        return
    from torch.fx.passes.shape_prop import ShapeProp
    ShapeProp(gm).propagate(*example_inputs)


def sol_backend(gm, example_inputs, options=None, mode=None, **_):
    """The dynamo backend. By default Inductor compiles the graph and sol's
    post-grad pass gives sol the matmuls with their epilogues
    (sol/inductor.py); `options={"partitioner": "eager"}` keeps the older
    mode, in which sol's partitions run beside eager torch (for debugging
    the IR the backend emits)."""
    options = _options(options)
    if options.get("partitioner", "inductor") == "inductor":
        from . import inductor
        if options.get("cache_dir"):
            inductor.cache_dir = options["cache_dir"]
        return inductor.compile_with_inductor(gm, example_inputs, options,
                                              mode=mode)
    try:
        return _compile_graph(gm, example_inputs, options)
    except Exception as error:  # never break the user's model
        log.warning("the whole graph runs eagerly: %s: %s",
                    type(error).__name__, error)
        history.append(GraphReport([], {"<graph>": str(error)}))
        return gm.forward


def _compile_graph(gm, example_inputs, options):
    if any(not isinstance(x, torch.Tensor) for x in example_inputs):
        reason = "dynamic shapes (symbolic inputs)"
        log.info("graph runs eagerly: %s", reason)
        history.append(GraphReport([], {"<graph>": reason}))
        return gm.forward
    _ensure_metadata(gm, example_inputs)
    partitions, eager = partition_graph(gm)
    for name, reason in eager.items():
        log.info("%s stays eager: %s", name, reason)
    report = GraphReport(partitions, eager)
    history.append(report)
    target = options["target"]
    reports = []
    for index, partition in enumerate(partitions):
        text = _module_text(partition.ir, target)
        partition.ir = text
        try:
            compilation, hit = compile_cached(text, target, options)
        except sol.SolError as error:
            partition.status = f"eager: sol could not compile it: {error}"
            log.warning("partition %d runs eagerly: %s", index, error)
            continue
        problem = _host_program_problem(compilation)
        if problem:
            partition.status = f"eager: {problem}"
            log.warning("partition %d runs eagerly: %s", index, problem)
            continue
        partition.compilation = compilation
        partition.status = "sol (cache hit)" if hit else "sol"
        reports.append(compilation.cost_report())
        _replace(gm, partition, index, options)
    gm.graph.lint()
    gm.recompile()
    report.cost_report = "\n\n".join(reports)
    if options["report"] and reports:
        print("sol cost report:\n" + report.cost_report)
    return gm.forward


def _replace(gm, partition, index, options):
    call = SolPartitionCall(f"partition {index}", partition.compilation,
                            _eager_module(gm, partition), options["launcher"])
    partition.call = call
    graph = gm.graph
    gm.add_submodule(f"sol_partition_{index}", call)
    with graph.inserting_after(partition.nodes[-1]):
        fused = graph.call_module(f"sol_partition_{index}",
                                  tuple(partition.inputs))
    with graph.inserting_after(fused):
        for i, output in enumerate(partition.outputs):
            item = graph.call_function(operator.getitem, (fused, i))
            output.replace_all_uses_with(
                item, delete_user_cb=lambda user: user is not fused)
    for node in reversed(partition.nodes):
        graph.erase_node(node)


def _installed_entry_point():
    """Whether an installed sol package declares the "sol" backend in the
    torch_dynamo_backends entry points (python/pyproject.toml)."""
    try:
        from importlib.metadata import entry_points
        return any(ep.name == "sol"
                   for ep in entry_points(group="torch_dynamo_backends"))
    except Exception:
        return False


def _register():
    # Installed with pip, dynamo registers the backend itself from the entry
    # point on the first torch.compile(backend="sol"), importing this module
    # on the way; registering here too would trip its duplicate-name assert.
    # From a source checkout there is no entry point: register on import.
    if _installed_entry_point():
        return
    try:
        from torch._dynamo.backends.registry import register_backend
        register_backend(name="sol")(sol_backend)
    except Exception as error:  # registered already, or an older torch
        log.debug("backend registration: %s", error)


_register()
