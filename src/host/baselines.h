#pragma once

namespace dlenv::host {

// dlenv's baselines for a training box: the thresholds the doctor holds this machine to
// and the ones `dlenv advise` states for the hardware a job needs. Each is dlenv's own
// rule of thumb; the doctor's findings say why each matters.
constexpr unsigned k_cores_per_gpu = 8; // data loader workers beside the training process
constexpr double k_ram_per_gpu_memory = 2.0; // checkpoints staged and CPU offload, x total GPU memory
constexpr double k_nvme_mb_s = 2000; // sequential read of local NVMe
constexpr double k_network_gbit_s = 10; // per node, between the nodes of one job

} // namespace dlenv::host
