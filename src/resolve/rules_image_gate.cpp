#include "resolve/image_require_cuda.h"
#include "resolve/require_cuda.h"
#include "resolve/rules.h"

#include <algorithm>
#include <array>

namespace dlenv::resolve {
namespace {

// The segments whose brands nvidia_brand() tells apart: tesla, quadro, and geforce for the rest.
constexpr std::array k_segments { matrix::GpuSegment::datacenter, matrix::GpuSegment::workstation,
    matrix::GpuSegment::geforce };

// One brand per GPU named; a bare compute capability whose models span segments has none.
std::vector<std::string> brands_of(const std::vector<GpuTarget>& gpus)
{
    std::vector<std::string> out;
    for (const auto& gpu : gpus)
        if (gpu.segment)
            out.push_back(nvidia_brand(*gpu.segment));
    return out;
}

std::string joined(const std::vector<std::string>& items, const std::string& separator)
{
    std::string out;
    for (const auto& item : items)
        out += (out.empty() ? "" : separator) + item;
    return out;
}

// "for tesla and geforce GPUs", or what an evaluation with no brand stands for.
std::string whose(std::vector<std::string> brands, bool gpus_named)
{
    std::sort(brands.begin(), brands.end());
    brands.erase(std::unique(brands.begin(), brands.end()), brands.end());
    if (!brands.empty())
        return "for " + joined(brands, " and ") + " GPUs";
    return gpus_named ? "with no GPU brand known" : "with no GPU named";
}

// Whether the brands a requirement admits include one of every segment's (tesla, quadro,
// geforce): then any GPU starts the image, named or not.
bool admits_every_segment(const std::vector<std::string>& admitted)
{
    using matrix::GpuSegment;
    return std::all_of(k_segments.begin(), k_segments.end(), [&](GpuSegment segment) {
        return std::find(admitted.begin(), admitted.end(), nvidia_brand(segment)) != admitted.end();
    });
}

} // namespace

void check_image_gate(const Context& ctx, bool driver_runs, Report& report)
{
    const DriverVersion& driver = *ctx.query.driver;
    const ImageRequireCuda gate = image_require_cuda(ctx.matrix, *ctx.cuda, k_image_architecture);
    const DriverHost host { driver, brands_of(ctx.gpus), ctx.query.os == HostOs::windows_wsl2 };
    const std::string image = "the image dlenv builds for CUDA " + ctx.cuda->truncated(2).text();
    const std::string its = "its NVIDIA_REQUIRE_CUDA (" + gate.origin + ")";
    const std::string who = whose(host.brands, !ctx.gpus.empty());
    auto refusal = refuse_require_cuda(gate.value, host, ctx.matrix);
    if (!refusal) {
        report.add(Verdict::ok, "image-require-cuda",
            image + " starts on driver " + driver.text() + " under the NVIDIA container toolkit: " + its
                + " accepts it " + who + (host.brands.empty() ? ", so on any GPU" : ""),
            gate.source);
        return;
    }
    if (!driver_runs)
        return; // the driver rules already said it does not run; the image does not start either
    if (host.brands.empty()) {
        // with no brand only the brand-free alternative counts; the brands may still admit the
        // driver, every segment's or some
        auto admitted = brands_admitted(gate.value, host, ctx.matrix);
        if (admits_every_segment(admitted)) {
            report.add(Verdict::ok, "image-require-cuda",
                image + " starts on driver " + driver.text() + " under the NVIDIA container toolkit whatever the GPU: "
                    + its + " admits it on the brands of every segment (" + joined(admitted, ", ") + ")",
                gate.source);
            return;
        }
        if (!admitted.empty()) {
            report.add(Verdict::warn, "image-require-cuda",
                who + ", the NVIDIA_REQUIRE_CUDA of " + image + " (" + gate.origin + ") refuses driver " + driver.text()
                    + " with no brand; under the NVIDIA container toolkit it starts on that driver only on "
                    + joined(admitted, ", ") + " GPUs: name --gpu to check",
                gate.source);
            return;
        }
    }
    report.add(Verdict::fail, "image-require-cuda",
        image + " will not start on driver " + driver.text() + " under the NVIDIA container toolkit: " + its
            + " refuses it " + (host.brands.empty() ? "whatever the GPU's brand" : who) + ": " + *refusal,
        gate.source);
    if (const auto floor = toolkit_driver(*ctx.matrix.first_toolkit(*ctx.cuda), ctx.query.os))
        report.suggest("upgrade the driver to >= " + floor->text()
            + ", which the image's NVIDIA_REQUIRE_CUDA admits on every GPU");
}

} // namespace dlenv::resolve
