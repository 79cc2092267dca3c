#include "cli/transfer_progress.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <iterator>

namespace dlenv::cli {
namespace {

constexpr auto k_redraw_interval = std::chrono::milliseconds(100);
constexpr int k_bar_width = 30;

// "512 B", "3.4 KiB", "1.2 GiB".
std::string human_size(std::int64_t bytes)
{
    static constexpr const char* k_units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    double value = static_cast<double>(bytes);
    std::size_t unit = 0;
    for (; value >= 1024 && unit + 1 < std::size(k_units); ++unit)
        value /= 1024;
    char text[32];
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, k_units[unit]);
    return text;
}

} // namespace

TransferProgress::Mode transfer_progress_mode(bool json)
{
    if (json)
        return TransferProgress::Mode::silent;
    return ::isatty(STDERR_FILENO) ? TransferProgress::Mode::bars : TransferProgress::Mode::lines;
}

TransferProgress::TransferProgress(Mode mode, std::string verb)
    : m_mode(mode)
    , m_verb(std::move(verb))
{
}

registry::ProgressCallback TransferProgress::callback()
{
    if (m_mode == Mode::silent)
        return {};
    return [this](const registry::BlobProgress& progress) { update(progress); };
}

void TransferProgress::update(const registry::BlobProgress& progress)
{
    using State = registry::BlobProgress::State;
    std::lock_guard lock(m_mutex);
    auto now = std::chrono::steady_clock::now();
    std::string label = progress.label.empty() ? progress.digest.text().substr(0, 19) + "…" : progress.label;
    auto [found, inserted] = m_active.try_emplace(progress.digest.text(), Blob { progress.size, 0, now, label });
    found->second.done = progress.done;
    found->second.size = progress.size; // a download learns its size from the first answer
    if (progress.state != State::transferring) {
        if (m_mode == Mode::bars)
            clear(); // the line that says it is done replaces the bar
        print_line(progress, found->second);
        m_active.erase(found);
        if (m_mode == Mode::bars)
            redraw();
        return;
    }
    if (m_mode == Mode::bars && (now - m_last_draw >= k_redraw_interval || inserted)) {
        m_last_draw = now;
        redraw();
    }
}

void TransferProgress::print_line(const registry::BlobProgress& progress, const Blob& blob) const
{
    using State = registry::BlobProgress::State;
    std::string line = (progress.label.empty() ? progress.digest.short_text() + "…" : progress.label) + " "
        + human_size(progress.size) + " ";
    switch (progress.state) {
    case State::present:
        line += "already there";
        break;
    case State::mounted:
        line += "mounted";
        break;
    default: {
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - blob.started).count();
        char rate[64];
        std::snprintf(rate, sizeof rate, " in %.1f s", seconds);
        line += m_verb + rate;
        if (seconds > 0)
            line += ", " + human_size(static_cast<std::int64_t>(static_cast<double>(progress.size) / seconds)) + "/s";
    }
    }
    std::cerr << line << "\n";
}

void TransferProgress::clear()
{
    for (; m_drawn_lines > 0; --m_drawn_lines)
        std::cerr << "\x1b[1A\x1b[2K";
}

void TransferProgress::redraw()
{
    clear();
    std::string out;
    for (const auto& [key, blob] : m_active) {
        int filled = blob.size > 0 ? static_cast<int>(k_bar_width * blob.done / blob.size) : 0;
        out += blob.label + " [" + std::string(static_cast<std::size_t>(filled), '#')
            + std::string(static_cast<std::size_t>(k_bar_width - filled), ' ') + "] " + human_size(blob.done) + " / "
            + human_size(blob.size) + "\n";
    }
    m_drawn_lines = m_active.size();
    std::cerr << out << std::flush;
}

} // namespace dlenv::cli
