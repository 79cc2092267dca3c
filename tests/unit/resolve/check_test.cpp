// The worked cases of shared/reference/compat-examples.md, numbered as there, and the
// other rules of facts.md section 3, run against the embedded matrix. Each case states
// the verdict and the exact set of warning and error codes it must produce.

#include "core/error.h"
#include "core/pep440.h"
#include "matrix/matrix.h"
#include "resolve/check.h"
#include "resolve/query.h"
#include "resolve/report.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace dlenv;
using namespace dlenv::resolve;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using Codes = std::set<std::string>;

namespace {

// A query written the way a user types it on the command line.
struct Ask {
    std::vector<std::string> frameworks {};
    std::string cuda {};
    std::string cudnn {};
    std::string driver {};
    std::vector<std::string> gpus {};
    std::string python {};
    bool forward_compat = false;

    Query query() const
    {
        Query q;
        for (const auto& f : frameworks)
            q.frameworks.push_back(FrameworkRequest::parse(f));
        if (!cuda.empty())
            q.cuda = CudaVersion::parse(cuda);
        if (!cudnn.empty())
            q.cudnn = CudnnVersion::parse(cudnn);
        if (!driver.empty()) {
            auto request = DriverRequest::parse(driver);
            q.driver = request.release;
            q.driver_branch = request.branch;
        }
        if (!python.empty()) {
            auto request = PythonRequest::parse(python);
            q.python = request.version;
            q.free_threaded = request.free_threaded;
        }
        q.gpus = gpus;
        q.forward_compat = forward_compat;
        return q;
    }
};

Report check(const Ask& ask)
{
    return resolve::check(matrix::Matrix::embedded(), ask.query());
}

// The codes of every warning and error: info findings only explain, and unknown ones say
// what could not be told.
Codes problems(const Report& report)
{
    Codes out;
    for (const auto& f : report.findings)
        if (f.verdict == Verdict::warn || f.verdict == Verdict::fail)
            out.insert(f.code);
    return out;
}

bool has_code(const Report& report, const std::string& code)
{
    return std::any_of(
        report.findings.begin(), report.findings.end(), [&](const Finding& f) { return f.code == code; });
}

const Finding* finding(const Report& report, const std::string& code)
{
    for (const auto& f : report.findings)
        if (f.code == code)
            return &f;
    return nullptr;
}

bool suggests(const Report& report, const std::string& text)
{
    return std::find(report.suggestions.begin(), report.suggestions.end(), text) != report.suggestions.end();
}

bool suggests_containing(const Report& report, const std::string& part)
{
    return std::any_of(report.suggestions.begin(), report.suggestions.end(),
        [&](const std::string& s) { return s.find(part) != std::string::npos; });
}

// The report, printed with any failed check below it.
#define SHOW(report) INFO((report).to_json().dump(2))

Error error_of(const Ask& ask)
{
    try {
        check(ask);
    } catch (const Error& e) {
        return e;
    }
    FAIL("expected an Error");
    throw;
}

} // namespace

// --- The worked cases ----------------------------------------------------------

TEST_CASE("case 1: torch 2.1 (PyPI cu121) on driver 525.60.13 runs under minor-version compatibility, with a warning",
    "[resolve]")
{
    // Any GPU the cu121 wheel has cubins for: 5.0;6.0;7.0;7.5;8.0;8.6;9.0.
    auto gpu = GENERATE(as<std::string> {}, "", "T4", "A100 80GB SXM4", "RTX 3090", "H100 SXM5");
    CAPTURE(gpu);
    Ask ask { .frameworks = { "torch==2.1" }, .driver = "525.60.13" };
    if (!gpu.empty())
        ask.gpus = { gpu };
    Report r = check(ask);
    SHOW(r);
    CHECK(r.verdict() == Verdict::warn);
    // with no GPU named the image's gate is asked with no brand, and only a brand admits R525
    CHECK(problems(r)
        == (gpu.empty() ? Codes { "driver-minor-version-compat", "image-require-cuda" }
                        : Codes { "driver-minor-version-compat" }));
    CHECK(has_code(r, "framework-build"));
    CHECK(suggests(r, "for the full CUDA 12.1 feature set, upgrade the driver to >= 530.30.02"));
}

TEST_CASE("case 2: torch 2.1 cu121 on driver 470.57.02 with an RTX 3090 fails, the cu118 build would run", "[resolve]")
{
    Report r = check({ .frameworks = { "torch==2.1" }, .driver = "470.57.02", .gpus = { "RTX 3090" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "driver-too-old" });
    const Finding* too_old = finding(r, "driver-too-old");
    REQUIRE(too_old);
    CHECK(too_old->message
        == "driver 470.57.02 cannot run CUDA 12.1: the toolkit needs >= 530.30.02, and minor-version compatibility "
           "needs >= 525.60.13; forward compatibility (cuda-compat) is not an option on NVIDIA GeForce RTX 3090, only "
           "on data-center GPUs and Jetson");
    CHECK(suggests(r, "upgrade the driver to >= 530.30.02 (or >= 525.60.13 under minor-version compatibility)"));
    CHECK(suggests(r,
        "use cu118 (torch 2.1+cu118): driver >= 520.61.05, or >= 450.80.02 under minor-version "
        "compatibility (works, with warnings)"));
    CHECK_FALSE(suggests_containing(r, "cuda-compat-12-1")); // no forward compatibility on GeForce
}

TEST_CASE("case 4: CUDA 11.8 on driver 470.57.02 runs under minor-version compatibility, with a warning", "[resolve]")
{
    Report r = check({ .cuda = "11.8", .driver = "470.57.02" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::warn);
    // no GPU named: whether NVIDIA's 11.8 images start on R470 depends on the GPU's brand
    CHECK(problems(r) == Codes { "driver-minor-version-compat", "image-require-cuda" });
    CHECK(suggests(r, "for the full CUDA 11.8 feature set, upgrade the driver to >= 520.61.05"));
}

TEST_CASE("case 6: tensorflow 2.14 (CUDA 11.8) on driver 580.65.06 is ok: drivers are backward compatible", "[resolve]")
{
    Report r = check({ .frameworks = { "tensorflow==2.14" }, .driver = "580.65.06" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::ok);
    CHECK(problems(r).empty());
    CHECK(has_code(r, "driver-backward-compatible"));
}

TEST_CASE("case 9: tensorflow 2.14 with CUDA 12.2 and cuDNN 8.9 fails: it was built for CUDA 11", "[resolve]")
{
    Report r = check({ .frameworks = { "tensorflow==2.14" }, .cuda = "12.2", .cudnn = "8.9" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    // cuDNN 8.9 instead of the tested 8.7 is a second, lesser complaint.
    CHECK(problems(r) == Codes { "framework-cuda-untested", "cudnn-untested" });
    CHECK(suggests(r, "tensorflow 2.15 is tested with CUDA 12.2 and cuDNN 8.9"));
}

TEST_CASE("tensorflow on CUDA 10 needs its own minor, since CUDA 10's sonames carry it", "[resolve]")
{
    Report ten = check({ .frameworks = { "tensorflow==2.2" }, .cuda = "10.2" });
    CHECK(ten.verdict() == Verdict::fail);
    CHECK(finding(ten, "framework-cuda-untested")->message
        == "tensorflow 2.2 was built with CUDA 10.1 and loads its libraries by their minor's names "
           "(libcudart.so.10.1), "
           "which CUDA 10.2 does not have");
    // From CUDA 11 on one soname serves the major (but for 11.0's cuSOLVER): another minor is only untested.
    Report eleven = check({ .frameworks = { "tensorflow==2.5" }, .cuda = "11.4" });
    CHECK(eleven.verdict() == Verdict::warn);
    CHECK(finding(eleven, "framework-cuda-untested")->message == "tensorflow 2.5 was tested with CUDA 11.2, not 11.4");
}

TEST_CASE("tensorflow refuses a cuDNN of its major with an older minor, and only warns about a newer one", "[resolve]")
{
    Report older = check({ .frameworks = { "tensorflow==2.14" }, .cudnn = "8.6" });
    SHOW(older);
    CHECK(older.verdict() == Verdict::fail);
    CHECK(problems(older) == Codes { "cudnn-older-than-build" });
    CHECK(finding(older, "cudnn-older-than-build")->message
        == "tensorflow 2.14 was built with cuDNN 8.7 and refuses the older cuDNN 8.6 at run time, which needs the "
           "build's major and an equal or higher minor (\"Loaded runtime CuDNN library: 8.6 but source was compiled "
           "with: 8.7\")");
    CHECK(suggests(older, "install cuDNN 8.7 or a later 8.x"));
    Report newer = check({ .frameworks = { "tensorflow==2.14" }, .cudnn = "8.9" });
    CHECK(newer.verdict() == Verdict::warn);
    CHECK(problems(newer) == Codes { "cudnn-untested" });
}

TEST_CASE("case 10: tensorflow 2.15 with CUDA 12.2, cuDNN 8.9 and driver 535.104.05 is ok", "[resolve]")
{
    Report r = check({ .frameworks = { "tensorflow==2.15" }, .cuda = "12.2", .cudnn = "8.9", .driver = "535.104.05" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::ok);
    CHECK(problems(r).empty());
}

TEST_CASE("tensorflow[and-cuda] 2.15.0 cannot be installed from PyPI: its tensorrt-libs pin is not there", "[resolve]")
{
    Report r = check({ .frameworks = { "tensorflow[and-cuda]==2.15.0" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "pip-extra-uninstallable" });
    CHECK(finding(r, "pip-extra-uninstallable")->message
        == "tensorflow[and-cuda]==2.15.0 cannot be installed from PyPI: its extra pins tensorrt-libs==8.6.1, which "
           "PyPI "
           "does not publish ('No matching distribution found for tensorrt-libs==8.6.1')");
    CHECK(finding(r, "pip-extra-uninstallable")->why
        == "https://github.com/tensorflow/tensorflow/issues/66517 | "
           "https://github.com/tensorflow/tensorflow/pull/62520");
    CHECK(suggests(r, "use tensorflow[and-cuda]==2.15.0.post1, which drops the pin"));
    // the post-release drops the pin; without the extra pip installs no tensorrt; 2.15.1 is another release
    CHECK(problems(check({ .frameworks = { "tensorflow[and-cuda]==2.15.0.post1" } })).empty());
    CHECK(problems(check({ .frameworks = { "tensorflow==2.15.0" } })).empty());
    CHECK(problems(check({ .frameworks = { "tensorflow[and-cuda]==2.15.1" } })).empty());
    CHECK(problems(check({ .frameworks = { "tensorflow[and-cuda]==2.15" } })).empty());
}

TEST_CASE("tensorflow[and-cuda] 2.14.0 pins a tensorrt with no Python 3.11 wheel", "[resolve]")
{
    Report r = check({ .frameworks = { "tensorflow[and-cuda]==2.14.0" }, .python = "3.11" });
    SHOW(r);
    CHECK(problems(r) == Codes { "pip-extra-uninstallable" });
    CHECK(finding(r, "pip-extra-uninstallable")->message
        == "tensorflow[and-cuda]==2.14.0 cannot be installed from PyPI on Python 3.11 and newer: its extra pins "
           "tensorrt==8.5.3.1, which has no wheel for Python 3.11 ('No matching distribution found for "
           "tensorrt==8.5.3.1')");
    CHECK(r.suggestions.empty()); // no release of the line is on record to drop it
    CHECK(problems(check({ .frameworks = { "tensorflow[and-cuda]==2.14.0" }, .python = "3.10" })).empty());
    CHECK(problems(check({ .frameworks = { "tensorflow[and-cuda]==2.14.0" } })).empty()); // the Python decides
}

TEST_CASE("tensorflow[and-cuda] 2.16 and 2.17 do not find the NVIDIA libraries their extra installs", "[resolve]")
{
    Report r = check({ .frameworks = { "tensorflow[and-cuda]==2.16.1" }, .python = "3.11" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::warn);
    CHECK(problems(r) == Codes { "pip-extra-libraries-not-found" });
    CHECK_THAT(finding(r, "pip-extra-libraries-not-found")->message,
        StartsWith("tensorflow[and-cuda]==2.16.1 does not find the NVIDIA libraries its extra installs: unless CUDA's "
                   "libraries are on the loader path (a system CUDA, LD_LIBRARY_PATH), the GPU goes unused; "
                   "tf.config.list_physical_devices('GPU') is empty"));
    CHECK(suggests(r,
        "link the NVIDIA libraries into TensorFlow's package directory (ln -svf ../nvidia/*/lib/*.so* there), as "
        "https://www.tensorflow.org/install/pip shows for Linux"));
    CHECK(problems(check({ .frameworks = { "tensorflow[and-cuda]==2.17" } }))
        == Codes { "pip-extra-libraries-not-found" });
    // without the extra, TensorFlow loads the system's CUDA; 2.15 found its pip libraries
    CHECK(problems(check({ .frameworks = { "tensorflow==2.16.1" } })).empty());
    CHECK(problems(check({ .frameworks = { "tensorflow[and-cuda]==2.15.1" } })).empty());
}

TEST_CASE("case 13: CUDA 11.7 cannot target the RTX 4090 (sm_89 needs CUDA 11.8)", "[resolve]")
{
    Report r = check({ .cuda = "11.7", .gpus = { "RTX 4090" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "cuda-cannot-target-gpu" });
    CHECK(suggests_containing(r, "use CUDA >= 11.8"));
}

TEST_CASE("case 13: the workaround offered is sm_86, whose cubin runs on the RTX 4090", "[resolve]")
{
    Report r = check({ .cuda = "11.7", .gpus = { "RTX 4090" } });
    SHOW(r);
    CHECK(suggests(r, "use CUDA >= 11.8, or compile for sm_86 (its cubin runs on 8.9)"));
}

TEST_CASE("case 14: torch 1.13 cu117 on an RTX 4090 runs on its sm_86 cubins, with warnings", "[resolve]")
{
    Report r = check({ .frameworks = { "torch==1.13" }, .cuda = "11.7", .gpus = { "RTX 4090" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::warn);
    CHECK(problems(r) == Codes { "gpu-cubin-compatible", "gpu-extension-target" });
}

TEST_CASE("case 15: torch 1.12 cu116 has no kernel for an H100, torch 2.0 cu118 is the first that does", "[resolve]")
{
    auto gpu = GENERATE(as<std::string> {}, "H100 SXM5", "H100 PCIe", "sm_90");
    CAPTURE(gpu);
    Report r = check({ .frameworks = { "torch==1.12" }, .cuda = "11.6", .gpus = { gpu } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(has_code(r, "gpu-no-kernel"));
    // CUDA 11.6 cannot target sm_90 either.
    CHECK(problems(r) == Codes { "gpu-no-kernel", "gpu-extension-target" });
    CHECK(suggests_containing(r, "use torch 2.0 cu118 or newer: the first torch build with kernels for sm_90"));
}

TEST_CASE("a GPU older than a build's code is pointed at the last torch build with its kernels", "[resolve]")
{
    Report r = check({ .frameworks = { "torch==2.4" }, .gpus = { "K80" } });
    CHECK(has_code(r, "gpu-no-kernel"));
    CHECK(suggests_containing(
        r, "for Tesla K80 use torch 2.7 cu118 or older: the last torch build with kernels for sm_37"));
}

TEST_CASE("case 16: torch 2.0 cu117 (the PyPI default) fails on an H100, the cu118 build runs", "[resolve]")
{
    SECTION("the PyPI default")
    {
        Report r = check({ .frameworks = { "torch==2.0" }, .gpus = { "H100 SXM5" } });
        SHOW(r);
        CHECK(r.verdict() == Verdict::fail);
        // Besides the missing kernels: CUDA 11.7 cannot target sm_90, and the bundled
        // cuDNN 8.5 does not support compute capability 9.0.
        CHECK(problems(r) == Codes { "gpu-no-kernel", "gpu-extension-target", "cudnn-gpu-unsupported" });
        CHECK(suggests(r,
            "use cu118 (torch 2.0+cu118): driver >= 520.61.05, or >= 450.80.02 under minor-version "
            "compatibility"));
    }
    SECTION("cu117 named by label or by CUDA version")
    {
        auto ask = GENERATE(Ask { .frameworks = { "torch==2.0+cu117" }, .gpus = { "H100 SXM5" } },
            Ask { .frameworks = { "torch==2.0" }, .cuda = "11.7", .gpus = { "H100 SXM5" } });
        Report r = check(ask);
        SHOW(r);
        CHECK(r.verdict() == Verdict::fail);
        CHECK(has_code(r, "gpu-no-kernel"));
    }
    SECTION("cu118 named by label or by CUDA version")
    {
        auto ask = GENERATE(Ask { .frameworks = { "torch==2.0+cu118" }, .gpus = { "H100 SXM5" } },
            Ask { .frameworks = { "torch==2.0" }, .cuda = "11.8", .gpus = { "H100 SXM5" } });
        Report r = check(ask);
        SHOW(r);
        CHECK(r.verdict() == Verdict::ok);
        CHECK(problems(r).empty());
        CHECK(has_code(r, "gpu-cubin"));
    }
}

TEST_CASE("case 21: torch 2.8 cu128 has no kernel for a GTX 1080 Ti (sm_61), cu126 runs it", "[resolve]")
{
    Report r = check({ .frameworks = { "torch==2.8" }, .cuda = "12.8", .gpus = { "GTX 1080 Ti" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    // cuDNN 9.10.2 (the cu128 wheel's) also supports Pascal only as deprecated.
    CHECK(problems(r) == Codes { "gpu-no-kernel", "cudnn-gpu-deprecated" });
    CHECK(suggests_containing(r, "use cu126"));
    CHECK(suggests(r,
        "use cu126 (torch 2.8+cu126): driver >= 560.28.03, or >= 525.60.13 under minor-version "
        "compatibility (works, with warnings)"));
    CHECK_FALSE(suggests_containing(r, "use cu129")); // cu129 drops Pascal too
}

TEST_CASE("case 24: a host CUDA of another major breaks extension builds against torch 2.1.2+cu121", "[resolve]")
{
    Report r = check({ .frameworks = { "torch==2.1.2+cu121" }, .cuda = "11.8" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "cpp-extension-cuda-mismatch" });
    CHECK(has_code(r, "framework-build")); // torch itself runs, as cu121
}

TEST_CASE("case 24: a host CUDA of another minor only warns when building extensions", "[resolve]")
{
    Report r = check({ .frameworks = { "torch==2.1.2+cu121" }, .cuda = "12.4" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::warn);
    CHECK(problems(r) == Codes { "cpp-extension-cuda-minor" });
}

TEST_CASE("case 25: torchaudio 2.0.1 is built for torch 2.0.0 and cannot go with torch 2.0.1", "[resolve]")
{
    Report r = check({ .frameworks = { "torch==2.0.1", "torchaudio==2.0.1" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "companion-mismatch" });
    CHECK(suggests(r, "use torchaudio 2.0.2 with torch 2.0.1"));
}

TEST_CASE("case 25: torchaudio 2.0.2 pairs with torch 2.0.1", "[resolve]")
{
    Report r = check({ .frameworks = { "torch==2.0.1", "torchaudio==2.0.2" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::ok);
    CHECK(has_code(r, "companion-paired"));
}

// --- Other rules of facts.md section 3 -----------------------------------------

TEST_CASE("torch 2.1 has no CUDA 12.2 build, both of its builds are suggested with their driver floors", "[resolve]")
{
    Report r = check({ .frameworks = { "torch==2.1" }, .cuda = "12.2" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "framework-no-cuda-build" });
    CHECK(r.findings.front().message
        == "torch 2.1 has no CUDA 12.2 build; its builds: cu118 (CUDA 11.8) and cu121 (CUDA 12.1, experimental)");
    CHECK(r.suggestions
        == std::vector<std::string> {
            "use cu118 (torch 2.1+cu118): driver >= 520.61.05, or >= 450.80.02 under minor-version compatibility",
            "use cu121 (torch 2.1+cu121): driver >= 530.30.02, or >= 525.60.13 under minor-version compatibility",
        });
}

TEST_CASE("forward compatibility on a GeForce GPU is refused (cudaErrorCompatNotSupportedOnDevice)", "[resolve]")
{
    auto gpu = GENERATE(as<std::string> {}, "RTX 3090", "RTX 4090", "RTX A6000");
    CAPTURE(gpu);
    Report r = check({ .cuda = "12.1", .driver = "470.57.02", .gpus = { gpu }, .forward_compat = true });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "forward-compat-unsupported-gpu" });
    const Finding* refused = finding(r, "forward-compat-unsupported-gpu");
    REQUIRE(refused);
    CHECK_THAT(refused->message, Contains("cudaErrorCompatNotSupportedOnDevice (804)"));
    CHECK(refused->subject == r.findings.back().subject);
    CHECK(suggests(r, "upgrade the driver to >= 530.30.02 (or >= 525.60.13 under minor-version compatibility)"));
}

TEST_CASE(
    "forward compatibility on a data-center GPU runs a newer CUDA major on an old driver, with a warning", "[resolve]")
{
    auto gpu = GENERATE(as<std::string> {}, "A100 80GB SXM4", "T4", "H100 SXM5");
    CAPTURE(gpu);
    Report r = check({ .cuda = "12.1", .driver = "470.57.02", .gpus = { gpu }, .forward_compat = true });
    SHOW(r);
    CHECK(r.verdict() == Verdict::warn);
    CHECK(problems(r) == Codes { "driver-forward-compat" });
}

TEST_CASE("a family name stands for its variants: A100, H100, H200 and V100 check as every variant does", "[resolve]")
{
    auto [family, variant, sm] = GENERATE(table<std::string, std::string, std::string>({
        { "A100", "A100 80GB SXM4", "sm_80" },
        { "H100", "H100 SXM5", "sm_90" },
        { "H200", "H200 SXM", "sm_90" },
        { "V100", "V100 SXM2 32GB", "sm_70" },
    }));
    CAPTURE(family);
    Report by_family
        = check({ .frameworks = { "torch==2.1" }, .cuda = "11.8", .driver = "535.104.05", .gpus = { family } });
    Report by_variant
        = check({ .frameworks = { "torch==2.1" }, .cuda = "11.8", .driver = "535.104.05", .gpus = { variant } });
    SHOW(by_family);
    CHECK(by_family.verdict() == Verdict::ok);
    CHECK(by_family.verdict() == by_variant.verdict());
    const Finding* cubin = finding(by_family, "gpu-cubin");
    REQUIRE(cubin);
    CHECK(cubin->subject == family);
    CHECK(cubin->message == "torch 2.1 cu118 carries " + sm + " kernels for " + family);
    Report forward = check({ .cuda = "12.1", .driver = "470.57.02", .gpus = { family }, .forward_compat = true });
    CHECK(problems(forward) == Codes { "driver-forward-compat" });
    std::string lower = family;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    CHECK(finding(check({ .frameworks = { "torch==2.1" }, .cuda = "11.8", .gpus = { lower } }), "gpu-cubin")->subject
        == family);
}

TEST_CASE("a bare data-center compute capability may use forward compatibility, one sold in several segments is "
          "unknown, not GeForce",
    "[resolve]")
{
    // NVIDIA's CUDA GPUs list has data-center parts only for 8.0 (A100, A30) and 9.0 (GH200, H200, H100).
    for (std::string sm : { "sm_80", "sm_90", "8.0" }) {
        CAPTURE(sm);
        Report r = check({ .cuda = "12.1", .driver = "470.57.02", .gpus = { sm }, .forward_compat = true });
        SHOW(r);
        CHECK(problems(r) == Codes { "driver-forward-compat" });
    }
    // sm_86 is the A10's and the RTX 3090's: whether forward compatibility works depends on the part.
    Report shared = check({ .cuda = "12.1", .driver = "470.57.02", .gpus = { "sm_86" }, .forward_compat = true });
    SHOW(shared);
    CHECK(shared.verdict() == Verdict::warn);
    // The image's gate cannot tell the brand of a bare compute capability either.
    CHECK(problems(shared) == Codes { "driver-forward-compat", "forward-compat-gpu-unknown", "image-require-cuda" });
    const Finding* unknown = finding(shared, "forward-compat-gpu-unknown");
    REQUIRE(unknown);
    CHECK(unknown->subject == "sm_86");
    CHECK(unknown->message
        == "forward compatibility (cuda-compat-12-1) works only on data-center GPUs and Jetson, and sm_86 is sold as "
           "datacenter, workstation and geforce parts: name the model to know whether it works");
    // Without --forward-compat, sm_86 is neither offered cuda-compat nor told it is not an option.
    Report plain = check({ .cuda = "12.1", .driver = "470.57.02", .gpus = { "sm_86" } });
    const Finding* too_old = finding(plain, "driver-too-old");
    REQUIRE(too_old);
    CHECK(too_old->message
        == "driver 470.57.02 cannot run CUDA 12.1: the toolkit needs >= 530.30.02, and "
           "minor-version compatibility needs >= 525.60.13");
    CHECK_FALSE(
        suggests(plain, "or keep the driver and install cuda-compat-12-1 (forward compatibility, --forward-compat)"));
    // A known GeForce model still fails.
    Report geforce = check({ .cuda = "12.1", .driver = "470.57.02", .gpus = { "RTX 3090" }, .forward_compat = true });
    CHECK(problems(geforce) == Codes { "forward-compat-unsupported-gpu" });
}

TEST_CASE(
    "a build whose PTX is not on record says so, and cannot run is said only where no PTX could help", "[resolve]")
{
    // torch.json: 2.9 cu130 carries 7.5;8.0;8.6;9.0;10.0;12.0 (KB_ARCHS), its PTX is null.
    Report thor = check({ .frameworks = { "torch==2.9.0+cu130" }, .gpus = { "sm_110" } });
    SHOW(thor);
    const Finding* unknown = finding(thor, "gpu-ptx-unknown");
    REQUIRE(unknown);
    CHECK(unknown->verdict == Verdict::warn);
    CHECK(unknown->message
        == "torch 2.9.0 cu130 has no cubin for sm_110 (7.5;8.0;8.6;9.0;10.0;12.0 (PTX not on record)), and which "
           "architectures it carries PTX for is not on record: whether it runs on sm_110 is not known");
    // Every listed architecture is newer than 6.1: no PTX of theirs can run on a GTX 1080 Ti.
    Report pascal = check({ .frameworks = { "torch==2.9.0+cu130" }, .gpus = { "GTX 1080 Ti" } });
    const Finding* none = finding(pascal, "gpu-no-kernel");
    REQUIRE(none);
    CHECK_THAT(none->message, Contains("its GPU code is 7.5;8.0;8.6;9.0;10.0;12.0 (PTX not on record)"));
    // A list known to hold no PTX still says "no PTX".
    Report known = check({ .frameworks = { "torch==2.1.2+cu118" }, .gpus = { "RTX 4090" } });
    CHECK_THAT(finding(known, "gpu-cubin-compatible")->message, Contains("(no PTX)"));
}

TEST_CASE(
    "a cuDNN build whose compute capabilities are not on record says it cannot tell, without failing", "[resolve]")
{
    // cudnn.json: 9.1.0's compute_capabilities are null (not in the excerpt read).
    Report r = check({ .frameworks = { "torch==2.4.0" }, .gpus = { "A100 80GB SXM4" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::ok);
    const Finding* unknown = finding(r, "cudnn-gpu-support-unknown");
    REQUIRE(unknown);
    CHECK(unknown->verdict == Verdict::unknown);
    CHECK(unknown->message
        == "the compute capabilities cuDNN 9.1.0 (CUDA 12.0-12.4 build) supports are not on record: whether it "
           "supports NVIDIA A100-SXM4-80GB is not known");
}

TEST_CASE("an architecture's last driver series: a newer driver is an error, and a CUDA line no driver of it runs is "
          "one too",
    "[resolve]")
{
    // NVIDIA's deprecation schedule: 580 is the last series for Maxwell, Pascal and Volta; 470 for Kepler.
    Report titan = check({ .cuda = "12.8", .driver = "590.44.01", .gpus = { "TITAN V" } });
    SHOW(titan);
    const Finding* dropped = finding(titan, "driver-dropped-gpu");
    REQUIRE(dropped);
    CHECK(dropped->verdict == Verdict::fail);
    CHECK(dropped->message
        == "driver 590.44.01 does not support NVIDIA TITAN V: the 580 series is the last that supports Volta "
           "(compute capability 7.0)");
    CHECK(suggests(titan, "use a 580-series (or older) driver for NVIDIA TITAN V"));
    CHECK_FALSE(
        has_code(check({ .cuda = "12.8", .driver = "580.95.05", .gpus = { "TITAN V" } }), "driver-dropped-gpu"));

    Report kepler = check({ .cuda = "12.1", .gpus = { "K80" } });
    SHOW(kepler);
    const Finding* none = finding(kepler, "no-driver-for-gpu");
    REQUIRE(none);
    CHECK(none->message
        == "no driver runs CUDA 12.1 on Tesla K80: CUDA 12.1 needs driver >= 525.60.13, and the 470 series is the last "
           "that supports Kepler (compute capability 3.7)");
    CHECK_FALSE(has_code(check({ .cuda = "11.8", .gpus = { "K80" } }), "no-driver-for-gpu"));
}

TEST_CASE("without forward compatibility, a data-center GPU on an old driver is told about cuda-compat", "[resolve]")
{
    Report r = check({ .cuda = "12.1", .driver = "470.57.02", .gpus = { "A100 80GB SXM4" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "driver-too-old" });
    CHECK(suggests(r, "or keep the driver and install cuda-compat-12-1 (forward compatibility, --forward-compat)"));
}

TEST_CASE("Blackwell: an RTX 5090 needs driver 570.26 even where CUDA 12.8 would run under minor-version "
          "compatibility",
    "[resolve]")
{
    Report r = check({ .cuda = "12.8", .driver = "560.35.03", .gpus = { "RTX 5090" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    // and NVIDIA's 12.8 images admit no GeForce below their cuda>=12.8
    CHECK(problems(r) == Codes { "driver-too-old-for-gpu", "driver-minor-version-compat", "image-require-cuda" });
}

TEST_CASE("a Python outside the framework's range is an error naming the range", "[resolve]")
{
    auto [framework, python, range] = GENERATE(table<std::string, std::string, std::string>({
        { "torch==2.1", "3.12", "3.8-3.11" }, { "torch==2.1", "3.7", "3.8-3.11" },
        { "tensorflow==2.15", "3.12", "3.9-3.11" },
        { "torch==1.7.0", "3.9", "3.6-3.8" }, // Python 3.9 wheels came with 1.7.1
    }));
    CAPTURE(framework, python);
    Report r = check({ .frameworks = { framework }, .python = python });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "python-unsupported" });
    const Finding* unsupported = finding(r, "python-unsupported");
    REQUIRE(unsupported);
    CHECK_THAT(unsupported->message, Contains("supports Python " + range + ", not " + python));
}

TEST_CASE("a Python a torch line supports experimentally warns, citing PyTorch's release matrix", "[resolve]")
{
    // RELEASE.md: 2.2 and 2.3 ">=3.8, <=3.11, (3.12 experimental)"; 2.5 ">=3.9, <=3.12, (3.13 experimental)".
    auto [framework, python, message] = GENERATE(table<std::string, std::string, std::string>({
        { "torch==2.5.1", "3.13", "torch 2.5.1 cu124 supports Python 3.9-3.12; its support of 3.13 is experimental" },
        { "torch==2.5", "3.13.1", "torch 2.5 cu124 supports Python 3.9-3.12; its support of 3.13.1 is experimental" },
        { "torch==2.2", "3.12", "torch 2.2 cu121 supports Python 3.8-3.11; its support of 3.12 is experimental" },
        { "torch==2.3.1", "3.12", "torch 2.3.1 cu121 supports Python 3.8-3.11; its support of 3.12 is experimental" },
    }));
    CAPTURE(framework, python);
    Report r = check({ .frameworks = { framework }, .python = python });
    SHOW(r);
    CHECK(r.verdict() == Verdict::warn);
    CHECK(problems(r) == Codes { "python-experimental" });
    const Finding* experimental = finding(r, "python-experimental");
    REQUIRE(experimental);
    CHECK(experimental->message == message);
    CHECK_THAT(experimental->why, Contains("RELEASE.md"));
    // One minor further is still unsupported.
    CHECK(problems(check({ .frameworks = { "torch==2.4" }, .python = "3.13" })) == Codes { "python-unsupported" });
}

TEST_CASE("a release candidate or nightly is judged by its release's facts, with a warning", "[resolve]")
{
    Report rc = check({ .frameworks = { "torch==2.6.0rc1" } });
    SHOW(rc);
    CHECK(rc.verdict() == Verdict::warn);
    CHECK(problems(rc) == Codes { "framework-pre-release" });
    CHECK(finding(rc, "framework-pre-release")->message
        == "torch==2.6.0rc1 is a pre-release, judged by the facts of torch 2.6.0: a pre-release's builds and pins may "
           "differ from its release's");
    // the nightlies that first ran on an RTX 5090
    Report nightly = check({ .frameworks = { "torch==2.7.0.dev20250301+cu128" }, .gpus = { "RTX 5090" } });
    SHOW(nightly);
    CHECK(problems(nightly) == Codes { "framework-pre-release" });
    CHECK(has_code(nightly, "gpu-cubin"));
    // a pre-release of a release the matrix does not hold is not on record
    CHECK(error_of({ .frameworks = { "tensorflow==2.16.0rc0" } }).message()
        == "the matrix has no tensorflow 2.16.0rc0 (its tensorflow 2.16 releases begin at 2.16.1)");
}

TEST_CASE("a Python inside the range, patch level included, is accepted", "[resolve]")
{
    Report r = check({ .frameworks = { "torch==2.1" }, .python = "3.11.8" });
    SHOW(r);
    CHECK_FALSE(has_code(r, "python-unsupported"));
    CHECK_FALSE(has_code(check({ .frameworks = { "torch==1.7.1" }, .python = "3.9" }), "python-unsupported"));
}

// --- Bad input -----------------------------------------------------------------

TEST_CASE("a CUDA version that was never released is bad input naming the nearest releases", "[resolve]")
{
    Error e = error_of({ .cuda = "12.7" });
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message() == "CUDA 12.7 is not a CUDA release");
    CHECK(e.hint() == "nearest known: 12.6 and 12.8");
}

TEST_CASE("an unknown GPU is bad input with a did-you-mean hint", "[resolve]")
{
    Error e = error_of({ .gpus = { "RTX 4099" } });
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message() == "unknown GPU 'RTX 4099'");
    CHECK_THAT(e.hint(), StartsWith("did you mean RTX 4090"));

    // The brand words nvidia-smi prints are not part of the name the hint is measured against.
    Error branded = error_of({ .gpus = { "NVIDIA GeForce RTX 4099" } });
    CHECK(branded.message() == "unknown GPU 'NVIDIA GeForce RTX 4099'");
    CHECK(branded.hint() == e.hint());
}

TEST_CASE("a model named with nvidia-smi's brand words resolves as without them", "[resolve]")
{
    auto [typed, label] = GENERATE(table<std::string, std::string>({
        { "NVIDIA GeForce RTX 3080", "NVIDIA GeForce RTX 3080" },
        { "GeForce RTX 3080", "RTX 3080" },
        { "Tesla V100", "V100" },
        { "NVIDIA Tesla T4", "Tesla T4" },
        { "nvidia a100", "A100" },
    }));
    CAPTURE(typed);
    Report r = check({ .frameworks = { "torch==2.1.2+cu118" }, .gpus = { typed } });
    const Finding* cubin = finding(r, "gpu-cubin");
    REQUIRE(cubin);
    CHECK(cubin->subject == label);
    Error e = error_of({ .gpus = { "NVIDIA GeForce RTX 4099" } });
    CHECK(e.message() == "unknown GPU 'NVIDIA GeForce RTX 4099'");
}

TEST_CASE("a compute capability no architecture has is bad input", "[resolve]")
{
    Error e = error_of({ .gpus = { "sm_99" } });
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message() == "unknown compute capability 9.9");
    CHECK_THAT(e.hint(), StartsWith("known: "));
}

TEST_CASE("framework requests are NAME==VERSION for a framework dlenv knows", "[resolve]")
{
    auto [text, message, hint] = GENERATE(table<std::string, std::string, std::string>({
        { "pytorch==2.1", "unknown framework 'pytorch'",
            "did you mean torch? known: torch, torchvision, torchaudio, tensorflow and jax" },
        // PyPI's tensorflow-gpu: GPU builds up to 2.11.0, then a stub saying the package was removed.
        { "tensorflow-gpu==2.14",
            "'tensorflow-gpu' was retired after 2.11: its GPU build is the tensorflow package itself",
            "write tensorflow==VERSION (tensorflow[and-cuda] installs CUDA from pip for 2.14 and later); see "
            "https://pypi.org/project/tensorflow-gpu/" },
        { "tensorflow-gpu==2.12.0",
            "'tensorflow-gpu' was retired after 2.11: its GPU build is the tensorflow package itself",
            "write tensorflow==VERSION (tensorflow[and-cuda] installs CUDA from pip for 2.14 and later); see "
            "https://pypi.org/project/tensorflow-gpu/" },
        { "torch", "'torch' does not name a version", "write NAME==VERSION, e.g. torch==2.1 or tensorflow==2.15.0" },
        { "torch>=2.1", "'torch>=2.1' does not name a version",
            "write NAME==VERSION, e.g. torch==2.1 or tensorflow==2.15.0" },
        { "torch==2", "'2' is not a release of torch",
            "write a release line or version, e.g. torch==2.1 or torch==2.1.2" },
        { "torch==2.1rc1", "'2.1rc1' is not a release of torch",
            "write a release line or version, e.g. torch==2.1 or torch==2.1.2" },
        { "torch==latest", "'latest' is not a release of torch",
            "write a release line or version, e.g. torch==2.1 or torch==2.1.2" },
        { "tensorflow[and-cuda==2.16", "'tensorflow[and-cuda==2.16' does not name one pip extra",
            "write NAME[EXTRA]==VERSION, e.g. tensorflow[and-cuda]==2.16 or jax[cuda12]==0.4.31" },
        { "jax[cuda12,tpu]==0.4.31", "'jax[cuda12,tpu]==0.4.31' does not name one pip extra",
            "write NAME[EXTRA]==VERSION, e.g. tensorflow[and-cuda]==2.16 or jax[cuda12]==0.4.31" },
        { "jax[]==0.4.31", "'jax[]==0.4.31' does not name one pip extra",
            "write NAME[EXTRA]==VERSION, e.g. tensorflow[and-cuda]==2.16 or jax[cuda12]==0.4.31" },
    }));
    CAPTURE(text);
    try {
        FrameworkRequest::parse(text);
        FAIL("expected an Error");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.message() == message);
        CHECK(e.hint() == hint);
    }
}

TEST_CASE("a framework request keeps its extra, version and local label apart", "[resolve]")
{
    auto [text, framework, extra, version, local]
        = GENERATE(table<std::string, Framework, std::string, std::string, std::string>({
            { "torch==2.1", Framework::torch, "", "2.1", "" },
            { "torch==2.1.2+cu118", Framework::torch, "", "2.1.2", "cu118" },
            { "tensorflow==2.15.0", Framework::tensorflow, "", "2.15.0", "" },
            { "tensorflow[and-cuda]==2.16", Framework::tensorflow, "and-cuda", "2.16", "" },
            { "torchaudio==2.0.1", Framework::torchaudio, "", "2.0.1", "" },
            { "jax==0.4.30", Framework::jax, "", "0.4.30", "" },
            { "jax[cuda12_local]==0.4.30", Framework::jax, "cuda12_local", "0.4.30", "" },
        }));
    CAPTURE(text);
    auto request = FrameworkRequest::parse(text);
    CHECK(request.framework == framework);
    CHECK(request.extra == extra);
    CHECK(request.version == version);
    CHECK(request.local == local);
    CHECK(request.text() == text);
}

TEST_CASE("tensorflow-gpu up to 2.11 is read as tensorflow, the build it names", "[resolve]")
{
    for (const auto& [text, version] :
        { std::pair { "tensorflow-gpu==2.3.0", "2.3.0" }, { "tensorflow_gpu==2.11", "2.11" } }) {
        CAPTURE(text);
        auto request = FrameworkRequest::parse(text);
        CHECK(request.framework == Framework::tensorflow);
        CHECK(request.text() == "tensorflow==" + std::string(version));
    }
    // Before 2.1 the tensorflow package was the CPU build: tensorflow-gpu 2.0 is not tensorflow 2.0.
    Error old = error_of({ .frameworks = { "tensorflow-gpu==2.0.0" } });
    CHECK(old.message()
        == "the matrix has no tensorflow-gpu 2.0.0: before 2.1 it is the GPU build of a TensorFlow whose tensorflow "
           "package is CPU-only");
    CHECK(old.hint() == "check tensorflow 2.1 or newer, whose tensorflow package is the GPU build");
}

TEST_CASE("a jax extra names its build, which a CUDA outside it contradicts", "[resolve][jax]")
{
    Error e = error_of({ .frameworks = { "jax[cuda11_pip]==0.4.20" }, .cuda = "12.2" });
    CHECK(e.message() == "jax[cuda11_pip]==0.4.20 is JAX's CUDA 11.8-11.99 build, not one for CUDA 12.2");
    CHECK(e.hint() == "drop the extra, or name the build of CUDA 12.2");
    // The CUDA 12 build's floor release has no CUDA 12.1 build (cuDNN 8.8 is CUDA 12.0 only); 8.9's does.
    CHECK(check({ .frameworks = { "jax==0.4.10" }, .cuda = "12.1" }).verdict() == Verdict::ok);
}

TEST_CASE("an extra the framework's build does not have is bad input naming the ones it has", "[resolve]")
{
    Error e = error_of({ .frameworks = { "tensorflow[and-cuda]==2.13" } });
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message() == "tensorflow[and-cuda]==2.13: tensorflow 2.13 has no extra 'and-cuda'");
    CHECK(e.hint() == "drop [and-cuda]: tensorflow 2.13 has no pip extra that brings CUDA");
    e = error_of({ .frameworks = { "jax[cuda11]==0.4.31" } });
    CHECK(e.message() == "jax[cuda11]==0.4.31: jax 0.4.31 cuda12 has no extra 'cuda11'");
    CHECK(e.hint() == "its extras: cuda12 and cuda12_local");
    // with another framework beside it, the same check names it
    e = error_of({ .frameworks = { "torch==2.6.0", "tensorflow[cuda]==2.16" } });
    CHECK(e.message() == "tensorflow[cuda]==2.16: tensorflow 2.16 has no extra 'cuda'");
    CHECK(e.hint() == "its extras: and-cuda");
}

TEST_CASE("a patch release the line does not have is bad input listing the line's releases", "[resolve]")
{
    Error e = error_of({ .frameworks = { "torch==2.1.7" } });
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message() == "torch 2.1.7 is not a release");
    CHECK(e.hint() == "releases of torch 2.1: 2.1.0, 2.1.1 and 2.1.2");
}

TEST_CASE("a release line the matrix does not have is bad input naming the lines on either side", "[resolve]")
{
    // Numeric neighbours: by spelling, 2.1 would be nearest to 2.15 and 1.12 to 1.14.
    Error e = error_of({ .frameworks = { "torch==1.14" } });
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message() == "the matrix has no torch 1.14");
    CHECK(e.hint() == "nearest known lines: 1.13 and 2.0");
}

TEST_CASE("a line older than every row says where the matrix begins", "[resolve]")
{
    Error e = error_of({ .frameworks = { "torch==0.4.1" } });
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message() == "the matrix has no torch 0.4 (its oldest torch line is 1.0)");
    CHECK(e.hint()
        == "lines before 1.0 are not on record: check torch 1.0 or newer, or add the line's row to DIR/torch.json "
           "from its sources and pass --matrix DIR");
    e = error_of({ .frameworks = { "tensorflow==1.15" } });
    CHECK(e.message() == "the matrix has no tensorflow 1.15 (its oldest tensorflow line is 2.1)");
}

TEST_CASE("a line newer than every row points at the refresh that proposes its rows", "[resolve]")
{
    // Read from the matrix, so the case holds after a refresh adds a line.
    std::string newest;
    for (const auto& release : matrix::Matrix::embedded().torch_releases())
        if (newest.empty() || Pep440Version::parse(newest) < Pep440Version::parse(release.line))
            newest = release.line;

    for (const auto& [wanted, line] : { std::pair { "torch==9.9", "9.9" }, { "torch==10.0.1", "10.0" } }) {
        Error e = error_of({ .frameworks = { wanted } });
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.message()
            == "the matrix has no torch " + std::string(line) + " (its newest torch line is " + newest + ")");
        CHECK(e.hint()
            == "a release newer than the matrix: `dlenv matrix refresh --out DIR` proposes its rows from the wheel "
               "index; review them, then pass --matrix DIR");
    }

    // The refresh lists TensorFlow's and JAX's releases; their rows are written by hand.
    Error e = error_of({ .frameworks = { "jax==9.1" } });
    CHECK_THAT(e.message(), StartsWith("the matrix has no jax 9.1 (its newest jax line is "));
    CHECK(e.hint()
        == "a release newer than the matrix: `dlenv matrix refresh --out DIR` lists its releases; add the line's row "
           "(CUDA, cuDNN, Python) to DIR/jax.json from the vendor's tested builds, then pass --matrix DIR");
}

TEST_CASE("a cuDNN version the matrix does not know is bad input", "[resolve]")
{
    Error e = error_of({ .cudnn = "7.3" });
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message() == "cuDNN 7.3 is not a release the matrix knows");
    CHECK(e.hint() == "nearest known: 7.1.2 and 7.4.1");
}

TEST_CASE("one framework named twice is bad input", "[resolve]")
{
    Error e = error_of({ .frameworks = { "torch==2.1", "torch==2.6" } });
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message() == "one environment holds one torch: torch==2.1 and torch==2.6");
    CHECK(e.hint() == "name each framework once");
}

TEST_CASE(
    "a toolkit past an architecture's last CUDA cannot target it; an update of that last line still can", "[resolve]")
{
    Report dropped = check({ .cuda = "13.0", .gpus = { "V100S" } });
    SHOW(dropped);
    CHECK(dropped.verdict() == Verdict::fail);
    CHECK(problems(dropped) == Codes { "cuda-dropped-gpu" });
    CHECK(suggests(dropped, "use CUDA <= 12.9 for Tesla V100S-PCIE-32GB"));

    Report update = check({ .cuda = "12.9.1", .gpus = { "V100S" } });
    SHOW(update);
    CHECK(update.verdict() == Verdict::ok);
    CHECK(has_code(update, "cuda-targets-gpu"));
}

// --- Driver releases, update releases and cuDNN support notes --------------------------

TEST_CASE("a driver given as its branch is read as the branch's newest release, and its first releases are "
          "judged too",
    "[resolve]")
{
    Report r = check({ .frameworks = { "torch==2.1.2" }, .driver = "535" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::ok);
    CHECK(r.findings.front().code == "driver-branch");
    CHECK(r.findings.front().message
        == "driver 535 is read as 535.288.01, the newest 535 release on record (what a distribution's "
           "nvidia-driver-535 package installs): give the release nvidia-smi shows for an answer about it");
    CHECK(r.findings.front().why == "https://github.com/NVIDIA/open-gpu-kernel-modules/tags");
    CHECK(finding(r, "driver-backward-compatible")->message
        == "driver 535.288.01 runs CUDA 12.1 applications (the CUDA 12.1 toolkit driver is 530.30.02; newer drivers "
           "run older CUDA)");

    // 525.47.04 predates CUDA 12.0's 525.60.13
    Report early = check({ .cuda = "12.0", .driver = "525" });
    SHOW(early);
    CHECK(early.verdict() == Verdict::warn);
    CHECK(problems(early) == Codes { "driver-branch-early-release" });
    CHECK(finding(early, "driver-branch-early-release")->message
        == "not every 525 release runs it: driver 525.47.04 cannot run CUDA 12.0: the toolkit needs >= 525.60.13, "
           "and minor-version compatibility needs >= 525.60.13");

    // a branch whose list is partial says so; one that fails fails on its newest release
    Report old = check({ .frameworks = { "torch==2.1.2" }, .driver = "470" });
    CHECK(old.verdict() == Verdict::fail);
    CHECK_THAT(old.findings.front().message,
        Contains("470.141.10, the newest 470 release on record (what a distribution's nvidia-driver-470 package "
                 "installs); the 470 releases on record are a partial list"));
    CHECK(problems(old) == Codes { "driver-too-old" });

    Error unknown = error_of({ .cuda = "11.8", .driver = "390" });
    CHECK(unknown.message() == "driver 390 is no driver branch the matrix lists releases of");
    CHECK_THAT(unknown.hint(),
        StartsWith("give the release nvidia-smi shows (535.104.05); branches on record: 595, 590, 580,"));
    CHECK(error_of({ .driver = "99999" }).message() == "'99999' is not a driver version");
}

TEST_CASE("a driver number no Linux release carries warns, naming the nearest releases", "[resolve]")
{
    // NVIDIA's vGPU documentation lists 535.154.02 as a host driver; the Linux driver of that
    // release is 535.154.05.
    Report r = check({ .cuda = "12.2", .driver = "535.154.02", .gpus = { "A100" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::warn);
    CHECK(problems(r) == Codes { "driver-not-released" });
    const Finding* unreleased = finding(r, "driver-not-released");
    REQUIRE(unreleased);
    CHECK(unreleased->message == "driver 535.154.02 is not a released Linux driver; nearest: 535.154.05");
    CHECK(unreleased->why == "https://github.com/NVIDIA/open-gpu-kernel-modules/tags");
    CHECK(suggests(r,
        "name the driver nvidia-smi reports where the container runs (in the VM on a vGPU host): vGPU host and "
        "Windows drivers carry numbers of their own"));
    CHECK(has_code(r, "driver-backward-compatible")); // the floors still judge the number

    Report released = check({ .cuda = "12.2", .driver = "535.154.05", .gpus = { "A100" } });
    CHECK(released.verdict() == Verdict::ok);
    CHECK_FALSE(has_code(released, "driver-not-released"));
    CHECK_FALSE(has_code(released, "driver-release-unknown"));
}

TEST_CASE("a driver the release lists cannot place is said to be unknown, not unreleased", "[resolve]")
{
    auto [driver, why] = GENERATE(table<std::string, std::string>({
        { "595.60.01", "it is newer than the Linux releases of branch 595 the matrix lists (through 595.45.04)" },
        { "450.57", "the matrix lists only some Linux releases of branch 450" },
        { "620.10.01", "the matrix lists no Linux releases of branch 620" },
    }));
    CAPTURE(driver);
    Report r = check({ .driver = driver });
    SHOW(r);
    CHECK(r.verdict() == Verdict::ok);
    CHECK(problems(r).empty());
    const Finding* unknown = finding(r, "driver-release-unknown");
    REQUIRE(unknown);
    CHECK(unknown->message == "whether driver " + driver + " is a released Linux driver is not known: " + why);
}

TEST_CASE("a CUDA update release is checked against its line's floor", "[resolve]")
{
    Report r = check({ .cuda = "12.3.2", .driver = "545.23.08", .gpus = { "H100" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::ok);
    CHECK(problems(r).empty());
    CHECK(finding(r, "driver-backward-compatible")->message
        == "driver 545.23.08 runs CUDA 12.3 applications (the CUDA 12.3 toolkit driver is 545.23.06; newer drivers "
           "run older CUDA)");
}

TEST_CASE("cuDNN 9.10.2 supports Pascal only as deprecated: torch 2.8 cu126 on a GTX 1080 Ti warns", "[resolve]")
{
    Report r = check({ .frameworks = { "torch==2.8+cu126" }, .driver = "570.124.06", .gpus = { "GTX 1080 Ti" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::warn);
    CHECK(problems(r) == Codes { "cudnn-gpu-deprecated", "gpu-cubin-compatible" }); // sm_60 cubins run on 6.1
    CHECK(finding(r, "cudnn-gpu-deprecated")->message
        == "cuDNN 9.10.2 (CUDA 12.0-12.9 build) supports Pascal GPUs (NVIDIA GeForce GTX 1080 Ti) only as deprecated: "
           "its support matrix marks them for removal in a later release");
    Report turing = check({ .frameworks = { "torch==2.8+cu126" }, .driver = "570.124.06", .gpus = { "RTX 2080 Ti" } });
    CHECK_FALSE(has_code(turing, "cudnn-gpu-deprecated"));
}

TEST_CASE("cuDNN 9.10.2 needs R570 with CUDA 12.8 only for Blackwell: older GPUs take its any-CUDA-12 row on R525",
    "[resolve]")
{
    // torch 2.8.0+cu128 pins nvidia-cudnn-cu12==9.10.2.21; its support matrix lists CUDA 12.8-12.9 on
    // >= 570.26 with Blackwell, and CUDA 12.0-12.9 on >= 525.60.13 up to Hopper.
    Report ampere = check({ .frameworks = { "torch==2.8.0+cu128" }, .driver = "550.163.01", .gpus = { "RTX 3090" } });
    SHOW(ampere);
    CHECK_FALSE(has_code(ampere, "cudnn-driver-too-old"));
    CHECK(has_code(ampere, "driver-minor-version-compat"));

    Report blackwell
        = check({ .frameworks = { "torch==2.8.0+cu128" }, .driver = "550.163.01", .gpus = { "RTX 5090" } });
    CHECK(finding(blackwell, "cudnn-driver-too-old")->message
        == "cuDNN 9.10.2 (CUDA 12.8-12.9 build) needs driver >= 570.26, not 550.163.01");

    Report pascal = check({ .frameworks = { "torch==2.8.0+cu128" }, .driver = "550.163.01", .gpus = { "GTX 1050" } });
    CHECK_FALSE(has_code(pascal, "cudnn-driver-too-old"));
    CHECK_THAT(finding(pascal, "cudnn-gpu-deprecated")->message, StartsWith("cuDNN 9.10.2 (CUDA 12.0-12.9 build)"));
}

TEST_CASE("cuDNN 9.5 is recommended with CUDA 11.8 on Pascal and with CUDA 12.6 on newer GPUs: advice, not a "
          "problem",
    "[resolve]")
{
    Report pascal = check({ .frameworks = { "torch==2.6+cu126" }, .driver = "570.124.06", .gpus = { "GTX 1080 Ti" } });
    SHOW(pascal);
    CHECK(problems(pascal) == Codes { "gpu-cubin-compatible" });
    CHECK(finding(pascal, "cudnn-cuda-not-recommended")->message
        == "NVIDIA recommends cuDNN 9.5.1 with CUDA 11.8 on Pascal GPUs (NVIDIA GeForce GTX 1080 Ti), not CUDA 12.6");
    Report ada = check({ .frameworks = { "torch==2.6+cu126" }, .driver = "570.124.06", .gpus = { "RTX 4090" } });
    CHECK_FALSE(has_code(ada, "cudnn-cuda-not-recommended"));
    Report older = check({ .cuda = "12.4", .cudnn = "9.5", .driver = "570.124.06", .gpus = { "RTX 3090" } });
    SHOW(older);
    CHECK(finding(older, "cudnn-cuda-not-recommended")->message
        == "NVIDIA recommends cuDNN 9.5.1 with CUDA 12.6 on Ampere GPUs (NVIDIA GeForce RTX 3090), not CUDA 12.4");
}

// --- JAX (jax.json: jax-ml/jax CHANGELOG.md, setup.py and the CUDA plugin's requirements per tag)

TEST_CASE("jax 0.4.31 takes cuDNN 9.1 or a later 9.x, as its changelog says, where 0.4.30 took 9.0", "[resolve][jax]")
{
    Report r = check({ .frameworks = { "jax==0.4.31" }, .cudnn = "9.0" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "cudnn-outside-framework-range" });
    CHECK(finding(r, "cudnn-outside-framework-range")->message == "JAX's cuda12 build needs cuDNN 9.1-9.99, not 9.0");
    CHECK(finding(r, "framework-build")->message == "jax==0.4.31 runs as jax 0.4.31 cuda12: CUDA 12.1, cuDNN 9.1");

    Report older = check({ .frameworks = { "jax==0.4.30" }, .cudnn = "9.0" });
    SHOW(older);
    CHECK_FALSE(has_code(older, "cudnn-outside-framework-range"));
    CHECK(check({ .frameworks = { "jax==0.4.31" }, .cudnn = "9.1" }).verdict() == Verdict::ok);
}

TEST_CASE(
    "jax's Python range follows each release: 3.9 ends with 0.4.30, 3.11 is the floor from 0.7.0", "[resolve][jax]")
{
    Report dropped = check({ .frameworks = { "jax==0.4.31" }, .python = "3.9" });
    SHOW(dropped);
    CHECK(problems(dropped) == Codes { "python-unsupported" });
    CHECK(finding(dropped, "python-unsupported")->message == "jax 0.4.31 cuda12 supports Python 3.10-3.12, not 3.9");
    CHECK(check({ .frameworks = { "jax==0.4.30" }, .python = "3.9" }).verdict() == Verdict::ok);
    CHECK(check({ .frameworks = { "jax==0.4.34" }, .python = "3.13" }).verdict() == Verdict::ok);
    // (0.7's cuDNN floor, 9.8, has no cuDNN row of its own yet: cudnn-unconfirmed besides)
    CHECK(finding(check({ .frameworks = { "jax==0.7.0" }, .python = "3.10" }), "python-unsupported")->message
        == "jax 0.7.0 cuda12 supports Python 3.11-3.13, not 3.10");
    CHECK_FALSE(has_code(check({ .frameworks = { "jax==0.7.1" }, .python = "3.14" }), "python-unsupported"));
}

TEST_CASE("jax 0.8 defaults to its cuda13 build, which needs a Turing or newer GPU, while cuda12 still runs a V100",
    "[resolve][jax]")
{
    Report r = check({ .frameworks = { "jax==0.8.0" }, .gpus = { "V100 SXM2 16GB" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(finding(r, "framework-build")->message == "jax==0.8.0 runs as jax 0.8.0 cuda13: CUDA 13.0, cuDNN 9.12.0.46");
    CHECK(finding(r, "gpu-below-framework-minimum")->message
        == "JAX's cuda13 build supports compute capability 7.5 and newer; Tesla V100-SXM2-16GB is 7.0");

    Report cuda12 = check({ .frameworks = { "jax==0.8.0" }, .cuda = "12.8", .gpus = { "V100 SXM2 16GB" } });
    SHOW(cuda12);
    CHECK(finding(cuda12, "framework-build")->message == "jax==0.8.0 runs as jax 0.8.0 cuda12: CUDA 12.8, cuDNN 9.8");
    CHECK_FALSE(has_code(cuda12, "gpu-below-framework-minimum"));
}

TEST_CASE("jax 0.4.26-0.4.29 are CUDA 12 builds on Python 3.9-3.12, cuDNN 8.9 before 0.4.29 and 9.1 from it",
    "[resolve][jax]")
{
    Report r29 = check({ .frameworks = { "jax==0.4.29" }, .python = "3.9" });
    SHOW(r29);
    CHECK(r29.verdict() == Verdict::ok);
    CHECK(finding(r29, "framework-build")->message == "jax==0.4.29 runs as jax 0.4.29 cuda12: CUDA 12.1, cuDNN 9.1");
    // 0.4.31 raised the floor to Python 3.10.
    Report r31 = check({ .frameworks = { "jax==0.4.31" }, .python = "3.9" });
    CHECK(r31.verdict() == Verdict::fail);
    CHECK(problems(r31) == Codes { "python-unsupported" });
    CHECK(finding(r31, "python-unsupported")->message == "jax 0.4.31 cuda12 supports Python 3.10-3.12, not 3.9");
    // jaxlib 0.4.26 dropped CUDA 11.8.
    Report cuda11 = check({ .frameworks = { "jax==0.4.26" }, .cuda = "11.8" });
    CHECK(cuda11.verdict() == Verdict::fail);
    CHECK(finding(cuda11, "framework-no-cuda-build")->message == "jax 0.4.26 has no CUDA 11.8 build");
}

TEST_CASE("jax 0.4.26 needs cuDNN 8.9 from pip, which torch 2.6's cuDNN 9 pin rules out and torch 2.3's serves",
    "[resolve][coexist][jax]")
{
    Report r = check({ .frameworks = { "torch==2.6.0", "jax==0.4.26" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "frameworks-cudnn" });
    CHECK(finding(r, "frameworks-cudnn")->message
        == "torch 2.6.0 cu124 carries cuDNN 9.1.0.70 and jax 0.4.26 cuda12 needs cuDNN 8.9.2.26-8.99: one environment "
           "holds one nvidia-cudnn-cu12, so they cannot be installed together");
    CHECK(finding(r, "frameworks-nccl")->message
        == "torch 2.6.0 cu124 carries NCCL 2.21.5 and jax 0.4.26 cuda12 needs NCCL >=2.18.1: one nvidia-nccl-cu12 "
           "serves both");
    Report older = check({ .frameworks = { "torch==2.3.1", "jax==0.4.28" } });
    SHOW(older);
    CHECK(finding(older, "frameworks-cudnn")->verdict == Verdict::ok);
    CHECK(finding(older, "frameworks-nccl")->message
        == "torch 2.3.1 cu121 carries NCCL 2.20.5 and jax 0.4.28 cuda12 needs NCCL >=2.18.1: one nvidia-nccl-cu12 "
           "serves both");
}

TEST_CASE(
    "jax, with no arch list on record, is held to the oldest compute capability its build supports", "[resolve][jax]")
{
    Report r = check({ .frameworks = { "jax==0.4.31" }, .gpus = { "H100 SXM5", "sm_50" } });
    SHOW(r);
    CHECK(problems(r) == Codes { "gpu-below-framework-minimum" });
    CHECK(finding(r, "gpu-framework-minimum")->subject == "NVIDIA H100 80GB HBM3");
    CHECK(finding(r, "gpu-framework-minimum")->message
        == "JAX's cuda12 build supports compute capability 5.2 and newer; NVIDIA H100 80GB HBM3 is 9.0 (which "
           "architectures it carries code for is not on record)");
    CHECK(finding(r, "gpu-below-framework-minimum")->message
        == "JAX's cuda12 build supports compute capability 5.2 and newer; sm_50 is 5.0");
}

TEST_CASE("a GPU the framework has code for and a framework beside it does not fails naming that one",
    "[resolve][coexist][jax]")
{
    // torch 2.4 cu121 carries sm_50 cubins; JAX's cuda12 build starts at compute capability 5.2.
    Report r = check({ .frameworks = { "torch==2.4.1+cu121", "jax==0.4.31" }, .gpus = { "sm_50" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "gpu-below-framework-minimum" });
    CHECK(finding(r, "gpu-cubin")->message == "torch==2.4.1+cu121: torch 2.4.1 cu121 carries sm_50 kernels for sm_50");
    CHECK(finding(r, "gpu-below-framework-minimum")->message
        == "jax==0.4.31: JAX's cuda12 build supports compute capability 5.2 and newer; sm_50 is 5.0");

    Report both = check({ .frameworks = { "torch==2.4.1+cu121", "jax==0.4.31" }, .gpus = { "A100 80GB SXM4" } });
    SHOW(both);
    CHECK(both.verdict() == Verdict::ok);
    CHECK(finding(both, "gpu-framework-minimum")->message
        == "jax==0.4.31: JAX's cuda12 build supports compute capability 5.2 and newer; NVIDIA A100-SXM4-80GB is 8.0 "
           "(which architectures it carries code for is not on record)");
}

TEST_CASE("torch 2.9's cu130 NCCL pin meets jax 0.8's nvidia-nccl-cu13 floor exactly", "[resolve][coexist][jax]")
{
    Report r = check({ .frameworks = { "torch==2.9.1+cu130", "jax==0.8.0" } });
    SHOW(r);
    const Finding* nccl = finding(r, "frameworks-nccl");
    REQUIRE(nccl);
    CHECK(nccl->verdict == Verdict::ok);
    CHECK(nccl->message
        == "torch 2.9.1 cu130 carries NCCL 2.27.7 and jax 0.8.0 cuda13 needs NCCL >=2.27.7: one nvidia-nccl-cu13 "
           "serves both");
}

TEST_CASE("jax before 0.4.26 has CUDA 12 and CUDA 11.8 builds with the floors of its release", "[resolve][jax]")
{
    // jaxlib 0.4.24 dropped CUDA 12.2; 0.4.23 still runs on it.
    Report newer = check({ .frameworks = { "jax==0.4.25" }, .cuda = "12.2" });
    CHECK(newer.verdict() == Verdict::fail);
    CHECK(finding(newer, "framework-no-cuda-build")->message == "jax 0.4.25 has no CUDA 12.2 build");
    CHECK(check({ .frameworks = { "jax==0.4.23" }, .cuda = "12.2" }).verdict() == Verdict::ok);

    // Built with cuDNN 8: cuDNN 9 is another major, 8.5 below the CUDA 11 build's 8.6.
    Report nine = check({ .frameworks = { "jax==0.4.25" }, .cudnn = "9.0" });
    CHECK(finding(nine, "cudnn-outside-framework-range")->message
        == "JAX's cuda12_pip build needs cuDNN 8.9.4-8.99, not 9.0");
    Report old = check({ .frameworks = { "jax==0.4.13" }, .cuda = "11.8", .cudnn = "8.5" });
    CHECK(finding(old, "cudnn-outside-framework-range")->message
        == "JAX's cuda11_pip build needs cuDNN 8.6-8.99, not 8.5");

    // The extra names the build when no CUDA does; Python 3.8 left with 0.4.14.
    Report cuda11 = check({ .frameworks = { "jax[cuda11_pip]==0.4.20" } });
    CHECK(finding(cuda11, "framework-build")->message
        == "jax[cuda11_pip]==0.4.20 runs as jax 0.4.20 cuda11_pip: CUDA 11.8, cuDNN 8.6");
    Report python = check({ .frameworks = { "jax==0.4.14" }, .python = "3.8" });
    CHECK(problems(python) == Codes { "python-unsupported" });
    CHECK(finding(python, "python-unsupported")->message == "jax 0.4.14 cuda12_pip supports Python 3.9-3.11, not 3.8");
}

TEST_CASE("a jax release older than the line's rows is not on record, one between them is no release", "[resolve][jax]")
{
    Error older = error_of({ .frameworks = { "jax==0.4.7" } });
    CHECK(older.message() == "the matrix has no jax 0.4.7 (its jax 0.4 releases begin at 0.4.8)");
    CHECK(older.hint()
        == "releases before 0.4.8 are not on record: check jax 0.4.8 or newer, or add the release to DIR/jax.json "
           "from its sources and pass --matrix DIR");
    Error e = error_of({ .frameworks = { "jax==0.4.39" } });
    CHECK(e.message() == "jax 0.4.39 is not a release");
    CHECK(e.hint()
        == "releases of jax 0.4: 0.4.8, 0.4.9, 0.4.10, 0.4.11, 0.4.12, 0.4.13, 0.4.14, 0.4.15, 0.4.16, 0.4.17, 0.4.18, "
           "0.4.19, 0.4.20, 0.4.21, 0.4.22, 0.4.23, 0.4.24, 0.4.25, 0.4.26, 0.4.27, 0.4.28, 0.4.29, 0.4.30, 0.4.31, "
           "0.4.32, 0.4.33, 0.4.34, 0.4.35, 0.4.36, 0.4.37 and 0.4.38");
    CHECK(error_of({ .frameworks = { "jax==0.3" } }).message()
        == "the matrix has no jax 0.3 (its oldest jax line is 0.4)");
}

TEST_CASE("jax before 0.6 dies on a Blackwell GPU where its XLA falls back to sm_90a, and 0.6.0 is built for it",
    "[resolve][jax]")
{
    Report old = check({ .frameworks = { "jax==0.4.30" }, .cuda = "12.8", .gpus = { "RTX 5090" } });
    SHOW(old);
    CHECK(old.verdict() == Verdict::fail);
    CHECK(problems(old) == Codes { "jax-xla-unknown-gpu" });
    CHECK(finding(old, "jax-xla-unknown-gpu")->message
        == "jax 0.4.30 cannot run on NVIDIA GeForce RTX 5090 (sm_120): its XLA does not know compute capability 12.0 "
           "and compiles arch-conditional PTX for an older architecture, which ptxas refuses (\"cannot be compiled to "
           "future architecture\")");
    CHECK(finding(old, "jax-xla-unknown-gpu")->why
        == "https://github.com/3587jjh/HuRo/pull/3 | https://github.com/NVIDIA/JAX-Toolbox/pull/1301");
    CHECK(suggests(old, "for NVIDIA GeForce RTX 5090 use jax >= 0.6.0, the first release known to run on sm_120"));

    Report built = check({ .frameworks = { "jax==0.6.0" }, .cuda = "12.8", .gpus = { "B200" } });
    SHOW(built);
    CHECK(built.verdict() == Verdict::ok);
    CHECK(finding(built, "jax-runs-on-gpu")->message
        == "jax 0.6.0 runs on NVIDIA B200 (sm_100): its XLA compiles for compute capability 10.0");

    // between the last release reported failing and the first built for Blackwell
    Report between = check({ .frameworks = { "jax==0.5.3" }, .gpus = { "sm_120" } });
    SHOW(between);
    CHECK(finding(between, "jax-gpu-unconfirmed")->verdict == Verdict::unknown);
    CHECK(finding(between, "jax-gpu-unconfirmed")->message
        == "whether jax 0.5.3's XLA compiles for sm_120 is not on record");
    // a Blackwell architecture no release is on record for gets no suggestion
    Report gb10 = check({ .frameworks = { "jax==0.8.0" }, .gpus = { "GB10" } });
    CHECK(finding(gb10, "jax-gpu-unconfirmed")->message
        == "whether jax 0.8.0's XLA compiles for NVIDIA GB10 (sm_121) is not on record");
    CHECK(gb10.suggestions.empty());
    // below Blackwell the build's minimum has said all there is
    CHECK_FALSE(has_code(check({ .frameworks = { "jax==0.4.30" }, .gpus = { "H100 SXM" } }), "jax-gpu-unconfirmed"));
}

TEST_CASE("JAX's XLA compiles with its CUDA's ptxas, so that CUDA must target the GPU", "[resolve][jax]")
{
    // jax#13570: 'ptxas does not support CC 8.9' below CUDA 11.8; the cuda11 range ends before Blackwell
    Report ada = check({ .frameworks = { "jax[cuda12_local]==0.4.30" }, .cuda = "12.4", .gpus = { "RTX 4080" } });
    CHECK(finding(ada, "cuda-targets-gpu")->message == "CUDA 12.4 can target sm_89 (NVIDIA GeForce RTX 4080)");
    Report old = check({ .frameworks = { "jax[cuda11_pip]==0.4.20" }, .gpus = { "RTX 5090" } });
    SHOW(old);
    CHECK(finding(old, "cuda-cannot-target-gpu")->message
        == "CUDA 11.8 cannot target sm_120 (NVIDIA GeForce RTX 5090, Blackwell): compute capability 12.0 needs CUDA >= "
           "12.8");
}

TEST_CASE(
    "with no CUDA named, a jax build runs on the oldest CUDA of its range that targets the GPUs", "[resolve][jax]")
{
    // pip installs the newest CUDA 12 wheels: a Blackwell GPU's CUDA 12.8, not the 12.1 floor, picks
    // the cuDNN support-matrix row that lists it
    Report r = check({ .frameworks = { "jax==0.6.2" }, .gpus = { "RTX 5090" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::ok);
    CHECK(finding(r, "framework-build")->message
        == "jax==0.6.2 runs as jax 0.6.2 cuda12: CUDA 12.8, cuDNN 9.8 (CUDA 12.8: the oldest CUDA of its 12.1-12.99 "
           "range that targets NVIDIA GeForce RTX 5090)");
    CHECK_FALSE(has_code(r, "cudnn-gpu-unsupported"));
    // a GPU the floor targets keeps the floor; a CUDA the user names is the CUDA
    CHECK(finding(check({ .frameworks = { "jax==0.6.2" }, .gpus = { "RTX 4090" } }), "framework-build")->message
        == "jax==0.6.2 runs as jax 0.6.2 cuda12: CUDA 12.1, cuDNN 9.8");
    Report named = check({ .frameworks = { "jax==0.6.2" }, .cuda = "12.4", .gpus = { "RTX 5090" } });
    CHECK(finding(named, "framework-build")->message == "jax==0.6.2 runs as jax 0.6.2 cuda12: CUDA 12.4, cuDNN 9.8");
    CHECK(has_code(named, "cudnn-gpu-unsupported"));
}

// --- Frameworks installed together -------------------------------------------

TEST_CASE(
    "torch 2.6 pins nvidia-cudnn-cu12 9.1.0.70, which jax 0.6's cuDNN floor of 9.8 rules out", "[resolve][coexist]")
{
    Report r = check({ .frameworks = { "torch==2.6.0", "jax==0.6.0" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r).count("frameworks-cudnn") == 1);
    CHECK(finding(r, "frameworks-cudnn")->message
        == "torch 2.6.0 cu124 carries cuDNN 9.1.0.70 and jax 0.6.0 cuda12 needs cuDNN 9.8-9.99: one environment "
           "holds one nvidia-cudnn-cu12, so they cannot be installed together");
    const Finding* nccl = finding(r, "frameworks-nccl");
    REQUIRE(nccl);
    CHECK(nccl->verdict == Verdict::ok);
    CHECK(nccl->message
        == "torch 2.6.0 cu124 carries NCCL 2.21.5 and jax 0.6.0 cuda12 needs NCCL >=2.18.1: one nvidia-nccl-cu12 "
           "serves both");
    // each framework's own findings, named after it once
    CHECK(finding(r, "framework-build")->message
        == "torch==2.6.0 runs as torch 2.6.0 cu124: CUDA 12.4, cuDNN 9.1.0.70, NCCL 2.21.5 (the PyPI default build)");
}

TEST_CASE("a torch build whose NCCL pin the matrix does not hold says so instead of leaving it out", "[resolve]")
{
    Report r = check({ .frameworks = { "torch==2.8.0" }, .cuda = "12.9" });
    CHECK(finding(r, "framework-build")->message
        == "torch==2.8.0 runs as torch 2.8.0 cu129: CUDA 12.9, cuDNN 9.10.2.21, NCCL not on record");
}

TEST_CASE("torch 2.4-2.9 builds name the NCCL their wheels pin", "[resolve]")
{
    const std::vector<std::pair<Ask, std::string>> cases {
        { { .frameworks = { "torch==2.4.0" }, .cuda = "11.8" },
            "torch==2.4.0 runs as torch 2.4.0 cu118: CUDA 11.8, cuDNN 9.1.0.70, NCCL 2.20.5" },
        { { .frameworks = { "torch==2.4.1" }, .cuda = "12.4" },
            "torch==2.4.1 runs as torch 2.4.1 cu124: CUDA 12.4, cuDNN 9.1.0.70, NCCL 2.20.5" },
        { { .frameworks = { "torch==2.5.1" } },
            "torch==2.5.1 runs as torch 2.5.1 cu124: CUDA 12.4, cuDNN 9.1.0.70, NCCL 2.21.5 (the PyPI default build)" },
        { { .frameworks = { "torch==2.5.1" }, .cuda = "12.1" },
            "torch==2.5.1 runs as torch 2.5.1 cu121: CUDA 12.1, cuDNN 9.1.0.70, NCCL 2.21.5" },
        { { .frameworks = { "torch==2.6.0" }, .cuda = "12.6" },
            "torch==2.6.0 runs as torch 2.6.0 cu126: CUDA 12.6, cuDNN 9.5.1.17, NCCL 2.21.5" },
        { { .frameworks = { "torch==2.6.0" }, .cuda = "12.4" },
            "torch==2.6.0 runs as torch 2.6.0 cu124: CUDA 12.4, cuDNN 9.1.0.70, NCCL 2.21.5" },
        { { .frameworks = { "torch==2.6.0" }, .cuda = "11.8" },
            "torch==2.6.0 runs as torch 2.6.0 cu118: CUDA 11.8, cuDNN 9.1.0.70, NCCL 2.21.5" },
        { { .frameworks = { "torch==2.7.1" }, .cuda = "12.8" },
            "torch==2.7.1 runs as torch 2.7.1 cu128: CUDA 12.8, cuDNN 9.7.1.26, NCCL 2.26.2" },
        { { .frameworks = { "torch==2.8.0" } },
            "torch==2.8.0 runs as torch 2.8.0 cu128: CUDA 12.8, cuDNN 9.10.2.21, NCCL 2.27.3 (the PyPI default "
            "build)" },
        { { .frameworks = { "torch==2.8.0" }, .cuda = "12.6" },
            "torch==2.8.0 runs as torch 2.8.0 cu126: CUDA 12.6, cuDNN 9.10.2.21, NCCL 2.27.3" },
        { { .frameworks = { "torch==2.9.1" }, .cuda = "12.6" },
            "torch==2.9.1 runs as torch 2.9.1 cu126: CUDA 12.6, cuDNN 9.10.2.21, NCCL 2.27.5" },
        { { .frameworks = { "torch==2.9.1" }, .cuda = "13.0" },
            "torch==2.9.1 runs as torch 2.9.1 cu130: CUDA 13.0, cuDNN 9.13.0.50, NCCL 2.27.7" },
    };
    for (const auto& [ask, message] : cases) {
        Report r = check(ask);
        SHOW(r);
        const Finding* build = finding(r, "framework-build");
        REQUIRE(build);
        CHECK(build->verdict == Verdict::ok);
        CHECK(build->message == message);
    }
}

TEST_CASE("torch 2.7's cu128 build and jax 0.5 share one nvidia-nccl-cu12, torch 2.8's cu129 NCCL is unknown",
    "[resolve][coexist]")
{
    Report known = check({ .frameworks = { "torch==2.7.1+cu128", "jax==0.5.3" } });
    SHOW(known);
    const Finding* nccl = finding(known, "frameworks-nccl");
    REQUIRE(nccl);
    CHECK(nccl->verdict == Verdict::ok);
    CHECK(nccl->message
        == "torch 2.7.1 cu128 carries NCCL 2.26.2 and jax 0.5.3 cuda12 needs NCCL >=2.18.1: one nvidia-nccl-cu12 "
           "serves both");
    Report unknown = check({ .frameworks = { "torch==2.8.0+cu129", "jax==0.5.3" } });
    SHOW(unknown);
    REQUIRE(finding(unknown, "frameworks-nccl"));
    CHECK(finding(unknown, "frameworks-nccl")->verdict == Verdict::unknown);
}

TEST_CASE("jax 0.5 accepts torch 2.6's cuDNN 9.1.0.70 and NCCL 2.21.5", "[resolve][coexist]")
{
    Report r = check({ .frameworks = { "torch==2.6.0", "jax==0.5.3" }, .driver = "570.124.06" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::ok);
    CHECK(finding(r, "frameworks-cudnn")->verdict == Verdict::ok);
    CHECK(finding(r, "frameworks-nccl")->verdict == Verdict::ok);
}

TEST_CASE("tensorflow[and-cuda] 2.15 loads cuDNN 8 and torch 2.6 cuDNN 9: one nvidia-cudnn-cu12 cannot be both",
    "[resolve][coexist]")
{
    Report r = check({ .frameworks = { "tensorflow[and-cuda]==2.15", "torch==2.6.0" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(finding(r, "frameworks-cudnn")->message
        == "tensorflow 2.15 loads cuDNN 8 (tested with 8.9) and torch 2.6.0 cu124 carries cuDNN 9.1.0.70: one "
           "environment holds one nvidia-cudnn-cu12, so they cannot be installed together");
    const Finding* nccl = finding(r, "frameworks-nccl");
    REQUIRE(nccl);
    CHECK(nccl->verdict == Verdict::unknown);
}

TEST_CASE("tensorflow without and-cuda gets no NVIDIA wheel from pip, so only its cuDNN major is held to the other's",
    "[resolve][coexist]")
{
    Report r = check({ .frameworks = { "tensorflow==2.15", "torch==2.6.0" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::warn);
    CHECK(finding(r, "frameworks-cudnn")->verdict == Verdict::warn);
    CHECK(finding(r, "frameworks-cudnn")->message
        == "tensorflow 2.15 is installed without [and-cuda], so pip brings it no nvidia-cudnn-cu12: it loads cuDNN 8 "
           "(tested with 8.9) from the system, and torch 2.6.0 cu124 carries cuDNN 9.1.0.70: the image must carry "
           "cuDNN 8 itself, for pip brings only torch 2.6.0 cu124's");
    CHECK(finding(r, "frameworks-nccl")->verdict == Verdict::ok);
    CHECK(finding(r, "frameworks-nccl")->message
        == "tensorflow 2.15 is installed without [and-cuda], so pip brings it no nvidia-nccl-cu12 to clash with torch "
           "2.6.0 cu124's");

    // 2.16's NCCL pin is its extra's: without the extra it does not clash, and the finding says what it would
    Report pinned = check({ .frameworks = { "torch==2.6.0", "tensorflow==2.16.1" } });
    SHOW(pinned);
    CHECK(finding(pinned, "frameworks-nccl")->verdict == Verdict::ok);
    CHECK(finding(pinned, "frameworks-nccl")->message
        == "tensorflow 2.16.1 is installed without [and-cuda], so pip brings it no nvidia-nccl-cu12 to clash with "
           "torch 2.6.0 cu124's (with [and-cuda] it would need NCCL 2.19.3)");

    // before 2.14 there is no extra; one cuDNN major on both sides is no concern
    Report older = check({ .frameworks = { "tensorflow==2.13", "torch==2.1.2+cu118" } });
    SHOW(older);
    CHECK(finding(older, "frameworks-cudnn")->verdict == Verdict::ok);
    CHECK(finding(older, "frameworks-cudnn")->message
        == "tensorflow 2.13 has no pip extra that brings CUDA, so pip brings it no nvidia-cudnn-cu11: it loads cuDNN "
           "8 (tested with 8.6) from the system, and torch 2.1.2 cu118 carries cuDNN 8.7.0.84, of the same major");
}

TEST_CASE("tensorflow[and-cuda] 2.16's NCCL pin of 2.19.3 and torch 2.6's 2.21.5 cannot share one nvidia-nccl-cu12",
    "[resolve][coexist]")
{
    Report r = check({ .frameworks = { "tensorflow[and-cuda]==2.16.1", "torch==2.6.0" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    const Finding* nccl = finding(r, "frameworks-nccl");
    REQUIRE(nccl);
    CHECK(nccl->verdict == Verdict::fail);
    CHECK(nccl->message
        == "tensorflow 2.16.1 needs NCCL 2.19.3 and torch 2.6.0 cu124 carries NCCL 2.21.5: one environment holds one "
           "nvidia-nccl-cu12, so they cannot be installed together");
    // the NCCL need rests on its own sources, not on the tested configurations
    CHECK(nccl->why.find("https://github.com/devanshkv/fetch/pull/35") != std::string::npos);
    CHECK(nccl->why.find("install/source") == std::string::npos);
}

TEST_CASE("tensorflow 2.20's NCCL range of 2.25.1-2.99 admits torch 2.8's 2.27.3", "[resolve][coexist]")
{
    Report r = check({ .frameworks = { "torch==2.8.0+cu126", "tensorflow[and-cuda]==2.20.0" } });
    SHOW(r);
    const Finding* nccl = finding(r, "frameworks-nccl");
    REQUIRE(nccl);
    CHECK(nccl->verdict == Verdict::ok);
    CHECK(nccl->message
        == "torch 2.8.0 cu126 carries NCCL 2.27.3 and tensorflow 2.20.0 needs NCCL 2.25.1-2.99: one nvidia-nccl-cu12 "
           "serves both");
    CHECK(finding(r, "frameworks-cudnn")->verdict == Verdict::ok);
}

TEST_CASE("a verdict on tensorflow 2.19's NCCL pin says the pin is unconfirmed", "[resolve][coexist]")
{
    Report r = check({ .frameworks = { "tensorflow[and-cuda]==2.19.0", "torch==2.7.1+cu126" } });
    SHOW(r);
    const Finding* nccl = finding(r, "frameworks-nccl");
    REQUIRE(nccl);
    CHECK(nccl->verdict == Verdict::fail);
    CHECK(nccl->message
        == "tensorflow 2.19.0 needs NCCL 2.25.1 (unconfirmed) and torch 2.7.1 cu126 carries NCCL 2.26.2: one "
           "environment holds one nvidia-nccl-cu12, so they cannot be installed together");
}

TEST_CASE("torch on CUDA 12 and jax on CUDA 13 install side by side, with a warning", "[resolve][coexist]")
{
    Report r = check({ .frameworks = { "torch==2.7.1", "jax==0.8.0" } });
    SHOW(r);
    CHECK(finding(r, "frameworks-cuda-majors")->verdict == Verdict::warn);
    CHECK(finding(r, "frameworks-cuda-majors")->message
        == "torch 2.7.1 cu126 runs on CUDA 12 and jax 0.8.0 cuda13 on CUDA 13: each loads its own CUDA libraries "
           "into "
           "one process, and the driver must run both");
    CHECK_FALSE(has_code(r, "frameworks-cudnn"));

    Report same = check({ .frameworks = { "torch==2.7.1", "jax==0.8.0" }, .cuda = "12.6" });
    SHOW(same);
    CHECK(finding(same, "frameworks-cudnn")->verdict == Verdict::fail);
}

TEST_CASE(
    "forward compatibility on a GeForce GPU fails whatever the driver: cuda-compat refuses the device", "[resolve]")
{
    // The driver alone, and a driver the CUDA line runs on without compatibility packages:
    // loading cuda-compat is what fails (QuipNetwork/quip-miner#24, DeepVAC/TorchPod#43).
    for (const Ask& ask : { Ask { .driver = "570.211.01", .gpus = { "RTX 3060" }, .forward_compat = true },
             Ask { .cuda = "11.3", .driver = "460.80", .gpus = { "GTX 1650" }, .forward_compat = true },
             Ask { .gpus = { "RTX 4090" }, .forward_compat = true } }) {
        Report r = check(ask);
        SHOW(r);
        CHECK(r.verdict() == Verdict::fail);
        const Finding* refused = finding(r, "forward-compat-unsupported-gpu");
        REQUIRE(refused);
        CHECK_THAT(refused->message,
            Contains("works only on data-center GPUs and Jetson; on NVIDIA GeForce")
                && Contains("cudaErrorCompatNotSupportedOnDevice (804)"));
    }
    Report named = check({ .cuda = "11.3", .driver = "460.80", .gpus = { "GTX 1650" }, .forward_compat = true });
    CHECK_THAT(finding(named, "forward-compat-unsupported-gpu")->message,
        StartsWith("forward compatibility (cuda-compat-11-3)"));
    Report bare = check({ .gpus = { "RTX 4090" }, .forward_compat = true });
    CHECK_THAT(finding(bare, "forward-compat-unsupported-gpu")->message,
        StartsWith("forward compatibility (the cuda-compat package)"));
    // A data-center GPU may load it.
    CHECK(check({ .driver = "570.211.01", .gpus = { "A100" }, .forward_compat = true }).verdict() == Verdict::ok);
}

TEST_CASE("a companion built for another CUDA than torch: another major fails, another minor warns", "[resolve]")
{
    Report major = check({ .frameworks = { "torch==2.11.0+cu130", "torchaudio==2.11.0+cu128" } });
    SHOW(major);
    CHECK(major.verdict() == Verdict::fail);
    CHECK(problems(major) == Codes { "companion-cuda-mismatch" });
    CHECK(finding(major, "companion-cuda-mismatch")->message
        == "torchaudio 2.11.0+cu128 is built for CUDA 12.8 and torch 2.11.0 cu130 for CUDA 13.0: it refuses, on "
           "import, "
           "a torch compiled for another CUDA major");
    CHECK(suggests(major, "install the companion of the same build: torchaudio==2.11.0+cu130"));

    Report minor = check({ .frameworks = { "torch==2.0.1+cu118", "torchvision==0.15.2+cu117" } });
    SHOW(minor);
    CHECK(minor.verdict() == Verdict::warn);
    CHECK(problems(minor) == Codes { "companion-cuda-minor" });

    Report cpu = check({ .frameworks = { "torch==2.1.2+cu121", "torchvision==0.16.2+cpu" } });
    CHECK(problems(cpu) == Codes { "companion-cpu-build" });
    CHECK(check({ .frameworks = { "torch==2.1.2+cu121", "torchvision==0.16.2+cu121" } }).verdict() == Verdict::ok);
}

TEST_CASE("jaxlib is read as jax, and its local label picks the CUDA build", "[resolve]")
{
    auto request = FrameworkRequest::parse("jaxlib==0.4.20+cuda11.cudnn86");
    CHECK(request.framework == Framework::jax);
    CHECK(request.local == "cuda11.cudnn86");
    Report cuda11 = check({ .frameworks = { "jaxlib==0.4.20+cuda11.cudnn86" }, .cudnn = "8.5" });
    SHOW(cuda11);
    const Finding* build = finding(cuda11, "framework-build");
    REQUIRE(build);
    CHECK_THAT(build->message, Contains("runs as jax 0.4.20 cuda11_pip: CUDA 11.8, cuDNN 8.6"));
    CHECK(has_code(cuda11, "cudnn-outside-framework-range"));
    Report cuda12 = check({ .frameworks = { "jaxlib==0.4.20+cuda12.cudnn89" } });
    CHECK_THAT(finding(cuda12, "framework-build")->message, Contains("cuda12_pip: CUDA 12.2, cuDNN 8.9"));
    CHECK_THROWS_WITH(check({ .frameworks = { "jaxlib==0.4.20+rocm60" } }),
        "'rocm60' in jax==0.4.20+rocm60 names no CUDA build of jaxlib");
    CHECK(check({ .frameworks = { "jaxlib==0.4.31" }, .python = "3.12" }).verdict() == Verdict::ok);
}

TEST_CASE(
    "TensorFlow's wheels: a GPU below every cubin and PTX has no code, one its PTX reaches JIT-compiles", "[resolve]")
{
    // TF 2.3: sm_35,sm_37,sm_52,sm_60,sm_61,compute_70 (tensorflow/tensorflow#41990, #46537).
    Report mx130 = check({ .frameworks = { "tensorflow==2.3" }, .gpus = { "GeForce MX130" } });
    SHOW(mx130);
    CHECK(mx130.verdict() == Verdict::fail);
    CHECK(problems(mx130) == Codes { "gpu-no-kernel" });
    CHECK(finding(mx130, "gpu-no-kernel")->message
        == "tensorflow 2.3 carries no code for NVIDIA GeForce MX130 (sm_50): its GPU code is "
           "3.5;3.7;5.2;6.0;6.1;7.0+PTX, and a cubin runs only on the same major with an equal or higher minor");
    // 2.2 carried PTX for each of them: the driver JIT-compiles compute_35 for a 5.0 part.
    Report older = check({ .frameworks = { "tensorflow==2.2" }, .gpus = { "GeForce MX130" } });
    CHECK(problems(older) == Codes { "gpu-ptx-jit" });
    // 2.15 (sm_50..sm_75, compute_80): an H100 runs on the compute_80 PTX, JIT-compiled at start.
    Report h100 = check({ .frameworks = { "tensorflow==2.15.0" }, .gpus = { "H100" } });
    SHOW(h100);
    CHECK(h100.verdict() == Verdict::warn);
    CHECK(problems(h100) == Codes { "gpu-ptx-jit" });
    // 2.12's sm_80 cubin serves an RTX 4090 (same major): no JIT, and CUDA 11.8 targets sm_89.
    CHECK(check({ .frameworks = { "tensorflow==2.12.0" }, .gpus = { "RTX 4090" } }).verdict() == Verdict::ok);
    // A GPU newer than the release's CUDA is the toolkit window's error alone.
    CHECK(problems(check({ .frameworks = { "tensorflow==2.16.2" }, .gpus = { "RTX 5080" } }))
        == Codes { "cuda-cannot-target-gpu" });
}

TEST_CASE("torch 2.11 drops Volta from its CUDA 12.8 build and publishes CUDA 13.0 on PyPI", "[resolve]")
{
    Report v100 = check({ .frameworks = { "torch==2.11.0+cu128" }, .gpus = { "V100" } });
    SHOW(v100);
    CHECK(problems(v100) == Codes { "gpu-no-kernel" });
    CHECK(problems(check({ .frameworks = { "torch==2.11.0+cu126" }, .gpus = { "V100" } }))
        == Codes { "cudnn-gpu-deprecated" });
    Report pypi = check({ .frameworks = { "torch==2.11.0" }, .driver = "550.163.01", .gpus = { "T4" } });
    SHOW(pypi);
    CHECK_THAT(finding(pypi, "framework-build")->message,
        Contains("cu130: CUDA 13.0") && Contains("(the PyPI default build)"));
    CHECK(pypi.verdict() == Verdict::fail);
    CHECK(has_code(pypi, "driver-too-old"));
}

TEST_CASE("torch 1.3.1 moved its oldest kernels from sm_35 to sm_37, and its PyPI build to CUDA 10.1", "[resolve]")
{
    // pytorch/pytorch#31319: 1.3.1 on a Tesla K40c, "no kernel image is available".
    Report k40 = check({ .frameworks = { "torch==1.3.1" }, .gpus = { "Tesla K40c" } });
    SHOW(k40);
    CHECK(problems(k40) == Codes { "gpu-no-kernel" });
    CHECK_THAT(finding(k40, "gpu-no-kernel")->message, Contains("its GPU code is 3.7+PTX;5.0;6.0;6.1;7.0;7.5"));
    CHECK(check({ .frameworks = { "torch==1.3.0" }, .gpus = { "Tesla K40c" } }).verdict() == Verdict::ok);
    CHECK(check({ .frameworks = { "torch==1.3.1" }, .gpus = { "Tesla K80" } }).verdict() == Verdict::ok);
    // pytorch/pytorch#30071: 1.3.1 from pip is a CUDA 10.1.243 build; driver 410.48 runs 1.2.0's CUDA 10.0.
    Report driver = check({ .frameworks = { "torch==1.3.1" }, .driver = "410.48" });
    SHOW(driver);
    CHECK(has_code(driver, "driver-too-old"));
    CHECK(suggests_containing(driver, "use cu100 (torch 1.3.1+cu100)"));
    CHECK(problems(check({ .frameworks = { "torch==1.2.0" }, .driver = "410.48" })).count("driver-too-old") == 0);
}

TEST_CASE("a post-release is its release re-packaged: tensorflow 2.15.0.post1 is judged as 2.15.0", "[resolve]")
{
    Report r = check({ .frameworks = { "tensorflow[and-cuda]==2.15.0.post1" }, .python = "3.11" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::ok);
    CHECK_THAT(finding(r, "framework-build")->message,
        StartsWith("tensorflow[and-cuda]==2.15.0.post1 runs as tensorflow 2.15.0.post1"));
    CHECK(error_of({ .frameworks = { "tensorflow==2.15.2.post1" } }).message()
        == "tensorflow 2.15.2.post1 is not a release");
}

TEST_CASE(
    "TensorFlow 2.4, a CUDA 11.0 build, loads libcusolver.so.10, which CUDA 11.1 and later do not ship", "[resolve]")
{
    // tensorflow/tensorflow#48498, #49167: "Could not load dynamic library 'libcusolver.so.10'".
    Report r = check({ .frameworks = { "tensorflow==2.4.1" }, .cuda = "11.2" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(finding(r, "framework-cuda-untested")->message
        == "tensorflow 2.4.1 was built with CUDA 11.0 and loads its cuSOLVER as libcusolver.so.10, which CUDA 11.2 "
           "does not have (it ships libcusolver.so.11)");
    CHECK(suggests(r, "tensorflow 2.5 is tested with CUDA 11.2 and cuDNN 8.1"));
    CHECK(check({ .frameworks = { "tensorflow==2.4.1" }, .cuda = "11.0" }).verdict() == Verdict::ok);
}

TEST_CASE("torch 1.7.0 pairs with torchvision 0.8.0 and with its fix release 0.8.1", "[resolve]")
{
    for (std::string vision : { "0.8.0", "0.8.1" }) {
        Report r = check({ .frameworks = { "torch==1.7.0", "torchvision==" + vision } });
        SHOW(r);
        CHECK(r.verdict() == Verdict::ok);
        CHECK(finding(r, "companion-paired")->message == "torchvision " + vision + " is built for torch 1.7.0");
    }
    CHECK(
        problems(check({ .frameworks = { "torch==1.7.1", "torchvision==0.8.1" } })) == Codes { "companion-mismatch" });
}

TEST_CASE("a GPU name reads alike with or without the brand words nvidia-smi prints", "[resolve]")
{
    for (std::string name : { "NVIDIA H100 80GB HBM3", "H100 80GB HBM3", "NVIDIA GeForce RTX 3080 Laptop GPU",
             "GeForce RTX 3080 Laptop GPU", "RTX 3080 Laptop GPU" }) {
        CAPTURE(name);
        Report r = check({ .frameworks = { "torch==2.1.2+cu118" }, .gpus = { name } });
        CHECK(r.verdict() != Verdict::fail);
        CHECK(has_code(r, "gpu-cubin"));
    }
}

TEST_CASE("a free-threaded Python needs wheels built for it: torch ships 3.13t from 2.6, experimentally", "[resolve]")
{
    // pytorch/pytorch#130249: no 3.13t binaries for 2.5; cp313t wheels from 2.6.
    Report none = check({ .frameworks = { "torch==2.5.0" }, .python = "3.13t" });
    SHOW(none);
    CHECK(none.verdict() == Verdict::fail);
    CHECK(finding(none, "python-free-threaded-unsupported")->message
        == "torch 2.5.0 cu124 ships no wheels for the free-threaded Python 3.13t");
    Report shipped = check({ .frameworks = { "torch==2.6.0" }, .python = "3.13t" });
    SHOW(shipped);
    CHECK(problems(shipped) == Codes { "python-free-threaded" });
    CHECK(finding(shipped, "python-free-threaded")->message
        == "torch 2.6.0 cu124 ships wheels for the free-threaded Python 3.13t, which PyTorch supports experimentally");
    CHECK(finding(check({ .frameworks = { "torch==2.12.1" }, .python = "3.13t" }), "python-free-threaded-unsupported")
              ->message
        == "torch 2.12.1 cu130 ships no wheels for the free-threaded Python 3.13t (its free-threaded wheels: 3.14t)");
    // Not on record is said so, and the verdict is the rest of the stack's.
    for (std::string framework : { "tensorflow==2.20.0", "torch==2.13.0" }) {
        Report unknown = check({ .frameworks = { framework }, .python = "3.13t" });
        CHECK(unknown.verdict() == Verdict::ok);
        CHECK(has_code(unknown, "python-free-threaded-unknown"));
    }
    CHECK(PythonRequest::parse("3.13t").free_threaded);
    CHECK_FALSE(PythonRequest::parse("3.13").free_threaded);
    CHECK_THROWS_AS(PythonRequest::parse("t"), Error);
}

TEST_CASE("laptop, entry and embedded parts read as their chip's compute capability", "[resolve]")
{
    // torch 2.6 cu126 carries sm_50, sm_75 and sm_86 cubins, whose sm_86 serves 8.9, and no sm_120
    auto [name, outcome] = GENERATE(table<std::string, std::string>({
        { "NVIDIA GeForce MX110", "carries sm_50 kernels for NVIDIA GeForce MX110" },
        { "940MX", "carries sm_50 kernels for NVIDIA GeForce 940MX" },
        { "GeForce 930MX", "carries sm_50 kernels for NVIDIA GeForce 930MX" },
        { "GTX 1630", "carries sm_75 kernels for NVIDIA GeForce GTX 1630" },
        { "RTX A400", "carries sm_86 kernels for NVIDIA RTX A400" },
        { "NVIDIA RTX A500 Laptop GPU", "carries sm_86 kernels for NVIDIA RTX A500 Laptop GPU" },
        { "RTX 1000 Ada Laptop", "its sm_86 cubins run on 8.9" },
        { "NVIDIA RTX PRO 2000 Blackwell Generation Laptop GPU",
            "carries no code for NVIDIA RTX PRO 2000 Blackwell Generation Laptop GPU (sm_120)" },
    }));
    CAPTURE(name);
    Report r = check({ .frameworks = { "torch==2.6.0+cu126" }, .gpus = { name } });
    SHOW(r);
    bool found = std::any_of(r.findings.begin(), r.findings.end(),
        [&](const Finding& f) { return f.message.find(outcome) != std::string::npos; });
    CHECK(found);
}

TEST_CASE("H20 and H800 read as the Hopper parts they are, A800 and A100-SXM-64GB as Ampere", "[resolve]")
{
    auto [name, sm] = GENERATE(table<std::string, std::string>({
        { "NVIDIA H20", "sm_90" },
        { "H800", "sm_90" },
        { "NVIDIA A800-SXM4-80GB", "sm_80" },
        { "NVIDIA A100-SXM-64GB", "sm_80" },
    }));
    CAPTURE(name);
    Report r = check({ .frameworks = { "torch==2.6.0+cu124" }, .gpus = { name } });
    const Finding* cubin = finding(r, "gpu-cubin");
    REQUIRE(cubin);
    CHECK_THAT(cubin->message, StartsWith("torch 2.6.0 cu124 carries " + sm + " kernels"));
}
