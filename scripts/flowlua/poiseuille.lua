-- Plane Poiseuille flow: the exact developed profile and a comparison helper.
--   u(y) = 4 U_max y (H - y) / H^2 for a channel of height H (reference README).
local M = {}

function M.exact(y, H, u_max) return 4 * u_max * y * (H - y) / (H * H) end

-- Largest |u - exact| / u_max over the cell centres of the column nearest x.
function M.deviation(sim, x, H, u_max)
  local worst = 0
  for _, p in ipairs(sim:field("u"):line { x = x }) do
    worst = math.max(worst, math.abs(p[3] - M.exact(p[2], H, u_max)) / u_max)
  end
  return worst
end

return M
