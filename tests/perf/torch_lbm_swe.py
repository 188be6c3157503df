"""What a user who does not pick flowlua writes: the same lattice-Boltzmann
shallow-water step as flowlua's flat_open variant (D2Q9, Zhou's equilibrium, BGK,
flat bed, no friction) with PyTorch tensor operations, periodic sides through
torch.roll (flowlua's walls cost it nothing measurable). float32, f as a (9, n, n)
tensor. Times the step with CUDA events (median of repeats after a warm-up) and
prints MLUPS. Run on the GPU machine: python3 tests/perf/torch_lbm_swe.py 4096
"""
import sys

import torch

CX = [0, 1, 0, -1, 0, 1, -1, -1, 1]
CY = [0, 0, 1, 0, -1, 1, 1, -1, -1]


def equilibrium(h, ux, uy, ge2, cx, cy):
    """Zhou (2004) in lattice units: G = g h / e^2, velocities U = u / e."""
    G = ge2 * h
    uu = ux * ux + uy * uy
    cu = cx[:, None, None] * ux + cy[:, None, None] * uy
    w_g = torch.tensor([0, 1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 24, 1 / 24, 1 / 24, 1 / 24], device=h.device)
    w_u = torch.tensor([0, 1 / 3, 1 / 3, 1 / 3, 1 / 3, 1 / 12, 1 / 12, 1 / 12, 1 / 12], device=h.device)
    feq = h * (w_g[:, None, None] * G + w_u[:, None, None] * (cu + 1.5 * cu * cu - 0.5 * uu))
    feq[0] = h * (1 - 5 / 6 * G - 2 / 3 * uu)
    return feq


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    dev = "cuda"
    cx = torch.tensor(CX, device=dev, dtype=torch.float32)
    cy = torch.tensor(CY, device=dev, dtype=torch.float32)
    ge2, omega = 0.04, 1 / 0.55
    x = torch.arange(n, device=dev, dtype=torch.float32)
    h = (1 + 0.01 * torch.sin(6.283 * x / n))[None, :].expand(n, n).contiguous()
    f = equilibrium(h, torch.zeros_like(h), torch.zeros_like(h), ge2, cx, cy)

    def step(f):
        f = torch.stack([torch.roll(f[a], shifts=(CY[a], CX[a]), dims=(0, 1)) for a in range(9)])
        h = f.sum(0)
        ux = (cx[:, None, None] * f).sum(0) / h
        uy = (cy[:, None, None] * f).sum(0) / h
        return f - omega * (f - equilibrium(h, ux, uy, ge2, cx, cy))

    for _ in range(5):
        f = step(f)
    torch.cuda.synchronize()
    times = []
    for _ in range(20):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        f = step(f)
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b) / 1e3)
    times.sort()
    t = times[len(times) // 2]
    print(f"torch lbm_swe step, {n} x {n}, float32: {t * 1e3:.3f} ms a step, {n * n / t / 1e6:.0f} MLUPS "
          f"(volume {float(f.sum()):.6g})")


if __name__ == "__main__":
    main()
