#include "core/io/picture_session.h"

#include "core/io/inflate.h"
#include "core/io/picture_formats.h"

#include <cctype>
#include <cstdint>
#include <optional>

namespace ridgepoint {

namespace {

using Result = Expected<std::string, std::string>;
// A text found (a value), none with the name looked for (nullopt), or an error.
using Found = Expected<std::optional<std::string>, std::string>;

constexpr std::string_view kKey = kPictureSessionKey;

using picture_detail::inflateSession;
using picture_detail::tooLarge;

std::string latin1ToUtf8(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x80) {
            out += c;
        } else {
            out += static_cast<char>(0xC0 | (byte >> 6));
            out += static_cast<char>(0x80 | (byte & 0x3F));
        }
    }
    return out;
}

std::uint32_t bigEndian32(std::string_view bytes, std::size_t at)
{
    std::uint32_t value = 0;
    for (std::size_t i = 0; i < 4; ++i)
        value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
    return value;
}

std::string printable(std::string_view type)
{
    std::string out;
    for (const char c : type)
        out += std::isalnum(static_cast<unsigned char>(c)) ? c : '?';
    return out;
}

// A tEXt, zTXt or iTXt chunk's text when its keyword is kPictureSessionKey (Qt writes zTXt, or
// iTXt for text outside Latin-1; both compressed when longer than 40 characters).
Found pngText(
    std::string_view type, std::string_view data, const std::string &file, std::size_t maxBytes)
{
    const std::size_t nul = data.find('\0');
    if (nul == std::string_view::npos || data.substr(0, nul) != kKey)
        return std::optional<std::string>();
    std::string_view rest = data.substr(nul + 1);
    const auto cutShort = [&] {
        return Unexpected(
            file + ": PNG " + std::string(type) + " chunk cut short (expected its header fields)");
    };
    if (type == "tEXt") {
        if (rest.size() > maxBytes)
            return tooLarge(file, maxBytes);
        return std::optional<std::string>(latin1ToUtf8(rest));
    }
    if (type == "zTXt") {
        if (rest.empty())
            return cutShort();
        auto text = inflateSession(rest.substr(1), file, maxBytes);
        if (!text)
            return Unexpected(std::move(text).error());
        return std::optional<std::string>(latin1ToUtf8(*text));
    }
    // iTXt: compression flag, method, language tag, NUL, translated keyword, NUL, UTF-8 text.
    if (rest.size() < 2)
        return cutShort();
    const bool compressed = rest[0] != 0;
    rest.remove_prefix(2);
    for (int field = 0; field < 2; ++field) {
        const std::size_t end = rest.find('\0');
        if (end == std::string_view::npos)
            return cutShort();
        rest.remove_prefix(end + 1);
    }
    if (!compressed) {
        if (rest.size() > maxBytes)
            return tooLarge(file, maxBytes);
        return std::optional<std::string>(std::string(rest));
    }
    auto text = inflateSession(rest, file, maxBytes);
    if (!text)
        return Unexpected(std::move(text).error());
    return std::optional<std::string>(std::move(*text));
}

// Walks the chunks; every length is checked against what the file holds before it is used.
Result pngSession(std::string_view png, const std::string &file, std::size_t maxBytes)
{
    std::size_t at = 8;
    while (at < png.size()) {
        if (png.size() - at < 12)
            return Unexpected(file + ": PNG chunk at byte " + std::to_string(at)
                + " cut short (expected a length, a type and a CRC: 12 bytes, found "
                + std::to_string(png.size() - at) + ")");
        const std::uint32_t length = bigEndian32(png, at);
        const std::string_view type = png.substr(at + 4, 4);
        const std::size_t left = png.size() - at - 12;
        if (length > left)
            return Unexpected(file + ": PNG chunk " + printable(type) + " at byte "
                + std::to_string(at) + " claims " + std::to_string(length) + " bytes, but only "
                + std::to_string(left) + " follow (expected a chunk that ends inside the file)");
        if (type == "IEND")
            break;
        if (type == "tEXt" || type == "zTXt" || type == "iTXt") {
            auto text = pngText(type, png.substr(at + 8, length), file, maxBytes);
            if (!text)
                return Unexpected(std::move(text).error());
            if (*text)
                return std::move(**text);
        }
        at += 12 + std::size_t { length };
    }
    return std::string();
}

} // namespace

namespace picture_detail {

Unexpected<std::string> tooLarge(const std::string &file, std::size_t maxBytes)
{
    return Unexpected(file + ": the embedded session is larger than " + std::to_string(maxBytes)
        + " bytes once inflated (expected at most the limit for a session in a picture)");
}

Expected<std::string, std::string> inflateSession(
    std::string_view deflated, const std::string &file, std::size_t maxBytes)
{
    auto inflated = inflateCapped(deflated, maxBytes);
    if (inflated)
        return inflated;
    if (inflated.error().starts_with("inflates to more than"))
        return tooLarge(file, maxBytes);
    return Unexpected(file + ": the embedded session cannot be inflated: " + inflated.error()
        + " (expected a zlib stream)");
}

} // namespace picture_detail

PictureKind pictureKind(std::string_view bytes)
{
    if (bytes.starts_with("\x89PNG\r\n\x1a\n"))
        return PictureKind::Png;
    if (bytes.starts_with("%PDF-"))
        return PictureKind::Pdf;
    // An XML document (optionally with a BOM, a declaration, comments or a doctype) whose
    // first element is <svg>.
    const std::string_view head = bytes.substr(0, 4096);
    std::size_t i = head.starts_with("\xef\xbb\xbf") ? 3 : 0;
    while (i < head.size()) {
        while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i])))
            ++i;
        if (i >= head.size() || head[i] != '<')
            return PictureKind::None;
        if (head.substr(i, 4) == "<svg")
            return PictureKind::Svg;
        if (head.substr(i, 2) != "<?" && head.substr(i, 2) != "<!")
            return PictureKind::None;
        const std::size_t close = head.find('>', i);
        if (close == std::string_view::npos)
            return PictureKind::None;
        i = close + 1;
    }
    return PictureKind::None;
}

Expected<std::string, std::string> sessionFromPictureBytes(
    std::string_view bytes, const std::string &fileName, std::size_t maxSessionBytes)
{
    Result json;
    switch (pictureKind(bytes)) {
    case PictureKind::Png:
        json = pngSession(bytes, fileName, maxSessionBytes);
        break;
    case PictureKind::Svg:
        json = picture_detail::svgSession(bytes, fileName, maxSessionBytes);
        break;
    case PictureKind::Pdf:
        json = picture_detail::pdfSession(bytes, fileName, maxSessionBytes);
        break;
    case PictureKind::None:
        return Unexpected(fileName + ": not a PNG, SVG or PDF picture");
    }
    if (!json)
        return json;
    if (json->find_first_not_of(" \t\r\n") == std::string::npos)
        return Unexpected(fileName
            + ": this picture has no Ridgepoint session in it (it was exported without one, or "
              "by another program)");
    return json;
}

} // namespace ridgepoint
