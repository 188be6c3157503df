-- expect-exit: 1
-- expect-message: attempt to load a binary chunk
-- load() in a case cannot load binary chunks either (even when asked for mode "b").
local f = assert(load(string.dump(function() return 1 end), "dumped", "b"))
