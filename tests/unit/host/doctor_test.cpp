#include "host/doctor.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

constexpr std::uint64_t k_gib = 1024 * 1024; // in KiB

host::DriverFacts gpus(unsigned n, const std::string& name = "NVIDIA H100 80GB HBM3", double memory_gib = 80)
{
    host::DriverFacts facts { DriverVersion::parse("550.54.15"), {}, "nvidia-smi" };
    for (unsigned i = 0; i < n; ++i)
        facts.gpus.push_back({ name, ComputeCapability(9, 0), memory_gib, std::nullopt });
    return facts;
}

std::optional<host::GpuSpec> h100(const std::string& name)
{
    if (name != "NVIDIA H100 80GB HBM3")
        return std::nullopt;
    return host::GpuSpec { name, ComputeCapability(9, 0), "Hopper", 80.0, "HBM3", 3350.0 };
}

host::HostState training_box()
{
    host::HostState state;
    state.driver = gpus(8);
    state.cpu = { 128, "sched_getaffinity" };
    state.memory = { 2048 * k_gib, 0 };
    state.data_dir = "/data";
    state.read = host::ReadMeasurement { 4'000'000'000, 1.0, true };
    state.topology = host::Topology { 8, {} };
    for (unsigned i = 0; i < 8; ++i)
        for (unsigned j = i + 1; j < 8; ++j)
            state.topology->pairs.push_back({ i, j, host::Link::nvlink, "NV18" });
    state.gpu_health.emplace();
    for (unsigned i = 0; i < 8; ++i)
        state.gpu_health->push_back({ .bus_id = "00000000:" + std::to_string(10 + i) + ":00.0",
            .name = "NVIDIA H100 80GB HBM3",
            .pcie = { 5u, 5u, 16u, 16u },
            .temperature_c = 41,
            .slowdown_c = 87,
            .ecc_mode = "Enabled",
            .ecc_volatile_uncorrectable = 0u,
            .ecc_aggregate_uncorrectable = 0u });
    state.nvlink.emplace();
    for (unsigned i = 0; i < 8; ++i)
        state.nvlink->push_back({ i, "NVIDIA H100 80GB HBM3", 18, 18 });
    state.swappiness = 0;
    state.network.interfaces.push_back({ "ens1f0np0", true, 100000u });
    state.network.rdma.push_back({ "mlx5_0", "1", true, "InfiniBand", "400 Gb/sec (4X NDR)" });
    return state;
}

host::DriverFloor cu124_floor()
{
    return { "l.lock.json", DriverVersion::parse("550.54.14"), DriverVersion::parse("525.60.13"), false };
}

} // namespace

TEST_CASE("a well-built training box passes every check", "[host]")
{
    auto findings = host::diagnose(training_box(), cu124_floor(), h100);
    REQUIRE(findings.size() == 8 + 2 + 4 * 8 + 2);
    std::vector<std::string> messages;
    std::size_t per_gpu = 0;
    for (const auto& f : findings) {
        CHECK(f.verdict == Verdict::ok);
        if (f.subject.empty())
            messages.push_back(f.code + ": " + f.message);
        else
            ++per_gpu;
    }
    CHECK(per_gpu == 32);
    CHECK(findings[10].message == "GPU 0 (NVIDIA H100 80GB HBM3, 00000000:10:00.0): PCIe gen 5 x16 (max gen 5 x16)");
    CHECK(messages
        == std::vector<std::string> {
            "driver: NVIDIA driver 550.54.15 (read through nvidia-smi)",
            "driver_lock: driver 550.54.15 meets the floor of l.lock.json (550.54.14)",
            "gpu: 8 x NVIDIA H100 80GB HBM3: sm_90 (Hopper), 80 GB HBM3, 3350 GB/s",
            "cpu_cores_per_gpu: 16 CPU cores per GPU, at least 8",
            "ram_vs_gpu_memory: RAM 2048 GiB for 640 GiB of GPU memory (3.2x), at least 2x",
            "swap: no swap: a job that runs out of memory fails fast instead of thrashing",
            "swappiness: vm.swappiness = 0, and no swap for it to act on",
            "data_read_speed: sequential read 4000 MB/s from /data, at least 2000 MB/s",
            "gpu_topology: 28 GPU pairs: 28 NVLink",
            "nvlink: GPU 0 18 of 18 active, GPU 1 18 of 18 active, GPU 2 18 of 18 active, GPU 3 18 of 18 active, GPU 4 "
            "18 of 18 active, GPU 5 18 of 18 active, GPU 6 18 of 18 active, GPU 7 18 of 18 active",
            "network_speed: ens1f0np0 at 100 Gb/s, at least 10 Gb/s",
            "rdma: mlx5_0 port 1 InfiniBand 400 Gb/sec (4X NDR)",
        });
    CHECK(worst_verdict(findings) == Verdict::ok);
}

TEST_CASE("without a driver the GPU findings say so, and the driver check fails", "[host]")
{
    host::HostState state = training_box();
    state.driver.reset();
    state.topology.reset();
    state.cpu = { 2, "sched_getaffinity" };
    state.memory = { 24683656, 0 };
    state.gpu_health.reset();
    auto findings = host::diagnose(state, cu124_floor(), h100);
    REQUIRE(findings.size() == 16);
    CHECK(findings[0].verdict == Verdict::fail);
    CHECK(findings[0].message == "no NVIDIA driver found: neither NVML (libnvidia-ml.so.1) nor nvidia-smi answered");
    CHECK(findings[1].verdict == Verdict::unknown);
    CHECK(findings[1].message == "no NVIDIA driver found: cannot compare with the floor of l.lock.json");
    CHECK(findings[2].verdict == Verdict::unknown);
    CHECK(findings[2].message == "no NVIDIA driver found");
    CHECK(findings[3].verdict == Verdict::unknown);
    CHECK(findings[3].message == "no NVIDIA driver found: 2 CPU cores, no GPU to share them");
    CHECK(findings[3].value == "2 CPU cores (sched_getaffinity)");
    CHECK(findings[4].verdict == Verdict::unknown);
    CHECK(findings[4].message == "no NVIDIA driver found: RAM 23.5 GiB, no GPU memory to compare it with");
    CHECK(findings[4].value == "23.5 GiB (MemTotal 24683656 kB)");
    CHECK(findings[8].verdict == Verdict::unknown);
    CHECK(findings[8].message == "no NVIDIA driver found: topology not visible");
    CHECK(findings[9].message == "no NVIDIA driver found: NVLink not visible");
    for (std::size_t i = 10; i < 14; ++i) {
        CHECK(findings[i].verdict == Verdict::unknown);
        CHECK(findings[i].message == "no NVIDIA driver found: GPU health not visible");
    }
    CHECK(worst_verdict(findings) == Verdict::fail);
}

TEST_CASE("fewer than 8 CPU cores per GPU starve the data loaders", "[host]")
{
    auto f = host::check_cpu_cores({ 16, "sched_getaffinity" }, gpus(4));
    CHECK(f.verdict == Verdict::warn);
    CHECK(f.message == "4 CPU cores per GPU, fewer than 8: data loading workers will starve the GPUs");
    CHECK(f.value == "16 CPU cores (sched_getaffinity), 4 GPUs");
    CHECK(f.threshold == ">= 8 CPU cores per GPU");
    CHECK(host::check_cpu_cores({ 12, "x" }, gpus(8)).message.starts_with("1.5 CPU cores per GPU, fewer than 8"));
}

TEST_CASE("RAM is judged against the total GPU memory", "[host]")
{
    using Case = std::tuple<std::uint64_t, Verdict, std::string>;
    auto [ram, verdict, message]
        = GENERATE(Case { 256 * k_gib, Verdict::fail,
                       "RAM 256 GiB for 640 GiB of GPU memory (0.4x), less than the GPUs hold: a full checkpoint "
                       "cannot be staged in RAM" },
            Case { 1024 * k_gib, Verdict::warn,
                "RAM 1024 GiB for 640 GiB of GPU memory (1.6x), less than 2x: checkpoints and CPU offload will "
                "not fit" },
            Case { 1280 * k_gib, Verdict::ok, "RAM 1280 GiB for 640 GiB of GPU memory (2x), at least 2x" });
    auto f = host::check_memory({ ram, 0 }, gpus(8), h100);
    CHECK(f.verdict == verdict);
    CHECK(f.message == message);
    CHECK(f.measured == Approx(double(ram) / k_gib));
}

TEST_CASE("GPU memory the driver does not report comes from the matrix", "[host]")
{
    auto driver = gpus(2);
    for (auto& gpu : driver.gpus)
        gpu.memory_gib.reset();
    CHECK(host::check_memory({ 256 * k_gib, 0 }, driver, h100).message
        == "RAM 256 GiB for 160 GiB of GPU memory (1.6x), less than 2x: checkpoints and CPU offload will not fit");
    auto unknown = gpus(1, "NVIDIA Future GPU");
    unknown.gpus[0].memory_gib.reset();
    auto f = host::check_memory({ 256 * k_gib, 0 }, unknown, h100);
    CHECK(f.verdict == Verdict::unknown);
    CHECK(f.message == "GPU memory unknown: RAM 256 GiB, no GPU memory to compare it with");
}

TEST_CASE("swap is a warning, with why", "[host]")
{
    auto f = host::check_swap({ 64 * k_gib, 8 * k_gib });
    CHECK(f.verdict == Verdict::warn);
    CHECK(f.message
        == "swap is on (8 GiB): a job that runs out of memory thrashes instead of failing; turn it off "
           "with `swapoff -a`");
    CHECK(f.value == "8 GiB (SwapTotal 8388608 kB)");
    CHECK_FALSE(f.why.empty());
}

TEST_CASE("the driver is judged against the lock's floors", "[host]")
{
    auto driver = [](const char* version) {
        auto facts = gpus(1);
        facts.driver = DriverVersion::parse(version);
        return std::optional<host::DriverFacts>(facts);
    };
    auto warn = host::check_driver_floor(driver("535.104.05"), cu124_floor());
    CHECK(warn.verdict == Verdict::warn);
    CHECK(warn.message
        == "driver 535.104.05 is below the toolkit floor of l.lock.json (550.54.14): it runs under "
           "minor-version compatibility; upgrade to 550.54.14 or later for every feature of the lock's "
           "CUDA");
    CHECK(warn.threshold == ">= 550.54.14 (>= 525.60.13 under minor-version compatibility)");
    auto fail = host::check_driver_floor(driver("470.57.02"), cu124_floor());
    CHECK(fail.verdict == Verdict::fail);
    CHECK(fail.message
        == "driver 470.57.02 is below the floor of l.lock.json (525.60.13): the image's CUDA will not "
           "start; upgrade the driver to 550.54.14 or later");
    auto compat = cu124_floor();
    compat.forward_compat = true;
    CHECK(host::check_driver_floor(driver("470.57.02"), compat).verdict == Verdict::warn);
}

TEST_CASE("GPU models are grouped and looked up in the matrix", "[host]")
{
    auto driver = gpus(2);
    driver.gpus.push_back({ "NVIDIA Future GPU", ComputeCapability(12, 1), 96.0, std::nullopt });
    auto findings = host::check_gpu_models(driver, h100);
    REQUIRE(findings.size() == 2);
    CHECK(findings[0].message == "2 x NVIDIA H100 80GB HBM3: sm_90 (Hopper), 80 GB HBM3, 3350 GB/s");
    CHECK(findings[0].measured == 2);
    CHECK(findings[1].verdict == Verdict::warn);
    CHECK(findings[1].message == "NVIDIA Future GPU: not in dlenv's GPU matrix (the driver reports sm_121)");
    auto none = host::check_gpu_models(gpus(0), h100);
    CHECK(none[0].verdict == Verdict::fail);
    CHECK(none[0].message == "the driver sees no GPU");
}

TEST_CASE("slow storage and GPUs across sockets are warnings", "[host]")
{
    host::HostState state = training_box();
    state.read = host::ReadMeasurement { 500'000'000, 1.0, false };
    auto read = host::check_read_speed(state);
    CHECK(read.verdict == Verdict::warn);
    CHECK(read.message
        == "sequential read 500 MB/s from /data, below 2000 MB/s: slower than local NVMe; stage the "
           "data set on NVMe or cache it (no O_DIRECT here: the figure may include memory speed)");
    CHECK(read.value == "500 MB/s reading 476 MiB buffered, after dropping it from the page cache");
    state.read.reset();
    state.read_error = "write /data/x: Read-only file system";
    CHECK(host::check_read_speed(state).message
        == "cannot measure the read speed of /data: write /data/x: Read-only file system");

    state.driver = gpus(2);
    state.topology = host::Topology { 2, { { 0, 1, host::Link::cross_socket, "SYS" } } };
    auto links = host::check_topology(state);
    CHECK(links.verdict == Verdict::warn);
    CHECK(links.message
        == "1 GPU pair: 1 across CPU sockets: all-reduce between GPUs on different sockets goes "
           "through the CPU interconnect");
    state.topology = host::Topology { 1, {} };
    CHECK(host::check_topology(state).message == "one GPU: no links between GPUs to check");
    state.topology.reset();
    CHECK(host::check_topology(state).message == "not visible: `nvidia-smi topo -m` did not answer");
    state.topology_error = "nvidia-smi topo -m printed no GPU rows";
    CHECK(host::check_topology(state).message == "not visible: nvidia-smi topo -m printed no GPU rows");
}

TEST_CASE("findings as JSON carry verdict, value, threshold and why", "[host]")
{
    auto json = host::to_json({ host::check_swap({ 64 * k_gib, 0 }) });
    CHECK(json == nlohmann::json::parse(R"json({"format": "dlenv.doctor/v1", "verdict": "ok", "findings": [
        {"check": "swap", "verdict": "ok", "message": "no swap: a job that runs out of memory fails fast instead of thrashing",
         "value": "0 GiB (SwapTotal 0 kB)", "threshold": "no swap", "measured": 0.0, "unit": "GiB",
         "why": "when memory runs short a training process that can swap slows by orders of magnitude while holding its GPUs, instead of being stopped at once by the out-of-memory killer"}]})json"));
}

TEST_CASE("nvidia-smi text of a PCIe box goes through to exact findings", "[host]")
{
    host::HostState state;
    state.driver = host::parse_nvidia_smi("NVIDIA L4, 535.104.05, 8.9, 23034\n"
                                          "NVIDIA L4, 535.104.05, 8.9, 23034\n"
                                          "NVIDIA L4, 535.104.05, 8.9, 23034\n"
                                          "NVIDIA L4, 535.104.05, 8.9, 23034\n");
    state.topology = host::parse_topology("\tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\n"
                                          "GPU0\t X \tPXB\tSYS\tSYS\t0-23\n"
                                          "GPU1\tPXB\t X \tSYS\tSYS\t0-23\n"
                                          "GPU2\tSYS\tSYS\t X \tPXB\t24-47\n"
                                          "GPU3\tSYS\tSYS\tPXB\t X \t24-47\n");
    state.cpu = { 16, "sched_getaffinity" };
    state.memory = { 128 * k_gib, 0 };
    state.data_dir = "/data";
    state.read = host::ReadMeasurement { 2'500'000'000, 1.0, true };
    auto findings = host::diagnose(state, std::nullopt, h100);
    std::vector<std::string> lines;
    for (const auto& f : findings)
        lines.push_back(std::string(to_string(f.verdict)) + " " + f.code + ": " + f.message);
    CHECK(lines
        == std::vector<std::string> {
            "ok driver: NVIDIA driver 535.104.05 (read through nvidia-smi)",
            "warn gpu: 4 x NVIDIA L4: not in dlenv's GPU matrix (the driver reports sm_89)",
            "warn cpu_cores_per_gpu: 4 CPU cores per GPU, fewer than 8: data loading workers will starve "
            "the GPUs",
            "warn ram_vs_gpu_memory: RAM 128 GiB for 90 GiB of GPU memory (1.4x), less than 2x: "
            "checkpoints and CPU offload will not fit",
            "ok swap: no swap: a job that runs out of memory fails fast instead of thrashing",
            "unknown swappiness: /proc/sys/vm/swappiness is not there",
            "ok data_read_speed: sequential read 2500 MB/s from /data, at least 2000 MB/s",
            "warn gpu_topology: 6 GPU pairs: 2 PCIe switch, 4 across CPU sockets: all-reduce between "
            "GPUs on different sockets goes through the CPU interconnect",
            "unknown nvlink: not visible: `nvidia-smi nvlink --status` did not answer",
            "unknown gpu_pcie_link: not visible: `nvidia-smi -q -x` did not answer",
            "unknown gpu_clock_reasons: not visible: `nvidia-smi -q -x` did not answer",
            "unknown gpu_temperature: not visible: `nvidia-smi -q -x` did not answer",
            "unknown gpu_ecc: not visible: `nvidia-smi -q -x` did not answer",
            "unknown network_speed: no network interface with a device under /sys/class/net",
            "unknown rdma: no RDMA device under /sys/class/infiniband: fine on one node; training across nodes "
            "needs InfiniBand or RoCE",
        });
    CHECK(worst_verdict(findings) == Verdict::warn);
}
