#include "widgets/export/figuresession.h"

#include "core/session/session.h"
#include "widgets/chart/densitylayer.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/export/exportoptions.h"

#include <string_view>

namespace ridgepoint {

static_assert(
    static_cast<std::size_t>(ExportOptions::kMaxEmbeddedSession) == kMaxEmbeddedSessionBytes,
    "the reader's cap on an embedded session is the writer's");

PictureKind pictureKind(const QByteArray &bytes)
{
    return pictureKind(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

QByteArray embedSessionInSvg(const QByteArray &svg, const QByteArray &json)
{
    const qsizetype root = svg.indexOf("<svg");
    const qsizetype close = root < 0 ? -1 : svg.indexOf('>', root);
    if (close < 0)
        return svg;
    QByteArray escaped = json;
    escaped.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    QByteArray element = "\n<metadata>\n<ridgepoint:";
    element += kPictureSessionKey;
    element += " xmlns:ridgepoint=\"";
    element += kPictureSessionNamespace;
    element += "\">";
    element += escaped;
    element += "</ridgepoint:";
    element += kPictureSessionKey;
    element += ">\n</metadata>";
    QByteArray result = svg;
    result.insert(close + 1, element);
    return result;
}

Expected<std::string, std::string> sessionFromPicture(
    const QByteArray &bytes, const QString &fileName)
{
    return sessionFromPictureBytes(
        std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
        fileName.toStdString());
}

PictureSession pictureSession(
    const Document &document, const RooflinePlot &plot, std::size_t maxBytes)
{
    PictureSession result;
    result.points = document.pointCount();
    const std::size_t fit = maxSessionPoints(maxBytes);
    if (result.points > fit) {
        // Every point takes more than maxBytes / (fit + 1) bytes, or fit would be larger.
        result.bytes = result.points * (maxBytes / (fit + 1));
        return result;
    }
    Session session = document.toSession();
    const QCPRange x = plot.xAxis->range();
    const QCPRange y = plot.yAxis->range();
    if (x.lower > 0 && y.lower > 0 && x.lower < x.upper && y.lower < y.upper)
        session.view = ViewRange { x.lower, x.upper, y.lower, y.upper };
    session.theme = plot.display().theme.key();
    // Auto (the default) is left unsaid: a picture of a session that never chose a mode
    // carries that session unchanged.
    if (plot.display().points != chart::PointsMode::Auto)
        session.pointsMode = chart::pointsModeKey(plot.display().points);
    if (!plot.display().dotSizeByTime) // on (the default) is left unsaid, as Auto
        session.dotSize = "fixed";
    if (auto text = writeSessionJson(session, maxBytes)) {
        result.json = QByteArray::fromStdString(*text);
        result.bytes = static_cast<std::size_t>(result.json.size());
    } else {
        result.bytes = maxBytes; // written, and found longer than that
    }
    return result;
}

PictureSession pictureSession(const Document &document, const RooflinePlot &plot)
{
    return pictureSession(
        document, plot, static_cast<std::size_t>(ExportOptions::kMaxEmbeddedSession));
}

} // namespace ridgepoint
