// Sessions under a byte cap (a session embedded in a picture has one).
#include "core/session/session.h"

#include <algorithm>

namespace ridgepoint {

std::size_t maxSessionPoints(std::size_t maxBytes)
{
    // The fewest bytes one more point can add: a point with every field at its shortest,
    // measured through the writer so the bound follows its format.
    static const std::size_t kLeastPerPoint = [] {
        Session one;
        one.points.resize(1);
        Session two;
        two.points.resize(2);
        return writeSessionJson(two).size() - writeSessionJson(one).size();
    }();
    return maxBytes / std::max<std::size_t>(kLeastPerPoint, 1);
}

std::optional<std::string> writeSessionJson(const Session &session, std::size_t maxBytes)
{
    if (session.points.size() > maxSessionPoints(maxBytes))
        return std::nullopt;
    std::string text = writeSessionJson(session);
    if (text.size() > maxBytes)
        return std::nullopt;
    return text;
}

} // namespace ridgepoint
