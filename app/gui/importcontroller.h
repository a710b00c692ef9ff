// Files into the window, whatever they are: File ▸ Import…, Hardware ▸ Import machine file…
// and files dropped on the window. The content, not the suffix, says what a file is
// (core/io/readers.h): a session, or a picture carrying one, is opened like File ▸ Open; points
// (any points format) replace the kernels; a machine file (any ceilings format) adds a machine
// to the hardware panel and selects it; an Nsight Compute roofline section gives both. The
// window owns one; it keeps MainWindow free of this file handling.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

class QMenu;
class QMimeData;

namespace ridgepoint {

class Document;
class HardwarePanel;
class MainWindow;
class SessionController;

class ImportController : public QObject
{
    Q_OBJECT

public:
    ImportController(MainWindow *window, Document *document, HardwarePanel *hardwarePanel,
        SessionController *sessions);

    // File ▸ Import… (Ctrl+I): any file Ridgepoint reads, several at once; and File ▸ Import
    // options…, how the profilers' files are read.
    void addImportAction(QMenu *fileMenu);
    // Hardware ▸ Import machine file…: a file read as ceilings only.
    void addHardwareActions(QMenu *hardwareMenu);

    enum class Kind {
        Session, // a ridgepoint-session JSON, or a PNG/SVG/PDF (which should carry one)
        Points,
        Machine,
        PointsAndMachine, // an Nsight Compute roofline section: its roofs and achieved points
        Unusable, // not found, unreadable, a folder: `reason` says which
    };
    struct Classification {
        Kind kind = Kind::Unusable;
        QString reason;
    };
    // What a file is, from its first 64 KiB. A text of no known shape is Points: the generic
    // CSV has no signature, and its reader names every format tried when it is not one.
    static Classification classify(const QString &fileName);

    // Imports the files; each problem is shown, naming the file and why. The points files
    // among them become one set of kernels (the work is replaced only after asking to save
    // it), then the machines among them are added, the last one selected; a session replaces
    // the whole workspace where it comes. Returns how many files were used.
    int importFiles(const QStringList &fileNames);
    bool importFile(const QString &fileName) { return importFiles({ fileName }) == 1; }
    // Adds the machines of a ceilings file to the hardware panel and selects the first. For a
    // file whose kernels were just opened (a profiler trace), a machine it does not give is
    // said in the status bar, not as an error: the kernels stay on the machine on screen.
    bool importMachineFile(const QString &fileName, bool kernelsOpened = false);

    // File ▸ Import options…: the dialog; with "Apply and re-read", the points files the
    // kernels on show came from are read again with the new options.
    void editImportOptions();
    // The points files the kernels on show were imported from; empty once a session (which
    // has no such file) replaced them.
    QStringList lastPointsFiles() const { return m_lastPointsFiles; }

    // The local files among a drag's URLs (remote URLs are left out).
    static QStringList localFiles(const QMimeData *mime);

    // The file dialogs' filters, for every supported format and for machine files.
    static QString importFilter();
    static QString machineFilter();

private:
    MainWindow *m_window;
    Document *m_document;
    HardwarePanel *m_hardwarePanel;
    SessionController *m_sessions;
    QStringList m_lastPointsFiles;
};

} // namespace ridgepoint
