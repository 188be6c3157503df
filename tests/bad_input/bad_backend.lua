-- expect-exit: 2
-- expect-args: --precision quad
-- expect-message: --precision
-- A bad command-line value is a usage error.
print("not reached")
