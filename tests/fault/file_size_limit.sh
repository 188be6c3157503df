#!/usr/bin/env bash
# file_size_limit.sh FLOWLUA OUTDIR
#
# A full disk mid-run, made with RLIMIT_FSIZE (prlimit): flowlua ignores SIGXFSZ, so the
# write that goes over fails with EFBIG. Expects exit 1 with "cannot write ...: File too
# large", every PNG written before it whole (signature, chunks with good CRCs, IEND),
# and no temporary file left behind.
set -u
flowlua=$1; out=$2
rm -rf "$out"; mkdir -p "$out"
cat > "$out/case.lua" <<'LUA'
local sim = flow.simulation {
  grid = { nx = 32, ny = 32 }, fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  time = { steps = 40 },
  checkpoint = { every = 20 },     -- about 80 KB: over the limit
}
sim:every(5, flow.png { field = "speed", file = "speed_%04d.png", annotate = false })  -- small, under the limit
sim:run()
LUA
prlimit --fsize=40000 "$flowlua" --quiet --backend cpu --output "$out/run" "$out/case.lua" > "$out/log" 2>&1
rc=$?
fail() { echo "FAIL: $*"; cat "$out/log"; ls -la "$out/run"; exit 1; }
[ "$rc" -eq 1 ] || fail "exit $rc (expected 1)"
grep -q "cannot write '.*checkpoint_000020.h5': File too large" "$out/log" || fail "no 'File too large' message"
ls "$out/run" | grep -q '\.tmp\.' && fail "a temporary file was left behind"
[ ! -e "$out/run/checkpoint_000020.h5" ] || fail "half a checkpoint was left"
n=$(ls "$out/run"/speed_*.png | wc -l)
# The checkpoint key's callback was added first, so at step 20 it runs (and fails) before the picture.
[ "$n" -eq 3 ] || fail "$n pictures before the failure (expected 3: steps 5, 10, 15)"
python3 - "$out/run" <<'PY' || fail "a picture written before the failure is not a whole PNG"
import glob, struct, sys, zlib
for f in sorted(glob.glob(sys.argv[1] + "/speed_*.png")):
    b = open(f, "rb").read()
    assert b[:8] == b"\x89PNG\r\n\x1a\n", f
    k, last = 8, None
    while k < len(b):
        n, = struct.unpack(">I", b[k:k + 4]); kind = b[k + 4:k + 8]
        data = b[k + 8:k + 8 + n]; crc, = struct.unpack(">I", b[k + 8 + n:k + 12 + n])
        assert zlib.crc32(kind + data) == crc, f + ": bad CRC"
        last, k = kind, k + 12 + n
    assert last == b"IEND" and k == len(b), f + ": truncated"
PY
echo "PASS: $(grep -o "cannot write.*" "$out/log" | head -n 1); $n whole PNGs kept"
