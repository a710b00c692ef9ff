#include "core/io/formats/adhoc_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

namespace ridgepoint {
namespace {

constexpr double kGiga = 1e9; // GFLOP/s and GB/s in these files are decimal
constexpr int kListedProblems = 50; // bad values listed one by one, then counted

std::string_view trim(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
}

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char &c : out)
        c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    return out;
}

std::string_view withoutBom(std::string_view text)
{
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    return text;
}

// A plain number ("2085.756683", "1e3", "+4"), the whole text; nullopt otherwise.
std::optional<double> plainNumber(std::string_view text)
{
    text = trim(text);
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    double value = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()
        || !std::isfinite(value))
        return std::nullopt;
    return value;
}

bool positiveFinite(double value)
{
    return std::isfinite(value) && value > 0.0;
}

// The last part of a path, for machines a file does not name.
std::string baseName(const std::string &fileName)
{
    const auto slash = fileName.find_last_of("/\\");
    return slash == std::string::npos ? fileName : fileName.substr(slash + 1);
}

// One line of a text, with where it starts (for columns).
struct TextLine {
    std::string_view text; // without the line end
    int number = 0; // 1-based
};

std::vector<TextLine> linesOf(std::string_view text, std::size_t maxLines = 0)
{
    std::vector<TextLine> out;
    std::size_t start = 0;
    int number = 0;
    while (start < text.size() && (maxLines == 0 || out.size() < maxLines)) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string_view line = text.substr(start, end - start);
        if (line.ends_with('\r'))
            line.remove_suffix(1);
        out.push_back({ line, ++number });
        start = end + 1;
    }
    return out;
}

// 1-based column (code points) of `part`, a view into `line`.
int columnIn(std::string_view line, std::string_view part)
{
    const auto offset = static_cast<std::size_t>(part.data() - line.data());
    int column = 1;
    for (std::size_t i = 0; i < offset && i < line.size(); ++i)
        column += (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80 ? 0 : 1;
    return column;
}

// The column just after a line's last non-blank character: where a missing value would go.
int endColumn(std::string_view line)
{
    const auto last = line.find_last_not_of(" \t\r\n");
    return columnIn(line, line.substr(last == std::string_view::npos ? 0 : last + 1));
}

// Words of a line split at blanks, each a view into the line.
std::vector<std::string_view> words(std::string_view line)
{
    std::vector<std::string_view> out;
    std::size_t at = 0;
    while (at < line.size()) {
        at = line.find_first_not_of(" \t", at);
        if (at == std::string_view::npos)
            break;
        const std::size_t end = std::min(line.find_first_of(" \t", at), line.size());
        out.push_back(line.substr(at, end - at));
        at = end;
    }
    return out;
}

std::vector<std::string> cellsLower(std::string_view line)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= line.size()) {
        const std::size_t end = std::min(line.find(',', start), line.size());
        std::string cell = lower(trim(line.substr(start, end - start)));
        cell.erase(std::remove(cell.begin(), cell.end(), '"'), cell.end());
        out.push_back(std::move(cell));
        start = end + 1;
    }
    return out;
}

bool contains(const std::vector<std::string> &cells, std::string_view cell)
{
    return std::find(cells.begin(), cells.end(), cell) != cells.end();
}

// --- NERSC hierarchical text -------------------------------------------------------------------

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
            diagnostics.push_back(
                { Severity::Warning, fileName, line.number, columnIn(line.text, content),
                    "unknown key \"" + std::string(key)
                        + "\" ignored (expected memroofs, mem_roof_names, comproofs, "
                          "comp_roof_names, AI_<level>, FLOPS or labels)" });
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

// --- CSV helpers ---------------------------------------------------------------------------------

// A cell's number, or an error message naming the column.
std::optional<double> cellNumber(const CsvRow &row, std::size_t index, std::string_view column,
    std::string_view expected, const std::string &fileName, std::vector<Diagnostic> &diagnostics)
{
    const std::string_view cell = trim(row.text(index));
    const auto value = plainNumber(cell);
    if (!value || !positiveFinite(*value)) {
        diagnostics.push_back({ Severity::Error, fileName, row.line, row.column(index),
            "column \"" + std::string(column) + "\": \"" + std::string(cell)
                + "\" is not a positive number (expected " + std::string(expected) + ")" });
        return std::nullopt;
    }
    return value;
}

void finishMachine(
    Hardware hardware, const std::string &fileName, HardwareReadResult &result, int line = 0)
{
    for (const auto &problem : validateHardware(hardware))
        result.diagnostics.push_back({ Severity::Error, fileName, line, 0, problem });
    if (!hasErrors(result.diagnostics))
        result.machines.push_back(std::move(hardware));
}

} // namespace

AdhocShape detectAdhocShape(std::string_view text)
{
    text = withoutBom(text);
    const std::vector<TextLine> lines = linesOf(text.substr(0, 1 << 16), 64);
    std::vector<std::string_view> content; // non-blank lines
    for (const TextLine &line : lines) {
        if (!trim(line.text).empty())
            content.push_back(trim(line.text));
    }
    if (content.empty())
        return AdhocShape::None;

    // ncu-like long CSV: "Host Name" beside Metric Name / Metric Value, and no Metric Unit.
    for (std::string_view line : content) {
        const auto cells = cellsLower(line);
        if (contains(cells, "kernel name") && contains(cells, "host name")
            && contains(cells, "metric name") && contains(cells, "metric value")
            && !contains(cells, "metric unit"))
            return AdhocShape::MetricValues;
    }

    // NERSC: a roof, intensity or FLOPS line, and most lines known keys (comments aside); the
    // reader warns of each other line with its place, so one extra line (a title) is no reason
    // to refuse the file.
    int known = 0;
    int unknown = 0;
    bool roofOrIntensity = false;
    for (std::string_view line : content) {
        if (line.front() == '#')
            continue;
        const std::string_view key = line.substr(0, line.find_first_of(" \t"));
        (isNerscKey(key) ? known : unknown) += 1;
        roofOrIntensity = roofOrIntensity || key == "memroofs" || key == "comproofs"
            || key == "FLOPS" || key.starts_with("AI_");
    }
    if (roofOrIntensity && known > unknown)
        return AdhocShape::NerscHierarchical;

    // ERT sum: "<number> GFLOPs" (or "<number> FP64 GFLOPs") first.
    {
        const auto first = words(content.front());
        if (first.size() >= 2 && plainNumber(first[0]) && first.back().ends_with("GFLOPs"))
            return AdhocShape::ErtSum;
    }

    const auto header = cellsLower(content.front());
    if (contains(header, "peak_flops") && contains(header, "peak_bandwidth"))
        return AdhocShape::ProfilerPeaks;

    std::string compact = lower(content.front());
    compact.erase(std::remove(compact.begin(), compact.end(), ' '), compact.end());
    if (compact.starts_with("#name,intensity"))
        return AdhocShape::Apps;

    // Rows without a header: name,number,number,number (hw_db: the first row decides, so the
    // reader can say what is wrong with a later one) or name,number[,text,number]... (apps,
    // every row alike).
    std::optional<bool> hwDb;
    bool apps = true;
    bool implementations = false;
    bool anyRow = false;
    for (std::string_view line : content) {
        if (line.front() == '#')
            continue;
        anyRow = true;
        std::vector<std::string_view> cells;
        std::size_t start = 0;
        while (start <= line.size()) {
            const std::size_t end = std::min(line.find(',', start), line.size());
            cells.push_back(trim(line.substr(start, end - start)));
            start = end + 1;
        }
        const bool named = !cells[0].empty() && !plainNumber(cells[0]);
        // The price is only a note (the reader takes it as text): empty or "N/A" is fine.
        if (!hwDb)
            hwDb = named && cells.size() == 4 && plainNumber(cells[1]) && plainNumber(cells[2]);
        bool appRow = named && cells.size() >= 2 && cells.size() % 2 == 0 && plainNumber(cells[1]);
        for (std::size_t i = 2; appRow && i + 1 < cells.size(); i += 2)
            appRow = !cells[i].empty() && !plainNumber(cells[i]) && plainNumber(cells[i + 1]);
        apps = apps && appRow;
        implementations = implementations || (appRow && cells.size() >= 4);
    }
    if (anyRow && hwDb.value_or(false))
        return AdhocShape::HwDb;
    if (anyRow && apps && implementations)
        return AdhocShape::Apps;
    return AdhocShape::None;
}

// --- NERSC ---------------------------------------------------------------------------------------

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

    Hardware hardware;
    hardware.name = "NERSC roofline (" + baseName(fileName) + ")";
    hardware.source = fileName + ": NERSC hierarchical roofline text (GFLOP/s, GB/s)";
    hardware.notes = "The file gives no precision: its compute roofs are taken as FP64 (NERSC's "
                     "hierarchical roofline measures double precision).";
    const auto memNames = file.entries.find("mem_roof_names");
    if (memNames == file.entries.end()) {
        result.diagnostics.push_back({ Severity::Error, fileName, memRoofs->second.line, 0,
            "no mem_roof_names line (expected the level of each memroofs value, e.g. "
            "mem_roof_names 'L1' 'L2' 'HBM')" });
        return result;
    }
    if (memNames->second.values.size() != memValues->size()) {
        result.diagnostics.push_back({ Severity::Error, fileName, memNames->second.line,
            memNames->second.columnAfter(memValues->size()),
            "mem_roof_names has " + std::to_string(memNames->second.values.size()) + " names for "
                + std::to_string(memValues->size())
                + " memroofs values (expected one name per roof)" });
        return result;
    }
    const auto compNames = file.entries.find("comp_roof_names");
    if (compNames != file.entries.end() && compNames->second.values.size() != compValues->size()) {
        result.diagnostics.push_back({ Severity::Error, fileName, compNames->second.line,
            compNames->second.columnAfter(compValues->size()),
            "comp_roof_names has " + std::to_string(compNames->second.values.size()) + " names for "
                + std::to_string(compValues->size())
                + " comproofs values (expected one name per roof)" });
        return result;
    }
    for (std::size_t i = 0; i < compValues->size(); ++i) {
        const std::string name = compNames != file.entries.end()
            ? std::string(compNames->second.values[i].text)
            : "compute " + std::to_string(i + 1);
        hardware.compute.push_back(
            { name, Precision::FP64, "", (*compValues)[i] * kGiga, false, std::nullopt, true });
    }
    hardware.defaultCompute = hardware.compute.empty() ? "" : hardware.compute.front().name;
    for (std::size_t i = 0; i < memValues->size(); ++i) {
        const Token &name = memNames->second.values[i];
        const auto level = memoryLevelFromName(name.text);
        if (!level) {
            result.diagnostics.push_back({ Severity::Warning, fileName, memNames->second.line,
                memNames->second.column(name),
                "memory level \"" + std::string(name.text)
                    + "\" is not one Ridgepoint knows (L1, L2, L3, DRAM, HBM, LDS); left out" });
            continue;
        }
        hardware.memory.push_back(
            { std::string(name.text), *level, (*memValues)[i] * kGiga, std::nullopt, true });
    }
    finishMachine(std::move(hardware), fileName, result, memRoofs->second.line);
    return result;
}

PointsReadResult readNerscPoints(std::string_view text, const std::string &fileName)
{
    PointsReadResult result;
    const NerscFile file = parseNersc(text, fileName, result.diagnostics);
    if (hasErrors(result.diagnostics))
        return result;
    const auto flops = file.entries.find("FLOPS");
    if (flops == file.entries.end() || file.aiKeys.empty()) {
        const bool roofs = file.entries.contains("memroofs") || file.entries.contains("comproofs");
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            roofs ? std::string("this NERSC roofline file has only roofs (memroofs, comproofs): it "
                                "gives ceilings, not points (use it as --hardware)")
                  : std::string("no kernels (expected a FLOPS line in GFLOP/s and an AI_<level> "
                                "line such as AI_HBM, one value per kernel)") });
        return result;
    }
    const std::size_t count = flops->second.values.size();
    if (count == 0) {
        result.diagnostics.push_back(
            { Severity::Error, fileName, flops->second.line, flops->second.columnAfter(0),
                "FLOPS has no values (expected one GFLOP/s value per kernel)" });
        return result;
    }
    const auto labels = file.entries.find("labels");
    std::vector<std::pair<std::string, const NerscEntry *>> lines { { "FLOPS", &flops->second } };
    if (labels != file.entries.end())
        lines.emplace_back("labels", &labels->second);
    for (const std::string &key : file.aiKeys)
        lines.emplace_back(key, &file.entries.find(key)->second);
    for (const auto &[key, entry] : lines) {
        if (entry->values.size() != count) {
            result.diagnostics.push_back(
                { Severity::Error, fileName, entry->line, entry->columnAfter(count),
                    key + " has " + std::to_string(entry->values.size()) + " values for "
                        + std::to_string(count) + " FLOPS values (expected one per kernel)" });
        }
    }
    // Each AI_ key's level; HBM and DRAM are main memory, as ncu's "dram" is.
    struct Level {
        const NerscEntry *entry = nullptr;
        std::optional<MemoryLevel> level; // nullopt: main memory
    };
    std::vector<Level> levels;
    const NerscEntry *mainMemory = nullptr;
    for (const std::string &key : file.aiKeys) {
        const NerscEntry &entry = file.entries.find(key)->second;
        const auto level = memoryLevelFromName(std::string_view(key).substr(3));
        if (!level) {
            result.diagnostics.push_back({ Severity::Error, fileName, entry.line, 1,
                "\"" + key
                    + "\": unknown memory level (expected AI_L1, AI_L2, AI_L3, AI_HBM, AI_DRAM "
                      "or AI_LDS)" });
            continue;
        }
        if (isMainMemory(*level)) {
            if (mainMemory) {
                result.diagnostics.push_back({ Severity::Error, fileName, entry.line, 1,
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
    if (hasErrors(result.diagnostics))
        return result;
    for (std::size_t i = 0; i < count; ++i) {
        ++result.rowsRead;
        KernelPoint point;
        point.name = labels != file.entries.end() ? std::string(labels->second.values[i].text)
                                                  : std::string();
        if (point.name.empty())
            point.name = "kernel " + std::to_string(i + 1);
        point.source = { fileName, flops->second.line };
        // As the file's compute roofs are (readNerscCeilings), so that a machine with faster
        // roofs of other precisions (an H100's BF16 tensor) places them under its FP64 one.
        point.precision = Precision::FP64;
        const auto bad = [&](const NerscEntry &entry, std::string_view key, std::string_view unit) {
            ++result.rowsSkipped;
            // The first ones are listed (with their columns), the rest counted, as the CSV
            // reader does.
            if (result.rowsSkipped > kListedProblems)
                return;
            const Token &token = entry.values[i];
            result.diagnostics.push_back(
                { Severity::Error, fileName, entry.line, entry.column(token),
                    "kernel \"" + point.name + "\": " + std::string(key) + " \""
                        + std::string(token.text) + "\" is not a positive number (expected "
                        + std::string(unit) + ")" });
        };
        const auto rate = plainNumber(flops->second.values[i].text);
        if (!rate || !positiveFinite(*rate)) {
            bad(flops->second, "FLOPS", "GFLOP/s");
            continue;
        }
        point.measuredRate = *rate * kGiga;
        bool ok = true;
        for (std::size_t l = 0; l < levels.size() && ok; ++l) {
            const auto value = plainNumber(levels[l].entry->values[i].text);
            if (!value || !positiveFinite(*value)) {
                bad(*levels[l].entry, file.aiKeys[l], "FLOP/B");
                ok = false;
            } else if (levels[l].level) {
                point.levelIntensities.push_back({ *levels[l].level, *value });
            } else {
                point.intensity = *value;
            }
        }
        if (!ok)
            continue;
        if (auto problem = pointProblem(point)) {
            result.diagnostics.push_back(
                { Severity::Error, fileName, flops->second.line, 0, *problem });
            ++result.rowsSkipped;
            continue;
        }
        result.points.push_back(std::move(point));
    }
    if (result.rowsSkipped > kListedProblems)
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "... and " + std::to_string(result.rowsSkipped - kListedProblems)
                + " more problems not shown" });
    if (!result.points.empty())
        result.diagnostics.push_back({ Severity::Warning, fileName, flops->second.line, 0,
            "the file gives no precision: its kernels are taken as FP64 (NERSC's hierarchical "
            "roofline measures double precision), as its compute roofs are" });
    return result;
}

// --- ERT sum -------------------------------------------------------------------------------------

HardwareReadResult readErtSum(std::string_view text, const std::string &fileName)
{
    HardwareReadResult result;
    Hardware hardware;
    // The experiment from the path (Run.018/FLOPS.001/MPI.0001/OpenMP.0001/sum), else the file.
    std::string experiment;
    for (const char *part : { "FLOPS.", "MPI.", "OpenMP." }) {
        const auto at = fileName.find(part);
        if (at == std::string::npos)
            continue;
        const auto end = std::min(fileName.find_first_of("/\\", at), fileName.size());
        experiment += (experiment.empty() ? "" : " ") + fileName.substr(at, end - at);
    }
    hardware.name = "ERT sum (" + (experiment.empty() ? baseName(fileName) : experiment) + ")";
    hardware.source = fileName + ": Empirical Roofline Toolkit sum file (GFLOP/s, GB/s)";
    hardware.notes = "One ERT experiment's results, not the maxima over experiments that "
                     "roofline.json holds.";
    int firstLine = 0;
    // Each ceiling's line and label, so that a second line giving it names the first.
    std::map<std::string, std::pair<int, std::string>, std::less<>> given;
    const auto givenBefore
        = [&](const std::string &name, const std::string &label, const TextLine &line, int column) {
              const auto [earlier, added] = given.emplace(name, std::pair { line.number, label });
              if (!added)
                  result.diagnostics.push_back({ Severity::Error, fileName, line.number, column,
                      "\"" + label + "\" gives the ceiling \"" + name + "\", which line "
                          + std::to_string(earlier->second.first) + " (\"" + earlier->second.second
                          + "\") gives too (expected one result line per precision and memory "
                            "level)" });
              return !added;
          };
    for (const TextLine &line : linesOf(withoutBom(text))) {
        const std::string_view content = trim(line.text);
        if (content.empty())
            continue;
        if (content == "META_DATA")
            break; // configuration lines follow, not ceilings
        if (firstLine == 0)
            firstLine = line.number;
        const auto parts = words(content);
        const auto value = parts.size() >= 2 ? plainNumber(parts[0]) : std::nullopt;
        if (!value) {
            result.diagnostics.push_back(
                { Severity::Error, fileName, line.number, columnIn(line.text, content),
                    "\"" + std::string(content)
                        + "\" is not a result line (expected \"<number> <label>\" such as \"176.44 "
                          "L1\" or \"11.03 GFLOPs\", before META_DATA)" });
            continue;
        }
        const std::string_view labelStart = parts[1];
        const std::string label(
            content.substr(static_cast<std::size_t>(labelStart.data() - content.data())));
        const int column = columnIn(line.text, parts[1]);
        if (label == "Weight")
            continue; // the experiment's working-set weight, not a ceiling
        if (!positiveFinite(*value)) {
            result.diagnostics.push_back({ Severity::Warning, fileName, line.number,
                columnIn(line.text, parts[0]), "\"" + label + "\" is not positive; left out" });
            continue;
        }
        if (label.ends_with("GFLOPs")) {
            const auto space = label.find(' ');
            const auto precision = space == std::string::npos
                ? std::optional<Precision>(Precision::FP64)
                : precisionFromName(std::string_view(label).substr(0, space));
            if (!precision) {
                result.diagnostics.push_back({ Severity::Warning, fileName, line.number, column,
                    "unknown precision in \"" + label + "\"; left out" });
                continue;
            }
            std::string name(precisionName(*precision));
            for (char &c : name)
                c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
            name += " (empirical)";
            if (givenBefore(name, label, line, column))
                continue;
            hardware.compute.push_back(
                { name, *precision, "", *value * kGiga, false, std::nullopt, true });
            continue;
        }
        const auto level = memoryLevelFromName(label);
        if (!level) {
            result.diagnostics.push_back({ Severity::Warning, fileName, line.number, column,
                "memory level \"" + label
                    + "\" is not one Ridgepoint knows (L1, L2, L3, DRAM, HBM); left out" });
            continue;
        }
        if (givenBefore(label + " (empirical)", label, line, column))
            continue;
        hardware.memory.push_back(
            { label + " (empirical)", *level, *value * kGiga, std::nullopt, true });
    }
    if (hasErrors(result.diagnostics))
        return result;
    if (hardware.compute.empty() || hardware.memory.empty()) {
        result.diagnostics.push_back({ Severity::Error, fileName, firstLine, 0,
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
    finishMachine(std::move(hardware), fileName, result, firstLine);
    return result;
}

// --- GPU-Roofline-Profiler peaks.csv -------------------------------------------------------------

HardwareReadResult readProfilerPeaks(std::string_view text, const std::string &fileName)
{
    HardwareReadResult result;
    CsvTable table = tokenizeCsv(text, fileName, ',');
    result.diagnostics = table.diagnostics;
    if (hasErrors(result.diagnostics))
        return result;
    if (table.rows.empty()) {
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "the file is empty (expected label,peak_flops,peak_bandwidth)" });
        return result;
    }
    const CsvRow &header = table.rows.front();
    std::optional<std::size_t> label;
    std::optional<std::size_t> flops;
    std::optional<std::size_t> bandwidth;
    for (std::size_t i = 0; i < header.fields.size(); ++i) {
        const std::string name = lower(trim(header.text(i)));
        if (name == "label")
            label = i;
        else if (name == "peak_flops")
            flops = i;
        else if (name == "peak_bandwidth")
            bandwidth = i;
    }
    if (!label || !flops || !bandwidth) {
        result.diagnostics.push_back({ Severity::Error, fileName, header.line, 0,
            "expected the header label,peak_flops,peak_bandwidth" });
        return result;
    }
    Hardware hardware;
    hardware.name = "GPU-Roofline-Profiler peaks (" + baseName(fileName) + ")";
    hardware.source = fileName + ": GPU-Roofline-Profiler peaks.csv (FLOP/s, B/s)";
    hardware.notes = "The file gives no precision: its FLOP/s are taken as FP32 "
                     "(GPU-Roofline-Profiler's kernels are single precision). The first row's "
                     "roofs are the ones used.";
    for (std::size_t r = 1; r < table.rows.size(); ++r) {
        const CsvRow &row = table.rows[r];
        const std::string name(trim(row.text(*label)));
        if (name.empty()) {
            result.diagnostics.push_back({ Severity::Error, fileName, row.line, row.column(*label),
                "empty label (expected a name such as measured)" });
            continue;
        }
        const auto peak
            = cellNumber(row, *flops, "peak_flops", "FLOP/s", fileName, result.diagnostics);
        const auto bytes
            = cellNumber(row, *bandwidth, "peak_bandwidth", "B/s", fileName, result.diagnostics);
        if (!peak || !bytes)
            continue;
        hardware.compute.push_back(
            { "FP32 (" + name + ")", Precision::FP32, "", *peak, false, std::nullopt, true });
        hardware.memory.push_back(
            { "DRAM (" + name + ")", MemoryLevel::DRAM, *bytes, std::nullopt, true });
    }
    if (hasErrors(result.diagnostics))
        return result;
    if (hardware.compute.empty()) {
        result.diagnostics.push_back({ Severity::Error, fileName, header.line, 0,
            "no rows after the header (expected label,peak_flops,peak_bandwidth rows)" });
        return result;
    }
    // The first row's pair, not whichever row's FLOP/s is highest (a measured peak can be above
    // the theoretical one at boost clocks).
    hardware.defaultCompute = hardware.compute.front().name;
    finishMachine(std::move(hardware), fileName, result, header.line);
    return result;
}

// --- mohamed/roofline hw_db.csv and apps.csv -----------------------------------------------------

HardwareReadResult readHwDb(std::string_view text, const std::string &fileName)
{
    HardwareReadResult result;
    CsvTable table = tokenizeCsv(text, fileName, ',');
    result.diagnostics = table.diagnostics;
    if (hasErrors(result.diagnostics))
        return result;
    const std::vector<TextLine> lines = linesOf(withoutBom(text));
    for (const CsvRow &row : table.rows) {
        if (row.fields.size() != 4) {
            // Where the first extra field starts, or just after the row's end (where the missing
            // ones would go); no column when a quoted field takes the row over another line.
            int line = row.line;
            int column = 0;
            if (row.fields.size() > 4) {
                line = row.fields[4].line;
                column = row.fields[4].column;
            } else if (!row.fields.empty()) {
                const CsvField &last = row.fields.back();
                const auto at = static_cast<std::size_t>(last.line - 1);
                if (last.line == row.line && last.text.find('\n') == std::string::npos
                    && at < lines.size())
                    column = endColumn(lines[at].text);
            }
            result.diagnostics.push_back({ Severity::Error, fileName, line, column,
                "expected 4 fields (name, peak GFLOP/s, peak GB/s, price), found "
                    + std::to_string(row.fields.size()) });
            continue;
        }
        const std::string name(trim(row.text(0)));
        const auto peak
            = cellNumber(row, 1, "peak GFLOP/s", "GFLOP/s", fileName, result.diagnostics);
        const auto bandwidth
            = cellNumber(row, 2, "peak GB/s", "GB/s", fileName, result.diagnostics);
        if (!peak || !bandwidth)
            continue;
        Hardware hardware;
        hardware.name = name;
        hardware.source = fileName + ":" + std::to_string(row.line)
            + ": mohamed/roofline hw_db.csv (GFLOP/s, GB/s)";
        hardware.notes = "The file gives no precision: the peak is taken as FP32.";
        const std::string_view price = trim(row.text(3));
        if (!price.empty())
            hardware.notes += " Price in the file: " + std::string(price) + ".";
        hardware.compute.push_back(
            { "FP32 peak", Precision::FP32, "", *peak * kGiga, false, std::nullopt, true });
        hardware.memory.push_back(
            { "DRAM peak", MemoryLevel::DRAM, *bandwidth * kGiga, std::nullopt, true });
        const auto problems = validateHardware(hardware);
        for (const auto &problem : problems)
            result.diagnostics.push_back(
                { Severity::Error, fileName, row.line, row.column(0), problem });
        // One row's machine does not depend on another's: the usable rows are kept, and the
        // errors say which were left out (as rocprof-compute's roofline.csv, one GPU per row).
        if (problems.empty())
            result.machines.push_back(std::move(hardware));
    }
    if (result.machines.empty() && !hasErrors(result.diagnostics))
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "no machines (expected rows of name, peak GFLOP/s, peak GB/s, price)" });
    return result;
}

PointsReadResult readAppsCsv(std::string_view text, const std::string &fileName)
{
    PointsReadResult result;
    CsvTable table = tokenizeCsv(text, fileName, ',');
    result.diagnostics = table.diagnostics;
    if (hasErrors(result.diagnostics))
        return result;
    std::vector<std::string> withoutImplementations;
    int firstWithout = 0;
    for (const CsvRow &row : table.rows) {
        ++result.rowsRead;
        const std::string app(trim(row.text(0)));
        const auto fail = [&](int column, std::string message) {
            result.diagnostics.push_back(
                { Severity::Error, fileName, row.line, column, std::move(message) });
            ++result.rowsSkipped;
        };
        if (app.empty()) {
            fail(row.column(0), "empty name (expected the application's name)");
            continue;
        }
        if (row.fields.size() < 2 || row.fields.size() % 2 != 0) {
            fail(row.fields.size() < 2 ? 0 : row.column(row.fields.size() - 1),
                "expected a name, an intensity, then pairs of implementation name and "
                "performance (GFLOP/s), found "
                    + std::to_string(row.fields.size()) + " fields");
            continue;
        }
        std::vector<Diagnostic> cellErrors;
        const auto intensity = cellNumber(row, 1, "intensity", "FLOP/B", fileName, cellErrors);
        if (!intensity) {
            result.diagnostics.insert(
                result.diagnostics.end(), cellErrors.begin(), cellErrors.end());
            ++result.rowsSkipped;
            continue;
        }
        if (row.fields.size() == 2) {
            if (withoutImplementations.empty())
                firstWithout = row.line;
            withoutImplementations.push_back(app);
            continue;
        }
        std::vector<KernelPoint> points;
        for (std::size_t i = 2; i + 1 < row.fields.size(); i += 2) {
            const std::string implementation(trim(row.text(i)));
            if (implementation.empty()) {
                cellErrors.push_back({ Severity::Error, fileName, row.line, row.column(i),
                    "empty implementation name (expected a name before each performance)" });
                break;
            }
            const auto rate
                = cellNumber(row, i + 1, "performance", "GFLOP/s", fileName, cellErrors);
            if (!rate)
                break;
            KernelPoint point;
            point.name = app + " (" + implementation + ")";
            point.group = app;
            point.intensity = *intensity;
            point.measuredRate = *rate * kGiga;
            point.source = { fileName, row.line };
            if (auto problem = pointProblem(point)) {
                cellErrors.push_back({ Severity::Error, fileName, row.line, 0, *problem });
                break;
            }
            points.push_back(std::move(point));
        }
        if (!cellErrors.empty()) {
            result.diagnostics.insert(
                result.diagnostics.end(), cellErrors.begin(), cellErrors.end());
            ++result.rowsSkipped;
            continue;
        }
        for (auto &point : points)
            result.points.push_back(std::move(point));
    }
    if (!withoutImplementations.empty()) {
        std::string names;
        for (const auto &name : withoutImplementations)
            names += (names.empty() ? "\"" : ", \"") + name + "\"";
        result.diagnostics.push_back({ Severity::Warning, fileName, firstWithout, 0,
            std::to_string(withoutImplementations.size())
                + (withoutImplementations.size() == 1 ? " application has" : " applications have")
                + " an intensity but no implementation's performance, so nothing to place: "
                + names });
    }
    if (result.rowsRead == 0)
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "no applications (expected rows of name, intensity, implementation, GFLOP/s, ...)" });
    return result;
}

// --- Metric Name / Metric Value CSV (Techercise) -------------------------------------------------

PointsReadResult readMetricValuesCsv(std::string_view text, const std::string &fileName)
{
    PointsReadResult result;
    CsvTable table = tokenizeCsv(text, fileName, ',');
    result.diagnostics = table.diagnostics;
    if (hasErrors(result.diagnostics))
        return result;
    // The header is the row naming Host Name (the plotting script looks for it too); lines
    // before it are the program's own output.
    std::size_t headerIndex = table.rows.size();
    std::optional<std::size_t> id;
    std::optional<std::size_t> kernel;
    std::optional<std::size_t> metric;
    std::optional<std::size_t> value;
    for (std::size_t r = 0; r < table.rows.size() && headerIndex == table.rows.size(); ++r) {
        const CsvRow &row = table.rows[r];
        bool host = false;
        for (std::size_t i = 0; i < row.fields.size(); ++i) {
            const std::string name = lower(trim(row.text(i)));
            host = host || name == "host name";
            if (name == "id")
                id = i;
            else if (name == "kernel name")
                kernel = i;
            else if (name == "metric name")
                metric = i;
            else if (name == "metric value")
                value = i;
        }
        if (host && kernel && metric && value)
            headerIndex = r;
        else
            id = kernel = metric = value = std::nullopt;
    }
    if (headerIndex == table.rows.size()) {
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "no header row (expected ID,Kernel Name,Host Name,Metric Name,Metric Value)" });
        return result;
    }
    struct Launch {
        std::string kernel;
        int line = 0;
        std::optional<double> rate;
        std::optional<double> intensity;
        std::string error;
        int errorLine = 0;
        int errorColumn = 0;
    };
    std::vector<std::string> order;
    std::map<std::string, Launch> launches;
    std::vector<std::string> unknownMetrics;
    for (std::size_t r = headerIndex + 1; r < table.rows.size(); ++r) {
        const CsvRow &row = table.rows[r];
        const std::string key
            = id ? std::string(trim(row.text(*id))) : std::string(trim(row.text(*kernel)));
        auto [it, added] = launches.emplace(key, Launch {});
        Launch &launch = it->second;
        if (added) {
            order.push_back(key);
            launch.kernel = std::string(trim(row.text(*kernel)));
            launch.line = row.line;
        }
        const std::string name(trim(row.text(*metric)));
        const bool isRate = name == "FLOPS";
        const bool isIntensity = name == "AI";
        if (!isRate && !isIntensity) {
            if (name != "Ranks" && name != "API"
                && std::find(unknownMetrics.begin(), unknownMetrics.end(), name)
                    == unknownMetrics.end())
                unknownMetrics.push_back(name);
            continue;
        }
        const std::string_view cell = trim(row.text(*value));
        const auto number = plainNumber(cell);
        if (!number || !positiveFinite(*number)) {
            if (launch.error.empty()) {
                launch.error = "metric \"" + name + "\": \"" + std::string(cell)
                    + "\" is not a positive number (expected " + (isRate ? "FLOP/s" : "FLOP/B")
                    + ")";
                launch.errorLine = row.line;
                launch.errorColumn = row.column(*value);
            }
            continue;
        }
        (isRate ? launch.rate : launch.intensity) = *number;
    }
    std::map<std::string, int> perKernel;
    for (const auto &key : order)
        ++perKernel[launches[key].kernel];
    for (const auto &key : order) {
        ++result.rowsRead;
        Launch &launch = launches[key];
        if (launch.error.empty() && (!launch.rate || !launch.intensity)) {
            launch.error = "ID " + key + ": no " + (!launch.rate ? "FLOPS" : "AI")
                + " metric (expected FLOPS in FLOP/s and AI in FLOP/B for each ID)";
            launch.errorLine = launch.line;
        }
        KernelPoint point;
        point.name = launch.kernel;
        if (id && perKernel[launch.kernel] > 1)
            point.name += " (ID " + key + ")";
        point.measuredRate = launch.rate;
        point.intensity = launch.intensity;
        point.source = { fileName, launch.line };
        if (launch.error.empty()) {
            if (auto problem = pointProblem(point)) {
                launch.error = *problem;
                launch.errorLine = launch.line;
            }
        }
        if (!launch.error.empty()) {
            result.diagnostics.push_back(
                { Severity::Error, fileName, launch.errorLine, launch.errorColumn, launch.error });
            ++result.rowsSkipped;
            continue;
        }
        result.points.push_back(std::move(point));
    }
    if (!unknownMetrics.empty()) {
        std::string names;
        for (const auto &name : unknownMetrics)
            names += (names.empty() ? "\"" : ", \"") + name + "\"";
        result.diagnostics.push_back({ Severity::Warning, fileName, table.rows[headerIndex].line, 0,
            "metrics not used: " + names });
    }
    if (result.rowsRead == 0)
        result.diagnostics.push_back({ Severity::Error, fileName, table.rows[headerIndex].line, 0,
            "the header has no data rows after it" });
    return result;
}

} // namespace ridgepoint
