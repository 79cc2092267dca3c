// The worked cases of shared/reference/compat-examples.md, numbered as there, and the
// other rules of facts.md section 3, run against the embedded matrix. Each case states
// the verdict and the exact set of warning and error codes it must produce.

#include "resolve/targets.h"
#include "support/check_ask.h"

using namespace dlenv;
using namespace dlenv::resolve;
using namespace dlenv::resolve::check_support;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

// driver_releases.json's sources of the 535 branch
const std::string driver_release_tags
    = "https://github.com/NVIDIA/open-gpu-kernel-modules/tags | https://github.com/NVIDIA/nvidia-settings/tags";

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
    // with no GPU named the image's gate is asked with no brand: R525 is admitted on every
    // segment's brand, so on any GPU
    CHECK(problems(r) == Codes { "driver-minor-version-compat" });
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
    // no GPU named: NVIDIA's 11.8 images start on R470 by a brand term of every segment
    CHECK(problems(r) == Codes { "driver-minor-version-compat" });
    CHECK(finding(r, "image-require-cuda")->verdict == Verdict::ok);
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
    // cuDNN 8.9 instead of the tested 8.7 is no complaint: TensorFlow loads a newer minor
    CHECK(problems(r) == Codes { "framework-cuda-untested" });
    CHECK(has_code(r, "cudnn-newer-minor"));
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

TEST_CASE("tensorflow refuses a cuDNN of its major with an older minor, and loads a newer one", "[resolve]")
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
    // TFODCourse#86: tensorflow 2.8 (built with cuDNN 8.1) runs on cuDNN 8.2.1
    Report newer = check({ .frameworks = { "tensorflow==2.8" }, .cuda = "11.2", .cudnn = "8.2.1" });
    SHOW(newer);
    CHECK(newer.verdict() == Verdict::ok);
    CHECK(finding(newer, "cudnn-newer-minor")->message
        == "tensorflow 2.8 was built with cuDNN 8.1 and loads the newer 8.2.1: its check at run time takes the "
           "build's major with an equal or higher minor");
}

TEST_CASE("torch loads its own cuDNN, but an older one of its major on LD_LIBRARY_PATH comes first and is refused",
    "[resolve]")
{
    // bmaltais/kohya_ss#1096: "PyTorch was compiled against (8, 7, 0) but found runtime version (8, 2, 4)"
    Report older = check({ .frameworks = { "torch==2.0.1+cu118" }, .cuda = "11.8", .cudnn = "8.2" });
    SHOW(older);
    CHECK(older.verdict() == Verdict::warn);
    CHECK(problems(older) == Codes { "cudnn-bundled" });
    CHECK(finding(older, "cudnn-bundled")->message
        == "torch 2.0.1 cu118 bundles cuDNN 8.7.0.84 and loads it, not the cuDNN 8.2 of the system, unless the "
           "system's is on LD_LIBRARY_PATH: then it is loaded first, and torch refuses it at import as older than "
           "its own (\"cuDNN version incompatibility\")");
    CHECK_THAT(finding(older, "cudnn-bundled")->why, Contains("torch/backends/cudnn/__init__.py"));
    CHECK(suggests(older, "keep cuDNN 8.2 off LD_LIBRARY_PATH, or install cuDNN 8.7.0.84 or a later 8.x"));

    // a newer minor on the path is loaded and passes torch's check; another major has another soname
    Report newer = check({ .frameworks = { "torch==2.0.1+cu118" }, .cuda = "11.8", .cudnn = "8.9" });
    CHECK(finding(newer, "cudnn-bundled")->message
        == "torch 2.0.1 cu118 bundles cuDNN 8.7.0.84 and loads it, not the cuDNN 8.9 of the system, unless the "
           "system's is on LD_LIBRARY_PATH: then it is loaded first, a newer minor torch accepts");
    CHECK(newer.suggestions.empty());
    Report other = check({ .frameworks = { "torch==2.0.1+cu118" }, .cuda = "11.8", .cudnn = "9.1" });
    CHECK(finding(other, "cudnn-bundled")->message
        == "torch 2.0.1 cu118 bundles cuDNN 8.7.0.84 and loads it, not the cuDNN 9.1 of the system");
    CHECK(other.suggestions.empty());
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
    CHECK(suggests(r, "use tensorflow[and-cuda]==2.15.0.post1, which installs"));
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

TEST_CASE(
    "case 14: torch 1.13 cu117 on an RTX 4090 runs on its sm_86 cubins; extensions cannot target sm_89", "[resolve]")
{
    Report r = check({ .frameworks = { "torch==1.13" }, .cuda = "11.7", .gpus = { "RTX 4090" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::warn);
    CHECK(problems(r) == Codes { "gpu-extension-target" });
    // the cubins of the same major are NVIDIA's binary compatibility, said but no caveat
    CHECK(finding(r, "gpu-cubin-compatible")->verdict == Verdict::ok);
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

TEST_CASE("torchaudio 2.11, built on PyTorch's stable ABI, runs with every later torch", "[resolve]")
{
    // TorchAudio 2.11's installation guide: "supports PyTorch 2.11 and all later versions"
    Report later = check({ .frameworks = { "torch==2.13.0", "torchaudio==2.11.0" } });
    SHOW(later);
    CHECK(later.verdict() == Verdict::ok);
    CHECK(finding(later, "companion-stable-abi")->message
        == "torchaudio 2.11.0 is built on PyTorch's stable ABI and runs with torch 2.11 and every later release, torch "
           "2.13.0 cu130 among them");
    CHECK_THAT(finding(later, "companion-stable-abi")->why,
        StartsWith("https://docs.pytorch.org/audio/2.11.0/installation.html"));
    // its own torch pairs as before; an older one does not run it
    CHECK(has_code(check({ .frameworks = { "torch==2.11.0", "torchaudio==2.11.0" } }), "companion-paired"));
    CHECK(
        problems(check({ .frameworks = { "torch==2.10.0", "torchaudio==2.11.0" } })) == Codes { "companion-mismatch" });
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

TEST_CASE(
    "a DGX-2's V100 goes by the name its driver reports, and torch 2.7's cu128 build has no code for it", "[resolve]")
{
    // open-webui/open-webui#13186: "Tesla V100-SXM3-32GB" under the cu128 build, "minimum cuda capability ... 7.5"
    Report r = check({ .frameworks = { "torch==2.7.0+cu128" }, .gpus = { "Tesla V100-SXM3-32GB" } });
    SHOW(r);
    CHECK(problems(r) == Codes { "gpu-no-kernel" });
    CHECK(finding(r, "gpu-no-kernel")->subject == "Tesla V100-SXM3-32GB");
    CHECK(problems(check({ .frameworks = { "torch==2.7.0+cu126" }, .gpus = { "V100 SXM3 32GB" } })).empty());
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
    // The image's gate cannot tell the brand of a bare compute capability either; R470 is
    // admitted on every segment's.
    CHECK(problems(shared) == Codes { "driver-forward-compat", "forward-compat-gpu-unknown" });
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

TEST_CASE("a cuDNN build whose compute capabilities are not on record is judged by the releases on either side of "
          "it, and is unknown where they do not agree",
    "[resolve]")
{
    // cudnn.json: 9.1.0's compute_capabilities are null (not in the excerpt read); 9.0.0 and
    // 9.5.0 list 5.0 to 9.0 for both their CUDA 11 and CUDA 12 builds.
    Report a100 = check({ .frameworks = { "torch==2.4.0" }, .gpus = { "A100 80GB SXM4" } });
    SHOW(a100);
    CHECK(a100.verdict() == Verdict::ok);
    const Finding* inferred = finding(a100, "cudnn-gpu-support-inferred");
    REQUIRE(inferred);
    CHECK(inferred->verdict == Verdict::ok);
    CHECK(inferred->message
        == "the compute capabilities cuDNN 9.1.0 (CUDA 12.0-12.4 build) supports are not on record; cuDNN 9.0.0 "
           "before it and cuDNN 9.5.0 after it both support NVIDIA A100-SXM4-80GB (sm_80) with CUDA 12.1, so it is "
           "taken to as well");
    CHECK(inferred->why
        == "https://docs.nvidia.com/deeplearning/cudnn/backend/v9.0.0/reference/support-matrix.html | "
           "https://docs.nvidia.com/deeplearning/cudnn/v9.5.0/reference/support-matrix.html");

    // torch 2.7.1+cu118 carries sm_37 kernels, but the cuDNN 9.1.0 it bundles has no Kepler
    // on either side (nelson-liu/pytorch-manylinux-binaries#13: it fails on a K80).
    Report k80 = check({ .frameworks = { "torch==2.7.1+cu118" }, .gpus = { "Tesla K80" } });
    SHOW(k80);
    CHECK(k80.verdict() == Verdict::fail);
    const Finding* unsupported = finding(k80, "cudnn-gpu-unsupported");
    REQUIRE(unsupported);
    CHECK(unsupported->message
        == "the compute capabilities cuDNN 9.1.0 (CUDA 11.0-11.8 build) supports are not on record, but neither "
           "cuDNN 9.0.0 before it nor cuDNN 9.5.0 after it supports Tesla K80 (sm_37) with CUDA 11.8, so it is "
           "taken not to either");

    // cuDNN 9.7.1 with CUDA 12.8: no older release on record lists its GPUs for CUDA 12.8.
    Report rtx5090 = check({ .frameworks = { "torch==2.7.0+cu128" }, .gpus = { "RTX 5090" } });
    const Finding* unknown = finding(rtx5090, "cudnn-gpu-support-unknown");
    REQUIRE(unknown);
    CHECK(unknown->verdict == Verdict::unknown);
    CHECK(unknown->message
        == "the compute capabilities cuDNN 9.7.1 (CUDA 12.0-12.8 build) supports are not on record: whether it "
           "supports NVIDIA GeForce RTX 5090 is not known");
}

TEST_CASE("cuDNN from 9.11 carries no code below compute capability 7.5, whatever its CUDA, and 9.10.2 still does",
    "[resolve]")
{
    // immich#23110: Pascal and Maxwell users hit CUDNN_STATUS_EXECUTION_FAILED on 9.14; pytorch#165773:
    // sm_70 "removed in cuDNN starting with 9.11"
    Report maxwell = check({ .cudnn = "9.14", .gpus = { "sm_52" } });
    SHOW(maxwell);
    CHECK(maxwell.verdict() == Verdict::fail);
    CHECK(problems(maxwell) == Codes { "cudnn-gpu-unsupported" });
    CHECK(finding(maxwell, "cudnn-gpu-unsupported")->message
        == "cuDNN 9.14 carries no code for sm_52: from cuDNN 9.11 on, no build supports a compute "
           "capability below 7.5");
    CHECK_THAT(finding(maxwell, "cudnn-gpu-unsupported")->why, Contains("immich-app/immich/pull/23110"));
    CHECK(suggests(maxwell, "use cuDNN 9.10.2, the last release with code for compute capability below 7.5"));
    // with a CUDA, once: the release's own support matrix is not on record, and is not asked again
    Report volta = check({ .cuda = "12.8", .cudnn = "9.11.0", .gpus = { "V100" } });
    CHECK(volta.verdict() == Verdict::fail);
    CHECK(problems(volta) == Codes { "cuda-gpu-deprecated", "cudnn-gpu-unsupported" });
    // Turing and newer are past the floor; 9.10.2 is before it
    CHECK_FALSE(has_code(check({ .cudnn = "9.14", .gpus = { "T4" } }), "cudnn-gpu-unsupported"));
    CHECK_FALSE(
        has_code(check({ .cuda = "12.8", .cudnn = "9.10.2", .gpus = { "GTX 1080" } }), "cudnn-gpu-unsupported"));
}

TEST_CASE("a cuDNN's deprecated architectures hold for every build, so they warn with no CUDA named", "[resolve]")
{
    // immich#23110 pinned 9.10 for Pascal; NVIDIA's 9.10.2 matrix marks Pascal deprecated
    Report pascal = check({ .cudnn = "9.10", .gpus = { "sm_61" } });
    SHOW(pascal);
    CHECK(pascal.verdict() == Verdict::warn);
    CHECK(problems(pascal) == Codes { "cudnn-gpu-deprecated" });
    CHECK(finding(pascal, "cudnn-gpu-deprecated")->message
        == "cuDNN 9.10.2 supports Pascal GPUs (sm_61) only as deprecated: its support matrix marks them for removal "
           "in a later release");
    CHECK(problems(check({ .cudnn = "9.10", .gpus = { "T4" } })).empty());
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

TEST_CASE("a torch line's wheels may run a Python its torch.compile refuses", "[resolve]")
{
    // pytorch/pytorch#169401: in 2.9 "torch.compile is not supported on Python 3.14+"; #169875:
    // 2.10 "torch.compile can now be used in Python 3.14"
    Report r = check({ .frameworks = { "torch==2.9.0" }, .python = "3.14" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::warn);
    CHECK(problems(r) == Codes { "torch-compile-unsupported-python" });
    CHECK(finding(r, "torch-compile-unsupported-python")->message
        == "torch 2.9.0 cu128 runs on Python 3.14 in eager mode, but its torch.compile refuses Python 3.14 with a "
           "RuntimeError; torch 2.10 compiles on it");
    CHECK(problems(check({ .frameworks = { "torch==2.10.0" }, .python = "3.14" })).empty());
    // #104918: 2.0.1 on Python 3.11 ("Python 3.11+ not yet supported for torch.compile")
    CHECK_THAT(
        finding(check({ .frameworks = { "torch==2.0.1" }, .python = "3.11" }), "torch-compile-unsupported-python")
            ->message,
        Catch::Matchers::EndsWith("; torch 2.1 compiles on it"));
    // a Python the line has no wheels for is that failure alone
    CHECK(problems(check({ .frameworks = { "torch==2.9.0" }, .python = "3.15" })) == Codes { "python-unsupported" });
}

TEST_CASE("torch.compile refuses a GPU below compute capability 7.0, which eager mode runs: a warning", "[resolve]")
{
    // pytorch#93801: "Triton currently only supports CUDA Capability >= 7.0"; Inductor raises
    // "Found ... which is too old to be supported by the triton GPU compiler" (nanoGPT#157, a GTX 1080)
    Report pascal = check({ .frameworks = { "torch==2.0.0" }, .gpus = { "GeForce GTX 1080" } });
    SHOW(pascal);
    CHECK(pascal.verdict() == Verdict::warn);
    CHECK(problems(pascal) == Codes { "torch-compile-unsupported-gpu" });
    const Finding* compile = finding(pascal, "torch-compile-unsupported-gpu");
    REQUIRE(compile);
    CHECK(compile->message
        == "torch 2.0.0 cu117 runs on NVIDIA GeForce GTX 1080 (sm_61) in eager mode, but torch.compile refuses it: "
           "its default backend generates Triton kernels, which need compute capability 7.0 (\"Found NVIDIA GeForce "
           "GTX 1080 which is too old to be supported by the triton GPU compiler\")");
    CHECK(compile->why
        == "https://github.com/pytorch/pytorch/issues/93801 | https://github.com/pytorch/pytorch/issues/93528");
    // before torch.compile, on Volta and newer, and where the build has no code for the GPU
    CHECK_FALSE(has_code(
        check({ .frameworks = { "torch==1.13.1" }, .gpus = { "GTX 1080" } }), "torch-compile-unsupported-gpu"));
    CHECK_FALSE(
        has_code(check({ .frameworks = { "torch==2.0.0" }, .gpus = { "V100" } }), "torch-compile-unsupported-gpu"));
    // torch's words name the device, which a bare compute capability does not
    CHECK_THAT(
        finding(check({ .frameworks = { "torch==2.0.0" }, .gpus = { "sm_61" } }), "torch-compile-unsupported-gpu")
            ->message,
        Catch::Matchers::EndsWith("which need compute capability 7.0"));
    // torch's wheels bring Triton on Linux alone: on native Windows the GPU is not what stops it
    CHECK_FALSE(has_code(check({ .frameworks = { "torch==2.7.1+cu128" }, .gpus = { "sm_61" }, .os = "windows" }),
        "torch-compile-unsupported-gpu"));
    Report no_kernel = check({ .frameworks = { "torch==2.8.0+cu128" }, .gpus = { "GTX 1080" } });
    CHECK(has_code(no_kernel, "gpu-no-kernel"));
    CHECK_FALSE(has_code(no_kernel, "torch-compile-unsupported-gpu"));
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
    // none of these lines' torch.compile runs on its experimental Python (pytorch#120233, #144048)
    CHECK(problems(r) == Codes { "python-experimental", "torch-compile-unsupported-python" });
    const Finding* experimental = finding(r, "python-experimental");
    REQUIRE(experimental);
    CHECK(experimental->message == message);
    CHECK_THAT(experimental->why, Contains("RELEASE.md"));
    // One minor further is still unsupported.
    CHECK(problems(check({ .frameworks = { "torch==2.4" }, .python = "3.13" })) == Codes { "python-unsupported" });
}

TEST_CASE("torch 2.5's experimental Python 3.13 has no torchvision or torchaudio wheels", "[resolve]")
{
    // vision#8730: torchvision 0.21 brought 3.13; pip on 3.13 finds torch 2.5.1 but no torchvision 0.20.1
    Report r
        = check({ .frameworks = { "torch==2.5.1", "torchvision==0.20.1", "torchaudio==2.5.1" }, .python = "3.13" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "python-experimental", "torch-compile-unsupported-python", "python-unsupported" });
    std::vector<std::string> unsupported;
    for (const auto& f : r.findings)
        if (f.code == "python-unsupported")
            unsupported.push_back(f.message);
    CHECK(unsupported
        == std::vector<std::string> { "torchvision 0.20.1 has no Python 3.13 wheels: torch 2.5.1 cu124 supports 3.13 "
                                      "experimentally, and its companions were not built for it",
            "torchaudio 2.5.1 has no Python 3.13 wheels: torch 2.5.1 cu124 supports 3.13 experimentally, and its "
            "companions were not built for it" });
    CHECK(suggests(
        r, "use Python 3.9-3.12 with torchvision 0.20.1, or torch >= 2.6 and its torchvision with Python 3.13"));
    // torch alone runs there, with the warnings; the companions run on the line's supported Pythons
    CHECK(check({ .frameworks = { "torch==2.5.1" }, .python = "3.13" }).verdict() == Verdict::warn);
    CHECK(problems(check({ .frameworks = { "torch==2.5.1", "torchvision==0.20.1" }, .python = "3.12" })).empty());
    // where the line's companion wheels are not on record (2.3's experimental 3.12), nothing is said of them
    CHECK(problems(check({ .frameworks = { "torch==2.3.1", "torchvision==0.18.1" }, .python = "3.12" }))
        == Codes { "python-experimental", "torch-compile-unsupported-python" });
}

TEST_CASE("jax on the host's CUDA warns of the ptxas releases XLA knows to miscompile its code", "[resolve]")
{
    // openxla/xla#19927: 'CUDA 12.x < 12.6.3 on Hopper+ is known to be affected' (NVIDIA bug 4826023)
    Report hopper = check({ .frameworks = { "jax[cuda12_local]==0.4.38" }, .cuda = "12.4", .gpus = { "H100" } });
    SHOW(hopper);
    CHECK(hopper.verdict() == Verdict::warn);
    CHECK(problems(hopper) == Codes { "xla-ptxas-miscompile" });
    CHECK(finding(hopper, "xla-ptxas-miscompile")->message
        == "XLA compiles jax 0.4.38 cuda12's kernels with the host's ptxas, and CUDA 12.4's is known to miscompile "
           "XLA code on compute capability 9.0 and newer (H100), giving wrong results: XLA warns to upgrade to CUDA "
           "12.6.3 or newer");
    CHECK(suggests(hopper, "install CUDA >= 12.6.3 on the host, or put its ptxas on PATH"));
    // a line alone may be an update release before the fix
    CHECK_THAT(finding(check({ .frameworks = { "jax[cuda12_local]==0.4.38" }, .cuda = "12.6", .gpus = { "H100" } }),
                   "xla-ptxas-miscompile")
                   ->message,
        Contains("and CUDA 12.6's before 12.6.3 is known to miscompile"));
    // the fixed ptxas, an older GPU, or pip's CUDA (whose ptxas is not the host's) say nothing
    CHECK_FALSE(has_code(check({ .frameworks = { "jax[cuda12_local]==0.4.38" }, .cuda = "12.6.3", .gpus = { "H100" } }),
        "xla-ptxas-miscompile"));
    CHECK_FALSE(has_code(check({ .frameworks = { "jax[cuda12_local]==0.4.38" }, .cuda = "12.4", .gpus = { "A100" } }),
        "xla-ptxas-miscompile"));
    CHECK_FALSE(has_code(check({ .frameworks = { "jax[cuda12]==0.4.38" }, .cuda = "12.4", .gpus = { "H100" } }),
        "xla-ptxas-miscompile"));
    // XLA: 'ptxas before 11.1 is known to miscompile XLA code' on every GPU (jax#10083)
    Report old = check({ .frameworks = { "jaxlib==0.1.69+cuda110" }, .cuda = "11.0", .gpus = { "A100" } });
    SHOW(old);
    CHECK(finding(old, "xla-ptxas-miscompile")->message
        == "XLA compiles jaxlib 0.1.69 cuda110's kernels with the host's ptxas, and CUDA 11.0's is known to miscompile "
           "XLA code, giving wrong results: XLA warns to upgrade to CUDA 11.1 or newer");
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
    // an update number past the line's is never released either; a build number names no line
    CHECK(error_of({ .cuda = "12.4.2" }).message() == "CUDA 12.4.2 is not a CUDA release");
    CHECK(error_of({ .cuda = "12.7.50" }).message() == "CUDA 12.7.50 is not a CUDA release");
}

TEST_CASE("a CUDA component's build number, as nvcc -V prints it, reads as its line", "[resolve]")
{
    // pytorch/pytorch#126605's collect_env: 'CUDA runtime version: 11.8.89' beside 2.3.0+cu118;
    // NVIDIA's redistrib_11.8.0.json: cuda_nvcc and cuda_cudart 11.8.89
    Report runtime = check({ .cuda = "11.8.89", .driver = "535.104.05" });
    SHOW(runtime);
    CHECK(runtime.verdict() == Verdict::ok);
    CHECK(runtime.findings.front().code == "cuda-component-version");
    CHECK(runtime.findings.front().message
        == "CUDA 11.8.89 reads as CUDA 11.8: a number past the line's updates is a component's build, as nvcc -V "
           "(V11.8.89) and collect_env's CUDA runtime print it");
    CHECK(finding(check({ .frameworks = { "torch==2.1.0" }, .cuda = "12.1.105" }), "framework-build")->message
        == "torch==2.1.0 runs as torch 2.1.0 cu121: CUDA 12.1, cuDNN 8.9.2.26, NCCL 2.18.1");
    // before CUDA 11 the toolkits bore such numbers themselves
    CHECK_FALSE(has_code(check({ .cuda = "10.1.243" }), "cuda-component-version"));
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

TEST_CASE("another vendor's GPU runs no CUDA build: check says so, and elsewhere it is bad input", "[resolve]")
{
    auto [typed, vendor, builds] = GENERATE(table<std::string, std::string, std::string>({
        { "Radeon RX 7900 XTX", "AMD", "ROCm builds (such as torch's +rocm wheels)" },
        { "RX 6800", "AMD", "ROCm builds (such as torch's +rocm wheels)" },
        { "RX6800", "AMD", "ROCm builds (such as torch's +rocm wheels)" },
        { "AMD Instinct MI300X", "AMD", "ROCm builds (such as torch's +rocm wheels)" },
        { "MI250X", "AMD", "ROCm builds (such as torch's +rocm wheels)" },
        { "Intel Arc A770", "Intel", "XPU builds (such as torch's +xpu wheels)" },
        { "Apple M2 Max", "Apple", "Metal backends (torch's MPS, tensorflow-metal, jax-metal)" },
    }));
    CAPTURE(typed);
    Report r = check({ .frameworks = { "torch==2.5.1" }, .gpus = { typed } });
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "gpu-not-nvidia" });
    CHECK(finding(r, "gpu-not-nvidia")->message
        == "'" + typed + "' is an " + vendor + " GPU: CUDA builds run on NVIDIA GPUs only, and it runs " + builds
            + ", which dlenv does not judge");
    // a profile or a sizing names the GPU its stack is built for
    try {
        resolve_gpu(matrix::Matrix::embedded(), typed);
        FAIL("another vendor's GPU resolved");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.message() == "'" + typed + "' is an " + vendor + " GPU, not an NVIDIA one");
        CHECK(e.hint()
            == "CUDA builds run on NVIDIA GPUs only: " + vendor + " GPUs run " + builds
                + ", which dlenv does not judge");
    }
}

TEST_CASE("a ROCm build on an AMD GPU is no CUDA stack, and the NVIDIA GPUs beside it are judged", "[resolve]")
{
    // a ROCm wheel and a Radeon each say so; neither hides the other
    Report amd = check({ .frameworks = { "torch==2.0.0+rocm5.4.2" }, .gpus = { "RX 7900 XTX" } });
    CHECK(problems(amd) == Codes { "gpu-not-nvidia", "framework-no-cuda-build" });
    Report mixed = check({ .frameworks = { "torch==2.5.1+cu124" }, .gpus = { "RX 6800", "RTX 4090" } });
    CHECK(problems(mixed) == Codes { "gpu-not-nvidia" });
    CHECK(finding(mixed, "gpu-cubin-compatible")->subject == "NVIDIA GeForce RTX 4090");
}

TEST_CASE("NVIDIA's own M-series names are no other vendor's", "[resolve]")
{
    // Tesla M4 and M40 share Apple's letter; an unknown one still gets the nearest names
    CHECK(check({ .gpus = { "Tesla M40" } }).verdict() == Verdict::ok);
    CHECK_THAT(error_of({ .gpus = { "M49" } }).hint(), StartsWith("did you mean"));
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
        { "pytorh==2.1", "unknown framework 'pytorh'",
            "did you mean torch? known: torch, torchvision, torchaudio, tensorflow and jax" },
        { "torch>=2.1", "'torch>=2.1' does not name one version",
            "write NAME==VERSION, e.g. torch==2.1 or tensorflow==2.15.0, or NAME alone for the newest release" },
        { "torch=2.1", "'torch=2.1' does not name one version",
            "write NAME==VERSION, e.g. torch==2.1 or tensorflow==2.15.0, or NAME alone for the newest release" },
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
        // tensorflow/tensorflow#84167: tensorflow-metal 1.1.0 beside tensorflow 2.18 on an Apple M2 Max
        { "tensorflow-metal==1.1.0",
            "tensorflow-metal is Apple's Metal plugin for tensorflow, which runs it on a Mac's GPU: dlenv checks "
            "NVIDIA CUDA stacks",
            "check tensorflow itself (--framework tensorflow==VERSION --os macos); which tensorflow releases the "
            "plugin supports is Apple's to say" },
        { "jax-metal",
            "jax-metal is Apple's Metal plugin for jax, which runs it on a Mac's GPU: dlenv checks NVIDIA CUDA "
            "stacks",
            "check jax itself (--framework jax==VERSION --os macos); which jax releases the plugin supports is Apple's "
            "to say" },
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
            { "jax[cuda12]", Framework::jax, "cuda12", "", "" }, // the newest release
            { "torch", Framework::torch, "", "", "" },
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
    // before 2.1 the matrix's rows are the tensorflow-gpu builds, so the name reads the same way
    CHECK(FrameworkRequest::parse("tensorflow-gpu==1.15.2").text() == "tensorflow==1.15.2");
}

TEST_CASE("tf-nightly is read as the tensorflow pre-release its version names, and names nothing else", "[resolve]")
{
    // tensorflow/tensorflow#60739: tf-nightly 2.14.0-dev20230531 on an H100 JIT-compiles PTX
    auto request = FrameworkRequest::parse("tf-nightly==2.14.0.dev20230531");
    CHECK(request.framework == Framework::tensorflow);
    CHECK(request.text() == "tensorflow==2.14.0.dev20230531");
    Report h100 = check({ .frameworks = { "tf-nightly==2.14.0.dev20230531" }, .gpus = { "H100" } });
    SHOW(h100);
    CHECK(problems(h100) == Codes { "framework-pre-release", "gpu-ptx-jit" });
    // its only versions are nightlies: a release, or none, names no wheel of it
    for (const char* text : { "tf-nightly==2.14.0", "tf_nightly", "tf-nightly==2.14.0rc1" }) {
        CAPTURE(text);
        Error error = error_of({ .frameworks = { text } });
        CHECK(error.code() == ErrorCode::invalid_input);
        CHECK(error.message()
            == "'" + std::string(text) + "' names no nightly: tf-nightly publishes only nightly builds");
        CHECK(error.hint()
            == "name one as pip lists it (tf-nightly==2.14.0.dev20230531), or the release as tensorflow==X.Y.Z");
    }
}

TEST_CASE("tensorflow-gpu from 2.12 names no build: the request is refused, saying to name tensorflow", "[resolve]")
{
    // PyPI's tensorflow-gpu: GPU builds up to 2.11.0, then a 2.12.0 stub that fails to install
    const std::string pypi = "; see https://pypi.org/project/tensorflow-gpu/";
    auto [text, message, hint] = GENERATE_REF(table<std::string, std::string, std::string>({
        { "tensorflow-gpu==2.12.0",
            "tensorflow-gpu==2.12.0 does not install: the package was retired after 2.11, and 2.12.0 is a stub "
            "whose install stops with \"The tensorflow-gpu package has been removed\"",
            "install tensorflow==2.12.0, the same GPU build under its own name" + pypi },
        { "tensorflow-gpu==2.14",
            "tensorflow-gpu==2.14 does not install: the package was retired after 2.11, and its one later "
            "release, 2.12.0, is a stub whose install fails",
            "install tensorflow==2.14, the same GPU build under its own name (tensorflow[and-cuda]==2.14 brings "
            "CUDA and cuDNN from pip)"
                + pypi },
        // pip installs the newest tensorflow-gpu, the stub (tensorflow#60886)
        { "tensorflow-gpu",
            "tensorflow-gpu does not install: the package was retired after 2.11, and pip installs its last "
            "release, 2.12.0, a stub whose install stops with \"The tensorflow-gpu package has been removed\"",
            "install tensorflow, the same GPU build under its own name (tensorflow[and-cuda] brings CUDA and cuDNN "
            "from pip)"
                + pypi },
        // tensorflow#59720: 'PyPi lists the tensorflow==2.12.0rc0 package, but not ... tensorflow-gpu==2.12.0rc0'
        { "tensorflow-gpu==2.12.0rc0",
            "tensorflow-gpu==2.12.0rc0 does not install: the package was retired after 2.11, and tensorflow's 2.12 "
            "pre-releases were never published under its name",
            "install tensorflow==2.12.0rc0, the same GPU build under its own name" + pypi },
    }));
    CAPTURE(text);
    Error e = error_of({ .frameworks = { text } });
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message() == message);
    CHECK(e.hint() == hint);
    // the releases before it are tensorflow's GPU builds under the old name
    CHECK(check({ .frameworks = { "tensorflow-gpu==2.11.0" } }).verdict() == Verdict::ok);
    CHECK(check({ .frameworks = { "tensorflow-gpu==2.11.0rc2" } }).verdict() == Verdict::warn);
}

TEST_CASE("TensorFlow 1.0 to 1.4 are CUDA 8 builds, with cuDNN 5.1 and then 6", "[resolve]")
{
    // tensorflow/tensorflow#16670: 1.4 runs on CUDA 8.0 and cuDNN 6.0, and 1.5 (CUDA 9.0) fails to import there
    Report four = check({ .frameworks = { "tensorflow-gpu==1.4.0" },
        .cuda = "8.0",
        .cudnn = "6.0",
        .gpus = { "GTX 1080 Ti" },
        .python = "3.5",
        .os = "windows" });
    SHOW(four);
    CHECK(four.verdict() == Verdict::ok);
    CHECK(finding(four, "framework-build")->message == "tensorflow==1.4.0 runs as tensorflow 1.4.0: CUDA 8.0, cuDNN 6");
    CHECK(problems(check({ .frameworks = { "tensorflow-gpu==1.5.0" },
              .cuda = "8.0",
              .cudnn = "6.0",
              .gpus = { "GTX 1080 Ti" },
              .python = "3.5",
              .os = "windows" }))
        == Codes { "framework-cuda-untested", "cudnn-untested-major" });

    // tensorflow/tensorflow#8526: CUDA 8.0 needs a newer Windows driver than 368.71
    Report one = check({ .frameworks = { "tensorflow-gpu==1.0.1" },
        .cuda = "8.0",
        .cudnn = "5.1",
        .driver = "368.71",
        .gpus = { "GTX 960M" },
        .os = "windows" });
    CHECK(problems(one) == Codes { "driver-too-old" });
    CHECK(finding(one, "driver-too-old")->message == "driver 368.71 cannot run CUDA 8.0: the toolkit needs >= 369.30");

    // 1.2 was built with cuDNN 5.1, 1.3 with 6: a cuDNN of the other major does not load
    CHECK(problems(check({ .frameworks = { "tensorflow-gpu==1.2.1" }, .cuda = "8.0", .cudnn = "6.0" }))
        == Codes { "cudnn-untested-major" });
    CHECK(problems(check({ .frameworks = { "tensorflow-gpu==1.3.0" }, .cuda = "8.0", .cudnn = "5.1" }))
        == Codes { "cudnn-untested-major" });
}

TEST_CASE("TensorFlow 1.x loads the CUDA and cuDNN its tested build configuration names", "[resolve]")
{
    // tensorflow/tensorflow#25789: 1.12 (CUDA 9.0) beside CUDA 10.0 looks for libcublas.so.9.0
    Report cuda10 = check({ .frameworks = { "tensorflow-gpu==1.12.0" }, .cuda = "10.0", .gpus = { "V100" } });
    SHOW(cuda10);
    CHECK(problems(cuda10) == Codes { "framework-cuda-untested" });
    CHECK(finding(cuda10, "framework-cuda-untested")->message
        == "tensorflow 1.12.0 was built and tested with CUDA 9.0; CUDA 10.0 is another major version, whose "
           "libraries it does not load");
    // #26209: 1.13 is built against CUDA 10, so CUDA 9.0 fails it, while 1.12 runs there
    CHECK(problems(check({ .frameworks = { "tensorflow==1.13.1" }, .cuda = "9.0" }))
        == Codes { "framework-cuda-untested" });
    CHECK(check({ .frameworks = { "tensorflow==1.12.0" }, .cuda = "9.0", .gpus = { "TITAN Xp" } }).verdict()
        == Verdict::ok);
    // the 1.15 binary was compiled with cuDNN 7.6.0 and refuses 7.5.1 at start
    Report cudnn = check({ .frameworks = { "tensorflow==1.15" }, .cuda = "10.0", .cudnn = "7.5.1" });
    CHECK(problems(cudnn) == Codes { "cudnn-older-than-build" });
    // before 2.1 (1.15.0 aside) the tensorflow package is the CPU build: the note says which
    // package the judged GPU build is (tensorflow#36347, #36476: tensorflow==1.15.2 finds no GPU)
    Report cpu = check({ .frameworks = { "tensorflow==1.15.2" }, .cuda = "10.0" });
    CHECK(cpu.verdict() == Verdict::ok);
    CHECK(finding(cpu, "tensorflow-cpu-package")->message
        == "before 2.1 the tensorflow package is the CPU build: tensorflow==1.15.2 runs without the GPU, and what is "
           "judged here is tensorflow-gpu==1.15.2, its GPU build");
    for (std::string named : { "tensorflow-gpu==1.15.2", "tensorflow==1.15.0", "tensorflow==2.1.0" })
        CHECK_FALSE(has_code(check({ .frameworks = { named } }), "tensorflow-cpu-package"));
    // tensorflow-cpu is the CPU-only build of any release, judged by its release's wheels: 2.8's
    // end at Python 3.10 (openWakeWord#271: pip lists tensorflow-cpu from 2.12 on Python 3.11)
    auto request = FrameworkRequest::parse("tensorflow_cpu==2.8.1");
    CHECK(request.tensorflow_package == TensorflowPackage::cpu);
    CHECK(request.text() == "tensorflow==2.8.1");
    Report py311 = check({ .frameworks = { "tensorflow-cpu==2.8.1" }, .python = "3.11" });
    CHECK(finding(py311, "tensorflow-cpu-package")->message
        == "tensorflow-cpu is TensorFlow's CPU-only build: tensorflow-cpu==2.8.1 runs without the GPU, and what is "
           "judged here is tensorflow==2.8.1, its GPU build, whose Pythons and platforms its wheels share");
    CHECK(problems(py311) == Codes { "python-unsupported" });
    // CUDA 10.0 cannot target Ampere or Ada: no 1.x runs on an RTX 3090 (tensorflow#42958)
    CHECK(problems(check({ .frameworks = { "tensorflow-gpu==1.15.2" }, .gpus = { "RTX 3090" } }))
        == Codes { "cuda-cannot-target-gpu" });
}

TEST_CASE("jax refuses a jaxlib newer than itself, or older than its minimum", "[resolve][jax]")
{
    // google-deepmind/alphafold#1064: "jaxlib version 0.4.38 is newer than and incompatible with
    // jax version 0.4.26"
    Report newer = check({ .frameworks = { "jax==0.4.26", "jaxlib==0.4.38" } });
    SHOW(newer);
    CHECK(newer.verdict() == Verdict::fail);
    CHECK(problems(newer) == Codes { "jaxlib-newer-than-jax" });
    CHECK(finding(newer, "jaxlib-newer-than-jax")->message
        == "jax 0.4.26 refuses jaxlib 0.4.38 at import: \"jaxlib version 0.4.38 is newer than and incompatible with "
           "jax version 0.4.26\"");
    CHECK(suggests(newer, "use jax==0.4.38 with jaxlib==0.4.38"));
    // an older jaxlib down to jax/version.py's _minimum_jaxlib_version is accepted (jax 0.3.16 on
    // 0.3.15); below it jax refuses it (kalininalab/alphafold_non_docker#31: "jaxlib is version
    // 0.1.69, but this version of jax requires version 0.1.74")
    CHECK(check({ .frameworks = { "jax==0.3.16", "jaxlib==0.3.15" } }).verdict() == Verdict::ok);
    Report older = check({ .frameworks = { "jax==0.2.26", "jaxlib==0.1.69+cuda111" } });
    SHOW(older);
    CHECK(problems(older) == Codes { "jaxlib-older-than-jax-needs" });
    CHECK(finding(older, "jaxlib-older-than-jax-needs")->message
        == "jax 0.2.26 needs jaxlib 0.1.74 or newer: it refuses jaxlib 0.1.69 at import, naming the version it "
           "requires");
    CHECK_THAT(finding(older, "jaxlib-older-than-jax-needs")->why, Contains("jax-v0.2.26/jax/version.py"));
    CHECK(suggests(older, "use jaxlib 0.1.74 or newer with jax 0.2.26, or a jax before 0.2.26 with jaxlib 0.1.69"));
    CHECK(check({ .frameworks = { "jax==0.2.25", "jaxlib==0.1.69+cuda111" } }).verdict() == Verdict::ok);
    // from 0.4.32 a jax release needs its own jaxlib
    CHECK(has_code(check({ .frameworks = { "jax==0.4.38", "jaxlib==0.4.36" } }), "jaxlib-older-than-jax-needs"));
}

TEST_CASE("jax's extra names the build of the jaxlib of its version beside it", "[resolve][jax]")
{
    // jax[cuda12] with jaxlib of the same release is the CUDA 12 build, not the release's
    // default CUDA 13 one, which would ask for driver 580
    Report r = check({ .frameworks = { "jax[cuda12]==0.9.0", "jaxlib==0.9.0" }, .driver = "570.133.07" });
    CHECK(
        finding(r, "framework-build")->message == "jax[cuda12]==0.9.0 runs as jax 0.9.0 cuda12: CUDA 12.1, cuDNN 9.8");
    CHECK_FALSE(has_code(r, "driver-too-old"));
    // an extra the release lacks is jax's to answer for
    CHECK(error_of({ .frameworks = { "jax[cuda99]==0.9.0", "jaxlib==0.9.0" } }).message()
        == "jax[cuda99]==0.9.0: jax 0.9.0 has no extra 'cuda99'");
    // a labelled jaxlib names its build itself, and a jaxlib of another version is the build
    CHECK(finding(check({ .frameworks = { "jax[cuda12_pip]==0.4.20", "jaxlib==0.4.20+cuda11.cudnn86" } }),
              "framework-build")
              ->message
        == "jaxlib==0.4.20+cuda11.cudnn86 runs as jaxlib 0.4.20 cuda11_pip: CUDA 11.8, cuDNN 8.6");
    CHECK(finding(check({ .frameworks = { "jax[cuda]==0.3.16", "jaxlib==0.3.15" } }), "framework-build")
              ->message.starts_with("jaxlib==0.3.15 runs as jaxlib 0.3.15"));
}

TEST_CASE("jax 0.8.3 and 0.9.0.1, tagged and published without a CHANGELOG entry, are releases", "[resolve][jax]")
{
    // ma-gilles/recovar#64 pins jax, jaxlib and the CUDA 12 plugin at 0.9.0.1
    Report r = check({ .frameworks = { "jax==0.9.0.1", "jaxlib==0.9.0.1" } });
    CHECK(r.verdict() == Verdict::ok);
    CHECK(finding(r, "framework-build")->message
        == "jaxlib==0.9.0.1 runs as jaxlib 0.9.0.1 cuda13: CUDA 13.0, cuDNN 9.12.0.46");
    CHECK(check({ .frameworks = { "jax[cuda12]==0.8.3", "jaxlib==0.8.3" } }).verdict() == Verdict::ok);
    // jax/version.py at jax-v0.9.0.1: its minimum jaxlib is its own
    CHECK(has_code(check({ .frameworks = { "jax==0.9.0.1", "jaxlib==0.9.0" } }), "jaxlib-older-than-jax-needs"));
}

TEST_CASE("a JAX CUDA plugin of another version than jaxlib is not loaded from 0.5.3", "[resolve][jax]")
{
    // ma-gilles/recovar#64: jax and jaxlib 0.9.0.1 with jax-cuda12-plugin 0.9.2: "JAX plugin
    // jax_cuda12_plugin version 0.9.2 is installed, but it is not compatible with the installed
    // jaxlib version 0.9.0.1", then "No FFI handler registered for cusolver_potrf_ffi"
    Report r = check({ .frameworks = { "jax==0.9.0.1", "jaxlib==0.9.0.1", "jax-cuda12-plugin==0.9.2" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "jax-plugin-version-mismatch" });
    CHECK(finding(r, "jax-plugin-version-mismatch")->message
        == "jax-cuda12-plugin 0.9.2 beside jaxlib 0.9.0.1: jaxlib loads a CUDA plugin of its own version alone (\"JAX "
           "plugin jax_cuda12_plugin version 0.9.2 is installed, but it is not compatible with the installed jaxlib "
           "version 0.9.0.1, so it will not be used\"), and jax runs on the CPU");
    CHECK_THAT(finding(r, "jax-plugin-version-mismatch")->why, Contains("jaxlib/plugin_support.py"));
    CHECK(suggests(r, "pin jax-cuda12-plugin==0.9.0.1, jaxlib's version"));
    // pip's other spelling; the jaxlib a jax names installs, where no jaxlib is named (jax 0.5.2
    // installs jaxlib 0.5.1); the plugin of jaxlib's version
    CHECK(problems(check({ .frameworks = { "jax[cuda12]==0.6.2", "jax_cuda12_plugin==0.6.1" } }))
        == Codes { "jax-plugin-version-mismatch" });
    Report alone = check({ .frameworks = { "jax==0.5.2", "jax-cuda12-plugin==0.5.1" } });
    CHECK(alone.verdict() == Verdict::ok);
    CHECK_FALSE(has_code(alone, "jax-plugin-version-unchecked"));
    CHECK(check({ .frameworks = { "jax[cuda12]==0.9.2", "jax-cuda12-plugin==0.9.2", "jax-cuda12-pjrt==0.9.2" } })
              .verdict()
        == Verdict::ok);
    // before 0.5.3, and for the PJRT package, jaxlib checks no version: not on record
    for (const auto& pair : { std::vector<std::string> { "jax==0.4.30", "jax-cuda12-plugin==0.4.31" },
             std::vector<std::string> { "jax==0.9.2", "jax-cuda12-pjrt==0.9.1" } }) {
        Report unchecked = check({ .frameworks = pair });
        CHECK(unchecked.verdict() == Verdict::ok);
        CHECK(finding(unchecked, "jax-plugin-version-unchecked")->verdict == Verdict::unknown);
    }
    // one named without a version is the one jax[cuda12] pins, a release line any of its releases
    for (const auto& pair : { std::vector<std::string> { "jax[cuda12]==0.9.0", "jax-cuda12-plugin" },
             std::vector<std::string> { "jax==0.9.0", "jax-cuda12-plugin==0.9" } }) {
        Report matched = check({ .frameworks = pair });
        CHECK(matched.verdict() == Verdict::ok);
        CHECK_FALSE(has_code(matched, "jax-plugin-version-mismatch"));
        CHECK_FALSE(has_code(matched, "jax-plugin-version-unchecked"));
    }
    // jax#24901: "Since version 0.4.32 of the jax-cuda12-pjrt and jax-cuda12-plugin packages,
    // installing an older version of jax/jaxlib generates a segfault as soon as an array is instantiated"
    Report newer = check({ .frameworks = { "jax==0.4.31", "jaxlib==0.4.31", "jax-cuda12-plugin==0.4.35" } });
    CHECK(problems(newer) == Codes { "jax-plugin-newer-than-jaxlib" });
    CHECK(finding(newer, "jax-plugin-newer-than-jaxlib")->message
        == "jax-cuda12-plugin 0.4.35 beside jaxlib 0.4.31: a CUDA plugin from 0.4.32 on, newer than jaxlib, crashes "
           "jax with a segmentation fault at its first array, even with JAX_PLATFORMS=cpu");
    CHECK(problems(check({ .frameworks = { "jax==0.5.0", "jax-cuda12-pjrt==0.5.1" } }))
        == Codes { "jax-plugin-newer-than-jaxlib" });
    // before 0.4.32 a newer plugin is not on record; from jaxlib 0.5.3 jaxlib skips it; pip's newest
    CHECK(
        finding(check({ .frameworks = { "jax==0.4.30", "jax-cuda12-plugin==0.4.31" } }), "jax-plugin-version-unchecked")
            ->verdict
        == Verdict::unknown);
    CHECK(problems(check({ .frameworks = { "jax==0.6.0", "jax-cuda12-plugin==0.6.1" } }))
        == Codes { "jax-plugin-version-mismatch" });
    CHECK(problems(check({ .frameworks = { "jax==0.4.35", "jax-cuda12-plugin" } }))
        == Codes { "jax-plugin-newer-than-jaxlib" });
    // a plugin alone is no JAX
    Error lone = error_of({ .frameworks = { "jax-cuda13-plugin==0.9.2" } });
    CHECK(lone.message() == "jax-cuda13-plugin==0.9.2 is the CUDA half of jax[cuda13], which checks with jax");
    CHECK(lone.hint() == "name jax beside it (jax[cuda13]==0.9.2), and jaxlib if it is pinned");
}

TEST_CASE("a JAX package named without a version is the one pip installs beside the pinned ones", "[resolve][jax]")
{
    auto read_as = [](const std::vector<std::string>& frameworks) {
        return finding(check({ .frameworks = frameworks }), "framework-newest-release")->message;
    };
    // setup.py at jax-v0.6.0: "jaxlib >={_minimum_jaxlib_version}, <={_jax_version}", and the
    // cuda12 extra "jax-cuda12-plugin[with-cuda]>={_current_jaxlib_version},<={_jax_version}"
    Report jaxlib = check({ .frameworks = { "jax==0.6.0", "jaxlib" } });
    CHECK(jaxlib.verdict() == Verdict::ok);
    CHECK(finding(jaxlib, "framework-newest-release")->message
        == "jaxlib names no version: read as jaxlib 0.6.0, the jaxlib jax==0.6.0 requires");
    CHECK(read_as({ "jax[cuda12]==0.5.2", "jax-cuda12-plugin" })
        == "jax-cuda12-plugin names no version: read as jax-cuda12-plugin 0.5.1, the version jax[cuda12]==0.5.2 pins");
    CHECK(read_as({ "jax", "jaxlib==0.6.0" })
        == "jax names no version: read as jax 0.6.0, the newest whose requirements admit jaxlib==0.6.0 (what pip "
           "settles on)");
    CHECK(read_as({ "jax[cuda12]", "jaxlib==0.5.1" })
        == "jax[cuda12] names no version: read as jax 0.5.2, the newest whose requirements admit jaxlib==0.5.1 "
           "(what pip settles on)");
    // before 0.4.30 jax requires no jaxlib: pip backs off to 0.4.29, which refuses 0.4.25 at import
    Report backed_off = check({ .frameworks = { "jax", "jaxlib==0.4.25" } });
    CHECK(problems(backed_off) == Codes { "jaxlib-older-than-jax-needs" });
    CHECK_THAT(finding(backed_off, "framework-newest-release")->message, Contains("read as jax 0.4.29"));
    CHECK(problems(check({ .frameworks = { "jax==0.4.20", "jaxlib" } })) == Codes { "jaxlib-newer-than-jax" });
    // jax with no CUDA extra pins no plugin: pip installs the newest, which jaxlib 0.6.0 does not load
    Report unpinned = check({ .frameworks = { "jax==0.6.0", "jax-cuda12-plugin" } });
    CHECK(problems(unpinned) == Codes { "jax-plugin-version-mismatch" });
    CHECK(suggests(unpinned, "pin jax-cuda12-plugin==0.6.0, jaxlib's version"));
    CHECK(check({ .frameworks = { "jax[cuda]", "jax-cuda12-plugin==0.6.0" } }).verdict() == Verdict::ok);
    // one read in turn pins the next: jax from jaxlib, then the plugin from jax
    for (const auto& three : { std::vector<std::string> { "jax[cuda12]", "jaxlib==0.6.0", "jax-cuda12-plugin" },
             std::vector<std::string> { "jax[cuda12]", "jaxlib", "jax-cuda12-plugin==0.6.0" } }) {
        Report chained = check({ .frameworks = three });
        CHECK(chained.verdict() == Verdict::ok);
        CHECK(problems(chained).empty());
    }
    // an extra pins only a plugin its build installs, written as pip compares extras
    CHECK(read_as({ "jax[CUDA12]==0.6.0", "jax-cuda12-plugin" })
        == "jax-cuda12-plugin names no version: read as jax-cuda12-plugin 0.6.0, the version jax[CUDA12]==0.6.0 pins");
    CHECK_THAT(read_as({ "jax[cuda12]==0.4.26", "jax-cuda12-pjrt" }), Contains("the newest release on record"));
    CHECK_THAT(read_as({ "jax[cuda13]", "jax-cuda12-plugin==0.6.0" }), Contains("the newest release on record"));
    // a release without the extra is judged as jax alone: 0.4.22-0.4.29's cuda12 pins jaxlib, 0.4.21 has none
    CHECK_THAT(read_as({ "jax[cuda12]", "jaxlib==0.4.4" }), Contains("read as jax 0.4.21"));
    // a jax release line keeps jaxlib in the line
    CHECK(read_as({ "jax==0.6", "jaxlib" })
        == "jaxlib names no version: read as jaxlib 0.6, the jaxlib jax==0.6 requires");
}

TEST_CASE("a JAX CUDA plugin names jax's build, and a version never published is refused", "[resolve][jax]")
{
    // jax and jaxlib with jax-cuda12-plugin are jax[cuda12]: the CUDA 12 build, which driver 570
    // runs, not the release's default CUDA 13 one
    Report r = check(
        { .frameworks = { "jax==0.9.0.1", "jaxlib==0.9.0.1", "jax-cuda12-plugin==0.9.0.1" }, .driver = "570.133.07" });
    CHECK(finding(r, "framework-build")->message
        == "jaxlib==0.9.0.1 runs as jaxlib 0.9.0.1 cuda12: CUDA 12.1, cuDNN 9.8");
    CHECK(r.verdict() == Verdict::warn);
    CHECK(problems(r) == Codes { "jax-ptxas-newer-than-driver" });
    // a plugin of the other CUDA major beside a jax extra: two plugins installed
    CHECK(
        finding(check({ .frameworks = { "jax[cuda12]==0.9.0", "jax-cuda13-plugin==0.9.0" } }), "jax-plugin-other-cuda")
            ->message
        == "jax-cuda13-plugin is CUDA 13's, beside jax[cuda12]: with both CUDA majors' plugins installed, which one "
           "jax uses is not on record");
    CHECK_FALSE(
        has_code(check({ .frameworks = { "jax[cuda]==0.5.0", "jax-cuda12-plugin==0.5.0" } }), "jax-plugin-other-cuda"));
    // published only with the releases whose builds name them, and not where jax was released alone
    auto [text, message, hint] = GENERATE(table<std::string, std::string, std::string>({
        { "jax-cuda12-plugin==0.4.21",
            "jax-cuda12-plugin==0.4.21: jax-cuda12-plugin 0.4.21 was never published: jax 0.4.21's CUDA builds "
            "install a CUDA jaxlib, no plugin",
            "name the packages of jax 0.4.21, or a release that has jax-cuda12-plugin" },
        { "jax-cuda12-pjrt==0.4.26",
            "jax-cuda12-pjrt==0.4.26: jax-cuda12-pjrt 0.4.26 was never published: jax 0.4.26's CUDA builds install "
            "jax-cuda12-plugin",
            "name the packages of jax 0.4.26, or a release that has jax-cuda12-pjrt" },
        { "jax-cuda13-plugin==0.6.0",
            "jax-cuda13-plugin==0.6.0: jax-cuda13-plugin 0.6.0 was never published: jax 0.6.0's CUDA builds install "
            "jax-cuda12-plugin and jax-cuda12-pjrt",
            "name the packages of jax 0.6.0, or a release that has jax-cuda13-plugin" },
        { "jax-cuda12-plugin==0.5.2",
            "jax-cuda12-plugin==0.5.2: jax-cuda12-plugin 0.5.2 was never published: jax 0.5.2 was released alone, "
            "and its extras install jaxlib 0.5.1",
            "pin jax-cuda12-plugin==0.5.1 with jax==0.5.2, or name jax alone" },
        // beside a jax extra, which used to stand in for the jaxlib request
        { "jaxlib==0.5.2",
            "jaxlib==0.5.2: jaxlib 0.5.2 was never published: jax 0.5.2 was released alone, and its extras install "
            "jaxlib 0.5.1",
            "pin jaxlib==0.5.1 with jax==0.5.2, or name jax alone" },
    }));
    CAPTURE(text);
    Error e = error_of({ .frameworks = { "jax[cuda12]==" + text.substr(text.find("==") + 2), text } });
    CHECK(e.message() == message);
    CHECK(e.hint() == hint);
}

TEST_CASE("jax[cuda12] of 0.4.22-0.4.25 is the plugin build beside cuda12_pip's labelled jaxlib", "[resolve][jax]")
{
    // setup.py gained the cuda12 extra in 0.4.22 (jax-ml/jax 4fe9e59644); jax#19430 installs it
    // for 0.4.23 from JAX's wheel page
    Report plugin = check({ .frameworks = { "jax[cuda12]==0.4.23", "jax-cuda12-plugin==0.4.23" },
        .cudnn = "8.9.7",
        .driver = "545.23.06" });
    CHECK(finding(plugin, "framework-build")->message
        == "jax[cuda12]==0.4.23 runs as jax 0.4.23 cuda12: CUDA 12.2, cuDNN 8.9.4");
    CHECK(plugin.verdict() == Verdict::warn);
    CHECK(problems(plugin) == Codes { "jax-ptxas-newer-than-driver" });
    // the extra's nvidia-cudnn-cu12 pin is as unbounded as cuda12_pip's
    CHECK(problems(check({ .frameworks = { "jax[cuda12]==0.4.25" } })) == Codes { "pip-extra-library-too-new" });
    // a labelled jaxlib is still cuda12_pip's build, the first of the release
    CHECK(finding(check({ .frameworks = { "jaxlib==0.4.23+cuda12.cudnn89" } }), "framework-build")->message
        == "jaxlib==0.4.23+cuda12.cudnn89 runs as jaxlib 0.4.23 cuda12_pip: CUDA 12.2, cuDNN 8.9");
    CHECK(error_of({ .frameworks = { "jax[cuda12]==0.4.21" } }).message()
        == "jax[cuda12]==0.4.21: jax 0.4.21 has no extra 'cuda12'");
}

TEST_CASE("a jaxlib of a release jax published alone names no wheel", "[resolve][jax]")
{
    // jax 0.5.2 "Patch release of 0.5.1": its setup.py pins jaxlib 0.5.1 (PennyLaneAI/catalyst#1681:
    // "jaxlib does not ship wheels for 0.5.2")
    Error e = error_of({ .frameworks = { "jaxlib==0.5.2" } });
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message()
        == "jaxlib==0.5.2: jaxlib 0.5.2 was never published: jax 0.5.2 was released alone, and its extras install "
           "jaxlib 0.5.1");
    CHECK(e.hint() == "pin jaxlib==0.5.1 with jax==0.5.2, or name jax alone");
    // with a CUDA label, and before 0.4.26, as well: jax 0.4.8 was published without jaxlib 0.4.8
    CHECK(error_of({ .frameworks = { "jaxlib==0.4.8+cuda12.cudnn88" } }).message()
        == "jaxlib==0.4.8+cuda12.cudnn88: jaxlib 0.4.8 was never published: jax 0.4.8 was released alone, and its "
           "extras install jaxlib 0.4.7");
    // the jax release itself, and jaxlib 0.5.1 beside it, are what pip installs
    CHECK(check({ .frameworks = { "jax[cuda12]==0.5.2" } }).verdict() == Verdict::ok);
    CHECK(check({ .frameworks = { "jax==0.5.2", "jaxlib==0.5.1" } }).verdict() == Verdict::ok);
    CHECK(check({ .frameworks = { "jaxlib==0.5.1" } }).verdict() == Verdict::ok);
    CHECK(error_of({ .frameworks = { "jax==0.4.37", "jaxlib==0.4.37" } }).message()
        == "jaxlib==0.4.37: jaxlib 0.4.37 was never published: jax 0.4.37 was released alone, and its extras "
           "install jaxlib 0.4.36");
}

TEST_CASE("a jax extra that brings its CUDA from pip runs on it beside another host CUDA", "[resolve][jax]")
{
    // KosinskiLab/AlphaPulldown#398: "installing jax for cuda12 works even for cuda11"
    Report cuda11 = check({ .frameworks = { "jax[cuda12]==0.4.31" }, .cuda = "11.8" });
    SHOW(cuda11);
    CHECK(cuda11.verdict() == Verdict::ok);
    CHECK(finding(cuda11, "framework-build")->message
        == "jax[cuda12]==0.4.31 runs as jax 0.4.31 cuda12: CUDA 12.1, cuDNN 9.1");
    CHECK(finding(cuda11, "jax-pip-cuda-beside-host")->message
        == "jax[cuda12]==0.4.31 brings CUDA 12.1-12.99 from pip and loads that, not the host's CUDA 11.8, unless "
           "LD_LIBRARY_PATH puts the host's libraries first (JAX's guide: keep it unset)");
    // the extra still names the build: jax[cuda11_pip] is the CUDA 11 one beside a host's CUDA 12
    Report cuda12 = check({ .frameworks = { "jax[cuda11_pip]==0.4.20" }, .cuda = "12.2" });
    CHECK(cuda12.verdict() == Verdict::ok);
    CHECK(finding(cuda12, "framework-build")->message
        == "jax[cuda11_pip]==0.4.20 runs as jax 0.4.20 cuda11_pip: CUDA 11.8, cuDNN 8.6");
    // and pip's newest nvcc is what its ptxas is, whatever the host has
    CHECK(has_code(check({ .frameworks = { "jax[cuda12]==0.4.31" }, .cuda = "11.8", .driver = "535.104.05" }),
        "jax-ptxas-newer-than-driver"));
    // a CUDA within the build is the one pip installed
    CHECK_FALSE(
        has_code(check({ .frameworks = { "jax[cuda12]==0.4.31" }, .cuda = "12.4" }), "jax-pip-cuda-beside-host"));
    // jax named without an extra has no build of a CUDA outside its builds: the pip extras are the way
    Report plain = check({ .frameworks = { "jax==0.4.31" }, .cuda = "11.8" });
    CHECK(problems(plain) == Codes { "framework-no-cuda-build" });
    CHECK(plain.suggestions
        == std::vector<std::string> {
            "use jax[cuda12]==0.4.31, whose pip wheels bring CUDA 12.1-12.99 whatever the host has" });
    // the host's cuDNN goes with the host's CUDA: pip brings its own
    Report cudnn = check({ .frameworks = { "jax[cuda12]==0.4.31" }, .cuda = "11.8", .cudnn = "8.6" });
    CHECK(cudnn.verdict() == Verdict::ok);
    CHECK_THAT(finding(cudnn, "jax-pip-cuda-beside-host")->message, Contains("not the host's CUDA 11.8 and cuDNN 8.6"));
    // one --cuda serves every framework named: torch's cu117 wheels share it, so it is not set aside
    Error shared = error_of({ .frameworks = { "torch==2.0.1+cu117", "jax[cuda11_pip]==0.4.16" }, .cuda = "11.7" });
    CHECK(shared.message()
        == "jax[cuda11_pip]==0.4.16 is JAX's CUDA 11.8-11.99 build, not one for CUDA 11.7, which the other frameworks "
           "named share");
    // The CUDA 12 build's floor release has no CUDA 12.1 build (cuDNN 8.8 is CUDA 12.0 only); 8.9's does.
    CHECK(check({ .frameworks = { "jax==0.4.10" }, .cuda = "12.1" }).verdict() == Verdict::ok);
}

TEST_CASE("a jax extra that loads the host's CUDA needs one in its build's range", "[resolve][jax]")
{
    // jax-ml/jax#17829: jaxlib 0.4.16 on a host with CUDA 11.4; the maintainer: "11.8 or
    // newer". jax[cuda11_local] loads that host CUDA, where jax[cuda11_pip] would bring its own.
    Report old = check({ .frameworks = { "jax[cuda11_local]==0.4.16" }, .cuda = "11.4" });
    SHOW(old);
    CHECK(old.verdict() == Verdict::fail);
    CHECK(problems(old) == Codes { "jax-host-cuda-outside-build" });
    CHECK(finding(old, "jax-host-cuda-outside-build")->message
        == "jax[cuda11_local]==0.4.16 loads the CUDA installed on the host, and needs CUDA 11.8-11.99 there, not "
           "11.4");
    CHECK(old.suggestions
        == std::vector<std::string> {
            "install CUDA 11.8-11.99 on the host, or use jax[cuda11_pip], whose pip wheels bring their CUDA" });
    // the judged build is the one asked for, on its own CUDA: its findings stay whole
    CHECK_THAT(finding(old, "framework-build")->message,
        StartsWith("jax[cuda11_local]==0.4.16 runs as jax 0.4.16 cuda11_pip: CUDA 11.8,"));
    // jax-ml/jax#17813: from 0.4.17 a jaxlib refuses CUDA libraries older than its build's; one
    // named by its label alone comes without the pip extra's CUDA wheels and loads the host's
    Report label = check({ .frameworks = { "jax==0.4.17", "jaxlib==0.4.17+cuda12.cudnn89" }, .cuda = "12.1" });
    CHECK(problems(label) == Codes { "jax-host-cuda-outside-build" });
    CHECK(finding(label, "jax-host-cuda-outside-build")->message
        == "jaxlib==0.4.17+cuda12.cudnn89 loads the CUDA installed on the host, and needs CUDA 12.2-12.99 there, not "
           "12.1");
    CHECK(check({ .frameworks = { "jax==0.4.17", "jaxlib==0.4.17+cuda12.cudnn89" }, .cuda = "12.2" }).verdict()
        == Verdict::ok);
    // beside jax[cuda12_pip] of its version it comes with the extra's CUDA wheels, whatever the host has
    CHECK_FALSE(has_code(
        check({ .frameworks = { "jax[cuda12_pip]==0.4.17", "jaxlib==0.4.17+cuda12.cudnn89" }, .cuda = "11.8" }),
        "jax-host-cuda-outside-build"));
    // and with no --cuda, no pip nvcc comes with it to outrun the driver
    CHECK_FALSE(has_code(check({ .frameworks = { "jaxlib==0.4.26+cuda12.cudnn89" }, .driver = "535.104.05" }),
        "jax-ptxas-newer-than-driver"));
    // a host CUDA another build of the release fits points at that build's local extra
    CHECK(check({ .frameworks = { "jax[cuda11_local]==0.4.16" }, .cuda = "12.2" }).suggestions
        == std::vector<std::string> { "use jax[cuda12_local]==0.4.16, its build for CUDA 12.0-12.99" });
    // before 0.4.7 every extra loads the host's CUDA: jax[cuda] and jax[cuda11_cudnn86] are one
    // wheel, and neither brings CUDA from pip
    for (std::string extra : { "cuda", "cuda11_cudnn86" }) {
        Report early = check({ .frameworks = { "jax[" + extra + "]==0.4.4" }, .cuda = "11.4" });
        CAPTURE(extra);
        CHECK(problems(early) == Codes { "jax-host-cuda-outside-build" });
        CHECK(early.suggestions
            == std::vector<std::string> { "use jax[cuda11_cudnn82]==0.4.4, its build for CUDA 11.4-11.99" });
    }
    // the hyphenated extra of 0.6 alike; inside the range it runs on the host's CUDA
    CHECK(problems(check({ .frameworks = { "jax[cuda12-local]==0.6.0" }, .cuda = "12.0" }))
        == Codes { "jax-host-cuda-outside-build" });
    Report fits = check({ .frameworks = { "jax[cuda12_local]==0.4.31" }, .cuda = "12.1" });
    CHECK(fits.verdict() == Verdict::ok);
    CHECK_THAT(finding(fits, "framework-build")->message,
        StartsWith("jax[cuda12_local]==0.4.31 runs as jax 0.4.31 cuda12: CUDA 12.1,"));
}

TEST_CASE("an extra the framework's build does not have is bad input naming the ones it has", "[resolve]")
{
    Error e = error_of({ .frameworks = { "tensorflow[and-cuda]==2.13" } });
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message() == "tensorflow[and-cuda]==2.13: tensorflow 2.13 has no extra 'and-cuda'");
    CHECK(e.hint() == "drop [and-cuda]: tensorflow 2.13 has no pip extra that brings CUDA");
    e = error_of({ .frameworks = { "jax[cuda11]==0.4.31" } });
    CHECK(e.message() == "jax[cuda11]==0.4.31: jax 0.4.31 has no extra 'cuda11'");
    CHECK(e.hint() == "its extras: cuda12 and cuda12_local");
    // with another framework beside it, the same check names it
    e = error_of({ .frameworks = { "torch==2.6.0", "tensorflow[cuda]==2.16" } });
    CHECK(e.message() == "tensorflow[cuda]==2.16: tensorflow 2.16 has no extra 'cuda'");
    CHECK(e.hint() == "its extras: and-cuda");
    // jax-ml/jax#17624: pip warns "jax 0.4.13 does not provide the extra 'cuda10-pip'" and
    // installs CPU jax; the extra is refused before the CUDA no build has, and every build's
    // extras are named
    e = error_of({ .frameworks = { "jax[cuda10_pip]==0.4.13" }, .cuda = "10.1" });
    CHECK(e.message() == "jax[cuda10_pip]==0.4.13: jax 0.4.13 has no extra 'cuda10_pip'");
    CHECK(e.hint() == "its extras: cuda12_pip, cuda12_local, cuda11_pip and cuda11_local");
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
    e = error_of({ .frameworks = { "tensorflow-gpu==0.12.1" } });
    CHECK(e.message() == "the matrix has no tensorflow 0.12 (its oldest tensorflow line is 1.0)");
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
    // every 9.x release NVIDIA's redistrib manifests list is known, its support matrix or not
    // (tensorflow#70958: cuDNN 9.2 beside TensorFlow 2.16.2)
    Report known = check({ .cuda = "12.4", .cudnn = "9.2" });
    CHECK(known.verdict() == Verdict::ok);
    CHECK(
        finding(known, "cudnn-unconfirmed")->message == "the CUDA builds of cuDNN 9.2 are not on record (unconfirmed)");
}

TEST_CASE("a cuDNN patch release not on record is judged by its line's releases, and says so", "[resolve]")
{
    // tensorflow#45089: TF 2.3 with CUDA 11.1 and cuDNN 8.0.4 sees no RTX 3090
    Report r = check({ .frameworks = { "tensorflow==2.3.0" },
        .cuda = "11.1",
        .cudnn = "8.0.4",
        .gpus = { "RTX 3090" },
        .python = "3.8" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "framework-cuda-untested", "cuda-cannot-target-gpu", "cudnn-untested-major" });
    const Finding* unknown = finding(r, "cudnn-release-unknown");
    REQUIRE(unknown);
    CHECK(unknown->verdict == Verdict::unknown);
    CHECK(unknown->message
        == "cuDNN 8.0.4 is not on record: it is judged by the cuDNN 8.0 releases that are (8.0.5, 8.0.3, 8.0.2, 8.0.1 "
           "and 8.0.0)");
    // TensorFlow brings its CUDA: the fix is a line built with one that targets the GPU
    CHECK(suggests(r,
        "for NVIDIA GeForce RTX 3090 use tensorflow >= 2.5, the first line built with a CUDA that "
        "targets sm_86"));
    CHECK_FALSE(suggests(r, "use CUDA >= 11.1"));
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

    // 12.9.1 still targets it, as the last line that deprecates Volta
    Report update = check({ .cuda = "12.9.1", .gpus = { "V100S" } });
    SHOW(update);
    CHECK(problems(update) == Codes { "cuda-gpu-deprecated" });
}

TEST_CASE("a toolkit that deprecates an architecture targets it with a warning, which a framework's wheels do not get",
    "[resolve]")
{
    // CUDA 12.8's release notes: Maxwell, Pascal and Volta are feature-complete, gone in the next major
    Report pascal = check({ .cuda = "12.8.1", .gpus = { "GTX 1080" } });
    SHOW(pascal);
    CHECK(pascal.verdict() == Verdict::warn);
    CHECK(problems(pascal) == Codes { "cuda-gpu-deprecated" });
    CHECK(finding(pascal, "cuda-gpu-deprecated")->message
        == "CUDA 12.8.1 can target sm_61 (NVIDIA GeForce GTX 1080), but deprecates Pascal since CUDA 12.8: CUDA 12.9 "
           "is the last toolkit that targets it");
    CHECK(finding(check({ .cuda = "12.6", .gpus = { "GTX 1080" } }), "cuda-targets-gpu")->verdict == Verdict::ok);
    // CUDA 11.0 deprecates Kepler's sm_35 and sm_37, which 12.0 drops
    Report kepler = check({ .cuda = "11.0", .gpus = { "Tesla K80" } });
    CHECK(problems(kepler) == Codes { "cuda-gpu-deprecated" });
    CHECK_THAT(finding(kepler, "cuda-gpu-deprecated")->message,
        Catch::Matchers::EndsWith(
            "but deprecates Kepler since CUDA 11.0: CUDA 11.8 is the last toolkit that targets it"));
    CHECK(problems(check({ .cuda = "10.2", .gpus = { "Tesla K80" } })).empty());
    // torch 2.10 cu128 carries sm_70 cubins: the toolkit it was built with deprecating Volta changes nothing
    CHECK_FALSE(
        has_code(check({ .frameworks = { "torch==2.10.0+cu128" }, .gpus = { "V100" } }), "cuda-gpu-deprecated"));
}

// --- Driver releases, update releases and cuDNN support notes --------------------------

TEST_CASE("a driver branch runs the CUDA its first release reports, below that CUDA's toolkit driver", "[resolve]")
{
    // nvidia-smi on 520.56.06: "CUDA Version: 11.8" (ksysguard-gpu#27), though CUDA 11.8's toolkit
    // driver is 520.61.05; the container toolkit's cuda>=11.8 reads the same number
    Report r = check({ .frameworks = { "torch==2.1.0+cu118" }, .driver = "520.56.06", .gpus = { "GTX 1080" } });
    SHOW(r);
    CHECK(problems(r) == Codes { "torch-compile-unsupported-gpu" }); // the driver raises none
    CHECK(finding(r, "driver-branch-cuda")->message
        == "driver 520.56.06 runs CUDA 11.8 applications: the 520 branch reports CUDA 11.8 from its first release, "
           "below the CUDA 11.8 toolkit driver 520.61.05");
    CHECK(finding(r, "driver-branch-cuda")->why
        == "https://github.com/lestofante/ksysguard-gpu/issues/27 | https://github.com/tensorflow/docs/pull/1616");
    CHECK(finding(r, "image-require-cuda")->verdict == Verdict::ok);
    // so the branch as a whole runs it, and 550.40.07 runs CUDA 12.4 alike
    CHECK(problems(check({ .cuda = "11.8", .driver = "520", .gpus = { "RTX 3080" } })).empty());
    CHECK(problems(check({ .cuda = "12.4", .driver = "550.40.07", .gpus = { "RTX 4070" } })).empty());
    // a newer CUDA than the branch reports is still judged by its toolkit driver
    CHECK(problems(check({ .cuda = "12.5", .driver = "550.40.07", .gpus = { "RTX 4070" } }))
        == Codes { "driver-minor-version-compat", "image-require-cuda" });
}

TEST_CASE("a driver given as its branch is read as the branch's newest release, and its first releases are "
          "judged too",
    "[resolve]")
{
    Report r = check({ .frameworks = { "torch==2.1.2" }, .driver = "535" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::ok);
    CHECK(r.findings.front().code == "driver-branch");
    CHECK(r.findings.front().message
        == "driver 535 is read as 535.309.01, the newest 535 release on record (what a distribution's "
           "nvidia-driver-535 package installs): give the release nvidia-smi shows for an answer about it");
    CHECK(r.findings.front().why == driver_release_tags);
    CHECK(finding(r, "driver-backward-compatible")->message
        == "driver 535.309.01 runs CUDA 12.1 applications (the CUDA 12.1 toolkit driver is 530.30.02; newer drivers "
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
        Contains("470.256.02, the newest 470 release on record (what a distribution's nvidia-driver-470 package "
                 "installs); the 470 releases on record are a partial list"));
    CHECK(problems(old) == Codes { "driver-too-old" });

    // branches before the open kernel modules come from nvidia-settings' tags: a CUDA 9.1 host
    // ("found version 9010") given as its branch fails a CUDA 10.2 build on the branch's last release
    Report fermi_era = check({ .frameworks = { "torch==1.12.1" }, .cuda = "10.2", .driver = "390" });
    CHECK(fermi_era.verdict() == Verdict::fail);
    CHECK_THAT(fermi_era.findings.front().message, Contains("driver 390 is read as 390.157, the newest 390 release"));
    CHECK(problems(fermi_era) == Codes { "driver-too-old", "cudnn-driver-too-old" });
    CHECK(finding(fermi_era, "driver-too-old")->message
        == "driver 390.157 cannot run CUDA 10.2: the toolkit needs >= 440.33");

    Error unknown = error_of({ .cuda = "11.8", .driver = "352" });
    CHECK(unknown.message() == "driver 352 is no driver branch the matrix lists releases of");
    CHECK_THAT(unknown.hint(),
        StartsWith("give the release nvidia-smi shows (535.104.05); branches on record: 610, 595, 590, 580,"));
    CHECK(error_of({ .driver = "99999" }).message() == "'99999' is not a driver version");
}

TEST_CASE("a driver branch is read as NVIDIA's documents write it, R535 or r535, and nothing looser", "[resolve]")
{
    for (std::string spelled : { "R535", "r535" }) {
        Report r = check({ .frameworks = { "torch==2.1.2" }, .driver = spelled });
        CHECK(r.verdict() == Verdict::ok);
        CHECK_THAT(r.findings.front().message, StartsWith("driver 535 is read as 535.309.01, the newest 535 release"));
    }
    CHECK(error_of({ .driver = "R" }).message() == "'R' is not a driver version");
    CHECK(error_of({ .driver = "R53500" }).message() == "'R53500' is not a driver version");
    CHECK(error_of({ .driver = "X535" }).message() == "'X535' is not a driver version");
}

TEST_CASE("a framework named without a version is read as its newest release on record, a companion as the one "
          "paired with its torch",
    "[resolve]")
{
    // pip install "jax[cuda12]" on native Windows: JAX publishes no CUDA build for it
    Report r = check({ .frameworks = { "jax[cuda12]" }, .os = "windows" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(r.findings.front().code == "framework-newest-release");
    CHECK(r.findings.front().verdict == Verdict::ok);
    CHECK(r.findings.front().message
        == "jax[cuda12] names no version: read as jax 0.11.1, the newest release on record (what pip installs, "
           "unless a newer one is out): pin the version for an answer about yours");
    CHECK_THAT(r.findings.front().why, StartsWith("https://github.com/jax-ml/jax/blob/"));
    // pip settles on a release without the extra if need be: the install runs on the CPU, not on
    // the GPU the extra asks for, where a version named with it does not install
    CHECK(problems(r) == problems(check({ .frameworks = { "jax==0.11.0" }, .gpus = { "RTX 4090" }, .os = "windows" })));
    CHECK(error_of({ .frameworks = { "jax[cuda12]==0.11.0" }, .os = "windows" }).message()
        == "jax[cuda12]==0.11.0: jax[cuda12] does not install on native Windows: it requires jax-cuda12-plugin, which "
           "is published for Linux alone");
    CHECK(problems(r) == Codes { "framework-no-windows-gpu" });

    // torchvision alone beside torch 2.1 is the 2.1 line's newest pairing (torch 2.1.2, torchvision 0.16.2)
    Report paired = check({ .frameworks = { "torch==2.1", "torchvision" } });
    SHOW(paired);
    CHECK(paired.verdict() == Verdict::ok);
    CHECK(finding(paired, "framework-newest-release")->message
        == "torchvision names no version: read as torchvision 0.16.2, the newest release on record (what pip "
           "installs, unless a newer one is out): pin the version for an answer about yours");

    // a torch release pairs with its own companion, not its line's newest
    CHECK_THAT(finding(check({ .frameworks = { "torch==2.1.1", "torchvision" } }), "framework-newest-release")->message,
        StartsWith("torchvision names no version: read as torchvision 0.16.1,"));

    // every bare name gets its own finding; a named version none
    Report two = check({ .frameworks = { "torch", "jax" } });
    CHECK(std::count_if(two.findings.begin(), two.findings.end(), [](const Finding& f) {
        return f.code == "framework-newest-release";
    }) == 2);
    CHECK_FALSE(has_code(check({ .frameworks = { "jax==0.11.0" } }), "framework-newest-release"));
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
    CHECK(unreleased->why == driver_release_tags);
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
        { "595.60.01", "the matrix knows every Linux release of branch 595 only through 595.45.04" },
        { "450.59", "the matrix lists only some Linux releases of branch 450" },
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
    CHECK(problems(r) == Codes { "cudnn-gpu-deprecated", "torch-compile-unsupported-gpu" });
    CHECK(has_code(r, "gpu-cubin-compatible")); // sm_60 cubins run on 6.1
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
    CHECK(problems(pascal) == Codes { "torch-compile-unsupported-gpu" });
    CHECK(finding(pascal, "cudnn-cuda-not-recommended")->message
        == "NVIDIA recommends cuDNN 9.5.1 with CUDA 11.8 on Pascal GPUs (NVIDIA GeForce GTX 1080 Ti), not CUDA 12.6");
    Report ada = check({ .frameworks = { "torch==2.6+cu126" }, .driver = "570.124.06", .gpus = { "RTX 4090" } });
    CHECK_FALSE(has_code(ada, "cudnn-cuda-not-recommended"));
    Report older = check({ .cuda = "12.4", .cudnn = "9.5", .driver = "570.124.06", .gpus = { "RTX 3090" } });
    SHOW(older);
    CHECK(finding(older, "cudnn-cuda-not-recommended")->message
        == "NVIDIA recommends cuDNN 9.5.1 with CUDA 12.6 on Ampere GPUs (NVIDIA GeForce RTX 3090), not CUDA 12.4");
}

TEST_CASE("CUDA 13.3 to 13.5 are releases, and from 13.4 NVIDIA names a driver branch, not a driver", "[resolve]")
{
    // the 13.3 notes and runfiles: 610.43.02
    Report current = check({ .cuda = "13.3", .driver = "610.43.02" });
    CHECK(current.verdict() == Verdict::ok);
    CHECK(finding(current, "driver-backward-compatible")->message
        == "driver 610.43.02 runs CUDA 13.3 applications (the CUDA 13.3 toolkit driver is 610.43.02; newer drivers run "
           "older CUDA)");
    CHECK(has_code(check({ .cuda = "13.3.1", .driver = "595.45.04" }), "driver-minor-version-compat"));
    // 13.4 and 13.5 are known releases whose driver floor is not on record
    for (const std::string cuda : { "13.4", "13.4.2", "13.5" }) {
        CAPTURE(cuda);
        Report branch = check({ .cuda = cuda, .driver = "615.20.02" });
        CHECK(branch.verdict() == Verdict::ok);
        const std::string line = cuda.substr(0, 4);
        CHECK(finding(branch, "driver-floor-unknown")->message
            == "the driver CUDA " + line + " needs is not on record: no CUDA " + line
                + " release of the matrix carries a driver floor (--explain shows its rows)");
    }
    // below the minor-version floor of CUDA 13 no 13.x runs
    Report old = check({ .cuda = "13.5", .driver = "570.86.15" });
    CHECK(old.verdict() == Verdict::fail);
    CHECK(finding(old, "driver-too-old")->message
        == "driver 570.86.15 cannot run CUDA 13.5: CUDA 13.x needs >= 580.65.06 even under minor-version "
           "compatibility");
}
