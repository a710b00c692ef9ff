// A picture encoded as PNG, SVG or PDF bytes: the painter set up for the export's logical size
// (scaled for a PNG's device pixels, a PDF page of exactly the picture's size at 96 logical
// pixels per inch), the resolution and title written, the session embedded.
#pragma once

#include "widgets/export/exportoptions.h"

#include <QByteArray>
#include <QColor>
#include <QString>

#include <functional>

class QCPPainter;

namespace ridgepoint {

// Logical pixels per inch of every export: a PNG at scale 1 is 96 dpi, and SVG and PDF pages
// are as large as the PNG would be on a 96-dpi screen.
inline constexpr int kExportLogicalDpi = 96;

// Paints the picture at the options' logical size on a painter already scaled for it.
using PicturePainter = std::function<void(QCPPainter *)>;

// The picture `paint` draws, as `kind` ("png", "svg" or "pdf") bytes at `options` on
// `background`, with `title` as the document title of an SVG or PDF and `options.session`
// embedded when it is at most ExportOptions::kMaxEmbeddedSession long. Empty on failure or for an
// unknown kind.
QByteArray writePicture(const QString &kind, const ExportOptions &options, const QColor &background,
    const QString &title, const PicturePainter &paint);

} // namespace ridgepoint
