#include "verify/kit_run.h"

#include "core/error.h"
#include "core/json_reader.h"
#include "rootfs/dlenv_files.h"
#include "rootfs/lookup.h"
#include "verify/static_checks.h"

#include <sstream>

namespace dlenv::verify {
namespace {

constexpr std::size_t k_tail_lines = 5;
constexpr std::size_t k_tail_chars = 600;

Verdict read_outcome(const JsonReader& field)
{
    std::string text = field.string();
    for (Verdict verdict : { Verdict::ok, Verdict::fail, Verdict::unknown })
        if (text == outcome_name(verdict))
            return verdict;
    field.fail("expected pass, fail or skip, got \"" + text + "\"");
}

KitDevice read_device(const JsonReader& row)
{
    return { row.at("index").unsigned_integer(), row.at("name").string(), row.at("compute_capability").string(),
        row.at("multiprocessors").unsigned_integer(), row.at("memory_bytes").non_negative_integer() };
}

KitFigure read_figure(const JsonReader& row, const KitOutput& output)
{
    auto device = row.find("device");
    KitFigure figure { row.at("name").string(), device ? std::optional(device->unsigned_integer()) : std::nullopt,
        row.at("value").number(), row.at("unit").string() };
    if (figure.device && !find_device(output, *figure.device))
        device->fail("no device " + std::to_string(*figure.device) + " in \"devices\"");
    return figure;
}

Finding kit_failure(const std::string& message)
{
    return { "kit-run", Verdict::fail, message };
}

// Why a finished run gave no kit output, or nullopt with `output` filled.
std::optional<std::string> why_no_output(
    const ContainerRun& run, std::string_view tier, int timeout_seconds, std::optional<KitOutput>& output)
{
    std::string script = rootfs::kit_script(tier);
    std::string command = "python3 " + script;
    std::string errors = error_tail(run.errors);
    std::string stderr_text = errors.empty() ? " (nothing on stderr)" : "; stderr: " + errors;
    if (run.timed_out)
        return command + " did not finish within " + std::to_string(timeout_seconds) + " s" + stderr_text
            + "; give it longer with --timeout SECONDS";
    if (run.exit_code != 0)
        return command + " crashed with exit status " + std::to_string(run.exit_code) + stderr_text
            + "; the kit exits 0 whatever its checks find, so this is a broken kit or image: rebuild the image "
              "with this dlenv, and report the stderr if it repeats";
    try {
        output = parse_kit_output(script, tier, run.output);
        return std::nullopt;
    } catch (const Error& e) {
        return command + " printed no valid kit JSON on stdout: " + e.message() + stderr_text
            + "; rebuild the image with this dlenv so its kit matches";
    }
}

} // namespace

const KitDevice* find_device(const KitOutput& output, std::uint32_t index)
{
    for (const auto& device : output.devices)
        if (device.index == index)
            return &device;
    return nullptr;
}

KitOutput parse_kit_output(const std::string& script, std::string_view tier, const std::string& text)
{
    std::string file = script + " output";
    nlohmann::json json = JsonReader::parse_document(file, text);
    JsonReader doc(file, json);
    if (doc.at("kit").unsigned_integer() != 1)
        doc.at("kit").fail("unknown kit output version " + doc.at("kit").raw().dump() + "; this dlenv reads 1",
            "verify the image with the dlenv that built it, or rebuild it with this one");
    KitOutput out;
    out.tier = doc.at("tier").string();
    if (out.tier != tier)
        doc.at("tier").fail("expected \"" + std::string(tier) + "\", got \"" + out.tier + "\"");
    for (const auto& row : doc.at("devices").items())
        out.devices.push_back(read_device(row));
    for (const auto& row : doc.at("findings").items())
        out.findings.push_back(
            { row.at("code").string(), read_outcome(row.at("outcome")), row.at("message").string() });
    for (const auto& row : doc.at("figures").items())
        out.figures.push_back(read_figure(row, out));
    return out;
}

std::string error_tail(const std::string& errors)
{
    std::vector<std::string> lines;
    std::istringstream in(errors);
    for (std::string line; std::getline(in, line);)
        if (line.find_first_not_of(" \t\r") != std::string::npos)
            lines.push_back(line.substr(line.find_first_not_of(" \t")));
    std::string out;
    for (std::size_t i = lines.size() > k_tail_lines ? lines.size() - k_tail_lines : 0; i < lines.size(); ++i)
        out += (out.empty() ? "" : " | ") + lines[i];
    return out.size() > k_tail_chars ? "..." + out.substr(out.size() - k_tail_chars) : out;
}

KitRun run_kit(
    const ContainerContext& context, std::string_view tier, const GpuInjection& gpus, const KitExtras& extras)
{
    std::string script = rootfs::kit_script(tier);
    if (!rootfs::lookup(context.rootfs, script))
        return { std::nullopt,
            kit_failure(script
                + " is not in the image: it was built by a dlenv without the validation kit; "
                  "rebuild it with `dlenv build` to add the kit"),
            std::nullopt };
    auto python = find_program(context.rootfs, context.process.env, "python3");
    if (!python)
        return { std::nullopt,
            kit_failure("the image has no python3 on its PATH, and the validation kit runs with python3 (3.6 or "
                        "newer); install python3 in the image or put it on the PATH of its config"),
            std::nullopt };
    std::vector<std::string> args = { *python, script };
    args.insert(args.end(), extras.arguments.begin(), extras.arguments.end());
    ContainerSpec spec = spec_for(context, std::move(args));
    spec.binds.insert(spec.binds.end(), extras.binds.begin(), extras.binds.end());
    spec.shm_kib = extras.shm_kib;
    inject_gpus(spec, gpus);
    ContainerRun run = run_container(
        context.runtime, spec, context.rootfs, context.work_dir / std::string(tier), context.timeout_seconds, true);
    return read_kit_run(run, tier, context.timeout_seconds);
}

KitRun read_kit_run(const ContainerRun& run, std::string_view tier, int timeout_seconds)
{
    KitRun out { std::nullopt, std::nullopt, run.seconds };
    if (auto why = why_no_output(run, tier, timeout_seconds, out.output))
        out.failure = kit_failure(*why);
    return out;
}

} // namespace dlenv::verify
