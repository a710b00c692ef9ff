#include "core/io/formats/points_json.h"
#include "core/io/formats/points_json_entries.h"

#include "core/io/json_schema.h"
#include "core/io/sniff.h"
#include "core/model/units.h"

#include "core/io/json_detail.h"

#include <cstdint>
#include <limits>

namespace ridgepoint {
namespace {

using Json = nlohmann::ordered_json;

const std::vector<std::string_view> kPointKeys { "name", "flops", "bytes", "seconds", "performance",
    "intensity", "level_intensities", "precision", "unit", "group", "time_statistics", "source" };

// The document's format, version and list of points, or an error saying what is wrong.
const Json *pointsList(const Json &root, JsonSchema &in)
{
    if (!root.is_object() || !root.contains("format") || root["format"] != kPointsFormat) {
        in.error("",
            "not a Ridgepoint points file (expected {\"format\": \"ridgepoint-points\", "
            "\"version\": 1, \"points\": [...]})");
        return nullptr;
    }
    if (!root.contains("version") || !root["version"].is_number_integer()) {
        in.error("version", "expected an integer");
        return nullptr;
    }
    // Compared as a double: any JSON integer (up to 2^64) converts without wrapping.
    if (root["version"].get<double>() > kPointsVersion) {
        in.error("",
            "version " + detail::dumpJson(root["version"])
                + " is newer than this Ridgepoint reads (" + std::to_string(kPointsVersion)
                + "): update Ridgepoint");
        return nullptr;
    }
    if (!root.contains("points") || !root["points"].is_array()) {
        in.error("points", "expected a list of points");
        return nullptr;
    }
    in.checkKeys(root, "", { "format", "version", "points" });
    return &root["points"];
}

// One point of the list; the first thing wrong with it is its error.
class PointReader
{
public:
    PointReader(JsonSchema &in, std::string path)
        : m_in(in)
        , m_path(std::move(path))
    { }

    std::optional<KernelPoint> read(const Json &p)
    {
        if (!p.is_object()) {
            m_error = m_path + ": expected an object";
            return std::nullopt;
        }
        KernelPoint point;
        point.source = { m_in.fileName(), 0 };
        for (const auto &[key, value] : p.items())
            member(point, key, value);
        check(point);
        if (!m_error.empty())
            return std::nullopt;
        return point;
    }

    const std::string &error() const { return m_error; }

private:
    void fail(const std::string &message)
    {
        if (m_error.empty())
            m_error = message;
    }

    // A quantity in SI base units or a unit string; zero is allowed where it is a real
    // measurement (no FLOPs, no spread), as in the CSV.
    std::optional<double> quantity(
        const Json &value, const std::string &where, Dimension dimension, bool zeroAllowed = false)
    {
        if (value.is_null())
            return std::nullopt;
        ridgepoint::Expected<double, std::string> parsed = ridgepoint::Unexpected(std::string());
        if (value.is_number())
            parsed = value.get<double>();
        else if (value.is_string())
            parsed = parseQuantity(value.get<std::string>(), dimension);
        else
            parsed = ridgepoint::Unexpected(
                "expected a number or a unit string, found " + detail::dumpJson(value));
        if (!parsed || (zeroAllowed ? !(*parsed >= 0.0) : !(*parsed > 0.0))) {
            fail(where + ": "
                + (!parsed            ? parsed.error()
                        : zeroAllowed ? std::string("must not be negative")
                                      : std::string("must be greater than zero (a log-log "
                                                    "roofline cannot show it)")));
            return std::nullopt;
        }
        return *parsed;
    }

    void member(KernelPoint &point, const std::string &key, const Json &value)
    {
        const std::string where = m_path + "." + key;
        if (key == "flops")
            point.flops = quantity(value, where, Dimension::Flops, true).value_or(0.0);
        else if (key == "seconds")
            point.seconds = quantity(value, where, Dimension::Time);
        else if (key == "performance")
            point.measuredRate = quantity(value, where, Dimension::FlopRate);
        else if (key == "intensity")
            point.intensity = quantity(value, where, Dimension::Intensity);
        else if (key == "precision")
            precision(point, where, value);
        else if (key == "unit")
            unit(point, where, value);
        else if (!typedMember(point, key, where, value))
            m_in.warning(m_path, unknownKeyMessage(key, kPointKeys));
    }

    // The members of a given JSON type; false when `key` is none of them.
    bool typedMember(
        KernelPoint &point, const std::string &key, const std::string &where, const Json &value)
    {
        const auto is = [&](const char *name, bool typeOk, const char *expected) {
            if (key != name)
                return false;
            if (!typeOk)
                m_in.wrongType(where, expected, value);
            return typeOk;
        };
        if (is("name", value.is_string(), "a string"))
            point.name = value.get<std::string>();
        else if (is("group", value.is_string(), "a string"))
            point.group = value.get<std::string>();
        else if (is("bytes", value.is_array(), "a list"))
            bytes(point, where, value);
        else if (is("level_intensities", value.is_array(), "a list"))
            levelIntensities(point, where, value);
        else if (is("time_statistics", value.is_object(), "an object"))
            timeStatistics(point, where, value);
        else if (is("source", value.is_object(), "an object"))
            source(point, value);
        return std::find(kPointKeys.begin(), kPointKeys.end(), key) != kPointKeys.end();
    }

    void precision(KernelPoint &point, const std::string &where, const Json &value)
    {
        if (value.is_null())
            return;
        point.precision
            = value.is_string() ? precisionFromName(value.get<std::string>()) : std::nullopt;
        if (!point.precision)
            fail(where + ": unknown precision " + detail::dumpJson(value));
    }

    // "tensor" or "core" (point.h ComputeUnit); absent: unknown.
    void unit(KernelPoint &point, const std::string &where, const Json &value)
    {
        const auto known
            = value.is_string() ? computeUnitFromName(value.get<std::string>()) : std::nullopt;
        if (!known)
            fail(where + ": unknown unit " + detail::dumpJson(value)
                + " (expected \"tensor\" or \"core\")");
        else
            point.unit = *known;
    }

    void bytes(KernelPoint &point, const std::string &where, const Json &value)
    {
        for (std::size_t b = 0; b < value.size(); ++b) {
            const Json &entry = value[b];
            const std::string at = where + "[" + std::to_string(b) + "]";
            if (!entry.is_object()) {
                fail(at + ": expected an object {\"level\": ..., \"bytes\": ...}");
                continue;
            }
            LevelBytes level;
            if (entry.contains("level") && !entry["level"].is_null()) {
                level.level = entry["level"].is_string()
                    ? memoryLevelFromName(entry["level"].get<std::string>())
                    : std::nullopt;
                if (!level.level)
                    fail(at + ".level: unknown level " + detail::dumpJson(entry["level"])
                        + " (expected L1, L2, L3, DRAM, HBM, PCIe, NVLink, ICI, DCN or LDS)");
            }
            if (!entry.contains("bytes") || entry["bytes"].is_null()) {
                fail(at + ".bytes: expected the bytes at this level");
                continue;
            }
            if (auto count = quantity(entry["bytes"], at + ".bytes", Dimension::Bytes)) {
                level.bytes = *count;
                point.bytes.push_back(level);
            }
        }
    }

    void levelIntensities(KernelPoint &point, const std::string &where, const Json &value)
    {
        for (std::size_t b = 0; b < value.size(); ++b) {
            const Json &entry = value[b];
            const std::string at = where + "[" + std::to_string(b) + "]";
            if (!entry.is_object() || !entry.contains("level") || !entry.contains("intensity")) {
                fail(at + ": expected an object {\"level\": ..., \"intensity\": ...}");
                continue;
            }
            const auto level = entry["level"].is_string()
                ? memoryLevelFromName(entry["level"].get<std::string>())
                : std::nullopt;
            if (!level) {
                fail(at + ".level: unknown level " + detail::dumpJson(entry["level"])
                    + " (expected L1, L2, L3, DRAM, HBM, PCIe, NVLink, ICI, DCN or LDS; main "
                      "memory's intensity is \"intensity\")");
                continue;
            }
            if (auto intensity
                = quantity(entry["intensity"], at + ".intensity", Dimension::Intensity))
                point.levelIntensities.push_back({ *level, *intensity });
            else
                fail(at + ".intensity: expected the FLOP/B at this level");
        }
    }

    void timeStatistics(KernelPoint &point, const std::string &where, const Json &value)
    {
        auto &s = point.timeStatistics;
        for (const auto &[stat, target] :
            { std::pair { "min", &s.min }, std::pair { "median", &s.median },
                std::pair { "max", &s.max }, std::pair { "stddev", &s.stddev } }) {
            if (value.contains(stat))
                *target = quantity(value[stat], where + "." + stat, Dimension::Time,
                    std::string_view(stat) == "stddev");
        }
    }

    static void source(KernelPoint &point, const Json &value)
    {
        if (value.contains("file") && value["file"].is_string())
            point.source.file = value["file"].get<std::string>();
        // A line number that an int cannot hold, or a negative one, is left out.
        if (value.contains("line") && value["line"].is_number_integer()) {
            const auto line = value["line"].get<std::int64_t>();
            if (line >= 0 && line <= std::numeric_limits<int>::max())
                point.source.line = static_cast<int>(line);
        }
    }

    // What a point as a whole must have.
    void check(const KernelPoint &point)
    {
        if (point.name.empty())
            fail(m_path + ".name: expected the kernel's name");
        if (point.bytes.empty() && !point.knownByIntensity())
            fail(m_path + ": no \"bytes\" and no \"intensity\" (expected one of them)");
        if (!point.bytes.empty() && !point.levelIntensities.empty())
            fail(m_path
                + ": both \"bytes\" and \"level_intensities\" (expected one of them: counts, "
                  "or intensities with a performance)");
        if (m_error.empty()) {
            if (auto problem = pointProblem(point))
                fail(m_path + ": " + *problem);
        }
    }

    JsonSchema &m_in;
    std::string m_path;
    std::string m_error;
};

// Each of `count` points, "points[i]" in the messages; those with an error are skipped.
void readEntries(std::size_t count, const std::function<const Json &(std::size_t)> &entry,
    JsonSchema &in, PointsReadResult &result, std::size_t first = 0)
{
    result.points.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        ++result.rowsRead;
        PointReader reader(in, "points[" + std::to_string(first + i) + "]");
        if (auto point = reader.read(entry(i))) {
            result.points.push_back(std::move(*point));
        } else {
            in.error("", reader.error());
            ++result.rowsSkipped;
        }
    }
}

} // namespace

bool looksLikePointsJson(const Sniff &sniff)
{
    return sniff.json() && sniff.mentions("\"ridgepoint-points\"");
}

PointsReadResult readPointsJson(std::string_view text, const std::string &fileName)
{
    PointsReadResult result;
    auto root = detail::parseJson<Json>(text, fileName, result.diagnostics);
    if (!root)
        return result;
    JsonSchema in(fileName, result.diagnostics);
    const Json *list = pointsList(*root, in);
    if (!list)
        return result;
    readEntries(
        list->size(), [&](std::size_t i) -> const Json & { return (*list)[i]; }, in, result);
    return result;
}

PointsReadResult readPointsJsonEntries(std::size_t count,
    const std::function<const nlohmann::ordered_json &(std::size_t)> &entry,
    const std::string &fileName, std::size_t first)
{
    PointsReadResult result;
    JsonSchema in(fileName, result.diagnostics);
    readEntries(count, entry, in, result, first);
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
        if (point.unit
            != ComputeUnit::Unknown) // only when a file said: older files stay as they were
            p["unit"] = std::string(computeUnitName(point.unit));
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
