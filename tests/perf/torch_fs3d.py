"""The fractional_step model's 3D step (seed 004) written the way a PyTorch user would:
tensor ops with torch.roll for the periodic neighbours and torch.fft for the pressure.
The same step as flowlua's (engine/models/fractional_step/): staggered MAC grid, QUICK
face values upwinded on the two-point advecting velocity, AB2 with R^{n-1} kept,
lap p = div u* / dt solved exactly by the FFT of the periodic 7-point Laplacian,
u = u* - dt grad p. The flow is the 3D Taylor-Green vortex on [0, 2 pi]^3 with
nu = 1/1600 and dt = 0.2 h (what `flowlua --bench --bench-model fractional_step_3d`
times). Prints the median step time (CUDA events, after warm-up) and checks that the
step leaves the velocity divergence free.

Run where torch with CUDA is installed (it is not on the development machine):
    python3 tests/perf/torch_fs3d.py 256 float32
    python3 tests/perf/torch_fs3d.py 128 float64
"""
import math
import sys

import torch

C0, C1, C2 = 0.375, 0.75, -0.125  # QUICK (Leonard 1979): downstream, upstream, far upstream


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 256
    dtype = getattr(torch, sys.argv[2]) if len(sys.argv) > 2 else torch.float32
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    L = 2 * math.pi
    h = L / n
    nu = 1.0 / 1600
    dt = 0.2 * h
    # axes: tensor dim 2 = x (i), dim 1 = y (j), dim 0 = z (k); component a lives on the +a face
    dim = (2, 1, 0)
    c = (torch.arange(n, device=dev, dtype=torch.float64) + 0.5) * h  # cell centres
    f = (torch.arange(n, device=dev, dtype=torch.float64) + 1.0) * h  # faces
    z, y, x = torch.meshgrid(c, c, c, indexing="ij")
    _, _, xf = torch.meshgrid(c, c, f, indexing="ij")
    _, yf, _ = torch.meshgrid(c, f, c, indexing="ij")
    u = (torch.sin(xf) * torch.cos(y) * torch.cos(z)).to(dtype)
    v = (-torch.cos(x) * torch.sin(yf) * torch.cos(z)).to(dtype)
    w = torch.zeros_like(u)
    del x, y, z, xf, yf
    vel = [u, v, w]
    hist = [torch.zeros_like(u) for _ in range(3)]

    # eigenvalues of the periodic 7-point Laplacian for rfftn over (z, y, x)
    k = torch.arange(n, device=dev, dtype=torch.float64)
    lam1 = (2 * torch.cos(2 * math.pi * k / n) - 2) / (h * h)
    lamx = lam1[: n // 2 + 1]
    lam = lam1.view(n, 1, 1) + lam1.view(1, n, 1) + lamx.view(1, 1, -1)
    lam[0, 0, 0] = 1.0
    inv_lam = (1.0 / lam).to(dtype)
    inv_lam[0, 0, 0] = 0.0

    def sh(t, a, s):  # t shifted so that index i reads i + s along axis a (periodic)
        return torch.roll(t, shifts=-s, dims=dim[a])

    def quick(fl, wv, p, e, ee):
        return torch.where(fl >= 0, C0 * e + C1 * p + C2 * wv, C0 * p + C1 * e + C2 * ee)

    def rhs_of(a):
        ua = vel[a]
        r = torch.zeros_like(ua)
        for b in range(3):
            um2, um1, up1, up2 = sh(ua, b, -2), sh(ua, b, -1), sh(ua, b, 1), sh(ua, b, 2)
            if b == a:
                fp, fm = 0.5 * (ua + up1), 0.5 * (um1 + ua)
            else:
                ub = vel[b]
                fp = 0.5 * (ub + sh(ub, a, 1))
                ubm = sh(ub, b, -1)
                fm = 0.5 * (ubm + sh(ubm, a, 1))
            qp = quick(fp, um1, ua, up1, up2)
            qm = quick(fm, um2, um1, ua, up1)
            r -= (fp * qp - fm * qm) / h
            r += nu * (up1 - 2 * ua + um1) / (h * h)
        return r

    first = [True]

    def step():
        wn, wb = (1.0, 0.0) if first[0] else (1.5, 0.5)
        first[0] = False
        star = []
        for a in range(3):
            r = rhs_of(a)
            star.append(vel[a] + dt * (wn * r - wb * hist[a]))
            hist[a] = r
        div = sum((star[b] - sh(star[b], b, -1)) / h for b in range(3))
        p = torch.fft.irfftn(torch.fft.rfftn(div / dt) * inv_lam, s=(n, n, n))
        for a in range(3):
            vel[a] = star[a] - dt * (sh(p, a, 1) - p) / h

    for _ in range(5):
        step()
    if dev == "cuda":
        torch.cuda.synchronize()
    times = []
    for _ in range(30):
        if dev == "cuda":
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            step()
            e.record()
            e.synchronize()
            times.append(s.elapsed_time(e))
        else:
            import time
            t0 = time.perf_counter()
            step()
            times.append(1e3 * (time.perf_counter() - t0))
    times.sort()
    div = sum((vel[b] - sh(vel[b], b, -1)) / h for b in range(3)).abs().max().item()
    ke = 0.5 * sum((t.double() ** 2).sum().item() for t in vel) * h ** 3 / L ** 3
    med = times[len(times) // 2]
    print(f"torch fractional_step 3D step, {str(dtype).replace('torch.', '')}, {n}^3 on {dev}: median {med:.3f} ms "
          f"(min {times[0]:.3f}, max {times[-1]:.3f}; 30 repeats after 5), {n ** 3 / (med * 1e-3):.3e} cell updates/s; "
          f"max |div u| = {div:.2e}, E = {ke:.6f}")
    assert div < (1e-3 if dtype == torch.float32 else 1e-9), "the step did not leave u divergence free"


if __name__ == "__main__":
    main()
