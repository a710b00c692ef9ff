// Sessions embedded in pictures: the PNG chunk walk, the PDF stream search and the capped
// inflate, the SVG element search, then the session reader on whatever they find. No crash, no
// allocation past what the bytes hold (a chunk or stream claiming more is refused), an inflated
// session never past its cap, and every refusal names the file.
#include "core/io/inflate.h"
#include "core/io/picture_session.h"
#include "core/session/session.h"
#include "fuzz_checks.h"

#include <string>

namespace {

constexpr std::size_t kCap = 1 << 20; // smaller than the real 16 MiB, so the cap is reached

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view bytes = fuzz::text(data, size);
    const std::string file = "fuzz.picture";
    const auto json = ridgepoint::sessionFromPictureBytes(bytes, file, kCap);
    if (!json) {
        fuzz::require(json.error().starts_with(file + ": "));
    } else {
        // Latin-1 text in PNG chunks is converted to UTF-8: at most two bytes a character.
        fuzz::require(json->size() <= 2 * kCap);
        const auto result = ridgepoint::readSessionJson(*json, file);
        for (const auto &d : result.diagnostics)
            fuzz::require(!d.message.empty());
    }
    // The same bytes as a raw zlib stream: never more than the cap out.
    const auto inflated = ridgepoint::inflateCapped(bytes, kCap);
    fuzz::require(!inflated || inflated->size() <= kCap);
    return 0;
}
