#pragma once

#include "core/version.h"
#include "matrix/matrix.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv::resolve {

// The host as NVIDIA_REQUIRE_CUDA sees it: the driver, and one brand per GPU given to the
// container ("tesla" for datacenter GPUs, "geforce", ..., lowercase as the toolkit spells
// NVML's). No brands: no GPU's brand is known.
struct DriverHost {
    DriverVersion driver;
    std::vector<std::string> brands;
    // WSL 2's driver is the Windows host's, and the toolkit reads its Windows number: the
    // CUDA it supports comes from the Windows driver floors.
    bool windows_numbers = false;
};

// The CUDA a Linux driver's branch reports where that is on record (520.56.06, below CUDA
// 11.8's toolkit driver, reports 11.8, as every 520 release does); null: not on record.
const matrix::ReportedCuda* branch_cuda(const matrix::Matrix& matrix, const DriverVersion& driver);

// The brand NVIDIA_REQUIRE_CUDA matches for a GPU of `segment`.
std::string nvidia_brand(matrix::GpuSegment segment);

// Checks an image's NVIDIA_REQUIRE_CUDA ("cuda>=12.1 brand=tesla,driver>=470,driver<471")
// the way the NVIDIA container toolkit does: constraints joined by ',' must all hold,
// alternatives separated by spaces need one to hold, and every GPU must pass with its own
// brand. With no brands, brand constraints do not hold: the answer is then the one every
// GPU gets. `cuda` is the newest CUDA the driver supports, from the matrix's toolkit
// driver floors. Returns nullopt when the image may start, else why not: "it supports
// CUDA up to 11.4; CUDA 12.1 needs driver >= 530.30.02 (SOURCE), and no brand/driver
// alternative matches this host". Error(invalid_input) for a constraint it cannot read.
std::optional<std::string> refuse_require_cuda(
    const std::string& requirement, const DriverHost& host, const matrix::Matrix& matrix);

// The brands `requirement` names whose GPUs it admits on the host's driver (its own brands
// aside), in the order it names them, each once.
std::vector<std::string> brands_admitted(
    const std::string& requirement, const DriverHost& host, const matrix::Matrix& matrix);

} // namespace dlenv::resolve
