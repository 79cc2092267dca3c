#pragma once

#include "core/pep440.h"
#include "matrix/matrix.h"
#include "refresh/redist.h"
#include "refresh/torch_index.h"
#include "refresh/upstream.h"

#include <map>
#include <string>
#include <vector>

namespace dlenv::refresh {

// Everything the vendors publish that the matrices are refreshed from.
struct Published {
    Upstream upstream;
    std::vector<PublishedTorchLine> torch; // the variants `matrix` lacks carry their pins
    std::vector<PublishedCudaRelease> cuda; // releases `matrix` has no toolkit row of
    std::map<std::string, std::vector<Pep440Version>> pypi; // project -> final releases
};

// The PyPI projects read: the frameworks and the cuDNN wheels.
const std::vector<std::string>& pypi_projects(); // tensorflow, jax, jaxlib, nvidia-cudnn-cu11/12/13

// Reads the torch wheel index (and, for each CUDA variant `matrix` lacks, the METADATA of
// one of its wheels), the redistrib manifests of the toolkit releases `matrix` lacks, and
// PyPI's releases of pypi_projects(). Errors name the URL they come from.
Published read_published(const matrix::Matrix& matrix, const Upstream& upstream);

} // namespace dlenv::refresh
