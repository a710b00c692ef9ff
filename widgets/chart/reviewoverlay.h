// The review layers of the chart: the baseline run (faint points and an arrow from each to its
// current namesake, labelled with the speed-up), review notes and target lines — all drawn from
// the Document's undoable state, so exports show them — and the chart's context menu that adds,
// edits and removes them. It attaches to a RooflinePlot from outside, on its own layers
// (annotationitems.h), and redraws when the Document says something changed.
#pragma once

#include "widgets/chart/baselineindex.h"

#include <QObject>
#include <QPointF>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

class QCPGraph;
class QMenu;

namespace ridgepoint {

class Document;
class RooflinePlot;

namespace review {
class BaselineArrow;
class NoteCallout;
class TargetLine;
} // namespace review

class ReviewOverlay : public QObject
{
    Q_OBJECT

public:
    // Arrows drawn at most; further pairs show as faint baseline points only.
    static constexpr std::size_t kMaxArrows = 2000;

    ReviewOverlay(RooflinePlot *plot, Document *document);
    ~ReviewOverlay() override;

    // What is drawn (chart coordinates), for tests and tools.
    struct Arrow {
        QPointF from; // baseline
        QPointF to; // current
        QString label; // "×1.8", empty when the pair has no speed-up (a planned point)
        QString tooltip; // the numbers and the formula
    };
    std::vector<Arrow> baselineArrows() const;
    std::vector<QPointF> baselinePoints() const;
    struct Note {
        QPointF at;
        QString text;
        std::size_t annotation; // index in Document::annotations()
    };
    std::vector<Note> notes() const;
    QStringList targetLabels() const;

    // The note, target or arrow under a widget position (within a few pixels), or nullopt.
    std::optional<std::size_t> noteAt(const QPointF &position) const; // annotation index
    std::optional<std::size_t> targetAt(const QPointF &position) const; // target index
    std::optional<std::size_t> arrowAt(const QPointF &position) const;

    // The chart's right-click menu at a widget position (the caller owns it): Add note here,
    // Add note to <point> over a point, Add target…, and Edit/Remove over a note or target.
    QMenu *createContextMenu(const QPointF &position);

    // "goal: 60 % of HBM3" for a target without its own text.
    static QString targetText(const TargetMarker &target);

private:
    void releaseItems();
    void rebuild();
    void rebuildBaseline();
    void rebuildIndex(); // the baseline's index, and this run's times when it matches by operator
    void followCurrent(); // this run's times per operator, after its points changed
    void rebuildArrows();
    void rebuildNotes();
    void rebuildTargets();
    void followPoints();
    std::optional<QPointF> noteAnchor(const Annotation &annotation) const;
    bool showTooltip(const QPoint &position, const QPoint &global);

    void addNote(Annotation annotation);
    void editNote(std::size_t index);
    void removeNote(std::size_t index);
    void editTarget(std::optional<std::size_t> index);
    void removeTarget(std::size_t index);

    bool eventFilter(QObject *watched, QEvent *event) override;

    RooflinePlot *m_plot;
    Document *m_document;
    BaselineIndex m_baselineIndex;
    int m_themeKind = -1;
    QCPGraph *m_baselineGraph = nullptr;
    std::vector<QPointF> m_baselinePoints;
    std::vector<std::unique_ptr<review::BaselineArrow>> m_arrows;
    std::vector<QString> m_arrowTooltips;
    std::vector<std::unique_ptr<review::NoteCallout>> m_notes;
    std::vector<std::size_t> m_noteIndex; // annotation index of each callout
    std::vector<std::unique_ptr<review::TargetLine>> m_targets;
    std::vector<std::size_t> m_targetIndex;
};

} // namespace ridgepoint
