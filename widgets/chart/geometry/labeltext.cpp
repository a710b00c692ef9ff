#include "widgets/chart/geometry/labeltext.h"

#include <optional>

namespace ridgepoint::chart {
namespace {

// After which characters a name may go on to a second line (the character stays on the first;
// a space is dropped).
bool breaksAfter(QChar c)
{
    return c == '_' || c == '/' || c == ',' || c == '-' || c == '=';
}

// The two-line form of `text` whose wider line is narrowest, when both lines fit; broken at
// spaces only, or also after the characters above.
std::optional<QString> twoLines(
    const QString &text, const TextAdvance &advance, double maxWidth, bool spacesOnly)
{
    std::optional<QString> best;
    double bestWidth = 0.0;
    for (qsizetype i = 1; i + 1 < text.size(); ++i) {
        QString first;
        QString second;
        if (text[i] == ' ') {
            first = text.left(i).trimmed();
            second = text.mid(i + 1).trimmed();
        } else if (!spacesOnly && breaksAfter(text[i])) {
            first = text.left(i + 1);
            second = text.mid(i + 1).trimmed();
        } else {
            continue;
        }
        if (first.isEmpty() || second.isEmpty())
            continue;
        const double wider = std::max(advance(first), advance(second));
        if (wider <= maxWidth && (!best || wider < bestWidth)) {
            best = first + '\n' + second;
            bestWidth = wider;
        }
    }
    return best;
}

std::optional<QString> fitted(const QString &text, const TextAdvance &advance, double maxWidth)
{
    if (advance(text) <= maxWidth)
        return text;
    if (auto atSpace = twoLines(text, advance, maxWidth, true))
        return atSpace;
    return twoLines(text, advance, maxWidth, false);
}

} // namespace

QString withoutTrailingRemark(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (!trimmed.endsWith(')'))
        return text;
    // The '(' that opens the last group, counting nested ones.
    int depth = 0;
    for (qsizetype i = trimmed.size() - 1; i >= 0; --i) {
        if (trimmed[i] == ')')
            ++depth;
        else if (trimmed[i] == '(' && --depth == 0) {
            // A remark stands apart from the name ("gemv (batch 1)"); "f(int)" is a signature.
            if (i == 0 || trimmed[i - 1] != ' ')
                return text;
            const QString stem = trimmed.left(i).trimmed();
            return stem.isEmpty() ? text : stem;
        }
    }
    return text;
}

QString fitLabelText(const QString &text, const TextAdvance &advance, double maxWidth)
{
    if (const auto whole = fitted(text, advance, maxWidth))
        return *whole;
    const QString stem = withoutTrailingRemark(text);
    if (stem != text) {
        if (const auto shorter = fitted(stem, advance, maxWidth))
            return *shorter;
    }
    return {};
}

} // namespace ridgepoint::chart
