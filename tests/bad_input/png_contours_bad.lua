-- expect-exit: 1
-- expect-message: png_contours_bad.lua:6:
-- expect-message: contours[2] must be a number
-- A contour level that is not a number.
local sim = flow.simulation { grid = { nx = 8, ny = 8 }, fluid = { nu = 0.1 }, boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } } }
flow.write_png(sim:field("stream"), "s.png", { contours = { 0.1, "x" } })
