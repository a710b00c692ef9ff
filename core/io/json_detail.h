// Internal to core: nlohmann_json conversions shared by the readers and report writers.
// Kept out of the public headers so only the .cpp files that need it pay for it.
#pragma once

#include "core/analysis/analysis.h"
#include "core/model/diagnostic.h"
#include "core/model/hardware.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint::detail {

// The machine with its ceilings (peaks as numbers, SI base units) and, when asked, its ridges.
nlohmann::ordered_json hardwareJson(const Hardware &hardware, bool withRidges);

// Deeper nesting is refused before parsing: no Ridgepoint file nests more than a few levels,
// and nlohmann's dump() and comparisons recurse once per level.
inline constexpr int kMaxJsonDepth = 512;

// Every dump() in core goes through this: a name read from a CSV may hold bytes that are not
// UTF-8 (the readers can be called without the input check), and a plain dump() throws
// type_error.316 on them; here they become U+FFFD.
template<typename BasicJson> std::string dumpJson(const BasicJson &json, int indent = -1)
{
    return json.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The first error of a SAX parse, with its position. nlohmann reports a number too large for a
// double (out_of_range.406) through the same SAX call as a syntax error, but json::parse throws
// it as out_of_range, with no position: a handler deriving from this keeps both with their offset.
struct SaxError {
    template<typename Exception>
    bool parse_error(std::size_t position, const std::string &token, const Exception &error)
    {
        failed = true;
        id = error.id;
        // Syntax errors: nlohmann's position is just past the offending character. A number
        // overflow: just past the number, so it starts token.size() before.
        const bool overflow = id == 406;
        offset = overflow ? (position >= token.size() ? position - token.size() : 0)
                          : (position > 0 ? position - 1 : 0);
        message = error.what();
        // Drop "[json.exception.parse_error.101] parse error at line 1, column 2: " or
        // "[json.exception.out_of_range.406] ".
        if (const auto colon = message.find(": "); !overflow && colon != std::string::npos)
            message = message.substr(colon + 2);
        else if (const auto bracket = message.find("] "); bracket != std::string::npos)
            message = message.substr(bracket + 2);
        if (overflow)
            message += " (expected a number a double can hold, at most about 1.8e308)";
        return false;
    }

    bool failed = false;
    int id = 0;
    std::size_t offset = 0;
    std::string message;
};

// The DOM builder with the position of the first error kept (SaxError).
template<typename BasicJson> class CheckedSax : public SaxError
{
public:
    using number_integer_t = typename BasicJson::number_integer_t;
    using number_unsigned_t = typename BasicJson::number_unsigned_t;
    using number_float_t = typename BasicJson::number_float_t;
    using string_t = typename BasicJson::string_t;
    using binary_t = typename BasicJson::binary_t;

    explicit CheckedSax(BasicJson &root)
        : dom_(root, false)
    { }

    bool null() { return dom_.null(); }
    bool boolean(bool value) { return dom_.boolean(value); }
    bool number_integer(number_integer_t value) { return dom_.number_integer(value); }
    bool number_unsigned(number_unsigned_t value) { return dom_.number_unsigned(value); }
    bool number_float(number_float_t value, const string_t &text)
    {
        return dom_.number_float(value, text);
    }
    bool string(string_t &value) { return dom_.string(value); }
    bool binary(binary_t &value) { return dom_.binary(value); }
    bool start_object(std::size_t size) { return dom_.start_object(size); }
    bool key(string_t &value) { return dom_.key(value); }
    bool end_object() { return dom_.end_object(); }
    bool start_array(std::size_t size) { return dom_.start_array(size); }
    bool end_array() { return dom_.end_array(); }

private:
    nlohmann::detail::json_sax_dom_parser<BasicJson> dom_;
};

// Runs the SAX handler `sax` (a SaxError) over a reader's JSON input. Never throws: a syntax
// error, a number a double cannot hold or nesting deeper than kMaxJsonDepth becomes one "invalid
// JSON: ..." error with its line and column in `diagnostics`, and the result is false. A handler
// that stops the parse itself (returns false without an error) leaves true: it knows why.
template<typename BasicJson, typename Sax>
bool saxParseJson(std::string_view text, const std::string &fileName,
    std::vector<Diagnostic> &diagnostics, Sax &sax)
{
    const auto fail = [&](std::size_t offset, const std::string &message) {
        const TextPosition at = positionOfOffset(text, offset);
        diagnostics.push_back(
            { Severity::Error, fileName, at.line, at.column, "invalid JSON: " + message });
        return false;
    };
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth)
                return fail(i,
                    "nested deeper than " + std::to_string(kMaxJsonDepth)
                        + " levels (expected a Ridgepoint, ERT or hardware file)");
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    try {
        BasicJson::sax_parse(text, &sax);
    } catch (const nlohmann::json::exception &e) {
        // Not expected (every error goes through parse_error), but a reader must not throw.
        return fail(0, e.what());
    }
    if (sax.failed)
        return fail(sax.offset, sax.message);
    return true;
}

// Parses a reader's JSON input into a tree (saxParseJson); nullopt after the error.
template<typename BasicJson>
std::optional<BasicJson> parseJson(
    std::string_view text, const std::string &fileName, std::vector<Diagnostic> &diagnostics)
{
    BasicJson root;
    CheckedSax<BasicJson> sax(root);
    if (!saxParseJson<BasicJson>(text, fileName, diagnostics, sax))
        return std::nullopt;
    return root;
}

} // namespace ridgepoint::detail
