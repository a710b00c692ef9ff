// Sessions carried inside exported pictures, so a figure in a design review can be reopened in
// Ridgepoint and edited: an SVG's <metadata> element, a PNG's text chunk, a PDF's file
// attachment (docs/FILES.md, "Sessions in exported pictures").
#pragma once

#include "core/io/picture_session.h"
#include "core/model/expected.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <string>

namespace ridgepoint {

class Document;
class RooflinePlot;

// The keys, PictureKind and the byte-level search are in core/io/picture_session.h.

// What kind of picture `bytes` start with (by content: the PNG signature, "%PDF-", an XML
// document whose root is <svg>); None for anything else.
PictureKind pictureKind(const QByteArray &bytes);

// `svg` with a <metadata> element holding `json` (XML-escaped) as the root's first child.
// Unchanged when `svg` has no <svg> start tag.
QByteArray embedSessionInSvg(const QByteArray &svg, const QByteArray &json);

// The session a picture of `plot` carries: `document`'s workspace with the plot's view and
// theme, as the JSON a picture embeds, when it is at most `maxBytes` long (the window's Export
// image and Copy chart, and the render command, all use this). A document with more points than
// a session of `maxBytes` can hold (core's maxSessionPoints) is not even copied: at a million
// points writing it would take seconds and a gigabyte, only to be left out.
struct PictureSession {
    QByteArray json; // empty when it is too large
    std::size_t points = 0;
    // json.size() when it fits; else a number of bytes the session is known to be larger than
    // (from its point count, or maxBytes when it was written and found too long).
    std::size_t bytes = 0;
    bool tooLarge() const { return json.isEmpty() && bytes > 0; }
};
PictureSession pictureSession(
    const Document &document, const RooflinePlot &plot, std::size_t maxBytes);
PictureSession pictureSession(const Document &document, const RooflinePlot &plot);

// The session JSON embedded in a picture, or why there is none ("roofline.png: this picture
// has no Ridgepoint session in it: it was exported without one, or by another program"); at
// most ExportOptions::kMaxEmbeddedSession bytes once inflated (sessionFromPictureBytes).
Expected<std::string, std::string> sessionFromPicture(
    const QByteArray &bytes, const QString &fileName);

} // namespace ridgepoint
