#include "rootfs/dlenv_files.h"

namespace dlenv::rootfs {

std::string kit_script(std::string_view tier)
{
    return std::string(k_kit_dir) + "/" + std::string(tier) + "_tier.py";
}

} // namespace dlenv::rootfs
