#include "core/io/formats/ert_sum.h"

#include "core/io/formats/adhoc_common.h"
#include "core/io/numbers.h"
#include "core/io/sniff.h"
#include "core/io/text.h"

#include <map>

namespace ridgepoint {
namespace {

// The experiment from the path (Run.018/FLOPS.001/MPI.0001/OpenMP.0001/sum), else the file.
std::string experimentOf(const std::string &fileName)
{
    std::string experiment;
    for (const char *part : { "FLOPS.", "MPI.", "OpenMP." }) {
        const auto at = fileName.find(part);
        if (at == std::string::npos)
            continue;
        const auto end = std::min(fileName.find_first_of("/\\", at), fileName.size());
        experiment += (experiment.empty() ? "" : " ") + fileName.substr(at, end - at);
    }
    return experiment.empty() ? baseName(fileName) : experiment;
}

// Reads the result lines into `hardware`, each ceiling once.
class SumReader
{
public:
    SumReader(const std::string &fileName, HardwareReadResult &result, Hardware &hardware)
        : m_fileName(fileName)
        , m_result(result)
        , m_hardware(hardware)
    { }

    int firstLine = 0;

    void line(const TextLine &line, std::string_view content)
    {
        if (firstLine == 0)
            firstLine = line.number;
        const auto parts = words(content);
        const auto value = parts.size() >= 2 ? plainNumber(parts[0]) : std::nullopt;
        if (!value) {
            diagnose(Severity::Error, line, columnIn(line.text, content),
                "\"" + std::string(content)
                    + "\" is not a result line (expected \"<number> <label>\" such as \"176.44 "
                      "L1\" or \"11.03 GFLOPs\", before META_DATA)");
            return;
        }
        const std::string label(
            content.substr(static_cast<std::size_t>(parts[1].data() - content.data())));
        const int column = columnIn(line.text, parts[1]);
        if (label == "Weight")
            return; // the experiment's working-set weight, not a ceiling
        if (!positiveFinite(*value)) {
            diagnose(Severity::Warning, line, columnIn(line.text, parts[0]),
                "\"" + label + "\" is not positive; left out");
            return;
        }
        if (label.ends_with("GFLOPs"))
            compute(line, column, label, *value);
        else
            memory(line, column, label, *value);
    }

private:
    void diagnose(Severity severity, const TextLine &line, int column, std::string message)
    {
        m_result.diagnostics.push_back(
            { severity, m_fileName, line.number, column, std::move(message) });
    }

    // Whether another line gave the ceiling `name` already (an error naming it).
    bool givenBefore(
        const std::string &name, const std::string &label, const TextLine &line, int column)
    {
        const auto [earlier, added] = m_given.emplace(name, std::pair { line.number, label });
        if (!added)
            diagnose(Severity::Error, line, column,
                "\"" + label + "\" gives the ceiling \"" + name + "\", which line "
                    + std::to_string(earlier->second.first) + " (\"" + earlier->second.second
                    + "\") gives too (expected one result line per precision and memory level)");
        return !added;
    }

    void compute(const TextLine &line, int column, const std::string &label, double value)
    {
        const auto space = label.find(' ');
        const auto precision = space == std::string::npos
            ? std::optional<Precision>(Precision::FP64)
            : precisionFromName(std::string_view(label).substr(0, space));
        if (!precision) {
            diagnose(Severity::Warning, line, column,
                "unknown precision in \"" + label + "\"; left out");
            return;
        }
        const std::string name = asciiUpper(precisionName(*precision)) + " (empirical)";
        if (givenBefore(name, label, line, column))
            return;
        m_hardware.compute.push_back(
            { name, *precision, "", value * kGiga, false, std::nullopt, true });
    }

    void memory(const TextLine &line, int column, const std::string &label, double value)
    {
        const auto level = memoryLevelFromName(label);
        if (!level) {
            diagnose(Severity::Warning, line, column,
                "memory level \"" + label
                    + "\" is not one Ridgepoint knows (L1, L2, L3, DRAM, HBM); left out");
            return;
        }
        if (givenBefore(label + " (empirical)", label, line, column))
            return;
        m_hardware.memory.push_back(
            { label + " (empirical)", *level, value * kGiga, std::nullopt, true });
    }

    const std::string &m_fileName;
    HardwareReadResult &m_result;
    Hardware &m_hardware;
    // Each ceiling's line and label, so that a second line giving it names the first.
    std::map<std::string, std::pair<int, std::string>, std::less<>> m_given;
};

} // namespace

bool looksLikeErtSum(const Sniff &sniff)
{
    const auto &lines = sniff.contentLines();
    if (lines.empty())
        return false;
    const auto first = words(lines.front());
    return first.size() >= 2 && plainNumber(first[0]) && first.back().ends_with("GFLOPs");
}

HardwareReadResult readErtSum(std::string_view text, const std::string &fileName)
{
    HardwareReadResult result;
    Hardware hardware;
    hardware.name = "ERT sum (" + experimentOf(fileName) + ")";
    hardware.source = fileName + ": Empirical Roofline Toolkit sum file (GFLOP/s, GB/s)";
    hardware.notes = "One ERT experiment's results, not the maxima over experiments that "
                     "roofline.json holds.";
    SumReader reader(fileName, result, hardware);
    for (const TextLine &line : linesOf(withoutBom(text))) {
        const std::string_view content = trim(line.text);
        if (content.empty())
            continue;
        if (content == "META_DATA")
            break; // configuration lines follow, not ceilings
        reader.line(line, content);
    }
    if (hasErrors(result.diagnostics))
        return result;
    if (hardware.compute.empty() || hardware.memory.empty()) {
        result.diagnostics.push_back({ Severity::Error, fileName, reader.firstLine, 0,
            std::string("no ") + (hardware.compute.empty() ? "GFLOPs line" : "memory level line")
                + " in this ERT sum file (expected \"<number> GFLOPs\" and \"<number> <level>\" "
                  "lines such as \"18.30 DRAM\")" });
        return result;
    }
    // docs/FORMATS.md §2: a sum file is one (FLOPS, MPI, OpenMP) experiment, not the final maxima.
    result.diagnostics.push_back({ Severity::Warning, fileName, 0, 0,
        "an ERT sum file holds one experiment's results (one FLOPS, MPI and OpenMP setting), "
        "not the maxima over all experiments: the ceilings may be below the machine's (use "
        "Run.NNN/roofline.json for those)" });
    // Every figure of a sum file is ERT's measurement.
    stateBasis(hardware,
        measuredBy(fileName + ": ERT's measured (empirical) figure", "Empirical Roofline Toolkit"));
    keepValidMachine(std::move(hardware), fileName, result, reader.firstLine);
    return result;
}

} // namespace ridgepoint
