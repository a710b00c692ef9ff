#include "core/io/picture_formats.h"

#include "core/io/picture_session.h"

#include <cctype>
#include <cstdint>

namespace ridgepoint::picture_detail {

namespace {

using Result = Expected<std::string, std::string>;
constexpr auto npos = std::string_view::npos;
constexpr std::string_view kKey = kPictureSessionKey;

// The integer after `from` (e.g. the object number of "/F 28 0 R"), or -1.
long long numberAfter(std::string_view text, std::size_t from)
{
    while (from < text.size() && std::isspace(static_cast<unsigned char>(text[from])))
        ++from;
    long long value = -1;
    for (std::size_t digits = 0;
         from < text.size() && std::isdigit(static_cast<unsigned char>(text[from])); ++from) {
        if (++digits > 15)
            return -1;
        value = (value < 0 ? 0 : value * 10) + (text[from] - '0');
    }
    return value;
}

// The PDF from the object `number` ("N 0 obj", at the start of a line) to the end; empty when
// there is no such object.
std::string_view pdfObject(std::string_view pdf, long long number)
{
    if (number < 0)
        return {};
    const std::string header = std::to_string(number) + " 0 obj";
    std::size_t at = 0;
    while ((at = pdf.find(header, at)) != npos) {
        if (at == 0 || pdf[at - 1] == '\n' || pdf[at - 1] == '\r')
            return pdf.substr(at + header.size());
        at += header.size();
    }
    return {};
}

// The stream's bytes up to "endstream", when no /Length gives them.
Result streamUpToEnd(std::string_view object, std::size_t begin, const std::string &file)
{
    const std::size_t end = object.find("endstream", begin);
    if (end == npos)
        return Unexpected(file + ": PDF stream of the session has no end (expected endstream)");
    return std::string(object.substr(begin, end - begin));
}

// The token at `from`, after blanks, as the file writes it ("12", "-5", "1e3"): for messages.
std::string_view tokenAfter(std::string_view text, std::size_t from)
{
    while (from < text.size() && std::isspace(static_cast<unsigned char>(text[from])))
        ++from;
    std::size_t end = from;
    while (end < text.size() && end - from < 32
        && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '-'
            || text[end] == '+' || text[end] == '.'))
        ++end;
    return text.substr(from, end - from);
}

// The stream's bytes: /Length when it is a number (refused when it is not a count of bytes or
// claims more than the file holds), else up to "endstream".
Result pdfStream(std::string_view object, std::string_view dictionary, std::size_t begin,
    const std::string &file)
{
    const std::size_t left = object.size() - begin;
    if (const std::size_t key = dictionary.find("/Length"); key != npos) {
        const std::size_t after = dictionary.find_first_not_of(" \t\r\n0123456789", key + 7);
        if (after != npos && dictionary[after] == 'R') // "/Length 12 0 R": found by endstream
            return streamUpToEnd(object, begin, file);
        const std::string_view written = tokenAfter(dictionary, key + 7);
        if (written.empty() || written.find_first_not_of("0123456789") != npos)
            return Unexpected(file + ": PDF stream of the session has /Length \""
                + std::string(written) + "\" (expected a number of bytes, 0 or more)");
        // numberAfter gives -1 past 15 digits: more than any file Ridgepoint reads (1 GiB).
        const long long length = numberAfter(dictionary, key + 7);
        if (length < 0 || static_cast<unsigned long long>(length) > left)
            return Unexpected(file + ": PDF stream of the session claims /Length "
                + std::string(written) + " bytes, but only " + std::to_string(left)
                + " follow (expected a stream that ends inside the file)");
        return std::string(object.substr(begin, static_cast<std::size_t>(length)));
    }
    return streamUpToEnd(object, begin, file);
}

// The length of the name that ends just before `at` ("prefix" of "prefix:key"), or 0.
std::size_t prefixBefore(std::string_view text, std::size_t at)
{
    std::size_t start = at;
    while (start > 0
        && (std::isalnum(static_cast<unsigned char>(text[start - 1])) || text[start - 1] == '_'
            || text[start - 1] == '-' || text[start - 1] == '.'))
        --start;
    return at - start;
}

// Whether kKey at `at` is the name of a tag opened by `open` ("<" or "</"), with or without a
// namespace prefix, and followed by the end of the name.
bool tagNameAt(std::string_view svg, std::size_t at, std::string_view open)
{
    std::size_t start = at;
    if (start > 0 && svg[start - 1] == ':')
        start -= 1 + prefixBefore(svg, start - 1);
    if (start < open.size() || svg.substr(start - open.size(), open.size()) != open)
        return false;
    const std::size_t after = at + kKey.size();
    return after < svg.size()
        && (svg[after] == '>' || svg[after] == '/'
            || std::isspace(static_cast<unsigned char>(svg[after])));
}

void appendUtf8(std::string &out, std::uint32_t code)
{
    if (code < 0x80) {
        out += static_cast<char>(code);
    } else if (code < 0x800) {
        out += static_cast<char>(0xC0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
        out += static_cast<char>(0xE0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (code >> 18));
        out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    }
}

// One entity at the start of `text` ("&amp;", "&#60;", "&#x3C;"), appended to `out`; its
// length, or 0 when it is not one.
std::size_t decodeEntity(std::string_view text, std::string &out)
{
    const std::size_t semicolon = text.substr(0, 12).find(';');
    if (semicolon == npos)
        return 0;
    const std::string_view name = text.substr(1, semicolon - 1);
    static constexpr std::pair<std::string_view, char> kNamed[]
        = { { "amp", '&' }, { "lt", '<' }, { "gt", '>' }, { "quot", '"' }, { "apos", '\'' } };
    for (const auto &[entity, c] : kNamed)
        if (name == entity) {
            out += c;
            return semicolon + 1;
        }
    if (name.size() < 2 || name[0] != '#')
        return 0;
    const bool hex = name[1] == 'x';
    std::uint32_t code = 0;
    for (const char c : name.substr(hex ? 2 : 1)) {
        const auto digit = static_cast<unsigned char>(c);
        if (hex ? !std::isxdigit(digit) : !std::isdigit(digit))
            return 0;
        code = code * (hex ? 16U : 10U)
            + static_cast<std::uint32_t>(
                std::isdigit(digit) ? digit - '0' : (digit | 0x20) - 'a' + 10);
    }
    if (code == 0 || code > 0x10FFFF || (code >= 0xD800 && code < 0xE000))
        return 0;
    appendUtf8(out, code);
    return semicolon + 1;
}

// The element's text: entities and CDATA decoded, comments skipped; an error for a child
// element, a bad entity or text past maxBytes.
Result xmlText(std::string_view content, const std::string &file, std::size_t maxBytes)
{
    std::string out;
    for (std::size_t i = 0; i < content.size();) {
        if (out.size() > maxBytes)
            return tooLarge(file, maxBytes);
        const char c = content[i];
        if (c == '&') {
            const std::size_t used = decodeEntity(content.substr(i), out);
            if (used == 0)
                return Unexpected(file
                    + ": the session in the SVG has a bad XML entity (expected "
                      "&amp;, &lt;, &gt;, &quot;, &apos; or a character "
                      "reference)");
            i += used;
        } else if (content.substr(i, 9) == "<![CDATA[") {
            const std::size_t end = content.find("]]>", i + 9);
            if (end == npos)
                return Unexpected(file + ": the session in the SVG has an unclosed CDATA section");
            out.append(content.substr(i + 9, end - i - 9));
            i = end + 3;
        } else if (content.substr(i, 4) == "<!--") {
            const std::size_t end = content.find("-->", i + 4);
            i = end == npos ? content.size() : end + 3;
        } else if (c == '<') {
            return Unexpected(file
                + ": the session element in the SVG holds an element "
                  "(expected the session's JSON as text)");
        } else {
            const std::size_t next = content.find_first_of("&<", i);
            const std::size_t end = next == npos ? content.size() : next;
            out.append(content.substr(i, end - i));
            i = end;
        }
    }
    if (out.size() > maxBytes)
        return tooLarge(file, maxBytes);
    return out;
}

} // namespace

Result pdfSession(std::string_view pdf, const std::string &file, std::size_t maxBytes)
{
    const std::string name = std::string("(") + kPictureSessionAttachment + ")";
    const std::size_t named = pdf.find(name);
    const std::size_t ef = named == npos ? npos : pdf.find("/EF", named);
    const std::size_t f = ef == npos ? npos : pdf.find("/F", ef + 3);
    if (f == npos || f - named > 256)
        return std::string();
    const std::string_view object = pdfObject(pdf, numberAfter(pdf, f + 2));
    const std::size_t keyword = object.find("stream");
    const std::size_t endobj = object.find("endobj");
    if (keyword == npos || (endobj != npos && endobj < keyword))
        return std::string();
    const std::string_view dictionary = object.substr(0, keyword);
    std::size_t begin = keyword + 6;
    if (begin < object.size() && object[begin] == '\r')
        ++begin;
    if (begin < object.size() && object[begin] == '\n')
        ++begin;
    auto data = pdfStream(object, dictionary, begin, file);
    if (!data)
        return data;
    if (dictionary.find("/FlateDecode") != npos)
        return inflateSession(*data, file, maxBytes);
    if (data->size() > maxBytes)
        return tooLarge(file, maxBytes);
    return data;
}

Result svgSession(std::string_view svg, const std::string &file, std::size_t maxBytes)
{
    if (svg.find(kPictureSessionNamespace) == npos)
        return std::string();
    std::size_t at = svg.find(kKey);
    while (at != npos && !tagNameAt(svg, at, "<"))
        at = svg.find(kKey, at + 1);
    if (at == npos)
        return std::string();
    const std::size_t tagEnd = svg.find('>', at);
    if (tagEnd == npos || svg[tagEnd - 1] == '/')
        return std::string();
    std::size_t close = svg.find(kKey, tagEnd);
    while (close != npos && !tagNameAt(svg, close, "</"))
        close = svg.find(kKey, close + 1);
    if (close == npos)
        return Unexpected(file + ": the session element in the SVG is not closed (expected </"
            + std::string(kKey) + ">)");
    std::size_t contentEnd = close - 2;
    if (svg[close - 1] == ':')
        contentEnd = close - 1 - prefixBefore(svg, close - 1) - 2;
    return xmlText(svg.substr(tagEnd + 1, contentEnd - tagEnd - 1), file, maxBytes);
}

} // namespace ridgepoint::picture_detail
