#!/usr/bin/env bash
# On the GPU machine (carry ["build-gpu-pack"]; tests/gpu/build_for_device.sh): how many
# bytes the batched tridiagonal solves really move, by Nsight Compute's DRAM counters,
# against the 5 arrays a solve must move (a, b, c, d read, x written: 5 n^2 4 bytes at
# 4096^2 in float = 335.5 MB). Issue 11's bandwidth target counts those 5 arrays; this
# says whether a miss is the kernels' speed or the bytes the algorithm moves.
#   1. `partitioned`, lines along y (its three kernels: chunk_reduce, interfaces,
#      chunk_solve), the first float solve of flowlua_bench_tridiagonal --sizes 4096;
#   2. `cr`, lines along x (cr_kernel).
# Caches are not flushed between kernels (--cache-control none), as in a real solve.
#   bash tests/gpu/tridiagonal_bytes_on_device.sh
set -uo pipefail
source "$(dirname "$0")/unpack_build.sh"
export LD_LIBRARY_PATH=$PWD/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || true)
[ -n "$ncu" ] || { echo "no ncu on this machine"; exit 1; }
bench=build-gpu/tests/flowlua_bench_tridiagonal
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
for k in 'regex:chunk_reduce|interfaces|chunk_solve' 'regex:^cr_kernel'; do
  echo "== kernels $k (first float solve at 4096 x 4096, then the second)"
  "$ncu" --cache-control none --metrics "$m" -k "$k" -c 6 --csv --page raw \
    "$bench" --sizes 4096 --repeats 1 2>/dev/null |
    python3 -c '
import csv, sys
rows = [r for r in csv.reader(sys.stdin) if len(r) > 5]
head, units = rows[0], rows[1]
col = {name: head.index(name) for name in head}
for r in rows[2:]:
    print("%-30s" % r[col["Kernel Name"]][:30], "  ".join("%s %s %s" % (m.split("__")[1].split(".")[0], r[col[m]], units[col[m]])
          for m in ("gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum")))
' || echo "(ncu output could not be read)"
done
