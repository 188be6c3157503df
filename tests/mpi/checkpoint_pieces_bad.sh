#!/usr/bin/env bash
# A checkpoint of several ranks whose pieces are missing, truncated, damaged or of
# another checkpoint is refused with a message naming the piece, by every rank, with
# a non-zero exit code and no hang (docs/mpi.md, "Checkpoints"); so is a piece given
# in place of its manifest. Rewriting a checkpoint at the same path leaves only the
# new generation's pieces. Usage: checkpoint_pieces_bad.sh FLOWLUA
set -uo pipefail
flowlua=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
cat >"$work/case.lua" <<'LUA'
local sim = flow.simulation {
  grid = { nx = 32, ny = 16, lx = 2, ly = 1 },
  fluid = { nu = 0.02 },
  boundaries = {
    left = flow.inflow { u = function(s) return 4 * s * (1 - s) end },
    right = flow.outflow(), bottom = flow.wall(), top = flow.wall(),
  },
  time = { steps = 16, cfl = 0.5 },
  pressure = { solver = "cg", tol = 1e-8 },
  checkpoint = { every = 7, keep = 3 },
}
-- The same path written three times: only the last generation's pieces stay.
sim:every(3, function(s) if s.step <= 9 then s:checkpoint("fixed.h5") end end)
sim:run()
LUA
status=0
fail() { echo "checkpoint_pieces_bad: $*" >&2; status=1; }
mpirun --oversubscribe -np 2 "$flowlua" "$work/case.lua" --backend cpu --quiet --output "$work/two" >/dev/null 2>&1 ||
  fail "the 2-rank run that writes the checkpoints failed"
pieces=$(ls "$work/two/fixed.h5.pieces" | wc -l)
if [ "$pieces" -ne 2 ]; then fail "fixed.h5 written three times left $pieces files in its pieces' folder:" \
  "$(ls "$work/two/fixed.h5.pieces")"; else echo "checkpoint_pieces_bad: fixed.h5 rewritten 3 times: its 2 pieces only"; fi

# restart NAME NP EXPECTED_MESSAGE MIN_RANKS_SAYING_IT: runs from a damaged copy of the
# step-7 checkpoint ($work/NAME) and checks the refusal.
restart() {
  local name=$1 np=$2 msg=$3 min=$4 ck=${5:-$work/$1/checkpoint_000007.h5}
  local start end rc
  start=$(date +%s)
  if [ "$np" = 1 ]; then
    timeout 60 "$flowlua" "$work/case.lua" --backend cpu --quiet --output "$work/out-$name-$np" --restart "$ck" \
      >/dev/null 2>"$work/stderr"
  else
    timeout 60 mpirun --oversubscribe -np "$np" "$flowlua" "$work/case.lua" --backend cpu --quiet \
      --output "$work/out-$name-$np" --restart "$ck" >/dev/null 2>"$work/stderr"
  fi
  rc=$?
  end=$(date +%s)
  local said
  said=$(grep -c -- "$msg" "$work/stderr")
  if [ $rc -eq 124 ]; then fail "$name on $np rank(s): hung (stopped by timeout after 60 s)"
  elif [ $rc -eq 0 ]; then fail "$name on $np rank(s): exit code 0"
  elif [ "$said" -lt "$min" ]; then fail "$name on $np rank(s): '$msg' said by $said rank(s), expected $min:" "$(cat "$work/stderr")"
  else echo "checkpoint_pieces_bad: $name on $np rank(s): exit code $rc after $((end - start)) s: $(grep -m1 -- "$msg" "$work/stderr")"
  fi
}
copy() { rm -rf "$work/$1"; cp -r "$work/two" "$work/$1"; }
piece() { ls "$work/$1/checkpoint_$2.h5.pieces/"*_r000"$3".h5; }

copy missing
rm "$(piece missing 000007 1)"
restart missing 2 "is missing" 2
restart missing 1 "is missing" 1

copy truncated
truncate -s -100 "$(piece truncated 000007 0)"
restart truncated 2 "bytes where the manifest says" 2

# The same size, one byte changed: found when the piece is read (its checksum); the
# rank that reads it says why, the other that it failed.
copy damaged
python3 - "$(piece damaged 000007 1)" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[len(b) // 2] ^= 0xFF
open(p, "wb").write(b)
PY
restart damaged 2 "checksum" 1
grep -q "rank 1 of 2 failed" "$work/stderr" || fail "damaged: rank 0 did not say that rank 1 failed: $(cat "$work/stderr")"
restart damaged 1 "checksum" 1

# A piece of the step-14 checkpoint in place of the step-7 one (mixed generations).
copy mixed
cp "$(piece mixed 000014 1)" "$(piece mixed 000007 1)"
restart mixed 2 "of another checkpoint" 1

# A write that fails on the way (each piece over the file-size limit, RLIMIT_FSIZE:
# EFBIG) stops every rank and leaves the checkpoint that was there whole: the same
# manifest, the same pieces, no temporary file.
copy failing
cp -r "$work/failing/fixed.h5.pieces" "$work/pieces-before"
cp "$work/failing/fixed.h5" "$work/manifest-before"
# (The limit goes on the ranks, not on mpirun, whose own files are larger.)
timeout 60 mpirun --oversubscribe -np 2 prlimit --fsize=20000 "$flowlua" "$work/case.lua" --backend cpu --quiet \
  --output "$work/failing" >/dev/null 2>"$work/stderr"
rc=$?
if [ $rc -eq 0 ] || [ $rc -eq 124 ] || ! grep -q "File too large" "$work/stderr"; then
  fail "a piece over the file-size limit: exit code $rc and: $(cat "$work/stderr")"
elif ! cmp -s "$work/failing/fixed.h5" "$work/manifest-before" ||
  ! diff -r "$work/failing/fixed.h5.pieces" "$work/pieces-before" >/dev/null; then
  fail "the failed write changed the checkpoint that was there: $(ls -l "$work/failing/fixed.h5.pieces")"
else
  echo "checkpoint_pieces_bad: a write over the file-size limit: exit code $rc, the old checkpoint whole" \
    "("$(grep -m1 -o "cannot write.*File too large" "$work/stderr")")"
  timeout 60 mpirun --oversubscribe -np 2 "$flowlua" "$work/case.lua" --backend cpu --quiet --output "$work/after" \
    --restart "$work/failing/fixed.h5" >/dev/null 2>"$work/stderr" ||
    fail "the old checkpoint does not restart after the failed write: $(cat "$work/stderr")"
fi
ls "$work/failing/fixed.h5.pieces" | grep -q '\.tmp\.' && fail "a temporary file was left behind"

# A piece given as the checkpoint.
restart piece 2 "restart from its manifest" 2 "$(piece two 000007 0)"
exit $status
