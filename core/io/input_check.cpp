#include "core/io/input_check.h"

#include "core/io/text.h"
#include "core/model/byte_words.h"

#include <array>
#include <cstdint>
#include <cstring>

namespace ridgepoint {
namespace {

std::string hexByte(unsigned char byte)
{
    static constexpr std::array<char, 16> kDigits { '0', '1', '2', '3', '4', '5', '6', '7', '8',
        '9', 'A', 'B', 'C', 'D', 'E', 'F' };
    return std::string("0x") + kDigits[byte >> 4U] + kDigits[byte & 0xFU];
}

void appendUtf8(std::string &out, std::uint32_t code)
{
    if (code < 0x80) {
        out.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
        out.push_back(static_cast<char>(0xC0U | (code >> 6U)));
        out.push_back(static_cast<char>(0x80U | (code & 0x3FU)));
    } else if (code < 0x10000) {
        out.push_back(static_cast<char>(0xE0U | (code >> 12U)));
        out.push_back(static_cast<char>(0x80U | ((code >> 6U) & 0x3FU)));
        out.push_back(static_cast<char>(0x80U | (code & 0x3FU)));
    } else {
        out.push_back(static_cast<char>(0xF0U | (code >> 18U)));
        out.push_back(static_cast<char>(0x80U | ((code >> 12U) & 0x3FU)));
        out.push_back(static_cast<char>(0x80U | ((code >> 6U) & 0x3FU)));
        out.push_back(static_cast<char>(0x80U | (code & 0x3FU)));
    }
}

// UTF-16 (after its byte-order mark) to UTF-8; nullopt on an unpaired surrogate or odd length.
std::optional<std::string> fromUtf16(std::string_view bytes, bool littleEndian)
{
    if (bytes.size() % 2 != 0)
        return std::nullopt;
    std::string out;
    out.reserve(bytes.size() / 2);
    const auto unit = [&](std::size_t i) {
        const auto a = static_cast<unsigned char>(bytes[i]);
        const auto b = static_cast<unsigned char>(bytes[i + 1]);
        return static_cast<std::uint32_t>(littleEndian ? (a | (b << 8U)) : ((a << 8U) | b));
    };
    for (std::size_t i = 0; i < bytes.size(); i += 2) {
        std::uint32_t code = unit(i);
        if (code >= 0xD800 && code < 0xDC00) {
            if (i + 3 >= bytes.size())
                return std::nullopt;
            const std::uint32_t low = unit(i + 2);
            if (low < 0xDC00 || low >= 0xE000)
                return std::nullopt;
            code = 0x10000 + ((code - 0xD800) << 10U) + (low - 0xDC00);
            i += 2;
        } else if (code >= 0xDC00 && code < 0xE000) {
            return std::nullopt;
        }
        appendUtf8(out, code);
    }
    return out;
}

// Length of the UTF-8 sequence starting at text[i], or 0 if it is not valid UTF-8.
std::size_t utf8Length(std::string_view text, std::size_t i)
{
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    std::uint32_t minimum = 0;
    if (lead < 0x80)
        return 1;
    if ((lead & 0xE0U) == 0xC0U) {
        length = 2;
        minimum = 0x80;
    } else if ((lead & 0xF0U) == 0xE0U) {
        length = 3;
        minimum = 0x800;
    } else if ((lead & 0xF8U) == 0xF0U) {
        length = 4;
        minimum = 0x10000;
    } else {
        return 0;
    }
    if (i + length > text.size())
        return 0;
    std::uint32_t code = lead & (0xFFU >> (length + 1));
    for (std::size_t k = 1; k < length; ++k) {
        const auto next = static_cast<unsigned char>(text[i + k]);
        if ((next & 0xC0U) != 0x80U)
            return 0;
        code = (code << 6U) | (next & 0x3FU);
    }
    if (code < minimum || code > 0x10FFFF || (code >= 0xD800 && code < 0xE000))
        return 0;
    return length;
}

// Whether the eight bytes at `bytes` are all ASCII other than NUL and LF.
bool plainAscii(const char *bytes)
{
    const std::uint64_t word = bytewise::load(bytes);
    return !bytewise::anyHigh(word) && bytewise::zeroBytes(word) == 0
        && !bytewise::anyEqual(word, '\n');
}

// 1-based column, in code points, of byte `at` on the line starting at `lineStart`.
int columnAt(std::string_view text, std::size_t lineStart, std::size_t at)
{
    int column = 1;
    for (std::size_t i = lineStart; i < at; ++i)
        column += (static_cast<unsigned char>(text[i]) & 0xC0U) == 0x80U ? 0 : 1;
    return column;
}

} // namespace

TextCheck checkTextInput(
    std::string_view text, const std::string &fileName, const InputLimits &limits)
{
    TextCheck check;
    const auto fail = [&](int line, int column, std::string message) {
        check.error = Diagnostic { Severity::Error, fileName, line, column, std::move(message) };
        return check;
    };
    if (text.starts_with("\xFF\xFE") || text.starts_with("\xFE\xFF")) {
        const bool little = text.starts_with("\xFF\xFE");
        auto converted = fromUtf16(text.substr(2), little);
        if (!converted)
            return fail(0, 0,
                std::string("the file says it is UTF-16") + (little ? "LE" : "BE")
                    + " but is not valid UTF-16 (expected text saved as UTF-8 or "
                      "UTF-16)");
        check.converted = std::move(converted);
        text = *check.converted;
    }
    text = withoutBom(text);

    const std::size_t firstText = text.find_first_not_of(kBlanks);
    const bool json
        = firstText != std::string_view::npos && (text[firstText] == '{' || text[firstText] == '[');

    int line = 1;
    std::size_t lineNumber = 1; // `line`, counted without the limits of an int
    std::size_t lineStart = 0;
    const auto tooManyLines = [&] {
        return fail(line, 0,
            "more than " + std::to_string(limits.maxLines)
                + " lines: the file is larger than Ridgepoint reads");
    };
    // The column (code points) is only needed for a message: counted then, from the line start.
    const auto column = [&](std::size_t at) { return columnAt(text, lineStart, at); };
    for (std::size_t i = 0; i < text.size();) {
        // Eight plain ASCII bytes at a time (no NUL, no LF, no byte of a multi-byte character)
        // while the line stays within its limit: nearly all of a big table.
        if (i + 8 <= text.size() && (json || i + 8 - lineStart <= limits.maxLineBytes)
            && plainAscii(text.data() + i)) {
            i += 8;
            continue;
        }
        const char c = text[i];
        if (c == '\n') {
            // The line this ends is past the limit: named, not the next one (which may not
            // exist when the file ends here).
            if (lineNumber > limits.maxLines)
                return tooManyLines();
            ++line;
            ++lineNumber;
            lineStart = i + 1;
            ++i;
            continue;
        }
        if (c == '\0')
            return fail(line, column(i),
                "binary data (a NUL byte) where text was expected: is this "
                "the right file?");
        const std::size_t length = utf8Length(text, i);
        if (length == 0)
            return fail(line, column(i),
                "not valid UTF-8 (byte " + hexByte(static_cast<unsigned char>(c))
                    + "): save the file as UTF-8");
        if (!json && i + length - lineStart > limits.maxLineBytes)
            return fail(line, 0,
                "line longer than " + std::to_string(limits.maxLineBytes)
                    + " bytes: this does not look like a table of kernels");
        i += length;
    }
    // A last line without a newline counts too.
    if (lineStart < text.size() && lineNumber > limits.maxLines)
        return tooManyLines();
    return check;
}

} // namespace ridgepoint
