#include "app/mainwindow.h"

#include "app/reviewcontroller.h"
#include "app/sessioncontroller.h"

#include "core/csv.h"
#include "core/file_io.h"
#include "core/measure.h"
#include "core/units.h"
#include "widgets/document.h"
#include "widgets/exportdialog.h"
#include "widgets/hardwarepanel.h"
#include "widgets/measuredialog.h"
#include "widgets/messagebox.h"
#include "widgets/pointsloader.h"
#include "widgets/pointspanel.h"
#include "widgets/quantmodebox.h"
#include "widgets/rooflineplot.h"
#include "widgets/settings.h"
#include "widgets/workloadpanel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace ridgepoint {
namespace {

QString q(const std::string &text)
{
    return QString::fromStdString(text);
}

constexpr int kFontScales[] = { 100, 125, 150, 200 };

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_presets(PresetDatabase::builtin())
    , m_document(new Document(this))
    , m_plot(new RooflinePlot(this))
    , m_sessionName(tr("Untitled"))
{
    m_plot->setDocument(m_document);
    setCentralWidget(m_plot);
    m_sessions = new SessionController(this, m_document, m_plot);
    connect(m_sessions, &SessionController::fileNameChanged, this, [this] {
        m_sessionName = m_sessions->name();
        updateTitle();
    });
    buildDocks();
    m_review = new ReviewController(this, m_document, m_plot, m_pointsPanel);
    buildMenus();
    m_cursorLabel = new QLabel(this);
    statusBar()->addPermanentWidget(m_cursorLabel);
    connect(m_plot, &RooflinePlot::cursorMoved, this, &MainWindow::showCursor);
    connect(m_document->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(m_document, &Document::hardwareChanged, this, &MainWindow::updateTitle);
    connect(m_document, &Document::hardwareChanged, this, &MainWindow::rememberPreset);
    updateTitle();
    resize(1600, 950);
    restoreGeometry(Settings::get(settings::windowGeometry));
    restoreState(Settings::get(settings::windowState));
}

MainWindow::~MainWindow()
{
    // The Document (a child) outlives this destructor: its undo stack's last signals must not
    // reach a half-destroyed window.
    m_document->undoStack()->disconnect(this);
    m_document->disconnect(this);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_sessions->maybeSave()) {
        event->ignore();
        return;
    }
    m_sessions->discardAutosave();
    Settings::set(settings::windowGeometry, saveGeometry());
    Settings::set(settings::windowState, saveState());
    QMainWindow::closeEvent(event);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open points…"), QKeySequence::Open, this, [this] {
        const QString name = QFileDialog::getOpenFileName(
            this, tr("Open points"), QString(), tr("Point files (*.csv);;All files (*)"));
        if (!name.isEmpty())
            openPointsFile(name);
    });
    file->addSeparator();
    m_sessions->addActions(file);
    file->addSeparator();
    m_review->addBaselineActions(file);
    file->addSeparator();
    file->addAction(
        tr("&Export chart…"), QKeySequence(tr("Ctrl+E")), this, &MainWindow::exportChart);
    m_review->addExportAction(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    // The undo actions name the step they undo ("Undo Move gemm").
    QAction *undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(
        tr("&Duplicate selected points"), m_pointsPanel, &PointsPanel::duplicateSelected);
    edit->addAction(tr("De&lete selected points"), m_pointsPanel, &PointsPanel::deleteSelected);
    edit->addAction(tr("&Clear what-if moves"), m_document, &Document::clearWhatIfs);

    QMenu *hardwareMenu = menuBar()->addMenu(tr("&Hardware"));
    hardwareMenu->addAction(tr("&Measure this machine…"), this, [this] {
        MeasureOptions options;
        options.spec = findSpecForCpu(m_presets.machines(), detectCpuModel());
        MeasureDialog dialog(options, this);
        if (dialog.exec() != QDialog::Accepted || !dialog.result())
            return;
        m_hardwarePanel->addMachine(dialog.result()->hardware);
        m_document->selectHardware(dialog.result()->hardware);
    });

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *zoomIn = view->addAction(tr("Zoom &in"), this, [this] { m_plot->zoomBy(2.0); });
    zoomIn->setShortcuts({ QKeySequence::ZoomIn, QKeySequence(tr("Ctrl+=")) });
    QAction *zoomOut = view->addAction(tr("Zoom &out"), this, [this] { m_plot->zoomBy(0.5); });
    zoomOut->setShortcuts({ QKeySequence::ZoomOut, QKeySequence(tr("Ctrl+-")) });
    view->addAction(
        tr("&Fit to data"), QKeySequence(tr("Ctrl+0")), m_plot, &RooflinePlot::fitToData);
    view->addAction(tr("&Reset to hardware frame"), QKeySequence(tr("Ctrl+R")), m_plot,
        &RooflinePlot::resetToHardwareFrame);
    QAction *shading = view->addAction(tr("&Shade memory- and compute-bound regions"));
    shading->setCheckable(true);
    connect(shading, &QAction::toggled, m_plot, [this](bool on) {
        m_plot->setRegionShading(on);
        Settings::set(settings::regionShading, on);
    });
    shading->setChecked(Settings::get(settings::regionShading));
    QAction *labels = view->addAction(tr("&Label all points"));
    labels->setObjectName("labelAllPoints");
    labels->setCheckable(true);
    labels->setShortcut(QKeySequence(tr("Ctrl+L")));
    connect(labels, &QAction::toggled, m_plot, [this](bool on) {
        m_plot->setAllPointLabels(on);
        Settings::set(settings::allPointLabels, on);
    });
    labels->setChecked(Settings::get(settings::allPointLabels));

    QMenu *themes = view->addMenu(tr("&Theme"));
    auto *themeGroup = new QActionGroup(this);
    const std::tuple<QString, QString, ChartTheme::Kind> kThemes[] = {
        { "light", tr("&Light"), ChartTheme::Kind::Light },
        { "dark", tr("&Dark"), ChartTheme::Kind::Dark },
        { "print", tr("&Print (black on white, thick lines, large fonts)"),
            ChartTheme::Kind::Print },
    };
    const QString savedTheme = Settings::get(settings::theme);
    for (const auto &entry : kThemes) {
        // Named copies: clang 14 cannot capture structured bindings in a lambda.
        const QString key = std::get<0>(entry);
        const ChartTheme::Kind kind = std::get<2>(entry);
        QAction *action = themes->addAction(std::get<1>(entry));
        action->setObjectName("theme-" + key);
        action->setCheckable(true);
        themeGroup->addAction(action);
        connect(action, &QAction::triggered, this, [this, key, kind] {
            setTheme(kind);
            Settings::set(settings::theme, key);
        });
        if (key == savedTheme)
            setTheme(kind);
    }
    QMenu *fontSizes = view->addMenu(tr("Presentation &font size"));
    auto *fontGroup = new QActionGroup(this);
    for (const int percent : kFontScales) {
        QAction *action = fontSizes->addAction(tr("%1 %").arg(percent));
        action->setObjectName(QStringLiteral("fontScale-%1").arg(percent));
        action->setCheckable(true);
        fontGroup->addAction(action);
        connect(
            action, &QAction::triggered, this, [this, percent] { setFontScalePercent(percent); });
    }
    setFontScalePercent(Settings::get(settings::fontScalePercent));
    view->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        view->addAction(dock->toggleViewAction());
}

void MainWindow::setTheme(ChartTheme::Kind kind)
{
    const ChartTheme theme = ChartTheme::of(kind);
    m_plot->setTheme(theme);
    QApplication::setPalette(theme.windowPalette());
    const char *key = kind == ChartTheme::Kind::Dark ? "dark"
        : kind == ChartTheme::Kind::Print            ? "print"
                                                     : "light";
    if (auto *action = findChild<QAction *>(QStringLiteral("theme-") + key))
        action->setChecked(true);
}

void MainWindow::setFontScalePercent(int percent)
{
    if (std::find(std::begin(kFontScales), std::end(kFontScales), percent) == std::end(kFontScales))
        percent = 100; // a hand-edited settings file
    m_plot->setFontScale(percent / 100.0);
    Settings::set(settings::fontScalePercent, percent);
    if (auto *action = findChild<QAction *>(QStringLiteral("fontScale-%1").arg(percent)))
        action->setChecked(true);
}

void MainWindow::buildDocks()
{
    QToolBar *tools = addToolBar(tr("Workloads"));
    tools->setObjectName("workloadsToolBar");
    tools->addWidget(new QLabel(tr(" Quantization: "), tools));
    auto *quant = new QuantModeBox(m_document, tools);
    quant->setObjectName("toolbarQuantMode");
    tools->addWidget(quant);

    auto *workloadsDock = new QDockWidget(tr("Workloads"), this);
    workloadsDock->setObjectName("workloadsDock");
    m_workloadPanel = new WorkloadPanel(m_document, workloadsDock);
    workloadsDock->setWidget(m_workloadPanel);
    addDockWidget(Qt::RightDockWidgetArea, workloadsDock);

    m_hardwarePanel = new HardwarePanel(m_document, m_presets.machines(), this);
    auto *machineDock = new QDockWidget(tr("Hardware"), this);
    machineDock->setObjectName("hardwareDock");
    machineDock->setWidget(m_hardwarePanel);
    addDockWidget(Qt::LeftDockWidgetArea, machineDock);

    m_pointsPanel = new PointsPanel(m_document, this);
    auto *pointsDock = new QDockWidget(tr("Kernels"), this);
    pointsDock->setObjectName("kernelsDock");
    pointsDock->setWidget(m_pointsPanel);
    addDockWidget(Qt::BottomDockWidgetArea, pointsDock);
    resizeDocks({ machineDock }, { 420 }, Qt::Horizontal);
    resizeDocks({ pointsDock }, { 260 }, Qt::Vertical);
}

void MainWindow::setHardware(const Hardware &hardware)
{
    m_document->resetHardware(hardware);
    m_plot->resetToHardwareFrame();
}

bool MainWindow::openLastPreset()
{
    const QString name = Settings::get(settings::lastPreset);
    for (const Hardware &machine : m_presets.machines()) {
        if (!name.isEmpty() && q(machine.name) == name) {
            setHardware(machine);
            return true;
        }
    }
    return false;
}

void MainWindow::rememberPreset()
{
    // Only presets: an edited "Custom (from …)" machine or one from a file is not reopened.
    const std::string &name = m_document->hardware().name;
    for (const Hardware &machine : m_presets.machines()) {
        if (machine.name == name) {
            Settings::set(settings::lastPreset, q(name));
            return;
        }
    }
}

void MainWindow::setPoints(std::vector<KernelPoint> points, const QString &origin)
{
    m_document->resetPoints(std::move(points));
    m_sessionName = origin.isEmpty() ? tr("Untitled") : QFileInfo(origin).completeBaseName();
    if (m_sessionName.isEmpty())
        m_sessionName = origin;
    updateTitle();
    statusBar()->showMessage(
        tr("%n kernels from %1", nullptr, static_cast<int>(m_document->pointCount()))
            .arg(origin.isEmpty() ? tr("nowhere") : origin));
}

bool MainWindow::openPointsFile(const QString &fileName)
{
    if (!m_sessions->maybeSave())
        return false;
    PointsLoad load = loadPointsFile(this, fileName);
    if (load.status == PointsLoad::Status::Cancelled) {
        statusBar()->showMessage(
            tr("Reading %1 cancelled; nothing was changed").arg(fileName), 5000);
        return false;
    }
    if (load.status == PointsLoad::Status::Unreadable) {
        MessageBox::warn(this, tr("Cannot open points"), load.error);
        return false;
    }
    PointsReadResult &result = load.result.points;
    if (!confirmPointsRead(this, fileName, result, tr("Cannot open points"),
            tr("No usable point in %1; nothing was changed.").arg(fileName),
            tr("Import the other %1?")))
        return false;
    setPoints(std::move(result.points), fileName);
    m_plot->fitToData();
    return true;
}

void MainWindow::updateTitle()
{
    setWindowTitle(
        tr("Ridgepoint — %1 on %2[*]").arg(m_sessionName, q(m_document->hardware().name)));
    setWindowModified(!m_document->undoStack()->isClean());
}

void MainWindow::showCursor(double intensity, double performance)
{
    if (!std::isfinite(intensity) || !std::isfinite(performance)) {
        m_cursorLabel->clear();
        return;
    }
    const Hardware &hw = m_document->hardware();
    QString text = tr("I = %1 FLOP/B   P = %2")
                       .arg(q(formatSignificant(intensity, 3)),
                           q(formatQuantity(performance, Dimension::FlopRate, 3)));
    const ComputeCeiling *compute = hw.defaultComputeCeiling();
    const MemoryCeiling *memory = hw.mainMemory();
    if (compute && memory)
        text += tr("   roof here: %1")
                    .arg(q(formatQuantity(
                        attainablePerformance(compute->peak, memory->bandwidth, intensity),
                        Dimension::FlopRate, 3)));
    m_cursorLabel->setText(text);
}

void MainWindow::exportChart()
{
    ExportDialog dialog(m_plot, this);
    if (dialog.exec() == QDialog::Accepted)
        statusBar()->showMessage(tr("Chart written to %1").arg(dialog.fileName()), 5000);
}

} // namespace ridgepoint
