#include "widgets/export/figuresession.h"

#include "core/session/session.h"
#include "widgets/document/document.h"
#include "widgets/chart/rooflineplot.h"

#include <QBuffer>
#include <QImage>
#include <QImageReader>
#include <QObject>
#include <QXmlStreamReader>

#include <algorithm>
#include <cctype>

namespace ridgepoint {

namespace {

// The integer after `key` in `text` (e.g. the object number of "/F 28 0 R"), or -1.
qsizetype numberAfter(const QByteArray &text, qsizetype from)
{
    while (from < text.size() && std::isspace(static_cast<unsigned char>(text[from])))
        ++from;
    qsizetype end = from;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
        ++end;
    bool ok = false;
    const qsizetype value = text.mid(from, end - from).toLongLong(&ok);
    return ok ? value : -1;
}

// The bytes of PDF object `number` ("N 0 obj" … "endobj"), or empty.
QByteArray pdfObject(const QByteArray &pdf, qsizetype number)
{
    const QByteArray header = QByteArray::number(number) + " 0 obj";
    qsizetype at = 0;
    while ((at = pdf.indexOf(header, at)) >= 0) {
        if (at == 0 || pdf[at - 1] == '\n' || pdf[at - 1] == '\r')
            break;
        at += header.size();
    }
    if (at < 0)
        return {};
    const qsizetype end = pdf.indexOf("endobj", at);
    return end < 0 ? QByteArray() : pdf.mid(at + header.size(), end - at - header.size());
}

// The attachment named kPictureSessionAttachment: its file specification points (/EF << /F N 0
// R >>) at a stream object, inflated when it is FlateDecode'd. Empty when there is none.
QByteArray pdfAttachment(const QByteArray &pdf)
{
    const QByteArray name = QByteArray("(") + kPictureSessionAttachment + ")";
    const qsizetype named = pdf.indexOf(name);
    const qsizetype ef = named < 0 ? -1 : pdf.indexOf("/EF", named);
    const qsizetype f = ef < 0 ? -1 : pdf.indexOf("/F", ef + 3);
    if (f < 0 || f - named > 256)
        return {};
    const QByteArray object = pdfObject(pdf, numberAfter(pdf, f + 2));
    const qsizetype keyword = object.indexOf("stream");
    if (keyword < 0)
        return {};
    const QByteArray dictionary = object.left(keyword);
    qsizetype begin = keyword + 6;
    if (begin < object.size() && object[begin] == '\r')
        ++begin;
    if (begin < object.size() && object[begin] == '\n')
        ++begin;
    const qsizetype end = object.lastIndexOf("endstream");
    if (end < begin)
        return {};
    QByteArray data = object.mid(begin, end - begin);
    if (!dictionary.contains("/FlateDecode"))
        return data;
    // qUncompress wants the inflated size first (big-endian); it grows its buffer when the
    // hint is short. Trailing end-of-line bytes after the deflate stream are ignored by zlib.
    QByteArray framed(4, '\0');
    const auto hint = static_cast<quint32>(std::min<qsizetype>(data.size() * 8, 1 << 30));
    for (int i = 0; i < 4; ++i)
        framed[i] = static_cast<char>((hint >> (24 - 8 * i)) & 0xffU);
    framed += data;
    return qUncompress(framed);
}

QByteArray svgSession(const QByteArray &svg)
{
    QXmlStreamReader xml(svg);
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement
            && xml.namespaceUri() == QLatin1String(kPictureSessionNamespace)
            && xml.name() == QLatin1String(kPictureSessionKey))
            return xml.readElementText().toUtf8();
    }
    return {};
}

QByteArray pngSession(const QByteArray &png)
{
    QBuffer buffer;
    buffer.setData(png);
    QImageReader reader(&buffer, "png");
    // Text chunks before the image data are read with the header; Qt writes them there, but
    // other programs that re-save the file may move them after it.
    QString text = reader.text(QString::fromLatin1(kPictureSessionKey));
    if (text.isEmpty()) {
        const QImage image = reader.read();
        text = image.text(QString::fromLatin1(kPictureSessionKey));
    }
    return text.toUtf8();
}

} // namespace

PictureKind pictureKind(const QByteArray &bytes)
{
    if (bytes.startsWith("\x89PNG\r\n\x1a\n"))
        return PictureKind::Png;
    if (bytes.startsWith("%PDF-"))
        return PictureKind::Pdf;
    // An XML document (optionally with a BOM, a declaration, comments or a doctype) whose
    // first element is <svg>.
    const QByteArray head = bytes.left(4096);
    qsizetype i = head.startsWith("\xef\xbb\xbf") ? 3 : 0;
    while (i < head.size()) {
        while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i])))
            ++i;
        if (i >= head.size() || head[i] != '<')
            return PictureKind::None;
        if (head.mid(i, 4) == "<svg")
            return PictureKind::Svg;
        if (head.mid(i, 2) != "<?" && head.mid(i, 2) != "<!")
            return PictureKind::None;
        const qsizetype close = head.indexOf('>', i);
        if (close < 0)
            return PictureKind::None;
        i = close + 1;
    }
    return PictureKind::None;
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
    QByteArray json;
    switch (pictureKind(bytes)) {
    case PictureKind::Png:
        json = pngSession(bytes);
        break;
    case PictureKind::Svg:
        json = svgSession(bytes);
        break;
    case PictureKind::Pdf:
        json = pdfAttachment(bytes);
        break;
    case PictureKind::None:
        return Unexpected(
            QObject::tr("%1: not a PNG, SVG or PDF picture").arg(fileName).toStdString());
    }
    if (json.trimmed().isEmpty())
        return Unexpected(QObject::tr("%1: this picture has no Ridgepoint session in it (it was "
                                      "exported without one, or by another program)")
                              .arg(fileName)
                              .toStdString());
    return json.toStdString();
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
    session.theme = plot.theme().key();
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
