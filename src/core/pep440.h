#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace dlenv {

// A Python package version as PEP 440 defines it: epoch, release, pre-, post- and
// dev-release, and a local label ("2.1.2+cu118"). `parse` accepts the spellings PEP 440
// normalises (case, "alpha", "-1" for a post release, a leading "v") and throws
// Error(invalid_input) otherwise. Ordering follows PEP 440, local labels included.
class Pep440Version {
public:
    enum class PreKind { alpha, beta, rc };
    struct Pre {
        PreKind kind;
        std::uint64_t number;
        friend auto operator<=>(const Pre&, const Pre&) = default;
    };
    using LocalSegment = std::variant<std::uint64_t, std::string>;

    static Pep440Version parse(std::string_view text);
    static std::optional<Pep440Version> try_parse(std::string_view text);

    std::uint64_t epoch() const { return m_epoch; }
    const std::vector<std::uint64_t>& release() const { return m_release; }
    const std::optional<Pre>& pre() const { return m_pre; }
    const std::optional<std::uint64_t>& post() const { return m_post; }
    const std::optional<std::uint64_t>& dev() const { return m_dev; }
    const std::vector<LocalSegment>& local() const { return m_local; }

    bool is_prerelease() const { return m_pre.has_value() || m_dev.has_value(); }
    std::string public_str() const; // normalised, without the local label
    std::string base_str() const; // the release alone: "2.1.2" of 2.1.2rc1, 2.1.2.post1 or 2.1.2.dev5
    std::string local_str() const; // "cu118", or empty
    std::string str() const; // normalised, "2.1.2+cu118"
    Pep440Version without_local() const;

    friend std::strong_ordering operator<=>(const Pep440Version& a, const Pep440Version& b);
    friend bool operator==(const Pep440Version& a, const Pep440Version& b) { return (a <=> b) == 0; }

private:
    std::uint64_t m_epoch = 0;
    std::vector<std::uint64_t> m_release;
    std::optional<Pre> m_pre;
    std::optional<std::uint64_t> m_post;
    std::optional<std::uint64_t> m_dev;
    std::vector<LocalSegment> m_local;
};

} // namespace dlenv
