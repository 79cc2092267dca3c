// Writes DIR as one layer blob into the OCI layout OUT and prints one line:
//   <seconds> <output bytes> <peak RSS KiB> <diff_id> <digest>
// bench_layer.sh runs it beside the peer tools.
//   bench_layer DIR OUT gzip|zstd|none [THREADS]
#include "core/error.h"
#include "oci/layer_writer.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <sys/resource.h>

using namespace dlenv;

int main(int argc, char** argv)
{
    if (argc < 4) {
        std::fprintf(stderr, "usage: bench_layer DIR OUT gzip|zstd|none [THREADS]\n");
        return 2;
    }
    try {
        auto start = std::chrono::steady_clock::now();
        auto layout = oci::ImageLayout::open_or_create(argv[2]);
        oci::LayerOptions options;
        options.compression = oci::parse_compression(argv[3]);
        options.threads = argc > 4 ? static_cast<unsigned>(std::stoul(argv[4])) : 0;
        auto layer = oci::write_layer(oci::entries_of_directory(argv[1]), options, layout.new_blob());
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        rusage usage {};
        ::getrusage(RUSAGE_SELF, &usage);
        std::printf("%.2f %lld %ld %s %s\n", seconds, static_cast<long long>(layer.descriptor.size), usage.ru_maxrss,
            layer.diff_id.text().c_str(), layer.descriptor.digest.text().c_str());
    } catch (const Error& e) {
        std::fprintf(stderr, "bench_layer: %s\n", e.what());
        return 1;
    }
}
