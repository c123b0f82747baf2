#!/usr/bin/env python3
"""sol-fuzz: a mutational fuzzer for sol-opt's pipelines, the C API and sol-run.

Usage (from the repository root, after a build):

  tools/sol-fuzz/sol-fuzz.py --seconds 600                 # 10 minutes, 2 jobs
  tools/sol-fuzz/sol-fuzz.py --seconds 90 --jobs 1 --seed 1  # what CI runs
  tools/sol-fuzz/sol-fuzz.py --corpus-only                 # the regression corpus
  tools/sol-fuzz/sol-fuzz.py --run-input f.mlir --target ptx  # one input, verbose

Seeds: every lit test input under test/ and examples/*.mlir (split on
`// -----`, comment lines dropped), each case of scripts/gen-matrix.py's CPU
profile as its own module, the target JSON files of test/Transforms/Inputs,
the manifests `sol-opt --sol-to-ptx=out-dir=...` writes for examples/*.mlir
(plus examples/runner-smoke/*.json), and the regression corpus
tools/sol-fuzz/corpus/{mlir,manifest,target}/, which is always run first, as
is, so a regression shows up in the first seconds.

Mutations (1-4 stacked per input): MLIR: tensor dims (0, 1, -1, ?, primes,
2^31, 2^32, INT64_MAX, ...) one at a time or one value everywhere (which
keeps the IR valid and reaches the cost model), ranks (a batch dim on every
type, rank 0, rank 8), dtypes swapped, the target
attribute (preset names, chip strings, the long form with one field 0,
negative, 1e308, nan, inf), any number literal, symbol names (spaces, '/',
'..', unicode, 4 KiB), op duplication (chains of 2-600 ops, whole functions
copied), operand swaps and SSA renames, line/token deletion, duplication
and swaps, byte-level flips/inserts/deletes, and pass options (tiles=0x0,
max-cluster=-1, paths=..., ...). JSON (manifests, target files): numbers
(2^31, 2^32, -1, 2^63, 1e308, NaN, fractions), types changed, keys deleted
or duplicated, arrays emptied/grown/reordered, strings (paths, unicode),
truncation and bytes.

Targets (--targets, default all):
  annotate     sol-opt --sol-annotate="report=json report-file=..." (JSON checked)
  ptx          sol-opt --sol-to-ptx="out-dir=<tmp> report=json ..." (ptxas via
               CUDA_HOME, default /usr/local/cuda; manifests and report checked)
  cpu          scripts/build-cpu-kernels.sh's steps: sol-opt --sol-annotate (or
               --canonicalize --sol-fuse=force=always without a target)
               --convert-sol-to-linalg, then --sol-lower-to-cpu on that text,
               then mlir-translate --mlir-to-llvmir
  capi         sol_compile_with_options through capi-driver.c (compiled here
               with cc against build/lib/libsol_capi.so), every accessor, cost
               report and host program JSON checked
  target-file  sol-opt --sol-attach-target=file=<mutated JSON> --sol-annotate
  sol-run      sol-run --backend=host --check-only on a mutated manifest, with
               --lib= a stub library whose kernels do nothing (so the kernel
               itself never runs out of bounds: what is fuzzed is sol-run's
               manifest parser, buffer set-up and float64 reference)
  capi-load    sol_module_load with a mutated manifest (parsed before the
               CUDA driver is looked for)

A finding: death by a signal; a crash the C API recovered into an error
string (`sol_compile: internal error ...`); `LLVM ERROR`, `Assertion`, `Stack dump`,
`terminate called`, `PLEASE submit a bug report` or AddressSanitizer in the
output; past --timeout seconds (confirmed by a second run alone); a JSON file
written (manifest, cost report, C API strings) that does not parse strictly
(NaN, Infinity, truncation); exit 0 with `error:` on stderr; or the C API
breaking its contract (capi-driver status 3). An ordinary diagnostic with a
non-zero exit is fine. Findings are deduplicated by a signature (the class
plus the LLVM ERROR / assertion / exception text with numbers and quoted
names normalised, or the signal plus the first sol/MLIR frames of the stack
dump, or, where the process prints none, of a gdb backtrace), minimised by
line and then chunk deletion under the same signature (--minimize-seconds
each), and written to <findings>/<class>-<hash>/: input.*, min.*, repro.sh
(the command; run it from anywhere), info.txt (signature, mutations, output).

Each input i is a function of (--seed, i) only, and the pool of interesting
mutants (those that gave a diagnostic never seen before) that input i may
draw from holds only results of inputs < i - 64, applied in order: with
--max-execs the run is the same for any --jobs. It ends at --seconds or
--max-execs, prints executions, seconds, exec/s and the distinct findings by
class, and exits 1 when there is any finding (0 otherwise; 2 on bad usage).

Standard library only. Work files go under --work-dir (default
/tmp/sol-fuzz-work), findings under --findings (default <work-dir>/findings);
nothing is written in the repository.
"""

import argparse
import collections
import concurrent.futures
import hashlib
import json
import math
import os
import random
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))

MLIR_TARGETS = ["annotate", "ptx", "cpu", "capi"]
MANIFEST_TARGETS = ["sol-run", "capi-load"]
TARGETFILE_TARGETS = ["target-file"]
ALL_TARGETS = MLIR_TARGETS + TARGETFILE_TARGETS + MANIFEST_TARGETS
KIND_OF = {t: "mlir" for t in MLIR_TARGETS}
KIND_OF.update({t: "manifest" for t in MANIFEST_TARGETS})
KIND_OF.update({t: "target" for t in TARGETFILE_TARGETS})
EXT = {"mlir": ".mlir", "manifest": ".json", "target": ".json"}
# How often each target is picked (annotate is the cheapest, ptx the dearest).
WEIGHTS = {"annotate": 4, "ptx": 2, "cpu": 2, "capi": 2, "target-file": 1,
           "sol-run": 3, "capi-load": 1}
POOL_WINDOW = 64
POOL_CAP = 400

# ---------------------------------------------------------------------------
# Interesting values
# ---------------------------------------------------------------------------

INTS = [0, 1, -1, 2, 3, 7, 13, 16, 31, 64, 127, 128, 255, 256, 4095, 4096,
        65535, 65536, 65537, 1000003, 2147483629, 2**31 - 1, 2**31, 2**32 - 1,
        2**32, 2**32 + 1, 2**53 + 1, 2**62, 2**63 - 1, 2**63, 2**64, 10**30,
        -2**31, -2**63]
DIMS = ["0", "1", "2", "3", "7", "13", "17", "127", "4097", "65537", "1000003",
        "2147483629", str(2**31 - 1), str(2**31), str(2**32), str(2**32 + 1),
        str(2**40), str(2**62), str(2**63 - 1), str(2**63), str(2**64),
        "?", "-1", "00", "1e3"]
FLOATS = ["0.0", "-0.0", "-1.0", "1e308", "1.7976931348623157e308", "1e-308",
          "5e-324", "1e309", "nan", "inf", "-inf", "0x7FF8000000000000",
          "0x7FF0000000000000", "1.0e+30", "3.0e38", "-1e308", "1e-45"]
DTYPES = ["f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64",
          "f8E4M3FN", "f8E5M2", "tf32", "index", "complex<f32>", "f4E2M1FN",
          "ui8", "si32"]
CHIPS = ["h200", "H200", "h100-sxm", "a100-80gb", "b200", "", " ", "h200 ",
         "sm_90a", "sm_80", "sm_100a", "sm_0", "sm_", "sm_99999999999",
         "sm_-1", "gfx90a", "compute_90a", "nvptx", "sm_90a\\00", "../h200",
         "h200/../../etc", "\u00fc\u00f1\u00ee", "\u202e", "x" * 4096,
         "\\22", "sm_90aa", "SM_90A"]
SYMBOLS = ['"a b"', '"a/b"', '".."', '"../../x"', '"/"', '""', '"\u00fcnic\u00f6de"',
           '"\u202ertl"', '"x' + "y" * 4096 + '"', '"-rf"', '"a\\0ab"', '"%s%n"',
           '"kernels"', '"."', '"a\\nb"', "_", "a.b", "a$b", "1abc",
           '"con"', '"sol.kernel"', "main"]
TARGET_FIELDS = [
    ("name", '"h200-fuzz"'), ("chip", '"sm_90a"'), ("sm_count", "132"),
    ("clock_mhz", "1830"), ("f16_tflops", "989.0"), ("bf16_tflops", "989.0"),
    ("tf32_tflops", "494.7"), ("fp8_tflops", "1978.9"),
    ("f32_simt_tflops", "66.9"), ("hbm_gbps", "4800.0"), ("l2_gbps", "2000.0"),
    ("l2_bytes", "62914560"), ("smem_per_sm_bytes", "233472"),
    ("regs_per_sm", "65536"), ("launch_us", "3.2"), ("mma_efficiency", "0.7"),
    ("hbm_efficiency", "0.9")]
ANNOTATE_OPTIONS = ["remarks=true", "report=table", "report=bogus",
                    "report=json"]
PTX_OPTIONS = [
    "paths=wgmma_tma", "paths=wgmma", "paths=mma_sync", "paths=gemv",
    "paths=simt", "paths=elementwise", "paths=bogus", "paths=",
    "paths=wgmma_tma,gemv", "max-cluster=2", "max-cluster=0",
    "max-cluster=-1", "max-cluster=4", "max-cluster=2147483648",
    "max-cluster=9223372036854775807", "min-cluster=2", "min-cluster=0",
    "min-cluster=-5", "schedules=cooperative", "schedules=pingpong",
    "schedules=bogus", "tiles=128x128", "tiles=0x0", "tiles=1x1",
    "tiles=256x160", "tiles=-1x8", "tiles=99999999999x1", "tiles=128x",
    "tiles=x", "tiles=256x128,256x160,256x192", "fuse-siblings=false",
    "fast-math=true", "remarks=true", "cubin=false", "report=table"]
CAPI_TARGETS = ["-"] * 6 + ["h200", "h100-sxm", "a100-80gb", "b200", "H200",
                            "", "bogus", "/nonexistent/t.json", "..", "/",
                            "sm_90a", "h200 "]
CAPI_OPTIONS = ["-"] * 6 + ["", " ", "fast-math=true", "paths=gemv",
                            "tiles=0x0", "max-cluster=-1", "bogus=1",
                            "tiles=", "paths=wgmma_tma max-cluster=2",
                            "fuse-siblings=maybe", "=", "a=b=c",
                            "schedules=pingpong tiles=128x192"]
BYTES_INSERT = ["\x00", "\xff", "}", "{", ">", "<", '"', "\\", "%", "@",
                "// -----\n", "\n", "#", "!", "?", ":", ",", "x", "-",
                "\u00e9", "\ufffd", "sol.", "tensor<"]

# ---------------------------------------------------------------------------
# Seeds
# ---------------------------------------------------------------------------


def strip_comments(text):
    lines = [l for l in text.split("\n") if not l.lstrip().startswith("//")]
    return "\n".join(lines).strip("\n") + "\n"


def split_cases(text):
    return [c for c in re.split(r"(?m)^// -----\s*$", text)]


def matrix_cases(path):
    """One module per function of gen-matrix.py's output."""
    text = open(path, encoding="utf-8", errors="replace").read()
    lines = text.split("\n")
    header = lines[0]
    cases, current = [], None
    for line in lines[1:]:
        if line.startswith("  func.func"):
            current = [line]
        elif current is not None:
            current.append(line)
            if line == "  }":
                cases.append(header + "\n" + "\n".join(current) + "\n}\n")
                current = None
    return cases


class Seeds:
    def __init__(self):
        self.items = {"mlir": [], "manifest": [], "target": []}
        self.names = {"mlir": [], "manifest": [], "target": []}

    def add(self, kind, name, text):
        if not text.strip() and kind != "mlir":
            return
        self.items[kind].append(text)
        self.names[kind].append(name)


def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return f.read()


def load_corpus(corpus_dir):
    """[(kind, path, text)] of the regression corpus, in name order."""
    entries = []
    for kind in ("mlir", "manifest", "target"):
        d = os.path.join(corpus_dir, kind)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if name.startswith(".") or name.endswith(".md"):
                continue
            p = os.path.join(d, name)
            entries.append((kind, p, read(p)))
    return entries


def collect_seeds(args, env, log):
    seeds = Seeds()
    if args.corpus_only:  # the corpus alone: no seeds to make
        for kind, path, text in load_corpus(args.corpus):
            seeds.add(kind, os.path.relpath(path, ROOT), text)
        return seeds
    mlir_files = []
    for base in (os.path.join(ROOT, "test"), os.path.join(ROOT, "examples")):
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            if os.path.abspath(dirpath).startswith(os.path.join(ROOT, "test", "Fuzz")):
                continue
            for name in sorted(filenames):
                if name.endswith(".mlir"):
                    mlir_files.append(os.path.join(dirpath, name))
    for path in mlir_files:
        rel = os.path.relpath(path, ROOT)
        for index, case in enumerate(split_cases(read(path))):
            case = strip_comments(case)
            if case.strip():
                seeds.add("mlir", "%s#%d" % (rel, index), case)
    matrix = os.path.join(args.work_dir, "seeds", "matrix-cpu.mlir")
    os.makedirs(os.path.dirname(matrix), exist_ok=True)
    gen = os.path.join(ROOT, "scripts", "gen-matrix.py")
    if os.path.exists(gen):
        r = subprocess.run([sys.executable, gen, "--profile=cpu", matrix],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode == 0:
            for index, case in enumerate(matrix_cases(matrix)):
                seeds.add("mlir", "gen-matrix#%d" % index, case)
    inputs = os.path.join(ROOT, "test", "Transforms", "Inputs")
    if os.path.isdir(inputs):
        for name in sorted(os.listdir(inputs)):
            if name.endswith(".json"):
                seeds.add("target", "test/Transforms/Inputs/" + name,
                          read(os.path.join(inputs, name)))
    smoke = os.path.join(ROOT, "examples", "runner-smoke")
    if os.path.isdir(smoke):
        for name in sorted(os.listdir(smoke)):
            if name.endswith(".json"):
                seeds.add("manifest", "examples/runner-smoke/" + name,
                          read(os.path.join(smoke, name)))
    # Manifests of the examples, written by sol-to-ptx once per build.
    stamp_src = "%d:%d" % (int(os.path.getmtime(args.sol_opt)), os.path.getsize(args.sol_opt))
    mdir = os.path.join(args.work_dir, "seeds", "manifests")
    stamp = os.path.join(mdir, "stamp")
    examples = sorted(p for p in os.listdir(os.path.join(ROOT, "examples"))
                      if p.endswith(".mlir"))
    if not (os.path.exists(stamp) and read(stamp) == stamp_src):
        shutil.rmtree(mdir, ignore_errors=True)
        os.makedirs(mdir)
        for name in examples:
            out = os.path.join(mdir, name[:-5])
            os.makedirs(out)
            r = subprocess.run(
                [args.sol_opt, os.path.join(ROOT, "examples", name),
                 "--sol-to-ptx=out-dir=" + out, "-o", os.devnull],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                timeout=300)
            if r.returncode != 0:
                log("warning: sol-to-ptx on examples/%s failed: %s" %
                    (name, r.stdout.decode(errors="replace")[-300:]))
        cases = matrix_cases(matrix) if os.path.exists(matrix) else []
        if cases:  # every third case of the CPU matrix: small shapes, every op
            picked = cases[::3]
            module = os.path.join(mdir, "matrix.mlir")
            with open(module, "w") as f:
                f.write(picked[0].split("\n")[0] + "\n")
                for c in picked:
                    f.write("\n".join(c.split("\n")[1:-2]) + "\n")
                f.write("}\n")
            out = os.path.join(mdir, "matrix")
            os.makedirs(out)
            r = subprocess.run([args.sol_opt, module, "--sol-to-ptx=out-dir=" + out, "-o", os.devnull],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, timeout=300)
            if r.returncode != 0:
                log("warning: sol-to-ptx on the matrix sample failed: %s" % r.stdout.decode(errors="replace")[-300:])
        with open(stamp, "w") as f:
            f.write(stamp_src)
    for name in examples:
        out = os.path.join(mdir, name[:-5])
        if os.path.isdir(out):
            for m in sorted(os.listdir(out)):
                if m.endswith(".json"):
                    seeds.add("manifest", "examples/%s -> %s" % (name, m),
                              read(os.path.join(out, m)))
    out = os.path.join(mdir, "matrix")
    if os.path.isdir(out):
        for m in sorted(os.listdir(out)):
            if m.endswith(".json"):
                seeds.add("manifest", "gen-matrix -> " + m, read(os.path.join(out, m)))
    for kind, path, text in load_corpus(args.corpus):
        seeds.add(kind, os.path.relpath(path, ROOT), text)
    return seeds


def kernel_names(seeds):
    names = set()
    for text in seeds.items["manifest"]:
        try:
            v = json.loads(text)
            if isinstance(v, dict) and isinstance(v.get("kernel"), str):
                names.add(v["kernel"])
        except ValueError:
            pass
    return sorted(n for n in names if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", n))


# ---------------------------------------------------------------------------
# MLIR mutators: each takes (rng, text) and returns the new text or None.
# ---------------------------------------------------------------------------

SHAPED = re.compile(r"\b(tensor|memref|vector)<([^<>]*)>")
DIM = re.compile(r"(?<![\w.])(\d+|\?)(?=x)")
NUMBER = re.compile(r"(?<![\w.%#@$])-?\d+(\.\d+)?([eE][-+]?\d+)?(?![\w.])")
SSA_DEF = re.compile(r"^(\s*)(%[\w.$-]+)\s*=\s*(sol\.\w+)\s+(.*)$")
SSA = re.compile(r"%[\w.$-]+")
SYM = re.compile(r"@(\"[^\"\n]*\"|[\w.$-]+)")
TOKEN = re.compile(r"\"[^\"\n]*\"|[%@#]?[\w.$-]+|\S")
DTYPE_RE = re.compile(r"(?<=x)(bf16|f16|f32|f64|i1|i8|i16|i32|i64|tf32|index|f8E4M3FN|f8E5M2)(?=>)")
TARGET_ATTR = re.compile(r"#sol\.target<[^<>]*>")


def dims_spans(text):
    spans = []
    for m in SHAPED.finditer(text):
        inner_start = m.start(2)
        for d in DIM.finditer(m.group(2)):
            spans.append((inner_start + d.start(), inner_start + d.end(), d.group(1)))
    return spans


def mut_dim_one(rng, text):
    spans = dims_spans(text)
    if not spans:
        return None
    s, e, _ = rng.choice(spans)
    return text[:s] + rng.choice(DIMS) + text[e:]


def mut_dim_all(rng, text):
    """One dim value replaced everywhere: the types stay consistent."""
    spans = dims_spans(text)
    if not spans:
        return None
    value = rng.choice(spans)[2]
    new = rng.choice(DIMS)
    out, last = [], 0
    for s, e, v in spans:
        if v == value:
            out.append(text[last:s])
            out.append(new)
            last = e
    out.append(text[last:])
    return "".join(out)


def mut_rank(rng, text):
    """Ranks: a batch dim in front of every shaped type (valid for
    elementwise chains, a batched matmul otherwise), one type's first dim
    dropped, one type made rank 0, or rank 8."""
    found = list(SHAPED.finditer(text))
    if not found:
        return None
    c = rng.random()
    if c < 0.4:
        batch = rng.choice(["1", "2", "3", "0", "65536", "?", "2147483648"])
        return SHAPED.sub(lambda m: "%s<%sx%s>" % (m.group(1), batch, m.group(2)), text)
    m = rng.choice(found)
    inner = m.group(2)
    if c < 0.65:
        new = re.sub(r"^(\d+|\?)x", "", inner, count=1)
    elif c < 0.85:
        new = re.sub(r"^(?:(?:\d+|\?)x)+", "", inner)
    else:
        new = "1x2x1x3x1x2x1x" + inner
    return text[:m.start(2)] + new + text[m.end(2):]


def mut_dtype(rng, text):
    found = list(DTYPE_RE.finditer(text))
    if not found:
        return None
    new = rng.choice(DTYPES)
    if rng.random() < 0.6:
        old = rng.choice(found).group(1)
        return DTYPE_RE.sub(lambda m: new if m.group(1) == old else m.group(1), text)
    m = rng.choice(found)
    return text[:m.start()] + new + text[m.end():]


def long_target(rng):
    fields = [list(f) for f in TARGET_FIELDS]
    for _ in range(rng.randint(1, 3)):
        f = rng.choice(fields)
        if f[0] in ("name", "chip"):
            f[1] = '"%s"' % rng.choice(CHIPS)
        else:
            f[1] = rng.choice(FLOATS + [str(v) for v in INTS])
    if rng.random() < 0.2:
        del fields[rng.randrange(len(fields))]
    if rng.random() < 0.1:
        fields.append(rng.choice(fields))
    return "#sol.target<%s>" % ", ".join("%s = %s" % tuple(f) for f in fields)


def mut_target(rng, text):
    found = list(TARGET_ATTR.finditer(text))
    choice = rng.random()
    if not found:
        attr = long_target(rng) if choice < 0.5 else '#sol.target<"%s">' % rng.choice(CHIPS)
        if re.search(r"^module\s*\{", text, re.M):
            return re.sub(r"^module\s*\{", lambda _: "module attributes {sol.target = %s} {" % attr,
                          text, count=1, flags=re.M)
        if re.search(r"^module\s+@[\w\"]+\s*\{", text, re.M):
            return re.sub(r"^(module\s+@[\w\"]+)\s*\{",
                          lambda m: m.group(1) + " attributes {sol.target = %s} {" % attr,
                          text, count=1, flags=re.M)
        if "module" not in text:
            return "module attributes {sol.target = %s} {\n%s}\n" % (attr, text)
        return None
    m = rng.choice(found)
    if choice < 0.45:
        new = long_target(rng)
    elif choice < 0.8:
        new = '#sol.target<"%s">' % rng.choice(CHIPS)
    else:
        inner = m.group(0)
        nums = list(NUMBER.finditer(inner))
        if not nums:
            return None
        n = rng.choice(nums)
        new = inner[:n.start()] + rng.choice(FLOATS + [str(v) for v in INTS]) + inner[n.end():]
    return text[:m.start()] + new + text[m.end():]


def mut_number(rng, text):
    found = list(NUMBER.finditer(text))
    if not found:
        return None
    m = rng.choice(found)
    pool = FLOATS if m.group(1) or m.group(2) else [str(v) for v in INTS]
    return text[:m.start()] + rng.choice(pool + DIMS[:4]) + text[m.end():]


def mut_symbol(rng, text):
    found = list(SYM.finditer(text))
    if not found:
        return None
    m = rng.choice(found)
    old = m.group(1)
    new = rng.choice(SYMBOLS)
    if rng.random() < 0.5:  # every use of the symbol, so it still resolves
        return re.sub(r"@" + re.escape(old) + r"(?![\w.$-])", lambda _: "@" + new, text)
    return text[:m.start()] + "@" + new + text[m.end():]


def statements(lines):
    """(first, last) line indices of each `%x = sol.op ...` statement."""
    out = []
    i = 0
    while i < len(lines):
        if SSA_DEF.match(lines[i]):
            j = i
            while j + 1 < len(lines) and lines[j + 1].lstrip().startswith(":"):
                j += 1
            out.append((i, j))
            i = j + 1
        else:
            i += 1
    return out


def mut_dup_op(rng, text):
    """A chain: the op repeated k times, each feeding the next."""
    lines = text.split("\n")
    stmts = statements(lines)
    if not stmts:
        return None
    i, j = rng.choice(stmts)
    m = SSA_DEF.match(lines[i])
    indent, result, op, rest = m.groups()
    body = [rest] + lines[i + 1:j + 1]
    operands = SSA.findall(rest.split(":")[0])
    if not operands:
        return None
    # Each matmul becomes a kernel of its own (ptxas and all): a long chain
    # of them is slow by rights. Elementwise ops fuse, so their chains test
    # the fusion's own complexity.
    if op == "sol.matmul":
        k = rng.choice([2, 3, 8, 16])
    else:
        k = rng.choice([2, 3, 8, 32, 100, 300, 600])
    first = operands[0]
    new = []
    prev = first
    for n in range(k):
        name = result if n == k - 1 else "%s_fz%d" % (result, n)
        chunk = "\n".join(body)
        if n > 0:
            chunk = re.sub(re.escape(first) + r"(?![\w.$-])", lambda _: prev, chunk, count=1)
        new.append("%s%s = %s %s" % (indent, name, op, chunk))
        prev = name
    return "\n".join(lines[:i] + new + lines[j + 1:])


def mut_dup_func(rng, text):
    m = list(re.finditer(r"(?ms)^(\s*)func\.func\s.*?^\1\}\s*$", text))
    if not m:
        return None
    f = rng.choice(m)
    copies = rng.choice([1, 2, 4, 16])
    blocks = []
    for c in range(copies):
        blocks.append(re.sub(r"func\.func (\w+ )?@([\w.$-]+)",
                             lambda x: "func.func %s@%s_fz%d" % (x.group(1) or "", x.group(2), c),
                             f.group(0), count=1))
    return text[:f.end()] + "\n" + "\n".join(blocks) + text[f.end():]


def mut_swap_operands(rng, text):
    lines = text.split("\n")
    stmts = statements(lines)
    if not stmts:
        return None
    i, _ = rng.choice(stmts)
    m = SSA_DEF.match(lines[i])
    head = m.group(4)
    ops = list(SSA.finditer(head.split(":")[0]))
    if len(ops) >= 2 and rng.random() < 0.5:
        a, b = ops[0], ops[1]
        head = head[:a.start()] + b.group(0) + head[a.end():b.start()] + a.group(0) + head[b.end():]
    else:  # an operand renamed to another value of the function
        names = sorted(set(SSA.findall(text)))
        if not ops or not names:
            return None
        a = rng.choice(ops)
        head = head[:a.start()] + rng.choice(names + ["%undefined"]) + head[a.end():]
    lines[i] = "%s%s = %s %s" % (m.group(1), m.group(2), m.group(3), head)
    return "\n".join(lines)


def mut_lines(rng, text):
    lines = text.split("\n")
    if len(lines) < 2:
        return None
    c = rng.random()
    i = rng.randrange(len(lines))
    if c < 0.5:
        n = rng.choice([1, 1, 1, 2, 3])
        del lines[i:i + n]
    elif c < 0.75:
        lines.insert(i, lines[rng.randrange(len(lines))])
    else:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def mut_tokens(rng, text):
    toks = list(TOKEN.finditer(text))
    if not toks:
        return None
    t = rng.choice(toks)
    c = rng.random()
    if c < 0.45:
        rep = ""
    elif c < 0.7:
        rep = t.group(0) + " " + t.group(0)
    else:
        rep = rng.choice(toks).group(0)
    return text[:t.start()] + rep + text[t.end():]


def mut_attr(rng, text):
    """transpose flags and attribute dictionaries."""
    c = rng.random()
    if c < 0.3 and "transpose_b" in text:
        return text.replace("transpose_b", rng.choice(["", "transpose_a", "transpose_b transpose_b", "transpose_a transpose_b"]), 1)
    if c < 0.6:
        lines = text.split("\n")
        stmts = statements(lines)
        if not stmts:
            return None
        i, _ = rng.choice(stmts)
        lines[i] = re.sub(r"(%[\w.$-]+)(\s*:)", r"\1 transpose_b\2", lines[i], count=1)
        return "\n".join(lines)
    if c < 0.8:
        return text.replace("sol.kernel", rng.choice(["sol.kernel", "sol.matmul", "func.func"]), 1)
    ops = ["sol.add", "sol.mul", "sol.sub", "sol.div", "sol.max", "sol.min",
           "sol.exp", "sol.neg", "sol.abs", "sol.relu", "sol.gelu", "sol.silu",
           "sol.tanh", "sol.erf", "sol.sigmoid", "sol.cast", "sol.matmul", "sol.constant",
           "sol.yield", "sol.foo"]
    found = list(re.finditer(r"sol\.\w+", text))
    if not found:
        return None
    m = rng.choice(found)
    return text[:m.start()] + rng.choice(ops) + text[m.end():]


def mut_bytes(rng, text):
    if not text:
        return rng.choice(BYTES_INSERT)
    c = rng.random()
    i = rng.randrange(len(text))
    if c < 0.3:
        return text[:i] + rng.choice(BYTES_INSERT) + text[i:]
    if c < 0.55:
        return text[:i] + text[i + rng.randint(1, 16):]
    if c < 0.75:
        ch = chr((ord(text[i]) ^ (1 << rng.randrange(7))) or 1)
        return text[:i] + ch + text[i + 1:]
    if c < 0.9:
        return text[:i]  # truncation
    j = rng.randrange(len(text))
    return text[:i] + text[j:j + rng.randint(1, 64)] + text[i:]


MLIR_MUTATORS = [(mut_dim_all, 8), (mut_dim_one, 4), (mut_rank, 2), (mut_dtype, 5),
                 (mut_target, 6), (mut_number, 4), (mut_symbol, 4),
                 (mut_dup_op, 3), (mut_dup_func, 1), (mut_swap_operands, 3),
                 (mut_lines, 3), (mut_tokens, 3), (mut_attr, 2),
                 (mut_bytes, 3)]

# ---------------------------------------------------------------------------
# JSON mutators (manifests, target files)
# ---------------------------------------------------------------------------

JSON_NUMBERS = [0, 1, -1, 2, 3, 2**31 - 1, 2**31, 2**32, 2**32 + 1, 2**63 - 1,
                2**63, 2**64, -2**63, 10**30, 1e308, -1e308, 1.5, -0.0, 0.5,
                1e-308, 4097, 65536, float("nan"), float("inf"), float("-inf")]
JSON_STRINGS = ["", " ", "f16", "bf16", "f32", "f64", "i8", "input", "output",
                "matmul", "add", "arg", "cast", "gelu", "bogus", "../../etc/passwd",
                "/", "/nonexistent", "\u00fc\u00f1\u00ee", "x" * 5000, "nan",
                "sm_90a", "h200", "pingpong", "wgmma_tma", "1", "-1"]


def json_paths(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for k in list(value):
            yield from json_paths(value[k], path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from json_paths(v, path + (i,))


def json_get(root, path):
    for p in path:
        root = root[p]
    return root


def json_set(root, path, value):
    if not path:
        return value
    json_get(root, path[:-1])[path[-1]] = value
    return root


def mutate_json_value(rng, root):
    paths = list(json_paths(root))
    numbers = [p for p, v in paths if isinstance(v, (int, float)) and not isinstance(v, bool)]
    c = rng.random()
    if c < 0.45 and numbers:
        p = rng.choice(numbers)
        old = json_get(root, p)
        r = rng.random()
        if r < 0.7:
            new = rng.choice(JSON_NUMBERS)
        elif r < 0.85 and isinstance(old, int):
            new = old + rng.choice([-1, 1, old, -2 * old])
        else:
            new = rng.choice([str(old), None, True, [], {}, [old]])
        return json_set(root, p, new)
    p, v = rng.choice(paths)
    if c < 0.6 and isinstance(v, str):
        return json_set(root, p, rng.choice(JSON_STRINGS + [v + v, v.upper(), 0]))
    if c < 0.72 and p:  # delete a key or element
        parent = json_get(root, p[:-1])
        del parent[p[-1]]
        return root
    if c < 0.82 and isinstance(v, list):
        r = rng.random()
        if r < 0.3:
            v.clear()
        elif r < 0.6 and v:
            for _ in range(rng.choice([1, 2, 50])):
                v.append(json.loads(json.dumps(rng.choice(v))))
        elif v:
            rng.shuffle(v)
        else:
            v.append(rng.choice(JSON_NUMBERS))
        return root
    if c < 0.9 and isinstance(v, dict):
        r = rng.random()
        keys = list(v)
        if r < 0.3:
            v.clear()
        elif keys:
            k = rng.choice(keys)
            other = rng.choice(paths)[1]
            v[k + rng.choice(["", "_x"])] = json.loads(json.dumps(other))
        return root
    # a type change at any place
    return json_set(root, p, rng.choice([None, True, False, 0, -1, "", [], {}, "x", [0], 2**63]))


def json_text(value, rng):
    indent = rng.choice([None, 1, 2])
    return json.dumps(value, indent=indent, ensure_ascii=rng.random() < 0.5) + "\n"


def mutate_json(rng, text):
    try:
        root = json.loads(text)
    except ValueError:
        root = None
    if root is None or rng.random() < 0.15:
        return mut_bytes(rng, text)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        try:
            root = mutate_json_value(rng, root)
        except (KeyError, IndexError, TypeError):
            pass
    out = json_text(root, rng)
    if rng.random() < 0.08:
        out = out[:rng.randrange(len(out) + 1)]
    return out


def mutate(rng, kind, text):
    trail = []
    n = rng.choice([1, 1, 1, 2, 2, 3, 4])
    for _ in range(n):
        if kind == "mlir":
            funcs, weights = zip(*MLIR_MUTATORS)
            f = rng.choices(funcs, weights)[0]
            new = f(rng, text)
            name = f.__name__[4:]
        else:
            new = mutate_json(rng, text)
            name = "json"
        if new is not None and new != text:
            text = new
            trail.append(name)
    if len(text) > 2_000_000:
        text = text[:2_000_000]
    return text, trail


# ---------------------------------------------------------------------------
# Running one input
# ---------------------------------------------------------------------------

class Result:
    __slots__ = ("rc", "output", "seconds", "timed_out", "json_error",
                 "command", "stage")

    def __init__(self):
        self.rc = 0
        self.output = ""
        self.seconds = 0.0
        self.timed_out = False
        self.json_error = None
        self.command = None
        self.stage = None


def strict_json(text):
    def bad(name):
        raise ValueError("non-standard JSON constant %s" % name)
    json.loads(text, parse_constant=bad)


def json_hint(error, text):
    """What stands where the parser stopped: ` at 'nan'`, ` at end`."""
    pos = getattr(error, "pos", None)
    if pos is None:
        return ""
    if pos >= len(text.rstrip()):
        return " at end"
    m = re.match(r"-?[A-Za-z]+|.", text[pos:pos + 12])
    return " at '%s'" % (m.group(0) if m else text[pos:pos + 4])


class Runner:
    def __init__(self, args, env):
        self.args = args
        self.env = env
        self.mem = args.mem_limit_mb * 1024 * 1024

    def limits(self, mem):
        def apply():
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            if mem:
                resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        return apply

    def exec(self, argv, timeout, cwd, mem=None):
        """(rc, output, seconds, timed_out); rc < 0 is a signal."""
        start = time.monotonic()
        try:
            p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 stdin=subprocess.DEVNULL, cwd=cwd, env=self.env,
                                 start_new_session=True,
                                 preexec_fn=self.limits(self.mem if mem is None else mem))
        except OSError as e:
            return 127, "cannot run %s: %s" % (argv[0], e), 0.0, False, ""
        timed_out = False
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            try:
                os.killpg(p.pid, signal.SIGKILL)  # the session this Popen started
            except OSError:
                pass
            out, err = p.communicate()
        seconds = time.monotonic() - start
        stdout = out.decode("utf-8", errors="replace")
        text = stdout + err.decode("utf-8", errors="replace")
        if len(text) > 200_000:
            text = text[:100_000] + "\n...\n" + text[-100_000:]
        return p.returncode, text, seconds, timed_out, stdout

    def commands(self, target, path, extra, tmp):
        """[(stage, argv, json files to check after it)] for one input."""
        a = self.args
        if target == "annotate":
            opts = "report=json report-file=%s/cost.json" % tmp
            if extra:
                opts += " " + extra
            return [("sol-opt", [a.sol_opt, path, "--sol-annotate=" + opts, "-o", tmp + "/out.mlir"],
                     [] if "report=" in extra else ["cost.json"])]
        if target == "ptx":
            opts = "out-dir=%s/out" % tmp
            if "report=" not in extra:
                opts += " report=json"  # to stdout: checked as JSON
            if extra:
                opts += " " + extra
            return [("sol-opt", [a.sol_opt, path, "--sol-to-ptx=" + opts, "-o", os.devnull],
                     ["<stdout>" if "report=" not in extra else "", "out/*.json"])]
        if target == "cpu":
            text = read(path)
            fuse = ["--sol-annotate"] if "sol.target" in text else ["--canonicalize", "--sol-fuse=force=always"]
            return [("sol-opt", [a.sol_opt, path] + fuse + ["--convert-sol-to-linalg", "-o", tmp + "/kernels.linalg.mlir"], []),
                    ("sol-opt-cpu", [a.sol_opt, tmp + "/kernels.linalg.mlir", "--sol-lower-to-cpu", "-o", tmp + "/kernels.llvm.mlir"], []),
                    ("mlir-translate", [a.mlir_translate, "--mlir-to-llvmir", tmp + "/kernels.llvm.mlir", "-o", tmp + "/kernels.ll"], [])]
        if target == "capi":
            t, o = extra.split("\x1f") if extra else ("-", "-")
            return [("capi", [a.capi_driver, "compile", path, t, o, tmp],
                     ["manifest-*.json", "cost.json", "host.json"])]
        if target == "target-file":
            return [("sol-opt", [a.sol_opt, a.target_base, "--sol-attach-target=file=" + path,
                                 "--sol-annotate=report=json report-file=%s/cost.json" % tmp,
                                 "-o", os.devnull], ["cost.json"])]
        if target == "sol-run":
            return [("sol-run", [a.sol_run, "--backend=host", "--lib=" + a.stub_lib, "--check-only",
                                 "--ref-budget=1e6", "--json=" + tmp + "/rows.json"] + a.sol_run_flags + [path],
                     ["rows.json"])]
        if target == "capi-load":
            return [("capi-load", [a.capi_driver, "load", path, extra or "k"], [])]
        raise ValueError(target)

    def run(self, target, text, extra, timeout=None):
        timeout = timeout or self.args.timeout
        tmp = tempfile.mkdtemp(prefix="x", dir=self.args.scratch)
        try:
            path = os.path.join(tmp, "input" + EXT[KIND_OF[target]])
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(text)
            if target == "ptx":
                os.makedirs(tmp + "/out")
            res = Result()
            for stage, argv, jsons in self.commands(target, path, extra, tmp):
                mem = self.args.sol_run_mem_mb * 1024 * 1024 if stage == "sol-run" else None
                rc, out, secs, to, stdout = self.exec(argv, timeout, tmp, mem)
                res.rc, res.output, res.timed_out, res.stage = rc, out, to, stage
                res.seconds += secs
                res.command = argv
                if to or rc < 0 or (rc != 0 and stage != "sol-run"):
                    break  # sol-run exits 1 on every failed check: its JSON is still written
                for pattern in jsons:
                    if pattern == "<stdout>":
                        try:
                            strict_json(stdout)
                        except ValueError as e:
                            res.json_error = "stdout report: %s%s" % (e, json_hint(e, stdout))
                            break
                        continue
                    if not pattern:
                        continue
                    d, _, pat = pattern.rpartition("/")
                    base = os.path.join(tmp, d) if d else tmp
                    names = sorted(os.listdir(base)) if os.path.isdir(base) else []
                    for name in names:
                        if not re.fullmatch(pat.replace(".", r"\.").replace("*", ".*"), name):
                            continue
                        content = read(os.path.join(base, name))
                        try:
                            strict_json(content)
                        except ValueError as e:
                            res.json_error = "%s: %s%s" % (os.path.join(d, name) if d else name, e, json_hint(e, content))
                            break
                    if res.json_error:
                        break
                if res.json_error:
                    break
            res.output = res.output.replace(tmp, "<tmp>")
            return res
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------------
# Classification and signatures
# ---------------------------------------------------------------------------

SKIP_FRAME = re.compile(
    r"llvm::sys::|SignalHandler|__restore_rt|libc\.so|raise|abort|pthread_kill|"
    r"gsignal|report_fatal_error|reportFatal|llvm_unreachable_internal|__assert_fail|"
    r"__libc_start|_start\b|std::terminate|__cxa_|__gnu_cxx::__verbose_terminate|"
    r"libstdc\+\+|^\?\?|killpg|__sigaction|__GI_|_Unwind|handleErrorImpl")
FRAME = re.compile(r"^\s*#(\d+)\s+0x[0-9a-fA-F]+\s+(?:in\s+)?(.*)$")


def clean_frame(text):
    text = text.replace("(anonymous namespace)", "anon")
    text = re.sub(r"\s+\(/[^)]*\)\s*$", lambda m: m.group(0) if "+0x" in m.group(0) and "(" not in text.split(" (")[0] else "", text)
    text = re.sub(r"\s+\S+:\d+(:\d+)?\s*$", "", text)
    text = re.sub(r"\s+at\s+\S+:\d+\s*$", "", text)
    text = re.sub(r"\s+from\s+\S+$", "", text)
    m = re.match(r"^\(([^)]*)\+0x[0-9a-f]+\)$", text.strip())
    if m:  # unsymbolised: the module and offset
        return os.path.basename(m.group(1)) + text.strip()[len(m.group(1)) + 1:-1]
    # drop argument lists and templates, keep the qualified name
    depth, name = 0, []
    for ch in text:
        if ch in "(<":
            depth += 1
        elif ch in ")>":
            depth -= 1
        elif depth == 0:
            name.append(ch)
    name = "".join(name).strip()
    name = re.sub(r"\s*\(.*$", "", name)
    return name[:120] or text[:120]


def frames_of(output, limit=1):
    """The first `limit` distinct symbolised frames below the signal handler
    (the crash site; one frame, so that the same crash reached from two
    callers is one finding). info.txt keeps the whole dump."""
    frames = []
    for line in output.split("\n"):
        m = FRAME.match(line)
        if not m:
            continue
        raw = m.group(2).strip()
        if re.match(r"^\([^()]*\+0x[0-9a-fA-F]+\)$", raw) or SKIP_FRAME.search(raw):
            continue  # unsymbolised (the handler's own frames) or runtime
        f = clean_frame(raw)
        if not f or SKIP_FRAME.search(f) or (frames and frames[-1] == f):
            continue
        if f == "main" and frames:
            break
        frames.append(f)
        if len(frames) == limit:
            break
    return frames


def normalise(text):
    text = text.strip()
    text = re.sub(r"'[^'\n]*'", "'_'", text)
    text = re.sub(r'"[^"\n]*"', '"_"', text)
    text = re.sub(r"0x[0-9a-fA-F]+", "0x_", text)
    text = re.sub(r"-?\d+(\.\d+)?([eE][-+]?\d+)?", "N", text)
    text = re.sub(r"<tmp>\S*", "<tmp>", text)
    text = re.sub(r"@\S+", "@_", text)
    return text[:200]


SIGNAMES = {getattr(signal, n): n for n in dir(signal)
            if n.startswith("SIG") and not n.startswith("SIG_") and isinstance(getattr(signal, n), int)}


def classify(target, res):
    """(class, detail) of a finding, or None for an acceptable result."""
    out = res.output
    tool = res.stage or target
    if res.timed_out:
        return "timeout", "%s: past the timeout" % tool
    # Both anchored where the tool prints them, at a line's start (glibc's
    # "prog: file:line: function: Assertion `...' failed."), never inside a
    # diagnostic that echoes a source line quoting them (corpus/mlir/
    # fuzzer-echoed-llvm-error.mlir).
    m = re.search(r"(?m)^\S+: [^\s:]+:\d+: .*Assertion [`'](.*)' failed", out)
    if m:
        return "assertion", normalise(m.group(1))
    m = re.search(r"(?m)^LLVM ERROR: (.*)", out)
    if m:
        return "llvm-error", normalise(m.group(1))
    # The C API recovers a crashed or fatally failing compile into an error
    # string (lib/CAPI/SolCAPI.cpp): still a compiler bug, and a finding.
    m = re.search(r"sol_compile: internal error: the compiler (crashed "
                  r"\([^)]*\)|stopped on an LLVM fatal error: .*|"
                  r"threw an unexpected C\+\+ exception)", out)
    if m:
        return "recovered-crash", normalise(m.group(1))
    m = re.search(r"terminate called (after throwing an instance of '([^']*)'(\s+what\(\):\s*(.*))?|.*)", out)
    if m:
        what = m.group(2) or m.group(1)
        return "terminate", "%s %s" % (what, normalise(m.group(4) or ""))
    if re.search(r"ERROR: AddressSanitizer|runtime error:", out):
        m = re.search(r"(ERROR: AddressSanitizer: \S+|runtime error: .*)", out)
        return "sanitizer", "%s %s" % (normalise(m.group(1)), " | ".join(frames_of(out)))
    if res.rc < 0:
        sig = SIGNAMES.get(-res.rc, "signal %d" % -res.rc)
        frames = frames_of(out)
        if frames:  # the same crash through sol-opt and the C API is one finding
            return "signal", "%s %s" % (sig, " | ".join(frames))
        steps = re.findall(r"^capi: (.*)$", out, re.M)
        return "signal", "%s: %s %s" % (tool, sig, ("last call " + steps[-1]) if steps else "")
    if "Stack dump" in out or "PLEASE submit a bug report" in out:
        return "stack-dump", " | ".join(frames_of(out)) or tool
    if res.json_error:
        # What was written, not where: the same NaN in a manifest, the cost
        # report and the C API's strings is one finding.
        kind = re.sub(r"^[^:]*: ", "", res.json_error)
        if "non-standard" in kind:
            return "bad-json", "NaN/Infinity constant"
        kind = re.sub(r" *\(?(line|column|char) \d+\)?", "", kind)
        kind = re.sub(r"at '-?(nan|inf)\w*'", "at 'nan/inf'", kind, flags=re.I)
        return "bad-json", kind[:80]
    if res.rc == 3 and tool in ("capi", "capi-load"):
        m = re.search(r"^contract: (.*)$", out, re.M)
        return "api-contract", "%s: %s" % (tool, m.group(1) if m else "status 3")
    m = re.search(r"(?m)^(?:[^\n]*:\d+:\d+: )?error: (.*)$", out) if res.rc == 0 else None
    if m and tool.startswith("sol-opt"):  # a diagnostic, not a remark's "error:"
        return "exit0-error", "%s: %s" % (tool, normalise(m.group(1)))
    return None


def signature(cls, detail):
    return "%s | %s" % (cls, detail)


# ---------------------------------------------------------------------------
# gdb backtraces for crashes that print no stack dump (sol-run, capi-driver)
# ---------------------------------------------------------------------------

def refine(runner, target, text, extra, c):
    """A frameless crash (capi-driver, sol-run print no stack dump) gets the
    crash site from a gdb backtrace, in the form sol-opt's dumps give it, so
    that the same crash through sol-opt and the C API is one finding."""
    cls, detail = c
    if cls == "signal" and ": SIG" in detail:
        frames = gdb_frames(runner, target, text, extra)
        if frames:
            return cls, "%s %s" % (detail.split(": ", 1)[1].split(" ")[0], frames[0])
    return c


def gdb_frames(runner, target, text, extra):
    gdb = shutil.which("gdb")
    if not gdb:
        return []
    tmp = tempfile.mkdtemp(prefix="g", dir=runner.args.scratch)
    try:
        path = os.path.join(tmp, "input" + EXT[KIND_OF[target]])
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        if target == "ptx":
            os.makedirs(tmp + "/out")
        cmds = runner.commands(target, path, extra, tmp)
        stage, argv, _ = cmds[0] if len(cmds) == 1 else cmds[-1]
        rc, out, _, _, _ = runner.exec(
            [gdb, "-batch", "-nx", "-ex", "run", "-ex", "bt 12", "--args"] + argv,
            runner.args.timeout * 3, tmp,
            runner.args.sol_run_mem_mb * 1024 * 1024 if stage == "sol-run" else None)
        frames = []
        for line in out.split("\n"):
            m = re.match(r"^#\d+\s+(?:0x[0-9a-f]+ in )?(.*?)(?: \(.*)?$", line)
            if not m:
                continue
            f = clean_frame(m.group(1))
            if f and not SKIP_FRAME.search(line) and not SKIP_FRAME.search(f):
                if f == "main" and frames:
                    break
                if not frames or frames[-1] != f:
                    frames.append(f)
                if len(frames) == 3:
                    break
        return frames
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------------
# Minimisation
# ---------------------------------------------------------------------------

def ddmin(units, test, deadline, joiner):
    """Delta debugging over a list of text units (lines or chunks)."""
    n = 2
    while len(units) >= 2 and time.monotonic() < deadline:
        size = max(1, len(units) // n)
        reduced = False
        for start in range(0, len(units), size):
            if time.monotonic() >= deadline:
                break
            candidate = units[:start] + units[start + size:]
            if candidate and test(joiner.join(candidate)):
                units = candidate
                n = max(n - 1, 2)
                reduced = True
                break
        if not reduced:
            if size == 1:
                break
            n = min(len(units), n * 2)
    return units


def json_shrink(root, test, deadline):
    """Deletes keys and elements of a JSON value while test() holds."""
    changed = True
    while changed and time.monotonic() < deadline:
        changed = False
        for path, value in list(json_paths(root)):
            if time.monotonic() >= deadline:
                break
            if not path:
                continue
            try:
                candidate = json.loads(json.dumps(root))
                parent = json_get(candidate, path[:-1])
                del parent[path[-1]]
            except (KeyError, IndexError, TypeError):
                continue
            if test(json.dumps(candidate, indent=1)):
                root = candidate
                changed = True
                break
    return root


def minimise(runner, target, text, extra, sig, seconds):
    deadline = time.monotonic() + seconds
    cache = {}
    execs = [0]

    def test(candidate):
        if candidate in cache:
            return cache[candidate]
        execs[0] += 1
        res = runner.run(target, candidate, extra)
        c = classify(target, res)
        ok = False
        if c:
            cls, detail = c
            ok = signature(cls, detail) == sig
        cache[candidate] = ok
        return ok

    best = text
    structured = False
    if KIND_OF[target] != "mlir":
        try:
            root = json.loads(text, parse_constant=lambda c: float(c.replace("Infinity", "inf")))
            if test(json.dumps(root, indent=1)):
                best = json.dumps(json_shrink(root, test, deadline), indent=1)
                structured = True
        except ValueError:
            pass
    else:
        best = mlir_reduce(best, test, deadline)
        structured = True
    units = ddmin(best.split("\n"), test, deadline, "\n")
    best = "\n".join(units)
    if not structured and len(best) < 4000:
        chunks = re.findall(r"\s+|[%@#]?[\w.$-]+|.", best, re.S)
        best = "".join(ddmin(chunks, test, deadline, ""))
    return best, execs[0]


def mlir_candidates(text):
    """Smaller variants of an MLIR text, the biggest cuts first."""
    lines = text.split("\n")
    # comment lines (a corpus file's header, a lit test's CHECKs)
    if any(l.lstrip().startswith("//") for l in lines):
        yield "\n".join(l for l in lines if not l.lstrip().startswith("//"))
    # whole functions
    for m in reversed(list(re.finditer(r"(?ms)^(\s*)func\.func\s.*?^\1\}[ \t]*\n?", text))):
        yield text[:m.start()] + text[m.end():]
    # a statement, its uses now the statement's first operand
    stmts = statements(lines)
    for i, j in reversed(stmts):
        m = SSA_DEF.match(lines[i])
        operands = SSA.findall(m.group(4).split(":")[0])
        rest = lines[:i] + lines[j + 1:]
        body = "\n".join(rest)
        if operands:
            body = re.sub(re.escape(m.group(2)) + r"(?![\w.$-])", lambda _: operands[0], body)
        yield body
    # dims made small, each value everywhere
    values = sorted({v for _, _, v in dims_spans(text) if v not in ("?", "1", "2", "4", "8")},
                    key=lambda v: -len(v))
    for v in values:
        for small in ("8", "1"):
            out, last = [], 0
            for s_, e, w in dims_spans(text):
                if w == v:
                    out.append(text[last:s_])
                    out.append(small)
                    last = e
            out.append(text[last:])
            yield "".join(out)
    # a long target attribute as its preset, attributes dropped
    yield TARGET_ATTR.sub('#sol.target<"h200">', text)
    yield text.replace(" transpose_b", "")


def mlir_reduce(text, test, deadline):
    """Greedy: take the first smaller variant that keeps the signature, repeat."""
    changed = True
    while changed and time.monotonic() < deadline:
        changed = False
        for candidate in mlir_candidates(text):
            if time.monotonic() >= deadline:
                break
            if candidate != text and len(candidate) <= len(text) and test(candidate):
                text = candidate
                changed = True
                break
    return text


# ---------------------------------------------------------------------------
# The campaign
# ---------------------------------------------------------------------------

class Finding:
    def __init__(self, sig, cls, target, text, extra, trail, origin, res):
        self.sig, self.cls, self.target = sig, cls, target
        self.text, self.extra, self.trail, self.origin = text, extra, trail, origin
        self.output = res.output
        self.command = res.command
        self.count = 1
        self.targets = {target}
        self.minimal = None
        self.known = False


def pick_extra(rng, target, kernel_names_list):
    if target == "annotate":
        return " ".join(rng.sample(ANNOTATE_OPTIONS, 1)) if rng.random() < 0.15 else ""
    if target == "ptx":
        return " ".join(rng.sample(PTX_OPTIONS, rng.choice([1, 2]))) if rng.random() < 0.25 else ""
    if target == "capi":
        return rng.choice(CAPI_TARGETS) + "\x1f" + rng.choice(CAPI_OPTIONS)
    return ""


def manifest_kernel(text, rng):
    try:
        v = json.loads(text)
        if isinstance(v, dict) and isinstance(v.get("kernel"), str):
            return v["kernel"] if rng.random() < 0.9 else rng.choice(["", "x", v["kernel"] + "_"])
    except ValueError:
        pass
    return "k"


def describe_extra(target, extra):
    if target == "capi":
        t, o = extra.split("\x1f")
        return "target=%r options=%r" % (t, o)
    return extra


def repro_command(args, target, path, extra):
    q = shlex.quote
    env = "CUDA_HOME=%s LLVM_SYMBOLIZER_PATH=%s " % (q(args.cuda_home), q(args.symbolizer or ""))
    tmp = "$(mktemp -d)"
    if target == "annotate":
        opts = "report=json report-file=/dev/stdout" + (" " + extra if extra else "")
        return env + "%s %s %s -o /dev/null" % (q(args.sol_opt), q(path), q("--sol-annotate=" + opts))
    if target == "ptx":
        opts = "out-dir=$d report=json" + (" " + extra if extra else "")
        return env + 'd=%s; %s %s "--sol-to-ptx=%s" -o /dev/null' % (tmp, q(args.sol_opt), q(path), opts)
    if target == "cpu":
        fuse = "--sol-annotate" if "sol.target" in read(path) else "--canonicalize --sol-fuse=force=always"
        return env + ("d=%s; %s %s %s --convert-sol-to-linalg -o $d/k.mlir && %s $d/k.mlir --sol-lower-to-cpu -o $d/k.llvm.mlir"
                      " && %s --mlir-to-llvmir $d/k.llvm.mlir -o /dev/null") % (
            tmp, q(args.sol_opt), q(path), fuse, q(args.sol_opt), q(args.mlir_translate))
    if target == "capi":
        t, o = extra.split("\x1f")
        return env + "d=%s; %s compile %s %s %s $d   # build: %s" % (
            tmp, q(args.capi_driver), q(path), q(t), q(o), args.capi_build)
    if target == "target-file":
        return env + "%s %s %s --sol-annotate -o /dev/null" % (
            q(args.sol_opt), q(args.target_base), q("--sol-attach-target=file=" + path))
    if target == "sol-run":
        return "(ulimit -v %d; %s --backend=host --lib=%s --check-only --ref-budget=1e6 %s %s)   # stub: %s" % (
            args.sol_run_mem_mb * 1024, q(args.sol_run), q(args.stub_lib), " ".join(args.sol_run_flags),
            q(path), args.stub_build)
    if target == "capi-load":
        return "%s load %s %s   # build: %s" % (q(args.capi_driver), q(path), q(extra or "k"), args.capi_build)
    return "?"


def save_finding(args, f):
    h = hashlib.sha1(f.sig.encode()).hexdigest()[:10]
    d = os.path.join(args.findings, "%s-%s" % (f.cls, h))
    os.makedirs(d, exist_ok=True)
    ext = EXT[KIND_OF[f.target]]
    with open(os.path.join(d, "input" + ext), "w", encoding="utf-8", errors="surrogateescape") as out:
        out.write(f.text)
    path = os.path.join(d, "input" + ext)
    if f.minimal is not None:
        path = os.path.join(d, "min" + ext)
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as out:
            out.write(f.minimal)
    cmd = repro_command(args, f.target, path, f.extra)
    for copy, original in args.originals.items():
        cmd = cmd.replace(copy, original)
    with open(os.path.join(d, "repro.sh"), "w") as out:
        out.write("#!/bin/sh\n# %s\n# target %s %s\n%s\n" % (f.sig, f.target, describe_extra(f.target, f.extra), cmd))
    os.chmod(os.path.join(d, "repro.sh"), 0o755)
    with open(os.path.join(d, "finding.json"), "w") as out:
        json.dump({"signature": f.sig, "class": f.cls, "target": f.target, "extra": f.extra,
                   "targets": sorted(f.targets), "hits": f.count, "origin": f.origin,
                   "mutations": f.trail, "input": os.path.basename(path)}, out, indent=1)
    with open(os.path.join(d, "info.txt"), "w", encoding="utf-8", errors="replace") as out:
        out.write("signature: %s\nclass: %s\ntarget: %s (all targets that hit it: %s)\noptions: %s\nhits: %d\norigin: %s\n"
                  "mutations: %s\nknown: %s\nreproduce: %s\n  or: %s --run-input %s --target %s%s\n\n"
                  "command: %s\n\noutput:\n%s\n" % (
                      f.sig, f.cls, f.target, ", ".join(sorted(f.targets)), describe_extra(f.target, f.extra), f.count, f.origin,
                      ", ".join(f.trail) or "(none)", f.known, cmd, os.path.relpath(__file__, ROOT), path,
                      f.target, (" --extra " + shlex.quote(f.extra.replace("\x1f", "<US>"))) if f.extra else "",
                      " ".join(shlex.quote(c) for c in (f.command or [])), f.output[-6000:]))
    return d


def setup(args, log):
    b = args.build
    args.sol_opt = args.sol_opt or os.path.join(b, "bin", "sol-opt")
    args.sol_run = args.sol_run or os.path.join(b, "bin", "sol-run")
    args.capi_lib = args.capi_lib or os.path.join(b, "lib", "libsol_capi.so")
    args.mlir_translate = os.path.join(args.llvm_bin, "mlir-translate")
    args.symbolizer = shutil.which("llvm-symbolizer", path=args.llvm_bin) or shutil.which("llvm-symbolizer")
    env = dict(os.environ)
    env.setdefault("CUDA_HOME", args.cuda_home)
    args.cuda_home = env["CUDA_HOME"]
    if args.symbolizer:
        env["LLVM_SYMBOLIZER_PATH"] = args.symbolizer
    env.pop("SOL_CAPI_LIBCUDA", None)
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "detect_leaks=0")
    os.makedirs(args.work_dir, exist_ok=True)
    args.scratch = tempfile.mkdtemp(prefix="run-", dir=args.work_dir)
    missing = [p for p in (args.sol_opt,) if not os.path.exists(p)]
    if missing:
        raise SystemExit("sol-fuzz: %s not found (build first)" % ", ".join(missing))
    # Run copies of the binaries, so that a rebuild during the run (the tree
    # is shared) neither breaks nor mixes it; repro.sh names the originals.
    args.originals = {}
    if not args.no_snapshot:
        snap = os.path.join(args.scratch, "bin")
        os.makedirs(snap)
        for attr in ("sol_opt", "sol_run", "capi_lib"):
            src = getattr(args, attr)
            if os.path.exists(src):
                dst = os.path.join(snap, os.path.basename(src))
                shutil.copy2(src, dst)
                args.originals[dst] = src
                setattr(args, attr, dst)
    cc = shutil.which(os.environ.get("CC", "cc"))
    tool_dir = os.path.join(args.work_dir, "tools")
    os.makedirs(tool_dir, exist_ok=True)
    # The C API driver.
    args.capi_driver = os.path.join(tool_dir, "capi-driver")
    args.capi_build = "cc -I%s %s -o %s %s -Wl,-rpath,%s" % (
        os.path.join(ROOT, "include"), os.path.join(HERE, "capi-driver.c"), args.capi_driver,
        args.capi_lib, os.path.dirname(args.capi_lib))
    targets = list(args.targets)
    if "capi" in targets or "capi-load" in targets:
        ok = cc and os.path.exists(args.capi_lib) and subprocess.run(
            shlex.split(args.capi_build.replace("cc ", shlex.quote(cc) + " ", 1)),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT).returncode == 0
        if not ok:
            log("warning: no C API driver (cc or %s missing); skipping capi targets" % args.capi_lib)
            targets = [t for t in targets if t not in ("capi", "capi-load")]
    # sol-run's stub kernel library.
    args.stub_lib = os.path.join(tool_dir, "stub-kernels.so")
    if "sol-run" in targets and not os.path.exists(args.sol_run):
        log("warning: %s missing; skipping sol-run" % args.sol_run)
        targets.remove("sol-run")
    if "cpu" in targets and not os.path.exists(args.mlir_translate):
        log("warning: %s missing; skipping cpu" % args.mlir_translate)
        targets.remove("cpu")
    # sol-run refuses buffers past a cap (--max-host-bytes, where it has one):
    # half the address space the fuzzer gives it, so that what the fuzzer
    # sees is the refusal, not its own limit.
    args.sol_run_flags = []
    if "sol-run" in targets:
        r = subprocess.run([args.sol_run, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if b"--max-host-bytes" in r.stdout:
            args.sol_run_flags = ["--max-host-bytes=%d" % (args.sol_run_mem_mb * 1024 * 1024 // 2)]
    # A module without a target for target-file.
    args.target_base = os.path.join(tool_dir, "no-target.mlir")
    text = read(os.path.join(ROOT, "examples", "oproj_residual.mlir"))
    with open(args.target_base, "w") as f:
        f.write(TARGET_ATTR.sub("", text).replace("attributes {sol.target = }", ""))
    args.targets = targets
    return env, cc


def build_stub(args, cc, names, log):
    src = os.path.join(args.work_dir, "tools", "stub-kernels.c")
    with open(src, "w") as f:
        f.write("/* sol-fuzz: kernels that do nothing, for sol-run --backend=host */\n")
        for n in sorted(set(names) | {"k", "kernel"}):
            f.write("void %s(void) {}\n" % n)
    args.stub_build = "cc -shared -fPIC %s -o %s" % (src, args.stub_lib)
    r = subprocess.run([cc, "-shared", "-fPIC", src, "-o", args.stub_lib],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT) if cc else None
    if not r or r.returncode != 0:
        log("warning: cannot build the stub kernel library; skipping sol-run")
        if "sol-run" in args.targets:
            args.targets.remove("sol-run")


def corpus_directives(text):
    """Per-target options of a corpus .mlir file, in comment lines:
         // sol-fuzz capi: target=h200 options=fast-math=true
         // sol-fuzz ptx: tiles=0x0 max-cluster=2
         // sol-fuzz annotate: remarks=true
         // sol-fuzz targets: annotate cpu       (only these; default all)
    (capi's target and options as sol_compile_with_options takes them, "-"
    for NULL; the others appended to the pipeline's options)."""
    out = {}
    for m in re.finditer(r"^// sol-fuzz ([\w-]+): ?(.*)$", text, re.M):
        target, rest = m.group(1), m.group(2).strip()
        if target == "capi":
            t = re.search(r"target=(\S*)", rest)
            o = re.search(r"options=(.*)$", rest)
            rest = (t.group(1) if t else "-") + "\x1f" + (o.group(1) if o else "-")
        out[target] = rest
    return out


class Campaign:
    def __init__(self, args, runner, seeds, log):
        self.corpus_execs = 0
        self.args, self.runner, self.seeds, self.log = args, runner, seeds, log
        self.findings = collections.OrderedDict()
        self.execs = 0
        self.exec_by_target = collections.Counter()
        self.seen_keys = set()
        self.pool = {"mlir": [], "manifest": [], "target": []}
        self.slow = 0
        self.known = set()
        if args.known and os.path.exists(args.known):
            for line in read(args.known).split("\n"):
                line = line.strip()
                if line and not line.startswith("#"):
                    self.known.add(line)
        self.refined = {}
        self.gdb_budget = 60
        self.inputs_hash = hashlib.sha1()

    def record(self, target, text, extra, trail, origin, res):
        """Classifies one result; returns the finding's signature or None."""
        self.execs += 1
        self.exec_by_target[target] += 1
        c = classify(target, res)
        if c is None:
            return None
        coarse = signature(*c)
        sig = coarse
        if c[0] == "signal" and ": SIG" in c[1]:  # frameless: ask gdb
            if self.gdb_budget > 0:
                self.gdb_budget -= 1
                sig = signature(*refine(self.runner, target, text, extra, c))
                self.refined[coarse] = sig
            else:  # out of gdb runs: the last answer for this coarse signature
                sig = self.refined.get(coarse, coarse)
        cls = c[0]
        if sig in self.findings:
            self.findings[sig].count += 1
            self.findings[sig].targets.add(target)
            return sig
        f = Finding(sig, cls, target, text, extra, trail, origin, res)
        f.coarse = coarse
        f.known = sig in self.known
        self.findings[sig] = f
        self.log("%s finding %d: %s  [%s, %s]" % ("known" if f.known else "NEW", len(self.findings), sig, target, origin))
        save_finding(self.args, f)
        return sig

    def novelty(self, i, target, kind, text, res):
        """Mutant i, whose first diagnostic was never seen, joins the pool
        (results are applied in input order, so the pool is the same for
        any --jobs)."""
        first = re.search(r"error: (.*)", res.output)
        key = (target, res.rc, normalise(first.group(1)) if first else "", res.stage)
        if key in self.seen_keys:
            return
        self.seen_keys.add(key)
        if len(text) < 20000 and len(self.pool[kind]) < POOL_CAP:
            self.pool[kind].append((i, text))

    def corpus(self):
        entries = load_corpus(self.args.corpus)
        work = []
        for kind, path, text in entries:
            directives = corpus_directives(text)
            only = directives.get("targets", "").replace(",", " ").split()
            for target in self.args.targets:
                if KIND_OF[target] == kind and (not only or target in only):
                    extra = directives.get(target, "")
                    if target == "capi-load":
                        extra = manifest_kernel(text, random.Random(0))
                    work.append((target, text, extra, [], "corpus:" + os.path.relpath(path, ROOT)))
        return work

    def generate(self, i):
        rng = random.Random("%d:%d" % (self.args.seed, i))
        targets = self.args.targets
        target = rng.choices(targets, [WEIGHTS[t] for t in targets])[0]
        kind = KIND_OF[target]
        base = self.seeds.items[kind]
        # only what inputs < i - POOL_WINDOW added: all applied before i is made
        pool = [t for k, t in self.pool[kind] if k < i - POOL_WINDOW]
        if pool and rng.random() < 0.3:
            j = rng.randrange(len(pool))
            text, origin = pool[j], "pool#%d" % j
        else:
            j = rng.randrange(len(base))
            text, origin = base[j], self.seeds.names[kind][j]
        try:
            text, trail = mutate(rng, kind, text)
        except Exception as e:  # a mutator's bug must not end the campaign
            self.log("mutator error on input %d (%s: %s); running it unmutated" % (i, type(e).__name__, e))
            trail = ["mutator-error"]
        extra = pick_extra(rng, target, None)
        if target == "capi-load":
            extra = manifest_kernel(text, rng)
        return target, text, extra, trail, origin

    def run(self):
        args = self.args
        start = time.monotonic()
        deadline = start + args.seconds
        work = self.corpus()
        executor = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
        # Corpus first, as is.
        futures = [(w, executor.submit(self.runner.run, w[0], w[1], w[2])) for w in work]
        corpus_hits = 0
        for w, fut in futures:
            res = fut.result()
            if self.record(*w, res):
                corpus_hits += 1
        self.corpus_execs = len(work)
        self.corpus_seconds = time.monotonic() - start
        if work:
            self.log("corpus: %d runs of %d inputs in %.1fs, %d findings" % (
                len(work), len(load_corpus(args.corpus)), self.corpus_seconds, corpus_hits))
        if args.corpus_only:
            executor.shutdown()
            return time.monotonic() - start
        deadline = time.monotonic() + args.seconds  # --seconds of mutants
        # Mutants: input i sees the pool as results < i - POOL_WINDOW left it.
        inflight = {}
        done = {}
        next_apply = 0
        i = 0
        last_report = time.monotonic()
        limit = args.max_execs if args.max_execs else float("inf")
        while True:
            now = time.monotonic()
            stop = now >= deadline or i >= limit
            while not stop and len(inflight) < 2 * args.jobs and next_apply >= i - POOL_WINDOW:
                w = self.generate(i)
                self.inputs_hash.update(("%s\0%s\0%s\0" % (w[0], w[2], w[1])).encode("utf-8", "surrogateescape"))
                inflight[i] = (w, executor.submit(self.runner.run, w[0], w[1], w[2]))
                i += 1
                stop = time.monotonic() >= deadline or i >= limit
            if not inflight:
                break
            finished, _ = concurrent.futures.wait([f for _, f in inflight.values()], timeout=1.0,
                                                  return_when=concurrent.futures.FIRST_COMPLETED)
            for k in [k for k, (_, f) in inflight.items() if f in finished]:
                done[k] = inflight.pop(k)
            while next_apply in done:
                w, f = done.pop(next_apply)
                res = f.result()
                self.record(*w, res)
                self.novelty(next_apply, w[0], KIND_OF[w[0]], w[1], res)
                next_apply += 1
            if time.monotonic() - last_report > args.progress:
                last_report = time.monotonic()
                el = last_report - start
                self.log("%6.0fs %7d execs %5.1f/s %d findings, pool %s" % (
                    el, self.execs, self.execs / el, len(self.findings),
                    "/".join(str(len(self.pool[k])) for k in ("mlir", "manifest", "target"))))
        executor.shutdown()
        return time.monotonic() - start

    def confirm_timeouts(self):
        """A timeout counts when the input, run again alone, takes more than
        3x --timeout: a slow machine or a big-but-linear input is not one."""
        for sig, f in list(self.findings.items()):
            if f.cls != "timeout":
                continue
            res = self.runner.run(f.target, f.text, f.extra, timeout=3 * self.args.timeout)
            if not res.timed_out:
                self.log("timeout not confirmed (%.1fs alone, limit 3 x %gs), dropped: %s" % (
                    res.seconds, self.args.timeout, sig))
                del self.findings[sig]
                self.slow += 1
                d = os.path.join(self.args.findings, "%s-%s" % (f.cls, hashlib.sha1(sig.encode()).hexdigest()[:10]))
                shutil.rmtree(d, ignore_errors=True)

    def minimise_all(self):
        total_deadline = time.monotonic() + self.args.minimize_total
        for f in self.findings.values():
            left = total_deadline - time.monotonic()
            if left <= 1:
                break
            budget = min(self.args.minimize_seconds, left)
            if f.cls == "timeout":
                continue  # each try takes the whole timeout
            t0 = time.monotonic()
            f.minimal, n = minimise(self.runner, f.target, f.text, f.extra, f.coarse, budget)
            self.log("minimised %s: %d -> %d bytes, %d runs, %.0fs" % (
                f.sig[:90], len(f.text), len(f.minimal), n, time.monotonic() - t0))
            save_finding(self.args, f)


def replay(args, runner):
    """Runs every finding saved under a findings directory again (its min.*,
    else input.*) and says which still fail, and how."""
    still = 0
    dirs = sorted(d for d in os.listdir(args.replay) if os.path.isdir(os.path.join(args.replay, d)))
    for name in dirs:
        d = os.path.join(args.replay, name)
        meta = os.path.join(d, "finding.json")
        if not os.path.exists(meta):
            continue
        info = json.loads(read(meta))
        ext = EXT[KIND_OF[info["target"]]]
        path = os.path.join(d, "min" + ext)
        if not os.path.exists(path):
            path = os.path.join(d, "input" + ext)
        targets = info.get("targets") or [info["target"]]
        for target in targets:
            extra = info["extra"] if target == info["target"] else ""
            if target == "capi" and not extra:
                extra = "-\x1f-"
            text = read(path)
            if target == "capi-load" and not extra:
                extra = manifest_kernel(text, random.Random(0))
            res = runner.run(target, text, extra)
            c = classify(target, res)
            if c and c[0] == "timeout":
                again = runner.run(target, text, extra, timeout=3 * args.timeout)
                if not again.timed_out:
                    print("slow   %s [%s] %.1fs (under 3 x the timeout: not counted)" % (name, target, again.seconds))
                    continue
            if c:
                c = refine(runner, target, text, extra, c)
                still += 1
                print("STILL  %s [%s] %s\n       was: %s" % (name, target, signature(*c), info["signature"]))
            else:
                first = re.search(r"error: (.*)", res.output)
                print("fixed  %s [%s] rc=%s %s" % (name, target, res.rc,
                                                   first.group(1)[:100] if first else ""))
    print("sol-fuzz: replay: %d of the findings' runs still fail" % still)
    return 1 if still else 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="See the module docstring (head of this file) for details.")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seconds", type=float, default=120, help="fuzzing time after the corpus (default 120)")
    p.add_argument("--max-execs", type=int, default=0, help="stop after this many mutants (0: no limit)")
    p.add_argument("--jobs", "-j", type=int, default=2)
    p.add_argument("--timeout", type=float, default=10, help="seconds per input and target (default 10)")
    p.add_argument("--targets", default=",".join(ALL_TARGETS),
                   help="comma-separated, of: " + ", ".join(ALL_TARGETS))
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--sol-opt"); p.add_argument("--sol-run"); p.add_argument("--capi-lib")
    p.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    p.add_argument("--cuda-home", default="/usr/local/cuda")
    p.add_argument("--corpus", default=os.path.join(HERE, "corpus"))
    p.add_argument("--known", default=os.path.join(HERE, "known-findings.txt"),
                   help="signatures (one a line) reported but not failing the run")
    p.add_argument("--strict", action="store_true", help="known findings fail the run too")
    p.add_argument("--corpus-only", action="store_true", help="run the regression corpus only")
    p.add_argument("--work-dir", default="/tmp/sol-fuzz-work")
    p.add_argument("--findings", help="default <work-dir>/findings")
    p.add_argument("--no-minimize", action="store_true")
    p.add_argument("--minimize-seconds", type=float, default=30)
    p.add_argument("--minimize-total", type=float, default=240)
    p.add_argument("--mem-limit-mb", type=int, default=4096, help="address-space limit per process")
    p.add_argument("--sol-run-mem-mb", type=int, default=1024)
    p.add_argument("--progress", type=float, default=30, help="seconds between progress lines")
    p.add_argument("--run-input", help="run one file through --target and print the result")
    p.add_argument("--target", help="with --run-input")
    p.add_argument("--reduce", action="store_true", help="with --run-input: minimise a finding, print it")
    p.add_argument("--extra", default="", help="with --run-input: the pipeline's extra options; for capi 'TARGET<US>OPTIONS' ('-' is NULL)")
    p.add_argument("--no-snapshot", action="store_true", help="run build/ in place, not copies")
    p.add_argument("--replay", metavar="FINDINGS_DIR", help="re-run the findings saved there")
    p.add_argument("--keep-findings", action="store_true", help="do not clear --findings first")
    args = p.parse_args(argv)
    args.targets = [t for t in args.targets.split(",") if t]
    bad = [t for t in args.targets if t not in ALL_TARGETS]
    if bad or args.jobs < 1:
        p.error("unknown target(s) %s" % bad if bad else "--jobs must be >= 1")
    args.findings = args.findings or os.path.join(args.work_dir, "findings")

    def log(msg):
        print("sol-fuzz: " + msg, flush=True)

    env, cc = setup(args, log)
    try:
        seeds = collect_seeds(args, env, log)
        build_stub(args, cc, kernel_names(seeds), log)
        runner = Runner(args, env)
        if args.run_input:
            target = args.target or {"mlir": "annotate"}.get(
                "mlir" if args.run_input.endswith(".mlir") else "", "sol-run")
            text = read(args.run_input)
            extra = args.extra.replace("<US>", "\x1f") or corpus_directives(text).get(target, "")
            if target == "capi" and not extra:
                extra = "-\x1f-"
            if target == "capi-load" and not extra:
                extra = manifest_kernel(text, random.Random(0))
            res = runner.run(target, text, extra)
            c = classify(target, res)
            if c:
                c = refine(runner, target, text, extra, c)
            print(res.output)
            print("sol-fuzz: %s rc=%s %.2fs %s" % (target, res.rc, res.seconds,
                                                   ("finding: " + signature(*c)) if c else "no finding"))
            print("sol-fuzz: command: " + " ".join(shlex.quote(x) for x in res.command or []))
            if c and args.reduce:
                small, n = minimise(runner, target, text, extra, signature(*classify(target, res)),
                                    args.minimize_seconds)
                print("sol-fuzz: minimised in %d runs (%d -> %d bytes):\n%s" % (n, len(text), len(small), small))
            return 1 if c else 0
        if args.replay:
            return replay(args, runner)
        if not args.keep_findings:
            shutil.rmtree(args.findings, ignore_errors=True)
        os.makedirs(args.findings, exist_ok=True)
        log("seed %d, %d jobs, %gs, targets %s; seeds: %d mlir, %d manifests, %d target files; findings -> %s" % (
            args.seed, args.jobs, args.seconds, ",".join(args.targets), len(seeds.items["mlir"]),
            len(seeds.items["manifest"]), len(seeds.items["target"]), args.findings))
        campaign = Campaign(args, runner, seeds, log)
        elapsed = campaign.run()
        campaign.confirm_timeouts()
        if not args.no_minimize and campaign.findings:
            campaign.minimise_all()
        fuzz_execs = campaign.execs - campaign.corpus_execs
        print("sol-fuzz: summary: %d executions (%d corpus + %d mutants) in %.1f s, %.1f exec/s; by target: %s" % (
            campaign.execs, campaign.corpus_execs, fuzz_execs, elapsed, campaign.execs / max(elapsed, 1e-9),
            ", ".join("%s %d" % kv for kv in sorted(campaign.exec_by_target.items()))))
        by_class = collections.Counter(f.cls for f in campaign.findings.values())
        new = [f for f in campaign.findings.values() if not f.known]
        print("sol-fuzz: %d distinct findings (%d new, %d known)%s%s" % (
            len(campaign.findings), len(new), len(campaign.findings) - len(new),
            ": " if by_class else "", ", ".join("%s %d" % kv for kv in sorted(by_class.items()))))
        if campaign.slow:
            print("sol-fuzz: %d timeouts not confirmed on a second run (slow, not counted)" % campaign.slow)
        for f in campaign.findings.values():
            print("  [%s%s] x%d %s (targets: %s)" % (f.cls, ", known" if f.known else "", f.count, f.sig,
                                                   ", ".join(sorted(f.targets))))
        if campaign.findings:
            print("sol-fuzz: findings written to %s" % args.findings)
        print("sol-fuzz: inputs sha1 %s (the same for the same seed, build and count of inputs)" %
              campaign.inputs_hash.hexdigest())
        summary = {"seed": args.seed, "jobs": args.jobs, "seconds": elapsed, "executions": campaign.execs,
                   "inputs_sha1": campaign.inputs_hash.hexdigest(),
                   "by_target": campaign.exec_by_target,
                   "findings": [{"signature": f.sig, "class": f.cls, "target": f.target, "hits": f.count,
                                 "targets": sorted(f.targets),
                                 "known": f.known, "origin": f.origin, "mutations": f.trail,
                                 "input": f.minimal if f.minimal is not None else f.text}
                                for f in campaign.findings.values()]}
        with open(os.path.join(args.findings, "summary.json"), "w") as out:
            json.dump(summary, out, indent=1)
        failing = campaign.findings.values() if args.strict else new
        return 1 if failing else 0
    finally:
        shutil.rmtree(args.scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
