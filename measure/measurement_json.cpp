// The hardware file of a measured machine: the machine as writeHardwareJson writes it plus a
// "measurement" object (the samples, plateaus and sweep behind it), and that object read back.
#include "measure/measure.h"

#include "core/io/formats/hardware_json.h"
#include "core/io/json_detail.h"

namespace ridgepoint {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json; // keeps the keys in the order written

Expected<ComputeSample, std::string> readComputeSample(const Json &c)
{
    ComputeSample s;
    const auto precision = precisionFromName(c.at("precision").get<std::string>());
    if (!precision)
        return Unexpected("measurement.compute: unknown precision " + c.at("precision").dump());
    s.precision = *precision;
    s.isa = c.at("isa").get<std::string>();
    s.simd = c.at("simd").get<bool>();
    s.fma = c.at("fma").get<bool>();
    s.threads = c.at("threads").get<int>();
    s.best = c.at("best").get<double>();
    s.median = c.at("median").get<double>();
    s.trials = c.at("trials").get<int>();
    return s;
}

Expected<PlateauRecord, std::string> readPlateauRecord(const Json &p)
{
    PlateauRecord r;
    const auto kernel = memoryKernelFromName(p.at("kernel").get<std::string>());
    const auto level = memoryLevelFromName(p.at("level").get<std::string>());
    if (!kernel || !level)
        return Unexpected("measurement.plateaus: unknown kernel or level in " + p.dump());
    r.kernel = *kernel;
    r.threads = p.at("threads").get<int>();
    r.plateau.level = *level;
    r.plateau.bandwidth = p.at("bandwidth").get<double>();
    r.plateau.maxBandwidth = p.at("max_bandwidth").get<double>();
    r.plateau.firstWorkingSet = p.at("first_working_set").get<std::uint64_t>();
    r.plateau.lastWorkingSet = p.at("last_working_set").get<std::uint64_t>();
    r.plateau.points = p.at("points").get<int>();
    return r;
}

Expected<BandwidthSample, std::string> readBandwidthSample(const Json &s)
{
    BandwidthSample sample;
    const auto kernel = memoryKernelFromName(s.at("kernel").get<std::string>());
    if (!kernel)
        return Unexpected("measurement.sweep: unknown kernel " + s.at("kernel").dump());
    sample.kernel = *kernel;
    sample.threads = s.at("threads").get<int>();
    sample.workingSet = s.at("working_set").get<std::uint64_t>();
    sample.best = s.at("best").get<double>();
    sample.median = s.at("median").get<double>();
    sample.trials = s.at("trials").get<int>();
    return sample;
}

// The cache sizes each team size's levels were named by (bytes; 0: not reported) and the rule.
OrderedJson labellingJson(const Measurement &m)
{
    auto teams = OrderedJson::array();
    for (const auto &basis : m.labelling) {
        teams.push_back({ { "threads", basis.threads }, { "l1", basis.caches.l1 },
            { "l2", basis.caches.l2 }, { "l3", basis.caches.l3 }, { "l4", basis.caches.l4 } });
    }
    return teams;
}

Expected<LabelBasis, std::string> readLabelBasis(const Json &b)
{
    LabelBasis basis;
    basis.threads = b.at("threads").get<int>();
    basis.caches.l1 = b.value("l1", std::uint64_t { 0 });
    basis.caches.l2 = b.value("l2", std::uint64_t { 0 });
    basis.caches.l3 = b.value("l3", std::uint64_t { 0 });
    basis.caches.l4 = b.value("l4", std::uint64_t { 0 });
    return basis;
}

// A run's energy: "compute" runs name the precision of their FLOPs, "memory" runs the kernel and
// working set of their bytes.
OrderedJson energySampleJson(const EnergySample &s)
{
    OrderedJson j;
    j["kind"] = s.compute ? "compute" : "memory";
    if (s.compute) {
        j["precision"] = precisionName(s.precision);
    } else {
        j["kernel"] = memoryKernelName(s.kernel);
        j["working_set"] = s.workingSet;
    }
    j["threads"] = s.threads;
    j["work"] = s.work;
    j["seconds"] = s.seconds;
    j["joules"] = s.joules;
    return j;
}

OrderedJson energyJson(const EnergyMeasurement &e)
{
    OrderedJson j;
    j["counters"] = e.counters;
    if (e.powerLimitWatts)
        j["power_limit_watts"] = *e.powerLimitWatts;
    j["unavailable"] = e.unavailable;
    auto samples = OrderedJson::array();
    for (const auto &s : e.samples)
        samples.push_back(energySampleJson(s));
    j["samples"] = std::move(samples);
    return j;
}

Expected<EnergySample, std::string> readEnergySample(const Json &j)
{
    EnergySample s;
    const auto kind = j.at("kind").get<std::string>();
    if (kind != "compute" && kind != "memory")
        return Unexpected("measurement.energy.samples: unknown kind " + j.at("kind").dump());
    s.compute = kind == "compute";
    if (s.compute) {
        const auto precision = precisionFromName(j.at("precision").get<std::string>());
        if (!precision)
            return Unexpected(
                "measurement.energy.samples: unknown precision " + j.at("precision").dump());
        s.precision = *precision;
    } else {
        const auto kernel = memoryKernelFromName(j.at("kernel").get<std::string>());
        if (!kernel)
            return Unexpected(
                "measurement.energy.samples: unknown kernel " + j.at("kernel").dump());
        s.kernel = *kernel;
        s.workingSet = j.at("working_set").get<std::uint64_t>();
    }
    s.threads = j.at("threads").get<int>();
    s.work = j.at("work").get<double>();
    s.seconds = j.at("seconds").get<double>();
    s.joules = j.at("joules").get<double>();
    return s;
}

// The scalar fields of the measurement object (those the lists do not hold).
void readMeasurementFields(const Json &j, Measurement &m)
{
    m.tool = j.value("tool", std::string());
    m.date = j.at("date").get<std::string>();
    m.host = j.at("host").get<std::string>();
    m.cpuModel = j.at("cpu_model").get<std::string>();
    m.cpuVendor = j.value("cpu_vendor", std::string());
    m.threads = j.at("threads").get<int>();
    m.hardwareThreads = j.value("hardware_threads", m.threads);
    m.isa = j.at("isa").get<std::string>();
    m.isas = j.value("isas", std::vector<std::string>());
    m.budgetSeconds = j.value("budget_seconds", 0.0);
    m.elapsedSeconds = j.value("elapsed_seconds", 0.0);
    m.byteCounting = j.value("byte_counting", std::string());
    m.writeAllocateCounted = j.at("write_allocate_counted").get<bool>();
    for (const auto &c : j.value("reported_caches", Json::array())) {
        m.reportedCaches.push_back({ c.at("level").get<int>(), c.at("type").get<std::string>(),
            c.at("size").get<std::uint64_t>(), c.at("shared_by").get<int>() });
    }
}

// Reads each element of the array `key` (absent: none) with `read` into `into`; the first
// element that fails gives the error.
template<typename T, typename Read>
std::optional<std::string> readList(const Json &j, const char *key, std::vector<T> &into, Read read)
{
    for (const auto &element : j.value(key, Json::array())) {
        auto value = read(element);
        if (!value)
            return value.error();
        into.push_back(std::move(*value));
    }
    return std::nullopt;
}

// Throws Json::exception on a missing or mistyped field; the error of an unknown name.
Expected<Measurement, std::string> readMeasurementObject(const Json &j)
{
    Measurement m;
    readMeasurementFields(j, m);
    if (auto error = readList(j, "compute", m.compute, readComputeSample))
        return Unexpected(std::move(*error));
    if (auto error = readList(j, "plateaus", m.plateaus, readPlateauRecord))
        return Unexpected(std::move(*error));
    if (auto error = readList(j, "sweep", m.sweep, readBandwidthSample))
        return Unexpected(std::move(*error));
    if (auto error = readList(j, "labelling", m.labelling, readLabelBasis))
        return Unexpected(std::move(*error));
    m.warnings = j.value("warnings", std::vector<std::string>());
    if (const auto energy = j.find("energy"); energy != j.end()) {
        m.energy.counters = energy->value("counters", std::string());
        if (const auto limit = energy->find("power_limit_watts"); limit != energy->end())
            m.energy.powerLimitWatts = limit->get<double>();
        m.energy.unavailable = energy->value("unavailable", std::string());
        if (auto error = readList(*energy, "samples", m.energy.samples, readEnergySample))
            return Unexpected(std::move(*error));
    }
    if (const auto spec = j.find("spec"); spec != j.end()) {
        auto read = readHardwareJson(spec->dump(), "measurement.spec");
        if (read.machines.size() != 1)
            return Unexpected(std::string("measurement.spec: not a machine"));
        m.spec = std::move(read.machines.front());
    }
    return m;
}

} // namespace

std::string writeMeasuredHardwareJson(const Hardware &hardware, const Measurement &m)
{
    OrderedJson out = detail::hardwareJson(hardware, false);
    OrderedJson meas;
    meas["tool"] = m.tool.empty() ? std::string("ridgepoint measure") : m.tool;
    meas["date"] = m.date;
    meas["host"] = m.host;
    meas["cpu_model"] = m.cpuModel;
    meas["cpu_vendor"] = m.cpuVendor;
    meas["threads"] = m.threads;
    meas["hardware_threads"] = m.hardwareThreads;
    meas["isa"] = m.isa;
    meas["isas"] = m.isas;
    meas["budget_seconds"] = m.budgetSeconds;
    meas["elapsed_seconds"] = m.elapsedSeconds;
    meas["byte_counting"] = m.byteCounting;
    meas["write_allocate_counted"] = m.writeAllocateCounted;
    auto caches = OrderedJson::array();
    for (const auto &c : m.reportedCaches)
        caches.push_back({ { "level", c.level }, { "type", c.type }, { "size", c.size },
            { "shared_by", c.sharedBy } });
    meas["reported_caches"] = std::move(caches);
    auto compute = OrderedJson::array();
    for (const auto &c : m.compute) {
        compute.push_back({ { "precision", precisionName(c.precision) }, { "isa", c.isa },
            { "simd", c.simd }, { "fma", c.fma }, { "threads", c.threads }, { "best", c.best },
            { "median", c.median }, { "trials", c.trials } });
    }
    meas["compute"] = std::move(compute);
    auto plateaus = OrderedJson::array();
    for (const auto &p : m.plateaus) {
        plateaus.push_back({ { "kernel", memoryKernelName(p.kernel) }, { "threads", p.threads },
            { "level", memoryLevelName(p.plateau.level) }, { "bandwidth", p.plateau.bandwidth },
            { "max_bandwidth", p.plateau.maxBandwidth },
            { "first_working_set", p.plateau.firstWorkingSet },
            { "last_working_set", p.plateau.lastWorkingSet }, { "points", p.plateau.points } });
    }
    meas["plateaus"] = std::move(plateaus);
    meas["labelling"] = labellingJson(m);
    meas["warnings"] = m.warnings;
    auto sweep = OrderedJson::array();
    for (const auto &s : m.sweep) {
        sweep.push_back({ { "kernel", memoryKernelName(s.kernel) }, { "threads", s.threads },
            { "working_set", s.workingSet }, { "best", s.best }, { "median", s.median },
            { "trials", s.trials } });
    }
    meas["sweep"] = std::move(sweep);
    meas["energy"] = energyJson(m.energy);
    if (m.spec)
        meas["spec"] = detail::hardwareJson(*m.spec, false);
    out["measurement"] = std::move(meas);
    return out.dump(2) + "\n";
}

Expected<Measurement, std::string> readMeasurementJson(const std::string &text)
{
    // The readers' one parser: no exception, and nesting past detail::kMaxJsonDepth refused.
    std::vector<Diagnostic> problems;
    auto parsed = detail::parseJson<Json>(text, "measurement", problems);
    if (!parsed)
        return Unexpected(
            problems.empty() ? std::string("not valid JSON") : problems.front().toString());
    Json root = std::move(*parsed);
    if (!root.is_object() || !root.contains("measurement") || !root["measurement"].is_object())
        return Unexpected(std::string("no \"measurement\" object"));
    try {
        return readMeasurementObject(root["measurement"]);
    } catch (const Json::exception &error) {
        return Unexpected(std::string("measurement: ") + error.what());
    }
}

} // namespace ridgepoint
