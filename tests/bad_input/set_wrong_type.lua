-- expect-exit: 2
-- expect-args: --set n=abc
-- expect-message: --set n=abc: 'n' takes a number (its default is 8)
-- A --set value that does not convert to the default's type.
local n = param("n", 8)
