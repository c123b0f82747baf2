#!/usr/bin/env bash
# Installs what the Python tests need (test/Python: the torch.compile backend
# traced through real torch.nn modules and transformers models): PyTorch and
# transformers. CI keeps pip's download
# cache in $HOME/.cache/pip, so the large wheels are fetched once.
#
# The CPU-only index (download.pytorch.org/whl/cpu, a ~200 MB wheel) is tried
# first; where it is unreachable, plain PyPI's torch (CUDA build: ~540 MB
# wheel plus ~3 GB of nvidia-* and triton wheels; 346 s here on 2026-11-29)
# is the fallback. Without torch the Python tests report UNSUPPORTED; the
# rest of check-sol still runs.
set -uo pipefail
PYTHON=${PYTHON:-python3}
cache=(--cache-dir "$HOME/.cache/pip")
# transformers: test/Python/inductor_models.py runs six model families
# (random weights from configs, no hub download) through the backend.
install_transformers() {
  if "$PYTHON" -c "import transformers" 2>/dev/null; then return; fi
  "$PYTHON" -m pip install "${cache[@]}" transformers ||
    echo "== transformers could not be installed: the model tests will be skipped"
}
if "$PYTHON" -c "import torch" 2>/dev/null; then
  echo "== torch $("$PYTHON" -c 'import torch; print(torch.__version__)') already installed"
  install_transformers
  exit 0
fi
start=$(date +%s)
if ! "$PYTHON" -m pip install "${cache[@]}" --retries 1 --timeout 30 torch \
     --index-url https://download.pytorch.org/whl/cpu; then
  echo "== the CPU wheel index is unreachable; installing torch from PyPI"
  "$PYTHON" -m pip install "${cache[@]}" torch || {
    echo "== torch could not be installed: the Python tests will be skipped"
    exit 0
  }
fi
echo "== torch installed after $(( $(date +%s) - start )) s"
install_transformers
