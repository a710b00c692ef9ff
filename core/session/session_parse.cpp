// A session's text parsed with its points read as they come (session_parse.h).
#include "core/session/session_parse.h"

#include "core/io/json_detail.h"
#include "core/session/session.h"

#include <optional>
#include <utility>

namespace ridgepoint::session_json {
namespace {

using Dom = nlohmann::detail::json_sax_dom_parser<Json>;

// nlohmann's SAX events, each sent to the tree of the document or to the tree of the one entry
// of "points" being parsed. Depths count containers: the document's object is depth 1, so its
// keys come at depth 1 and the entries of its "points" list start at depth 2.
class SessionSax : public detail::SaxError
{
public:
    using number_integer_t = Json::number_integer_t;
    using number_unsigned_t = Json::number_unsigned_t;
    using number_float_t = Json::number_float_t;
    using string_t = Json::string_t;
    using binary_t = Json::binary_t;

    SessionSax(Json &root, PointEntries &entries)
        : m_root(root, false)
        , m_entries(entries)
    { }

    bool null()
    {
        noteTop(false, std::nullopt);
        return value([](Dom &dom) { return dom.null(); });
    }
    bool boolean(bool v)
    {
        noteTop(false, std::nullopt);
        return value([v](Dom &dom) { return dom.boolean(v); });
    }
    bool number_integer(number_integer_t v)
    {
        noteTop(false, v);
        return value([v](Dom &dom) { return dom.number_integer(v); });
    }
    bool number_unsigned(number_unsigned_t v)
    {
        noteTop(false,
            v <= 1000 ? std::optional<number_integer_t>(static_cast<number_integer_t>(v))
                      : std::nullopt);
        return value([v](Dom &dom) { return dom.number_unsigned(v); });
    }
    bool number_float(number_float_t v, const string_t &text)
    {
        noteTop(false, std::nullopt);
        return value([&](Dom &dom) { return dom.number_float(v, text); });
    }
    bool string(string_t &v)
    {
        noteTop(v == kSessionFormat, std::nullopt);
        return value([&](Dom &dom) { return dom.string(v); });
    }
    bool binary(binary_t &v)
    {
        noteTop(false, std::nullopt);
        return value([&](Dom &dom) { return dom.binary(v); });
    }
    bool start_object(std::size_t size)
    {
        return open([size](Dom &dom) { return dom.start_object(size); }, false);
    }
    bool start_array(std::size_t size)
    {
        return open([size](Dom &dom) { return dom.start_array(size); }, true);
    }
    bool end_object()
    {
        return close([](Dom &dom) { return dom.end_object(); });
    }
    bool end_array()
    {
        return close([](Dom &dom) { return dom.end_array(); });
    }
    bool key(string_t &k)
    {
        if (m_entryDepth > 0)
            return m_entry->key(k);
        if (m_depth == 1) {
            if (m_streamed && (k == "format" || k == "version" || k == "points")) {
                again = true; // a repeated key after the points: the tree decides
                return false;
            }
            m_key = k;
        }
        return m_root.key(k);
    }

    bool streamed() const { return m_streamed; }
    bool again = false;

private:
    bool atTop() const { return m_entryDepth == 0 && !m_inPoints && m_depth == 1; }

    // A value of the document's own keys: is it the session's format, a version to stream?
    void noteTop(bool isFormat, std::optional<number_integer_t> integer)
    {
        if (!atTop())
            return;
        if (m_key == "format")
            m_formatSeen = isFormat;
        else if (m_key == "version")
            m_versionSeen
                = integer && *integer >= kPointsUnchangedSince && *integer <= kSessionVersion;
    }

    template<typename Event> bool value(Event &&event)
    {
        if (m_entryDepth > 0)
            return event(*m_entry);
        if (m_inPoints) { // an entry that is not a container: read, then dropped
            Json entry;
            Dom dom(entry, false);
            const bool ok = event(dom);
            m_entries.add(entry);
            return ok;
        }
        return event(m_root);
    }

    template<typename Event> bool open(Event &&event, bool isArray)
    {
        if (m_entryDepth > 0) {
            ++m_entryDepth;
            return event(*m_entry);
        }
        if (m_inPoints) { // an entry begins
            m_entryTree = Json();
            m_entry.emplace(m_entryTree, false);
            m_entryDepth = 1;
            return event(*m_entry);
        }
        if (atTop()) {
            noteTop(false, std::nullopt);
            m_inPoints = isArray && m_key == "points" && m_formatSeen && m_versionSeen;
        }
        ++m_depth;
        return event(m_root);
    }

    template<typename Event> bool close(Event &&event)
    {
        if (m_entryDepth > 0) {
            const bool ok = event(*m_entry);
            if (--m_entryDepth == 0) { // the entry ends: read, then dropped
                m_entry.reset();
                m_entries.add(m_entryTree);
                m_entryTree = Json();
            }
            return ok;
        }
        if (m_inPoints) { // the end of "points", left empty in the tree
            m_inPoints = false;
            m_streamed = true;
        }
        --m_depth;
        return event(m_root);
    }

    Dom m_root;
    PointEntries &m_entries;
    int m_depth = 0;
    std::string m_key; // the last key of the document's object
    bool m_formatSeen = false;
    bool m_versionSeen = false;
    bool m_inPoints = false;
    bool m_streamed = false;
    Json m_entryTree;
    std::optional<Dom> m_entry;
    int m_entryDepth = 0;
};

} // namespace

ParsedSession parseSession(std::string_view text, const std::string &fileName,
    std::vector<Diagnostic> &diagnostics, PointEntries &entries)
{
    ParsedSession parsed;
    SessionSax sax(parsed.root, entries);
    if (!detail::saxParseJson<Json>(text, fileName, diagnostics, sax)) {
        parsed.outcome = ParsedSession::Outcome::Failed;
        return parsed;
    }
    if (sax.again) {
        parsed.root = Json();
        parsed.outcome = ParsedSession::Outcome::Again;
        return parsed;
    }
    parsed.outcome = ParsedSession::Outcome::Parsed;
    parsed.streamed = sax.streamed();
    return parsed;
}

} // namespace ridgepoint::session_json
