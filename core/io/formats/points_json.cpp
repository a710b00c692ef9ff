#include "core/io/formats/points_json.h"

#include "core/io/sniff.h"
#include "core/model/units.h"

#include "core/report/json_detail.h"

#include <cstdint>
#include <limits>

namespace ridgepoint {
namespace {

using Json = nlohmann::ordered_json;

} // namespace

bool looksLikePointsJson(const Sniff &sniff)
{
    return sniff.json() && sniff.mentions("\"ridgepoint-points\"");
}

PointsReadResult readPointsJson(std::string_view text, const std::string &fileName)
{
    PointsReadResult result;
    auto parsedJson = detail::parseJson<Json>(text, fileName, result.diagnostics);
    if (!parsedJson)
        return result;
    Json &root = *parsedJson;
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
    // Compared as a double: any JSON integer (up to 2^64) converts without wrapping.
    if (root["version"].get<double>() > kPointsVersion) {
        fail("version " + detail::dumpJson(root["version"])
            + " is newer than this Ridgepoint reads (" + std::to_string(kPointsVersion)
            + "): update Ridgepoint");
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
        // Zero is allowed where it is a real measurement (no FLOPs, no spread), as in the CSV.
        const auto quantity = [&](const Json &value, const std::string &where, Dimension dimension,
                                  bool zeroAllowed = false) -> std::optional<double> {
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
                    "expected a number or a unit string, found " + detail::dumpJson(value));
            if (!parsed || (zeroAllowed ? !(*parsed >= 0.0) : !(*parsed > 0.0))) {
                if (error.empty())
                    error = where + ": "
                        + (!parsed            ? parsed.error()
                                : zeroAllowed ? std::string("must not be negative")
                                              : std::string("must be greater than zero (a "
                                                            "log-log roofline cannot show it)"));
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
                point.flops = quantity(value, where, Dimension::Flops, true).value_or(0.0);
            } else if (key == "bytes" && value.is_array()) {
                for (std::size_t b = 0; b < value.size(); ++b) {
                    const Json &entry = value[b];
                    const std::string at = where + "[" + std::to_string(b) + "]";
                    LevelBytes level;
                    if (!entry.is_object()) {
                        if (error.empty())
                            error = at + ": expected an object {\"level\": ..., \"bytes\": ...}";
                        continue;
                    }
                    if (entry.contains("level") && !entry["level"].is_null()) {
                        level.level = entry["level"].is_string()
                            ? memoryLevelFromName(entry["level"].get<std::string>())
                            : std::nullopt;
                        if (!level.level && error.empty())
                            error = at + ".level: unknown level " + detail::dumpJson(entry["level"])
                                + " (expected L1, L2, L3, DRAM, HBM, PCIe, NVLink, ICI, DCN or "
                                  "LDS)";
                    }
                    if (!entry.contains("bytes") || entry["bytes"].is_null()) {
                        if (error.empty())
                            error = at + ".bytes: expected the bytes at this level";
                        continue;
                    }
                    if (auto bytes = quantity(entry["bytes"], at + ".bytes", Dimension::Bytes)) {
                        level.bytes = *bytes;
                        point.bytes.push_back(level);
                    }
                }
            } else if (key == "seconds") {
                point.seconds = quantity(value, where, Dimension::Time);
            } else if (key == "performance") {
                point.measuredRate = quantity(value, where, Dimension::FlopRate);
            } else if (key == "intensity") {
                point.intensity = quantity(value, where, Dimension::Intensity);
            } else if (key == "level_intensities" && value.is_array()) {
                for (std::size_t b = 0; b < value.size(); ++b) {
                    const Json &entry = value[b];
                    const std::string at = where + "[" + std::to_string(b) + "]";
                    if (!entry.is_object() || !entry.contains("level")
                        || !entry.contains("intensity")) {
                        if (error.empty())
                            error
                                = at + ": expected an object {\"level\": ..., \"intensity\": ...}";
                        continue;
                    }
                    const auto level = entry["level"].is_string()
                        ? memoryLevelFromName(entry["level"].get<std::string>())
                        : std::nullopt;
                    if (!level) {
                        if (error.empty())
                            error = at + ".level: unknown level " + detail::dumpJson(entry["level"])
                                + " (expected L1, L2, L3, DRAM, HBM, PCIe, NVLink, ICI, DCN or "
                                  "LDS; main memory's intensity is \"intensity\")";
                        continue;
                    }
                    if (auto intensity
                        = quantity(entry["intensity"], at + ".intensity", Dimension::Intensity)) {
                        point.levelIntensities.push_back({ *level, *intensity });
                    } else if (error.empty()) {
                        error = at + ".intensity: expected the FLOP/B at this level";
                    }
                }
            } else if (key == "precision") {
                if (!value.is_null()) {
                    point.precision = value.is_string()
                        ? precisionFromName(value.get<std::string>())
                        : std::nullopt;
                    if (!point.precision && error.empty())
                        error = where + ": unknown precision " + detail::dumpJson(value);
                }
            } else if (key == "group" && value.is_string()) {
                point.group = value.get<std::string>();
            } else if (key == "time_statistics" && value.is_object()) {
                auto &s = point.timeStatistics;
                for (const auto &[stat, target] :
                    { std::pair { "min", &s.min }, std::pair { "median", &s.median },
                        std::pair { "max", &s.max }, std::pair { "stddev", &s.stddev } }) {
                    if (value.contains(stat))
                        *target = quantity(value[stat], where + "." + stat, Dimension::Time,
                            std::string_view(stat) == "stddev");
                }
            } else if (key == "source" && value.is_object()) {
                if (value.contains("file") && value["file"].is_string())
                    point.source.file = value["file"].get<std::string>();
                // A line number that an int cannot hold, or a negative one, is left out.
                if (value.contains("line") && value["line"].is_number_integer()) {
                    const auto line = value["line"].get<std::int64_t>();
                    if (line >= 0 && line <= std::numeric_limits<int>::max())
                        point.source.line = static_cast<int>(line);
                }
            } else {
                result.diagnostics.push_back({ Severity::Warning, fileName, 0, 0,
                    where + ": unknown key or wrong type, ignored" });
            }
        }
        if (error.empty() && point.name.empty())
            error = path + ".name: expected the kernel's name";
        if (error.empty() && point.bytes.empty() && !point.knownByIntensity())
            error = path + ": no \"bytes\" and no \"intensity\" (expected one of them)";
        if (error.empty() && !point.bytes.empty() && !point.levelIntensities.empty())
            error = path
                + ": both \"bytes\" and \"level_intensities\" (expected one of them: counts, or "
                  "intensities with a performance)";
        if (error.empty()) {
            if (auto problem = pointProblem(point))
                error = path + ": " + *problem;
        }
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
        if (!point.levelIntensities.empty()) {
            Json levels = Json::array();
            for (const auto &level : point.levelIntensities)
                levels.push_back(Json { { "level", std::string(memoryLevelName(level.level)) },
                    { "intensity", level.intensity } });
            p["level_intensities"] = levels;
        }
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
    return detail::dumpJson(root, 2) + "\n";
}

} // namespace ridgepoint
