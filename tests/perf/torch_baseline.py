"""What a user who does not pick flowlua writes: red-black SOR with PyTorch tensor
operations (issue 3 quotes 1.9 ms per sweep on 4096^2 on the H100). Times one full
sweep (both colours) on an (n+2)^2 float32 grid with CUDA events: median of many
repeats after warm-up. Run on the GPU machine: python3 tests/perf/torch_baseline.py 4096
"""
import sys

import torch


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    dev = "cuda"
    h = 1.0 / n
    idx2 = idy2 = 1.0 / (h * h)
    diag = 2 * (idx2 + idy2)
    omega = 1.8
    g = torch.Generator(device=dev).manual_seed(1)
    p = torch.rand(n + 2, n + 2, device=dev, generator=g)
    rhs = torch.rand(n + 2, n + 2, device=dev, generator=g)[1:-1, 1:-1].contiguous()
    jj, ii = torch.meshgrid(torch.arange(1, n + 1, device=dev), torch.arange(1, n + 1, device=dev), indexing="ij")
    masks = [((ii + jj) % 2 == c) for c in (0, 1)]

    def sweep():
        for m in masks:
            c = p[1:-1, 1:-1]
            nb = idx2 * (p[1:-1, 2:] + p[1:-1, :-2]) + idy2 * (p[2:, 1:-1] + p[:-2, 1:-1])
            new = (1 - omega) * c + omega * (nb - rhs) / diag
            p[1:-1, 1:-1] = torch.where(m, new, c)

    for _ in range(10):
        sweep()
    torch.cuda.synchronize()
    times = []
    for _ in range(50):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        sweep()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    times.sort()
    print(f"torch red-black SOR sweep, float32, {n}x{n}: median {times[len(times) // 2]:.3f} ms "
          f"(min {times[0]:.3f}, max {times[-1]:.3f}, 50 repeats after 10 warm-up)")


if __name__ == "__main__":
    main()
