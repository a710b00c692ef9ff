// Every question the window asks goes through here, so GUI tests can answer it (the KeePassXC
// MessageBox pattern): a test installs an answerer; without one a real QMessageBox runs.
#pragma once

#include <QMessageBox>
#include <QString>

#include <functional>

namespace ridgepoint {

struct Question {
    QMessageBox::Icon icon = QMessageBox::Question;
    QString title;
    QString text;
    QString details; // the full list behind a summary (shown under "Show Details...")
    QMessageBox::StandardButtons buttons = QMessageBox::Ok;
    QMessageBox::StandardButton defaultButton = QMessageBox::NoButton;
};

class MessageBox
{
public:
    using Answerer = std::function<QMessageBox::StandardButton(const Question &)>;

    static QMessageBox::StandardButton ask(QWidget *parent, const Question &question);
    // "Save changes to NAME?" with Save, Discard and Cancel.
    static QMessageBox::StandardButton askToSave(QWidget *parent, const QString &name);
    static void warn(QWidget *parent, const QString &title, const QString &text,
        const QString &details = QString());

    // Tests: every question goes to `answerer` instead of a dialog; nullptr restores dialogs.
    static void setAnswerer(Answerer answerer);

private:
    static Answerer &answerer();
};

} // namespace ridgepoint
