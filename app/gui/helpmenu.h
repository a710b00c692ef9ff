// Help ▸ Keyboard shortcuts, Documentation, About Ridgepoint, About Qt. The shortcuts are read
// from the window's own actions when the dialog opens, so the list cannot fall behind the menus;
// the documentation dialog says where the documents are on this computer (no network needed).
#pragma once

#include <QString>
#include <QStringList>

#include <vector>

class QDialog;
class QMainWindow;
class QMenu;
class QWidget;

namespace ridgepoint {

// One line of the shortcuts dialog: where the action is ("File ▸ Open…") and its keys.
struct ShortcutEntry {
    QString action;
    QString keys; // in the platform's notation, several separated by ", "
};

// Every action of the window with a shortcut: those in the menu bar first, in menu order and
// named by their menu path, then any other action of the window, then the labels whose
// mnemonic reaches a control ("Toolbar ▸ Quantization", Alt+Q).
std::vector<ShortcutEntry> windowShortcuts(const QMainWindow *window);

// The folder holding Ridgepoint's documents: an installed share/doc/ridgepoint next to the
// executable, else the docs/ folder of the source tree it was built from; empty if neither is
// there.
QString documentationFolder();

// The dialogs, shown without blocking (deleted when closed); each has an object name:
// "shortcutsDialog", "documentationDialog", "aboutDialog".
QDialog *showShortcutsDialog(QMainWindow *window);
QDialog *showDocumentationDialog(QWidget *parent);
QDialog *showAboutDialog(QWidget *parent);

// The text of the About dialog (HTML): version, licence, libraries and data sources.
QString aboutText();

// Adds the Help menu to the window's menu bar.
QMenu *addHelpMenu(QMainWindow *window);

} // namespace ridgepoint
