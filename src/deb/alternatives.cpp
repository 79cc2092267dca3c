#include "deb/alternatives.h"

#include <optional>
#include <sstream>

namespace dlenv::deb {
namespace {

std::vector<std::string> logical_lines(const std::string& script)
{
    std::vector<std::string> lines;
    std::string current;
    std::istringstream in(script);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\\') {
            current += line.substr(0, line.size() - 1) + " ";
            continue;
        }
        lines.push_back(current + line);
        current.clear();
    }
    if (!current.empty())
        lines.push_back(current);
    return lines;
}

bool literal(const std::string& word)
{
    return word.find_first_of("$`'\"\\;&|<>(){}*?") == std::string::npos;
}

bool absolute(const std::string& path)
{
    return path.starts_with('/') && path.find("/../") == std::string::npos && !path.ends_with("/..");
}

std::optional<Alternative> parse_install(const std::vector<std::string>& words, std::size_t at)
{
    if (words.size() < at + 5)
        return std::nullopt;
    Alternative alternative { words[at + 1], words[at + 2], words[at + 3], 0, {} };
    try {
        alternative.priority = std::stol(words[at + 4]);
    } catch (...) {
        return std::nullopt;
    }
    std::size_t i = at + 5;
    while (i + 3 < words.size() && words[i] == "--slave") {
        alternative.slaves.push_back({ words[i + 1], words[i + 2], words[i + 3] });
        i += 4;
    }
    if (!absolute(alternative.link) || !absolute(alternative.path))
        return std::nullopt;
    for (const auto& slave : alternative.slaves)
        if (!absolute(slave.link) || !absolute(slave.path))
            return std::nullopt;
    return alternative;
}

} // namespace

std::vector<Alternative> installed_alternatives(const std::string& script)
{
    std::vector<Alternative> found;
    for (const auto& line : logical_lines(script)) {
        std::istringstream in(line);
        std::vector<std::string> words;
        for (std::string word; in >> word;)
            words.push_back(word);
        for (std::size_t i = 0; i + 1 < words.size(); ++i) {
            if (words[i] != "update-alternatives" || words[i + 1] != "--install")
                continue;
            bool all_literal = true;
            for (std::size_t j = i; j < words.size(); ++j)
                all_literal = all_literal && literal(words[j]);
            if (all_literal)
                if (auto alternative = parse_install(words, i + 1))
                    found.push_back(std::move(*alternative));
        }
    }
    return found;
}

AlternativeFiles alternative_files(const std::vector<Alternative>& alternatives)
{
    std::map<std::string, std::vector<const Alternative*>> by_name;
    for (const auto& alternative : alternatives)
        by_name[alternative.name].push_back(&alternative);
    AlternativeFiles files;
    for (const auto& [name, group] : by_name) {
        const Alternative* best = group.front();
        for (const Alternative* each : group)
            if (each->priority > best->priority)
                best = each;
        files.symlinks[best->link.substr(1)] = "/etc/alternatives/" + name;
        files.symlinks["etc/alternatives/" + name] = best->path;
        std::string admin = "auto\n" + best->link + "\n";
        for (const auto& slave : best->slaves) {
            admin += slave.name + "\n" + slave.link + "\n";
            files.symlinks[slave.link.substr(1)] = "/etc/alternatives/" + slave.name;
            files.symlinks["etc/alternatives/" + slave.name] = slave.path;
        }
        admin += "\n";
        for (const Alternative* each : group) {
            admin += each->path + "\n" + std::to_string(each->priority) + "\n";
            for (const auto& slave : best->slaves) {
                std::string path;
                for (const auto& own : each->slaves)
                    if (own.name == slave.name)
                        path = own.path;
                admin += path + "\n";
            }
        }
        files.admin_files["var/lib/dpkg/alternatives/" + name] = admin + "\n";
    }
    return files;
}

} // namespace dlenv::deb
