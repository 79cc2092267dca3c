#include "pypi/remote_wheel.h"

#include "pypi/wheel_archive.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <string_view>

namespace dlenv::pypi {

namespace {

// Record signatures and fixed sizes of PKWARE's APPNOTE.TXT (6.3.10).
constexpr std::uint64_t k_local_header = 0x04034b50;
constexpr std::uint64_t k_central_header = 0x02014b50;
constexpr std::uint64_t k_end = 0x06054b50;
constexpr std::uint64_t k_zip64_end = 0x06064b50;
constexpr std::uint64_t k_zip64_locator = 0x07064b50;
constexpr std::size_t k_local_size = 30;
constexpr std::size_t k_central_size = 46;
constexpr std::size_t k_end_size = 22;
constexpr std::size_t k_zip64_end_size = 56;
constexpr std::size_t k_zip64_locator_size = 20;
constexpr std::uint64_t k_zip64_marker = 0xFFFFFFFF;
constexpr std::size_t k_zip64_extra_id = 1;

// The longest end record (22 bytes and a 64 KiB comment): the first request always
// finds it, and holds all of a small wheel's central directory.
constexpr std::uint64_t k_tail = k_end_size + 0xFFFF;
// Room for a local extra field longer than the central one (ZIP64 sizes, timestamps),
// so that one request mostly brings a member's local header and all of its data.
constexpr std::uint64_t k_local_slack = 1024;

// The little-endian number of `width` bytes at `at`; the caller checked the bounds.
std::uint64_t le(std::string_view data, std::size_t at, int width)
{
    std::uint64_t value = 0;
    for (int i = width - 1; i >= 0; --i)
        value = value << 8 | static_cast<unsigned char>(data[at + i]);
    return value;
}

bool take_number(std::string_view& text, std::uint64_t& value)
{
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end == text.data())
        return false;
    text.remove_prefix(static_cast<std::size_t>(end - text.data()));
    return true;
}

bool take(std::string_view& text, std::string_view prefix)
{
    if (!text.starts_with(prefix))
        return false;
    text.remove_prefix(prefix.size());
    return true;
}

struct ContentRange {
    std::uint64_t first = 0;
    std::uint64_t last = 0; // inclusive
    std::uint64_t total = 0;
};

// A 206 answer's "Content-Range: bytes FIRST-LAST/TOTAL" when its body is that range.
std::optional<ContentRange> content_range(const http::Response& response)
{
    std::optional<std::string> header = response.header("Content-Range");
    if (response.status != 206 || !header)
        return std::nullopt;
    std::string_view text = *header;
    ContentRange r;
    if (!take(text, "bytes ") || !take_number(text, r.first) || !take(text, "-") || !take_number(text, r.last)
        || !take(text, "/") || !take_number(text, r.total) || !text.empty() || r.first > r.last || r.last >= r.total
        || response.body.size() != r.last - r.first + 1)
        return std::nullopt;
    return r;
}

// Replaces the `fields` a ZIP64 entry marks 0xFFFFFFFF by the 8-byte values of its
// extra field with id 1, in APPNOTE's order; false when they are not there.
bool read_zip64_fields(std::string_view extra, std::array<std::uint64_t*, 3> fields)
{
    if (std::none_of(fields.begin(), fields.end(), [](const std::uint64_t* f) { return *f == k_zip64_marker; }))
        return true;
    for (std::size_t at = 0; extra.size() - at >= 4;) {
        std::size_t id = le(extra, at, 2);
        std::size_t length = le(extra, at + 2, 2);
        if (extra.size() - at - 4 < length)
            return false;
        if (id == k_zip64_extra_id) {
            std::size_t next = at + 4;
            for (std::uint64_t* field : fields) {
                if (*field != k_zip64_marker)
                    continue;
                if (next + 8 > at + 4 + length)
                    return false;
                *field = le(extra, next, 8);
                next += 8;
            }
            return true;
        }
        at += 4 + length;
    }
    return false;
}

} // namespace

RemoteWheel::RemoteWheel(const http::Client& client, const http::RetryPolicy& retry, std::string url)
    : m_client(&client)
    , m_retry(retry)
    , m_url(std::move(url))
{
}

std::optional<RemoteWheel> RemoteWheel::open(
    const http::Client& client, const http::RetryPolicy& retry, const std::string& url)
{
    RemoteWheel wheel(client, retry, url);
    http::Response response = wheel.get_range("-" + std::to_string(k_tail));
    std::optional<ContentRange> range = content_range(response);
    if (!range || range->last + 1 != range->total || range->first != range->total - std::min(k_tail, range->total))
        return std::nullopt;
    wheel.m_size = range->total;
    wheel.m_tail_offset = range->first;
    wheel.m_tail = std::move(response.body);
    wheel.read_central_directory();
    return wheel;
}

std::vector<std::string> RemoteWheel::paths() const
{
    std::vector<std::string> out;
    for (const auto& entry : m_entries)
        out.push_back(entry.path);
    return out;
}

http::Response RemoteWheel::get_range(const std::string& spec) const
{
    http::Request request;
    request.url = m_url;
    request.headers = { { "Range", "bytes=" + spec } };
    request.accept_body = [](const http::Response& response) { return response.status == 206; };
    return http::with_retries(m_retry, [&] { return m_client->send(request); });
}

std::string RemoteWheel::bytes(std::uint64_t offset, std::uint64_t length, const std::string& what)
{
    if (offset > m_size || length > m_size - offset)
        throw malformed(what + " (" + std::to_string(length) + " bytes at offset " + std::to_string(offset)
            + ") runs past the end of the file (" + std::to_string(m_size) + " bytes)");
    if (length == 0)
        return {};
    if (offset >= m_tail_offset)
        return m_tail.substr(offset - m_tail_offset, length);
    // What ends in the tail extends it, so the end records, a ZIP64 end record and the
    // central directory before them cost one request each at most.
    bool joins_tail = offset + length >= m_tail_offset;
    std::uint64_t end = joins_tail ? m_tail_offset : offset + length;
    std::string spec = std::to_string(offset) + "-" + std::to_string(end - 1);
    http::Response response = get_range(spec);
    std::optional<ContentRange> range = content_range(response);
    if (!range || range->first != offset || range->last != end - 1 || range->total != m_size) {
        std::optional<std::string> answered = response.header("Content-Range");
        throw Error(ErrorCode::network,
            "GET " + m_url + " with Range: bytes=" + spec + " answered HTTP " + std::to_string(response.status)
                + (answered ? " with Content-Range: " + *answered : ""),
            "the server stopped honouring range requests, or the file changed on it; try again");
    }
    if (!joins_tail)
        return std::move(response.body);
    m_tail.insert(0, response.body);
    m_tail_offset = offset;
    return m_tail.substr(0, length);
}

void RemoteWheel::read_central_directory()
{
    std::string_view tail = m_tail;
    // The end record is the last signature whose comment ends the file.
    std::size_t end = std::string_view::npos;
    for (std::size_t at = tail.size() < k_end_size ? 0 : tail.size() - k_end_size + 1; at-- > 0;)
        if (le(tail, at, 4) == k_end && at + k_end_size + le(tail, at + 20, 2) == tail.size()) {
            end = at;
            break;
        }
    if (end == std::string_view::npos)
        throw malformed("no end of central directory record in its last " + std::to_string(tail.size()) + " bytes");
    std::uint64_t count = le(tail, end + 10, 2);
    std::uint64_t size = le(tail, end + 12, 4);
    std::uint64_t offset = le(tail, end + 16, 4);
    std::uint64_t records = m_tail_offset + end; // where the end records begin
    if (end >= k_zip64_locator_size && le(tail, end - k_zip64_locator_size, 4) == k_zip64_locator) {
        records = le(tail, end - k_zip64_locator_size + 8, 8);
        std::string zip64 = bytes(records, k_zip64_end_size, "the ZIP64 end of central directory record");
        if (le(zip64, 0, 4) != k_zip64_end)
            throw malformed("no ZIP64 end of central directory record at offset " + std::to_string(records));
        count = le(zip64, 32, 8);
        size = le(zip64, 40, 8);
        offset = le(zip64, 48, 8);
    }
    if (offset > records || size > records - offset)
        throw malformed("the central directory (" + std::to_string(size) + " bytes at offset " + std::to_string(offset)
            + ") overlaps the end records at offset " + std::to_string(records));
    std::string directory = bytes(offset, size, "the central directory");
    std::string_view cd = directory;
    std::size_t at = 0;
    for (std::uint64_t i = 1; i <= count; ++i) {
        std::string entry_name = "central directory entry " + std::to_string(i);
        if (cd.size() - at < k_central_size || le(cd, at, 4) != k_central_header)
            throw malformed(entry_name + " has no header at offset " + std::to_string(offset + at));
        std::size_t name = le(cd, at + 28, 2);
        std::size_t extra = le(cd, at + 30, 2);
        std::size_t comment = le(cd, at + 32, 2);
        if (cd.size() - at - k_central_size < name + extra + comment)
            throw malformed(entry_name + " runs past the end of the central directory");
        Entry entry;
        entry.path = cd.substr(at + k_central_size, name);
        entry.flags = static_cast<int>(le(cd, at + 8, 2));
        entry.method = static_cast<int>(le(cd, at + 10, 2));
        entry.crc32 = static_cast<std::uint32_t>(le(cd, at + 16, 4));
        entry.compressed_size = le(cd, at + 20, 4);
        entry.size = le(cd, at + 24, 4);
        entry.local_header = le(cd, at + 42, 4);
        entry.central_extra = extra;
        if (!read_zip64_fields(cd.substr(at + k_central_size + name, extra),
                { &entry.size, &entry.compressed_size, &entry.local_header }))
            throw malformed(entry_name + " (" + entry.path + ") lacks the ZIP64 extra field its sizes need");
        m_entries.push_back(std::move(entry));
        at += k_central_size + name + extra + comment;
    }
}

std::optional<std::string> RemoteWheel::read(const std::string& path)
{
    auto named = [&](const Entry& e) { return e.path == path; };
    auto found = std::find_if(m_entries.begin(), m_entries.end(), named);
    if (found == m_entries.end())
        return std::nullopt;
    std::string member = "member " + path;
    if (std::count_if(m_entries.begin(), m_entries.end(), named) > 1)
        throw malformed("more than one " + member);
    const Entry& e = *found;
    if (e.flags & 1)
        throw malformed(member + " is encrypted");
    if (e.local_header >= m_size || e.compressed_size > m_size)
        throw malformed(member + " lies past the end of the file (" + std::to_string(m_size) + " bytes)");
    std::uint64_t guess = k_local_size + e.path.size() + e.central_extra + k_local_slack + e.compressed_size;
    std::string local = bytes(e.local_header, std::min(guess, m_size - e.local_header), member);
    if (local.size() < k_local_size || le(local, 0, 4) != k_local_header)
        throw malformed(member + " has no local header at offset " + std::to_string(e.local_header));
    std::size_t name = le(local, 26, 2);
    if (name != e.path.size() || local.size() < k_local_size + name || local.compare(k_local_size, name, e.path) != 0)
        throw malformed(member + ": its local header names another file");
    std::uint64_t data_at = k_local_size + name + le(local, 28, 2);
    if (data_at + e.compressed_size > local.size())
        local += bytes(e.local_header + local.size(), data_at + e.compressed_size - local.size(), member);
    try {
        return decode_zip_data(e.method, std::string_view(local).substr(data_at, e.compressed_size), e.crc32, e.size);
    } catch (const Error& error) {
        throw error.with_context("read wheel " + m_url + ": " + member);
    }
}

Error RemoteWheel::malformed(const std::string& what) const
{
    return Error(ErrorCode::invalid_input, "read wheel " + m_url + ": " + what,
        "the index serves a damaged wheel: lock against another index or another version");
}

} // namespace dlenv::pypi
