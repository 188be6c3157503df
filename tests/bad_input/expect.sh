#!/usr/bin/env bash
# expect.sh FLOWLUA SCRIPT OUTDIR
#
# Runs `FLOWLUA --quiet --backend cpu --output OUTDIR [ARGS] CASE` under `timeout 60` and
# checks what SCRIPT's header comments expect:
#   -- expect-exit: N             the exit code (required)
#   -- expect-message: TEXT       a substring of stdout+stderr (may be repeated: all must appear)
#   -- expect-args: ARGS          extra command-line arguments (split on spaces)
#   -- expect-case: KIND          what to run instead of SCRIPT itself:
#                                   missing       a case file that does not exist
#                                   random-bytes  4 KiB of random binary bytes
#                                   bytecode      a file that starts like a Lua binary chunk
# An exit by a signal (status >= 128) or a timeout always fails.
# Exit status: 0 when every expectation holds, 1 otherwise (with the reason).
set -u

if [ $# -ne 3 ]; then
  echo "usage: expect.sh FLOWLUA SCRIPT OUTDIR" >&2
  exit 2
fi
flowlua=$1
script=$2
outdir=$3

header() { sed -n "s/^-- $1: *//p" "$script"; }

expect_exit=$(header expect-exit | head -n 1)
expect_args=$(header expect-args | head -n 1)
expect_case=$(header expect-case | head -n 1)
if [ -z "$expect_exit" ]; then
  echo "FAIL: $script has no '-- expect-exit: N' line" >&2
  exit 1
fi

rm -rf "$outdir"
mkdir -p "$outdir"
case_file=$script
case "$expect_case" in
  "") ;;
  missing) case_file=$outdir/no_such_case.lua ;;
  random-bytes)
    case_file=$outdir/garbage.lua
    head -c 4096 /dev/urandom > "$case_file" ;;
  bytecode)
    case_file=$outdir/bytecode.lua
    { printf '\033LuaT\000\031\223\r\n\032\n\004\010\010'; head -c 2048 /dev/urandom; } > "$case_file" ;;
  *)
    echo "FAIL: unknown '-- expect-case: $expect_case' in $script" >&2
    exit 1 ;;
esac

# shellcheck disable=SC2086  # the extra arguments are split on purpose
output=$(timeout 60 "$flowlua" --quiet --backend cpu --output "$outdir" $expect_args "$case_file" 2>&1)
status=$?

fail() {
  echo "FAIL: $script: $1" >&2
  echo "---- flowlua output (exit $status) ----" >&2
  printf '%s\n' "$output" >&2
  exit 1
}

if [ "$status" -eq 124 ]; then fail "timed out after 60 s"; fi
if [ "$status" -ge 128 ]; then fail "killed by signal $((status - 128))"; fi
if [ "$status" -ne "$expect_exit" ]; then fail "exit code $status, expected $expect_exit"; fi

while IFS= read -r message; do
  [ -z "$message" ] && continue
  case "$output" in
    *"$message"*) ;;
    *) fail "the output does not contain: $message" ;;
  esac
done < <(header expect-message)

echo "ok: $script (exit $status)"
exit 0
