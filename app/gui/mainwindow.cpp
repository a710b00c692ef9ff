#include "app/gui/mainwindow.h"
#include "widgets/qtext.h"

#include "app/gui/docklayout.h"
#include "app/gui/helpmenu.h"
#include "app/gui/importcontroller.h"
#include "app/gui/reviewcontroller.h"
#include "app/gui/sessioncontroller.h"

#include "core/io/file_io.h"
#include "core/io/formats/csv.h"
#include "core/model/units.h"
#include "measure/measure.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/chart/themestyle.h"
#include "widgets/dialogs/exportdialog.h"
#include "widgets/dialogs/measuredialog.h"
#include "widgets/dialogs/messagebox.h"
#include "widgets/document/document.h"
#include "widgets/document/pointsloader.h"
#include "widgets/document/settings.h"
#include "widgets/export/chartexporter.h"
#include "widgets/export/figuresession.h"
#include "widgets/panels/hardwarepanel.h"
#include "widgets/panels/pointspanel.h"
#include "widgets/panels/quantmodebox.h"
#include "widgets/panels/workloadpanel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScrollArea>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace ridgepoint {
namespace {

constexpr int kFontScales[] = { 100, 125, 150, 200 };

// A tall panel in a dock scrolls rather than making the window's least height its own (the
// workloads panel alone asked for 560 pixels, more than a 1024 × 700 window has beside the
// chart); it scrolls sideways only when the dock is narrower than 260 pixels.
QWidget *scrolled(QWidget *panel, QWidget *parent)
{
    auto *area = new QScrollArea(parent);
    area->setWidget(panel);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setMinimumWidth(std::min(panel->minimumSizeHint().width(), 260));
    return area;
}

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
    m_import = new ImportController(this, m_document, m_hardwarePanel, m_sessions);
    buildMenus();
    setAcceptDrops(true);
    m_cursorLabel = new QLabel(this);
    // Permanent, so a passing message ("Loaded ...") never prints over it.
    auto *whatNext = new QLabel(m_pointsPanel->whatNext(), this); // payoff, MODEL.md §2.2
    whatNext->setObjectName(QStringLiteral("whatNext"));
    statusBar()->addPermanentWidget(whatNext);
    statusBar()->addPermanentWidget(m_cursorLabel);
    connect(m_pointsPanel, &PointsPanel::whatNextChanged, whatNext, &QLabel::setText);
    // The chart dims the points the Kernels table's filter leaves out.
    connect(m_pointsPanel->proxy(), &PointsFilterModel::keptRowsChanged, m_plot,
        [this] { m_plot->setFilterKept(m_pointsPanel->proxy()->keptRows()); });
    connect(m_plot, &RooflinePlot::cursorMoved, this, &MainWindow::showCursor);
    connect(m_document->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(m_document, &Document::hardwareChanged, this, &MainWindow::updateTitle);
    connect(m_document, &Document::editRefused, this,
        [this](const QString &why) { statusBar()->showMessage(why, 10000); });
    connect(m_document, &Document::hardwareChanged, this, &MainWindow::rememberPreset);
    updateTitle();
    resize(1600, 950);
    restoreGeometry(Settings::get(settings::windowGeometry));
    m_dockLayout->restore(Settings::get(settings::windowState));
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
    buildFileMenu();
    buildEditMenu();
    buildHardwareMenu();
    buildViewMenu();
    addHelpMenu(this);
}

void MainWindow::buildFileMenu()
{
    // Open is for sessions (and figures carrying one); Import takes any file Ridgepoint reads.
    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_sessions->addNewActions(file);
    m_sessions->addOpenActions(file);
    m_import->addImportAction(file);
    file->addSeparator();
    m_sessions->addSaveActions(file);
    file->addSeparator();
    m_review->addBaselineActions(file);
    file->addSeparator();
    QAction *exportImage = file->addAction(
        tr("&Export image…"), QKeySequence(tr("Ctrl+E")), this, &MainWindow::exportChart);
    exportImage->setObjectName("exportImage");
    m_review->addExportAction(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::buildEditMenu()
{
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
    edit->addSeparator();
    QAction *copy = edit->addAction(
        tr("C&opy chart"), QKeySequence(tr("Ctrl+Shift+C")), this, &MainWindow::copyChart);
    copy->setObjectName("copyChart");
    copy->setStatusTip(tr("The chart as PNG and SVG, with its session, for pasting elsewhere"));
}

void MainWindow::buildHardwareMenu()
{
    QMenu *hardwareMenu = menuBar()->addMenu(tr("&Hardware"));
    m_import->addHardwareActions(hardwareMenu);
    QAction *measure = hardwareMenu->addAction(tr("&Measure this machine…"), this, [this] {
        MeasureOptions options;
        options.spec = findSpecForCpu(m_presets.machines(), detectCpuModel());
        MeasureDialog dialog(options, m_presets.machines(), this);
        if (dialog.exec() != QDialog::Accepted || !dialog.result())
            return;
        m_hardwarePanel->addMachine(dialog.result()->hardware);
        m_document->selectHardware(dialog.result()->hardware);
    });
    measure->setObjectName("measureMachine");
}

void MainWindow::buildViewMenu()
{
    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *zoomIn = view->addAction(tr("Zoom &in"), this, [this] { m_plot->zoomBy(2.0); });
    zoomIn->setShortcuts({ QKeySequence::ZoomIn, QKeySequence(tr("Ctrl+=")) });
    QAction *zoomOut = view->addAction(tr("Zoom &out"), this, [this] { m_plot->zoomBy(0.5); });
    zoomOut->setShortcuts({ QKeySequence::ZoomOut, QKeySequence(tr("Ctrl+-")) });
    view->addAction(
        tr("&Fit to data"), QKeySequence(tr("Ctrl+0")), m_plot, &RooflinePlot::fitToData);
    view->addAction(tr("Fit to &hardware"), QKeySequence(tr("Ctrl+R")), m_plot,
        &RooflinePlot::resetToHardwareFrame);
    // Every visible compute roof (sparse 2:4 and precisions no point uses), not only the
    // data's; a view setting saved in the session.
    QAction *allRoofs = view->addAction(tr("Show &all roofs"));
    allRoofs->setObjectName(QStringLiteral("showAllRoofs"));
    allRoofs->setCheckable(true);
    allRoofs->setShortcut(QKeySequence(tr("Ctrl+Shift+R")));
    connect(allRoofs, &QAction::toggled, m_document,
        [this](bool on) { m_document->setRoofsShown(on ? RoofsShown::All : RoofsShown::Data); });
    connect(m_document, &Document::roofsShownChanged, allRoofs,
        [this, allRoofs] { allRoofs->setChecked(m_document->roofsShown() == RoofsShown::All); });
    QAction *shading = view->addAction(tr("&Shade memory- and compute-bound regions"));
    shading->setCheckable(true);
    connect(shading, &QAction::toggled, m_plot, [this](bool on) {
        chart::changeDisplay(*m_plot, [&](chart::PlotDisplay &d) { d.regionShading = on; });
        Settings::set(settings::regionShading, on);
    });
    shading->setChecked(Settings::get(settings::regionShading));
    QAction *labels = view->addAction(tr("&Label all points"));
    labels->setObjectName("labelAllPoints");
    labels->setCheckable(true);
    labels->setShortcut(QKeySequence(tr("Ctrl+L")));
    connect(labels, &QAction::toggled, m_plot, [this](bool on) {
        chart::changeDisplay(*m_plot, [&](chart::PlotDisplay &d) { d.allPointLabels = on; });
        Settings::set(settings::allPointLabels, on);
    });
    labels->setChecked(Settings::get(settings::allPointLabels));
    view->addSeparator();
    buildFiguresActions(view);
    view->addSeparator();

    buildThemeMenu(view->addMenu(tr("&Theme")));
    buildFontSizeMenu(view->addMenu(tr("Presentation &font size")));
    buildLegendMenu(view->addMenu(tr("Le&gend")));
    buildPointsMenu(view->addMenu(tr("&Points")));
    buildDotSizeAction(view);
    buildEnergyAction(view);
    view->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        view->addAction(dock->toggleViewAction());
}

void MainWindow::buildThemeMenu(QMenu *themes)
{
    auto *themeGroup = new QActionGroup(this);
    const std::pair<QString, ChartTheme::Kind> kThemes[] = {
        { tr("&Light"), ChartTheme::Kind::Light },
        { tr("&Dark"), ChartTheme::Kind::Dark },
        { tr("&Print (black on white, thick lines, large fonts)"), ChartTheme::Kind::Print },
    };
    const QString savedTheme = Settings::get(settings::theme);
    for (const auto &entry : kThemes) {
        // Named copies: clang 14 cannot capture structured bindings in a lambda.
        const ChartTheme::Kind kind = entry.second;
        const QString key = QLatin1String(ChartTheme::of(kind).key()); // the name sessions use
        QAction *action = themes->addAction(entry.first);
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
}

void MainWindow::buildFontSizeMenu(QMenu *fontSizes)
{
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
}

void MainWindow::setTheme(ChartTheme::Kind kind)
{
    const ChartTheme theme = ChartTheme::of(kind);
    chart::changeDisplay(*m_plot, [&](chart::PlotDisplay &d) { d.theme = theme; });
    applyWindowTheme(theme); // palette and outlines that stay visible on it
    if (auto *action = findChild<QAction *>(QStringLiteral("theme-") + theme.key()))
        action->setChecked(true);
}

void MainWindow::setFontScalePercent(int percent)
{
    if (std::find(std::begin(kFontScales), std::end(kFontScales), percent) == std::end(kFontScales))
        percent = 100; // a hand-edited settings file
    chart::changeDisplay(*m_plot, [&](chart::PlotDisplay &d) { d.fontScale = percent / 100.0; });
    Settings::set(settings::fontScalePercent, percent);
    if (auto *action = findChild<QAction *>(QStringLiteral("fontScale-%1").arg(percent)))
        action->setChecked(true);
}

void MainWindow::buildDocks()
{
    QToolBar *tools = addToolBar(tr("Workloads"));
    tools->setObjectName("workloadsToolBar");
    // The one quantization switch (Alt+Q): the Workloads dock names its mode but has no copy.
    auto *quantLabel = new QLabel(tr(" &Quantization: "), tools);
    auto *quant = new QuantModeBox(m_document, tools);
    quant->setObjectName("toolbarQuantMode");
    quantLabel->setBuddy(quant);
    tools->addWidget(quantLabel);
    tools->addWidget(quant);
    connect(quant, &QuantModeBox::switched, this,
        [this] { statusBar()->showMessage(QuantModeBox::statusText(*m_document), 10000); });

    auto *workloadsDock = new QDockWidget(tr("Workloads"), this);
    workloadsDock->setObjectName("workloadsDock");
    m_workloadPanel = new WorkloadPanel(m_document, workloadsDock);
    workloadsDock->setWidget(scrolled(m_workloadPanel, workloadsDock));
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
    // Shares of the window (420 and 260 pixels of the first 1600 × 950), kept when it is
    // resized; the docks never squeeze the chart below its minimum (docklayout.h). The Kernels
    // table shows whole rows: 7 at 1600 × 950, 8 at 1920 × 1080.
    const auto wholeRows = [this, pointsDock](int height) {
        return m_pointsPanel->wholeRowsHeight(pointsDock, height);
    };
    m_dockLayout = new DockLayout(this, m_plot,
        { { machineDock, 0.26 }, { workloadsDock, 0.2 }, { pointsDock, 0.23, wholeRows } });
    connect(m_pointsPanel, &PointsPanel::rowsAreaChanged, m_dockLayout, &DockLayout::fit,
        Qt::QueuedConnection);
}

void MainWindow::setHardware(const Hardware &hardware)
{
    m_document->resetHardware(hardware);
    m_plot->fitToData(); // the hardware frame when there is no point
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

void MainWindow::setPoints(const std::vector<KernelPoint> &points, const QString &origin)
{
    m_document->resetPoints(points);
    m_sessionName = origin.isEmpty() ? tr("Untitled") : QFileInfo(origin).completeBaseName();
    if (m_sessionName.isEmpty())
        m_sessionName = origin;
    updateTitle();
    statusBar()->showMessage(loadedText(origin.isEmpty() ? tr("nowhere") : origin));
    // A new data set is framed anew: the view the machine had (its hardware frame at the first
    // start, before the example points came) is not the data's.
    m_plot->fitToData();
}

bool MainWindow::openPointsFile(const QString &fileName)
{
    return !openPointsFiles({ fileName }).isEmpty();
}

QStringList MainWindow::openPointsFiles(const QStringList &fileNames)
{
    // Read (and confirm) everything first: a file that cannot be used asks nothing about the
    // work it would have replaced.
    std::vector<KernelPoint> points;
    std::optional<TraceSummary> trace; // the first profiler trace's
    QStringList used;
    for (const QString &fileName : fileNames) {
        PointsLoad load = loadPointsFile(this, fileName);
        if (load.status == PointsLoad::Status::Cancelled) {
            statusBar()->showMessage(
                tr("Reading %1 cancelled; nothing was changed").arg(fileName), 5000);
            return {};
        }
        if (load.status == PointsLoad::Status::Unreadable) {
            MessageBox::warn(
                this, tr("Cannot open points"), tr("%1\n\nNothing was changed.").arg(load.error));
            continue;
        }
        PointsReadResult &result = load.result.points;
        if (!confirmPointsRead(this, fileName, result, tr("Cannot open points"),
                tr("No usable point in %1; nothing was changed.").arg(fileName),
                tr("Import the other %1?")))
            continue;
        points.insert(points.end(), std::make_move_iterator(result.points.begin()),
            std::make_move_iterator(result.points.end()));
        if (result.trace && !trace)
            trace = std::move(result.trace);
        used << fileName;
    }
    if (used.isEmpty() || !m_sessions->maybeSave())
        return {};
    setPoints(points, used.front());
    // The Kernels table gains the trace's columns and, beside it, its unplaced kernels.
    if (trace)
        m_document->setTrace(std::move(*trace));
    if (used.size() > 1) {
        m_sessionName = tr("%1 and %n more", nullptr, int(used.size() - 1))
                            .arg(QFileInfo(used.front()).completeBaseName());
        updateTitle();
        statusBar()->showMessage(loadedText(used.join(QStringLiteral(", "))));
    }
    return used;
}

QString MainWindow::loadedText(const QString &origin) const
{
    const std::size_t count = m_document->pointCount();
    std::size_t placed = 0;
    for (std::size_t i = 0; i < count; ++i)
        placed += m_document->placement(i).placed ? 1 : 0;
    QString loaded = tr("%n kernels from %1", nullptr, static_cast<int>(count)).arg(origin);
    if (count == 0)
        return loaded;
    // Points faster than this machine's roofs that another machine holds: the doctor's guess
    // (core/analysis/machine_fit.h), said at once.
    if (const MachineFit *fit = m_document->otherMachineFit())
        loaded += tr("; %1 of the %2 faster than %3's roofs fit %4's: measured there?")
                      .arg(fit->fitted)
                      .arg(fit->impossible)
                      .arg(q(m_document->hardware().name), q(fit->machine));
    if (placed == count)
        return loaded;
    // A file whose kernels the machine cannot place (no roof of their precision, no bytes) says
    // so at once, not with an empty chart.
    const QString machine = q(m_document->hardware().name);
    if (placed == 0)
        return tr("%1: none can be placed on %2; the Kernels table says why").arg(loaded, machine);
    return tr("%1: %n cannot be placed on %2; the Kernels table says why", nullptr,
        static_cast<int>(count - placed))
        .arg(loaded, machine);
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
    // Bounded: a session too large to embed is not written (at 1M points not even copied).
    dialog.setSession(pictureSession(*m_document, *m_plot));
    if (dialog.exec() == QDialog::Accepted)
        statusBar()->showMessage(tr("Chart written to %1").arg(dialog.fileName()), 5000);
}

void MainWindow::copyChart()
{
    // What the window shows, at the size it shows it (in device pixels on a high-dpi screen).
    ExportOptions options;
    options.width = m_plot->width();
    options.height = m_plot->height();
    options.scale = m_plot->devicePixelRatioF();
    options.session = pictureSession(*m_document, *m_plot).json;
    const bool embedded = !options.session.isEmpty();
    ChartExporter exporter(*m_plot);
    const QByteArray png = exporter.renderToBytes("png", options);
    const QByteArray svg = exporter.renderToBytes("svg", options);
    if (png.isEmpty() || svg.isEmpty()) {
        statusBar()->showMessage(
            tr("The chart could not be rendered; the clipboard is unchanged"), 10000);
        return;
    }
    auto *mime = new QMimeData;
    // The image for programs that paste pictures; the encoded PNG (which carries the session)
    // and the SVG for those that take them. An explicit image/png wins over Qt's re-encoding.
    mime->setImageData(QImage::fromData(png, "PNG"));
    mime->setData(QStringLiteral("image/png"), png);
    mime->setData(QStringLiteral("image/svg+xml"), svg);
    QGuiApplication::clipboard()->setMimeData(mime);
    const QSize pixels(
        qRound(options.width * options.scale), qRound(options.height * options.scale));
    statusBar()->showMessage(embedded
            ? tr("Chart copied as PNG (%1 × %2) and SVG, with the session")
                  .arg(pixels.width())
                  .arg(pixels.height())
            : tr("Chart copied as PNG (%1 × %2) and SVG; the session is too large to go with "
                 "it")
                  .arg(pixels.width())
                  .arg(pixels.height()),
        10000);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (!ImportController::localFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dragMoveEvent(QDragMoveEvent *event)
{
    if (!ImportController::localFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QStringList files = ImportController::localFiles(event->mimeData());
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    // After the drop has returned: importing may ask questions, and a modal dialog inside the
    // drop would keep the dragging program waiting.
    QTimer::singleShot(0, m_import, [this, files] { m_import->importFiles(files); });
}

} // namespace ridgepoint
