#include "cli/matrix_option.h"

#include <optional>

namespace dlenv::cli {

const matrix::Matrix& load_matrix(const Options& options)
{
    if (options.matrix_dir.empty())
        return matrix::Matrix::embedded();
    static std::optional<matrix::Matrix> loaded;
    if (!loaded)
        loaded = matrix::Matrix::load_directory(options.matrix_dir);
    return *loaded;
}

} // namespace dlenv::cli
