#include "resolve/require_cuda.h"

#include "core/error.h"

#include <algorithm>
#include <regex>
#include <sstream>

namespace dlenv::resolve {
namespace {

struct Constraint {
    std::string key; // cuda, driver, brand, arch
    std::string op; // >=, <=, >, <, =
    std::string value;
};

Constraint parse_constraint(const std::string& text)
{
    static const std::regex shape(R"(^([a-z]+)(>=|<=|=|>|<)(\S+)$)");
    std::smatch m;
    if (!std::regex_match(text, m, shape))
        throw Error(ErrorCode::invalid_input, "NVIDIA_REQUIRE_CUDA: cannot read the constraint \"" + text + "\"",
            "constraints look like cuda>=12.1 or brand=tesla,driver>=470,driver<471");
    return { m[1], m[2], m[3] };
}

// The alternatives of a requirement, each the constraints that must all hold.
std::vector<std::vector<Constraint>> parse_requirement(const std::string& requirement)
{
    std::vector<std::vector<Constraint>> out;
    std::istringstream alternatives(requirement);
    for (std::string alternative; alternatives >> alternative;) {
        std::vector<Constraint> all;
        std::istringstream parts(alternative);
        for (std::string part; std::getline(parts, part, ',');)
            all.push_back(parse_constraint(part));
        out.push_back(std::move(all));
    }
    return out;
}

bool holds(std::strong_ordering order, const std::string& op)
{
    return op == ">=" ? order >= 0
        : op == "<="  ? order <= 0
        : op == ">"   ? order > 0
        : op == "<"   ? order < 0
                      : order == 0;
}

// The driver floor of a toolkit release in the host's numbers: Linux's, or Windows's.
const std::optional<DriverVersion>& floor_of(const matrix::CudaToolkit& toolkit, const DriverHost& host)
{
    return host.windows_numbers ? toolkit.driver_windows : toolkit.driver_linux;
}

// The newest CUDA release the host's driver reports: by the toolkits' driver floors, or by what
// its branch reports where that is on record.
const matrix::CudaToolkit* newest_supported(const matrix::Matrix& matrix, const DriverHost& host)
{
    const auto* branch = host.windows_numbers ? nullptr : branch_cuda(matrix, host.driver);
    auto reported = [&](const matrix::CudaToolkit& toolkit) {
        if (const auto& floor = floor_of(toolkit, host); floor && *floor <= host.driver)
            return true;
        return branch && toolkit.version.compare_truncated(branch->cuda) <= 0;
    };
    const matrix::CudaToolkit* best = nullptr;
    for (const auto& toolkit : matrix.toolkits())
        if (reported(toolkit) && (!best || toolkit.version > best->version))
            best = &toolkit;
    return best;
}

bool satisfied(
    const Constraint& c, const DriverVersion& driver, const std::string* brand, const matrix::CudaToolkit* supported)
{
    if (c.key == "cuda")
        return supported && holds(supported->version.compare_truncated(CudaVersion::parse(c.value)), c.op);
    if (c.key == "driver") {
        if (auto full = DriverVersion::try_parse(c.value))
            return holds(driver <=> *full, c.op);
        return holds(driver.major() <=> static_cast<std::uint32_t>(std::stoul(c.value)), c.op);
    }
    if (c.key == "brand")
        return brand && *brand == c.value;
    return true; // arch constraints are the gpu tier's to check, per device
}

// Whether one GPU of `brand` (none: brand unknown) passes.
bool admits(const std::vector<std::vector<Constraint>>& alternatives, const DriverVersion& driver,
    const std::string* brand, const matrix::CudaToolkit* supported)
{
    return std::any_of(alternatives.begin(), alternatives.end(), [&](const std::vector<Constraint>& all) {
        return std::all_of(
            all.begin(), all.end(), [&](const Constraint& c) { return satisfied(c, driver, brand, supported); });
    });
}

} // namespace

const matrix::ReportedCuda* branch_cuda(const matrix::Matrix& matrix, const DriverVersion& driver)
{
    const auto* releases = matrix.driver_releases(driver.major());
    return releases && releases->reports_cuda ? &*releases->reports_cuda : nullptr;
}

std::string nvidia_brand(matrix::GpuSegment segment)
{
    return segment == matrix::GpuSegment::datacenter ? "tesla"
        : segment == matrix::GpuSegment::workstation ? "quadro"
                                                     : "geforce";
}

std::optional<std::string> refuse_require_cuda(
    const std::string& requirement, const DriverHost& host, const matrix::Matrix& matrix)
{
    const auto alternatives = parse_requirement(requirement);
    const matrix::CudaToolkit* supported = newest_supported(matrix, host);
    // the toolkit evaluates the requirement once per GPU it gives the container
    bool all_pass = host.brands.empty()
        ? admits(alternatives, host.driver, nullptr, supported)
        : std::all_of(host.brands.begin(), host.brands.end(),
            [&](const std::string& brand) { return admits(alternatives, host.driver, &brand, supported); });
    if (all_pass)
        return std::nullopt;
    std::string cuda_needed;
    for (const auto& all : alternatives)
        for (const auto& c : all)
            if (c.key == "cuda")
                cuda_needed = c.value;
    std::string out = "it supports CUDA "
        + (supported ? "up to " + supported->version.truncated(2).text() : std::string("of no known release"));
    if (!cuda_needed.empty())
        if (const auto* floor = matrix.first_toolkit(CudaVersion::parse(cuda_needed)); floor && floor_of(*floor, host))
            out += "; CUDA " + cuda_needed + " needs driver >= " + floor_of(*floor, host)->text() + " ("
                + floor->provenance.cite() + ")";
    return out + ", and no brand/driver alternative matches this host";
}

std::vector<std::string> brands_admitted(
    const std::string& requirement, const DriverHost& host, const matrix::Matrix& matrix)
{
    const DriverVersion& driver = host.driver;
    const auto alternatives = parse_requirement(requirement);
    const matrix::CudaToolkit* supported = newest_supported(matrix, host);
    std::vector<std::string> out;
    for (const auto& all : alternatives)
        for (const auto& c : all)
            if (c.key == "brand" && std::find(out.begin(), out.end(), c.value) == out.end()
                && admits(alternatives, driver, &c.value, supported))
                out.push_back(c.value);
    return out;
}

} // namespace dlenv::resolve
