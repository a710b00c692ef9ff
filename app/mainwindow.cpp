#include "app/mainwindow.h"

#include "core/csv.h"
#include "core/file_io.h"
#include "core/units.h"
#include "widgets/rooflineplot.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ridgepoint {
namespace {

QString q(const std::string &text)
{
    return QString::fromStdString(text);
}

// A table cell that sorts by number while showing text with units.
QTableWidgetItem *numberItem(double value, const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setData(Qt::UserRole, value);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_presets(PresetDatabase::builtin())
    , m_plot(new RooflinePlot(this))
{
    setCentralWidget(m_plot);
    buildMenus();
    buildDocks();
    resize(1500, 900);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open points…"), this, [this] {
        const QString name = QFileDialog::getOpenFileName(
            this, tr("Open points"), QString(), tr("Point files (*.csv);;All files (*)"));
        if (!name.isEmpty())
            openPointsFile(name);
    });
    open->setShortcut(QKeySequence::Open);
    QAction *exportAction = file->addAction(tr("&Export chart…"), this, &MainWindow::exportChart);
    exportAction->setShortcut(QKeySequence(tr("Ctrl+E")));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(
        tr("&Fit to data"), QKeySequence(tr("Ctrl+0")), m_plot, &RooflinePlot::fitToData);
    view->addAction(tr("&Reset to hardware frame"), QKeySequence(tr("Ctrl+R")), m_plot,
        &RooflinePlot::resetToHardwareFrame);
}

void MainWindow::buildDocks()
{
    auto *machinePanel = new QWidget(this);
    auto *layout = new QVBoxLayout(machinePanel);
    m_presetBox = new QComboBox(machinePanel);
    for (const auto &machine : m_presets.machines())
        m_presetBox->addItem(q(machine.name));
    m_presetBox->setAccessibleName(tr("Hardware preset"));
    connect(m_presetBox, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0 && static_cast<std::size_t>(index) < m_presets.machines().size())
            setHardware(m_presets.machines()[static_cast<std::size_t>(index)]);
    });
    m_sourceLabel = new QLabel(machinePanel);
    m_sourceLabel->setWordWrap(true);
    m_sourceLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_ceilingsTable = new QTableWidget(0, 3, machinePanel);
    m_ceilingsTable->setHorizontalHeaderLabels({ tr("Ceiling"), tr("Kind"), tr("Value") });
    m_ceilingsTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_ceilingsTable->verticalHeader()->hide();
    m_ceilingsTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    layout->addWidget(new QLabel(tr("Machine"), machinePanel));
    layout->addWidget(m_presetBox);
    layout->addWidget(m_ceilingsTable, 1);
    layout->addWidget(m_sourceLabel);
    auto *machineDock = new QDockWidget(tr("Hardware"), this);
    machineDock->setObjectName("hardwareDock");
    machineDock->setWidget(machinePanel);
    addDockWidget(Qt::LeftDockWidgetArea, machineDock);

    m_pointsTable = new QTableWidget(0, 9, this);
    m_pointsTable->setHorizontalHeaderLabels(
        { tr("Kernel"), tr("Group"), tr("FLOPs"), tr("Intensity [FLOP/B]"), tr("Performance"),
            tr("Attainable"), tr("Bound"), tr("Utilization"), tr("Note") });
    m_pointsTable->horizontalHeader()->setStretchLastSection(true);
    m_pointsTable->verticalHeader()->hide();
    m_pointsTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_pointsTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    auto *pointsDock = new QDockWidget(tr("Kernels"), this);
    pointsDock->setObjectName("kernelsDock");
    pointsDock->setWidget(m_pointsTable);
    addDockWidget(Qt::BottomDockWidgetArea, pointsDock);
}

void MainWindow::setHardware(const Hardware &hardware)
{
    m_hardware = hardware;
    const int index = m_presetBox->findText(q(hardware.name));
    if (index >= 0 && index != m_presetBox->currentIndex()) {
        const QSignalBlocker blocker(m_presetBox);
        m_presetBox->setCurrentIndex(index);
    } else if (index < 0) {
        const QSignalBlocker blocker(m_presetBox);
        m_presetBox->addItem(q(hardware.name));
        m_presetBox->setCurrentIndex(m_presetBox->count() - 1);
    }
    setWindowTitle(tr("Ridgepoint — %1").arg(q(hardware.name)));
    m_sourceLabel->setText(tr("<small>Source: %1</small>").arg(q(hardware.source).toHtmlEscaped()));
    m_plot->setHardware(hardware);
    fillCeilingsTable();
    reanalyse();
}

void MainWindow::setPoints(std::vector<KernelPoint> points, const QString &origin)
{
    m_points = std::move(points);
    m_origin = origin;
    reanalyse();
}

bool MainWindow::openPointsFile(const QString &fileName)
{
    auto text = readTextFile(fileName.toStdString());
    if (!text) {
        QMessageBox::warning(this, tr("Cannot open points"), q(text.error()));
        return false;
    }
    auto result = readPointsCsv(*text, fileName.toStdString());
    if (!result.diagnostics.empty()) {
        QStringList lines;
        for (const auto &d : result.diagnostics)
            lines << q(d.toString());
        const QString summary = result.points.empty()
            ? tr("No usable point in %1.").arg(fileName)
            : tr("%1 of %2 rows of %3 were skipped; the other %4 are shown.")
                  .arg(result.rowsSkipped)
                  .arg(result.rowsRead)
                  .arg(fileName)
                  .arg(result.points.size());
        QMessageBox box(QMessageBox::Warning, tr("Problems in %1").arg(fileName), summary,
            QMessageBox::Ok, this);
        box.setDetailedText(lines.join('\n'));
        box.exec();
    }
    if (result.points.empty())
        return false;
    setPoints(std::move(result.points), fileName);
    m_plot->fitToData();
    return true;
}

void MainWindow::reanalyse()
{
    std::vector<Diagnostic> problems;
    m_analysed = analyzePoints(m_points, m_hardware, {}, problems);
    m_plot->setPoints(m_analysed);
    fillPointsTable();
    QString message = tr("%1 kernels on %2").arg(m_analysed.size()).arg(q(m_hardware.name));
    if (!m_origin.isEmpty())
        message += tr(" — from %1").arg(m_origin);
    if (!problems.empty())
        message += tr(" — %1 cannot be placed on this machine: %2")
                       .arg(problems.size())
                       .arg(q(problems.front().message));
    statusBar()->showMessage(message);
}

void MainWindow::fillCeilingsTable()
{
    m_ceilingsTable->setRowCount(0);
    const auto addRow = [this](const QString &name, const QString &kind, const QString &value) {
        const int row = m_ceilingsTable->rowCount();
        m_ceilingsTable->insertRow(row);
        m_ceilingsTable->setItem(row, 0, new QTableWidgetItem(name));
        m_ceilingsTable->setItem(row, 1, new QTableWidgetItem(kind));
        auto *item = new QTableWidgetItem(value);
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_ceilingsTable->setItem(row, 2, item);
    };
    for (const auto &c : m_hardware.compute) {
        addRow(q(c.name),
            q(std::string(precisionName(c.precision))) + (c.sparse ? tr(" sparse") : ""),
            q(formatQuantity(c.peak, Dimension::FlopRate)));
    }
    for (const auto &m : m_hardware.memory)
        addRow(q(m.name), q(std::string(memoryLevelName(m.level))),
            q(formatQuantity(m.bandwidth, Dimension::ByteRate)));
    m_ceilingsTable->resizeColumnsToContents();
}

void MainWindow::fillPointsTable()
{
    m_pointsTable->setSortingEnabled(false);
    m_pointsTable->setRowCount(static_cast<int>(m_analysed.size()));
    for (int row = 0; row < static_cast<int>(m_analysed.size()); ++row) {
        const auto &[point, a] = m_analysed[static_cast<std::size_t>(row)];
        m_pointsTable->setItem(row, 0, new QTableWidgetItem(q(point.name)));
        m_pointsTable->setItem(row, 1, new QTableWidgetItem(q(point.group)));
        m_pointsTable->setItem(
            row, 2, numberItem(point.flops, q(formatQuantity(point.flops, Dimension::Flops))));
        const double intensity = a.levels.front().intensity;
        m_pointsTable->setItem(row, 3, numberItem(intensity, q(formatSignificant(intensity, 4))));
        m_pointsTable->setItem(row, 4,
            a.performance
                ? numberItem(*a.performance, q(formatQuantity(*a.performance, Dimension::FlopRate)))
                : new QTableWidgetItem(tr("planned")));
        m_pointsTable->setItem(
            row, 5, numberItem(a.attainable, q(formatQuantity(a.attainable, Dimension::FlopRate))));
        m_pointsTable->setItem(row, 6,
            new QTableWidgetItem(
                tr("%1 (%2)").arg(q(std::string(boundName(a.bound))), q(a.limitingCeiling))));
        m_pointsTable->setItem(row, 7,
            a.utilization
                ? numberItem(*a.utilization, q(formatSignificant(*a.utilization * 100.0, 3)) + " %")
                : new QTableWidgetItem("-"));
        auto *note = new QTableWidgetItem(
            a.consistent ? q(a.note) : tr("INCONSISTENT: %1").arg(q(a.note)));
        if (!a.consistent)
            note->setForeground(QColor(0xc0, 0x00, 0x00));
        m_pointsTable->setItem(row, 8, note);
    }
    m_pointsTable->resizeColumnsToContents();
    m_pointsTable->setSortingEnabled(true);
}

void MainWindow::exportChart()
{
    const QString name = QFileDialog::getSaveFileName(
        this, tr("Export chart"), "roofline.png", tr("PNG (*.png);;SVG (*.svg);;PDF (*.pdf)"));
    if (name.isEmpty())
        return;
    const QString error = m_plot->exportTo(name, 1600, 1000);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export failed"), error);
    else
        statusBar()->showMessage(tr("Chart written to %1").arg(name), 5000);
}

} // namespace ridgepoint
