#include "cli/commands.h"

#include "cli/matrix_option.h"
#include "cli/store_output.h"
#include "core/file.h"
#include "core/time_text.h"
#include "metrics/doctor_metrics.h"
#include "metrics/exposition.h"
#include "metrics/image_metrics.h"
#include "metrics/scrape_server.h"
#include "metrics/verification_metrics.h"
#include "store/store.h"
#include "store/verifications.h"
#include "workflow/doctor_inputs.h"

#include <iostream>

namespace dlenv::cli {
namespace {

struct MetricsArgs {
    std::string output = "-";
    std::string listen;
    bool no_doctor = false;
    std::string lock;
    std::string data_dir = ".";
    std::uint64_t read_mib = 256;
    std::int64_t doctor_interval = 300;
};

// The doctor's findings, probed again once they are older than the interval.
class DoctorCache {
public:
    DoctorCache(const MetricsArgs& args, const Options& options)
        : m_args(args)
        , m_options(options)
    {
    }

    const std::vector<Finding>& findings()
    {
        if (!m_taken || now_seconds() - *m_taken >= m_args.doctor_interval) {
            m_findings = workflow::diagnose_this_host(
                { m_args.lock, m_args.data_dir, m_args.read_mib << 20 }, load_matrix(m_options));
            m_taken = now_seconds();
        }
        return m_findings;
    }

private:
    const MetricsArgs& m_args;
    const Options& m_options;
    std::optional<std::int64_t> m_taken;
    std::vector<Finding> m_findings;
};

std::string exposition(const MetricsArgs& args, const Options& options, DoctorCache& doctor)
{
    std::vector<metrics::Family> families;
    if (!args.no_doctor)
        families = metrics::doctor_families(doctor.findings());
    store::Store store = store::Store::open(store_dir(options));
    for (auto&& part :
        { metrics::verification_families(store::read_verifications(store)), metrics::image_families(store.records()) })
        families.insert(families.end(), part.begin(), part.end());
    return metrics::render(families);
}

// node_exporter's textfile collector reads regular files; anything else there is refused
// before the doctor runs.
std::filesystem::path textfile(const std::string& output)
{
    std::filesystem::path path(output);
    std::error_code error;
    auto status = std::filesystem::status(path, error);
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        throw Error(ErrorCode::invalid_input, "-o " + output + ": not a regular file",
            "name a file for the textfile collector, e.g. -o /var/lib/prometheus/node-exporter/dlenv.prom");
    // Replace the file a link names, not the link.
    return std::filesystem::is_symlink(std::filesystem::symlink_status(path, error))
        ? std::filesystem::weakly_canonical(path)
        : path;
}

int run_metrics(const MetricsArgs& args, const Options& options)
{
    DoctorCache doctor(args, options);
    if (!args.listen.empty()) {
        metrics::ListenAddress address = metrics::ListenAddress::parse(args.listen);
        metrics::ScrapeServer server(address);
        // A missing store or a bad --lock is told now, not to the first scrape.
        exposition(args, options, doctor);
        std::cout << "serving http://" << address.address << ":" << server.port() << "/metrics" << std::endl;
        server.serve([&] { return exposition(args, options, doctor); });
    }
    if (args.output == "-") {
        std::cout << exposition(args, options, doctor);
        return 0;
    }
    std::filesystem::path path = textfile(args.output);
    write_file_atomic(path, exposition(args, options, doctor));
    return 0;
}

} // namespace

void register_metrics(CLI::App& app, Options& options, int& exit_code)
{
    auto args = std::make_shared<MetricsArgs>();
    auto* cmd = app.add_subcommand("metrics",
        "Write the doctor's findings, the store's verification records and its production digests in "
        "Prometheus's text format, or serve them for scrapes");
    cmd->add_option("--store", options.store_dir, "The store (default: $DLENV_STORE, else ./.dlenv)")->type_name("DIR");
    auto* output = cmd->add_option("-o,--output", args->output,
                          "Write to this regular file, atomically, e.g. for node_exporter's textfile "
                          "collector (default: - for standard output)")
                       ->type_name("FILE");
    cmd->add_option("--listen", args->listen,
           "Serve GET /metrics on [ADDRESS:]PORT until stopped; a bare port is served on 127.0.0.1")
        ->type_name("ADDR")
        ->excludes(output);
    cmd->add_flag("--no-doctor", args->no_doctor, "Leave the doctor's findings out: the store's records only");
    cmd->add_option("--lock", args->lock, "The doctor also checks the driver against this lockfile's floor")
        ->type_name("FILE");
    cmd->add_option("--data-dir", args->data_dir, "The doctor measures the read speed of this directory (default: .)")
        ->type_name("DIR");
    cmd->add_option("--read-size", args->read_mib, "MiB the doctor writes and reads back (default: 256)")
        ->type_name("MIB")
        ->check(CLI::Range(1, 65536));
    cmd->add_option("--doctor-interval", args->doctor_interval,
           "With --listen, run the doctor again when its findings are this many seconds old (default: 300)")
        ->type_name("SECONDS")
        ->check(CLI::Range(1, 86400));
    cmd->callback([args, &options, &exit_code] { exit_code = run_metrics(*args, options); });
}

} // namespace dlenv::cli
