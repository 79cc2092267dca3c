#include "pypi/simple_page.h"

#include "core/error.h"
#include "core/json_reader.h"
#include "core/text.h"
#include "http/url.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <optional>

namespace dlenv::pypi {

namespace {

// The URL without its fragment, and the sha256 a "#sha256=<hex>" fragment names.
void set_url(DistributionFile& file, const std::string& page_url, std::string_view href)
{
    std::string url = http::resolve_url(page_url, href);
    auto hash = url.find('#');
    if (hash != std::string::npos) {
        std::string_view fragment = std::string_view(url).substr(hash + 1);
        if (fragment.starts_with("sha256="))
            file.sha256 = fragment.substr(7);
        url.erase(hash);
    }
    file.url = std::move(url);
}

// "true" or "sha256=<hex>" (PEP 658's attribute), or a JSON true or {"sha256": "<hex>"}.
void set_metadata_hash(DistributionFile& file, std::string_view value)
{
    file.metadata_file = value != "false";
    if (value.starts_with("sha256="))
        file.metadata_sha256 = value.substr(7);
}

void append_utf8(std::string& out, unsigned long code)
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

// Decodes the character references a simple page uses: &lt; &gt; &amp; &quot; &apos;
// and numeric ones ("&#62;", "&#x3E;"); anything else is kept as written.
std::string decode_entities(std::string_view text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        auto end = text[i] == '&' ? text.find(';', i) : std::string_view::npos;
        if (end == std::string_view::npos || end - i > 10) {
            out += text[i];
            continue;
        }
        std::string name = ascii_lowercase(text.substr(i + 1, end - i - 1));
        static const std::pair<const char*, char> named[]
            = { { "lt", '<' }, { "gt", '>' }, { "amp", '&' }, { "quot", '"' }, { "apos", '\'' } };
        bool done = false;
        for (const auto& [entity, c] : named)
            if (name == entity) {
                out += c;
                done = true;
            }
        if (!done && name.size() > 1 && name[0] == '#') {
            bool hex = name[1] == 'x';
            std::string digits = name.substr(hex ? 2 : 1);
            char* rest = nullptr;
            unsigned long code = std::strtoul(digits.c_str(), &rest, hex ? 16 : 10);
            if (!digits.empty() && rest && *rest == '\0' && code <= 0x10FFFF) {
                append_utf8(out, code);
                done = true;
            }
        }
        if (!done) {
            out += text[i];
            continue;
        }
        i = end;
    }
    return out;
}

struct Anchor {
    std::map<std::string, std::string> attributes; // lower-case names, decoded values
    std::string text;
};

// The <a> elements of `html`, in order. Enough HTML for simple pages: attributes quoted
// with " or ', or unquoted; the text up to </a>, tags inside it dropped.
std::vector<Anchor> anchors(std::string_view html)
{
    std::vector<Anchor> out;
    std::string folded = ascii_lowercase(html);
    std::size_t pos = 0;
    while ((pos = folded.find("<a", pos)) != std::string::npos) {
        pos += 2;
        if (pos >= html.size() || !(std::isspace(static_cast<unsigned char>(html[pos])) || html[pos] == '>'))
            continue;
        Anchor anchor;
        while (pos < html.size() && html[pos] != '>') {
            if (std::isspace(static_cast<unsigned char>(html[pos])) || html[pos] == '/') {
                ++pos;
                continue;
            }
            std::size_t start = pos;
            while (pos < html.size() && !std::isspace(static_cast<unsigned char>(html[pos])) && html[pos] != '='
                && html[pos] != '>')
                ++pos;
            std::string name = ascii_lowercase(html.substr(start, pos - start));
            std::string value;
            if (pos < html.size() && html[pos] == '=') {
                ++pos;
                if (pos < html.size() && (html[pos] == '"' || html[pos] == '\'')) {
                    char quote = html[pos++];
                    std::size_t close = html.find(quote, pos);
                    if (close == std::string_view::npos)
                        close = html.size();
                    value = decode_entities(html.substr(pos, close - pos));
                    pos = std::min(close + 1, html.size());
                } else {
                    start = pos;
                    while (
                        pos < html.size() && !std::isspace(static_cast<unsigned char>(html[pos])) && html[pos] != '>')
                        ++pos;
                    value = decode_entities(html.substr(start, pos - start));
                }
            }
            anchor.attributes[name] = value;
        }
        std::size_t close = folded.find("</a", pos);
        if (close == std::string::npos)
            close = html.size();
        std::string text;
        bool in_tag = false;
        for (std::size_t i = pos + 1; i < close; ++i) {
            if (html[i] == '<')
                in_tag = true;
            else if (html[i] == '>')
                in_tag = false;
            else if (!in_tag)
                text += html[i];
        }
        anchor.text = decode_entities(text);
        out.push_back(std::move(anchor));
        pos = close;
    }
    return out;
}

std::string trim(const std::string& text)
{
    auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

std::optional<SpecifierSet> requires_python(const std::string& text, const std::string& source)
{
    if (trim(text).empty())
        return std::nullopt;
    try {
        return SpecifierSet::parse(text);
    } catch (const Error& e) {
        throw e.with_context(source);
    }
}

} // namespace

std::vector<DistributionFile> parse_simple_json(
    std::string_view text, const std::string& page_url, const std::string& project)
{
    std::string source = "index page " + page_url;
    nlohmann::json document = JsonReader::parse_document(source, std::string(text));
    JsonReader page(source, document);
    std::vector<DistributionFile> out;
    for (const auto& entry : page.at("files").items()) {
        DistributionFile file;
        file.project = project;
        file.filename = entry.at("filename").string();
        set_url(file, page_url, entry.at("url").string());
        if (auto hashes = entry.find("hashes"))
            if (auto sha256 = hashes->optional_string("sha256"))
                file.sha256 = *sha256;
        if (auto python = entry.optional_string("requires-python"))
            file.requires_python = requires_python(*python, source + ": " + file.filename);
        if (auto yanked = entry.find("yanked"))
            file.yanked = yanked->raw().is_string() || yanked->boolean();
        if (auto size = entry.find("size"))
            file.size = size->non_negative_integer();
        auto metadata = entry.find("core-metadata");
        if (!metadata)
            metadata = entry.find("dist-info-metadata");
        if (metadata) {
            if (metadata->raw().is_boolean())
                file.metadata_file = metadata->boolean();
            else if (auto sha256 = metadata->optional_string("sha256"))
                set_metadata_hash(file, "sha256=" + *sha256);
            else
                file.metadata_file = true;
        }
        out.push_back(std::move(file));
    }
    return out;
}

std::vector<DistributionFile> parse_simple_html(
    std::string_view text, const std::string& page_url, const std::string& project)
{
    std::string source = "index page " + page_url;
    std::vector<DistributionFile> out;
    for (const auto& anchor : anchors(text)) {
        auto href = anchor.attributes.find("href");
        if (href == anchor.attributes.end())
            continue;
        DistributionFile file;
        file.project = project;
        file.filename = trim(anchor.text);
        set_url(file, page_url, href->second);
        if (file.filename.empty())
            file.filename = file.url.substr(file.url.rfind('/') + 1);
        auto attribute = [&](const char* name) -> const std::string* {
            auto it = anchor.attributes.find(name);
            return it == anchor.attributes.end() ? nullptr : &it->second;
        };
        if (auto python = attribute("data-requires-python"))
            file.requires_python = requires_python(*python, source + ": " + file.filename);
        file.yanked = attribute("data-yanked") != nullptr;
        auto metadata = attribute("data-core-metadata");
        if (!metadata)
            metadata = attribute("data-dist-info-metadata");
        if (metadata)
            set_metadata_hash(file, *metadata);
        out.push_back(std::move(file));
    }
    return out;
}

} // namespace dlenv::pypi
