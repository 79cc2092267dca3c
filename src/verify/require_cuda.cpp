#include "verify/require_cuda.h"

#include "core/error.h"

#include <regex>
#include <sstream>

namespace dlenv::verify {
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

bool holds(std::strong_ordering order, const std::string& op)
{
    return op == ">=" ? order >= 0
        : op == "<="  ? order <= 0
        : op == ">"   ? order > 0
        : op == "<"   ? order < 0
                      : order == 0;
}

// The newest CUDA release whose Linux driver floor the host's driver meets.
const matrix::CudaToolkit* newest_supported(const matrix::Matrix& matrix, const DriverVersion& driver)
{
    const matrix::CudaToolkit* best = nullptr;
    for (const auto& toolkit : matrix.toolkits())
        if (toolkit.driver_linux && *toolkit.driver_linux <= driver && (!best || toolkit.version > best->version))
            best = &toolkit;
    return best;
}

bool satisfied(const Constraint& c, const DriverHost& host, const matrix::CudaToolkit* supported)
{
    if (c.key == "cuda")
        return supported && holds(supported->version.compare_truncated(CudaVersion::parse(c.value)), c.op);
    if (c.key == "driver") {
        if (auto full = DriverVersion::try_parse(c.value))
            return holds(host.driver <=> *full, c.op);
        return holds(host.driver.major() <=> static_cast<std::uint32_t>(std::stoul(c.value)), c.op);
    }
    if (c.key == "brand")
        return std::find(host.brands.begin(), host.brands.end(), c.value) != host.brands.end();
    return true; // arch constraints are the gpu tier's to check, per device
}

} // namespace

std::optional<std::string> refuse_require_cuda(
    const std::string& requirement, const DriverHost& host, const matrix::Matrix& matrix)
{
    const matrix::CudaToolkit* supported = newest_supported(matrix, host.driver);
    std::istringstream alternatives(requirement);
    std::string cuda_needed;
    for (std::string alternative; alternatives >> alternative;) {
        bool all = true;
        std::istringstream parts(alternative);
        for (std::string part; std::getline(parts, part, ',');) {
            Constraint c = parse_constraint(part);
            if (c.key == "cuda")
                cuda_needed = c.value;
            all = all && satisfied(c, host, supported);
        }
        if (all)
            return std::nullopt;
    }
    std::string out = "NVIDIA_REQUIRE_CUDA=\"" + requirement + "\" refuses driver " + host.driver.text()
        + ": it supports CUDA "
        + (supported ? "up to " + supported->version.truncated(2).text() : std::string("of no known release"));
    if (!cuda_needed.empty())
        if (const auto* floor = matrix.first_toolkit(CudaVersion::parse(cuda_needed)); floor && floor->driver_linux)
            out += "; CUDA " + cuda_needed + " needs driver >= " + floor->driver_linux->text() + " ("
                + floor->provenance.cite() + ")";
    return out + ", and no brand/driver alternative matches this host";
}

} // namespace dlenv::verify
