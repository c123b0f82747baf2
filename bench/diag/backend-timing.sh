#!/usr/bin/env bash
# Kept only because scripts/gpu-all.sh calls this path: the experiment is
# `bench/diag.sh backend` (bench/diag.sh --help); delete this file once
# gpu-all.sh calls that instead.
exec bash "$(dirname "$0")/../diag.sh" backend "$@"
