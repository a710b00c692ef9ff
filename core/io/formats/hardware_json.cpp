#include "core/io/formats/hardware_json.h"

#include "core/calibrate/calibration_json.h"
#include "core/io/formats/hardware_limits.h"
#include "core/io/formats/hardware_provenance.h"
#include "core/io/json_detail.h"
#include "core/io/json_schema.h"
#include "core/io/sniff.h"
#include "core/model/units.h"

#include <initializer_list>
#include <iterator>
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
        c["sparsity"] = ceiling.sparse ? "2:4" : "dense";
        if (ceiling.sustainedFraction)
            c["sustained_fraction"] = *ceiling.sustainedFraction;
        if (!ceiling.visible)
            c["visible"] = false;
        hardware_provenance::writeCeilingExtras(ceiling, "peak", c);
        compute.push_back(std::move(c));
    }
    out["compute"] = std::move(compute);
    auto memory = nlohmann::ordered_json::array();
    for (const auto &ceiling : hardware.memory) {
        nlohmann::ordered_json m;
        m["name"] = ceiling.name;
        m["level"] = memoryLevelName(ceiling.level);
        m["bandwidth"] = ceiling.bandwidth;
        if (isNetwork(ceiling.level))
            m["direction"] = "each"; // what the reader keeps (docs/PRESETS.md, "Links")
        if (ceiling.sustainedFraction)
            m["sustained_fraction"] = *ceiling.sustainedFraction;
        if (!ceiling.visible)
            m["visible"] = false;
        hardware_provenance::writeCeilingExtras(ceiling, "bandwidth", m);
        memory.push_back(std::move(m));
    }
    out["memory"] = std::move(memory);
    if (hardware.calibration)
        out["calibration"] = calibrationJson(*hardware.calibration);
    hardware_limits::write(hardware.limits, out);
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

// One compute ceiling of a machine's "compute" list.
std::optional<ComputeCeiling> computeCeiling(
    const Json &item, const std::string &at, const Provenance &defaults, JsonSchema &in)
{
    if (!item.is_object()) {
        in.error(at, "expected an object with name, precision and peak");
        return std::nullopt;
    }
    in.checkKeys(item, at,
        { "name", "precision", "unit", "peak", "sparse", "sparsity", "sustained_fraction",
            "visible", "source", "provenance", "alternate" });
    ComputeCeiling ceiling;
    ceiling.name = in.text(item, at, "name", true);
    const std::string precision = in.text(item, at, "precision", true);
    if (auto p = precisionFromName(precision))
        ceiling.precision = *p;
    else if (!precision.empty())
        in.error(at + ".precision",
            "unknown precision \"" + precision
                + "\" (expected fp64, fp32, tf32, bf16, fp16, fp8, fp6, fp4, int8 or int4)");
    ceiling.unit = in.text(item, at, "unit", false);
    ceiling.peak = in.quantity(item, at, "peak", Dimension::FlopRate);
    ceiling.sparse = hardware_provenance::readSparsity(item, at, in);
    ceiling.visible = in.flag(item, at, "visible", true);
    ceiling.sustainedFraction = in.fraction(item, at);
    ceiling.provenance = hardware_provenance::ceilingProvenance(item, at, defaults, in);
    ceiling.alternate
        = hardware_provenance::readAlternate(item, at, "peak", Dimension::FlopRate, in);
    return ceiling;
}

// A link's "direction": "each" (what one chip sends one way, while it receives as much) or "both"
// (the two directions added, as NVIDIA and Google print NVLink and ICI). Every figure is kept
// per direction, so links compare and a collective's bytes meet the figure they move at: a
// "both" figure is halved here, and the formula says so. A link without one is taken as "each".
void readDirection(const Json &item, const std::string &at, JsonSchema &in, MemoryCeiling &ceiling)
{
    const std::string direction = in.text(item, at, "direction", false);
    if (direction.empty())
        return;
    if (!isNetwork(ceiling.level)) {
        in.error(at + ".direction",
            "a direction is for links (PCIe, NVLink, ICI, DCN), not "
                + std::string(memoryLevelName(ceiling.level)));
        return;
    }
    if (direction == "each")
        return;
    if (direction != "both") {
        in.error(at + ".direction",
            "unknown direction \"" + direction
                + "\" (expected each: one way, or both: the two directions added)");
        return;
    }
    const std::string stated = formatQuantity(ceiling.bandwidth, Dimension::ByteRate);
    ceiling.bandwidth /= 2.0;
    if (ceiling.alternate)
        ceiling.alternate->value /= 2.0;
    std::string &formula = ceiling.provenance.formula;
    formula = (formula.empty() ? stated : "(" + formula + ")") + " both directions / 2 = "
        + formatQuantity(ceiling.bandwidth, Dimension::ByteRate) + " each way";
}

// One memory ceiling of a machine's "memory" list.
std::optional<MemoryCeiling> memoryCeiling(
    const Json &item, const std::string &at, const Provenance &defaults, JsonSchema &in)
{
    if (!item.is_object()) {
        in.error(at, "expected an object with name, level and bandwidth");
        return std::nullopt;
    }
    in.checkKeys(item, at,
        { "name", "level", "bandwidth", "direction", "sustained_fraction", "visible", "source",
            "provenance", "alternate" });
    MemoryCeiling ceiling;
    ceiling.name = in.text(item, at, "name", true);
    const std::string level = in.text(item, at, "level", true);
    if (auto l = memoryLevelFromName(level))
        ceiling.level = *l;
    else if (!level.empty())
        in.error(at + ".level",
            "unknown level \"" + level
                + "\" (expected L1, L2, L3, DRAM, HBM, PCIe, NVLink, ICI, DCN or LDS)");
    ceiling.bandwidth = in.quantity(item, at, "bandwidth", Dimension::ByteRate);
    ceiling.visible = in.flag(item, at, "visible", true);
    ceiling.sustainedFraction = in.fraction(item, at);
    ceiling.provenance = hardware_provenance::ceilingProvenance(item, at, defaults, in);
    ceiling.alternate
        = hardware_provenance::readAlternate(item, at, "bandwidth", Dimension::ByteRate, in);
    if (ceiling.bandwidth > 0.0)
        readDirection(item, at, in, ceiling);
    return ceiling;
}

// The "compute" or "memory" list, each item read by `read`.
template<typename Ceiling, typename Read>
void readCeilings(const Json &object, const std::string &where, const char *key,
    const char *expected, const Provenance &defaults, JsonSchema &in, std::vector<Ceiling> &out,
    Read read)
{
    const auto list = object.find(key);
    if (list == object.end() || !list->is_array()) {
        in.error(where, std::string("missing \"") + key + "\" (expected " + expected + ")");
        return;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        if (auto ceiling
            = read((*list)[i], where + "." + key + "[" + std::to_string(i) + "]", defaults, in))
            out.push_back(std::move(*ceiling));
    }
}

// "format" and "version", when given, must be this format's. The version the file is written
// in: 1 when it says none (files from before versions were written).
int checkFormatAndVersion(const Json &object, const std::string &path, JsonSchema &in)
{
    int written = 1;
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
        else if (version->get<double>() >= 2)
            written = version->get<int>();
    }
    return written;
}

void readAliases(const Json &object, const std::string &where, JsonSchema &in, Hardware &hw)
{
    const auto aliases = object.find("aliases");
    if (aliases == object.end())
        return;
    if (!aliases->is_array()) {
        in.error(where + ".aliases", "expected an array of strings");
        return;
    }
    for (const auto &alias : *aliases) {
        if (alias.is_string())
            hw.aliases.push_back(alias.get<std::string>());
        else
            in.error(where + ".aliases", "expected an array of strings");
    }
}

std::optional<Hardware> readMachine(const Json &object, const std::string &path, JsonSchema &in)
{
    in.reset();
    if (!object.is_object()) {
        in.error(path, std::string("expected a machine object, found ") + object.type_name());
        return std::nullopt;
    }
    std::vector<std::string_view> keys { "format", "version", "name", "aliases", "vendor", "kind",
        "source", "notes", "sustained_fraction", "default_compute", "compute", "memory", "ridges",
        "measurement", "provenance", "calibration" };
    keys.insert(keys.end(), std::begin(hardware_limits::kKeys), std::end(hardware_limits::kKeys));
    in.checkKeys(object, path, keys);
    const int version = checkFormatAndVersion(object, path, in);

    Hardware hw;
    hw.name = in.text(object, path, "name", true);
    const std::string where = path + (hw.name.empty() ? "" : " (" + hw.name + ")");
    hw.vendor = in.text(object, where, "vendor", false);
    hw.kind = in.text(object, where, "kind", false);
    hw.source = in.text(object, where, "source", false);
    hw.notes = in.text(object, where, "notes", false);
    hw.defaultCompute = in.text(object, where, "default_compute", false);
    hw.sustainedFraction = in.fraction(object, where);
    readAliases(object, where, in, hw);
    if (auto calibration = readCalibrationJson(object, where, in))
        hw.calibration = std::move(*calibration);
    const Provenance defaults
        = hardware_provenance::machineDefaults(object, where, version, hw.source, in);
    readCeilings(object, where, "compute", "an array of compute ceilings", defaults, in, hw.compute,
        computeCeiling);
    readCeilings(object, where, "memory", "an array of memory ceilings", defaults, in, hw.memory,
        memoryCeiling);
    hw.limits = hardware_limits::read(object, where, in);
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

    JsonSchema in(fileName, result.diagnostics);
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
