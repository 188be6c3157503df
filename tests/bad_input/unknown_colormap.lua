-- expect-exit: 1
-- expect-message: unknown_colormap.lua:5: unknown colormap 'virdis'
-- expect-message: viridis
-- A misspelt colour map is reported where flow.png is called.
local shot = flow.png { field = "speed", file = "speed_%04d.png", colormap = "virdis" }
