#include "core/io/formats/advisor_reader.h"

#include "core/io/formats/csv.h"
#include "core/io/sniff.h"
#include "core/io/text.h"

#include <algorithm>
#include <map>

namespace ridgepoint {
namespace {

bool contains(const std::string &text, std::string_view word)
{
    return text.find(word) != std::string::npos;
}

} // namespace

namespace {

// Words of a roof name, lower case: "DP Vector FMA Peak" -> dp, vector, fma, peak.
std::vector<std::string> wordsOf(const std::string &lowered)
{
    std::vector<std::string> words;
    std::string word;
    for (char c : lowered) {
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            word.push_back(c);
        } else if (!word.empty()) {
            words.push_back(word);
            word.clear();
        }
    }
    if (!word.empty())
        words.push_back(word);
    return words;
}

// The memory level a roof's name starts with; GPU roofs (docs/FORMATS.md §3.2, Intel's GPU Roofline
// guide) are L3, SLM (shared local memory: the LDS level) and GTI (the GPU's interface to the
// rest of the chip and its memory: main memory).
std::optional<MemoryLevel> levelOfRoof(const std::string &lowered)
{
    static const std::pair<std::string_view, MemoryLevel> kLevels[] = {
        { "l1", MemoryLevel::L1 },
        { "l2", MemoryLevel::L2 },
        { "l3", MemoryLevel::L3 },
        { "dram", MemoryLevel::DRAM },
        { "hbm", MemoryLevel::HBM },
        { "mcdram", MemoryLevel::HBM },
        { "slm", MemoryLevel::LDS },
        { "shared local memory", MemoryLevel::LDS },
        { "gti", MemoryLevel::DRAM },
    };
    for (const auto &[word, level] : kLevels) {
        if (lowered.starts_with(word))
            return level;
    }
    return std::nullopt;
}

// The precision a compute roof's name gives: "DP …" fp64, "SP …" fp32, "HP …"/"FP16 …" fp16,
// "BF16 …", "TF32 …", "INT8 …"; none at all (CPU "Scalar Add Peak") is fp64. Other integer
// roofs (Int32, Int64) measure integer operations, which no Ridgepoint point counts: nullopt.
std::optional<Precision> precisionOfRoof(const std::string &lowered, bool &integer)
{
    integer = false;
    for (const std::string &word : wordsOf(lowered)) {
        if (word == "dp" || word == "fp64" || word == "double")
            return Precision::FP64;
        if (word == "sp" || word == "fp32" || word == "float" || word == "single")
            return Precision::FP32;
        if (word == "hp" || word == "fp16" || word == "half")
            return Precision::FP16;
        if (word == "bf16")
            return Precision::BF16;
        if (word == "tf32")
            return Precision::TF32;
        if (word == "fp8")
            return Precision::FP8;
        if (word == "int8" || word == "i8")
            return Precision::INT8;
        if (word == "int4" || word == "i4")
            return Precision::INT4;
        if (word.starts_with("int")) {
            integer = true;
            return std::nullopt;
        }
    }
    return Precision::FP64;
}

} // namespace

bool looksLikeAdvisorSurvey(const Sniff &sniff)
{
    return sniff.mentions("Function Call Sites and Loops");
}

bool looksLikeAdvisorRoofs(const Sniff &sniff)
{
    for (const TextLine &line : linesOf(sniff.head(), 5)) {
        std::string lowered = asciiLower(line.text);
        lowered.erase(std::remove(lowered.begin(), lowered.end(), '"'), lowered.end());
        if (lowered.starts_with("name,bandwidth"))
            return true;
    }
    return false;
}

namespace {

// The roofs report's header (within its first rows): column name (lower case) -> index.
std::optional<std::pair<std::size_t, std::map<std::string, std::size_t>>> roofsHeader(
    const CsvTable &table)
{
    for (std::size_t r = 0; r < table.rows.size() && r < 10; ++r) {
        std::map<std::string, std::size_t> candidate;
        for (std::size_t i = 0; i < table.rows[r].fields.size(); ++i)
            candidate.emplace(asciiLower(table.rows[r].fields[i].text), i);
        if (candidate.contains("name") && candidate.contains("bandwidth"))
            return std::pair { r, std::move(candidate) };
    }
    return std::nullopt;
}

// One roof row into its machine: a memory roof by level, a compute roof by precision; the
// "(single-threaded)" and "(single node)" variants kept but hidden.
void addRoof(const std::string &name, const std::string &type, double value, int line,
    Hardware &hardware, const std::string &fileName, std::vector<Diagnostic> &diagnostics)
{
    const std::string lowered = asciiLower(name);
    const bool hidden = contains(lowered, "single-threaded") || contains(lowered, "single node");
    if (type == "memory" || contains(lowered, "bandwidth")) {
        const auto level = levelOfRoof(lowered);
        if (!level) {
            diagnostics.push_back({ Severity::Warning, fileName, line, 0,
                "roof \"" + name + "\": no memory level Ridgepoint knows; left out" });
            return;
        }
        hardware.memory.push_back({ name, *level, value, std::nullopt, !hidden });
        return;
    }
    bool integer = false;
    const auto precision = precisionOfRoof(lowered, integer);
    if (!precision) {
        diagnostics.push_back({ Severity::Warning, fileName, line, 0,
            "roof \"" + name + "\": integer roofs are left out (the FLOP roofs are used)" });
        return;
    }
    const std::string unit
        = contains(lowered, "xmx") || contains(lowered, "amx") || contains(lowered, "matrix")
        ? "matrix"
        : contains(lowered, "vector") ? "vector"
                                      : "scalar";
    hardware.compute.push_back({ name, *precision, unit, value, false, std::nullopt, !hidden });
}

} // namespace

HardwareReadResult readAdvisorRoofs(std::string_view text, const std::string &fileName)
{
    HardwareReadResult result;
    CsvTable table = tokenizeCsv(text, fileName);
    result.diagnostics = table.diagnostics;
    auto header = roofsHeader(table);
    if (!header) {
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "not an Intel Advisor roofs CSV (expected a header with \"Name\" and \"Bandwidth\" "
            "columns)" });
        return result;
    }
    // Not a structured binding: clang 14 (the fuzz preset) cannot capture one in a lambda.
    const std::size_t headerIndex = header->first;
    const std::map<std::string, std::size_t> &columns = header->second;
    const auto at = [&](const CsvRow &row, const char *name) -> std::string {
        auto it = columns.find(name);
        return it != columns.end() ? row.text(it->second) : std::string();
    };
    // One machine per Device (CPU, GPU): a report of both is two machines, in file order.
    std::vector<Hardware> machines;
    std::map<std::string, std::size_t> byDevice;
    const auto machineFor = [&](const std::string &device) -> Hardware & {
        auto [it, added] = byDevice.emplace(asciiLower(device), machines.size());
        if (added) {
            Hardware hardware;
            hardware.name = device.empty() ? std::string("Intel Advisor roofs")
                                           : "Intel Advisor roofs (" + device + ")";
            hardware.vendor = "Intel";
            hardware.kind = asciiLower(device);
            hardware.source = fileName + ": advisor --report=roofs (bytes/s, FLOP/s)";
            machines.push_back(std::move(hardware));
        }
        return machines[it->second];
    };
    for (std::size_t r = headerIndex + 1; r < table.rows.size(); ++r) {
        const CsvRow &row = table.rows[r];
        const std::string name = at(row, "name");
        Hardware &hardware = machineFor(at(row, "device"));
        auto number = parseReportNumber(at(row, "bandwidth"));
        if (!number || !*number || !(**number > 0.0)) {
            result.diagnostics.push_back(
                { Severity::Error, fileName, row.line, row.column(columns.at("bandwidth")),
                    "roof \"" + name + "\": "
                        + (number ? std::string("expected a positive value in bytes/s or FLOP/s")
                                  : number.error()) });
            continue;
        }
        addRoof(name, asciiLower(at(row, "type")), **number, row.line, hardware, fileName,
            result.diagnostics);
    }
    if (hasErrors(result.diagnostics))
        return result;
    for (auto &hardware : machines) {
        // Advisor's roofs are what its short benchmark loops measured on the machine.
        stateBasis(hardware, measuredBy(hardware.source, "Intel Advisor (roofs benchmarks)"));
        const auto problems = validateHardware(hardware);
        for (const auto &problem : problems)
            result.diagnostics.push_back({ Severity::Error, fileName, 0, 0, problem });
        if (problems.empty())
            result.machines.push_back(std::move(hardware));
    }
    if (machines.empty()) {
        result.diagnostics.push_back({ Severity::Error, fileName, table.rows[headerIndex].line, 0,
            "no roofs after the header (expected rows of Name,Bandwidth,Type,Device)" });
    }
    return result;
}

namespace {

// The survey's delimiter (`--csv-delimiter`): the character after the header's first cell
// ("ID"), else the Excel hint "sep=X" on the first line; comma when neither says.
char surveyDelimiter(std::string_view text)
{
    for (const std::string_view id : { std::string_view("\"ID\""), std::string_view("\nID") }) {
        const auto at = text.find(id);
        if (at == std::string_view::npos || at + id.size() >= text.size())
            continue;
        const char next = text[at + id.size()];
        if (next == ',' || next == ';' || next == '\t' || next == '|')
            return next;
    }
    if (text.starts_with("sep=") && text.size() > 4 && text[4] != '\r' && text[4] != '\n')
        return text[4];
    return ',';
}

} // namespace

namespace {

// The values of one survey row, by column name (the first of several names that the row has);
// the first bad cell is the row's error.
class SurveyCells
{
public:
    SurveyCells(const CsvRow &row, const std::map<std::string, std::size_t> &columns)
        : m_row(row)
        , m_columns(columns)
    { }

    std::optional<double> get(std::initializer_list<const char *> names, double scale)
    {
        for (const char *name : names) {
            auto it = m_columns.find(name);
            const CsvField *field = it == m_columns.end() ? nullptr : m_row.field(it->second);
            if (!field)
                continue;
            std::string cell = field->text;
            // "0.6199s", "< 0.0001s"
            if (!cell.empty() && cell.front() == '<')
                cell.erase(0, 1);
            if (!cell.empty() && cell.back() == 's')
                cell.pop_back();
            auto number = parseReportNumber(cell);
            if (!number) {
                if (error.empty()) {
                    error = "column \"" + std::string(name) + "\": " + number.error();
                    errorColumn = field->column;
                }
                return std::nullopt;
            }
            if (*number)
                return **number * scale;
        }
        return std::nullopt;
    }

    std::string error;
    int errorColumn = 0;

private:
    const CsvRow &m_row;
    const std::map<std::string, std::size_t> &m_columns;
};

// What a survey row gave: a point, nothing (no FLOP data: not executed, or collected without
// FLOP counts) or an error (in `cells.error`).
struct SurveyRow {
    std::optional<KernelPoint> point;
    bool withoutFlops = false;
};

SurveyRow readSurveyRow(const CsvRow &row, SurveyCells &cells, const std::string &fileName)
{
    SurveyRow out;
    KernelPoint point;
    // A row may stop before the name (a truncated file): it is reported with the others.
    point.name = row.text(1);
    point.source = { fileName, row.line };
    const auto flops = cells.get({ "Self GFLOP", "GFLOP" }, 1e9);
    const auto rate = cells.get({ "Self GFLOPS", "GFLOPS" }, 1e9);
    const auto intensity = cells.get({ "Self AI", "AI" }, 1.0);
    // Wall time: "Self Elapsed Time", legacy "Elapsed Time" (never "Self Time", the CPU time of
    // all threads).
    const auto seconds = cells.get({ "Self Elapsed Time", "Elapsed Time" }, 1.0);
    if (auto l1 = cells.get({ "Self Memory GB", "L1 GB" }, 1e9); l1 && *l1 > 0.0)
        point.bytes.push_back({ MemoryLevel::L1, *l1 });
    if (auto l2 = cells.get({ "Self L2 GB" }, 1e9); l2 && *l2 > 0.0)
        point.bytes.push_back({ MemoryLevel::L2, *l2 });
    if (auto l3 = cells.get({ "Self L3 GB" }, 1e9); l3 && *l3 > 0.0)
        point.bytes.push_back({ MemoryLevel::L3, *l3 });
    if (auto dram = cells.get({ "Self DRAM GB" }, 1e9); dram && *dram > 0.0)
        point.bytes.push_back({ std::nullopt, *dram });
    if (!cells.error.empty())
        return out;
    if (!(flops && *flops > 0.0) && !(rate && *rate > 0.0)) {
        out.withoutFlops = true;
        return out;
    }
    if (flops)
        point.flops = *flops;
    if (seconds && *seconds > 0.0)
        point.seconds = seconds;
    if (rate && *rate > 0.0)
        point.measuredRate = rate;
    if (point.bytes.empty() && intensity && *intensity > 0.0) {
        if (point.flops > 0.0)
            point.bytes.push_back({ MemoryLevel::L1, point.flops / *intensity });
        else if (point.measuredRate)
            point.intensity = intensity;
    }
    out.point = std::move(point);
    return out;
}

} // namespace

PointsReadResult readAdvisorSurvey(std::string_view text, const std::string &fileName)
{
    PointsReadResult result;
    const char delimiter = surveyDelimiter(text);
    CsvTable table = tokenizeCsv(text, fileName, delimiter);
    result.diagnostics = table.diagnostics;
    std::size_t headerIndex = table.rows.size();
    for (std::size_t r = 0; r < table.rows.size() && r < 20; ++r) {
        const auto &fields = table.rows[r].fields;
        if (fields.size() > 1 && fields[0].text == "ID"
            && fields[1].text == "Function Call Sites and Loops") {
            headerIndex = r;
            break;
        }
    }
    if (headerIndex == table.rows.size()) {
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "not an Intel Advisor survey CSV (expected a header \"ID\",\"Function Call Sites and "
            "Loops\",...)" });
        return result;
    }
    const CsvRow &header = table.rows[headerIndex];
    std::map<std::string, std::size_t> columns;
    for (std::size_t i = 0; i < header.fields.size(); ++i)
        columns.emplace(header.fields[i].text, i);
    int withoutFlops = 0;
    for (std::size_t r = headerIndex + 1; r < table.rows.size(); ++r) {
        const CsvRow &row = table.rows[r];
        ++result.rowsRead;
        const auto fail = [&](int column, std::string message) {
            result.diagnostics.push_back(
                { Severity::Error, fileName, row.line, column, std::move(message) });
            ++result.rowsSkipped;
        };
        if (row.fields.size() < header.fields.size()) {
            // A truncated row: its last cells (and perhaps its name) are missing.
            fail(0,
                "expected " + std::to_string(header.fields.size()) + " fields, found "
                    + std::to_string(row.fields.size()));
            continue;
        }
        SurveyCells cells(row, columns);
        SurveyRow read = readSurveyRow(row, cells, fileName);
        if (!cells.error.empty()) {
            fail(cells.errorColumn, cells.error);
            continue;
        }
        if (read.withoutFlops) {
            ++withoutFlops;
            continue;
        }
        KernelPoint &point = *read.point;
        if (point.bytes.empty() && !point.intensity) {
            fail(0,
                "\"" + point.name
                    + "\": FLOPs but no memory traffic (expected Self Memory GB, L1 GB or AI)");
            continue;
        }
        if (auto problem = pointProblem(point)) {
            fail(point.name.empty() ? row.column(0) : 0,
                (point.name.empty() ? std::string("row ") + row.text(0) : "\"" + point.name + "\"")
                    + ": " + *problem);
            continue;
        }
        result.points.push_back(std::move(point));
    }
    if (withoutFlops > 0) {
        result.diagnostics.push_back({ Severity::Warning, fileName, header.line, 0,
            std::to_string(withoutFlops)
                + " rows without FLOP data left out (not executed, or collected without "
                  "FLOP counts)" });
    }
    return result;
}

} // namespace ridgepoint
