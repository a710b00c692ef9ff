#include "widgets/englishplurals.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace ridgepoint {
namespace {

// A word read as a plural noun: it ends in a single "s" and is none of the short words that do
// ("%n is", "%n has").
bool isPluralNoun(const QString &word)
{
    static const QStringList kNotPlural { "is", "was", "has", "its", "this", "as", "us", "yes" };
    return word.size() > 2 && word.endsWith('s') && !word.endsWith(QStringLiteral("ss"))
        && !kNotPlural.contains(word, Qt::CaseInsensitive);
}

} // namespace

QString englishPlural(const QString &sourceText, int n)
{
    QString text = sourceText;
    text.replace(QStringLiteral("(s)"), n == 1 ? QString() : QStringLiteral("s"));
    if (n != 1)
        return text;
    // "%n kernels", "%n files", "%n workload points": the first or second word after %n.
    static const QRegularExpression nounAfterCount(
        QStringLiteral("%n ((?:[A-Za-z]+ )?)([A-Za-z]+)"));
    QString out;
    qsizetype from = 0;
    auto matches = nounAfterCount.globalMatch(text);
    while (matches.hasNext()) {
        const auto match = matches.next();
        QString noun = match.captured(2);
        QString before = match.captured(1);
        // "%n more", "%n of": no noun to make singular; "%n workload points": the second word.
        if (!isPluralNoun(noun) && isPluralNoun(before.trimmed())) {
            noun = before.trimmed().chopped(1) + ' ' + noun;
            before.clear();
        } else if (isPluralNoun(noun)) {
            noun.chop(1);
        }
        out += text.mid(from, match.capturedStart() - from) + QStringLiteral("%n ") + before + noun;
        from = match.capturedEnd();
    }
    return out + text.mid(from);
}

QString EnglishPlurals::translate(
    const char *, const char *sourceText, const char *, int n) const
{
    if (n < 0 || !sourceText)
        return {};
    const QString text = QString::fromUtf8(sourceText);
    if (!text.contains(QStringLiteral("%n")))
        return {};
    return englishPlural(text, n);
}

void installEnglishPlurals()
{
    auto *app = QCoreApplication::instance();
    if (!app || app->findChild<EnglishPlurals *>(QString(), Qt::FindDirectChildrenOnly))
        return;
    QCoreApplication::installTranslator(new EnglishPlurals(app));
}

} // namespace ridgepoint
