# sol.inductor.report() on code dynamo splits into several graphs: each
# graph's share counts only what that graph holds, so the report ends with
# dynamo's graph breaks (the code between graphs runs eagerly, in none of
# the shares), and says nothing of them when there were none. A model with
# a data-dependent branch (as Mixtral's expert loop is) breaks once.
# REQUIRES: torch
# RUN: rm -rf %t && SOL_CACHE_DIR=%t %sol_python -u %s 2>&1 | FileCheck %s

import logging

import torch
import torch._dynamo

import sol.inductor as inductor
import sol.torch_backend  # noqa: F401  (registers backend="sol")

logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
logging.getLogger("torch").setLevel(logging.ERROR)
torch.manual_seed(0)


class Mlp(torch.nn.Module):
    def __init__(self, branch):
        super().__init__()
        self.up = torch.nn.Linear(16, 24)
        self.down = torch.nn.Linear(24, 8)
        self.branch = branch

    def forward(self, x):
        h = torch.relu(self.up(x))
        if self.branch and (h.sum(-1) > 0).nonzero().numel() > 3:
            h = h * 2
        return self.down(h)


def run(name, model):
    torch._dynamo.reset()
    inductor.history.clear()
    compiled = torch.compile(model, backend="sol")
    x = torch.randn(7, 16)
    with torch.no_grad():
        same = torch.allclose(compiled(x), model(x), rtol=1e-4, atol=1e-4)
    print(f"== {name}: matches eager {same}")
    print(inductor.report())
    print("== end")


# CHECK-LABEL: == one_graph: matches eager True
# CHECK:       graph 0:
# CHECK-NOT:   graph 1:
# CHECK-NOT:   graph breaks
# CHECK:       == end
run("one_graph", Mlp(branch=False))

# CHECK-LABEL: == data_dependent_branch: matches eager True
# CHECK:       graph 0:
# CHECK:       graph 1:
# CHECK:       dynamo's graph breaks in this process: 1; the code between two graphs runs eagerly and is in none of the shares above:
# CHECK-NEXT:    1 x {{.+}}
# CHECK:       == end
run("data_dependent_branch", Mlp(branch=True))
