// Internal to core/io: reading a JSON document against a schema, for every JSON format (hardware
// JSON, points JSON, ERT roofline.json). Errors and warnings name the JSON path
// ("machine (H100).compute[0].peak: ..."); a key the schema does not know is a warning in one
// wording (unknownKeyMessage, core/io/text.h). Kept out of the public headers: nlohmann_json.
#pragma once

#include "core/io/text.h"
#include "core/model/diagnostic.h"
#include "core/model/units.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

class JsonSchema
{
public:
    JsonSchema(const std::string &fileName, std::vector<Diagnostic> &diagnostics)
        : m_fileName(fileName)
        , m_diagnostics(diagnostics)
    { }

    // "path: message" (the message alone at the top level, where the path is empty).
    void error(const std::string &path, const std::string &message);
    void warning(const std::string &path, const std::string &message);
    // Whether an error was reported since the last reset().
    bool failed() const { return m_failed; }
    void reset() { m_failed = false; }
    const std::string &fileName() const { return m_fileName; }

    // A warning for each key of `object` not in `known`.
    template<typename Json>
    void checkKeys(
        const Json &object, const std::string &path, const std::vector<std::string_view> &known)
    {
        for (const auto &[key, value] : object.items()) {
            if (std::find(known.begin(), known.end(), key) == known.end())
                warning(path, unknownKeyMessage(key, known));
        }
    }

    // A known key of the wrong type, left out: "expected a string, found number; ignored".
    template<typename Json>
    void wrongType(const std::string &path, std::string_view expected, const Json &value)
    {
        warning(path,
            "expected " + std::string(expected) + ", found " + value.type_name() + "; ignored");
    }

    // The typed members of an object (hardware JSON): an error names the member when it is
    // missing (if required) or of the wrong type.
    std::string text(
        const nlohmann::json &object, const std::string &path, const char *key, bool required);
    // A positive number in SI base units, or a unit string ("3.35 TB/s").
    double quantity(const nlohmann::json &object, const std::string &path, const char *key,
        Dimension dimension);
    // "sustained_fraction": a number in (0, 1].
    std::optional<double> fraction(const nlohmann::json &object, const std::string &path);
    bool flag(
        const nlohmann::json &object, const std::string &path, const char *key, bool fallback);

private:
    const std::string &m_fileName;
    std::vector<Diagnostic> &m_diagnostics;
    bool m_failed = false;
};

} // namespace ridgepoint
