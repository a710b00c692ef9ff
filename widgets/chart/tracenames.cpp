#include "widgets/chart/tracenames.h"

#include "widgets/chart/geometry/pointlabelplacement.h"

#include <map>

namespace ridgepoint::chart {

std::string_view traceOperator(std::string_view group)
{
    const auto open = group.find('(');
    if (open == std::string_view::npos || !group.ends_with(')'))
        return group;
    return group.substr(0, open);
}

std::pair<std::string, std::string> operatorAndShapes(std::string_view group)
{
    const std::string_view op = traceOperator(group);
    if (op.size() == group.size())
        return { std::string(group), {} };
    return { std::string(op),
        std::string(group.substr(op.size() + 1, group.size() - op.size() - 2)) };
}

QString shapeDims(const QString &shapes)
{
    // The word glued to a '[' is its element type and goes; the rest stays (a collective's
    // "Float[53120], 2 ranks" keeps its ranks).
    QString out;
    int depth = 0;
    for (const QChar c : shapes) {
        if (c == '[' && depth++ == 0) {
            while (!out.isEmpty() && out.back() != ' ' && out.back() != ',')
                out.chop(1);
        } else if (c == ']' && depth > 0) {
            --depth;
        }
        out += c;
    }
    return out.trimmed();
}

namespace {

// What follows the last shape of `dims` (", 2 ranks" of a collective's "[53120], 2 ranks").
QString tailOf(const QString &dims)
{
    return dims.mid(dims.lastIndexOf(']') + 1);
}

// Per operator, the tail every one of its points has alike (empty when they differ): said on
// every label of the operator it tells nothing apart and only makes the label too long to fit.
std::map<QString, QString> commonTails(const QStringList &ops, const QStringList &dims)
{
    std::map<QString, QString> tails;
    std::map<QString, bool> differ;
    for (qsizetype i = 0; i < ops.size(); ++i) {
        const QString tail = tailOf(dims[i]);
        const auto [at, added] = tails.try_emplace(ops[i], tail);
        if (!added && at->second != tail)
            differ[ops[i]] = true;
    }
    for (auto &[op, tail] : tails) {
        if (differ[op])
            tail.clear();
    }
    return tails;
}

} // namespace

QStringList traceChartNames(const QStringList &groups, const QStringList &kernelNames)
{
    QStringList out;
    QStringList dims;
    std::map<QString, int> count;
    for (qsizetype i = 0; i < groups.size(); ++i) {
        const auto [op, shapes] = operatorAndShapes(groups[i].toStdString());
        out << (op.empty() ? shortKernelName(i < kernelNames.size() ? kernelNames[i] : QString())
                           : QString::fromStdString(op));
        dims << shapeDims(QString::fromStdString(shapes));
        ++count[out.back()];
    }
    // The shapes where the operator repeats (without a tail they all share); the number where
    // those repeat too.
    const std::map<QString, QString> tails = commonTails(out, dims);
    std::map<QString, int> shapedCount;
    for (qsizetype i = 0; i < out.size(); ++i) {
        QString shaped = dims[i];
        shaped.chop(tails.at(out[i]).size());
        if (count[out[i]] > 1 && !shaped.isEmpty())
            out[i] += ' ' + shaped;
        ++shapedCount[out[i]];
    }
    for (qsizetype i = 0; i < out.size(); ++i) {
        if (shapedCount[out[i]] > 1)
            out[i] += QStringLiteral(" #") + pointNumber(static_cast<std::size_t>(i));
    }
    return out;
}

} // namespace ridgepoint::chart
