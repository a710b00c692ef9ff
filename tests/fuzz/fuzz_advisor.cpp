// Intel Advisor: roofs CSV (ceilings) and survey CSV (points).
#include "core/io/formats/advisor_reader.h"
#include "fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto text = fuzz::text(data, size);
    fuzz::checkMachines(ridgepoint::readAdvisorRoofs(text, "roofs.csv"));
    fuzz::checkPoints(ridgepoint::readAdvisorSurvey(text, "survey.csv"));
    return 0;
}
