#include "widgets/document/provenancetext.h"
#include "widgets/qtext.h"

#include "core/model/rate_text.h"

#include <QCoreApplication>
#include <QStringList>

namespace ridgepoint {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("ridgepoint::CeilingsTableModel", text);
}

QString escaped(const std::string &text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

// "boost, 1410 MHz", "boost", "1410 MHz" or empty.
QString clockText(const Provenance &p)
{
    QStringList parts;
    if (!p.clock.empty())
        parts << escaped(p.clock);
    if (p.clockMHz)
        parts << tr("%1 MHz").arg(*p.clockMHz, 0, 'g', 6);
    return parts.join(QStringLiteral(", "));
}

// "measured with TOOL on DATE at HOST", the parts that are known.
QString measuredText(const Provenance &p)
{
    QString text;
    if (!p.tool.empty())
        text += tr("with %1").arg(escaped(p.tool));
    if (!p.date.empty())
        text += (text.isEmpty() ? QString() : QStringLiteral(" "))
            + tr("on %1").arg(escaped(p.date));
    if (!p.host.empty())
        text += (text.isEmpty() ? QString() : QStringLiteral(" "))
            + tr("at %1").arg(escaped(p.host));
    return text;
}

QStringList provenanceLines(const Provenance &p, bool links)
{
    QStringList lines;
    lines << tr("Basis: %1").arg(q(basisName(p.basis)));
    const auto add = [&lines](const QString &label, const QString &value) {
        if (!value.isEmpty())
            lines << label.arg(value);
    };
    add(tr("Source: %1"), escaped(p.source));
    if (!p.url.empty()) {
        const QString url = escaped(p.url);
        add(tr("URL: %1"), links ? QStringLiteral("<a href=\"%1\">%1</a>").arg(url) : url);
    }
    add(tr("Accessed: %1"), escaped(p.accessed));
    add(tr("Formula: %1"), escaped(p.formula));
    add(tr("Measured %1"), measuredText(p));
    add(tr("Clock: %1"), clockText(p));
    add(tr("Scope: %1"), escaped(p.scope));
    add(tr("Notes: %1"), escaped(p.notes));
    return lines;
}

template<typename Ceiling> CeilingFacts facts(const Ceiling &ceiling, double value)
{
    CeilingFacts out;
    out.name = QString::fromStdString(ceiling.name);
    out.value = q(figureText(ceiling, value));
    out.provenance = ceiling.provenance;
    if (ceiling.alternate) {
        out.alternateValue = q(figureText(ceiling, ceiling.alternate->value));
        out.alternate = ceiling.alternate->provenance;
    }
    return out;
}

} // namespace

CeilingFacts ceilingFacts(const ComputeCeiling &ceiling)
{
    CeilingFacts out = facts(ceiling, ceiling.peak);
    out.sparse = ceiling.sparse;
    return out;
}

CeilingFacts ceilingFacts(const MemoryCeiling &ceiling)
{
    return facts(ceiling, ceiling.bandwidth);
}

QString basisText(const CeilingFacts &facts)
{
    QString text = q(basisName(facts.provenance.basis));
    if (facts.sparse)
        text += QStringLiteral(" 2:4");
    if (facts.alternateValue)
        text += QStringLiteral(" / ") + q(basisName(facts.alternate.basis));
    return text;
}

QString provenanceHtml(const CeilingFacts &facts, bool links)
{
    QString html = QStringLiteral("<b>%1</b> %2").arg(facts.name.toHtmlEscaped(), facts.value);
    if (facts.sparse)
        html += tr(" (2:4 sparse)");
    if (facts.alternateValue)
        html += tr(" — the figure the analysis uses");
    html += QStringLiteral("<br>") + provenanceLines(facts.provenance, links).join("<br>");
    if (facts.alternateValue) {
        html += QStringLiteral("<br><br><b>%1</b> %2")
                    .arg(tr("Other figure:"), *facts.alternateValue)
            + QStringLiteral("<br>") + provenanceLines(facts.alternate, links).join("<br>");
    }
    return html;
}

} // namespace ridgepoint
