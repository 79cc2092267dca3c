#include "store/store.h"

#include "core/error.h"
#include "core/time_text.h"
#include "oci/media_types.h"
#include "store/leftovers.h"

#include <cstdlib>

namespace dlenv::store {
namespace {

std::filesystem::path records_file(const std::filesystem::path& dir)
{
    return dir / "dlenv" / "refs.json";
}

// index.json's entries. A damaged index.json is only a view the records rebuild; without
// records it is all that says which images the store holds, and nothing may replace it.
std::vector<oci::Descriptor> index_entries(const oci::ImageLayout& layout, bool records_missing)
{
    try {
        return layout.read_index().manifests;
    } catch (const Error& e) {
        if (!records_missing || e.code() == ErrorCode::not_found)
            return {};
        throw Error(ErrorCode::invalid_input, e.message(),
            "dlenv/refs.json is missing too, so nothing else says which images the store holds: restore "
            "index.json or dlenv/refs.json from a backup");
    }
}

} // namespace

std::string ref_name(const std::string& name, const std::string& tag)
{
    return name + ":" + tag;
}

std::filesystem::path Store::locate(const std::string& flag)
{
    if (!flag.empty())
        return flag;
    if (const char* env = std::getenv("DLENV_STORE"); env && *env)
        return env;
    return ".dlenv";
}

Store::Store(oci::ImageLayout layout, FileLock lock, bool writable)
    : m_layout(std::move(layout))
    , m_lock(std::move(lock))
    , m_writable(writable)
{
    std::filesystem::path file = records_file(m_layout.dir());
    bool missing = !std::filesystem::exists(file);
    m_records = Records::read(file);
    m_recovery = recover_tags(m_records, index_entries(m_layout, missing), missing, now_seconds());
}

Store Store::open(const std::filesystem::path& dir)
{
    if (!std::filesystem::exists(dir / "oci-layout"))
        throw Error(ErrorCode::not_found, "no dlenv store at " + dir.string(),
            "build an image first (`dlenv build`), or point --store or DLENV_STORE at the store");
    FileLock lock(dir / "dlenv" / "lock", FileLock::Mode::shared);
    return Store(oci::ImageLayout::open(dir), std::move(lock), false);
}

Store Store::open_for_writing(const std::filesystem::path& dir)
{
    std::error_code ec;
    std::filesystem::create_directories(dir / "dlenv", ec);
    if (ec)
        throw Error(ErrorCode::io, "create store " + dir.string() + ": " + ec.message());
    FileLock lock(dir / "dlenv" / "lock", FileLock::Mode::exclusive);
    Store store(oci::ImageLayout::open_or_create(dir), std::move(lock), true);
    if (!store.m_recovery.refs.empty()) {
        store.commit(store.m_records);
        store.m_recovery = {};
    } else if (!store.index_matches_records()) {
        store.write_index();
    }
    remove_leftovers(store);
    return store;
}

std::optional<oci::Descriptor> Store::find(const std::string& name, const std::string& tag) const
{
    auto image = m_records.images.find(name);
    if (image == m_records.images.end())
        return std::nullopt;
    auto found = image->second.tags.find(tag);
    if (found == image->second.tags.end())
        return std::nullopt;
    return found->second;
}

void Store::commit(Records records)
{
    if (!m_writable)
        throw std::logic_error("commit to a store opened for reading: " + m_layout.dir().string());
    records.write(records_file(m_layout.dir()));
    m_records = std::move(records);
    write_index();
}

oci::Index Store::index_of_records() const
{
    oci::Index index;
    for (const auto& [name, record] : m_records.images)
        for (const auto& [tag, descriptor] : record.tags) {
            oci::Descriptor entry = descriptor;
            entry.annotations[oci::k_ref_name_annotation] = ref_name(name, tag);
            index.manifests.push_back(entry);
        }
    // What other tools added stays in the view; an entry named after one of our images is
    // ours, and the records say whether it still exists.
    for (const auto& descriptor : foreign_candidates()) {
        auto ref = descriptor.annotations.find(oci::k_ref_name_annotation);
        bool ours = ref != descriptor.annotations.end() && ref->second.find(':') != std::string::npos
            && m_records.images.count(ref->second.substr(0, ref->second.rfind(':')));
        if (!ours)
            index.manifests.push_back(descriptor);
    }
    return index;
}

// A damaged index.json is only a view: it is rebuilt from the records.
std::vector<oci::Descriptor> Store::foreign_candidates() const
{
    try {
        return m_layout.read_index().manifests;
    } catch (const Error&) {
        return {};
    }
}

bool Store::index_matches_records() const
{
    try {
        return oci::to_blob_json(index_of_records().to_json()) == oci::to_blob_json(m_layout.read_index().to_json());
    } catch (const Error&) {
        return false;
    }
}

void Store::write_index() const
{
    m_layout.write_index(index_of_records());
}

} // namespace dlenv::store
