// FL_HD marks a function that both backends compile: a plain inline function
// for the CPU (OpenMP) launcher, __host__ __device__ under nvcc.
#pragma once

#if defined(__CUDACC__)
#define FL_HD __host__ __device__ __forceinline__
#else
#define FL_HD inline
#endif
