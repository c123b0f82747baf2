"""Hugging Face `transformers` models with random weights from a config (no
hub download), for the model benchmark (bench/models.py, H200) and the CPU
test of the torch.compile backend (test/Python/inductor_models.py).

Each family has a `real` size (the width of a public 1-8 B checkpoint, fewer
layers: every layer is the same kernels, so a few give stable figures) and
a `tiny` size for CPU tests. `prefill` runs the model over a prompt; `decode`
runs one token against a static KV cache filled to `past` tokens (what
serving engines capture in CUDA graphs).
"""

import torch
import transformers

# family -> (config class, real-size kwargs, tiny kwargs, decoder?)
FAMILIES = {
    # Llama 3.2 1B's width: GQA (32 heads, 8 KV heads), SwiGLU MLP.
    "llama": (transformers.LlamaConfig,
              dict(hidden_size=2048, intermediate_size=8192,
                   num_attention_heads=32, num_key_value_heads=8,
                   vocab_size=128256, num_hidden_layers=4),
              dict(hidden_size=64, intermediate_size=160,
                   num_attention_heads=4, num_key_value_heads=2,
                   vocab_size=96, num_hidden_layers=2), True),
    # GPT-2 large's width: Conv1D ([K, N] weights, addmm), GELU-tanh MLP.
    "gpt2": (transformers.GPT2Config,
             dict(n_embd=1280, n_head=20, vocab_size=50257, n_layer=6,
                  n_positions=4096),
             dict(n_embd=64, n_head=4, vocab_size=96, n_layer=2), True),
    # Qwen2 1.5B's width: biased Q/K/V, 12 heads over 2 KV heads, SwiGLU.
    "qwen2": (transformers.Qwen2Config,
              dict(hidden_size=1536, intermediate_size=8960,
                   num_attention_heads=12, num_key_value_heads=2,
                   vocab_size=151936, num_hidden_layers=4),
              dict(hidden_size=48, intermediate_size=136,
                   num_attention_heads=4, num_key_value_heads=2,
                   vocab_size=96, num_hidden_layers=2), True),
    # Pythia 1.4B's width: fused QKV, parallel residual, biased GELU MLP.
    "gpt_neox": (transformers.GPTNeoXConfig,
                 dict(hidden_size=2048, intermediate_size=8192,
                      num_attention_heads=16, vocab_size=50304,
                      num_hidden_layers=4),
                 dict(hidden_size=64, intermediate_size=256,
                      num_attention_heads=4, vocab_size=96,
                      num_hidden_layers=2), True),
    # OPT 1.3B's width: biased projections, ReLU MLP, post-softmax layout.
    "opt": (transformers.OPTConfig,
            dict(hidden_size=2048, ffn_dim=8192, num_attention_heads=32,
                 vocab_size=50272, num_hidden_layers=4, word_embed_proj_dim=2048,
                 max_position_embeddings=4096),
            dict(hidden_size=64, ffn_dim=256, num_attention_heads=4,
                 vocab_size=96, num_hidden_layers=2, word_embed_proj_dim=64),
            True),
    # Phi-3 mini's width: fused QKV and fused gate-up projections (the MLP
    # chunks gate_up_proj's output in two), SwiGLU.
    "phi3": (transformers.Phi3Config,
             dict(hidden_size=3072, intermediate_size=8192,
                  num_attention_heads=32, num_key_value_heads=32,
                  vocab_size=32064, num_hidden_layers=4, pad_token_id=0),
             dict(hidden_size=64, intermediate_size=160,
                  num_attention_heads=4, num_key_value_heads=2,
                  vocab_size=96, num_hidden_layers=2, pad_token_id=0,
                  bos_token_id=1, eos_token_id=2), True),
    # Gemma 2B's width: GeGLU (GELU-tanh gate) MLP, multi-query attention
    # (8 heads over 1 KV head) with 256-wide heads, a 256000-token
    # vocabulary, the embedding scaled by sqrt(hidden).
    "gemma": (transformers.GemmaConfig,
              dict(hidden_size=2048, intermediate_size=16384,
                   num_attention_heads=8, num_key_value_heads=1,
                   head_dim=256, vocab_size=256000, num_hidden_layers=4),
              dict(hidden_size=64, intermediate_size=160,
                   num_attention_heads=4, num_key_value_heads=1,
                   head_dim=16, vocab_size=96, num_hidden_layers=2), True),
    # Falcon 7B's width: attention and MLP in parallel off one LayerNorm,
    # multi-query attention through one fused QKV projection, a GELU MLP of
    # 4x with no biases.
    "falcon": (transformers.FalconConfig,
               dict(hidden_size=4544, num_attention_heads=71,
                    multi_query=True, parallel_attn=True, bias=False,
                    new_decoder_architecture=False, vocab_size=65024,
                    num_hidden_layers=4),
               dict(hidden_size=64, num_attention_heads=4, multi_query=True,
                    parallel_attn=True, bias=False,
                    new_decoder_architecture=False, vocab_size=96,
                    num_hidden_layers=2), True),
    # SantaCoder / StarCoder-1B's width (GPT-BigCode): multi-query attention
    # with the one K/V head fused into c_attn (nn.Linear, unlike GPT-2's
    # Conv1D), a biased GELU-tanh MLP.
    "gpt_bigcode": (transformers.GPTBigCodeConfig,
                    dict(n_embd=2048, n_head=16, n_layer=4, vocab_size=49280,
                         n_positions=4096, multi_query=True,
                         bos_token_id=0, eos_token_id=0),
                    dict(n_embd=64, n_head=4, n_layer=2, vocab_size=96,
                         multi_query=True, bos_token_id=0, eos_token_id=0),
                    True),
    # BERT large's width: an encoder (no KV cache), GELU-erf MLP.
    "bert": (transformers.BertConfig,
             dict(hidden_size=1024, intermediate_size=4096,
                  num_attention_heads=16, num_hidden_layers=4,
                  max_position_embeddings=4096),
             dict(hidden_size=64, intermediate_size=256,
                  num_attention_heads=4, num_hidden_layers=2,
                  vocab_size=96), False),
}


def build(family, size="tiny", dtype=torch.float32, device="cpu", seed=0):
    """The model (eval mode, random weights) and whether it decodes."""
    config_class, real, tiny, decoder = FAMILIES[family]
    config = config_class(**(real if size == "real" else tiny))
    config._attn_implementation = "sdpa"
    torch.manual_seed(seed)
    if decoder:
        model = transformers.AutoModelForCausalLM.from_config(config)
    else:
        model = transformers.AutoModel.from_config(config)
    return model.to(device=device, dtype=dtype).eval(), decoder


# The largest e4m3fn code: absmax / 448 maps a tensor onto the whole range.
E4M3_MAX = 448.0


class Fp8Linear(torch.nn.Module):
    """An fp8 inference linear layer, as a user quantises a checkpoint: the
    weight's e4m3 codes with a scale per output channel, made once; the
    activation quantised per token at each call (its absmax / 448), then
    `torch._scaled_mm` with both scales and a bf16 result, and the bias.
    `dequantised()` is the eager reference: the same codes as bf16 and an
    ordinary matmul, so it differs from the fp8 product only by the bf16
    roundings."""

    def __init__(self, linear):
        super().__init__()
        w = linear.weight.detach().float()
        scale = (w.abs().amax(1, keepdim=True) / E4M3_MAX).clamp_min(1e-12)
        self.register_buffer("w", (w / scale).to(torch.float8_e4m3fn))
        self.register_buffer("scale_w", scale.reshape(1, -1))
        self.bias = linear.bias
        self.dequantise = False

    def forward(self, x):
        rows = x.reshape(-1, x.shape[-1])
        scale = (rows.abs().amax(1, keepdim=True).float() /
                 E4M3_MAX).clamp_min(1e-12)
        q = (rows.float() / scale).to(torch.float8_e4m3fn)
        if self.dequantise:
            y = ((q.float() * scale) @ (self.w.float() *
                                        self.scale_w.reshape(-1, 1)).t())
            y = y.to(torch.bfloat16)
        else:
            y = torch._scaled_mm(q, self.w.t(), scale_a=scale,
                                 scale_b=self.scale_w,
                                 out_dtype=torch.bfloat16)
        if self.bias is not None:
            y = y + self.bias
        return y.reshape(*x.shape[:-1], -1)


class Fp8BlockLinear(torch.nn.Module):
    """A block-wise fp8 linear layer, as DeepSeek-V3's and Qwen3-FP8's
    checkpoints store one (docs/fp8.md, "Block-wise scales"): the weight's
    e4m3 codes with one scale per 128 x 128 block (`weight_scale_inv`,
    [ceil(N/128), ceil(K/128)]), made once; the activation quantised per
    token and 128-deep group of K at each call (clamped to e4m3's range);
    then `torch._scaled_mm` with torch's BlockWise1x128 x BlockWise128x128
    scaling (scale_a M-major, scale_b the transpose of weight_scale_inv,
    as torch's CUDA kernel takes them) and a bf16 result,
    and the bias. `dequantise` runs the eager reference: the same codes
    times their scales, an ordinary matmul."""

    BLOCK = 128

    def __init__(self, linear):
        super().__init__()
        from fp8 import quantise_blocks   # the benchmark's one recipe
        codes, scale, _ = quantise_blocks(linear.weight.detach().float(),
                                          self.BLOCK)
        self.register_buffer("w", codes)
        self.register_buffer("weight_scale_inv", scale)
        self.bias = linear.bias
        self.dequantise = False

    @classmethod
    def _spread(cls, scale, n, k):
        """A [blocks_n, blocks_k] scale as one value per [n, k] element."""
        return scale.repeat_interleave(cls.BLOCK, 0).repeat_interleave(
            cls.BLOCK, 1)[:n, :k]

    def _quantise(self, rows):
        # Group by group (no padding of a partial last group: Inductor's CPU
        # code for the padded form wrote NaN codes, torch 2.15).
        groups = [rows[:, i:i + self.BLOCK].float()
                  for i in range(0, rows.shape[-1], self.BLOCK)]
        scale = (torch.cat([g.abs().amax(1, keepdim=True) for g in groups],
                           1) / E4M3_MAX).clamp_min(1e-12)
        q = torch.cat([(g / scale[:, j:j + 1]).clamp(-E4M3_MAX, E4M3_MAX)
                       for j, g in enumerate(groups)], 1)
        return q.to(torch.float8_e4m3fn), scale

    def forward(self, x):
        rows = x.reshape(-1, x.shape[-1])
        q, scale = self._quantise(rows)
        if self.dequantise:
            k = rows.shape[-1]
            a = q.float() * scale.repeat_interleave(self.BLOCK, 1)[:, :k]
            w = self.w.float() * self._spread(self.weight_scale_inv,
                                              *self.w.shape)
            y = (a @ w.t()).to(torch.bfloat16)
        else:
            # torch's CUDA _scaled_mm takes A's block scales M-major.
            y = torch._scaled_mm(q, self.w.t(),
                                 scale_a=scale.t().contiguous().t(),
                                 scale_b=self.weight_scale_inv.t(),
                                 out_dtype=torch.bfloat16)
        if self.bias is not None:
            y = y + self.bias
        return y.reshape(*x.shape[:-1], -1)


class Fp8WeightOnlyLinear(torch.nn.Module):
    """A weight-only fp8 linear layer (torchao's float8 weight-only
    inference layers compute the same): the weight's e4m3 codes with a scale
    per output channel, made once; at each call the codes are dequantised,
    `(codes.float() * scale).to(x.dtype)`, and multiplied with the
    unquantised activation, bias after. Decode reads half the weight bytes
    of bf16 and quantises nothing per call. The eager module is its own
    reference: sol computes the same sum with the scale on the f32 product
    (docs/fp8.md, "Weight-only"), which differs only by the dequantised
    weight's bf16 rounding."""

    def __init__(self, linear):
        super().__init__()
        w = linear.weight.detach().float()
        scale = (w.abs().amax(1, keepdim=True) / E4M3_MAX).clamp_min(1e-12)
        self.register_buffer("w", (w / scale).to(torch.float8_e4m3fn))
        self.register_buffer("scale_w", scale)      # [N, 1]
        self.bias = linear.bias

    def forward(self, x):
        w = (self.w.float() * self.scale_w).to(x.dtype)
        return torch.nn.functional.linear(x, w, self.bias)


def quantise_fp8(model, skip=("lm_head",), weight_only=False, block=False):
    """Replaces every nn.Linear of `model` (but the `skip` names, and any
    whose K is not a multiple of 16, which fp8 tensor cores need) with an
    Fp8Linear of its weight (an Fp8WeightOnlyLinear with `weight_only`, an
    Fp8BlockLinear with `block`); returns the names replaced."""
    layer = Fp8WeightOnlyLinear if weight_only else \
        Fp8BlockLinear if block else Fp8Linear
    replaced = []
    for name, module in list(model.named_modules()):
        for child_name, child in list(module.named_children()):
            if isinstance(child, torch.nn.Linear) and \
                    child_name not in skip and child.in_features % 16 == 0:
                setattr(module, child_name, layer(child))
                replaced.append(f"{name}.{child_name}" if name else
                                child_name)
    return replaced


def set_dequantised(model, on):
    """Runs every Fp8Linear of `model` as its dequantised reference."""
    for module in model.modules():
        if isinstance(module, (Fp8Linear, Fp8BlockLinear)):
            module.dequantise = on


def vocab(model):
    return model.config.vocab_size


def tokens(model, batch, length, device, seed=1):
    generator = torch.Generator().manual_seed(seed)
    return torch.randint(0, vocab(model), (batch, length),
                         generator=generator).to(device)


def logits_of(output):
    return output.logits if hasattr(output, "logits") else \
        output.last_hidden_state


def prefill(model, ids):
    return logits_of(model(input_ids=ids, use_cache=False))


def static_cache(model, batch, length, device, dtype):
    """A StaticCache of `length` tokens (the constructor's keywords moved
    between transformers releases)."""
    try:
        return transformers.StaticCache(config=model.config,
                                        max_cache_len=length)
    except TypeError:
        return transformers.StaticCache(config=model.config,
                                        max_batch_size=batch,
                                        max_cache_len=length, device=device,
                                        dtype=dtype)


def decode_setup(model, batch, past, device, dtype):
    """(cache, step inputs): a static cache holding `past` prompt tokens and
    the next token's inputs. Returns None for an encoder."""
    cache = static_cache(model, batch, past + 8, device, dtype)
    ids = tokens(model, batch, past + 1, device)
    with torch.no_grad():
        model(input_ids=ids[:, :past], past_key_values=cache, use_cache=True,
              cache_position=torch.arange(past, device=device))
    step = dict(input_ids=ids[:, past:], past_key_values=cache,
                use_cache=True,
                cache_position=torch.tensor([past], device=device))
    return cache, step


def copy_cache(cache):
    """A deep copy of a filled static cache, its tensors marked as static
    addresses as transformers marks the original's (so CUDA graphs read
    them in place instead of copying the cache in on every replay)."""
    import copy
    import torch._dynamo
    twin = copy.deepcopy(cache)
    for layer in getattr(twin, "layers", []):
        for name in ("keys", "values", "cumulative_length"):
            tensor = getattr(layer, name, None)
            if isinstance(tensor, torch.Tensor):
                torch._dynamo.mark_static_address(tensor)
    return twin


def rewinder(cache, past):
    """A function that moves `cache` back to `past` tokens: transformers'
    StaticLayer advances its own position tensor on every update, so a
    decode step replayed for timing must rewind it (one multi-tensor copy,
    the same for every implementation timed)."""
    lengths = [layer.cumulative_length for layer in getattr(cache, "layers",
                                                           [])
               if isinstance(getattr(layer, "cumulative_length", None),
                             torch.Tensor)]
    if not lengths:
        return lambda: None
    sources = [torch.full_like(t, past) for t in lengths]
    return lambda: torch._foreach_copy_(lengths, sources)


def decode(model, step):
    return logits_of(model(**step))
