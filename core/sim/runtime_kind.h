#pragma once

#include <optional>
#include <string_view>

namespace rematlens {

// simrd's runtimes: eager eviction on release (RuntimeV2EagerOptimized, the default), lazy
// (RuntimeV2Optimized) and banishing (RuntimeV1, the DTR paper's first runtime).
enum class RuntimeKind { Eager, Lazy, Banishing };

std::string_view runtimeName(RuntimeKind kind);      // "eager", "lazy", "banishing"
std::string_view simrdRuntimeName(RuntimeKind kind); // simrd's class name
std::optional<RuntimeKind> findRuntime(std::string_view name);

} // namespace rematlens
