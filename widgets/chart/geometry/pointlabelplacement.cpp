#include "widgets/chart/geometry/pointlabelplacement.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>

namespace ridgepoint::chart {
namespace {

// Rings of spots with a leader line: this many, each a line of text further out.
constexpr int kLeaderRings = 6;
constexpr int kLeaderDirections = 24;
constexpr int kBesideSpots = 8;
// A label beside its marker reads as another marker's when that one is nearer to it than this
// share of its own marker's distance.
constexpr double kNearerShare = 1.0;
// A leader's label keeps this many marker gaps from every other marker.
constexpr double kLeaderEndReach = 3.0;

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
    , m_markerGrid(m_grid.size())
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
    addBox(box, false);
}

void LabelField::addBox(const QRectF &box, bool marker)
{
    if (!box.intersects(m_bounds))
        return;
    const std::size_t index = m_boxes.size();
    m_boxes.push_back(box);
    m_isMarker.push_back(marker);
    for (const std::size_t cell : cellsOf(box))
        m_grid[cell].push_back(index);
}

void LabelField::addLine(const QLineF &line)
{
    m_lines.push_back(line);
}

void LabelField::addMarker(const QRectF &box)
{
    addBox(box, true);
    const QPointF centre = box.center();
    if (!m_bounds.contains(centre))
        return;
    const std::vector<std::size_t> cells = cellsOf(QRectF(centre, QSizeF(0.0, 0.0)));
    if (cells.empty())
        return;
    m_markerGrid[cells.front()].push_back(m_markers.size());
    m_markers.push_back(centre);
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
    const QRectF inner = box.adjusted(1.0, 1.0, -1.0, -1.0);
    return std::none_of(m_leaders.begin(), m_leaders.end(),
        [&](const QLineF &leader) { return crosses(leader, inner); });
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

std::optional<LabelSpot> LabelField::spotAt(const LabelRequest &request, int choice) const
{
    const double gap = request.clearance + 2.0;
    const QPointF anchor = request.anchor;
    const QSizeF size = request.size;
    if (choice < kBesideSpots)
        return LabelSpot { besideSpots(anchor, size, gap)[static_cast<std::size_t>(choice)], false,
            {}, choice };
    // Further out, a line of text per ring, with a leader from the marker to the box's
    // nearest corner or edge.
    const int ring = (choice - kBesideSpots) / kLeaderDirections + 1;
    const int k = (choice - kBesideSpots) % kLeaderDirections;
    if (ring > kLeaderRings)
        return std::nullopt;
    const double step = std::max(size.height(), 8.0);
    const double radius = gap + step * (ring + 0.5);
    const double angle = 2.0 * std::numbers::pi * k / kLeaderDirections;
    const QPointF at(anchor.x() + radius * std::cos(angle), anchor.y() - radius * std::sin(angle));
    // The box hangs away from the marker on the side the direction points to.
    const double left = std::cos(angle) >= 0 ? at.x() : at.x() - size.width();
    const double top = std::sin(angle) >= 0 ? at.y() - size.height() : at.y();
    const QRectF box(left, top, size.width(), size.height());
    const QPointF end(std::clamp(anchor.x(), box.left(), box.right()),
        std::clamp(anchor.y(), box.top(), box.bottom()));
    return LabelSpot { box, true, QLineF(anchor, end), choice };
}

bool LabelField::crossesLine(const QRectF &box) const
{
    const QRectF inner = box.adjusted(1.5, 1.5, -1.5, -1.5);
    return std::any_of(
        m_lines.begin(), m_lines.end(), [&](const QLineF &line) { return crosses(line, inner); });
}

namespace {

double distanceTo(const QRectF &box, QPointF p)
{
    const double dx = std::max({ box.left() - p.x(), 0.0, p.x() - box.right() });
    const double dy = std::max({ box.top() - p.y(), 0.0, p.y() - box.bottom() });
    return std::hypot(dx, dy);
}

} // namespace

double LabelField::ownDistance(const LabelRequest &request, const QRectF &box)
{
    double own = distanceTo(box, request.anchor);
    for (const QPointF &p : request.own)
        own = std::min(own, distanceTo(box, p));
    return own;
}

bool LabelField::othersBeyond(const LabelRequest &request, const QRectF &box, double reach) const
{
    const auto isOwn = [&request](QPointF p) {
        const auto same = [&p](QPointF q) {
            return std::abs(p.x() - q.x()) < 0.5 && std::abs(p.y() - q.y()) < 0.5;
        };
        return same(request.anchor) || std::any_of(request.own.begin(), request.own.end(), same);
    };
    for (const std::size_t cell : cellsOf(box.adjusted(-reach, -reach, reach, reach))) {
        for (const std::size_t i : m_markerGrid[cell]) {
            const QPointF p = m_markers[i];
            if (distanceTo(box, p) < reach && !isOwn(p))
                return false;
        }
    }
    return true;
}

int LabelField::leaderCrossings(const QLineF &leader, QPointF anchor, double clearance) const
{
    // Texts and other leaders; a leader may cross a marker (a thin line over a dot hides
    // nothing). From the edge of its own marker.
    const double length = leader.length();
    if (length <= clearance)
        return 0;
    const QLineF line(anchor + (leader.p2() - anchor) * (clearance / length), leader.p2());
    const QRectF span = QRectF(line.p1(), line.p2()).normalized();
    std::vector<std::size_t> crossed;
    for (const std::size_t cell : cellsOf(span.adjusted(-1.0, -1.0, 1.0, 1.0))) {
        for (const std::size_t i : m_grid[cell]) {
            if (!m_isMarker[i] && crosses(line, m_boxes[i].adjusted(0.5, 0.5, -0.5, -0.5)))
                crossed.push_back(i); // a box in several cells is counted once below
        }
    }
    std::sort(crossed.begin(), crossed.end());
    const auto boxes = std::unique(crossed.begin(), crossed.end()) - crossed.begin();
    const auto leaders = std::count_if(m_leaders.begin(), m_leaders.end(),
        [&](const QLineF &other) { return line.intersects(other) == QLineF::BoundedIntersection; });
    return static_cast<int>(boxes + leaders);
}

bool LabelField::acceptable(const LabelRequest &request, const LabelSpot &spot, Pass pass) const
{
    if (!isFree(spot.box) || (pass == Pass::Clear && crossesLine(spot.box)))
        return false;
    // Beside its marker, no other nearer to it; at a leader's end, hugging no other
    // marker (either would read as the other's label).
    if (request.nearestOwn) {
        const double reach = spot.leader ? kLeaderEndReach * (request.clearance + 2.0)
                                         : kNearerShare * ownDistance(request, spot.box);
        if (!othersBeyond(request, spot.box, reach))
            return false;
    }
    return !spot.leader || leaderCrossings(spot.leaderLine, request.anchor, request.clearance) == 0;
}

std::optional<LabelSpot> LabelField::place(const LabelRequest &request)
{
    constexpr int kRingEnd = kBesideSpots + kLeaderRings * kLeaderDirections;
    constexpr int kFirstRingEnd = kBesideSpots + kLeaderDirections;
    std::optional<LabelSpot> spot;
    const auto tryRange = [&](int from, int to, Pass pass) {
        for (int choice = from; !spot && choice < to; ++choice) {
            if (auto s = spotAt(request, choice); s && acceptable(request, *s, pass))
                spot = s;
        }
    };
    if (request.preferred >= 0 && request.preferred < kRingEnd)
        tryRange(request.preferred, request.preferred + 1, Pass::OverLines);
    if (!request.preferredOnly) {
        tryRange(0, kBesideSpots, Pass::Clear);
        tryRange(kBesideSpots, kFirstRingEnd, Pass::Clear);
        tryRange(0, kBesideSpots, Pass::OverLines);
        // Each ring clear of roofs, then over them: a short leader over a roof reads better than a
        // long one around it.
        for (int ring = kBesideSpots; ring < kRingEnd; ring += kLeaderDirections) {
            if (ring != kBesideSpots)
                tryRange(ring, ring + kLeaderDirections, Pass::Clear);
            tryRange(ring, ring + kLeaderDirections, Pass::OverLines);
        }
    }
    for (int choice = 0; !spot && request.mustShow && choice < kRingEnd; ++choice) {
        if (auto s = spotAt(request, choice); s && isFree(s->box))
            spot = s;
    }
    if (spot) {
        addObstacle(spot->box);
        if (spot->leader)
            m_leaders.push_back(spot->leaderLine);
    }
    return spot;
}

bool crosses(const QLineF &line, const QRectF &box)
{
    if (box.isEmpty())
        return false;
    // Liang–Barsky: the part of the segment (t in [0, 1]) inside each of the four half-planes.
    const std::array<double, 4> p = { -line.dx(), line.dx(), -line.dy(), line.dy() };
    const std::array<double, 4> q = { line.x1() - box.left(), box.right() - line.x1(),
        line.y1() - box.top(), box.bottom() - line.y1() };
    double t0 = 0.0;
    double t1 = 1.0;
    for (std::size_t i = 0; i < 4; ++i) {
        if (p[i] == 0.0) {
            if (q[i] < 0.0)
                return false; // parallel to this edge and outside it
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0.0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
        if (t0 > t1)
            return false;
    }
    return true;
}

} // namespace ridgepoint::chart
