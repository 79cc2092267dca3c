#include "store/store.h"

#include "core/error.h"

#include <cstdlib>

namespace dlenv::store {
namespace {

constexpr const char* k_ref_annotation = "org.opencontainers.image.ref.name";

std::filesystem::path records_file(const std::filesystem::path& dir)
{
    return dir / "dlenv" / "refs.json";
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

Store::Store(oci::ImageLayout layout, Records records, std::optional<WriteLock> lock)
    : m_layout(std::move(layout)), m_records(std::move(records)), m_lock(std::move(lock))
{
}

Store Store::open(const std::filesystem::path& dir)
{
    if (!std::filesystem::exists(dir / "oci-layout"))
        throw Error(ErrorCode::not_found, "no dlenv store at " + dir.string(),
                    "build an image first (`dlenv build`), or point --store or DLENV_STORE at the store");
    oci::ImageLayout layout = oci::ImageLayout::open(dir);
    return Store(layout, Records::read(records_file(dir)), std::nullopt);
}

Store Store::open_for_writing(const std::filesystem::path& dir)
{
    std::error_code ec;
    std::filesystem::create_directories(dir / "dlenv", ec);
    if (ec)
        throw Error(ErrorCode::io, "create store " + dir.string() + ": " + ec.message());
    WriteLock lock(dir / "dlenv" / "lock");
    oci::ImageLayout layout = oci::ImageLayout::open_or_create(dir);
    Store store(layout, Records::read(records_file(dir)), std::move(lock));
    if (!store.index_matches_records())
        store.write_index();
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
    if (!m_lock)
        throw Error(ErrorCode::io, "the store at " + m_layout.dir().string() + " was opened for reading only");
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
            entry.annotations[k_ref_annotation] = ref_name(name, tag);
            index.manifests.push_back(entry);
        }
    // What other tools added stays in the view; an entry named after one of our images is
    // ours, and the records say whether it still exists.
    for (const auto& descriptor : m_layout.read_index().manifests) {
        auto ref = descriptor.annotations.find(k_ref_annotation);
        bool ours = ref != descriptor.annotations.end() && ref->second.find(':') != std::string::npos &&
                    m_records.images.count(ref->second.substr(0, ref->second.rfind(':')));
        if (!ours)
            index.manifests.push_back(descriptor);
    }
    return index;
}

bool Store::index_matches_records() const
{
    return oci::to_blob_json(index_of_records().to_json()) == oci::to_blob_json(m_layout.read_index().to_json());
}

void Store::write_index() const
{
    m_layout.write_index(index_of_records());
}

} // namespace dlenv::store
