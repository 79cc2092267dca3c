#include "store/staging.h"

#include "core/error.h"

namespace dlenv::store {
namespace {

const std::filesystem::path& created(const std::filesystem::path& dir)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        throw Error(ErrorCode::io, "create directory " + dir.string() + ": " + ec.message());
    return dir;
}

} // namespace

std::filesystem::path staging_root(const Store& store)
{
    return store.records_dir() / "staging";
}

StagingDir::StagingDir(const Store& store) : m_directory(created(staging_root(store)), "layer-") {}

} // namespace dlenv::store
