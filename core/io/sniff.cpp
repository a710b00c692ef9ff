#include "core/io/sniff.h"

#include "core/io/text.h"

namespace ridgepoint {

Sniff::Sniff(std::string_view text)
    : m_text(withoutBom(text))
{
    const auto first = m_text.find_first_not_of(kBlanks);
    m_json = first != std::string_view::npos && (m_text[first] == '{' || m_text[first] == '[');
}

bool Sniff::mentions(std::string_view needle) const
{
    return head().find(needle) != std::string_view::npos;
}

const std::string &Sniff::firstLineLower() const
{
    if (!m_firstLineLower)
        m_firstLineLower = asciiLower(firstLine(m_text));
    return *m_firstLineLower;
}

const std::vector<std::string_view> &Sniff::contentLines() const
{
    if (!m_contentLines) {
        m_contentLines.emplace();
        for (const TextLine &line : linesOf(head(), kHeadLines)) {
            if (const std::string_view content = trim(line.text); !content.empty())
                m_contentLines->push_back(content);
        }
    }
    return *m_contentLines;
}

int Sniff::shared(int (*work)(std::string_view text)) const
{
    for (const auto &[done, answer] : m_shared) {
        if (done == work)
            return answer;
    }
    const int answer = work(m_text);
    m_shared.emplace_back(work, answer);
    return answer;
}

} // namespace ridgepoint
