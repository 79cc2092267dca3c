#include "host/gpu_health.h"

#include "core/error.h"
#include "core/subprocess.h"

#include <cctype>
#include <string_view>

namespace dlenv::host {
namespace {

// The content of the first element `tag` in `xml`, or nullopt. nvidia-smi writes plain
// elements with no comments, CDATA or nesting of one name in itself, so finding the
// opening and closing tags is enough.
std::optional<std::string_view> element(std::string_view xml, std::string_view tag)
{
    std::string open = "<" + std::string(tag);
    for (std::size_t at = xml.find(open); at != std::string_view::npos; at = xml.find(open, at + 1)) {
        std::size_t after = at + open.size();
        if (after >= xml.size() || (xml[after] != '>' && xml[after] != ' '))
            continue;
        std::size_t body = xml.find('>', after);
        std::size_t close = xml.find("</" + std::string(tag) + ">", body);
        if (body == std::string_view::npos || close == std::string_view::npos)
            return std::nullopt;
        return xml.substr(body + 1, close - body - 1);
    }
    return std::nullopt;
}

std::optional<std::string_view> path(std::string_view xml, std::initializer_list<std::string_view> tags)
{
    std::optional<std::string_view> at = xml;
    for (auto tag : tags)
        if (!(at = element(*at, tag)))
            return std::nullopt;
    return at;
}

std::string trimmed(std::string_view text)
{
    auto first = text.find_first_not_of(" \t\r\n");
    auto last = text.find_last_not_of(" \t\r\n");
    return first == std::string_view::npos ? "" : std::string(text.substr(first, last - first + 1));
}

// The leading integer of "16x", "45 C", "-2 C" or "4"; nullopt for "N/A".
std::optional<long long> leading_number(std::optional<std::string_view> text)
{
    if (!text)
        return std::nullopt;
    std::string value = trimmed(*text);
    std::size_t digits = value.starts_with('-') ? 1 : 0;
    std::size_t start = digits;
    while (digits < value.size() && std::isdigit(static_cast<unsigned char>(value[digits])))
        ++digits;
    if (digits == start)
        return std::nullopt;
    return std::stoll(value.substr(0, digits));
}

template <typename T> std::optional<T> number_as(std::optional<std::string_view> text)
{
    auto n = leading_number(text);
    return n ? std::optional<T>(static_cast<T>(*n)) : std::nullopt;
}

PcieLink pcie_link(std::string_view gpu)
{
    auto info = path(gpu, { "pci", "pci_gpu_link_info" });
    if (!info)
        return {};
    return { number_as<unsigned>(path(*info, { "pcie_gen", "current_link_gen" })),
        number_as<unsigned>(path(*info, { "pcie_gen", "max_link_gen" })),
        number_as<unsigned>(path(*info, { "link_widths", "current_link_width" })),
        number_as<unsigned>(path(*info, { "link_widths", "max_link_width" })) };
}

void read_clock_reasons(std::string_view gpu, GpuHealth& health)
{
    std::string prefix = "clocks_event_reason_";
    auto reasons = element(gpu, "clocks_event_reasons");
    if (!reasons) {
        prefix = "clocks_throttle_reason_";
        reasons = element(gpu, "clocks_throttle_reasons");
    }
    if (!reasons)
        return;
    std::string_view rest = *reasons;
    for (std::size_t at = rest.find("<" + prefix); at != std::string_view::npos; at = rest.find("<" + prefix, at + 1)) {
        std::size_t name_end = rest.find('>', at);
        std::string name(rest.substr(at + 1 + prefix.size(), name_end - at - 1 - prefix.size()));
        if (trimmed(element(rest.substr(at), prefix + name).value_or("")) != "Active")
            continue;
        if (name == "gpu_idle")
            health.idle = true;
        else
            health.clock_reasons.push_back(name);
    }
}

// Uncorrectable errors in one of <volatile> or <aggregate>, in either layout; nullopt
// when every count is "N/A" (a GPU without ECC).
std::optional<std::uint64_t> uncorrectable(std::optional<std::string_view> counts)
{
    if (!counts)
        return std::nullopt;
    std::optional<std::uint64_t> sum;
    auto add = [&](std::optional<std::string_view> text) {
        if (auto n = number_as<std::uint64_t>(text))
            sum = sum.value_or(0) + *n;
    };
    for (auto tag :
        { "dram_uncorrectable", "sram_uncorrectable", "sram_uncorrectable_parity", "sram_uncorrectable_secded" })
        add(element(*counts, tag));
    add(path(*counts, { "double_bit", "total" }));
    return sum;
}

GpuHealth gpu_health(std::string_view gpu, std::string bus_id)
{
    GpuHealth health;
    health.bus_id = std::move(bus_id);
    health.name = trimmed(element(gpu, "product_name").value_or(""));
    health.pcie = pcie_link(gpu);
    read_clock_reasons(gpu, health);
    health.temperature_c = number_as<int>(path(gpu, { "temperature", "gpu_temp" }));
    health.slowdown_c = number_as<int>(path(gpu, { "temperature", "gpu_temp_slow_threshold" }));
    health.margin_c = number_as<int>(path(gpu, { "temperature", "gpu_temp_tlimit" }));
    health.ecc_mode = trimmed(path(gpu, { "ecc_mode", "current_ecc" }).value_or(""));
    health.ecc_volatile_uncorrectable = uncorrectable(path(gpu, { "ecc_errors", "volatile" }));
    health.ecc_aggregate_uncorrectable = uncorrectable(path(gpu, { "ecc_errors", "aggregate" }));
    health.row_remap_failure = trimmed(path(gpu, { "remapped_rows", "remapped_row_failure" }).value_or("")) == "Yes";
    return health;
}

} // namespace

std::vector<GpuHealth> parse_nvsmi_xml(const std::string& xml)
{
    auto log = element(xml, "nvidia_smi_log");
    if (!log)
        throw Error(ErrorCode::invalid_input, "nvidia-smi -q -x printed no <nvidia_smi_log>",
            "expected the XML of nvidia-smi's nvsmi_device DTD");
    std::vector<GpuHealth> gpus;
    std::string_view rest = *log;
    for (std::size_t at = rest.find("<gpu "); at != std::string_view::npos; at = rest.find("<gpu ", at + 1)) {
        std::size_t tag_end = rest.find('>', at);
        std::string_view tag = rest.substr(at, tag_end - at);
        std::string bus_id;
        if (auto id = tag.find("id=\""); id != std::string_view::npos)
            bus_id = std::string(tag.substr(id + 4, tag.find('"', id + 4) - id - 4));
        auto body = element(rest.substr(at), "gpu");
        if (body)
            gpus.push_back(gpu_health(*body, bus_id));
    }
    return gpus;
}

std::optional<std::vector<GpuHealth>> probe_gpu_health()
{
    auto smi = run_process({ "nvidia-smi", "-q", "-x" });
    if (!smi || smi->exit_code != 0)
        return std::nullopt;
    return parse_nvsmi_xml(smi->out);
}

} // namespace dlenv::host
