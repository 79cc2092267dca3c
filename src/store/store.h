#pragma once

#include "oci/layout.h"
#include "store/file_lock.h"
#include "store/records.h"
#include "store/recovery.h"

#include <filesystem>
#include <optional>
#include <string>

namespace dlenv::store {

// The daemonless local store. The directory is an OCI image layout other tools read
// (`skopeo inspect oci:DIR:NAME:TAG`), with one index.json descriptor per tag annotated
// org.opencontainers.image.ref.name = "NAME:TAG"; dlenv's records (tags and history,
// the layer cache, the writer lock) live in DIR/dlenv/. The records are the truth and
// index.json a view of them that every writer refreshes, so a kill between the two
// writes leaves a store whose next writer repairs the view. A tag the view lists and
// the records lost (refs.json gone, or edited) is taken back from it (recovery.h).
class Store {
public:
    // --store DIR when given, else $DLENV_STORE, else ./.dlenv.
    static std::filesystem::path locate(const std::string& flag);

    // For reading: Error(not_found) when `dir` holds no store. Holds a shared lock, so
    // no writer changes the store while it is read. Tags taken back from index.json are
    // in the records read, and written nowhere.
    // Error(invalid_input) with a fix for damaged records (naming file and field), and
    // for a damaged index.json when there are no records (refs.json missing) to rebuild
    // it from.
    static Store open(const std::filesystem::path& dir);
    // For writing: creates the store when missing and holds the writer lock (waiting for
    // another writer to finish) until the Store is destroyed. Commits the tags taken
    // back from index.json, repairs an index.json that lags the records, and removes
    // what killed writers left (leftovers.h): holding the lock, it knows them all dead.
    // The same errors as `open`, before anything is written.
    static Store open_for_writing(const std::filesystem::path& dir);

    const oci::ImageLayout& layout() const { return m_layout; }
    const Records& records() const { return m_records; }
    std::filesystem::path records_dir() const { return m_layout.dir() / "dlenv"; }
    bool writable() const { return m_writable; } // opened for writing, holding the writer lock
    // What opening for reading took back from index.json, which no writer has recorded
    // yet; empty when opened for writing, which records it.
    const Recovery& recovery() const { return m_recovery; }

    // The descriptor a tag points at, if the name has that tag.
    std::optional<oci::Descriptor> find(const std::string& name, const std::string& tag) const;

    // Commits new records: refs.json first (one atomic rename moves every tag and the
    // history together), then index.json. Writers only.
    void commit(Records records);

    // True when index.json shows exactly the tags of the records.
    bool index_matches_records() const;

private:
    Store(oci::ImageLayout layout, FileLock lock, bool writable);
    void write_index() const;
    std::vector<oci::Descriptor> foreign_candidates() const;
    oci::Index index_of_records() const;

    oci::ImageLayout m_layout;
    Records m_records;
    FileLock m_lock;
    bool m_writable;
    Recovery m_recovery;
};

// The ref name of a tag in index.json: "NAME:TAG".
std::string ref_name(const std::string& name, const std::string& tag);

} // namespace dlenv::store
