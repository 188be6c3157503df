-- expect-exit: 1
-- expect-message: error object is a table value
-- error() with a table still gives a message.
error({ code = 42 })
