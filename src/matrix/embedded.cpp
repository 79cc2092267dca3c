#include "matrix/matrix.h"

namespace dlenv::matrix {

const Matrix& Matrix::embedded()
{
    static const Matrix matrix = from_image(embedded_matrix_image());
    return matrix;
}

std::map<std::string, std::string> matrix_files(const std::filesystem::path& dir)
{
    if (!dir.empty())
        return read_matrix_directory(dir);
    std::map<std::string, std::string> files;
    for (const auto& file : embedded_matrix_files())
        files[std::string(file.name)] = std::string(file.contents);
    return files;
}

} // namespace dlenv::matrix
