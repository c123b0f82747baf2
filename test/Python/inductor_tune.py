# The backend's tuning mode (options={"tune": N}, issue 19's measured plan
# choice) on the CPU: each region is compiled at sol-tile's ranks 0..N-1 and
# the fastest candidate runs. Nothing can be timed here, so the timing hook
# (`inductor.tune_timing`) is a stand-in that runs each candidate once and
# says rank 1 is the faster: the region must then launch rank 1's kernels
# (not the cost model's), still match eager, and the report and
# tuning.jsonl must hold both candidates with their predicted and measured
# times. A second compile takes the winner from the disk cache without
# timing; an untuned compile of the same model neither reads it nor logs.
# REQUIRES: torch
# RUN: rm -rf %t && SOL_CACHE_DIR=%t %sol_python -u %s %t 2>&1 | FileCheck %s

import json
import logging
import os
import sys
import tempfile

import torch
import torch._dynamo

import sol
import sol.inductor as inductor
import sol.torch_backend  # noqa: F401  (registers backend="sol")
from sol.reference import _reference_raw

logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
logging.getLogger("torch").setLevel(logging.ERROR)
torch.manual_seed(0)
LOG = os.path.join(sys.argv[1], inductor.TUNING_LOG)

# Every kernel plan launched, as its manifest gives it.
launched = []


def recording_launcher(kernel, tensors):
    """The reference launcher, keeping the plan that ran (a dynamic kernel's
    row at the launch's M)."""
    m = kernel.dim_of(tensors)
    plan = inductor.plan_row(kernel.manifest, m)["plan"]
    launched.append(plan)
    _reference_raw(kernel, tensors)
    if plan == wrong_plan:   # a kernel that computes a wrong answer
        tensors[-1].add_(1.0)


wrong_plan = None


inductor.launchers["recording"] = recording_launcher
timed = []


def rank_one_is_faster(call, copies, graphs, candidate):
    """Runs the candidate once (it must launch) and calls rank 1 the
    faster."""
    call(copies[0])
    timed.append(candidate["rank"])
    return 1.0 if candidate["rank"] == 1 else 2.0


def refuse_to_time(call, copies, graphs, candidate):
    raise AssertionError("a cached tuning was timed again")


class Projection(torch.nn.Module):
    """A biased f16 projection with a ReLU: one kernel with many plans."""

    def __init__(self, k=48, n=80):
        super().__init__()
        self.proj = torch.nn.Linear(k, n).half()

    def forward(self, x):
        return torch.relu(self.proj(x))


def log_lines():
    if not os.path.exists(LOG):
        return []
    with open(LOG) as f:
        return [json.loads(line) for line in f]


def run(name, model, x, options, dynamic=False):
    """Compiles `model` (one kernel set for every M when `dynamic`), runs it
    twice (the first call traces and tunes) and returns the plans the second
    call launched."""
    torch._dynamo.reset()
    before = len(inductor.history)
    compiled = torch.compile(model, backend="sol", dynamic=dynamic,
                             options=dict(options, dynamic=dynamic,
                                          launcher_name="recording"))
    with torch.no_grad():
        expected = model(x)
        compiled(x)
        del launched[:]
        got = compiled(x)
    close = torch.allclose(got.float(), expected.float(), rtol=1e-2,
                           atol=1e-2)
    print(f"== {name}: matches eager: {close}")
    for graph in inductor.history[before:]:
        print(graph.summary())
    return list(launched), inductor.history[-1].regions[0]


model = Projection()
x = torch.randn(3, 7, 48).half()   # M = 21

# Two candidates timed at the example M; rank 1 kept, and run.
# CHECK-LABEL: == rank_one_measured_faster: matches eager: True
# CHECK:       region 0: sol:
# CHECK-NEXT:    kernel {{.*}}: [[PLAN1:[a-z_]+ [0-9x]+[^,]*]], T_pred
# CHECK-NEXT:    tuned at M=21: rank 0: [[PLAN0:[a-z_]+ [0-9x]+[^,]*]], T_pred {{[0-9.]+}} us, measured 2.00 us{{$}}
# CHECK-NEXT:    tuned at M=21: rank 1: [[PLAN1]], T_pred {{[0-9.]+}} us, measured 1.00 us, kept
# CHECK:       == timed ranks [0, 1]
# CHECK:       == runs rank 1's plan: True, not rank 0's: True
# CHECK:       == tuning.jsonl: ranks [0, 1], chosen [False, True], measured [2.0, 1.0], predicted True, at M [21, 21], priced at M [21, 21], tune [2, 2]
inductor.tune_timing = rank_one_is_faster
plans, region = run("rank_one_measured_faster", model, x, {"tune": 2})
print(f"== timed ranks {timed}")
rank0, rank1 = ([k["plan"] for k in c["kernels"]] for c in region.tuning)
print(f"== runs rank 1's plan: {plans == rank1}, not rank 0's: "
      f"{rank0 != rank1}")
lines = log_lines()
print(f"== tuning.jsonl: ranks {[e['rank'] for e in lines]}, chosen "
      f"{[e['chosen'] for e in lines]}, measured "
      f"{[e['measured_us'] for e in lines]}, predicted "
      f"{all(e['t_pred_us'] > 0 and e['plan'] for e in lines)}, at M "
      f"{[e['m'] for e in lines]}, priced at M "
      f"{[e['t_pred_m'] for e in lines]}, tune {[e['tune'] for e in lines]}")

# Each static candidate's row names its plan-cache entry (sol-tile's
# plan-cache, include/SolDialect/PlanCache.h): the winner's rows make a
# cache file that pins the same kernel, compiled outside the backend
# (sol.compile, the C API's path), to the measured plan; without the file
# the cost model's rank-0 plan comes back.
# CHECK:       == plan cache from the log: keys True, pins rank 1: True, without it rank 0: True
winner = next(e for e in lines if e["chosen"])
entries = [{"key": k["plan_key"], "plan": k["plan_attr"]}
           for k in winner["kernels"]]
keys_ok = all(e["key"] and e["key"].startswith("h200:") and e["plan"]
              for e in entries)
cache_file = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False,
                                         dir=sys.argv[1])
json.dump({"plans": entries}, cache_file)
cache_file.close()
region_text = inductor.region_ir(inductor._parse_spec(
    next(t for t, m in inductor._runners if m == 21)), 21)
pinned = sol.compile(region_text, options=f"plan-cache={cache_file.name}")
plain = sol.compile(region_text)
print(f"== plan cache from the log: keys {keys_ok}, pins rank 1: "
      f"{[k.manifest['plan'] for k in pinned.kernels] == rank1}, without "
      f"it rank 0: {[k.manifest['plan'] for k in plain.kernels] == rank0}")

# A fresh process's view (the memory of tunings and runners gone): the
# winner comes from the disk cache, untimed, and runs.
# CHECK-LABEL: == cached_tuning: matches eager: True
# CHECK:         tuned at M=21: rank 1: [[PLAN1]], {{.*}}, kept
# CHECK:       == cached: runs rank 1's plan: True, log lines 2
inductor.tunings.clear()
inductor._runners.clear()
inductor._calls.clear()
inductor.tune_timing = refuse_to_time
plans, _ = run("cached_tuning", model, x, {"tune": 2})
print(f"== cached: runs rank 1's plan: {plans == rank1}, log lines "
      f"{len(log_lines())}")

# Untuned, the same model runs the cost model's plan: no tuning read or
# logged.
# CHECK-LABEL: == untuned: matches eager: True
# CHECK-NOT:     tuned at
# CHECK:       == untuned: runs rank 0's plan: True, log lines 2
plans, _ = run("untuned", model, x, {})
print(f"== untuned: runs rank 0's plan: {plans == rank0}, log lines "
      f"{len(log_lines())}")

# An f32 matmul has one plan (SIMT): every rank compiles to it, so it is
# timed once.
# CHECK-LABEL: == one_plan: matches eager: True
# CHECK:         tuned at M=21: rank 0: simt {{.*}}, kept
# CHECK-NOT:     tuned at
# CHECK:       == one_plan: timed ranks [0]
del timed[:]
inductor.tune_timing = rank_one_is_faster
plans, _ = run("one_plan", Projection().float(), x.float(), {"tune": 3})
print(f"== one_plan: timed ranks {timed}")

# The dynamic kernel set (the default) is tuned once, at the example M, for
# every M: rank 1's table runs. Its manifest prices the row at its m_max,
# and the report says so.
# CHECK-LABEL: == dynamic_set: matches eager: True
# CHECK:         tuned at M=21: rank 0: {{.*}} at M=65536, measured 2.00 us{{$}}
# CHECK-NEXT:    tuned at M=21: rank 1: {{.*}} at M=65536, measured 1.00 us, kept
# CHECK:       == dynamic_set: timed ranks [0, 1], runs rank 1's plan: True
del timed[:]
plans, region = run("dynamic_set", Projection(k=40, n=72), torch.randn(
    3, 7, 40).half(), {"tune": 2}, dynamic=True)
rank1 = [k["plan"] for k in region.tuning[1]["kernels"]]
print(f"== dynamic_set: timed ranks {timed}, runs rank 1's plan: "
      f"{plans == rank1}")

# A candidate whose outputs disagree with the first one's is dropped before
# it is timed, however fast: here rank 1's plan computes a wrong answer.
# CHECK-LABEL: == wrong_candidate: matches eager: True
# CHECK:         tuned at M=21: rank 0: {{.*}}, measured 2.00 us, kept
# CHECK-NEXT:    tuned at M=21: rank 2: {{.*}}, measured 2.00 us{{$}}
# CHECK:       == wrong_candidate: timed ranks [0, 2]
del timed[:]
rank1_static = [k["plan"] for k in inductor.history[0].regions[0]
                .tuning[1]["kernels"]]
wrong_plan = rank1_static[0]
plans, _ = run("wrong_candidate", Projection(), x, {"tune": 3})
wrong_plan = None
print(f"== wrong_candidate: timed ranks {timed}")
