// English plurals for the "%n" texts of tr() without a translation file: Qt replaces "%n" but
// leaves the noun as written, so "%n kernels" read "1 kernels" (issue 27, item 14). Installed
// once at start-up (app/main.cpp) and by the tests that read such texts.
#pragma once

#include <QTranslator>

namespace ridgepoint {

class EnglishPlurals : public QTranslator
{
public:
    using QTranslator::QTranslator;

    // For a text with "%n" and a count: "(s)" becomes "s", or nothing when n is 1; with n = 1,
    // the word after "%n" (or after "%n " and one more word, "%n workload points") loses a
    // plural "s" ("%n kernels" → "%n kernel"). Null (no translation) for every other text.
    QString translate(const char *context, const char *sourceText,
        const char *disambiguation = nullptr, int n = -1) const override;
    bool isEmpty() const override { return false; }
};

// The English text of `sourceText` for count `n` (what EnglishPlurals::translate gives, "%n"
// still in it).
QString englishPlural(const QString &sourceText, int n);

// Installs one EnglishPlurals on the running application (once; later calls do nothing).
void installEnglishPlurals();

} // namespace ridgepoint
