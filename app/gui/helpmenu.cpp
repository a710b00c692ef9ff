#include "app/gui/helpmenu.h"

#include "core/presets/presets.h"
#include "core/workloads/llm.h"

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QTableWidget>
#include <QTextBrowser>
#include <QToolBar>
#include <QUrl>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <set>

namespace ridgepoint {
namespace {

QString plain(QString text)
{
    // "&Open…" → "Open…" ("&&" is a literal ampersand).
    text.replace(QLatin1String("&&"), QLatin1String("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QLatin1Char('\x01'), QLatin1Char('&'));
    return text;
}

QString keysOf(const QAction *action)
{
    QStringList keys;
    for (const QKeySequence &key : action->shortcuts())
        keys << key.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
}

void walkMenu(const QMenu *menu, const QString &path, std::vector<ShortcutEntry> &out,
    std::set<const QAction *> &seen)
{
    for (QAction *action : menu->actions()) {
        if (action->isSeparator())
            continue;
        seen.insert(action);
        const QString name = path + QStringLiteral(" ▸ ") + plain(action->text());
        if (action->menu())
            walkMenu(action->menu(), name, out, seen);
        else if (!action->shortcuts().isEmpty())
            out.push_back({ name, keysOf(action) });
    }
}

QDialog *dialogWithText(QWidget *parent, const QString &objectName, const QString &title,
    const QString &html, QSize size)
{
    auto *dialog = new QDialog(parent);
    dialog->setObjectName(objectName);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    auto *text = new QTextBrowser(dialog);
    text->setObjectName(QStringLiteral("text"));
    text->setOpenExternalLinks(true);
    text->setHtml(html);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog->resize(size);
    dialog->show();
    return dialog;
}

QString html(const std::string &text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

} // namespace

std::vector<ShortcutEntry> windowShortcuts(const QMainWindow *window)
{
    std::vector<ShortcutEntry> out;
    std::set<const QAction *> seen;
    for (QAction *top : window->menuBar()->actions()) {
        if (top->menu())
            walkMenu(top->menu(), plain(top->text()), out, seen);
    }
    for (const QAction *action : window->findChildren<QAction *>()) {
        if (seen.count(action) || action->shortcuts().isEmpty() || action->text().isEmpty())
            continue;
        // An action of a dock (the kernels table's Delete) is named after the dock.
        QString where;
        for (const QObject *up = action->parent(); up && where.isEmpty(); up = up->parent()) {
            if (const auto *dock = qobject_cast<const QDockWidget *>(up))
                where = plain(dock->windowTitle()) + QStringLiteral(" ▸ ");
        }
        out.push_back({ where + plain(action->text()), keysOf(action) });
    }
    // A label's mnemonic that takes the keyboard to its control ("&Quantization:", Alt+Q).
    for (const QLabel *label : window->findChildren<QLabel *>()) {
        const QKeySequence key = QKeySequence::mnemonic(label->text());
        if (!label->buddy() || key.isEmpty())
            continue;
        QString name = plain(label->text()).trimmed();
        if (name.endsWith(QLatin1Char(':')))
            name.chop(1);
        const bool inToolBar = qobject_cast<const QToolBar *>(label->parent()) != nullptr;
        out.push_back({ (inToolBar ? QObject::tr("Toolbar ▸ ") : QString()) + name,
            key.toString(QKeySequence::NativeText) });
    }
    return out;
}

QDialog *showShortcutsDialog(QMainWindow *window)
{
    const std::vector<ShortcutEntry> entries = windowShortcuts(window);
    auto *dialog = new QDialog(window);
    dialog->setObjectName(QStringLiteral("shortcutsDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QObject::tr("Keyboard shortcuts"));
    auto *table = new QTableWidget(static_cast<int>(entries.size()), 2, dialog);
    table->setObjectName(QStringLiteral("shortcuts"));
    table->setHorizontalHeaderLabels({ QObject::tr("Action"), QObject::tr("Keys") });
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setTabKeyNavigation(false);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        table->setItem(int(i), 0, new QTableWidgetItem(entries[i].action));
        table->setItem(int(i), 1, new QTableWidgetItem(entries[i].keys));
    }
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    dialog->resize(560, 600);
    dialog->show();
    return dialog;
}

QString documentationFolder()
{
    const QString appDir = QCoreApplication::applicationDirPath();
    QStringList candidates { QDir(appDir).filePath(QStringLiteral("../share/doc/ridgepoint")) };
#ifdef RIDGEPOINT_SOURCE_DIR
    candidates << QDir(QStringLiteral(RIDGEPOINT_SOURCE_DIR)).filePath(QStringLiteral("docs"));
#endif
    for (const QString &folder : candidates) {
        if (QFileInfo::exists(QDir(folder).filePath(QStringLiteral("MODEL.md"))))
            return QDir::cleanPath(QDir(folder).absolutePath());
    }
    return {};
}

QDialog *showDocumentationDialog(QWidget *parent)
{
    const std::pair<const char *, QString> kDocuments[] = {
        { "MODEL.md", QObject::tr("the roofline model: roofs, bounds, times, the workloads") },
        { "FORMATS.md", QObject::tr("the files Ridgepoint reads and what it takes from each") },
        { "FILES.md", QObject::tr("Ridgepoint's own files: sessions, machines, points") },
        { "WORKLOADS.md", QObject::tr("planned matmuls and LLM steps, quantization") },
        { "MEASURE.md", QObject::tr("measuring the machine Ridgepoint runs on") },
        { "RELIABILITY.md", QObject::tr("what is checked, input limits") },
        { "ARCHITECTURE.md", QObject::tr("how the program is built") },
    };
    const QString folder = documentationFolder();
    QString text = QObject::tr("<h3>Documentation</h3>");
    if (folder.isEmpty()) {
        text += QObject::tr("<p>The documents are not installed on this computer. They are in "
                            "the <b>docs</b> folder of Ridgepoint's source code, with "
                            "<b>README.md</b> beside it:</p>");
    } else {
        text += QObject::tr("<p>The documents are in <a href=\"%1\">%2</a> (Markdown, readable "
                            "in any text editor):</p>")
                    .arg(QUrl::fromLocalFile(folder).toString(), folder.toHtmlEscaped());
    }
    text += QStringLiteral("<ul>");
    for (const auto &[name, what] : kDocuments) {
        const QString file = QString::fromLatin1(name);
        const QString shown = folder.isEmpty()
            ? file
            : QStringLiteral("<a href=\"%1\">%2</a>")
                  .arg(QUrl::fromLocalFile(QDir(folder).filePath(file)).toString(), file);
        text += QStringLiteral("<li>%1: %2</li>").arg(shown, what.toHtmlEscaped());
    }
    text += QStringLiteral("</ul>");
    const QString readme = QDir(folder).filePath(QStringLiteral("../README.md"));
    if (!folder.isEmpty() && QFileInfo::exists(readme))
        text += QObject::tr("<p><a href=\"%1\">README.md</a>, beside the folder: what "
                            "Ridgepoint is and how to build and run it.</p>")
                    .arg(QUrl::fromLocalFile(QDir::cleanPath(readme)).toString());
    text += QObject::tr("<p>Help ▸ Keyboard shortcuts lists every shortcut of the window. The "
                        "headless commands (scripts, CI) describe themselves: run "
                        "<code>ridgepoint help</code> in a terminal.</p>");
    return dialogWithText(parent, QStringLiteral("documentationDialog"),
        QObject::tr("Ridgepoint documentation"), text, QSize(620, 440));
}

QString aboutText()
{
    // The application's icon, embedded from packaging/icons (app/CMakeLists.txt).
    QString text = QStringLiteral(
        "<p><img src=\":/ridgepoint/ridgepoint.svg\" width=\"64\" height=\"64\"></p>");
    text += QObject::tr("<h2>Ridgepoint %1</h2><p>An interactive roofline visualizer: "
                        "what bounds each kernel on a machine, and how far it is from "
                        "its roof.</p>")
                .arg(QStringLiteral(RIDGEPOINT_VERSION));
    text += QObject::tr(
        "<p><b>Licence: GNU General Public License, version 3 or later</b> "
        "(GPL-3.0-or-later). Ridgepoint is free software: you may redistribute and modify it "
        "under those terms. It comes with ABSOLUTELY NO WARRANTY, not even of merchantability "
        "or fitness for a particular purpose. The full text is in the LICENSE file that comes "
        "with it.</p>");
    text += QObject::tr("<p><b>Built with</b> Qt %1 (running on Qt %2), QCustomPlot %3, "
                        "nlohmann/json, Qt Test.</p>")
                .arg(QStringLiteral(QT_VERSION_STR), QString::fromLatin1(qVersion()),
                    QStringLiteral(QCUSTOMPLOT_VERSION_STR));
    text += QObject::tr("<p><b>Machine presets</b> (peak figures as published; where each "
                        "figure comes from, with its basis, source and clock, is in "
                        "docs/PRESETS.md and in each preset's provenance):</p><ul>");
    const PresetDatabase presets = PresetDatabase::builtin(); // outlives the loop
    for (const Hardware &machine : presets.machines())
        text += QStringLiteral("<li><b>%1</b>: %2</li>")
                    .arg(html(machine.name), html(machine.source));
    text += QObject::tr("</ul><p><b>LLM model shapes</b>:</p><ul>");
    for (const ModelConfig &model : builtinModels())
        text += QStringLiteral("<li><b>%1</b>: %2</li>").arg(html(model.name), html(model.source));
    text += QObject::tr("</ul><p>The example kernels are synthetic, counted from the shapes of "
                        "one transformer layer on an H100.</p>");
    return text;
}

QDialog *showAboutDialog(QWidget *parent)
{
    return dialogWithText(parent, QStringLiteral("aboutDialog"), QObject::tr("About Ridgepoint"),
        aboutText(), QSize(640, 560));
}

QMenu *addHelpMenu(QMainWindow *window)
{
    QMenu *help = window->menuBar()->addMenu(QObject::tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    QAction *shortcuts = help->addAction(
        QObject::tr("&Keyboard shortcuts"), window, [window] { showShortcutsDialog(window); });
    shortcuts->setObjectName(QStringLiteral("helpShortcuts"));
    shortcuts->setShortcut(QKeySequence(QObject::tr("Ctrl+F1")));
    QAction *docs = help->addAction(
        QObject::tr("&Documentation"), window, [window] { showDocumentationDialog(window); });
    docs->setObjectName(QStringLiteral("helpDocumentation"));
    docs->setShortcut(QKeySequence::HelpContents);
    help->addSeparator();
    QAction *about = help->addAction(
        QObject::tr("&About Ridgepoint"), window, [window] { showAboutDialog(window); });
    about->setObjectName(QStringLiteral("helpAbout"));
    about->setMenuRole(QAction::AboutRole);
    QAction *aboutQt = help->addAction(QObject::tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setObjectName(QStringLiteral("helpAboutQt"));
    aboutQt->setMenuRole(QAction::AboutQtRole);
    return help;
}

} // namespace ridgepoint
