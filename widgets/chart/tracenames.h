// How a profiler trace's points are named on the chart and grouped in its legend. A trace point's
// kernel name says little a reader can match ("void cutlass::Kernel<…>(Params)" shortens to
// "Kernel"); its group is the operator with its inputs, "aten::mm(float[64, 32], float[32, 16])"
// (docs/FORMATS.md §10), which the Kernels table shows as its Operator and Shapes columns. So the
// chart names a trace point by that operator, as the table writes it, and adds the shapes only
// where the operator alone does not tell two points apart.
#pragma once

#include <QString>
#include <QStringList>

#include <string>
#include <string_view>
#include <utility>

namespace ridgepoint::chart {

// A trace point's group as the table's Operator and Shapes columns: "aten::mm(float[64, 32],
// float[32, 16])" → {"aten::mm", "float[64, 32], float[32, 16]"}. A group that does not end in a
// parenthesised list (a collective's "record_param_comms: allreduce") is all operator.
std::pair<std::string, std::string> operatorAndShapes(std::string_view group);

// The operator part of `group` alone (a view into it), for the legend's groups.
std::string_view traceOperator(std::string_view group);

// The shapes without their element types, for a label: "float[64, 32], float[32, 16]" →
// "[64, 32], [32, 16]" (a scalar tensor stays "[]"); other words stay ("Float[53], 2 ranks" →
// "[53], 2 ranks").
QString shapeDims(const QString &shapes);

// The chart names of a trace's points, one per point, from their groups and kernel names (the
// same length): the operator ("aten::bmm"); where several points share it, the operator and the
// shapes ("aten::bmm [1024, 647, 96], [1024, 96, 30]"), less what follows the last shape when
// all of the operator's points have it alike (a collective's ", 2 ranks": labels of two lines
// hold "record_param_comms:" and "allreduce [6637568]", not more); where those are the same too
// (one call's several kernels, or shapes that differ only in type), that with the point's number,
// the key to the table's "#" column ("aten::addmm [64, 8] #12"). A point without a group has its
// short kernel name (pointlabelplacement.h shortKernelName), numbered the same way when repeated.
QStringList traceChartNames(const QStringList &groups, const QStringList &kernelNames);

} // namespace ridgepoint::chart
