// The energy twin of the roofline (docs/MODEL.md §14.1; Choi, Bedard, Fowler and Vuduc, IPDPS
// 2013): FLOP/J against arithmetic intensity, log-log. The arch line is the FLOP/J of a kernel at
// each intensity running at the roofline's time, 1 / (e_flop + e_byte / I + P0 / min(π, β·I)),
// for the chart's emphasised compute ceiling over main memory; its ceiling, 1 / e_flop, is what
// no kernel of that precision can pass. Each point with a measured time is drawn at its own
// flops_per_joule (energy.h) and main-memory intensity, coloured by group. `render --energy` and
// View ▸ Energy draw it with the roofline's axes, tickers and theme; widgets/export/energyexport.h
// writes it to a file.
#pragma once

#include <QCoreApplication>
#include <QString>

#include <cstddef>

class QCustomPlot;

namespace ridgepoint {

class Document;
struct ChartTheme;

namespace chart {

struct EnergyChart {
    QString problem; // not empty: nothing was drawn, and why
    std::size_t drawn = 0; // points drawn
    std::size_t untimed = 0; // placed points without a measured time: not drawn
    std::size_t unknown = 0; // timed points whose energy lacks a term (a level's e_byte, ...)
    QString note; // one line on what was left out, empty when every point is drawn
};

// Why `hardware` (with `document`'s roof selection) has no energy chart: the figures it lacks,
// in words; empty when it has one.
QString energyChartProblem(const Document &document);

// Clears `plot` and draws the energy chart of `document` in `theme`. On a machine without the
// figures nothing is drawn and `problem` says why.
EnergyChart drawEnergyChart(QCustomPlot &plot, const Document &document, const ChartTheme &theme);

} // namespace chart

} // namespace ridgepoint
