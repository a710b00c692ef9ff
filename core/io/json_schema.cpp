#include "core/io/json_schema.h"

namespace ridgepoint {
namespace {

std::string at(const std::string &path, const std::string &message)
{
    return path.empty() ? message : path + ": " + message;
}

} // namespace

void JsonSchema::error(const std::string &path, const std::string &message)
{
    m_diagnostics.push_back({ Severity::Error, m_fileName, 0, 0, at(path, message) });
    m_failed = true;
}

void JsonSchema::warning(const std::string &path, const std::string &message)
{
    m_diagnostics.push_back({ Severity::Warning, m_fileName, 0, 0, at(path, message) });
}

std::string JsonSchema::text(
    const nlohmann::json &object, const std::string &path, const char *key, bool required)
{
    const auto it = object.find(key);
    if (it == object.end()) {
        if (required)
            error(path, std::string("missing \"") + key + "\" (expected a string)");
        return {};
    }
    if (!it->is_string()) {
        error(path + "." + key, std::string("expected a string, found ") + it->type_name());
        return {};
    }
    return it->get<std::string>();
}

double JsonSchema::quantity(
    const nlohmann::json &object, const std::string &path, const char *key, Dimension dimension)
{
    const auto it = object.find(key);
    if (it == object.end()) {
        error(path,
            std::string("missing \"") + key + "\" (expected a number in "
                + std::string(dimensionUnit(dimension)) + " or a unit string)");
        return 0.0;
    }
    if (it->is_number()) {
        const double value = it->get<double>();
        if (!(value > 0.0)) {
            error(path + "." + key, "must be greater than zero");
            return 0.0;
        }
        return value;
    }
    if (it->is_string()) {
        auto parsed = parsePositiveQuantity(it->get<std::string>(), dimension);
        if (!parsed) {
            error(path + "." + key, parsed.error());
            return 0.0;
        }
        return *parsed;
    }
    error(path + "." + key,
        std::string("expected a number or a unit string, found ") + it->type_name());
    return 0.0;
}

std::optional<double> JsonSchema::fraction(const nlohmann::json &object, const std::string &path)
{
    const auto it = object.find("sustained_fraction");
    if (it == object.end())
        return std::nullopt;
    const double value = it->is_number() ? it->get<double>() : 0.0;
    if (!(value > 0.0 && value <= 1.0)) {
        error(path + ".sustained_fraction", "expected a number in (0, 1]");
        return std::nullopt;
    }
    return value;
}

bool JsonSchema::flag(
    const nlohmann::json &object, const std::string &path, const char *key, bool fallback)
{
    const auto it = object.find(key);
    if (it == object.end())
        return fallback;
    if (!it->is_boolean()) {
        error(path + "." + key, "expected true or false");
        return fallback;
    }
    return it->get<bool>();
}

} // namespace ridgepoint
