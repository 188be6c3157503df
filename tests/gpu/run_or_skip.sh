#!/usr/bin/env bash
# Runs a flowlua command that needs a GPU, or exits 77 (ctest: skipped) when this
# machine has none.
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "no NVIDIA GPU on this machine: skipped"
  exit 77
fi
exec "$@"
