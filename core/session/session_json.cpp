// The schema reader of session files: typed values out of JSON objects, each problem named by
// its JSON path.
#include "core/session/session_json.h"

#include "core/io/text.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgepoint::session_json {

std::string dump(const Json &json, int indent)
{
    return json.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

void Reader::error(const std::string &path, const std::string &message)
{
    m_diagnostics.push_back({ Severity::Error, m_file, 0, 0, path + ": " + message });
}

void Reader::warning(const std::string &path, const std::string &message)
{
    m_diagnostics.push_back({ Severity::Warning, m_file, 0, 0, path + ": " + message });
}

void Reader::checkKeys(
    const Json &object, const std::string &path, std::initializer_list<std::string_view> known)
{
    // The wording of every JSON format's readers (core/io/json_schema.h), from one function.
    for (const auto &[key, value] : object.items()) {
        if (std::find(known.begin(), known.end(), key) != known.end())
            continue;
        const std::string message = unknownKeyMessage(key, std::vector(known));
        if (path.empty())
            m_diagnostics.push_back({ Severity::Warning, m_file, 0, 0, message });
        else
            warning(path, message);
    }
}

std::optional<double> Reader::number(const Json &object, const std::string &key,
    const std::string &path, std::optional<double> fallback, bool positive)
{
    const auto it = object.find(key);
    if (it == object.end()) {
        if (!fallback)
            error(path + "." + key, "missing (expected a number)");
        return fallback;
    }
    if (!it->is_number()) {
        error(path + "." + key, "expected a number, found " + dump(*it));
        return std::nullopt;
    }
    const double value = it->get<double>();
    if (!std::isfinite(value) || (positive && value <= 0.0)) {
        error(path + "." + key,
            "expected a " + std::string(positive ? "positive " : "") + "finite number, found "
                + dump(*it));
        return std::nullopt;
    }
    return value;
}

std::optional<std::int64_t> Reader::integer(const Json &object, const std::string &key,
    const std::string &path, std::optional<std::int64_t> fallback)
{
    const auto it = object.find(key);
    if (it == object.end()) {
        if (!fallback)
            error(path + "." + key, "missing (expected a positive integer)");
        return fallback;
    }
    // Compared as integers: through a double, 2^63 .. 2^63 + 1024 equal INT64_MAX's double and
    // passed, then wrapped to negative counts.
    const bool fits = it->is_number_unsigned()
        ? it->get<std::uint64_t>() >= 1
            && it->get<std::uint64_t>()
                <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
        : it->is_number_integer() && it->get<std::int64_t>() >= 1;
    if (!fits) {
        error(path + "." + key, "expected a positive integer, found " + dump(*it));
        return std::nullopt;
    }
    return it->get<std::int64_t>();
}

std::optional<std::int64_t> Reader::count(
    const Json &object, const std::string &key, const std::string &path, std::int64_t fallback)
{
    const auto it = object.find(key);
    if (it == object.end())
        return fallback;
    if (!it->is_number_integer() || it->get<double>() < 0.0
        || it->get<double>() > static_cast<double>(std::numeric_limits<std::int64_t>::max())) {
        error(path + "." + key, "expected a non-negative integer, found " + dump(*it));
        return std::nullopt;
    }
    return it->get<std::int64_t>();
}

std::optional<std::string> Reader::string(const Json &object, const std::string &key,
    const std::string &path, std::optional<std::string> fallback)
{
    const auto it = object.find(key);
    if (it == object.end()) {
        if (!fallback)
            error(path + "." + key, "missing (expected a string)");
        return fallback;
    }
    if (!it->is_string()) {
        error(path + "." + key, "expected a string, found " + dump(*it));
        return std::nullopt;
    }
    return it->get<std::string>();
}

std::optional<bool> Reader::boolean(
    const Json &object, const std::string &key, const std::string &path, bool fallback)
{
    const auto it = object.find(key);
    if (it == object.end())
        return fallback;
    if (!it->is_boolean()) {
        error(path + "." + key, "expected true or false, found " + dump(*it));
        return std::nullopt;
    }
    return it->get<bool>();
}

std::optional<Precision> Reader::precision(const Json &object, const std::string &key,
    const std::string &path, std::optional<Precision> fallback)
{
    const auto name = string(object, key, path,
        fallback ? std::optional<std::string>(std::string(precisionName(*fallback)))
                 : std::nullopt);
    if (!name)
        return std::nullopt;
    const auto value = precisionFromName(*name);
    if (!value)
        error(path + "." + key,
            "unknown precision \"" + *name
                + "\" (expected fp64, fp32, tf32, bf16, fp16, "
                  "fp8, fp6, fp4, int8 or int4)");
    return value;
}

} // namespace ridgepoint::session_json
