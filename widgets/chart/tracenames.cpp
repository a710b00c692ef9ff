#include "widgets/chart/tracenames.h"

#include "widgets/chart/pointlabelplacement.h"

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

QStringList traceChartNames(const QStringList &groups, const QStringList &kernelNames)
{
    QStringList out;
    QStringList withShapes;
    std::map<QString, int> count;
    for (qsizetype i = 0; i < groups.size(); ++i) {
        const auto [op, shapes] = operatorAndShapes(groups[i].toStdString());
        if (op.empty()) {
            out << shortKernelName(i < kernelNames.size() ? kernelNames[i] : QString());
            withShapes << out.back();
        } else {
            out << QString::fromStdString(op);
            const QString dims = shapeDims(QString::fromStdString(shapes));
            withShapes << (dims.isEmpty() ? out.back() : out.back() + ' ' + dims);
        }
        ++count[out.back()];
    }
    // The shapes where the operator repeats; the number where those repeat too.
    std::map<QString, int> shapedCount;
    for (qsizetype i = 0; i < out.size(); ++i) {
        if (count[out[i]] > 1)
            out[i] = withShapes[i];
        ++shapedCount[out[i]];
    }
    for (qsizetype i = 0; i < out.size(); ++i) {
        if (shapedCount[out[i]] > 1)
            out[i] += QStringLiteral(" #") + pointNumber(static_cast<std::size_t>(i));
    }
    return out;
}

} // namespace ridgepoint::chart
