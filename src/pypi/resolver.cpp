#include "pypi/resolver.h"

#include "core/error.h"
#include "pypi/wheel_name.h"
#include "pypi/wheel_tags.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>
#include <set>

namespace dlenv::pypi {
namespace {

// Why a requirement is in the closure: "torch 2.1.2+cu118 requires filelock", after
// the step that brought torch in. Shared between the states of the search.
struct Why {
    std::string requirer; // normalised name, or the request's requester for a root
    std::string text;
    std::shared_ptr<const Why> parent;
};

struct Demand {
    Requirement requirement;
    std::shared_ptr<const Why> why;
};

// Renders the chain root first; the root step ("the profile requires torch") only
// when the demand is itself a root, since later steps name their requirer anyway.
std::string chain(const std::shared_ptr<const Why>& why)
{
    std::vector<std::string> steps;
    for (auto step = why; step; step = step->parent)
        steps.push_back(step->text);
    if (steps.size() > 1)
        steps.pop_back();
    std::string out;
    for (auto it = steps.rbegin(); it != steps.rend(); ++it)
        out += (out.empty() ? "" : "; ") + *it;
    return out;
}

// The requirement as a chain shows it: its marker already held, so it is left out.
std::string requirement_text(Requirement requirement)
{
    requirement.marker.reset();
    return requirement.str();
}

struct Candidate {
    Pep440Version version;
    DistributionFile file;
};

struct Pin {
    Candidate candidate;
    std::set<std::string> extras;
};

struct State {
    std::map<std::string, Pin> pins;
    std::map<std::string, std::vector<Demand>> demands; // accepted, by project
    std::deque<Demand> queue;
};

class Resolver {
public:
    Resolver(const ResolveRequest& request, const IndexSet& indexes)
        : m_request(request)
        , m_indexes(indexes)
        , m_env(marker_environment(request.target))
        , m_ranking(request.target)
        , m_python(Pep440Version::parse(m_env.at("python_full_version")))
    {
    }

    std::vector<ResolvedPackage> run()
    {
        State state;
        for (const auto& requirement : m_request.requirements)
            if (requirement.applies(m_env))
                state.queue.push_back({ requirement,
                    std::make_shared<Why>(Why { m_request.requester,
                        m_request.requester + " requires " + requirement_text(requirement), nullptr }) });
        if (!solve(std::move(state)))
            throw Error(ErrorCode::conflict, m_conflict.value_or("no set of versions satisfies the requirements"),
                "change the profile's packages or versions, or add the missing wheels to the index");
        return m_result;
    }

private:
    static constexpr std::size_t k_max_attempts = 100000;

    void conflict(std::string message)
    {
        if (!m_conflict)
            m_conflict = std::move(message);
    }

    bool solve(State state)
    {
        while (!state.queue.empty()) {
            Demand demand = std::move(state.queue.front());
            state.queue.pop_front();
            std::string key = demand.requirement.key();
            auto pinned = state.pins.find(key);
            if (pinned == state.pins.end())
                return choose(std::move(state), std::move(demand));
            const Pin& pin = pinned->second;
            if (!demand.requirement.specifiers.contains(pin.candidate.version, true)) {
                conflict(chain(demand.why) + ", but " + chain(state.demands[key].front().why));
                return false;
            }
            std::vector<std::string> added;
            for (const auto& extra : demand.requirement.extras)
                if (!pin.extras.count(extra))
                    added.push_back(extra);
            state.demands[key].push_back(demand);
            if (!added.empty())
                pin_dependencies(state, key, added);
        }
        finish(state);
        return true;
    }

    bool choose(State state, Demand demand)
    {
        std::string key = demand.requirement.key();
        std::vector<Candidate> candidates = candidates_for(demand);
        // A wheel for another Python is a dead end only when no candidate fits.
        std::optional<std::string> python_mismatch;
        bool fits = false;
        for (auto& candidate : candidates) {
            if (++m_attempts > k_max_attempts)
                throw Error(ErrorCode::conflict, "gave up after " + std::to_string(k_max_attempts) + " choices",
                    "pin the versions of the packages with the most releases in the profile");
            const Metadata& metadata = metadata_of(key, candidate.file);
            if (metadata.requires_python && !metadata.requires_python->contains(m_python, true)) {
                if (!python_mismatch)
                    python_mismatch = chain(demand.why) + ", but " + key + " " + candidate.version.str()
                        + " requires Python " + metadata.requires_python->str() + " and the target has "
                        + target_text();
                continue;
            }
            fits = true;
            State next = state;
            next.pins[key] = Pin { candidate, {} };
            next.demands[key].push_back(demand);
            pin_dependencies(next, key, { "" });
            pin_dependencies(next, key, demand.requirement.extras);
            if (solve(std::move(next)))
                return true;
        }
        if (!fits && python_mismatch)
            conflict(*python_mismatch);
        return false;
    }

    // Queues the requirements of the pinned `key` that apply for each of `extras` ("" is
    // the package itself), and records the extras as installed.
    void pin_dependencies(State& state, const std::string& key, const std::vector<std::string>& extras)
    {
        Pin& pin = state.pins[key];
        const Metadata& metadata = metadata_of(key, pin.candidate.file);
        auto parent = state.demands[key].back().why;
        std::string requirer = key + " " + pin.candidate.version.str();
        for (const auto& extra : extras) {
            if (!extra.empty())
                pin.extras.insert(extra);
            for (const auto& requirement : metadata.requires_dist) {
                bool base = requirement.applies(m_env, "");
                if (extra.empty() ? !base : (base || !requirement.applies(m_env, extra)))
                    continue;
                state.queue.push_back({ requirement,
                    std::make_shared<Why>(
                        Why { key, requirer + " requires " + requirement_text(requirement), parent }) });
            }
        }
    }

    std::vector<Candidate> candidates_for(const Demand& demand)
    {
        std::string key = demand.requirement.key();
        Index& index = m_indexes.for_project(key);
        std::map<Pep440Version, Candidate> best; // per version, the best-tagged wheel
        std::map<Pep440Version, std::pair<std::size_t, std::optional<BuildTag>>> best_rank;
        // PEP 592: a yanked file stays eligible only for a requirement that pins it exactly.
        bool pinned = std::any_of(demand.requirement.specifiers.clauses().begin(),
            demand.requirement.specifiers.clauses().end(), [](const Specifier& s) {
                return (s.op() == Specifier::Op::equal && !s.wildcard()) || s.op() == Specifier::Op::arbitrary;
            });
        for (const auto& file : index.files(key)) {
            if ((file.yanked && !pinned) || !file.filename.ends_with(".whl"))
                continue;
            if (file.requires_python && !file.requires_python->contains(m_python, true))
                continue;
            WheelName wheel = WheelName::parse(file.filename);
            auto rank = m_ranking.rank(wheel.tags);
            if (!rank)
                continue;
            auto it = best_rank.find(wheel.version);
            // A better tag wins; for equal tags the higher build tag does.
            if (it == best_rank.end() || *rank < it->second.first
                || (*rank == it->second.first && wheel.build > it->second.second)) {
                best_rank[wheel.version] = { *rank, wheel.build };
                best[wheel.version] = Candidate { wheel.version, file };
            }
        }
        std::vector<Pep440Version> versions;
        for (auto it = best.rbegin(); it != best.rend(); ++it)
            versions.push_back(it->first);

        SpecifierSet wanted = demand.requirement.specifiers;
        auto constraint = m_request.constraints.find(key);
        if (constraint != m_request.constraints.end())
            wanted.add(constraint->second.specifiers);
        std::vector<Candidate> out;
        for (const auto& version : wanted.filter(versions, m_request.prereleases))
            out.push_back(best.at(version));
        if (out.empty())
            conflict(explain_empty(
                demand, index, versions, constraint != m_request.constraints.end() ? &constraint->second : nullptr));
        return out;
    }

    std::string explain_empty(const Demand& demand, const Index& index, const std::vector<Pep440Version>& versions,
        const Constraint* constraint) const
    {
        std::string key = demand.requirement.key();
        std::string head = chain(demand.why) + ", but ";
        if (constraint && !demand.requirement.specifiers.filter(versions, m_request.prereleases).empty())
            return head + constraint->reason;
        if (versions.empty())
            return head + "index " + index.name() + " has no wheel of " + key + " for " + target_text();
        std::string have;
        for (const auto& version : versions)
            have += (have.empty() ? "" : ", ") + version.str();
        return head + "index " + index.name() + " has only " + key + " " + have + " for " + target_text();
    }

    std::string target_text() const
    {
        const Target& t = m_request.target;
        return "CPython " + t.python.text() + " on " + t.machine + " with glibc " + std::to_string(t.glibc_major) + "."
            + std::to_string(t.glibc_minor);
    }

    const Metadata& metadata_of(const std::string& key, const DistributionFile& file)
    {
        auto it = m_metadata.find(file.url);
        if (it == m_metadata.end())
            it = m_metadata.emplace(file.url, m_indexes.for_project(key).metadata(file)).first;
        return it->second;
    }

    void finish(const State& state)
    {
        for (const auto& [key, pin] : state.pins) {
            ResolvedPackage package { key, pin.candidate.version, m_indexes.for_project(key).name(), pin.candidate.file,
                { pin.extras.begin(), pin.extras.end() }, {} };
            std::set<std::string> by;
            for (const auto& demand : state.demands.at(key))
                by.insert(demand.why->requirer);
            package.required_by.assign(by.begin(), by.end());
            m_result.push_back(std::move(package));
        }
    }

    const ResolveRequest& m_request;
    const IndexSet& m_indexes;
    MarkerEnvironment m_env;
    TagRanking m_ranking;
    Pep440Version m_python;
    std::map<std::string, Metadata> m_metadata; // by file URL
    std::optional<std::string> m_conflict;
    std::vector<ResolvedPackage> m_result;
    std::size_t m_attempts = 0;
};

} // namespace

std::vector<ResolvedPackage> resolve(const ResolveRequest& request, const IndexSet& indexes)
{
    return Resolver(request, indexes).run();
}

} // namespace dlenv::pypi
