#pragma once

#include "registry/progress.h"

#include <chrono>
#include <map>
#include <mutex>
#include <string>

namespace dlenv::cli {

// Shows the blobs of a pull or push, or the artifacts of a fetch, on stderr: on a
// terminal a bar per transfer in flight, redrawn at most ten times a second; otherwise one
// line per transfer when it is done ("sha256:ab12… 512.0 MiB uploaded in 3.1 s,
// 165.2 MiB/s", or the artifact's name first). Silent with --json.
class TransferProgress {
public:
    enum class Mode { silent, lines, bars };
    TransferProgress(Mode mode, std::string verb);

    registry::ProgressCallback callback();

private:
    struct Blob {
        std::int64_t size = 0;
        std::int64_t done = 0;
        std::chrono::steady_clock::time_point started;
        std::string label; // the bar's name: the label, else the digest's start
    };

    void update(const registry::BlobProgress& progress);
    void print_line(const registry::BlobProgress& progress, const Blob& blob) const;
    void clear();
    void redraw();

    Mode m_mode;
    std::string m_verb;
    std::mutex m_mutex;
    std::map<std::string, Blob> m_active; // by digest text
    std::size_t m_drawn_lines = 0;
    std::chrono::steady_clock::time_point m_last_draw;
};

// bars on a terminal, lines when stderr is not one, silent with --json.
TransferProgress::Mode transfer_progress_mode(bool json);

} // namespace dlenv::cli
