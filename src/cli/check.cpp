#include "cli/commands.h"

#include "cli/matrix_option.h"
#include "cli/output.h"
#include "cli/rows_output.h"
#include "resolve/check.h"

namespace dlenv::cli {
namespace {

struct CheckArgs {
    std::vector<std::string> frameworks;
    std::string cuda, cudnn, driver, python, os;
    std::vector<std::string> gpus;
    bool forward_compat = false;
    bool explain = false;
};

resolve::Query to_query(const CheckArgs& args)
{
    resolve::Query query;
    for (const auto& f : args.frameworks)
        query.frameworks.push_back(resolve::FrameworkRequest::parse(f));
    if (!args.cuda.empty())
        query.cuda = CudaVersion::parse(args.cuda);
    if (!args.cudnn.empty())
        query.cudnn = CudnnVersion::parse(args.cudnn);
    if (!args.driver.empty()) {
        auto driver = resolve::DriverRequest::parse(args.driver);
        query.driver = driver.release;
        query.driver_branch = driver.branch;
    }
    if (!args.python.empty()) {
        auto python = resolve::PythonRequest::parse(args.python);
        query.python = python.version;
        query.free_threaded = python.free_threaded;
    }
    query.gpus = args.gpus;
    query.forward_compat = args.forward_compat;
    if (!args.os.empty())
        query.os = resolve::parse_host_os(args.os);
    return query;
}

std::string describe(const CheckArgs& args)
{
    std::string out;
    auto add = [&](const std::string& part) { out += (out.empty() ? "" : " + ") + part; };
    for (const auto& f : args.frameworks)
        add(f);
    if (!args.cuda.empty())
        add("CUDA " + args.cuda);
    if (!args.cudnn.empty())
        add("cuDNN " + args.cudnn);
    if (!args.driver.empty())
        add("driver " + args.driver);
    for (const auto& g : args.gpus)
        add(g);
    if (!args.python.empty())
        add("Python " + args.python);
    if (!args.os.empty())
        add(std::string(resolve::describe(resolve::parse_host_os(args.os))));
    return out.empty() ? "the empty combination" : out;
}

} // namespace

void register_check(CLI::App& app, Options& options, int& exit_code)
{
    auto args = std::make_shared<CheckArgs>();
    auto* cmd = app.add_subcommand("check",
        "Check whether a framework / CUDA / cuDNN / driver / GPU / Python "
        "combination works, and why");
    cmd->add_option("--framework", args->frameworks,
           "NAME[EXTRA]==VERSION: torch, torchvision, torchaudio, tensorflow, jax; 2.1 means the 2.1 line, and "
           "NAME alone the newest release on record; "
           "a local label pins the build (torch==2.1.2+cu118); the pip extra it is installed with "
           "(tensorflow[and-cuda]==2.16, jax[cuda12_local]==0.4.31); repeat it for companions, or for "
           "frameworks installed together (torch and jax), each checked on its own and for the CUDA libraries "
           "they would share")
        ->type_name("NAME[EXTRA][==VERSION]");
    cmd->add_option("--cuda", args->cuda, "CUDA version X.Y[.Z]: selects the framework's build, or the toolkit")
        ->type_name("X.Y[.Z]");
    cmd->add_option("--cudnn", args->cudnn, "cuDNN version")->type_name("X.Y[.Z[.W]]");
    cmd->add_option("--driver", args->driver,
           "NVIDIA driver version, or its branch alone (535 or R535: the branch's newest Linux release on record); "
           "with --os windows or wsl2, the Windows driver's number (561.17)")
        ->type_name("X.Y[.Z]|[R]BRANCH");
    cmd->add_option("--gpu", args->gpus, "GPU model (\"RTX 4090\"), sm_XY or X.Y")->type_name("MODEL|sm_XY|X.Y");
    cmd->add_option("--python", args->python, "Python version; X.Yt for CPython's free-threaded build")
        ->type_name("X.Y[t]");
    cmd->add_option("--os", args->os,
           "Where the framework runs: linux (the default; where dlenv's images run), windows (native Windows), "
           "wsl2 (WSL 2 on Windows, whose driver is the Windows host's) or macos")
        ->type_name("linux|windows|wsl2|macos");
    cmd->add_flag("--forward-compat", args->forward_compat,
        "Allow forward compatibility (the cuda-compat package; data-center GPUs only)");
    cmd->add_flag("--explain", args->explain,
        "Also print the matrix rows the answer rests on: file, row, the facts used, their sources and confidence");
    cmd->add_flag("--json", options.json, "Print the verdict, findings and suggestions as JSON");
    cmd->callback([args, &options, &exit_code] {
        const auto& matrix = load_matrix(options);
        resolve::Query query = to_query(*args);
        resolve::Report report = resolve::check(matrix, query);
        std::vector<resolve::RowUsed> rows;
        if (args->explain)
            rows = resolve::rows_used(matrix, query);
        if (options.json) {
            nlohmann::json body = report.to_json();
            if (args->explain)
                body["rows"] = resolve::rows_json(rows);
            print_json(body);
        } else {
            print_report(report, describe(*args));
            if (args->explain)
                print_rows(rows);
        }
        exit_code = report.verdict() == Verdict::fail ? 1 : 0;
    });
}

} // namespace dlenv::cli
