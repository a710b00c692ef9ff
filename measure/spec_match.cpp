// The measured machine beside the vendor's: the preset a CPU model names (findSpecForCpu) and
// the measured figure next to the spec's figure of the same kind (compareWithSpec).
#include "measure/measure.h"

#include "measure/measure_detail.h"

#include <algorithm>
#include <cctype>

namespace ridgepoint {
namespace {

// Per precision the roof the machine draws: the widest ISA's FMA figure (else its mul+add,
// else the fastest). Not simply the fastest: on a busy machine a mul+add trial can beat the
// FMA ones by luck. Sorted by precision.
std::vector<SpecComparison> computeRows(const Measurement &m)
{
    const auto rank = [&](const ComputeSample &s) {
        if (s.simd && s.isa == m.isa)
            return s.fma ? 3 : 2;
        return s.simd ? 1 : 0;
    };
    std::vector<SpecComparison> rows;
    std::vector<int> ranks;
    for (const auto &sample : m.compute) {
        if (sample.threads != m.threads || !(sample.best > 0.0))
            continue;
        const auto row = static_cast<std::size_t>(
            std::find_if(rows.begin(), rows.end(),
                [&](const SpecComparison &r) { return r.precision == sample.precision; })
            - rows.begin());
        if (row == rows.size()) {
            rows.emplace_back();
            rows.back().precision = sample.precision;
            ranks.push_back(-1);
        }
        const int r = rank(sample);
        if (r > ranks[row] || (r == ranks[row] && sample.best > rows[row].measured)) {
            ranks[row] = r;
            rows[row].measured = sample.best;
            rows[row].measuredName = detail::computeCeilingName(sample, m.threads);
        }
    }
    std::stable_sort(rows.begin(), rows.end(),
        [](const SpecComparison &a, const SpecComparison &b) { return a.precision < b.precision; });
    return rows;
}

// Per memory level the all-thread load plateau, L1 first, appended to `rows`.
void addMemoryRows(std::vector<SpecComparison> &rows, const Measurement &m)
{
    std::vector<PlateauRecord> loads;
    for (const auto &p : m.plateaus) {
        if (p.kernel == MemoryKernel::Load && p.threads == m.threads && p.plateau.bandwidth > 0.0)
            loads.push_back(p);
    }
    std::stable_sort(
        loads.begin(), loads.end(), [](const PlateauRecord &a, const PlateauRecord &b) {
            return a.plateau.level < b.plateau.level;
        });
    for (const auto &p : loads) {
        if (!rows.empty() && !rows.back().compute && rows.back().level == p.plateau.level)
            continue; // one row per level (labelPlateaus names each level once)
        SpecComparison row;
        row.compute = false;
        row.level = p.plateau.level;
        row.measuredName = std::string(memoryLevelName(p.plateau.level)) + " load";
        row.measured = p.plateau.bandwidth;
        rows.push_back(row);
    }
}

// Each row's counterpart: the spec's fastest ceiling of the same precision or level.
void addSpecFigures(std::vector<SpecComparison> &rows, const Hardware &spec)
{
    for (auto &row : rows) {
        if (row.compute) {
            for (const auto &c : spec.compute) {
                if (c.precision == row.precision && c.peak > row.spec) {
                    row.spec = c.peak;
                    row.specName = c.name;
                }
            }
        } else {
            for (const auto &c : spec.memory) {
                if (c.level == row.level && c.bandwidth > row.spec) {
                    row.spec = c.bandwidth;
                    row.specName = c.name;
                }
            }
        }
    }
}

std::string lowerCase(std::string text)
{
    for (auto &ch : text)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return text;
}

// Whether `needle` stands in `text` as whole words (no letter or digit on either side).
bool containsWords(const std::string &text, const std::string &needle)
{
    if (needle.empty())
        return false;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
        const auto end = at + needle.size();
        const bool startOk = at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1]));
        const bool endOk
            = end == text.size() || !std::isalnum(static_cast<unsigned char>(text[end]));
        if (startOk && endOk)
            return true;
    }
    return false;
}

} // namespace

std::vector<SpecComparison> compareWithSpec(const Measurement &m)
{
    std::vector<SpecComparison> rows = computeRows(m);
    addMemoryRows(rows, m);
    if (m.spec)
        addSpecFigures(rows, *m.spec);
    return rows;
}

std::optional<Hardware> findSpecForCpu(
    const std::vector<Hardware> &presets, const std::string &cpuModel)
{
    const std::string model = lowerCase(cpuModel);
    for (const auto &preset : presets) {
        if (preset.kind != "cpu")
            continue;
        if (containsWords(model, lowerCase(preset.name)))
            return preset;
        for (const auto &alias : preset.aliases) {
            // Aliases like "Genoa" are too loose alone; they must carry a model number.
            if (std::any_of(alias.begin(), alias.end(),
                    [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); })
                && containsWords(model, lowerCase(alias)))
                return preset;
        }
    }
    return std::nullopt;
}

} // namespace ridgepoint
