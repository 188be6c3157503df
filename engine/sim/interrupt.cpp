#include "sim/interrupt.hpp"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <limits>
#include <cstdio>

namespace flowlua::interrupt {

namespace {
volatile std::sig_atomic_t g_code = 0;  // set by the handler: 128 + signal number
using Clock = std::chrono::steady_clock;
Clock::time_point g_deadline{};
double g_deadline_s = 0;
char g_what[64] = "";

extern "C" void on_signal(int sig) {
  if (g_code != 0) {  // the second one: the user means it
    const char msg[] = "\nflowlua: second signal, stopping at once (no checkpoint)\n";
    (void)!::write(2, msg, sizeof msg - 1);
    ::_exit(128 + sig);
  }
  g_code = 128 + sig;
}
}  // namespace

void install_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;  // blocking I/O goes on; the loop looks at the flag between steps
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

bool past_deadline() { return g_deadline_s > 0 && Clock::now() >= g_deadline; }

double overrun() {
  if (g_deadline_s <= 0) return -std::numeric_limits<double>::infinity();
  return std::chrono::duration<double>(Clock::now() - g_deadline).count();
}

int pending() {
  if (g_code == 0 && past_deadline()) g_code = 4;
  return g_code;
}

const char* what() {
  switch (g_code) {
    case 128 + SIGINT: return "SIGINT";
    case 128 + SIGTERM: return "SIGTERM";
    case 4:
      std::snprintf(g_what, sizeof g_what, "the --timeout of %g s", g_deadline_s);
      return g_what;
    default: return "an interruption";
  }
}

void request(int exit_code) { g_code = exit_code; }
void clear() { g_code = 0; }

void set_deadline(double seconds) {
  g_deadline_s = seconds > 0 ? seconds : 0;
  g_deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}
double deadline_seconds() { return g_deadline_s; }

}  // namespace flowlua::interrupt
