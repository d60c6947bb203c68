#include "interrupt.h"

#include <csignal>

namespace rematlens {

namespace {
std::atomic<bool> g_interrupted{false};

extern "C" void onInterrupt(int)
{
    g_interrupted.store(true);
}
} // namespace

const std::atomic<bool> &interruptRequested()
{
    return g_interrupted;
}

void watchInterrupts()
{
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
}

} // namespace rematlens
