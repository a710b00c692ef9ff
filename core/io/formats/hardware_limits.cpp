#include "core/io/formats/hardware_limits.h"

#include "core/io/formats/hardware_provenance.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <utility>

namespace ridgepoint::hardware_limits {
namespace {

using Json = nlohmann::json;

constexpr std::array<std::string_view, 6> kPer { "sm", "cu", "core", "xcd", "die", "chip" };

// A figure's own provenance: its "provenance" object with a "source" beside it laid under it.
Provenance ownProvenance(const Json &item, const std::string &at, JsonSchema &in)
{
    return hardware_provenance::ceilingProvenance(item, at, Provenance {}, in);
}

// A positive number of watts or joules (no unit strings: they have no Dimension).
std::optional<double> positiveNumber(
    const Json &value, const std::string &path, const char *expected, JsonSchema &in)
{
    if (!value.is_number()) {
        in.error(path, std::string("expected ") + expected + ", found " + value.type_name());
        return std::nullopt;
    }
    const double number = value.get<double>();
    if (!(number > 0.0) || !std::isfinite(number)) {
        in.error(path, "must be greater than zero");
        return std::nullopt;
    }
    return number;
}

// "level": one of the memory levels, or an error naming the ones there are.
std::optional<MemoryLevel> levelOf(const Json &item, const std::string &at, JsonSchema &in)
{
    const std::string name = in.text(item, at, "level", true);
    if (auto level = memoryLevelFromName(name))
        return level;
    if (!name.empty())
        in.error(at + ".level",
            "unknown level \"" + name
                + "\" (expected L1, L2, L3, DRAM, HBM, PCIe, NVLink, ICI, DCN or LDS)");
    return std::nullopt;
}

// The items of the array at `key`, each read by `read(item, path)`.
template<typename Read>
void forEachItem(const Json &machine, const std::string &where, const char *key,
    const char *expected, JsonSchema &in, Read read)
{
    const auto list = machine.find(key);
    if (list == machine.end())
        return;
    if (!list->is_array()) {
        in.error(where + "." + key, std::string("expected ") + expected);
        return;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        const std::string at = where + "." + key + "[" + std::to_string(i) + "]";
        if (!(*list)[i].is_object())
            in.error(at, std::string("expected an object, found ") + (*list)[i].type_name());
        else
            read((*list)[i], at);
    }
}

void readCapacities(
    const Json &machine, const std::string &where, JsonSchema &in, MachineLimits &limits)
{
    forEachItem(machine, where, "capacities", "an array of {level, capacity, per}", in,
        [&](const Json &item, const std::string &at) {
            in.checkKeys(item, at, { "level", "name", "capacity", "per", "source", "provenance" });
            MemoryCapacity capacity;
            const auto level = levelOf(item, at, in);
            capacity.name = in.text(item, at, "name", false);
            capacity.bytes = in.quantity(item, at, "capacity", Dimension::Bytes);
            capacity.per = in.text(item, at, "per", false);
            if (!capacity.per.empty()
                && std::find(kPer.begin(), kPer.end(), capacity.per) == kPer.end())
                in.error(at + ".per",
                    "unknown \"" + capacity.per + "\" (expected sm, cu, core, xcd, die or chip)");
            capacity.provenance = ownProvenance(item, at, in);
            if (level) {
                capacity.level = *level;
                limits.capacities.push_back(std::move(capacity));
            }
        });
}

LatencyFigure latencyFigure(const Json &item, const std::string &at, JsonSchema &in)
{
    LatencyFigure figure;
    figure.seconds = in.quantity(item, at, "seconds", Dimension::Time);
    figure.provenance = ownProvenance(item, at, in);
    return figure;
}

void readLatencies(
    const Json &machine, const std::string &where, JsonSchema &in, MachineLimits &limits)
{
    if (const auto launch = machine.find("launch_latency"); launch != machine.end()) {
        const std::string at = where + ".launch_latency";
        if (!launch->is_object()) {
            in.error(at,
                std::string("expected {\"seconds\": \"5 us\", \"provenance\": {...}}, found ")
                    + launch->type_name());
        } else {
            in.checkKeys(*launch, at, { "seconds", "source", "provenance" });
            limits.launchLatency = latencyFigure(*launch, at, in);
        }
    }
    forEachItem(machine, where, "latencies", "an array of {level, seconds}", in,
        [&](const Json &item, const std::string &at) {
            in.checkKeys(item, at, { "level", "seconds", "source", "provenance" });
            const auto level = levelOf(item, at, in);
            LatencyFigure figure = latencyFigure(item, at, in);
            if (level) {
                figure.level = *level;
                limits.levelLatencies.push_back(std::move(figure));
            }
        });
}

// "compute_units": {"count": 132, "kind": "sm", "provenance": {...}}.
void readComputeUnits(
    const Json &machine, const std::string &where, JsonSchema &in, MachineLimits &limits)
{
    const auto units = machine.find("compute_units");
    if (units == machine.end())
        return;
    const std::string at = where + ".compute_units";
    if (!units->is_object()) {
        in.error(at,
            std::string("expected {\"count\": 132, \"kind\": \"sm\"}, found ")
                + units->type_name());
        return;
    }
    in.checkKeys(*units, at, { "count", "kind", "source", "provenance" });
    const auto count = units->find("count");
    if (count == units->end() || !count->is_number_integer()) {
        in.error(at + ".count", "expected a whole number of SMs, CUs or cores");
        return;
    }
    ComputeUnits out;
    out.count = count->get<std::int64_t>();
    out.kind = in.text(*units, at, "kind", true);
    out.provenance = ownProvenance(*units, at, in);
    limits.computeUnits = std::move(out);
}

// "per_flop": {"bf16": 1e-12, ...} or "per_byte": {"HBM": 1e-11, ...}, keys read by `keyOf`.
template<typename Key, typename KeyOf>
void readPerUnit(const Json &energy, const std::string &at, const char *name, const char *known,
    JsonSchema &in, std::vector<std::pair<Key, double>> &out, KeyOf keyOf)
{
    const auto table = energy.find(name);
    if (table == energy.end())
        return;
    const std::string path = at + "." + name;
    if (!table->is_object()) {
        in.error(path, std::string("expected an object of joules by ") + known);
        return;
    }
    for (const auto &[key, value] : table->items()) {
        const auto parsed = keyOf(key);
        if (!parsed) {
            in.error(path, "unknown key \"" + key + "\" (expected " + known + ")");
            continue;
        }
        if (auto joules = positiveNumber(value, path + "." + key, "a number of joules", in))
            out.emplace_back(*parsed, *joules);
    }
}

void readEnergy(
    const Json &machine, const std::string &where, JsonSchema &in, MachineLimits &limits)
{
    const auto energy = machine.find("energy");
    if (energy == machine.end())
        return;
    const std::string at = where + ".energy";
    if (!energy->is_object()) {
        in.error(at, std::string("expected an object, found ") + energy->type_name());
        return;
    }
    in.checkKeys(*energy, at,
        { "static_watts", "power_cap_watts", "per_flop", "per_byte", "source", "provenance" });
    EnergyModel model;
    if (const auto it = energy->find("static_watts"); it != energy->end())
        model.staticWatts = positiveNumber(*it, at + ".static_watts", "a number of watts", in);
    if (const auto it = energy->find("power_cap_watts"); it != energy->end())
        model.powerCapWatts = positiveNumber(*it, at + ".power_cap_watts", "a number of watts", in);
    readPerUnit(*energy, at, "per_flop", "precision names (fp64, bf16, ...)", in, model.perFlop,
        [](const std::string &key) { return precisionFromName(key); });
    readPerUnit(*energy, at, "per_byte", "memory level names (HBM, L2, ...)", in, model.perByte,
        [](const std::string &key) { return memoryLevelFromName(key); });
    model.provenance = ownProvenance(*energy, at, in);
    limits.energy = std::move(model);
}

void writeProvenance(const Provenance &provenance, nlohmann::ordered_json &out)
{
    auto own = hardware_provenance::write(provenance);
    if (!own.empty())
        out["provenance"] = std::move(own);
}

nlohmann::ordered_json energyJson(const EnergyModel &energy)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    if (energy.staticWatts)
        out["static_watts"] = *energy.staticWatts;
    if (energy.powerCapWatts)
        out["power_cap_watts"] = *energy.powerCapWatts;
    if (!energy.perFlop.empty()) {
        nlohmann::ordered_json table = nlohmann::ordered_json::object();
        for (const auto &[precision, joules] : energy.perFlop)
            table[std::string(precisionName(precision))] = joules;
        out["per_flop"] = std::move(table);
    }
    if (!energy.perByte.empty()) {
        nlohmann::ordered_json table = nlohmann::ordered_json::object();
        for (const auto &[level, joules] : energy.perByte)
            table[std::string(memoryLevelName(level))] = joules;
        out["per_byte"] = std::move(table);
    }
    writeProvenance(energy.provenance, out);
    return out;
}

nlohmann::ordered_json capacitiesJson(const std::vector<MemoryCapacity> &capacities)
{
    auto list = nlohmann::ordered_json::array();
    for (const auto &capacity : capacities) {
        nlohmann::ordered_json c;
        c["level"] = memoryLevelName(capacity.level);
        if (!capacity.name.empty())
            c["name"] = capacity.name;
        c["capacity"] = capacity.bytes;
        if (!capacity.per.empty())
            c["per"] = capacity.per;
        writeProvenance(capacity.provenance, c);
        list.push_back(std::move(c));
    }
    return list;
}

} // namespace

MachineLimits read(const Json &machine, const std::string &where, JsonSchema &in)
{
    MachineLimits limits;
    readCapacities(machine, where, in, limits);
    readLatencies(machine, where, in, limits);
    readEnergy(machine, where, in, limits);
    readComputeUnits(machine, where, in, limits);
    return limits;
}

void write(const MachineLimits &limits, nlohmann::ordered_json &out)
{
    if (!limits.capacities.empty())
        out["capacities"] = capacitiesJson(limits.capacities);
    if (limits.launchLatency) {
        nlohmann::ordered_json l;
        l["seconds"] = limits.launchLatency->seconds;
        writeProvenance(limits.launchLatency->provenance, l);
        out["launch_latency"] = std::move(l);
    }
    if (!limits.levelLatencies.empty()) {
        auto list = nlohmann::ordered_json::array();
        for (const auto &latency : limits.levelLatencies) {
            nlohmann::ordered_json l;
            l["level"] = memoryLevelName(latency.level);
            l["seconds"] = latency.seconds;
            writeProvenance(latency.provenance, l);
            list.push_back(std::move(l));
        }
        out["latencies"] = std::move(list);
    }
    if (limits.energy)
        out["energy"] = energyJson(*limits.energy);
    if (limits.computeUnits) {
        nlohmann::ordered_json units;
        units["count"] = limits.computeUnits->count;
        units["kind"] = limits.computeUnits->kind;
        writeProvenance(limits.computeUnits->provenance, units);
        out["compute_units"] = std::move(units);
    }
}

} // namespace ridgepoint::hardware_limits
