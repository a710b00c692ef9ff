// What format detectors look at: a text's beginning, worked out once and shared by every
// detector in the registry (core/io/format_registry.h).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ridgepoint {

class Sniff
{
public:
    // How much of a text the signatures are looked for in (the window reads no more of a file
    // to decide where it goes).
    static constexpr std::size_t kHeadBytes = std::size_t { 1 } << 16;
    static constexpr std::size_t kHeadLines = 64;

    explicit Sniff(std::string_view text);

    // The whole text, without a UTF-8 byte-order mark.
    std::string_view text() const { return m_text; }
    // Its first kHeadBytes.
    std::string_view head() const { return m_text.substr(0, kHeadBytes); }
    // The first non-blank character is '{' or '['.
    bool json() const { return m_json; }
    // `needle` occurs in the head.
    bool mentions(std::string_view needle) const;
    // The first line, ASCII lower-cased (a CR before its LF kept).
    const std::string &firstLineLower() const;
    // The non-blank lines among the head's first kHeadLines, trimmed.
    const std::vector<std::string_view> &contentLines() const;
    // Work that several detectors share, done once per text (ncu's four pages look for one
    // header): `work` is called the first time and its answer kept.
    int shared(int (*work)(std::string_view text)) const;

private:
    std::string_view m_text;
    bool m_json = false;
    mutable std::optional<std::string> m_firstLineLower;
    mutable std::optional<std::vector<std::string_view>> m_contentLines;
    mutable std::vector<std::pair<int (*)(std::string_view), int>> m_shared;
};

} // namespace ridgepoint
