// rematlens synth: traces of models nobody recorded, from the generator's presets.
#include "commands.h"
#include "app/requests/request_reporter.h"

#include "core/synth/synth_presets.h"

#include <fstream>
#include <iostream>

namespace rematlens {

int runSynthCommand(const SynthCommandOptions &options)
{
    if (options.list) {
        for (const SynthPreset &preset : synthPresets())
            std::cout << preset.name << "  (--layers " << preset.defaultLayers << " --batch " << preset.defaultBatch
                      << " by default)\n    " << preset.description << "\n";
        return ExitOk;
    }
    if (options.preset.empty())
        return reportError(ExitBadUsage, "synth needs --preset NAME (or --list)");
    std::string error;
    const std::optional<std::string> text =
        synthesizeTrace(SynthOptions{options.preset, options.layers, options.batch, options.seed}, error);
    if (!text)
        return reportError(ExitBadUsage, error);
    if (options.outPath.empty()) {
        std::cout << *text;
        return ExitOk;
    }
    std::ofstream out(options.outPath, std::ios::trunc);
    out << *text;
    out.flush();
    if (!out)
        return reportError(ExitBadInput, "cannot write " + options.outPath);
    return ExitOk;
}

} // namespace rematlens
