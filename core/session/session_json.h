// Internal to core/session: the JSON helpers the session reader, writer and migrations share —
// the schema reader that names JSON paths in its diagnostics, and the workload (de)serialisers.
#pragma once

#include "core/model/diagnostic.h"
#include "core/model/hardware.h"
#include "core/workloads/planned_workload.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint::session_json {

using Json = nlohmann::ordered_json;

std::string dump(const Json &json, int indent = -1);

// Reads typed values out of JSON objects; every problem is a diagnostic naming the JSON path
// ("points[2].workload.b: expected a positive integer, found -1").
class Reader
{
public:
    Reader(const std::string &fileName, std::vector<Diagnostic> &diagnostics)
        : m_file(fileName)
        , m_diagnostics(diagnostics)
    { }

    void error(const std::string &path, const std::string &message);
    void warning(const std::string &path, const std::string &message);
    bool failed() const { return hasErrors(m_diagnostics); }
    const std::string &file() const { return m_file; }
    std::vector<Diagnostic> &diagnostics() { return m_diagnostics; }

    // Warns about keys not in `known` (usually typos).
    void checkKeys(
        const Json &object, const std::string &path, std::initializer_list<std::string_view> known);

    std::optional<double> number(const Json &object, const std::string &key,
        const std::string &path, std::optional<double> fallback, bool positive);
    std::optional<std::int64_t> integer(const Json &object, const std::string &key,
        const std::string &path, std::optional<std::int64_t> fallback = std::nullopt);
    // A count that may be zero (a dense model's experts): a non-negative integer.
    std::optional<std::int64_t> count(
        const Json &object, const std::string &key, const std::string &path, std::int64_t fallback);
    std::optional<std::string> string(const Json &object, const std::string &key,
        const std::string &path, std::optional<std::string> fallback = std::nullopt);
    std::optional<bool> boolean(
        const Json &object, const std::string &key, const std::string &path, bool fallback);
    std::optional<Precision> precision(const Json &object, const std::string &key,
        const std::string &path, std::optional<Precision> fallback = std::nullopt);

private:
    std::string m_file;
    std::vector<Diagnostic> &m_diagnostics;
};

// Takes a document of version `from` to kSessionVersion in place (session_migrate.cpp); false,
// after an error naming the version and the path, when a step cannot convert it.
bool migrate(Json &root, int from, Reader &in);

// The oldest version whose "points" list no migration changes (version 0 kept its points as
// "kernels" with the moves beside them): its entries can be read as they are parsed.
inline constexpr int kPointsUnchangedSince = 1;

// A planned workload as saved in a session, and back (session_workload.cpp).
Json workloadObject(const Workload &workload);
std::optional<Workload> readWorkload(const Json &json, const std::string &path, Reader &in);

} // namespace ridgepoint::session_json
