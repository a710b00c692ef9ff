// Session files: no crash, and a session that reads writes back to text that reads the same.
#include "core/session/session.h"
#include "fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto result = ridgepoint::readSessionJson(fuzz::text(data, size), "fuzz.session.json");
    for (const auto &d : result.diagnostics)
        fuzz::require(!d.message.empty());
    if (result.session) {
        const std::string written = ridgepoint::writeSessionJson(*result.session);
        const auto again = ridgepoint::readSessionJson(written, "again");
        fuzz::require(again.session.has_value());
        fuzz::require(ridgepoint::writeSessionJson(*again.session) == written);
    }
    return 0;
}
