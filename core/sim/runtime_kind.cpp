#include "runtime_kind.h"

namespace rematlens {

std::string_view runtimeName(RuntimeKind kind)
{
    switch (kind) {
    case RuntimeKind::Eager: return "eager";
    case RuntimeKind::Lazy: return "lazy";
    case RuntimeKind::Banishing: return "banishing";
    }
    return "eager";
}

std::string_view simrdRuntimeName(RuntimeKind kind)
{
    switch (kind) {
    case RuntimeKind::Eager: return "RuntimeV2EagerOptimized";
    case RuntimeKind::Lazy: return "RuntimeV2Optimized";
    case RuntimeKind::Banishing: return "RuntimeV1";
    }
    return "RuntimeV2EagerOptimized";
}

std::optional<RuntimeKind> findRuntime(std::string_view name)
{
    for (RuntimeKind kind : {RuntimeKind::Eager, RuntimeKind::Lazy, RuntimeKind::Banishing})
        if (name == runtimeName(kind) || name == simrdRuntimeName(kind))
            return kind;
    return std::nullopt;
}

} // namespace rematlens
