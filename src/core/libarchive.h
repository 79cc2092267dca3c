#pragma once

#include <archive.h>
#include <archive_entry.h>

namespace dlenv {

// The libarchive functions dlenv calls, each named as archive.h or archive_entry.h names
// it less the `archive_` prefix: `read_new` is archive_read_new.
#define DLENV_LIBARCHIVE_FUNCTIONS(X)                                                                                  \
    X(read_new)                                                                                                        \
    X(read_free)                                                                                                       \
    X(read_support_filter_all)                                                                                         \
    X(read_support_filter_gzip)                                                                                        \
    X(read_support_filter_xz)                                                                                          \
    X(read_support_filter_zstd)                                                                                        \
    X(read_support_format_ar)                                                                                          \
    X(read_support_format_raw)                                                                                         \
    X(read_support_format_tar)                                                                                         \
    X(read_support_format_zip_seekable)                                                                                \
    X(read_open)                                                                                                       \
    X(read_open_filename)                                                                                              \
    X(read_open_memory)                                                                                                \
    X(read_next_header)                                                                                                \
    X(read_data)                                                                                                       \
    X(read_data_block)                                                                                                 \
    X(filter_bytes)                                                                                                    \
    X(error_string)                                                                                                    \
    X(set_error)                                                                                                       \
    X(write_new)                                                                                                       \
    X(write_free)                                                                                                      \
    X(write_add_filter_none)                                                                                           \
    X(write_set_bytes_per_block)                                                                                       \
    X(write_set_format_pax_restricted)                                                                                 \
    X(write_open2)                                                                                                     \
    X(write_header)                                                                                                    \
    X(write_data)                                                                                                      \
    X(write_finish_entry)                                                                                              \
    X(write_close)                                                                                                     \
    X(entry_new)                                                                                                       \
    X(entry_free)                                                                                                      \
    X(entry_clear)                                                                                                     \
    X(entry_filetype)                                                                                                  \
    X(entry_pathname)                                                                                                  \
    X(entry_symlink)                                                                                                   \
    X(entry_hardlink)                                                                                                  \
    X(entry_perm)                                                                                                      \
    X(entry_size)                                                                                                      \
    X(entry_mtime)                                                                                                     \
    X(entry_copy_pathname)                                                                                             \
    X(entry_copy_symlink)                                                                                              \
    X(entry_copy_hardlink)                                                                                             \
    X(entry_set_filetype)                                                                                              \
    X(entry_set_perm)                                                                                                  \
    X(entry_set_size)                                                                                                  \
    X(entry_set_mtime)                                                                                                 \
    X(entry_set_uid)                                                                                                   \
    X(entry_set_gid)

// libarchive's entry points, loaded with dlopen the first time an archive is read or
// written: commands that open none (check, --version, an offline lock without a
// wheelhouse) start without loading
// libarchive and the XML, ICU, ACL and compression libraries it brings. Each pointer has
// the type of the function it names.
struct Libarchive {
#define DLENV_LIBARCHIVE_POINTER(name) decltype(&::archive_##name) name;
    DLENV_LIBARCHIVE_FUNCTIONS(DLENV_LIBARCHIVE_POINTER)
#undef DLENV_LIBARCHIVE_POINTER
};

// libarchive, loaded once; Error(environment) saying what to install when the host lacks
// it or has one without a function dlenv calls.
const Libarchive& libarchive();

} // namespace dlenv
