// `ridgepoint predict`: each measured row next to what a calibrated machine predicts and what
// the plain roofline gives, with the median and p90 error of both (docs/MODEL.md
// "Calibration"). A row that cannot be predicted is listed with why.
#pragma once

#include "core/calibrate/calibration.h"
#include "core/calibrate/measured.h"
#include "core/model/hardware.h"

#include <optional>
#include <string>
#include <vector>

namespace ridgepoint {

struct PredictedRow {
    MeasuredRow row;
    std::optional<double> predicted; // seconds, by the calibration
    std::optional<double> roofline; // seconds, the plain roofline's T_min on the spec roofs
    std::string why; // why there is no prediction
    std::string rooflineWhy; // why there is no roofline time
};

struct ClassSummary {
    OperatorClass kind = OperatorClass::Gemm;
    FitError calibrated;
    FitError roofline;
};

struct Predictions {
    std::vector<PredictedRow> rows;
    FitError calibrated; // over the rows with a prediction
    FitError roofline; // over the rows with a roofline time
    std::vector<ClassSummary> classes; // the classes present, in class order
};

// The plain roofline's time of a row on the machine's spec roofs: max(F/π, B/β) for operators
// (π of the row's type, else the default ceiling; β of main memory), bus bytes over the
// link between chips (chipLink: NVLink, else ICI, else PCIe) for a collective inside one node.
// Nullopt, with why, otherwise.
std::optional<double> rooflineSeconds(
    const MeasuredRow &row, const Hardware &hardware, std::string &why);

// Every row predicted with the machine's calibration (none: every row says so).
Predictions predictRows(const std::vector<MeasuredRow> &rows, const Hardware &hardware);

// {"rows": [...], "summary": {...}}, seconds in SI units.
std::string predictionsJson(const Predictions &predictions);
// A table, one row per line, then the summary.
std::string predictionsTable(const Predictions &predictions);

} // namespace ridgepoint
