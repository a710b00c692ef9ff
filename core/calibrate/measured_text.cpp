#include "core/calibrate/measured_text.h"

#include "core/io/numbers.h"

#include <cmath>

namespace ridgepoint::measured_text {

std::vector<Line> lines(std::string_view text)
{
    std::vector<Line> out;
    int number = 1;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        out.push_back({ line, number });
        ++number;
        start = end + 1;
    }
    return out;
}

std::vector<Field> splitCsv(std::string_view line)
{
    std::vector<Field> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = line.find(',', start);
        const std::size_t end = comma == std::string_view::npos ? line.size() : comma;
        std::string_view field = line.substr(start, end - start);
        int column = static_cast<int>(start) + 1;
        while (!field.empty() && (field.front() == ' ' || field.front() == '\t')) {
            field.remove_prefix(1);
            ++column;
        }
        while (!field.empty() && (field.back() == ' ' || field.back() == '\t'))
            field.remove_suffix(1);
        out.push_back({ field, column });
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return out;
}

std::vector<Field> splitBlanks(std::string_view line)
{
    std::vector<Field> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t')
            ++i;
        if (i > start)
            out.push_back({ line.substr(start, i - start), static_cast<int>(start) + 1 });
    }
    return out;
}

void Reporter::error(int line, int column, std::string message)
{
    m_result.diagnostics.push_back({ Severity::Error, m_file, line, column, std::move(message) });
}

void Reporter::warning(int line, int column, std::string message)
{
    m_result.diagnostics.push_back({ Severity::Warning, m_file, line, column, std::move(message) });
}

std::optional<std::size_t> columnOf(const std::vector<Field> &header, std::string_view name)
{
    for (std::size_t i = 0; i < header.size(); ++i) {
        if (header[i].text == name)
            return i;
    }
    return std::nullopt;
}

std::optional<double> number(
    const Field &field, int line, Reporter &report, std::string_view what, bool positive)
{
    double value = 0.0;
    if (!plainNumber(field.text, value) || !std::isfinite(value) || value < 0.0
        || (positive && value == 0.0)) {
        report.error(line, field.column,
            std::string(what) + ": expected a " + (positive ? "positive" : "non-negative")
                + " number, found \"" + std::string(field.text) + "\"");
        return std::nullopt;
    }
    return value;
}

std::optional<std::int64_t> integer(
    const Field &field, int line, Reporter &report, std::string_view what)
{
    double value = 0.0;
    if (!plainNumber(field.text, value) || value < 1.0 || value > 1e15
        || std::floor(value) != value) {
        report.error(line, field.column,
            std::string(what) + ": expected a positive whole number, found \""
                + std::string(field.text) + "\"");
        return std::nullopt;
    }
    return static_cast<std::int64_t>(value);
}

} // namespace ridgepoint::measured_text
