#include "cli/transfer_json.h"

#include <map>

namespace dlenv::cli {
namespace {

std::string state_name(registry::BlobProgress::State state, const std::string& moved_verb)
{
    switch (state) {
    case registry::BlobProgress::State::present:
        return "already there";
    case registry::BlobProgress::State::mounted:
        return "mounted";
    default:
        return moved_verb;
    }
}

} // namespace

nlohmann::json blobs_json(const std::vector<registry::BlobProgress>& blobs)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& blob : blobs) {
        std::string state = blob.state == registry::BlobProgress::State::present ? "present"
            : blob.state == registry::BlobProgress::State::mounted               ? "mounted"
                                                                                 : "transferred";
        out.push_back({ { "digest", blob.digest.text() }, { "size", blob.size }, { "state", state } });
    }
    return out;
}

std::string describe_blobs(const std::vector<registry::BlobProgress>& blobs, const std::string& moved_verb)
{
    std::map<std::string, int> counts;
    for (const auto& blob : blobs)
        ++counts[state_name(blob.state, moved_verb)];
    std::string out;
    for (const auto& [state, count] : counts)
        out += (out.empty() ? "" : ", ") + std::to_string(count) + " " + state;
    return out;
}

} // namespace dlenv::cli
