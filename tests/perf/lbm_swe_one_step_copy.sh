#!/usr/bin/env bash
# The lbm_swe step (its solver template and fused kernel) is compiled in two files
# only: models/lbm_swe/lbm_swe_cpu.cpp (CPU) and lbm_swe_cuda.cu (CUDA). Any other
# object of the engine that instantiates it holds a second copy of the same inline
# functions, which the linker may keep for the whole program: the harness once did
# (engine/bench), and flowlua then ran cases with the harness's copy, whose
# equilibrium was not inlined (docs/performance.md). Fails naming the objects.
#   lbm_swe_one_step_copy.sh path/to/libflowlua_engine.a
set -euo pipefail
lib=$1
command -v nm > /dev/null || { echo "nm (binutils) is needed"; exit 1; }
holders=$(nm -A -C --defined-only "$lib" 2>/dev/null |
  grep -E 'flowlua::lbm_swe::(StreamCollide|LbmSweSolver)<' |
  sed -E 's/^[^:]*:([^:]+):.*/\1/' | sort -u)
echo "objects defining the lbm_swe step:"
echo "$holders" | sed 's/^/  /'
others=$(echo "$holders" | grep -v -E '^(lbm_swe_cpu\.cpp\.o|lbm_swe_cuda\.cu\.o)$' || true)
if ! echo "$holders" | grep -q '^lbm_swe_cpu\.cpp\.o$'; then
  echo "FAIL: lbm_swe_cpu.cpp.o does not define the step (did the symbol names change?)"
  exit 1
fi
if [ -n "$others" ]; then
  echo "FAIL: the step is also instantiated in: $others"
  echo "build the solver through make_lbm_swe_solver (models/lbm_swe/lbm_swe_config.hpp) there instead"
  exit 1
fi
echo "PASS: one copy of the step per backend"
