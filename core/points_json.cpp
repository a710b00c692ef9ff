#include "core/points_json.h"

#include "core/units.h"

#include <nlohmann/json.hpp>

namespace ridgepoint {
namespace {

using Json = nlohmann::ordered_json;

} // namespace

PointsReadResult readPointsJson(std::string_view text, const std::string &fileName)
{
    PointsReadResult result;
    Json root;
    try {
        root = Json::parse(text);
    } catch (const Json::parse_error &e) {
        const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
        const TextPosition at = positionOfOffset(std::string(text), offset);
        std::string message = e.what();
        if (const auto colon = message.find(": "); colon != std::string::npos)
            message = message.substr(colon + 2);
        result.diagnostics.push_back(
            { Severity::Error, fileName, at.line, at.column, "invalid JSON: " + message });
        return result;
    }
    const auto fail = [&](const std::string &message) {
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0, message });
    };
    if (!root.is_object() || !root.contains("format") || root["format"] != kPointsFormat) {
        fail("not a Ridgepoint points file (expected {\"format\": \"ridgepoint-points\", "
             "\"version\": 1, \"points\": [...]})");
        return result;
    }
    if (!root.contains("version") || !root["version"].is_number_integer()) {
        fail("version: expected an integer");
        return result;
    }
    const int version = root["version"].get<int>();
    if (version > kPointsVersion) {
        fail("version " + std::to_string(version) + " is newer than this Ridgepoint reads ("
            + std::to_string(kPointsVersion) + "): update Ridgepoint");
        return result;
    }
    if (!root.contains("points") || !root["points"].is_array()) {
        fail("points: expected a list of points");
        return result;
    }
    for (const auto &[key, value] : root.items()) {
        if (key != "format" && key != "version" && key != "points")
            result.diagnostics.push_back(
                { Severity::Warning, fileName, 0, 0, "unknown key \"" + key + "\" ignored" });
    }
    const Json &list = root["points"];
    for (std::size_t i = 0; i < list.size(); ++i) {
        ++result.rowsRead;
        const Json &p = list[i];
        const std::string path = "points[" + std::to_string(i) + "]";
        std::string error;
        const auto quantity = [&](const Json &value, const std::string &where,
                                  Dimension dimension) -> std::optional<double> {
            if (value.is_null())
                return std::nullopt;
            ridgepoint::Expected<double, std::string> parsed
                = ridgepoint::Unexpected(std::string());
            if (value.is_number())
                parsed = value.get<double>();
            else if (value.is_string())
                parsed = parseQuantity(value.get<std::string>(), dimension);
            else
                parsed = ridgepoint::Unexpected(
                    "expected a number or a unit string, found " + value.dump());
            if (!parsed || !(*parsed >= 0.0)) {
                if (error.empty())
                    error = where + ": " + (parsed ? "must not be negative" : parsed.error());
                return std::nullopt;
            }
            return *parsed;
        };
        if (!p.is_object()) {
            fail(path + ": expected an object");
            ++result.rowsSkipped;
            continue;
        }
        KernelPoint point;
        point.source = { fileName, 0 };
        for (const auto &[key, value] : p.items()) {
            const std::string where = path + "." + key;
            if (key == "name" && value.is_string()) {
                point.name = value.get<std::string>();
            } else if (key == "flops") {
                point.flops = quantity(value, where, Dimension::Flops).value_or(0.0);
            } else if (key == "bytes" && value.is_array()) {
                for (std::size_t b = 0; b < value.size(); ++b) {
                    const Json &entry = value[b];
                    const std::string at = where + "[" + std::to_string(b) + "]";
                    LevelBytes level;
                    if (entry.contains("level") && !entry["level"].is_null()) {
                        level.level = memoryLevelFromName(entry["level"].get<std::string>());
                        if (!level.level && error.empty())
                            error = at + ".level: unknown level " + entry["level"].dump()
                                + " (expected L1, L2, L3, DRAM, HBM, PCIe, NVLink, ICI or DCN)";
                    }
                    level.bytes = entry.contains("bytes")
                        ? quantity(entry["bytes"], at + ".bytes", Dimension::Bytes).value_or(0.0)
                        : 0.0;
                    point.bytes.push_back(level);
                }
            } else if (key == "seconds") {
                point.seconds = quantity(value, where, Dimension::Time);
            } else if (key == "performance") {
                point.measuredRate = quantity(value, where, Dimension::FlopRate);
            } else if (key == "intensity") {
                point.intensity = quantity(value, where, Dimension::Intensity);
            } else if (key == "precision") {
                if (!value.is_null()) {
                    point.precision = value.is_string()
                        ? precisionFromName(value.get<std::string>())
                        : std::nullopt;
                    if (!point.precision && error.empty())
                        error = where + ": unknown precision " + value.dump();
                }
            } else if (key == "group" && value.is_string()) {
                point.group = value.get<std::string>();
            } else if (key == "time_statistics" && value.is_object()) {
                auto &s = point.timeStatistics;
                for (const auto &[stat, target] :
                    { std::pair { "min", &s.min }, std::pair { "median", &s.median },
                        std::pair { "max", &s.max }, std::pair { "stddev", &s.stddev } }) {
                    if (value.contains(stat))
                        *target = quantity(value[stat], where + "." + stat, Dimension::Time);
                }
            } else if (key == "source" && value.is_object()) {
                if (value.contains("file") && value["file"].is_string())
                    point.source.file = value["file"].get<std::string>();
                if (value.contains("line") && value["line"].is_number_integer())
                    point.source.line = value["line"].get<int>();
            } else {
                result.diagnostics.push_back({ Severity::Warning, fileName, 0, 0,
                    where + ": unknown key or wrong type, ignored" });
            }
        }
        if (error.empty() && point.name.empty())
            error = path + ".name: expected the kernel's name";
        if (error.empty() && point.bytes.empty() && !point.intensity)
            error = path + ": no \"bytes\" and no \"intensity\" (expected one of them)";
        if (!error.empty()) {
            fail(error);
            ++result.rowsSkipped;
            continue;
        }
        result.points.push_back(std::move(point));
    }
    return result;
}

std::string writePointsJson(const std::vector<KernelPoint> &points)
{
    Json root;
    root["format"] = kPointsFormat;
    root["version"] = kPointsVersion;
    Json list = Json::array();
    const auto optional
        = [](const std::optional<double> &v) { return v ? Json(*v) : Json(nullptr); };
    for (const auto &point : points) {
        Json p;
        p["name"] = point.name;
        p["flops"] = point.flops;
        Json bytes = Json::array();
        for (const auto &level : point.bytes) {
            Json b;
            b["level"]
                = level.level ? Json(std::string(memoryLevelName(*level.level))) : Json(nullptr);
            b["bytes"] = level.bytes;
            bytes.push_back(b);
        }
        p["bytes"] = bytes;
        p["seconds"] = optional(point.seconds);
        p["performance"] = optional(point.measuredRate);
        p["intensity"] = optional(point.intensity);
        p["precision"]
            = point.precision ? Json(std::string(precisionName(*point.precision))) : Json(nullptr);
        p["group"] = point.group;
        if (!point.timeStatistics.empty()) {
            Json s;
            s["min"] = optional(point.timeStatistics.min);
            s["median"] = optional(point.timeStatistics.median);
            s["max"] = optional(point.timeStatistics.max);
            s["stddev"] = optional(point.timeStatistics.stddev);
            p["time_statistics"] = s;
        }
        if (!point.source.file.empty())
            p["source"] = Json { { "file", point.source.file }, { "line", point.source.line } };
        list.push_back(p);
    }
    root["points"] = list;
    return root.dump(2) + "\n";
}

} // namespace ridgepoint
