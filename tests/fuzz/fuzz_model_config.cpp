// LLM model configurations (resources/models/*.json and users' own files).
#include "core/workloads/llm.h"
#include "fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto result = ridgepoint::readModelConfigJson(fuzz::text(data, size), "model.json");
    for (const auto &d : result.diagnostics)
        fuzz::require(!d.message.empty());
    return 0;
}
