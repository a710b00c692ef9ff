// Sessions carried inside exported pictures, so a figure in a design review can be reopened in
// Ridgepoint and edited: an SVG's <metadata> element, a PNG's text chunk, a PDF's file
// attachment (docs/FILES.md, "Sessions in pictures").
#pragma once

#include "core/expected.h"

#include <QByteArray>
#include <QString>

#include <string>

namespace ridgepoint {

// The PNG text key, the PDF attachment's name and the SVG element's local name and namespace.
inline constexpr char kPictureSessionKey[] = "ridgepoint-session";
inline constexpr char kPictureSessionAttachment[] = "session.ridgepoint.json";
inline constexpr char kPictureSessionNamespace[] = "https://ridgepoint.dev/ns/session";

enum class PictureKind { None, Png, Svg, Pdf };

// What kind of picture `bytes` start with (by content: the PNG signature, "%PDF-", an XML
// document whose root is <svg>); None for anything else.
PictureKind pictureKind(const QByteArray &bytes);

// `svg` with a <metadata> element holding `json` (XML-escaped) as the root's first child.
// Unchanged when `svg` has no <svg> start tag.
QByteArray embedSessionInSvg(const QByteArray &svg, const QByteArray &json);

// The session JSON embedded in a picture, or why there is none ("roofline.png: this picture
// has no Ridgepoint session in it: it was exported without one, or by another program").
Expected<std::string, std::string> sessionFromPicture(
    const QByteArray &bytes, const QString &fileName);

} // namespace ridgepoint
