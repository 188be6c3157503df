-- expect-exit: 1
-- expect-message: syntax_error.lua:6:
-- A Lua syntax error is reported with the file and line.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 }
  fluid = { nu = 0.1 },
}
