#pragma once

#include "core/temp_directory.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace dlenv::fuzz {

// Where a target unpacks untrusted bytes and then proves that nothing escaped:
//   BASE/jail/root   what is unpacked into, emptied by reset()
//   BASE/work        the target's own files (a layout, an archive), kept across runs
//   BASE/outside     holds one file, "canary", that nothing may touch
// check() aborts the run (a finding) when anything under BASE changed outside root and
// work: a new or missing entry, the canary's bytes, mode or link count.
class Sandbox {
public:
    Sandbox();

    const std::filesystem::path& root() const { return m_root; }
    const std::filesystem::path& work() const { return m_work; }
    const std::filesystem::path& outside() const { return m_outside; }

    // Empties root, giving back write permission that an unpack took away.
    void reset() const;
    void check() const;
    // `text` with every "@OUT@" replaced by outside()'s absolute path, so an input can
    // aim an absolute link at the one place it must not reach.
    std::string aim(std::string_view text) const;

private:
    TempDirectory m_base;
    std::filesystem::path m_root;
    std::filesystem::path m_work;
    std::filesystem::path m_outside;
};

// Writes `bytes` to `path` without the fsync of dlenv's atomic writes: inputs are
// rewritten on every run and need not survive a crash.
void write_bytes(const std::filesystem::path& path, std::string_view bytes);

} // namespace dlenv::fuzz
