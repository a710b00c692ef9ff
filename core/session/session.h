// A saved workspace: {"format": "ridgepoint-session", "version": 2, ...} (docs/FILES.md).
// Everything a user set up — the machine with its edited ceilings, the machine compared with,
// the points with their sources, what-if moves and workloads, the quantization mode, the view,
// the theme, annotations, target markers and the baseline run — in one JSON document.
#pragma once

#include "core/analysis/operator_change.h"
#include "core/model/diagnostic.h"
#include "core/model/hardware.h"
#include "core/model/point.h"
#include "core/workloads/planned_workload.h"
#include "core/workloads/workloads.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

inline constexpr std::string_view kSessionFormat = "ridgepoint-session";
// 2: an LLM workload keeps its mixture of experts, KV-cache width, tp/ep/pp, block scales and
// precision mode (absent in a version 1 file: today's defaults, so the migration changes nothing).
inline constexpr int kSessionVersion = 2;

struct SessionPoint {
    KernelPoint point; // as measured (or as last placed, for a workload)
    double bytesFactor = 1.0; // the what-if move (core/workspace WhatIf)
    double timeFactor = 1.0;
    std::optional<Workload> workload; // a planned point: recomputed from its model on load
};

// The chart's axis ranges: intensity (FLOP/B) and performance (FLOP/s).
struct ViewRange {
    double xLower = 0.0;
    double xUpper = 0.0;
    double yLower = 0.0;
    double yUpper = 0.0;

    friend bool operator==(const ViewRange &, const ViewRange &) = default;
};

// A free-text callout, attached to a point (it follows the point's moves) or to a chart
// position (intensity, FLOP/s).
struct Annotation {
    std::string text;
    // The name of the point it is attached to (the first of that name; a name survives
    // deletions and their undo, an index would not); empty: attached to (x, y).
    std::string point;
    double x = 0.0; // chart position when not attached
    double y = 0.0;

    friend bool operator==(const Annotation &, const Annotation &) = default;
};

// "goal: 60 % of HBM roof": a line at `fraction` of a roof of the current machine.
struct TargetMarker {
    std::string ceiling; // name of a compute or memory ceiling
    double fraction = 1.0; // in (0, 1]
    std::string text; // the label; empty: "goal: 60 % of NAME"

    friend bool operator==(const TargetMarker &, const TargetMarker &) = default;
};

// A previous run the current points are compared with: joined by name, or, for a profiler
// trace, by operator and shapes (core/analysis/operator_change.h; docs/MODEL.md §11.7).
struct Baseline {
    std::string file; // where it was read from
    std::vector<KernelPoint> points;
    MatchBy match = MatchBy::Name; // key "match" ("operator"); absent: "name"
};

// Which compute roofs the chart draws: those of the points' precisions (dense only), or every
// visible one (sparse 2:4 figures and precisions no point uses included).
enum class RoofsShown { Data, All };
std::string_view roofsShownName(RoofsShown roofs); // "data", "all"
std::optional<RoofsShown> roofsShownFromName(std::string_view name);

struct Session {
    Hardware hardware;
    std::optional<Hardware> compare;
    std::vector<SessionPoint> points;
    QuantMode quantMode = QuantMode::None;
    int lastSweepId = 0;
    std::optional<ViewRange> view;
    std::string theme; // "light", "dark", "print"; empty: the user's setting
    // How the chart draws the points: "auto", "density" or "dots"; empty: the user's setting.
    std::string pointsMode;
    // Dot area by time share: "time" or "fixed"; empty: the user's setting (on).
    std::string dotSize;
    // Which figure of a ceiling holding two (spec and measured) the analysis uses (withFigures).
    FigureChoice figures = FigureChoice::Measured;
    RoofsShown roofs = RoofsShown::Data; // key "roofs"; absent in older sessions
    std::vector<Annotation> annotations;
    std::vector<TargetMarker> targets;
    std::optional<Baseline> baseline;
};

struct [[nodiscard]] SessionReadResult {
    std::optional<Session> session; // nullopt when the file has errors
    std::vector<Diagnostic> diagnostics; // syntax errors with line/column, schema errors by path
    int version = 0; // the version the file was written in (before migration)
};

// Reads a session. JSON syntax errors carry line and column; schema errors name the JSON path
// ("points[2].flops: ..."); a newer version is refused ("written by a newer Ridgepoint");
// older versions go through the chain of migrations first. Never throws.
SessionReadResult readSessionJson(std::string_view text, const std::string &fileName);

// Pretty-printed JSON that readSessionJson reads back to the same session.
std::string writeSessionJson(const Session &session);

// The same text, unless it would be longer than `maxBytes` (a session embedded in a picture has a
// cap): then nullopt. A session whose points alone cannot fit is refused before any of it is
// written, so a million-point session costs nothing here.
std::optional<std::string> writeSessionJson(const Session &session, std::size_t maxBytes);

// The most points a session of at most `maxBytes` can hold, whatever they are (each takes a few
// hundred bytes at least): a caller with more need not build the session at all.
std::size_t maxSessionPoints(std::size_t maxBytes);

} // namespace ridgepoint
