// Internal to core/io/picture_session.cpp: the PDF and SVG halves of finding a session in a
// picture, and the helpers all three formats share. Each returns the session's text, an empty
// string when the picture holds none, or an error naming the file.
#pragma once

#include "core/model/expected.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace ridgepoint::picture_detail {

Unexpected<std::string> tooLarge(const std::string &file, std::size_t maxBytes);

// Inflated with the cap; a session past maxBytes is refused with tooLarge().
Expected<std::string, std::string> inflateSession(
    std::string_view deflated, const std::string &file, std::size_t maxBytes);

// The attachment named kPictureSessionAttachment: its file specification points (/EF << /F N 0
// R >>) at a stream object, inflated when it is FlateDecode'd.
Expected<std::string, std::string> pdfSession(
    std::string_view pdf, const std::string &file, std::size_t maxBytes);

// The text of the <ridgepoint-session> element in kPictureSessionNamespace, with XML entities
// and CDATA sections decoded.
Expected<std::string, std::string> svgSession(
    std::string_view svg, const std::string &file, std::size_t maxBytes);

} // namespace ridgepoint::picture_detail
