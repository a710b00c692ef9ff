// The window's session life cycle: Save / Save as / Open session / Open recent, asking before
// unsaved work is dropped, the minute autosave to the app-data location and the offer to
// restore it after a crash. The window owns one; it keeps MainWindow free of file handling.
#pragma once

#include "core/session/session.h"

#include <QObject>
#include <QString>

#include <QTimer>
#include <functional>

class QMenu;
class QMainWindow;

namespace ridgepoint {

class Document;
class RooflinePlot;

class SessionController : public QObject
{
    Q_OBJECT

public:
    SessionController(QMainWindow *window, Document *document, RooflinePlot *plot);

    // File ▸ New (Ctrl+N) and Open example: a fresh start, asking about unsaved work first.
    void addNewActions(QMenu *fileMenu);
    // An empty session on the current machine (no points, notes, baseline or quantization).
    // False if the user kept the unsaved work.
    bool newSession();
    // The example kernels a first start shows, on the current machine. False as above.
    bool openExample();

    // File ▸ Open… (Ctrl+O: a session, or a picture exported with one) and Open recent.
    void addOpenActions(QMenu *fileMenu);
    // File ▸ Save (Ctrl+S), Save as…
    void addSaveActions(QMenu *fileMenu);

    // The workspace as the window shows it (view range and theme included).
    Session snapshot() const;
    // Reads a session (or the one in an exported picture), then asks about unsaved changes
    // and opens it; errors are shown, without asking first. False if not opened.
    bool open(const QString &fileName);
    // To the session's file, else asks for one. A session opened from a picture (SVG, PNG,
    // PDF) is never written over it: it goes beside it as NAME.ridgepoint.json, or through
    // Save as when that file exists already.
    bool save();
    bool saveAs();
    bool saveTo(const QString &fileName);
    // Asks Save / Discard / Cancel when there are unsaved changes. False: the user cancelled
    // (or the save failed), so whatever was about to replace the work must not happen.
    bool maybeSave();

    QString fileName() const { return m_fileName; }
    // "Untitled", or the session file's base name.
    QString name() const;

    // Where unsaved work is written every minute (AppDataLocation/autosave.ridgepoint.json).
    static QString autosavePath();
    // Where a session read from `fileName` is saved: itself when it is a session (.json), else
    // the picture's name with .ridgepoint.json instead of .svg/.png/.pdf, in the same folder.
    static QString sessionFileFor(const QString &fileName);
    // Replaces the Save as file dialog (tests): gets the suggested path, returns the chosen one
    // or an empty string for Cancel.
    void setSaveFileChooser(std::function<QString(const QString &)> chooser)
    {
        m_chooseSaveFile = std::move(chooser);
    }
    // Writes the autosave now if there are unsaved changes. An empty string, or why it failed.
    [[nodiscard]] QString autosave();
    // At start: if an autosave was left behind (a crash), offers to restore it. True if restored.
    bool offerRestore();
    // A clean exit: the autosave is no longer needed.
    void discardAutosave();

signals:
    // The session's file changed (saved as, opened): the title shows it.
    void fileNameChanged();
    // A session was read and loaded (the window resets what is not in the Document).
    void sessionLoaded();

private:
    void load(const Session &session);
    void setFileName(const QString &fileName);
    void addRecent(const QString &fileName);
    void rebuildRecentMenu();
    // Replaces the workspace with points on the current machine, as an unsaved session that
    // the title calls `title`.
    void startOver(std::vector<KernelPoint> points, const QString &title);

    QMainWindow *m_window;
    Document *m_document;
    RooflinePlot *m_plot;
    QString m_fileName;
    QTimer m_autosaveTimer;
    QMenu *m_recentMenu = nullptr;
    QString m_untitledName; // the name of a session without a file ("Untitled")
    std::function<QString(const QString &)> m_chooseSaveFile;
};

} // namespace ridgepoint
