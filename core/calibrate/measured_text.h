// Internal to core/calibrate: the lines and comma-separated fields of a measured-runs file, with
// the line and column each came from, and the messages the readers give about them.
#pragma once

#include "core/calibrate/measured.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint::measured_text {

struct Field {
    std::string_view text;
    int column = 1; // 1-based
};

struct Line {
    std::string_view text; // without the line break
    int number = 1; // 1-based
};

std::vector<Line> lines(std::string_view text);
std::vector<Field> splitCsv(std::string_view line);
std::vector<Field> splitBlanks(std::string_view line);

// Reads diagnostics into `result` with the file's name.
class Reporter
{
public:
    Reporter(const std::string &file, MeasuredReadResult &result)
        : m_file(file)
        , m_result(result)
    { }
    void error(int line, int column, std::string message);
    void warning(int line, int column, std::string message);
    const std::string &file() const { return m_file; }

private:
    const std::string &m_file;
    MeasuredReadResult &m_result;
};

// The column of a header by name, or nullopt.
std::optional<std::size_t> columnOf(const std::vector<Field> &header, std::string_view name);

// A finite number ≥ 0 (positive when `positive`); an error naming what was expected otherwise.
std::optional<double> number(
    const Field &field, int line, Reporter &report, std::string_view what, bool positive);
std::optional<std::int64_t> integer(
    const Field &field, int line, Reporter &report, std::string_view what);

} // namespace ridgepoint::measured_text
