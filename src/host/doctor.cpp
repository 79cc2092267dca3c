#include "host/doctor.h"

#include "core/error.h"

namespace dlenv::host {

HostState probe_host(const ProbeOptions& options)
{
    HostState host;
    host.driver = probe_driver();
    if (host.driver) {
        try {
            host.topology = probe_topology();
        } catch (const Error& e) {
            // A legend a newer nvidia-smi added must not stop the other checks.
            host.topology_error = e.what();
        }
    }
    if (host.driver) {
        try {
            host.gpu_health = probe_gpu_health();
        } catch (const Error& e) {
            host.gpu_health_error = e.what();
        }
        try {
            host.nvlink = probe_nvlink();
        } catch (const Error& e) {
            host.nvlink_error = e.what();
        }
    }
    host.cpu = usable_cpu_cores(options.root);
    host.memory = read_memory(options.root);
    host.swappiness = read_swappiness(options.root);
    host.network = read_network(options.root);
    host.data_dir = options.data_dir;
    try {
        host.read = measure_read_speed(options.data_dir, options.read_bytes);
    } catch (const Error& e) {
        // A read-only or full data directory is a finding, not a reason to stop the doctor.
        if (e.code() != ErrorCode::io)
            throw;
        host.read_error = e.what();
    }
    return host;
}

std::vector<Finding> diagnose(const HostState& host, const std::optional<DriverFloor>& floor, const GpuLookup& lookup)
{
    std::vector<Finding> findings { check_driver(host.driver) };
    if (floor)
        findings.push_back(check_driver_floor(host.driver, *floor));
    for (auto& f : check_gpu_models(host.driver, lookup))
        findings.push_back(std::move(f));
    findings.push_back(check_cpu_cores(host.cpu, host.driver));
    findings.push_back(check_memory(host.memory, host.driver, lookup));
    findings.push_back(check_swap(host.memory));
    findings.push_back(check_swappiness(host.swappiness, host.memory));
    findings.push_back(check_read_speed(host));
    findings.push_back(check_topology(host));
    findings.push_back(check_nvlink(host));
    for (auto check : { check_gpu_pcie, check_gpu_clocks, check_gpu_temperature, check_gpu_ecc })
        for (auto& f : check(host))
            findings.push_back(std::move(f));
    findings.push_back(check_network(host.network));
    findings.push_back(check_rdma(host.network));
    return findings;
}

} // namespace dlenv::host
