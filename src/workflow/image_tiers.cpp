#include "workflow/image_tiers.h"

#include "store/store.h"
#include "verify/image_platform.h"
#include "workflow/built_image.h"

namespace dlenv::workflow {

ImageTiers image_tiers(const std::filesystem::path& store_dir, const std::string& name, const std::string& tag)
{
    store::Store store = store::Store::open(store_dir);
    oci::Descriptor image = find_tag(store, name, tag);
    // Every platform's image carries the same lock: the first one's says the tiers.
    oci::Descriptor first = verify::platform_images(store.layout(), image).front();
    BuiltImage built = read_built_image(store, first, name + ":" + tag);
    return { image.digest, built.lock.validation().tiers };
}

} // namespace dlenv::workflow
