# Sourced on the GPU machine: unpacks the Open MPI runtime carried in
# build-gpu-pack/mpi-runtime.tar.gz (tests/gpu/pack_mpi_runtime.sh) under /tmp/ompi
# and sets the environment mpirun needs there.
if [ ! -x /tmp/ompi/usr/bin/mpirun ]; then
  mkdir -p /tmp/ompi && tar xzf build-gpu-pack/mpi-runtime.tar.gz -C /tmp/ompi
fi
export OPAL_PREFIX=/tmp/ompi/usr
export PATH=/tmp/ompi/usr/bin:$PATH
export LD_LIBRARY_PATH=/tmp/ompi/usr/lib/x86_64-linux-gnu:/tmp/ompi/usr/lib/x86_64-linux-gnu/openmpi/lib:${LD_LIBRARY_PATH:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# One host: shared memory between the ranks; no network transports to probe.
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_mtl=^ofi,psm,psm2 OMPI_MCA_osc=^ucx
# NVLink multicast stays off (the device's KINDS.md).
export NCCL_NVLS_ENABLE=0
# The machine's own PMIx plugins do not match the carried library: leave compression out.
export PMIX_MCA_pcompress=^zlib PMIX_MCA_pcompress_base_silence_warning=1
