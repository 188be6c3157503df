-- expect-exit: 1
-- expect-message: png_bad_pattern.lua:5: file name 'frame_%s%n.png'
-- expect-message: only %d
-- A file pattern never reaches printf: %s, %n and friends are refused.
local shot = flow.png { field = "speed", file = "frame_%s%n.png" }
