#!/usr/bin/env python3
"""A Llama-family model tensor-parallel over the processes of one machine,
compiled with torch.compile(backend="sol") in each (issue 21):

    torchrun --nproc-per-node 2 bench/tp_llama.py --out OUT.json      # 2 GPUs
    torchrun --nproc-per-node 2 bench/tp_llama.py --device cpu --tiny  # CPU, gloo

Each process owns one device (cuda:LOCAL_RANK, NCCL; or the CPU, gloo) and
holds its shard of every layer, Megatron's split: the q/k/v and gate/up
projections column-parallel (each rank its heads and its columns of the
MLP), o_proj and down row-parallel, each followed by an all-reduce of the
partial sums (torch.distributed's functional collectives, which dynamo
traces, so the compiled graph holds them and NCCL runs them: sol compiles
the matmuls with their epilogues on each rank's own device and leaves the
collectives alone). The embedding, norms and lm_head are replicated.

Weights: random, generated on the CPU from one seed and sliced per rank, so
rank 0 can also build the unsharded model of the same weights: its eager
logits (float32) are the reference every rank's logits are checked against
(`ok`: max |diff| / max |ref| within twice the eager low-precision model's
own error, or 2 %), for prefill and one decode step against a static KV
cache.

Timing (GPU only): every rank runs the same fixed number of calls (the
collectives need it: a timing loop that stops on the clock could leave one
rank waiting), 1 s-equivalent of heat then rounds of back-to-back calls
between CUDA events; rank 0's median is reported. Rows, one per (phase,
batch, tokens, impl), in OUT.json: {"model", "world", "phase", "batch",
"tokens", "impl", "ms", "ok", "rel_err", "sol_flop_share" (sol rows),
"sol_devices" (sol rows: the devices each rank's sol kernels were bound
to)}, plus the card and date.

NVLink multicast stays off in every process (the device notes require it):
NCCL_NVLS_ENABLE=0, TORCH_SYMM_MEM_DISABLE_MULTICAST=1, NVSHMEM_DISABLE_NVLS=1
are set here before torch.distributed starts, and should also be set in the
environment torchrun is started from.
"""

import argparse
import datetime
import json
import math
import os
import sys

for _var, _value in (("NCCL_NVLS_ENABLE", "0"),
                     ("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"),
                     ("NVSHMEM_DISABLE_NVLS", "1")):
    os.environ[_var] = _value

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.distributed._functional_collectives as funcol  # noqa: E402
import torch.nn.functional as F  # noqa: E402

# A real 1-8 B model's widths (Llama 3.2 3B: hidden 3072, MLP 8192, 24 query
# heads, 8 KV heads of 128), but a 32000-token vocabulary (Llama 3.2 has
# 128256: the replicated lm_head would dominate a 4-layer model); a few
# layers keep a call's time stable.
REAL = dict(hidden=3072, intermediate=8192, heads=24, kv_heads=8,
            head_dim=128, vocab=32000, layers=4)
TINY = dict(hidden=64, intermediate=96, heads=4, kv_heads=2, head_dim=16,
            vocab=100, layers=2)
IMPLS = {"eager": None, "inductor": "inductor", "sol": "sol"}


def rms_norm(x, weight, eps=1e-5):
    variance = x.float().pow(2).mean(-1, keepdim=True)
    return (x.float() * torch.rsqrt(variance + eps)).to(x.dtype) * weight


def rotary(x, positions, head_dim):
    """x: [B, H, T, D]; positions: [T] (or [B, T])."""
    inv = 1.0 / (10000 ** (torch.arange(0, head_dim, 2, device=x.device,
                                        dtype=torch.float32) / head_dim))
    angles = positions.float()[..., None] * inv
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if cos.dim() == 2:
        cos, sin = cos[None, None], sin[None, None]
    else:
        cos, sin = cos[:, None], sin[:, None]
    x1, x2 = x[..., : head_dim // 2], x[..., head_dim // 2:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)


class Layer(torch.nn.Module):
    """One decoder layer's shard: `heads` / `kv_heads` / `intermediate` are
    this rank's share; `group` None for the unsharded reference."""

    def __init__(self, w, cfg, heads, kv_heads, group):
        super().__init__()
        self.heads, self.kv_heads, self.group = heads, kv_heads, group
        self.head_dim = cfg["head_dim"]
        for name, value in w.items():
            self.register_buffer(name, value)

    def all_reduce(self, x):
        if self.group is None:
            return x
        return funcol.all_reduce(x, "sum", self.group)

    def forward(self, x, positions, cache_k, cache_v, start):
        b, t, _ = x.shape
        d = self.head_dim
        h = rms_norm(x, self.attn_norm)
        q = F.linear(h, self.wq).view(b, t, self.heads, d).transpose(1, 2)
        k = F.linear(h, self.wk).view(b, t, self.kv_heads, d).transpose(1, 2)
        v = F.linear(h, self.wv).view(b, t, self.kv_heads, d).transpose(1, 2)
        q, k = rotary(q, positions, d), rotary(k, positions, d)
        # The static cache: this call's keys and values at [start, start + t).
        index = start + torch.arange(t, device=x.device)
        cache_k.index_copy_(2, index, k)
        cache_v.index_copy_(2, index, v)
        length = cache_k.shape[2]
        visible = (torch.arange(length, device=x.device)[None, :] <=
                   (start + torch.arange(t, device=x.device))[:, None])
        keys = cache_k.repeat_interleave(self.heads // self.kv_heads, 1)
        values = cache_v.repeat_interleave(self.heads // self.kv_heads, 1)
        attn = F.scaled_dot_product_attention(q, keys, values,
                                              attn_mask=visible)
        attn = attn.transpose(1, 2).reshape(b, t, self.heads * d)
        x = x + self.all_reduce(F.linear(attn, self.wo))
        h = rms_norm(x, self.mlp_norm)
        mlp = F.silu(F.linear(h, self.wg)) * F.linear(h, self.wu)
        return x + self.all_reduce(F.linear(mlp, self.wd))


class Model(torch.nn.Module):
    def __init__(self, weights, cfg, rank, world, group):
        super().__init__()
        heads, kv_heads = cfg["heads"] // world, cfg["kv_heads"] // world
        inter = cfg["intermediate"] // world
        d = cfg["head_dim"]
        self.cfg, self.kv_heads = cfg, kv_heads
        layers = []
        for w in weights["layers"]:
            q0, kv0, i0 = rank * heads * d, rank * kv_heads * d, rank * inter
            shard = dict(
                attn_norm=w["attn_norm"], mlp_norm=w["mlp_norm"],
                wq=w["wq"][q0:q0 + heads * d], wk=w["wk"][kv0:kv0 + kv_heads * d],
                wv=w["wv"][kv0:kv0 + kv_heads * d],
                wo=w["wo"][:, q0:q0 + heads * d].contiguous(),
                wg=w["wg"][i0:i0 + inter], wu=w["wu"][i0:i0 + inter],
                wd=w["wd"][:, i0:i0 + inter].contiguous())
            layers.append(Layer(shard, cfg, heads, kv_heads, group))
        self.layers = torch.nn.ModuleList(layers)
        self.register_buffer("embed", weights["embed"])
        self.register_buffer("norm", weights["norm"])
        self.register_buffer("lm_head", weights["lm_head"])

    def new_cache(self, batch, length, dtype, device):
        shape = (batch, self.kv_heads, length, self.cfg["head_dim"])
        return [(torch.zeros(shape, dtype=dtype, device=device),
                 torch.zeros(shape, dtype=dtype, device=device))
                for _ in self.layers]

    def forward(self, tokens, start, cache):
        x = F.embedding(tokens, self.embed)
        positions = start + torch.arange(tokens.shape[1], device=tokens.device)
        for layer, (k, v) in zip(self.layers, cache):
            x = layer(x, positions, k, v, start)
        return F.linear(rms_norm(x, self.norm), self.lm_head)


def make_weights(cfg, seed=0):
    """The full model's weights, on the CPU in float32, N(0, 1/fan_in)."""
    g = torch.Generator().manual_seed(seed)

    def rand(*shape):
        return torch.randn(*shape, generator=g) / math.sqrt(shape[-1])

    hid, d = cfg["hidden"], cfg["head_dim"]
    layers = []
    for _ in range(cfg["layers"]):
        layers.append(dict(
            attn_norm=1 + 0.1 * torch.randn(hid, generator=g),
            mlp_norm=1 + 0.1 * torch.randn(hid, generator=g),
            wq=rand(cfg["heads"] * d, hid), wk=rand(cfg["kv_heads"] * d, hid),
            wv=rand(cfg["kv_heads"] * d, hid), wo=rand(hid, cfg["heads"] * d),
            wg=rand(cfg["intermediate"], hid), wu=rand(cfg["intermediate"], hid),
            wd=rand(hid, cfg["intermediate"])))
    return dict(layers=layers, embed=torch.randn(cfg["vocab"], hid, generator=g),
                norm=1 + 0.1 * torch.randn(hid, generator=g),
                lm_head=rand(cfg["vocab"], hid))


def cast(weights, dtype, device):
    if isinstance(weights, dict):
        return {k: cast(v, dtype, device) for k, v in weights.items()}
    if isinstance(weights, list):
        return [cast(v, dtype, device) for v in weights]
    return weights.to(device=device, dtype=dtype)


def timed_ms(fn, heat=20, reps=10, rounds=5):
    """Median ms per call over `rounds` windows of `reps` calls, after
    `heat` calls: fixed counts, the same on every rank."""
    if not torch.cuda.is_available():
        return None
    for _ in range(heat):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(rounds):
        a, b = (torch.cuda.Event(enable_timing=True) for _ in range(2))
        a.record()
        for _ in range(reps):
            fn()
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b) / reps)
    return sorted(times)[len(times) // 2]


def rel_err(got, ref):
    ref = ref.float()
    return ((got.float().cpu() - ref.cpu()).abs().max() /
            ref.abs().max().clamp_min(1e-30)).item()


def sol_devices():
    """The CUDA device ordinals this process's sol kernels are loaded on."""
    import gc
    import sol
    seen = set()
    for obj in gc.get_objects():
        try:
            if isinstance(obj, sol.Kernel):
                seen.update(getattr(obj, "_loaded", {}).keys())
        except ReferenceError:   # a dead weak proxy
            continue
    return sorted(seen)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out")
    parser.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    parser.add_argument("--tiny", action="store_true")
    parser.add_argument("--dtype", default="bf16", choices=["bf16", "fp16", "fp32"])
    parser.add_argument("--prefill", default="4x512,1x2048")
    parser.add_argument("--decode-batches", default="1,8,64")
    parser.add_argument("--decode-past", type=int, default=512)
    parser.add_argument("--impls", default="eager,inductor,sol")
    args = parser.parse_args()

    rank = int(os.environ.get("RANK", 0))
    world = int(os.environ.get("WORLD_SIZE", 1))
    local = int(os.environ.get("LOCAL_RANK", 0))
    if args.device == "cuda":
        torch.cuda.set_device(local)
        device = torch.device("cuda", local)
        dist.init_process_group("nccl", device_id=device)
    else:
        device = torch.device("cpu")
        dist.init_process_group("gloo")
    group = dist.group.WORLD
    cfg = dict(TINY if args.tiny else REAL)
    if cfg["kv_heads"] % world or cfg["intermediate"] % world:
        raise SystemExit(f"tp_llama: {world} ranks do not split the KV heads "
                         f"and MLP of {cfg}")
    dtype = {"bf16": torch.bfloat16, "fp16": torch.float16,
             "fp32": torch.float32}[args.dtype]
    if args.device == "cpu":
        dtype = torch.float32   # the reference launcher's own precision
    import sol.torch_backend  # noqa: F401  (registers backend="sol")
    import sol.inductor

    full = make_weights(cfg)
    reference = Model(cast(full, torch.float32, device), cfg, 0, 1, None)
    low = Model(cast(full, dtype, device), cfg, 0, 1, None)
    sharded = Model(cast(full, dtype, device), cfg, rank, world, group)

    shapes = [("prefill", int(b), int(t), 0)
              for b, t in (s.split("x") for s in args.prefill.split(","))]
    shapes += [("decode", int(b), 1, args.decode_past)
               for b in args.decode_batches.split(",")]
    if args.tiny:
        shapes = [("prefill", 2, 7, 0), ("prefill", 3, 5, 0),
                  ("decode", 2, 1, 6)]
    rows = []
    for impl in args.impls.split(","):
        backend = IMPLS[impl]
        torch._dynamo.reset()
        fn = sharded if backend is None else torch.compile(
            sharded, backend=backend, dynamic=True)
        since = len(sol.inductor.history)
        for phase, batch, tokens, past in shapes:
            g = torch.Generator().manual_seed(batch * 1000 + tokens)
            ids = torch.randint(0, cfg["vocab"], (batch, past + tokens),
                                generator=g).to(device)
            length = past + tokens
            row = dict(model="llama-tp", world=world, phase=phase, batch=batch,
                       tokens=tokens, past=past, impl=impl)
            try:
                def run(model, dtype_):
                    cache = model.new_cache(batch, length, dtype_, device)
                    if past:   # fill the cache, then the step
                        model(ids[:, :past], torch.tensor(0, device=device), cache)
                    start = torch.tensor(past, device=device)
                    return cache, model(ids[:, past:], start, cache)

                with torch.no_grad():
                    _, ref = run(reference, torch.float32)
                    _, low_out = run(low, dtype)
                    cache, got = run(fn, dtype)
                    start = torch.tensor(past, device=device)
                    step = ids[:, past:]
                    err = rel_err(got, ref)
                    row["rel_err"] = err
                    row["ok"] = err <= max(2 * rel_err(low_out, ref), 0.02)
                    row["ms"] = timed_ms(lambda: fn(step, start, cache))
            except Exception as error:  # a failed row is recorded, not fatal
                row.update(ok=False, ms=None,
                           error=f"{type(error).__name__}: {error}"[:300])
            if backend == "sol":
                graphs = sol.inductor.history[since:]
                total = sum(gr.matmul_flops for gr in graphs)
                row["sol_flop_share"] = (sum(gr.sol_flops for gr in graphs) /
                                         total) if total else None
                devices = [None] * world
                dist.all_gather_object(devices, sol_devices())
                row["sol_devices"] = devices
            oks = [None] * world
            dist.all_gather_object(oks, row.get("ok"))
            row["ok_all_ranks"] = all(oks)
            rows.append(row)
            if rank == 0:
                print(json.dumps(row), flush=True)
    if rank == 0 and args.out:
        card = (torch.cuda.get_device_name(device)
                if args.device == "cuda" else "cpu")
        json.dump(dict(card=card, date=datetime.date.today().isoformat(),
                       torch=torch.__version__, config=cfg, rows=rows),
                  open(args.out, "w"), indent=1)
    dist.barrier()
    dist.destroy_process_group()
    return 0 if all(r.get("ok_all_ranks") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
