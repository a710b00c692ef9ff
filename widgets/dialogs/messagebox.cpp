#include "widgets/dialogs/messagebox.h"

namespace ridgepoint {

MessageBox::Answerer &MessageBox::answerer()
{
    static Answerer instance;
    return instance;
}

void MessageBox::setAnswerer(Answerer answerer)
{
    MessageBox::answerer() = std::move(answerer);
}

QMessageBox::StandardButton MessageBox::ask(QWidget *parent, const Question &question)
{
    if (answerer())
        return answerer()(question);
    QMessageBox box(question.icon, question.title, question.text, question.buttons, parent);
    if (question.defaultButton != QMessageBox::NoButton)
        box.setDefaultButton(question.defaultButton);
    if (!question.details.isEmpty())
        box.setDetailedText(question.details);
    return static_cast<QMessageBox::StandardButton>(box.exec());
}

QMessageBox::StandardButton MessageBox::askToSave(QWidget *parent, const QString &name)
{
    return ask(parent,
        { QMessageBox::Warning, QObject::tr("Unsaved changes"),
            QObject::tr("Save the changes to %1 first?").arg(name), QString(),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save });
}

void MessageBox::warn(
    QWidget *parent, const QString &title, const QString &text, const QString &details)
{
    ask(parent, { QMessageBox::Warning, title, text, details, QMessageBox::Ok, QMessageBox::Ok });
}

} // namespace ridgepoint
