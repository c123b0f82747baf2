"""What the Python tests of sol::fused's pointer forms share: raw addresses
wrapped back into tensors of a kernel's manifest shapes and the kernel's
manifest program evaluated on them (the CPU stand-in for a launch), and the
SwiGLU MLP they compile."""

import ctypes

import torch
import torch.nn.functional as F

from sol.reference import _reference_raw

_DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}


def wrap(address, shape, dtype):
    """The tensor of `shape` and `dtype` at a raw CPU address."""
    count = 1
    for d in shape:
        count *= d
    size = count * torch.empty((), dtype=dtype).element_size()
    buffer = (ctypes.c_char * size).from_address(address)
    return torch.frombuffer(buffer, dtype=dtype, count=count).view(shape)


def evaluate(kernel, pointers, m):
    """Runs `kernel`'s manifest program on the buffers at `pointers`
    (inputs then outputs, as a launch gets them), M = `m`."""
    specs = kernel.manifest["args"]
    assert len(pointers) == len(specs), (len(pointers), len(specs))
    tensors = [wrap(pointers[i], [m if d == -1 else d for d in spec["shape"]],
                    _DTYPES[spec["dtype"]])
               for i, spec in enumerate(specs)]
    _reference_raw(kernel, tensors)


class SwiGLU(torch.nn.Module):
    def __init__(self, d=24, f=40):
        super().__init__()
        self.gate = torch.nn.Linear(d, f, bias=False)
        self.up = torch.nn.Linear(d, f, bias=False)
        self.down = torch.nn.Linear(f, d, bias=False)

    def forward(self, x):
        return x + self.down(F.silu(self.gate(x)) * self.up(x))
