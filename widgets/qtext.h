// Core's text (UTF-8 in std::string) as Qt's QString: the one conversion the widgets and the window
// use for names, messages and numbers that core formats.
#pragma once

#include <QString>

#include <string_view>

namespace ridgepoint {

inline QString q(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

} // namespace ridgepoint
