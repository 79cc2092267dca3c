#include "refresh/row_edits.h"

#include "core/text.h"

namespace dlenv::refresh {

Documents::Documents(const std::map<std::string, std::string>& files)
    : m_original(files)
{
}

nlohmann::ordered_json& Documents::edit(const std::string& name)
{
    auto [at, added] = m_docs.try_emplace(name);
    if (added)
        at->second = nlohmann::ordered_json::parse(m_original.at(name));
    m_changed.insert(name);
    return at->second;
}

std::string source_key(std::string_view prefix, std::string_view name)
{
    std::string key(prefix);
    for (char c : name)
        key += c == '-' || c == '.' ? '_' : ascii_upper(c);
    return key;
}

std::string Documents::cite(
    const std::string& name, const std::string& key, const std::string& title, const std::string& url)
{
    auto& sources = edit(name)["sources"];
    if (!sources.contains(key))
        sources[key] = { { "title", title }, { "url", url } };
    return key;
}

std::map<std::string, std::string> Documents::changed() const
{
    std::map<std::string, std::string> out;
    for (const auto& name : m_changed) {
        std::string text = m_docs.at(name).dump(2, ' ', true);
        if (m_original.at(name).ends_with('\n'))
            text += "\n";
        if (text != m_original.at(name))
            out[name] = std::move(text);
    }
    return out;
}

} // namespace dlenv::refresh
