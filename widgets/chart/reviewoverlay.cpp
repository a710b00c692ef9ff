#include "widgets/chart/reviewoverlay.h"
#include "widgets/qtext.h"

#include "core/analysis/analysis.h"
#include "core/model/units.h"
#include "widgets/chart/annotationitems.h"
#include "widgets/chart/charttooltip.h"
#include "widgets/chart/geometry/pointlabelplacement.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHelpEvent>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QSpinBox>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace ridgepoint {
namespace {

constexpr double kPickRadius = 6.0;

struct Palette {
    QColor baseline; // faint points
    QColor arrow;
    QColor note;
    QColor noteBackground;
    QColor target;
};

Palette paletteFor(const ChartTheme &theme)
{
    const bool dark = theme.kind == ChartTheme::Kind::Dark;
    const bool print = theme.kind == ChartTheme::Kind::Print;
    QColor faint = theme.foreground;
    faint.setAlpha(dark ? 110 : 80);
    return { faint,
        print      ? QColor(Qt::black)
            : dark ? QColor(0xff, 0xa0, 0x40)
                   : QColor(0xc0, 0x50, 0x00),
        theme.foreground, theme.background,
        print      ? QColor(Qt::black)
            : dark ? QColor(0x60, 0xd0, 0x70)
                   : QColor(0x1a, 0x80, 0x30) };
}

// The chart coordinates of a baseline point on the current machine, or nullopt when it cannot
// be placed or has no measurement.
std::optional<QPointF> baselineCoords(
    const KernelPoint &point, const Hardware &hardware, const AnalysisOptions &options)
{
    const auto a = analyzePoint(point, hardware, options);
    if (!a || !a->performance || a->levels.empty())
        return std::nullopt;
    return QPointF(a->levels.front().intensity, *a->performance);
}

QString speedupTooltip(const KernelPoint &before, const KernelPoint &after, const Speedup &s)
{
    QString numbers;
    if (s.basis == SpeedupBasis::Operator)
        // `before` is the operator's kernels summed; this run's operator time follows from it.
        numbers = QObject::tr("%1 ÷ %2").arg(q(formatQuantity(*before.seconds, Dimension::Time, 4)),
            q(formatQuantity(*before.seconds / s.factor, Dimension::Time, 4)));
    else if (s.basis == SpeedupBasis::Time)
        numbers = QObject::tr("%1 ÷ %2").arg(q(formatQuantity(*before.seconds, Dimension::Time, 4)),
            q(formatQuantity(*after.seconds, Dimension::Time, 4)));
    else
        numbers = QObject::tr("%1 ÷ %2").arg(
            q(formatQuantity(*after.performance(), Dimension::FlopRate, 4)),
            q(formatQuantity(*before.performance(), Dimension::FlopRate, 4)));
    return QObject::tr("%1: speed-up ×%2 over the baseline\n= %3 = %4")
        .arg(q(after.name), q(formatSignificant(s.factor, 4)),
            q(std::string(speedupFormula(s.basis))), numbers);
}

} // namespace

ReviewOverlay::ReviewOverlay(RooflinePlot *plot, Document *document)
    : QObject(plot)
    , m_plot(plot)
    , m_document(document)
{
    review::ensureLayers(plot);
    connect(plot, &RooflinePlot::aboutToBeDestroyed, this, &ReviewOverlay::releaseItems);
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(plot, &QWidget::customContextMenuRequested, this, [this](const QPoint &position) {
        QMenu *menu = createContextMenu(position);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_plot->mapToGlobal(position));
    });
    plot->installEventFilter(this);
    // The speed-ups go where the point labels left room, never over each other.
    plot->addLabelClient(this, [this](chart::LabelField *field) {
        std::vector<QRectF> boxes;
        for (const auto &arrow : m_arrows) {
            if (!field)
                arrow->hideLabel();
            else if (const auto box = arrow->placeLabel(*field))
                boxes.push_back(*box);
        }
        return boxes;
    });
    connect(plot, &QCustomPlot::beforeReplot, this, [this] {
        if (static_cast<int>(m_plot->display().theme.kind) != m_themeKind)
            rebuild();
        for (const auto &target : m_targets)
            target->placeLabel();
    });
    connect(document, &Document::baselineChanged, this, [this] {
        rebuildIndex();
        rebuildBaseline();
        rebuildArrows();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
    connect(document, &Document::annotationsChanged, this, [this] {
        rebuildNotes();
        rebuildTargets();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
    connect(document, &Document::hardwareChanged, this, [this] {
        rebuild();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
    connect(document, &Document::pointsReset, this, [this] {
        followCurrent();
        rebuildArrows();
        rebuildNotes();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
    connect(document, &Document::pointsChanged, this, [this] {
        followPoints();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
    rebuildIndex();
    rebuild();
}

void ReviewOverlay::rebuildIndex()
{
    m_baselineIndex.rebuild(m_document->baseline());
    followCurrent();
}

void ReviewOverlay::followCurrent()
{
    // By operator, a speed-up divides by the operator's time in this run: all its points.
    if (m_baselineIndex.byOperator())
        m_baselineIndex.setCurrent(m_document->workspace().points());
}

ReviewOverlay::~ReviewOverlay()
{
    releaseItems();
}

void ReviewOverlay::releaseItems()
{
    // The overlay is the plot's child, so Qt deletes it only after ~QCustomPlot has run: the
    // items go on the plot's aboutToBeDestroyed, while it is still whole.
    if (!m_plot)
        return;
    m_arrows.clear();
    m_notes.clear();
    m_targets.clear();
    if (m_baselineGraph && m_plot->hasPlottable(m_baselineGraph))
        m_plot->removePlottable(m_baselineGraph);
    m_baselineGraph = nullptr;
    m_plot = nullptr;
}

void ReviewOverlay::rebuild()
{
    m_themeKind = static_cast<int>(m_plot->display().theme.kind);
    rebuildBaseline();
    rebuildArrows();
    rebuildNotes();
    rebuildTargets();
}

void ReviewOverlay::rebuildBaseline()
{
    if (m_baselineGraph && m_plot->hasPlottable(m_baselineGraph))
        m_plot->removePlottable(m_baselineGraph);
    m_baselineGraph = nullptr;
    m_baselinePoints.clear();
    const auto &baseline = m_document->baseline();
    if (!baseline)
        return;
    for (const auto &p : baseline->points) {
        if (const auto at
            = baselineCoords(p, m_document->hardware(), m_document->analysisOptions()))
            m_baselinePoints.push_back(*at);
    }
    // Sorted by intensity: QCPGraph draws sorted data without a sort of its own.
    std::vector<QPointF> sorted = m_baselinePoints;
    std::sort(sorted.begin(), sorted.end(), [](QPointF a, QPointF b) { return a.x() < b.x(); });
    QVector<double> x, y;
    x.reserve(static_cast<qsizetype>(sorted.size()));
    y.reserve(static_cast<qsizetype>(sorted.size()));
    for (const QPointF &p : sorted) {
        x.push_back(p.x());
        y.push_back(p.y());
    }
    const Palette palette = paletteFor(m_plot->display().theme);
    m_baselineGraph = m_plot->addGraph();
    m_baselineGraph->setLayer(review::kBaselineLayer);
    m_baselineGraph->setLineStyle(QCPGraph::lsNone);
    m_baselineGraph->setScatterStyle(QCPScatterStyle(
        QCPScatterStyle::ssCircle, QPen(palette.baseline, 1.2), QBrush(palette.baseline), 7));
    m_baselineGraph->setName(tr("baseline (%1)").arg(q(baseline->file).section('/', -1)));
    m_baselineGraph->setSelectable(QCP::stNone);
    m_baselineGraph->setData(x, y, true);
}

void ReviewOverlay::rebuildArrows()
{
    m_arrows.clear();
    m_arrowTooltips.clear();
    if (m_baselineIndex.empty())
        return;
    const Palette palette = paletteFor(m_plot->display().theme);
    for (std::size_t i = 0; i < m_document->pointCount() && m_arrows.size() < kMaxArrows; ++i) {
        const KernelPoint current = m_document->point(i);
        const KernelPoint *before = m_baselineIndex.find(current);
        if (!before)
            continue;
        const auto from
            = baselineCoords(*before, m_document->hardware(), m_document->analysisOptions());
        const auto to = m_plot->pointCoords(i);
        if (!from || !to)
            continue;
        const auto s = m_baselineIndex.speedupOf(current);
        const QString label
            = s ? QStringLiteral("×") + q(formatSignificant(s->factor, 3)) : QString();
        m_arrows.push_back(
            std::make_unique<review::BaselineArrow>(m_plot, *from, *to, label, palette.arrow));
        m_arrowTooltips.push_back(s
                ? speedupTooltip(*before, current, *s)
                : tr("%1: no speed-up (one of the two has no time or rate)").arg(q(current.name)));
    }
}

std::optional<QPointF> ReviewOverlay::noteAnchor(const Annotation &annotation) const
{
    if (annotation.point.empty())
        return QPointF(annotation.x, annotation.y);
    const auto index = m_document->findPoint(annotation.point);
    return index ? m_plot->pointCoords(*index) : std::nullopt;
}

void ReviewOverlay::rebuildNotes()
{
    m_notes.clear();
    m_noteIndex.clear();
    const Palette palette = paletteFor(m_plot->display().theme);
    const auto &annotations = m_document->annotations();
    for (std::size_t i = 0; i < annotations.size(); ++i) {
        const auto at = noteAnchor(annotations[i]);
        if (!at)
            continue; // its point was deleted (an undo brings both back)
        m_notes.push_back(std::make_unique<review::NoteCallout>(
            m_plot, *at, q(annotations[i].text), palette.note, palette.noteBackground));
        m_noteIndex.push_back(i);
    }
}

void ReviewOverlay::followPoints()
{
    const auto &annotations = m_document->annotations();
    for (std::size_t k = 0; k < m_notes.size(); ++k) {
        if (const auto at = noteAnchor(annotations[m_noteIndex[k]]))
            m_notes[k]->moveTo(*at);
    }
    if (!m_baselineIndex.empty()) {
        followCurrent();
        rebuildArrows();
    }
}

void ReviewOverlay::rebuildTargets()
{
    m_targets.clear();
    m_targetIndex.clear();
    const Hardware &hw = m_document->hardware();
    double topPeak = 0.0;
    double topBandwidth = 0.0;
    for (const auto &c : hw.compute)
        topPeak = std::max(topPeak, c.visible ? c.peak : 0.0);
    for (const auto &m : hw.memory)
        topBandwidth = std::max(topBandwidth, m.visible ? m.bandwidth : 0.0);
    if (topPeak <= 0.0 || topBandwidth <= 0.0)
        return;
    const Palette palette = paletteFor(m_plot->display().theme);
    const auto &targets = m_document->targets();
    for (std::size_t i = 0; i < targets.size(); ++i) {
        const auto &t = targets[i];
        std::unique_ptr<review::TargetLine> line;
        if (const ComputeCeiling *c = hw.findCompute(t.ceiling))
            line = std::make_unique<review::TargetLine>(m_plot, review::TargetLine::Kind::Compute,
                c->peak, t.fraction, topBandwidth, targetText(t), palette.target);
        else if (const MemoryCeiling *m = hw.findMemory(t.ceiling))
            line = std::make_unique<review::TargetLine>(m_plot, review::TargetLine::Kind::Memory,
                m->bandwidth, t.fraction, topPeak, targetText(t), palette.target);
        if (!line)
            continue; // a roof of another machine: kept, drawn again when it comes back
        m_targets.push_back(std::move(line));
        m_targetIndex.push_back(i);
    }
}

QString ReviewOverlay::targetText(const TargetMarker &target)
{
    if (!target.text.empty())
        return q(target.text);
    return tr("goal: %1 % of %2")
        .arg(q(formatSignificant(target.fraction * 100.0, 3)), q(target.ceiling));
}

std::vector<ReviewOverlay::Arrow> ReviewOverlay::baselineArrows() const
{
    std::vector<Arrow> out;
    for (std::size_t i = 0; i < m_arrows.size(); ++i)
        out.push_back(
            { m_arrows[i]->from(), m_arrows[i]->to(), m_arrows[i]->label(), m_arrowTooltips[i] });
    return out;
}

std::vector<QPointF> ReviewOverlay::baselinePoints() const
{
    return m_baselinePoints;
}

std::vector<ReviewOverlay::Note> ReviewOverlay::notes() const
{
    std::vector<Note> out;
    for (std::size_t i = 0; i < m_notes.size(); ++i)
        out.push_back({ m_notes[i]->at(), m_notes[i]->text(), m_noteIndex[i] });
    return out;
}

QStringList ReviewOverlay::targetLabels() const
{
    QStringList out;
    for (const auto &t : m_targets)
        out << t->label();
    return out;
}

std::optional<std::size_t> ReviewOverlay::noteAt(const QPointF &position) const
{
    // The last drawn is on top.
    for (std::size_t k = m_notes.size(); k-- > 0;) {
        if (m_notes[k]->distanceTo(position) <= kPickRadius)
            return m_noteIndex[k];
    }
    return std::nullopt;
}

std::optional<std::size_t> ReviewOverlay::targetAt(const QPointF &position) const
{
    for (std::size_t k = m_targets.size(); k-- > 0;) {
        if (m_targets[k]->distanceTo(position) <= kPickRadius)
            return m_targetIndex[k];
    }
    return std::nullopt;
}

std::optional<std::size_t> ReviewOverlay::arrowAt(const QPointF &position) const
{
    for (std::size_t k = m_arrows.size(); k-- > 0;) {
        if (m_arrows[k]->distanceTo(position) <= kPickRadius)
            return k;
    }
    return std::nullopt;
}

QMenu *ReviewOverlay::createContextMenu(const QPointF &position)
{
    auto *menu = new QMenu(m_plot);
    menu->setObjectName("chartContextMenu");
    auto add = [&](const QString &text, const char *name, auto slot) {
        QAction *action = menu->addAction(text, this, slot);
        action->setObjectName(name);
        return action;
    };
    if (const auto note = noteAt(position)) {
        add(tr("&Edit note…"), "editNote", [this, i = *note] { editNote(i); });
        add(tr("&Remove note"), "removeNote", [this, i = *note] { removeNote(i); });
        menu->addSeparator();
    }
    if (const auto target = targetAt(position)) {
        add(tr("Edit &target…"), "editTarget", [this, i = *target] { editTarget(i); });
        add(tr("Remove ta&rget"), "removeTarget", [this, i = *target] { removeTarget(i); });
        menu->addSeparator();
    }
    if (const int point = m_plot->pointAt(position); point >= 0) {
        const std::string name = m_document->point(static_cast<std::size_t>(point)).name;
        QString shown = q(name);
        if (shown.size() > 40)
            shown = shown.left(39) + QStringLiteral("…");
        add(tr("Add note to %1…").arg(shown), "addNoteToPoint", [this, name] {
            addNote(Annotation { {}, name, 0.0, 0.0 });
        });
    }
    const QPointF at(
        m_plot->xAxis->pixelToCoord(position.x()), m_plot->yAxis->pixelToCoord(position.y()));
    add(tr("Add &note here…"), "addNoteHere", [this, at] {
        addNote(Annotation { {}, {}, at.x(), at.y() });
    });
    add(tr("Add t&arget…"), "addTarget", [this] { editTarget(std::nullopt); });
    return menu;
}

void ReviewOverlay::addNote(Annotation annotation)
{
    bool ok = false;
    const QString title
        = annotation.point.empty() ? tr("Add note") : tr("Add note to %1").arg(q(annotation.point));
    const QString text = QInputDialog::getMultiLineText(m_plot, title, tr("Note:"), {}, &ok);
    if (!ok || text.trimmed().isEmpty())
        return;
    annotation.text = text.trimmed().toStdString();
    auto annotations = m_document->annotations();
    annotations.push_back(std::move(annotation));
    m_document->setAnnotations(std::move(annotations), tr("Add note"));
}

void ReviewOverlay::editNote(std::size_t index)
{
    auto annotations = m_document->annotations();
    if (index >= annotations.size())
        return;
    bool ok = false;
    const QString text = QInputDialog::getMultiLineText(
        m_plot, tr("Edit note"), tr("Note:"), q(annotations[index].text), &ok);
    if (!ok || text.trimmed().isEmpty())
        return;
    annotations[index].text = text.trimmed().toStdString();
    m_document->setAnnotations(std::move(annotations), tr("Edit note"));
}

void ReviewOverlay::removeNote(std::size_t index)
{
    auto annotations = m_document->annotations();
    if (index >= annotations.size())
        return;
    annotations.erase(annotations.begin() + static_cast<std::ptrdiff_t>(index));
    m_document->setAnnotations(std::move(annotations), tr("Remove note"));
}

void ReviewOverlay::editTarget(std::optional<std::size_t> index)
{
    const Hardware &hw = m_document->hardware();
    auto targets = m_document->targets();
    if (index && *index >= targets.size())
        return;
    TargetMarker target = index ? targets[*index] : TargetMarker { {}, 0.6, {} };

    QDialog dialog(m_plot);
    dialog.setObjectName("targetDialog");
    dialog.setWindowTitle(index ? tr("Edit target") : tr("Add target"));
    auto *form = new QFormLayout(&dialog);
    auto *roof = new QComboBox(&dialog);
    roof->setObjectName("targetRoof");
    for (const auto &c : hw.compute)
        roof->addItem(
            tr("%1 (%2)").arg(q(c.name), q(formatQuantity(c.peak, Dimension::FlopRate, 3))),
            q(c.name));
    for (const auto &m : hw.memory)
        roof->addItem(
            tr("%1 (%2)").arg(q(m.name), q(formatQuantity(m.bandwidth, Dimension::ByteRate, 3))),
            q(m.name));
    if (roof->count() == 0)
        return;
    if (const int found = roof->findData(q(target.ceiling)); found >= 0)
        roof->setCurrentIndex(found);
    else if (const MemoryCeiling *main = hw.mainMemory())
        roof->setCurrentIndex(roof->findData(q(main->name)));
    auto *percent = new QSpinBox(&dialog);
    percent->setObjectName("targetPercent");
    percent->setRange(1, 100);
    percent->setSuffix(" %");
    percent->setValue(static_cast<int>(std::lround(target.fraction * 100.0)));
    auto *label = new QLineEdit(q(target.text), &dialog);
    label->setObjectName("targetLabel");
    label->setPlaceholderText(tr("goal: 60 % of HBM3 (empty: written for you)"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(tr("&Roof:"), roof);
    form->addRow(tr("&Fraction of the roof:"), percent);
    form->addRow(tr("&Label:"), label);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return;
    target.ceiling = roof->currentData().toString().toStdString();
    target.fraction = percent->value() / 100.0;
    target.text = label->text().trimmed().toStdString();
    if (index)
        targets[*index] = target;
    else
        targets.push_back(target);
    m_document->setTargets(std::move(targets), index ? tr("Edit target") : tr("Add target"));
}

void ReviewOverlay::removeTarget(std::size_t index)
{
    auto targets = m_document->targets();
    if (index >= targets.size())
        return;
    targets.erase(targets.begin() + static_cast<std::ptrdiff_t>(index));
    m_document->setTargets(std::move(targets), tr("Remove target"));
}

bool ReviewOverlay::showTooltip(const QPoint &position, const QPoint &global)
{
    if (m_plot->pointAt(position) >= 0)
        return false; // the point's own tooltip
    if (const auto arrow = arrowAt(position)) {
        chart::showTooltip(global, m_plot->tooltipHtml(m_arrowTooltips[*arrow]), m_plot);
        return true;
    }
    return false;
}

bool ReviewOverlay::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot && event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        if (showTooltip(help->pos(), help->globalPos()))
            return true;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace ridgepoint
