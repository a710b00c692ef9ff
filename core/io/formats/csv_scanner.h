// Internal to the CSV readers: the scanner every CSV goes through (quotes, "" escapes, CRLF,
// text after a closing quote, delimiters), one row at a time, fields as views into the input.
// tokenizeCsv (core/io/formats/csv.h) keeps its rows; the points reader streams them.
#pragma once

#include "core/model/byte_words.h"
#include "core/model/diagnostic.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ridgepoint::csv {

// ',', ';' or tab: the most frequent outside quotes on the first line that is not a comment
// (tab on a tie, then ';' only when more frequent than ',').
char detectDelimiter(std::string_view text);

// 1-based column (code points) of the byte at `offset` on the line starting at `lineStart`.
int codePointColumn(std::string_view text, std::size_t lineStart, std::size_t offset);

// A field as the scanner found it: `text` views the input (unquoted fields) or the row's
// scratch buffer (quoted fields, unescaped). Its column is worked out only when asked for
// (CsvScanner::column): the points reader needs it for messages alone.
struct ScannedField {
    std::string_view text;
    std::size_t offset = 0; // where the field starts in the input
    std::size_t lineStart = 0; // where that line starts
    int line = 0; // 1-based; 0 for the empty field after a delimiter that ends the input
};

struct ScannedRow {
    std::vector<ScannedField> fields;
    int line = 0;
    std::string scratch; // quoted fields' text; the row's views point into it (so no moves)
};

// The CSV state machine (quotes, "" escapes, CRLF, text after a closing quote), one row at a
// time. Unquoted fields are views into the input, so a row costs no allocation once the row's
// vectors have grown; the tokenizer and the points reader share it, so both read a file alike.
// The input must not start with a byte-order mark (the callers strip it).
class CsvScanner
{
public:
    // `maxDiagnostics` bounds the messages kept; failed() still tells whether there was an error.
    CsvScanner(std::string_view text, char delimiter, const std::string &fileName,
        std::vector<Diagnostic> &diagnostics,
        std::size_t maxDiagnostics = std::numeric_limits<std::size_t>::max())
        : m_text(text)
        , m_delimiter(delimiter)
        , m_fileName(fileName)
        , m_diagnostics(diagnostics)
        , m_maxDiagnostics(maxDiagnostics)
    { }

    // The next row that is neither blank nor a comment ('#' first); false at the end.
    bool next(ScannedRow &row)
    {
        while (nextAny(row)) {
            const std::string_view first = row.fields.front().text;
            const bool blank = row.fields.size() == 1 && first.empty();
            const bool comment = !first.empty() && first.front() == '#';
            if (!blank && !comment)
                return true;
        }
        return false;
    }

    // Reads to the end, for the messages about the rest of the input.
    void drain()
    {
        ScannedRow row;
        while (nextAny(row)) { }
    }

    // The field's 1-based column in code points; 0 for a field with no position. Counts from
    // the last field asked about when it is further along the same line, so asking for every
    // field of a row in order is linear in the line's length.
    int column(const ScannedField &field) const
    {
        if (field.line == 0)
            return 0;
        if (field.lineStart != m_columnLineStart || field.offset < m_columnOffset) {
            m_columnLineStart = field.lineStart;
            m_columnOffset = field.lineStart;
            m_column = 1;
        }
        m_column += codePointColumn(m_text, m_columnOffset, field.offset) - 1;
        m_columnOffset = field.offset;
        return m_column;
    }

    bool failed() const { return m_failed; }
    std::size_t diagnosticsDropped() const { return m_dropped; }

private:
    void diagnose(Severity severity, int line, int column, const char *message)
    {
        m_failed = m_failed || severity == Severity::Error;
        if (m_diagnostics.size() < m_maxDiagnostics)
            m_diagnostics.push_back({ severity, m_fileName, line, column, message });
        else
            ++m_dropped;
    }

    // The first delimiter or LF at or after `from`, or the end of the text. Eight bytes at a
    // time: the unquoted fields of a big file are most of its bytes.
    std::size_t fieldEnd(std::size_t from) const
    {
        const char *const data = m_text.data();
        const std::size_t size = m_text.size();
        std::size_t p = from;
        if constexpr (std::endian::native == std::endian::little) {
            const std::uint64_t delimiters = bytewise::repeated(m_delimiter);
            const std::uint64_t newlines = bytewise::repeated('\n');
            for (; p + 8 <= size; p += 8) {
                const std::uint64_t word = bytewise::load(data + p);
                // The lowest flagged byte is always a real delimiter or line end.
                const std::uint64_t found
                    = bytewise::zeroBytes(word ^ delimiters) | bytewise::zeroBytes(word ^ newlines);
                if (found != 0)
                    return p + static_cast<std::size_t>(std::countr_zero(found)) / 8;
            }
        }
        while (p < size && data[p] != m_delimiter && data[p] != '\n')
            ++p;
        return p;
    }

    bool crlfAt(std::size_t i) const
    {
        return m_text[i] == '\r' && i + 1 < m_text.size() && m_text[i + 1] == '\n';
    }

    // One row, blank or comment included; false when no row starts before the end.
    bool nextAny(ScannedRow &row)
    {
        const std::size_t size = m_text.size();
        if (m_pos >= size)
            return false;
        row.fields.clear();
        row.scratch.clear();
        m_quotedFields.clear();
        while (true) {
            ScannedField field;
            if (m_pos >= size) {
                // A delimiter was the input's last byte: one more, empty field, with no position.
                row.fields.push_back(field);
                break;
            }
            field.line = m_line;
            field.lineStart = m_lineStart;
            field.offset = m_pos;
            if (m_text[m_pos] == '"') {
                const std::size_t begin = row.scratch.size();
                quotedField(row.scratch, field);
                m_quotedFields.push_back({ row.fields.size(), begin });
            } else {
                // An empty field before CRLF is placed at the LF, as the line end.
                if (crlfAt(m_pos))
                    field.offset = m_pos + 1;
                const std::size_t p = fieldEnd(m_pos);
                const char *const data = m_text.data();
                std::size_t end = p;
                if (p < size && data[p] == '\n' && end > m_pos && data[end - 1] == '\r')
                    --end; // CRLF: the CR is part of the line end
                field.text = m_text.substr(m_pos, end - m_pos);
                m_pos = p;
            }
            row.fields.push_back(field);
            if (m_pos >= size)
                break;
            if (m_text[m_pos] == '\n') {
                ++m_pos;
                ++m_line;
                m_lineStart = m_pos;
                break;
            }
            ++m_pos; // the delimiter
        }
        // The scratch buffer is complete only now: point the quoted fields into it.
        for (std::size_t i = 0; i < m_quotedFields.size(); ++i) {
            const auto [index, begin] = m_quotedFields[i];
            const std::size_t end
                = i + 1 < m_quotedFields.size() ? m_quotedFields[i + 1].second : row.scratch.size();
            row.fields[index].text = std::string_view(row.scratch).substr(begin, end - begin);
        }
        row.line = row.fields.front().line;
        return true;
    }

    // A field that opens with a quote, from the quote to its delimiter or line end: the quoted
    // text unescaped, then any text after the closing quote (kept, with a warning).
    void quotedField(std::string &out, const ScannedField &field)
    {
        const std::size_t size = m_text.size();
        ++m_pos;
        bool closed = false;
        while (m_pos < size) {
            const char c = m_text[m_pos];
            if (c == '"') {
                if (m_pos + 1 < size && m_text[m_pos + 1] == '"') {
                    out.push_back('"');
                    m_pos += 2;
                    continue;
                }
                ++m_pos;
                closed = true;
                break;
            }
            if (c == '\n') {
                ++m_line;
                m_lineStart = m_pos + 1;
            } else if (crlfAt(m_pos)) {
                ++m_pos; // keep LF only inside quoted fields
                continue;
            }
            out.push_back(c);
            ++m_pos;
        }
        if (!closed) {
            diagnose(Severity::Error, field.line,
                codePointColumn(m_text, field.lineStart, field.offset),
                "unterminated quoted field (expected a closing \")");
            return;
        }
        bool afterQuote = true; // blanks right after the closing quote are dropped
        while (m_pos < size) {
            const char c = m_text[m_pos];
            if (c == m_delimiter || c == '\n')
                break;
            if (crlfAt(m_pos)) {
                ++m_pos;
                continue;
            }
            if (afterQuote) {
                if (c == ' ' || c == '\t' || c == '\r') {
                    ++m_pos;
                    continue;
                }
                diagnose(Severity::Warning, m_line, codePointColumn(m_text, m_lineStart, m_pos),
                    "text after a closing quote is kept as part of the field");
                afterQuote = false;
            }
            out.push_back(c);
            ++m_pos;
        }
    }

    std::string_view m_text;
    char m_delimiter;
    const std::string &m_fileName;
    std::vector<Diagnostic> &m_diagnostics;
    std::size_t m_maxDiagnostics;
    std::size_t m_dropped = 0;
    bool m_failed = false;
    std::size_t m_pos = 0;
    int m_line = 1;
    std::size_t m_lineStart = 0;
    std::vector<std::pair<std::size_t, std::size_t>> m_quotedFields; // (field, scratch offset)
    mutable std::size_t m_columnLineStart = 0;
    mutable std::size_t m_columnOffset = 0;
    mutable int m_column = 1;
};

} // namespace ridgepoint::csv
