#include "widgets/chart/pointlabelplacement.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

namespace ridgepoint::chart {
namespace {

// Rings of spots with a leader line: this many, each a line of text further out.
constexpr int kLeaderRings = 6;
constexpr int kLeaderDirections = 16;

// Where the argument list starts: the first '(' outside template brackets, or -1.
qsizetype argumentsStart(const QString &name)
{
    int depth = 0;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name[i];
        if (c == '<')
            ++depth;
        else if (c == '>' && depth > 0)
            --depth;
        else if (c == '(' && depth == 0 && i > 0 && name[i - 1] != ' ')
            return i; // "f(int)"; "GEMV (batch 1)" is a name with a remark, kept whole
    }
    return -1;
}

QString withoutTemplates(const QString &name)
{
    QString out;
    int depth = 0;
    for (const QChar c : name) {
        if (c == '<')
            ++depth;
        else if (c == '>' && depth > 0)
            --depth;
        else if (depth == 0)
            out += c;
    }
    return out;
}

bool isTypeWord(const QString &word)
{
    static const QStringList kTypes { "void", "static", "inline", "const", "unsigned", "signed",
        "int", "long", "short", "char", "float", "double", "bool", "auto", "__global__",
        "__device__", "__host__", "__launch_bounds__", "extern", "virtual", "size_t", "half" };
    return kTypes.contains(word) || word.endsWith('*') || word.endsWith('&')
        || word.contains(QStringLiteral("::"));
}

} // namespace

QString pointNumber(std::size_t index)
{
    return QString::number(index + 1);
}

QString shortKernelName(const QString &name)
{
    QString s = name.trimmed();
    if (const qsizetype open = argumentsStart(s); open > 0)
        s = s.left(open);
    s = withoutTemplates(s).trimmed();
    // A return type or qualifier ("void", "__global__", "float*") stands before a C++ name;
    // other words are part of a plain name ("QKV projection") and stay.
    QStringList words = s.split(' ', Qt::SkipEmptyParts);
    while (words.size() > 1 && isTypeWord(words.front()))
        words.removeFirst();
    s = words.join(' ');
    if (const qsizetype scope = s.lastIndexOf(QStringLiteral("::")); scope >= 0)
        s = s.mid(scope + 2);
    s.remove('*').remove('&');
    return s.isEmpty() ? name.trimmed() : s;
}

QStringList chartNames(const QStringList &names)
{
    QStringList out;
    std::map<QString, int> count;
    for (const QString &name : names) {
        out << shortKernelName(name);
        ++count[out.back()];
    }
    for (qsizetype i = 0; i < out.size(); ++i) {
        if (count[out[i]] > 1)
            out[i] += QStringLiteral(" #") + pointNumber(static_cast<std::size_t>(i));
    }
    return out;
}

LabelField::LabelField(const QRectF &bounds, double cell)
    : m_bounds(bounds)
    , m_cell(std::max(cell, 4.0))
    , m_columns(std::max(1, static_cast<int>(std::ceil(bounds.width() / m_cell))))
    , m_rows(std::max(1, static_cast<int>(std::ceil(bounds.height() / m_cell))))
    , m_grid(static_cast<std::size_t>(m_columns) * static_cast<std::size_t>(m_rows))
{ }

std::vector<std::size_t> LabelField::cellsOf(const QRectF &box) const
{
    std::vector<std::size_t> cells;
    const QRectF clipped = box.intersected(m_bounds);
    if (clipped.isEmpty() && !m_bounds.contains(box.topLeft()))
        return cells;
    const auto column = [this](double x) {
        return std::clamp(static_cast<int>((x - m_bounds.left()) / m_cell), 0, m_columns - 1);
    };
    const auto row = [this](double y) {
        return std::clamp(static_cast<int>((y - m_bounds.top()) / m_cell), 0, m_rows - 1);
    };
    for (int r = row(box.top()); r <= row(box.bottom()); ++r) {
        for (int c = column(box.left()); c <= column(box.right()); ++c)
            cells.push_back(static_cast<std::size_t>(r * m_columns + c));
    }
    return cells;
}

void LabelField::addObstacle(const QRectF &box)
{
    if (!box.intersects(m_bounds))
        return;
    const std::size_t index = m_boxes.size();
    m_boxes.push_back(box);
    for (const std::size_t cell : cellsOf(box))
        m_grid[cell].push_back(index);
}

bool LabelField::isFree(const QRectF &box) const
{
    if (!m_bounds.contains(box))
        return false;
    for (const std::size_t cell : cellsOf(box)) {
        for (const std::size_t i : m_grid[cell]) {
            if (m_boxes[i].intersects(box))
                return false;
        }
    }
    return true;
}

std::vector<QRectF> besideSpots(QPointF anchor, QSizeF size, double gap)
{
    const double w = size.width();
    const double h = size.height();
    const double x = anchor.x();
    const double y = anchor.y();
    const double d = gap * std::numbers::sqrt2 / 2.0; // the diagonals at the same distance
    return {
        QRectF(x + gap, y - h / 2, w, h), // right
        QRectF(x - gap - w, y - h / 2, w, h), // left
        QRectF(x - w / 2, y - gap - h, w, h), // above
        QRectF(x - w / 2, y + gap, w, h), // below
        QRectF(x + d, y - d - h, w, h), // above right
        QRectF(x + d, y + d, w, h), // below right
        QRectF(x - d - w, y - d - h, w, h), // above left
        QRectF(x - d - w, y + d, w, h), // below left
    };
}

std::optional<LabelSpot> LabelField::place(QPointF anchor, QSizeF size, double clearance)
{
    const double gap = clearance + 2.0;
    std::optional<LabelSpot> spot;
    for (const QRectF &box : besideSpots(anchor, size, gap)) {
        if (isFree(box)) {
            spot = LabelSpot { box, false };
            break;
        }
    }
    // Further out, a line of text per ring, with a leader from the marker to the box's
    // nearest corner or edge.
    const double step = std::max(size.height(), 8.0);
    for (int ring = 1; !spot && ring <= kLeaderRings; ++ring) {
        const double radius = gap + step * (ring + 0.5);
        for (int k = 0; k < kLeaderDirections; ++k) {
            const double angle = 2.0 * std::numbers::pi * k / kLeaderDirections;
            const QPointF at(
                anchor.x() + radius * std::cos(angle), anchor.y() - radius * std::sin(angle));
            // The box hangs away from the marker on the side the direction points to.
            const double left = std::cos(angle) >= 0 ? at.x() : at.x() - size.width();
            const double top = std::sin(angle) >= 0 ? at.y() - size.height() : at.y();
            const QRectF box(left, top, size.width(), size.height());
            if (isFree(box)) {
                spot = LabelSpot { box, true };
                break;
            }
        }
    }
    if (spot)
        addObstacle(spot->box);
    return spot;
}

} // namespace ridgepoint::chart
