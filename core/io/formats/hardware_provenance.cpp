#include "core/io/formats/hardware_provenance.h"

#include <array>
#include <cctype>
#include <cmath>
#include <string_view>

namespace ridgepoint::hardware_provenance {
namespace {

using Json = nlohmann::json;

constexpr std::array<std::string_view, 3> kClocks { "base", "boost", "sustained" };
constexpr std::array<std::string_view, 6> kScopes { "die", "package", "node", "chip", "core",
    "socket" };

template<std::size_t N>
bool oneOf(const std::array<std::string_view, N> &list, const std::string &s)
{
    for (const auto item : list) {
        if (item == s)
            return true;
    }
    return false;
}

// "2026-11-26": four digits, a dash, two, a dash, two, with a month 01..12 and a day 01..31.
bool isIsoDate(const std::string &s)
{
    if (s.size() != 10 || s[4] != '-' || s[7] != '-')
        return false;
    for (std::size_t i : { 0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u }) {
        if (!std::isdigit(static_cast<unsigned char>(s[i])))
            return false;
    }
    const int month = (s[5] - '0') * 10 + (s[6] - '0');
    const int day = (s[8] - '0') * 10 + (s[9] - '0');
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

void readBasis(const Json &object, const std::string &path, JsonSchema &in, Provenance &p)
{
    const std::string basis = in.text(object, path, "basis", false);
    if (basis.empty())
        return;
    if (auto b = basisFromName(basis))
        p.basis = *b;
    else
        in.error(path + ".basis",
            "unknown basis \"" + basis + "\" (expected spec, derived or measured)");
}

void readClockMHz(const Json &object, const std::string &path, JsonSchema &in, Provenance &p)
{
    const auto it = object.find("clock_mhz");
    if (it == object.end())
        return;
    const double mhz = it->is_number() ? it->get<double>() : 0.0;
    if (!it->is_number() || !std::isfinite(mhz) || !(mhz > 0.0)) {
        in.error(path + ".clock_mhz", "expected a positive number of MHz");
        return;
    }
    p.clockMHz = mhz;
}

} // namespace

Provenance read(const Json &object, const std::string &path, JsonSchema &in)
{
    Provenance p;
    if (!object.is_object()) {
        in.error(path, std::string("expected an object, found ") + object.type_name());
        return p;
    }
    in.checkKeys(object, path, std::vector<std::string_view>(std::begin(kKeys), std::end(kKeys)));
    readBasis(object, path, in, p);
    p.source = in.text(object, path, "source", false);
    p.url = in.text(object, path, "url", false);
    p.accessed = in.text(object, path, "accessed", false);
    if (!p.accessed.empty() && !isIsoDate(p.accessed))
        in.warning(path + ".accessed", "expected a date YYYY-MM-DD, found \"" + p.accessed + "\"");
    p.formula = in.text(object, path, "formula", false);
    p.tool = in.text(object, path, "tool", false);
    p.date = in.text(object, path, "date", false);
    p.host = in.text(object, path, "host", false);
    p.clock = in.text(object, path, "clock", false);
    if (!p.clock.empty() && !oneOf(kClocks, p.clock))
        in.warning(path + ".clock",
            "unknown clock \"" + p.clock + "\" (expected base, boost or sustained)");
    readClockMHz(object, path, in, p);
    p.scope = in.text(object, path, "scope", false);
    if (!p.scope.empty() && !oneOf(kScopes, p.scope))
        in.warning(path + ".scope",
            "unknown scope \"" + p.scope
                + "\" (expected die, package, node, chip, core or socket)");
    p.notes = in.text(object, path, "notes", false);
    return p;
}

Provenance merged(const Provenance &defaults, const Provenance &own)
{
    Provenance out = defaults;
    if (own.basis != Basis::Unstated)
        out.basis = own.basis;
    const auto take = [](std::string &into, const std::string &from) {
        if (!from.empty())
            into = from;
    };
    take(out.source, own.source);
    take(out.url, own.url);
    take(out.accessed, own.accessed);
    take(out.formula, own.formula);
    take(out.tool, own.tool);
    take(out.date, own.date);
    take(out.host, own.host);
    take(out.clock, own.clock);
    if (own.clockMHz)
        out.clockMHz = own.clockMHz;
    take(out.scope, own.scope);
    take(out.notes, own.notes);
    return out;
}

Provenance machineDefaults(const Json &machine, const std::string &where, int version,
    const std::string &machineSource, JsonSchema &in)
{
    Provenance base;
    if (version < 2)
        base.source = machineSource;
    // A version 2 file says its basis itself (`ridgepoint measure` writes it); only older ones
    // are taken to be measured for carrying a "measurement".
    const auto m = machine.find("measurement");
    if (version < 2 && m != machine.end() && m->is_object()) {
        base.basis = Basis::Measured;
        const auto textOf = [&m](const char *key) {
            const auto it = m->find(key);
            return it != m->end() && it->is_string() ? it->get<std::string>() : std::string();
        };
        base.tool = textOf("tool");
        base.date = textOf("date");
        base.host = textOf("host");
    }
    if (const auto p = machine.find("provenance"); p != machine.end())
        base = merged(base, read(*p, where + ".provenance", in));
    return base;
}

Provenance ceilingProvenance(
    const Json &ceiling, const std::string &at, const Provenance &defaults, JsonSchema &in)
{
    Provenance own;
    own.source = in.text(ceiling, at, "source", false);
    if (const auto p = ceiling.find("provenance"); p != ceiling.end())
        own = merged(own, read(*p, at + ".provenance", in));
    return merged(defaults, own);
}

bool readSparsity(const Json &ceiling, const std::string &at, JsonSchema &in)
{
    const bool old = in.flag(ceiling, at, "sparse", false);
    const auto it = ceiling.find("sparsity");
    if (it == ceiling.end())
        return old;
    const std::string sparsity = it->is_string() ? it->get<std::string>() : std::string();
    if (sparsity != "dense" && sparsity != "2:4") {
        in.error(at + ".sparsity",
            "expected \"dense\" or \"2:4\", found "
                + (it->is_string() ? "\"" + sparsity + "\"" : std::string(it->type_name())));
        return old;
    }
    const bool sparse = sparsity == "2:4";
    if (ceiling.contains("sparse") && old != sparse)
        in.error(at + ".sparse", "contradicts \"sparsity\": \"" + sparsity + "\"");
    return sparse;
}

std::optional<AlternateFigure> readAlternate(const Json &ceiling, const std::string &at,
    const char *valueKey, Dimension dimension, JsonSchema &in)
{
    const auto it = ceiling.find("alternate");
    if (it == ceiling.end())
        return std::nullopt;
    const std::string path = at + ".alternate";
    if (!it->is_object()) {
        in.error(path,
            std::string("expected {\"") + valueKey + "\": value, \"provenance\": {...}}, found "
                + it->type_name());
        return std::nullopt;
    }
    in.checkKeys(*it, path, { valueKey, "provenance" });
    AlternateFigure alternate;
    alternate.value = in.quantity(*it, path, valueKey, dimension);
    if (const auto p = it->find("provenance"); p != it->end())
        alternate.provenance = read(*p, path + ".provenance", in);
    return alternate;
}

nlohmann::ordered_json write(const Provenance &p)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    if (p.basis != Basis::Unstated)
        out["basis"] = basisName(p.basis);
    const auto put = [&out](const char *key, const std::string &value) {
        if (!value.empty())
            out[key] = value;
    };
    put("source", p.source);
    put("url", p.url);
    put("accessed", p.accessed);
    put("formula", p.formula);
    put("tool", p.tool);
    put("date", p.date);
    put("host", p.host);
    put("clock", p.clock);
    if (p.clockMHz)
        out["clock_mhz"] = *p.clockMHz;
    put("scope", p.scope);
    put("notes", p.notes);
    return out;
}

} // namespace ridgepoint::hardware_provenance
