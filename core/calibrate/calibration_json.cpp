// The "calibration" object of a hardware file (docs/FILES.md, "Calibration").
#include "core/calibrate/calibration_json.h"

#include <cmath>

namespace ridgepoint {
namespace {

using Json = nlohmann::json;

nlohmann::ordered_json errorJson(const FitError &error)
{
    nlohmann::ordered_json out;
    out["rows"] = error.rows;
    out["median"] = error.median;
    out["p90"] = error.p90;
    return out;
}

nlohmann::ordered_json kernelJson(const KernelFit &fit)
{
    nlohmann::ordered_json out;
    out["name"] = fit.name;
    out["class"] = std::string(operatorClassName(fit.kind));
    out["basis"] = std::string(kCalibratedBasis);
    out["compute_fraction"] = fit.computeFraction;
    out["memory_fraction"] = fit.memoryFraction;
    out["floor"] = fit.floorSeconds;
    if (fit.operandCost > 0.0)
        out["operand_cost"] = fit.operandCost;
    if (fit.overlapLoss > 0.0)
        out["overlap_loss"] = fit.overlapLoss;
    out["fit_error"] = errorJson(fit.error);
    return out;
}

nlohmann::ordered_json collectiveJson(const CollectiveFit &fit)
{
    nlohmann::ordered_json out;
    out["collective"] = fit.collective;
    out["ranks"] = fit.ranks;
    out["ranks_per_node"] = fit.ranksPerNode;
    out["basis"] = std::string(kCalibratedBasis);
    auto regimes = nlohmann::ordered_json::array();
    for (const CollectiveRegime &regime : fit.regimes) {
        nlohmann::ordered_json r;
        r["from_bytes"] = regime.fromBytes;
        r["to_bytes"] = regime.toBytes;
        r["latency"] = regime.latencySeconds;
        if (regime.busBandwidth)
            r["bus_bandwidth"] = *regime.busBandwidth;
        regimes.push_back(std::move(r));
    }
    out["regimes"] = std::move(regimes);
    out["fit_error"] = errorJson(fit.error);
    return out;
}

// A number member: finite, ≥ 0 (> 0 when `positive`, ≤ 1 when `fraction`).
double number(const Json &object, const std::string &at, const char *key, JsonSchema &in,
    bool positive = false, bool fraction = false)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number()) {
        in.error(at + "." + key, "expected a number");
        return 0.0;
    }
    const double value = it->get<double>();
    if (!std::isfinite(value) || value < 0.0 || (positive && value == 0.0)
        || (fraction && value > 1.0)) {
        in.error(at + "." + key,
            std::string("expected a ")
                + (fraction        ? "fraction in (0, 1]"
                        : positive ? "positive number"
                                   : "number ≥ 0"));
        return 0.0;
    }
    return value;
}

std::string text(const Json &object, const std::string &at, const char *key, JsonSchema &in)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_string()) {
        in.error(at + "." + key, "expected a string");
        return {};
    }
    return it->get<std::string>();
}

const Json *list(const Json &object, const std::string &at, const char *key, JsonSchema &in)
{
    const auto it = object.find(key);
    if (it == object.end())
        return nullptr;
    if (!it->is_array()) {
        in.error(at + "." + key, "expected an array");
        return nullptr;
    }
    return &*it;
}

FitError readError(const Json &object, const std::string &at, JsonSchema &in)
{
    FitError error;
    const auto it = object.find("fit_error");
    if (it == object.end() || !it->is_object()) {
        in.error(at + ".fit_error", "expected an object with rows, median and p90");
        return error;
    }
    error.rows = static_cast<std::size_t>(number(*it, at + ".fit_error", "rows", in));
    error.median = number(*it, at + ".fit_error", "median", in);
    error.p90 = number(*it, at + ".fit_error", "p90", in);
    return error;
}

void checkBasis(const Json &object, const std::string &at, JsonSchema &in)
{
    if (text(object, at, "basis", in) != kCalibratedBasis)
        in.error(at + ".basis", "expected \"calibrated\"");
}

KernelFit readKernel(const Json &item, const std::string &at, JsonSchema &in)
{
    KernelFit fit;
    if (!item.is_object()) {
        in.error(at, "expected an object");
        return fit;
    }
    in.checkKeys(item, at,
        { "name", "class", "basis", "compute_fraction", "memory_fraction", "floor", "operand_cost",
            "overlap_loss", "fit_error" });
    fit.name = text(item, at, "name", in);
    const std::string kind = text(item, at, "class", in);
    if (auto known = operatorClassFromName(kind))
        fit.kind = *known;
    else
        in.error(at + ".class", "expected gemm, attention, elementwise or collective");
    checkBasis(item, at, in);
    fit.computeFraction = number(item, at, "compute_fraction", in, true, true);
    fit.memoryFraction = number(item, at, "memory_fraction", in, true, true);
    fit.floorSeconds = number(item, at, "floor", in);
    if (item.contains("operand_cost"))
        fit.operandCost = number(item, at, "operand_cost", in);
    if (item.contains("overlap_loss"))
        fit.overlapLoss = number(item, at, "overlap_loss", in, false, true);
    fit.error = readError(item, at, in);
    return fit;
}

CollectiveFit readCollective(const Json &item, const std::string &at, JsonSchema &in)
{
    CollectiveFit fit;
    if (!item.is_object()) {
        in.error(at, "expected an object");
        return fit;
    }
    in.checkKeys(
        item, at, { "collective", "ranks", "ranks_per_node", "basis", "regimes", "fit_error" });
    fit.collective = text(item, at, "collective", in);
    fit.ranks = static_cast<std::int64_t>(number(item, at, "ranks", in, true));
    fit.ranksPerNode = static_cast<std::int64_t>(number(item, at, "ranks_per_node", in));
    checkBasis(item, at, in);
    if (const Json *regimes = list(item, at, "regimes", in)) {
        for (std::size_t i = 0; i < regimes->size(); ++i) {
            const Json &r = (*regimes)[i];
            const std::string where = at + ".regimes[" + std::to_string(i) + "]";
            CollectiveRegime regime;
            regime.fromBytes = number(r, where, "from_bytes", in);
            regime.toBytes = number(r, where, "to_bytes", in);
            regime.latencySeconds = number(r, where, "latency", in);
            if (r.contains("bus_bandwidth"))
                regime.busBandwidth = number(r, where, "bus_bandwidth", in, true);
            fit.regimes.push_back(regime);
        }
    }
    if (fit.regimes.empty())
        in.error(at + ".regimes", "expected at least one regime");
    fit.error = readError(item, at, in);
    return fit;
}

void readProvenance(const Json &object, const std::string &at, JsonSchema &in, Calibration &out)
{
    const auto it = object.find("provenance");
    if (it == object.end() || !it->is_object()) {
        in.error(at + ".provenance", "expected an object with files, rows_used and fit_error");
        return;
    }
    const std::string where = at + ".provenance";
    if (const Json *files = list(*it, where, "files", in)) {
        for (const Json &file : *files) {
            if (file.is_string())
                out.files.push_back(file.get<std::string>());
            else
                in.error(where + ".files", "expected an array of strings");
        }
    }
    out.rowsUsed = static_cast<std::size_t>(number(*it, where, "rows_used", in));
    out.rowsLeftOut = static_cast<std::size_t>(number(*it, where, "rows_left_out", in));
    out.error = readError(*it, where, in);
}

} // namespace

nlohmann::ordered_json calibrationJson(const Calibration &calibration)
{
    nlohmann::ordered_json out;
    out["basis"] = std::string(kCalibratedBasis);
    nlohmann::ordered_json provenance;
    provenance["files"] = calibration.files;
    provenance["rows_used"] = calibration.rowsUsed;
    provenance["rows_left_out"] = calibration.rowsLeftOut;
    provenance["fit_error"] = errorJson(calibration.error);
    out["provenance"] = std::move(provenance);
    out["compute_ceiling"] = calibration.computeCeiling;
    out["peak"] = calibration.peak;
    out["memory_ceiling"] = calibration.memoryCeiling;
    out["bandwidth"] = calibration.bandwidth;
    out["sms"] = calibration.sms;
    out["tile_m"] = calibration.tileM;
    out["tile_n"] = calibration.tileN;
    if (calibration.l2Bytes > 0.0)
        out["l2_bytes"] = calibration.l2Bytes;
    for (const auto &[key, fits] : { std::pair { "operators", &calibration.operators },
             std::pair { "classes", &calibration.classes } }) {
        auto items = nlohmann::ordered_json::array();
        for (const KernelFit &fit : *fits)
            items.push_back(kernelJson(fit));
        out[key] = std::move(items);
    }
    auto collectives = nlohmann::ordered_json::array();
    for (const CollectiveFit &fit : calibration.collectives)
        collectives.push_back(collectiveJson(fit));
    out["collectives"] = std::move(collectives);
    return out;
}

std::optional<Calibration> readCalibrationJson(
    const Json &machine, const std::string &where, JsonSchema &in)
{
    const auto it = machine.find("calibration");
    if (it == machine.end())
        return std::nullopt;
    const std::string at = where + ".calibration";
    if (!it->is_object()) {
        in.error(at, "expected an object");
        return std::nullopt;
    }
    const Json &object = *it;
    in.checkKeys(object, at,
        { "basis", "provenance", "compute_ceiling", "peak", "memory_ceiling", "bandwidth", "sms",
            "tile_m", "tile_n", "l2_bytes", "operators", "classes", "collectives" });
    Calibration out;
    checkBasis(object, at, in);
    readProvenance(object, at, in, out);
    out.computeCeiling = text(object, at, "compute_ceiling", in);
    out.peak = number(object, at, "peak", in, true);
    out.memoryCeiling = text(object, at, "memory_ceiling", in);
    out.bandwidth = number(object, at, "bandwidth", in, true);
    out.sms = static_cast<std::int64_t>(number(object, at, "sms", in));
    // 0 × 0: the tile set (docs/MODEL.md §15.2).
    out.tileM = static_cast<std::int64_t>(number(object, at, "tile_m", in));
    out.tileN = static_cast<std::int64_t>(number(object, at, "tile_n", in));
    if ((out.tileM == 0) != (out.tileN == 0))
        in.error(
            at + ".tile_m", "expected tile_m and tile_n both positive, or both 0 (the tile set)");
    // Absent in files written before the L2 re-reads: the weight is read once (§15.2).
    if (object.contains("l2_bytes"))
        out.l2Bytes = number(object, at, "l2_bytes", in);
    for (const auto &[key, fits] :
        { std::pair { "operators", &out.operators }, std::pair { "classes", &out.classes } }) {
        if (const Json *items = list(object, at, key, in)) {
            for (std::size_t i = 0; i < items->size(); ++i)
                fits->push_back(
                    readKernel((*items)[i], at + "." + key + "[" + std::to_string(i) + "]", in));
        }
    }
    if (const Json *items = list(object, at, "collectives", in)) {
        for (std::size_t i = 0; i < items->size(); ++i)
            out.collectives.push_back(
                readCollective((*items)[i], at + ".collectives[" + std::to_string(i) + "]", in));
    }
    return out;
}

} // namespace ridgepoint
