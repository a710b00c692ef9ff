// Sessions carried inside exported pictures (docs/FILES.md, "Sessions in exported pictures"):
// an SVG's <metadata> element, a PNG's text chunk, a PDF's file attachment. Found here byte by
// byte, without Qt, so the fuzz target reaches the same code as the window and the CLI: chunk
// and stream lengths are checked against the file before anything is allocated, and
// compressed sessions are inflated a piece at a time up to kMaxEmbeddedSessionBytes.
#pragma once

#include "core/model/expected.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace ridgepoint {

// The PNG text key, the PDF attachment's name and the SVG element's local name and namespace.
inline constexpr char kPictureSessionKey[] = "ridgepoint-session";
inline constexpr char kPictureSessionAttachment[] = "session.ridgepoint.json";
inline constexpr char kPictureSessionNamespace[] = "https://ridgepoint.dev/ns/session";

// The largest session a picture carries, counted after inflating (16 MiB).
inline constexpr std::size_t kMaxEmbeddedSessionBytes = std::size_t { 16 } * 1024 * 1024;

enum class PictureKind { None, Png, Svg, Pdf };

// What kind of picture `bytes` start with (by content: the PNG signature, "%PDF-", an XML
// document whose root is <svg>); None for anything else.
PictureKind pictureKind(std::string_view bytes);

// The session JSON embedded in a picture, or why there is none. Every message starts with
// `fileName`: "roofline.png: this picture has no Ridgepoint session in it (...)",
// "roofline.png: PNG chunk zTXt at byte 33 claims 2147483647 bytes, but only 200 follow
// (expected a chunk that ends inside the file)", "roofline.pdf: the embedded session inflates
// to more than 16777216 bytes (expected at most 16 MiB)".
Expected<std::string, std::string> sessionFromPictureBytes(std::string_view bytes,
    const std::string &fileName, std::size_t maxSessionBytes = kMaxEmbeddedSessionBytes);

} // namespace ridgepoint
