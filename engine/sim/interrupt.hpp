// Stopping a run cleanly from outside: SIGINT/SIGTERM and a wall-clock deadline
// (--timeout). The signal handler only sets a flag; the run loop checks it between
// steps (RunLoop returns with StopReason::Interrupted), so a step is never cut in half
// and the host can write a checkpoint of a consistent state before it exits.
// A second signal while the first is being handled ends the process at once.
#pragma once

namespace flowlua::interrupt {

// Installs the SIGINT/SIGTERM handlers (main only; tests use request()).
void install_handlers();

// The exit code the pending interruption asks for (130 SIGINT, 143 SIGTERM, 4
// deadline), 0 when none is pending. Checks the deadline too.
int pending();
// What it was, for messages: "SIGINT", "SIGTERM", "the --timeout of 5 s".
const char* what();

// Sets an interruption as the handler would (tests; the deadline).
void request(int exit_code);
void clear();

// A wall-clock deadline in seconds from now (<= 0: none). Past it, pending() says 4.
void set_deadline(double seconds_from_now);
double deadline_seconds();  // as given (0: none)
bool past_deadline();
// Seconds since the deadline passed (negative before it; -inf without one).
double overrun();

}  // namespace flowlua::interrupt
