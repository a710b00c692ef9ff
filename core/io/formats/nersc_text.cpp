#include "core/io/formats/nersc_text.h"

#include "core/io/formats/adhoc_common.h"
#include "core/io/numbers.h"
#include "core/io/sniff.h"
#include "core/io/text.h"

#include <map>
#include <tuple>

namespace ridgepoint {
namespace {

const std::vector<std::string_view> kKeys { "memroofs", "mem_roof_names", "comproofs",
    "comp_roof_names", "AI_<level>", "FLOPS", "labels" };

bool isNerscKey(std::string_view key)
{
    return key == "memroofs" || key == "mem_roof_names" || key == "comproofs"
        || key == "comp_roof_names" || key == "FLOPS" || key == "labels" || key.starts_with("AI_");
}

// One value of a key line: its text (a number or a name without its quotes), a view into the
// line, and where it starts there (a quoted name's opening quote).
struct Token {
    std::string_view text;
    std::string_view start;
};

struct NerscEntry {
    int line = 0;
    std::string_view text; // the whole line
    std::vector<Token> values;

    // Worked out only for a message: a long line of many values stays linear to read.
    int column(const Token &token) const { return columnIn(text, token.start); }
    // Where the value after the first `count` starts, or would go (the line's end): the first
    // extra or missing value, for a message on a count.
    int columnAfter(std::size_t count) const
    {
        return count < values.size() ? column(values[count]) : endColumn(text);
    }
};

struct NerscFile {
    std::map<std::string, NerscEntry, std::less<>> entries;
    std::vector<std::string> aiKeys; // AI_ keys in file order
};

// 'a' 'b' or 'a''b' (no blank between): the names, without quotes; bare words are names too.
std::vector<Token> quotedNames(std::string_view line, std::string_view rest,
    const std::string &fileName, int number, std::vector<Diagnostic> &diagnostics)
{
    std::vector<Token> out;
    std::size_t at = 0;
    while (at < rest.size()) {
        const char c = rest[at];
        if (c == ' ' || c == '\t') {
            ++at;
            continue;
        }
        if (c == '\'' || c == '"') {
            const std::size_t close = rest.find(c, at + 1);
            if (close == std::string_view::npos) {
                diagnostics.push_back(
                    { Severity::Error, fileName, number, columnIn(line, rest.substr(at)),
                        std::string("unterminated quoted name (expected a closing ") + c + ")" });
                return out;
            }
            const std::string_view name = rest.substr(at + 1, close - at - 1);
            out.push_back({ name, rest.substr(at) });
            at = close + 1;
            continue;
        }
        const std::size_t end = std::min(rest.find_first_of(" \t'\"", at), rest.size());
        out.push_back({ rest.substr(at, end - at), rest.substr(at) });
        at = end;
    }
    return out;
}

NerscFile parseNersc(
    std::string_view text, const std::string &fileName, std::vector<Diagnostic> &diagnostics)
{
    NerscFile file;
    for (const TextLine &line : linesOf(withoutBom(text))) {
        const std::string_view content = trim(line.text);
        if (content.empty() || content.front() == '#')
            continue;
        const auto split = content.find_first_of(" \t");
        const std::string_view key = content.substr(0, split);
        const std::string_view rest
            = split == std::string_view::npos ? std::string_view() : content.substr(split);
        if (!isNerscKey(key)) {
            diagnostics.push_back({ Severity::Warning, fileName, line.number,
                columnIn(line.text, content), unknownKeyMessage(key, kKeys) });
            continue;
        }
        if (const auto earlier = file.entries.find(key); earlier != file.entries.end()) {
            diagnostics.push_back(
                { Severity::Error, fileName, line.number, columnIn(line.text, content),
                    "key \"" + std::string(key) + "\" repeats line "
                        + std::to_string(earlier->second.line) + " (expected each key once)" });
            continue;
        }
        NerscEntry entry;
        entry.line = line.number;
        entry.text = line.text;
        if (key.ends_with("names") || key == "labels") {
            entry.values = quotedNames(line.text, rest, fileName, line.number, diagnostics);
        } else {
            for (std::string_view word : words(rest))
                entry.values.push_back({ word, word });
        }
        if (key.starts_with("AI_"))
            file.aiKeys.emplace_back(key);
        file.entries.emplace(std::string(key), std::move(entry));
    }
    return file;
}

// The numbers of a key's line; an error at the first that is not a positive finite number.
std::optional<std::vector<double>> positiveNumbers(const NerscEntry &entry, std::string_view key,
    std::string_view unit, const std::string &fileName, std::vector<Diagnostic> &diagnostics)
{
    std::vector<double> out;
    if (entry.values.empty()) {
        diagnostics.push_back({ Severity::Error, fileName, entry.line, entry.columnAfter(0),
            std::string(key) + " has no values (expected one per roof, in " + std::string(unit)
                + ")" });
        return std::nullopt;
    }
    for (const Token &token : entry.values) {
        const auto value = plainNumber(token.text);
        if (!value || !positiveFinite(*value)) {
            diagnostics.push_back({ Severity::Error, fileName, entry.line, entry.column(token),
                std::string(key) + ": \"" + std::string(token.text)
                    + "\" is not a positive number (expected " + std::string(unit) + ")" });
            return std::nullopt;
        }
        out.push_back(*value);
    }
    return out;
}

// --- Ceilings ------------------------------------------------------------------------------------

// The roofs' names, one per value: an error when the counts differ (or mem_roof_names is
// missing, which gives the levels).
bool roofNamesMatch(const NerscFile &file, const NerscEntry &memRoofs, std::size_t memCount,
    std::size_t compCount, const std::string &fileName, HardwareReadResult &result)
{
    const auto memNames = file.entries.find("mem_roof_names");
    if (memNames == file.entries.end()) {
        result.diagnostics.push_back({ Severity::Error, fileName, memRoofs.line, 0,
            "no mem_roof_names line (expected the level of each memroofs value, e.g. "
            "mem_roof_names 'L1' 'L2' 'HBM')" });
        return false;
    }
    for (const auto &[key, values, count] : { std::tuple { "mem_roof_names", "memroofs", memCount },
             std::tuple { "comp_roof_names", "comproofs", compCount } }) {
        const auto names = file.entries.find(key);
        if (names == file.entries.end() || names->second.values.size() == count)
            continue;
        result.diagnostics.push_back({ Severity::Error, fileName, names->second.line,
            names->second.columnAfter(count),
            std::string(key) + " has " + std::to_string(names->second.values.size()) + " names for "
                + std::to_string(count) + " " + values + " values (expected one name per roof)" });
        return false;
    }
    return true;
}

void addRoofs(const NerscFile &file, const std::vector<double> &memValues,
    const std::vector<double> &compValues, Hardware &hardware, const std::string &fileName,
    HardwareReadResult &result)
{
    const auto compNames = file.entries.find("comp_roof_names");
    for (std::size_t i = 0; i < compValues.size(); ++i) {
        const std::string name = compNames != file.entries.end()
            ? std::string(compNames->second.values[i].text)
            : "compute " + std::to_string(i + 1);
        hardware.compute.push_back(
            { name, Precision::FP64, "", compValues[i] * kGiga, false, std::nullopt, true });
    }
    hardware.defaultCompute = hardware.compute.empty() ? "" : hardware.compute.front().name;
    const NerscEntry &memNames = file.entries.find("mem_roof_names")->second;
    for (std::size_t i = 0; i < memValues.size(); ++i) {
        const Token &name = memNames.values[i];
        const auto level = memoryLevelFromName(name.text);
        if (!level) {
            result.diagnostics.push_back({ Severity::Warning, fileName, memNames.line,
                memNames.column(name),
                "memory level \"" + std::string(name.text)
                    + "\" is not one Ridgepoint knows (L1, L2, L3, DRAM, HBM, LDS); left out" });
            continue;
        }
        hardware.memory.push_back(
            { std::string(name.text), *level, memValues[i] * kGiga, std::nullopt, true });
    }
}

// --- Points --------------------------------------------------------------------------------------

// Each AI_ key's level; HBM and DRAM are main memory (nullopt), as ncu's "dram" is.
struct Level {
    const NerscEntry *entry = nullptr;
    std::optional<MemoryLevel> level;
};

std::vector<Level> intensityLevels(
    const NerscFile &file, const std::string &fileName, std::vector<Diagnostic> &diagnostics)
{
    std::vector<Level> levels;
    const NerscEntry *mainMemory = nullptr;
    for (const std::string &key : file.aiKeys) {
        const NerscEntry &entry = file.entries.find(key)->second;
        const auto level = memoryLevelFromName(std::string_view(key).substr(3));
        if (!level) {
            diagnostics.push_back({ Severity::Error, fileName, entry.line, 1,
                "\"" + key
                    + "\": unknown memory level (expected AI_L1, AI_L2, AI_L3, AI_HBM, AI_DRAM "
                      "or AI_LDS)" });
            continue;
        }
        if (isMainMemory(*level)) {
            if (mainMemory) {
                diagnostics.push_back({ Severity::Error, fileName, entry.line, 1,
                    "\"" + key + "\" and the line " + std::to_string(mainMemory->line)
                        + " both give main memory's intensity (expected one of AI_HBM and "
                          "AI_DRAM)" });
                continue;
            }
            mainMemory = &entry;
            levels.push_back({ &entry, std::nullopt });
        } else {
            levels.push_back({ &entry, level });
        }
    }
    return levels;
}

// The FLOPS, labels and AI_ lines must each have one value per kernel.
void checkCounts(const NerscFile &file, const NerscEntry &flops, std::size_t count,
    const std::string &fileName, std::vector<Diagnostic> &diagnostics)
{
    std::vector<std::pair<std::string, const NerscEntry *>> lines { { "FLOPS", &flops } };
    if (const auto labels = file.entries.find("labels"); labels != file.entries.end())
        lines.emplace_back("labels", &labels->second);
    for (const std::string &key : file.aiKeys)
        lines.emplace_back(key, &file.entries.find(key)->second);
    for (const auto &[key, entry] : lines) {
        if (entry->values.size() != count) {
            diagnostics.push_back(
                { Severity::Error, fileName, entry->line, entry->columnAfter(count),
                    key + " has " + std::to_string(entry->values.size()) + " values for "
                        + std::to_string(count) + " FLOPS values (expected one per kernel)" });
        }
    }
}

// Kernel `i`'s point, or nullopt (counted as skipped, its first bad value listed).
std::optional<KernelPoint> kernelPoint(std::size_t i, const NerscFile &file,
    const NerscEntry &flops, const std::vector<Level> &levels, const std::string &fileName,
    PointsReadResult &result)
{
    const auto labels = file.entries.find("labels");
    KernelPoint point;
    point.name
        = labels != file.entries.end() ? std::string(labels->second.values[i].text) : std::string();
    if (point.name.empty())
        point.name = "kernel " + std::to_string(i + 1);
    point.source = { fileName, flops.line };
    // As the file's compute roofs are (readNerscCeilings), so that a machine with faster roofs
    // of other precisions (an H100's BF16 tensor) places them under its FP64 one.
    point.precision = Precision::FP64;
    const auto bad = [&](const NerscEntry &entry, std::string_view key, std::string_view unit) {
        ++result.rowsSkipped;
        // The first ones are listed (with their columns), the rest counted, as the CSV reader
        // does.
        if (result.rowsSkipped > kListedProblems)
            return std::optional<KernelPoint>();
        const Token &token = entry.values[i];
        result.diagnostics.push_back({ Severity::Error, fileName, entry.line, entry.column(token),
            "kernel \"" + point.name + "\": " + std::string(key) + " \"" + std::string(token.text)
                + "\" is not a positive number (expected " + std::string(unit) + ")" });
        return std::optional<KernelPoint>();
    };
    const auto rate = plainNumber(flops.values[i].text);
    if (!rate || !positiveFinite(*rate))
        return bad(flops, "FLOPS", "GFLOP/s");
    point.measuredRate = *rate * kGiga;
    for (std::size_t l = 0; l < levels.size(); ++l) {
        const auto value = plainNumber(levels[l].entry->values[i].text);
        if (!value || !positiveFinite(*value))
            return bad(*levels[l].entry, file.aiKeys[l], "FLOP/B");
        if (levels[l].level)
            point.levelIntensities.push_back({ *levels[l].level, *value });
        else
            point.intensity = *value;
    }
    if (auto problem = pointProblem(point)) {
        result.diagnostics.push_back({ Severity::Error, fileName, flops.line, 0, *problem });
        ++result.rowsSkipped;
        return std::nullopt;
    }
    return point;
}

// The FLOPS line, or an error saying why the file has no kernels.
const NerscEntry *flopsLine(
    const NerscFile &file, const std::string &fileName, std::vector<Diagnostic> &diagnostics)
{
    const auto flops = file.entries.find("FLOPS");
    if (flops == file.entries.end() || file.aiKeys.empty()) {
        const bool roofs = file.entries.contains("memroofs") || file.entries.contains("comproofs");
        diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            roofs ? std::string("this NERSC roofline file has only roofs (memroofs, comproofs): it "
                                "gives ceilings, not points (open it as the machine instead)")
                  : std::string("no kernels (expected a FLOPS line in GFLOP/s and an AI_<level> "
                                "line such as AI_HBM, one value per kernel)") });
        return nullptr;
    }
    if (flops->second.values.empty()) {
        diagnostics.push_back(
            { Severity::Error, fileName, flops->second.line, flops->second.columnAfter(0),
                "FLOPS has no values (expected one GFLOP/s value per kernel)" });
        return nullptr;
    }
    return &flops->second;
}

} // namespace

bool looksLikeNerscText(const Sniff &sniff)
{
    // The reader warns of each other line with its place, so one extra line (a title) is no
    // reason to refuse the file.
    int known = 0;
    int unknown = 0;
    bool roofOrIntensity = false;
    for (const std::string_view line : sniff.contentLines()) {
        if (line.front() == '#')
            continue;
        const std::string_view key = line.substr(0, line.find_first_of(" \t"));
        (isNerscKey(key) ? known : unknown) += 1;
        roofOrIntensity = roofOrIntensity || key == "memroofs" || key == "comproofs"
            || key == "FLOPS" || key.starts_with("AI_");
    }
    return roofOrIntensity && known > unknown;
}

Gives nerscGives(std::string_view text)
{
    bool roofs = false;
    bool kernels = false;
    for (const TextLine &line : linesOf(withoutBom(text))) {
        const std::string_view content = trim(line.text);
        const std::string_view key = content.substr(0, content.find_first_of(" \t"));
        roofs = roofs || key == "memroofs" || key == "comproofs";
        kernels = kernels || key == "FLOPS";
    }
    if (roofs && !kernels)
        return Gives::Machine;
    if (kernels && !roofs)
        return Gives::Points;
    return Gives::Both;
}

HardwareReadResult readNerscCeilings(std::string_view text, const std::string &fileName)
{
    HardwareReadResult result;
    const NerscFile file = parseNersc(text, fileName, result.diagnostics);
    if (hasErrors(result.diagnostics))
        return result;
    const auto memRoofs = file.entries.find("memroofs");
    const auto compRoofs = file.entries.find("comproofs");
    if (memRoofs == file.entries.end() && compRoofs == file.entries.end()) {
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "no roofs in this NERSC roofline file (no memroofs or comproofs line): it gives "
            "points, not ceilings (expected memroofs in GB/s and comproofs in GFLOP/s)" });
        return result;
    }
    for (const auto &[key, unit] :
        { std::pair { "memroofs", "GB/s" }, std::pair { "comproofs", "GFLOP/s" } }) {
        if (file.entries.find(key) == file.entries.end())
            result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
                std::string("no ") + key + " line (expected " + key + " with the ceilings in "
                    + unit + ")" });
    }
    if (hasErrors(result.diagnostics))
        return result;
    const auto memValues
        = positiveNumbers(memRoofs->second, "memroofs", "GB/s", fileName, result.diagnostics);
    const auto compValues
        = positiveNumbers(compRoofs->second, "comproofs", "GFLOP/s", fileName, result.diagnostics);
    if (!memValues || !compValues)
        return result;
    if (!roofNamesMatch(
            file, memRoofs->second, memValues->size(), compValues->size(), fileName, result))
        return result;

    Hardware hardware;
    hardware.name = "NERSC roofline (" + baseName(fileName) + ")";
    hardware.source = fileName + ": NERSC hierarchical roofline text (GFLOP/s, GB/s)";
    hardware.notes = "The file gives no precision: its compute roofs are taken as FP64 (NERSC's "
                     "hierarchical roofline measures double precision).";
    addRoofs(file, *memValues, *compValues, hardware, fileName, result);
    keepValidMachine(std::move(hardware), fileName, result, memRoofs->second.line);
    return result;
}

PointsReadResult readNerscPoints(std::string_view text, const std::string &fileName)
{
    PointsReadResult result;
    const NerscFile file = parseNersc(text, fileName, result.diagnostics);
    if (hasErrors(result.diagnostics))
        return result;
    const NerscEntry *flops = flopsLine(file, fileName, result.diagnostics);
    if (!flops)
        return result;
    const std::size_t count = flops->values.size();
    checkCounts(file, *flops, count, fileName, result.diagnostics);
    const std::vector<Level> levels = intensityLevels(file, fileName, result.diagnostics);
    if (hasErrors(result.diagnostics))
        return result;
    for (std::size_t i = 0; i < count; ++i) {
        ++result.rowsRead;
        if (auto point = kernelPoint(i, file, *flops, levels, fileName, result))
            result.points.push_back(std::move(*point));
    }
    if (result.rowsSkipped > kListedProblems)
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "... and " + std::to_string(result.rowsSkipped - kListedProblems)
                + " more problems not shown" });
    if (!result.points.empty())
        result.diagnostics.push_back({ Severity::Warning, fileName, flops->line, 0,
            "the file gives no precision: its kernels are taken as FP64 (NERSC's hierarchical "
            "roofline measures double precision), as its compute roofs are" });
    return result;
}

} // namespace ridgepoint
