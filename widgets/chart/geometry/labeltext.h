// The text of a point's label when its name is wider than a label may be: never cut in the
// middle (a reader must be able to match it to the table), at most two lines.
#pragma once

#include <QString>

#include <functional>

namespace ridgepoint::chart {

// Pixels a line of text takes at the chart's font.
using TextAdvance = std::function<double(const QString &)>;

// `text` as a label at most `maxWidth` pixels wide, tried in this order: whole on one line;
// broken into two lines at a space, else after '_', '/', ',', '-' or '=' (of those, the break
// that makes the wider line narrowest); the same without a trailing remark in parentheses ("decode
// qkv_proj (batch 1)" → "decode qkv_proj"). Empty when none fits: the caller shows the point's
// number, the key to the table's "#" column. Lines are joined by '\n'.
QString fitLabelText(const QString &text, const TextAdvance &advance, double maxWidth);

// `text` without its trailing remark in parentheses, or `text` itself when it has none.
QString withoutTrailingRemark(const QString &text);

} // namespace ridgepoint::chart
