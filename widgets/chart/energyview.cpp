#include "widgets/chart/energyview.h"
#include "widgets/qtext.h"

#include "widgets/document/document.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ridgepoint {

EnergyView::EnergyView(Document *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_plot(new QCustomPlot(this))
    , m_message(new QLabel(this))
    , m_capLabel(new QLabel(this))
    , m_slider(new QSlider(Qt::Horizontal, this))
{
    setWindowTitle(tr("Energy roofline"));
    m_message->setWordWrap(true);
    m_message->setObjectName("energyMessage");
    m_slider->setObjectName("powerCapSlider");
    m_slider->setPageStep(50);
    m_slider->setSingleStep(5);
    m_slider->setToolTip(tr("The machine's power cap P_cap: the capped roof on the roofline "
                            "follows it (docs/MODEL.md §14)"));
    auto *capRow = new QHBoxLayout;
    capRow->addWidget(new QLabel(tr("Power cap:"), this));
    capRow->addWidget(m_slider, 1);
    capRow->addWidget(m_capLabel);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_message);
    layout->addWidget(m_plot, 1);
    layout->addLayout(capRow);
    m_plot->setMinimumSize(480, 320);
    m_plot->setAntialiasedElements(QCP::aeAll);
    connect(m_slider, &QSlider::valueChanged, this, &EnergyView::capMoved);
    // A drag is one undo step: previews while the handle moves, the last value when let go.
    connect(m_slider, &QSlider::sliderReleased, this, [this] { capMoved(m_slider->value()); });
    connect(m_document, &Document::hardwareChanged, this, &EnergyView::redraw);
    connect(m_document, &Document::pointsReset, this, &EnergyView::redraw);
    connect(m_document, &Document::roofsShownChanged, this, &EnergyView::redraw);
    connect(m_document, &Document::pointsChanged, this, &EnergyView::redraw);
    redraw();
}

void EnergyView::setTheme(const ChartTheme &theme)
{
    m_theme = theme;
    redraw();
}

QString EnergyView::message() const
{
    return m_message->text();
}

void EnergyView::redraw()
{
    m_drawn = chart::drawEnergyChart(*m_plot, *m_document, m_theme);
    m_plot->setVisible(m_drawn.problem.isEmpty());
    m_message->setText(m_drawn.problem.isEmpty() ? m_drawn.note : m_drawn.problem);
    m_message->setVisible(!m_message->text().isEmpty());
    syncSlider();
    m_plot->replot();
}

void EnergyView::syncSlider()
{
    const auto &energy = m_document->hardware().limits.energy;
    const bool shown = energy && energy->powerCapWatts && energy->staticWatts;
    m_slider->setVisible(shown);
    m_capLabel->setVisible(shown);
    if (!shown)
        return;
    // From just above P0 (a cap at P0 leaves no power for work) to twice the cap, in watts.
    const int low = static_cast<int>(std::floor(*energy->staticWatts)) + 1;
    const int cap = static_cast<int>(std::lround(*energy->powerCapWatts));
    const QSignalBlocker block(m_slider);
    m_slider->setRange(low, std::max({ low + 1, 2 * cap, m_slider->maximum() }));
    m_slider->setValue(cap);
    m_capLabel->setText(tr("%1 W").arg(*energy->powerCapWatts, 0, 'g', 4));
}

void EnergyView::capMoved(int watts)
{
    Hardware hw = m_document->hardware();
    if (!hw.limits.energy || !hw.limits.energy->staticWatts
        || !(watts > *hw.limits.energy->staticWatts))
        return;
    hw.limits.energy->powerCapWatts = static_cast<double>(watts);
    m_capLabel->setText(tr("%1 W").arg(watts));
    const EditPhase phase = m_slider->isSliderDown() ? EditPhase::Preview : EditPhase::Final;
    m_document->editHardware(std::move(hw), tr("Power cap %1 W").arg(watts), phase);
}

} // namespace ridgepoint
