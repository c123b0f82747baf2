"""A torch reference for a compiled kernel: evaluates the manifest's
`program` (the kernel's sol ops, written by sol-write-manifests) on any
device, in float32, rounding every value to its dtype as the kernel does.

It is what `torch_backend` tests launch instead of a GPU (a mock launcher):
running the partition's host program through it checks that the emitted IR,
the partition's argument order and the host program agree with eager torch.
"""

import torch

_DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
           "f8e4m3fn": torch.float8_e4m3fn, "f8e5m2": torch.float8_e5m2}
_FP8 = ("f8e4m3fn", "f8e5m2")

_BINARY = {"add": torch.add, "sub": torch.sub, "mul": torch.mul,
           "div": torch.div, "max": torch.maximum, "min": torch.minimum}
_UNARY = {"neg": torch.neg, "abs": torch.abs, "exp": torch.exp,
          "tanh": torch.tanh, "erf": torch.erf, "sigmoid": torch.sigmoid,
          "relu": torch.relu,
          "silu": torch.nn.functional.silu}


def run_manifest(manifest, inputs):
    """The kernel's outputs (a list, in manifest order) for `inputs`."""
    values = []
    for op in manifest["program"]:
        kind = op["op"]
        operands = [values[i] for i in op.get("operands", [])]
        if kind == "arg":
            values.append(inputs[op["index"]].float())
            continue
        if kind == "constant":
            # A number, or "inf", "-inf" or "nan" (JSON has none of those).
            result = torch.tensor(float(op["value"]), dtype=torch.float32)
        elif kind == "matmul":
            a, b = operands
            scales = {key: values[op[key]] for key in ("scale_a", "scale_b")
                      if key in op}
            block = {key: _is_block_scale(key, scale)
                     for key, scale in scales.items()}
            if any(block.values()):
                result = _block_scaled_matmul(
                    a, b, scales.get("scale_a") if block.get("scale_a")
                    else None, scales.get("scale_b") if block.get("scale_b")
                    else None)
            else:
                result = a @ (b.transpose(-1, -2) if op.get("transpose_b")
                              else b)
            # fp8 scales (docs/fp8.md): dequantisation scales on the f32
            # accumulator, scale_a per tensor or per row ([M, 1]), scale_b
            # per tensor or per column ([N]), before the epilogue reads it.
            for key, scale in scales.items():
                if not block[key]:
                    result = result * scale
            # An fp8 result is that over scale_out, rounded below.
            if "scale_out" in op:
                result = result / values[op["scale_out"]]
        elif kind in _BINARY:
            result = _BINARY[kind](*operands)
        elif kind in _UNARY:
            result = _UNARY[kind](operands[0])
        elif kind == "gelu":
            result = torch.nn.functional.gelu(
                operands[0], approximate="tanh"
                if op.get("approximate") == "tanh" else "none")
        elif kind == "cast":
            result = operands[0]
        else:
            raise ValueError(f"reference: unknown op {kind!r}")
        if op["dtype"] in _FP8:
            # sol.cast saturates (docs/fp8.md); torch's conversion makes
            # e4m3fn's overflow NaN and e5m2's infinity. The clamp keeps NaN.
            largest = torch.finfo(_DTYPES[op["dtype"]]).max
            result = result.clamp(-largest, largest)
        values.append(result.to(_DTYPES[op["dtype"]]).float())
    outputs = []
    specs = [a for a in manifest["args"] if a["role"] == "output"]
    for spec, index in zip(specs, manifest["outputs"]):
        outputs.append(values[index].to(_DTYPES[spec["dtype"]]))
    return outputs


# The side of a block-wise scale's blocks (docs/fp8.md, "Block-wise
# scales"; the compiler's MatmulOp::kScaleBlock).
SCALE_BLOCK = 128


def _is_block_scale(key, scale):
    """Whether a matmul's scale is block-wise, by its shape: scale_b
    [ceil(N/128), ceil(K/128)], scale_a [..., M, ceil(K/128)] of more than
    one group."""
    if key == "scale_b":
        return scale.dim() == 2
    return scale.dim() >= 2 and scale.shape[-1] != 1


def _block_scaled_matmul(a, b, scale_a, scale_b):
    """sum over K blocks of each block's partial sum times its scales; b is
    [N, K] (fp8 weights are K-major). A missing scale is 1."""
    k, n = a.shape[-1], b.shape[0]
    blocks = -(-k // SCALE_BLOCK)
    pad = blocks * SCALE_BLOCK - k
    a = torch.nn.functional.pad(a, (0, pad)).unflatten(-1, (blocks, -1))
    b = torch.nn.functional.pad(b, (0, pad)).unflatten(-1, (blocks, -1))
    partial = torch.einsum("...mgc,ngc->...mng", a, b)
    if scale_a is not None:
        partial = partial * scale_a.unsqueeze(-2)
    if scale_b is not None:
        partial = partial * scale_b.repeat_interleave(SCALE_BLOCK, 0)[:n]
    return partial.sum(-1)


def reference_launcher(kernel, inputs):
    """A torch_backend launcher that computes on the inputs' device."""
    return run_manifest(kernel.manifest, inputs)


def _reference_raw(kernel, tensors):
    """The hot-path form: inputs then preallocated outputs, filled in place."""
    count = len(kernel.inputs)
    for out, value in zip(tensors[count:],
                          run_manifest(kernel.manifest, tensors[:count])):
        out.copy_(value)


reference_launcher.raw = _reference_raw
