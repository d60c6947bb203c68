#pragma once

#include <atomic>

namespace rematlens {

// Turns true on SIGINT or SIGTERM once watchInterrupts() ran: long commands stop starting new
// runs, keep what finished, and exit.
const std::atomic<bool> &interruptRequested();
void watchInterrupts();

} // namespace rematlens
