#include "core/io/formats/hardware_json.h"

#include "core/io/sniff.h"
#include "core/model/units.h"
#include "core/report/json_detail.h"

#include <initializer_list>
#include <set>

namespace ridgepoint {
namespace detail {

nlohmann::ordered_json hardwareJson(const Hardware &hardware, bool withRidges)
{
    nlohmann::ordered_json out;
    out["format"] = kHardwareFormat;
    out["version"] = kHardwareVersion;
    out["name"] = hardware.name;
    if (!hardware.aliases.empty())
        out["aliases"] = hardware.aliases;
    if (!hardware.vendor.empty())
        out["vendor"] = hardware.vendor;
    if (!hardware.kind.empty())
        out["kind"] = hardware.kind;
    out["source"] = hardware.source;
    if (!hardware.notes.empty())
        out["notes"] = hardware.notes;
    if (hardware.sustainedFraction)
        out["sustained_fraction"] = *hardware.sustainedFraction;
    if (!hardware.defaultCompute.empty())
        out["default_compute"] = hardware.defaultCompute;
    auto compute = nlohmann::ordered_json::array();
    for (const auto &ceiling : hardware.compute) {
        nlohmann::ordered_json c;
        c["name"] = ceiling.name;
        c["precision"] = precisionName(ceiling.precision);
        if (!ceiling.unit.empty())
            c["unit"] = ceiling.unit;
        c["peak"] = ceiling.peak;
        if (ceiling.sparse)
            c["sparse"] = true;
        if (ceiling.sustainedFraction)
            c["sustained_fraction"] = *ceiling.sustainedFraction;
        if (!ceiling.visible)
            c["visible"] = false;
        compute.push_back(std::move(c));
    }
    out["compute"] = std::move(compute);
    auto memory = nlohmann::ordered_json::array();
    for (const auto &ceiling : hardware.memory) {
        nlohmann::ordered_json m;
        m["name"] = ceiling.name;
        m["level"] = memoryLevelName(ceiling.level);
        m["bandwidth"] = ceiling.bandwidth;
        if (ceiling.sustainedFraction)
            m["sustained_fraction"] = *ceiling.sustainedFraction;
        if (!ceiling.visible)
            m["visible"] = false;
        memory.push_back(std::move(m));
    }
    out["memory"] = std::move(memory);
    if (withRidges) {
        auto list = nlohmann::ordered_json::array();
        for (const auto &ridge : ridges(hardware)) {
            list.push_back({ { "compute", ridge.compute }, { "memory", ridge.memory },
                { "intensity", ridge.intensity } });
        }
        out["ridges"] = std::move(list);
    }
    return out;
}

} // namespace detail

namespace {

using Json = nlohmann::json;

class SchemaReader
{
public:
    SchemaReader(const std::string &fileName, std::vector<Diagnostic> &diagnostics)
        : m_fileName(fileName)
        , m_diagnostics(diagnostics)
    { }

    void error(const std::string &path, const std::string &message)
    {
        m_diagnostics.push_back({ Severity::Error, m_fileName, 0, 0, path + ": " + message });
        m_failed = true;
    }
    void warning(const std::string &path, const std::string &message)
    {
        m_diagnostics.push_back({ Severity::Warning, m_fileName, 0, 0, path + ": " + message });
    }
    bool failed() const { return m_failed; }
    void reset() { m_failed = false; }

    void checkKeys(
        const Json &object, const std::string &path, std::initializer_list<std::string_view> known)
    {
        for (const auto &[key, value] : object.items()) {
            bool found = false;
            for (auto k : known)
                found = found || key == k;
            if (!found) {
                std::string list;
                for (auto k : known)
                    list += (list.empty() ? "" : ", ") + std::string(k);
                warning(path, "unknown key \"" + key + "\" ignored (expected one of " + list + ")");
            }
        }
    }

    std::string text(const Json &object, const std::string &path, const char *key, bool required)
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

    double quantity(
        const Json &object, const std::string &path, const char *key, Dimension dimension)
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

    std::optional<double> fraction(const Json &object, const std::string &path)
    {
        const auto it = object.find("sustained_fraction");
        if (it == object.end())
            return std::nullopt;
        if (!it->is_number()) {
            error(path + ".sustained_fraction", "expected a number in (0, 1]");
            return std::nullopt;
        }
        const double value = it->get<double>();
        if (!(value > 0.0 && value <= 1.0)) {
            error(path + ".sustained_fraction", "expected a number in (0, 1]");
            return std::nullopt;
        }
        return value;
    }

    bool flag(const Json &object, const std::string &path, const char *key, bool fallback)
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

private:
    const std::string &m_fileName;
    std::vector<Diagnostic> &m_diagnostics;
    bool m_failed = false;
};

std::optional<Hardware> readMachine(const Json &object, const std::string &path, SchemaReader &in)
{
    in.reset();
    if (!object.is_object()) {
        in.error(path, std::string("expected a machine object, found ") + object.type_name());
        return std::nullopt;
    }
    in.checkKeys(object, path,
        { "format", "version", "name", "aliases", "vendor", "kind", "source", "notes",
            "sustained_fraction", "default_compute", "compute", "memory", "ridges",
            "measurement" });
    if (const auto format = object.find("format"); format != object.end()) {
        if (!format->is_string() || format->get<std::string>() != kHardwareFormat)
            in.error(path + ".format", "expected \"" + std::string(kHardwareFormat) + "\"");
    }
    if (const auto version = object.find("version"); version != object.end()) {
        if (!version->is_number_integer())
            in.error(path + ".version", "expected an integer");
        else if (version->get<double>() > kHardwareVersion) // no wrap for any JSON integer
            in.error(path + ".version",
                "version " + detail::dumpJson(*version)
                    + " is newer than this Ridgepoint reads (up to "
                    + std::to_string(kHardwareVersion) + ")");
    }

    Hardware hw;
    hw.name = in.text(object, path, "name", true);
    const std::string where = path + (hw.name.empty() ? "" : " (" + hw.name + ")");
    hw.vendor = in.text(object, where, "vendor", false);
    hw.kind = in.text(object, where, "kind", false);
    hw.source = in.text(object, where, "source", false);
    hw.notes = in.text(object, where, "notes", false);
    hw.defaultCompute = in.text(object, where, "default_compute", false);
    hw.sustainedFraction = in.fraction(object, where);
    if (const auto aliases = object.find("aliases"); aliases != object.end()) {
        if (!aliases->is_array()) {
            in.error(where + ".aliases", "expected an array of strings");
        } else {
            for (const auto &alias : *aliases) {
                if (alias.is_string())
                    hw.aliases.push_back(alias.get<std::string>());
                else
                    in.error(where + ".aliases", "expected an array of strings");
            }
        }
    }

    const auto computeList = object.find("compute");
    if (computeList == object.end() || !computeList->is_array()) {
        in.error(where, "missing \"compute\" (expected an array of compute ceilings)");
    } else {
        for (std::size_t i = 0; i < computeList->size(); ++i) {
            const Json &item = (*computeList)[i];
            const std::string at = where + ".compute[" + std::to_string(i) + "]";
            if (!item.is_object()) {
                in.error(at, "expected an object with name, precision and peak");
                continue;
            }
            in.checkKeys(item, at,
                { "name", "precision", "unit", "peak", "sparse", "sustained_fraction", "visible",
                    "source" });
            ComputeCeiling ceiling;
            ceiling.name = in.text(item, at, "name", true);
            const std::string precision = in.text(item, at, "precision", true);
            if (auto p = precisionFromName(precision))
                ceiling.precision = *p;
            else if (!precision.empty())
                in.error(at + ".precision",
                    "unknown precision \"" + precision
                        + "\" (expected fp64, fp32, tf32, bf16, fp16, "
                          "fp8, int8 or int4)");
            ceiling.unit = in.text(item, at, "unit", false);
            ceiling.peak = in.quantity(item, at, "peak", Dimension::FlopRate);
            ceiling.sparse = in.flag(item, at, "sparse", false);
            ceiling.visible = in.flag(item, at, "visible", true);
            ceiling.sustainedFraction = in.fraction(item, at);
            hw.compute.push_back(std::move(ceiling));
        }
    }

    const auto memoryList = object.find("memory");
    if (memoryList == object.end() || !memoryList->is_array()) {
        in.error(where, "missing \"memory\" (expected an array of memory ceilings)");
    } else {
        for (std::size_t i = 0; i < memoryList->size(); ++i) {
            const Json &item = (*memoryList)[i];
            const std::string at = where + ".memory[" + std::to_string(i) + "]";
            if (!item.is_object()) {
                in.error(at, "expected an object with name, level and bandwidth");
                continue;
            }
            in.checkKeys(item, at,
                { "name", "level", "bandwidth", "sustained_fraction", "visible", "source" });
            MemoryCeiling ceiling;
            ceiling.name = in.text(item, at, "name", true);
            const std::string level = in.text(item, at, "level", true);
            if (auto l = memoryLevelFromName(level))
                ceiling.level = *l;
            else if (!level.empty())
                in.error(at + ".level",
                    "unknown level \"" + level
                        + "\" (expected L1, L2, L3, DRAM, HBM, PCIe, "
                          "NVLink, ICI, DCN or LDS)");
            ceiling.bandwidth = in.quantity(item, at, "bandwidth", Dimension::ByteRate);
            ceiling.visible = in.flag(item, at, "visible", true);
            ceiling.sustainedFraction = in.fraction(item, at);
            hw.memory.push_back(std::move(ceiling));
        }
    }
    if (in.failed())
        return std::nullopt;
    for (const auto &problem : validateHardware(hw))
        in.error(where, problem);
    if (in.failed())
        return std::nullopt;
    return hw;
}

} // namespace

bool looksLikeHardwareJson(const Sniff &sniff)
{
    return sniff.json();
}

HardwareReadResult readHardwareJson(const std::string &text, const std::string &fileName)
{
    HardwareReadResult result;
    auto parsedJson = detail::parseJson<Json>(text, fileName, result.diagnostics);
    if (!parsedJson)
        return result;
    Json &document = *parsedJson;

    SchemaReader in(fileName, result.diagnostics);
    const Json *list = nullptr;
    std::string listName;
    if (document.is_object()) {
        for (const char *key : { "presets", "hardware" }) {
            if (const auto it = document.find(key); it != document.end() && it->is_array()) {
                list = &*it;
                listName = key;
            }
        }
    }
    if (list) {
        for (std::size_t i = 0; i < list->size(); ++i) {
            if (auto machine
                = readMachine((*list)[i], listName + "[" + std::to_string(i) + "]", in))
                result.machines.push_back(std::move(*machine));
        }
        if (list->empty())
            in.error(listName, "the list of machines is empty");
    } else if (auto machine = readMachine(document, "machine", in)) {
        result.machines.push_back(std::move(*machine));
    }
    return result;
}

std::string writeHardwareJson(const Hardware &hardware)
{
    return detail::dumpJson(detail::hardwareJson(hardware, false), 2) + "\n";
}

} // namespace ridgepoint
