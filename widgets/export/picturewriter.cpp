#include "widgets/export/picturewriter.h"

#include "widgets/export/figuresession.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QCoreApplication>
#include <QImage>
#include <QImageWriter>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>

namespace ridgepoint {
namespace {

constexpr int kPngQuality = 80; // zlib level 1

bool writePng(QBuffer &buffer, const ExportOptions &options, const QColor &background, bool embed,
    const PicturePainter &paint)
{
    const QSize pixels(
        qRound(options.width * options.scale), qRound(options.height * options.scale));
    QImage image(pixels, QImage::Format_RGB32); // every theme's background is opaque
    // Fonts are sized for 96 logical dpi while painting; the file gets the asked dpi after.
    const int dotsPerMeter96 = qRound(kExportLogicalDpi / 0.0254);
    image.setDotsPerMeterX(dotsPerMeter96);
    image.setDotsPerMeterY(dotsPerMeter96);
    image.fill(background);
    QCPPainter painter(&image);
    bool ok = painter.isActive();
    if (ok) {
        painter.setRenderHint(QPainter::Antialiasing);
        if (options.scale > 1.0)
            painter.setMode(QCPPainter::pmNonCosmetic);
        painter.scale(options.scale, options.scale);
        paint(&painter);
        ok = painter.end();
    }
    const double dpi = options.dpi > 0 ? options.dpi : kExportLogicalDpi * options.scale;
    image.setDotsPerMeterX(qRound(dpi / 0.0254));
    image.setDotsPerMeterY(qRound(dpi / 0.0254));
    if (embed)
        image.setText(QString::fromLatin1(kPictureSessionKey), QString::fromUtf8(options.session));
    QImageWriter writer(&buffer, "png");
    // zlib's fastest level (Qt maps quality q to level (100 - q) * 9 / 91, so 80 gives 1). At
    // the default level the compression took about as long as painting the chart; level 1 writes
    // the same pixels into a file about 15 % larger (docs/PERFORMANCE-CHANGELOG.md, "Issue 17:
    // render of 100k points, second pass"). Session text chunks are compressed apart and keep their
    // level.
    writer.setQuality(kPngQuality);
    return ok && writer.write(image);
}

bool writeSvg(QBuffer &buffer, QByteArray &bytes, const ExportOptions &options,
    const QString &title, bool embed, const PicturePainter &paint)
{
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setResolution(kExportLogicalDpi);
    generator.setSize(QSize(options.width, options.height));
    generator.setViewBox(QRect(0, 0, options.width, options.height));
    // Qt 6.4 writes <title> and <desc> as given: escape them, or a title with '&' or '<' makes
    // the SVG invalid XML.
    generator.setTitle(title.toHtmlEscaped());
    generator.setDescription(
        QCoreApplication::translate("ridgepoint::RooflinePlot", "Drawn by Ridgepoint"));
    QCPPainter painter;
    bool ok = painter.begin(&generator);
    if (ok) {
        paint(&painter);
        ok = painter.end();
    }
    buffer.close();
    if (ok && embed)
        bytes = embedSessionInSvg(bytes, options.session);
    return ok;
}

bool writePdf(QBuffer &buffer, const ExportOptions &options, const QString &title, bool embed,
    const PicturePainter &paint)
{
    QPdfWriter writer(&buffer);
    writer.setResolution(kExportLogicalDpi);
    writer.setCreator(QStringLiteral("Ridgepoint"));
    writer.setTitle(title);
    // A page exactly the picture's size: points are 1/72 inch.
    const QSizeF points(
        options.width * 72.0 / kExportLogicalDpi, options.height * 72.0 / kExportLogicalDpi);
    writer.setPageLayout(
        QPageLayout(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch),
            QPageLayout::Portrait, QMarginsF()));
    if (embed)
        writer.addFileAttachment(QString::fromLatin1(kPictureSessionAttachment), options.session,
            QStringLiteral("application/json"));
    QCPPainter painter;
    bool ok = painter.begin(&writer);
    if (ok) {
        painter.setMode(QCPPainter::pmVectorized);
        painter.setWindow(0, 0, options.width, options.height);
        paint(&painter);
        ok = painter.end();
    }
    return ok;
}

} // namespace

QByteArray writePicture(const QString &kind, const ExportOptions &options, const QColor &background,
    const QString &title, const PicturePainter &paint)
{
    if (options.width < 1 || options.height < 1 || !(options.scale > 0.0))
        return {};
    const bool embed = !options.session.isEmpty()
        && options.session.size() <= ExportOptions::kMaxEmbeddedSession;
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    bool ok = false;
    if (kind == "png")
        ok = writePng(buffer, options, background, embed, paint);
    else if (kind == "svg")
        ok = writeSvg(buffer, bytes, options, title, embed, paint);
    else if (kind == "pdf")
        ok = writePdf(buffer, options, title, embed, paint);
    return ok ? bytes : QByteArray();
}

} // namespace ridgepoint
