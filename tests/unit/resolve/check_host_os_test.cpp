// `dlenv check --os`: frameworks whose CUDA builds do not run on native Windows, and a Windows
// driver judged by CUDA's Windows floors, against the embedded matrix.

#include "support/check_ask.h"

using namespace dlenv;
using namespace dlenv::resolve;
using namespace dlenv::resolve::check_support;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

TEST_CASE(
    "an operating system is linux, windows, wsl2 or macos, whatever the case, and a refusal names them", "[resolve]")
{
    CHECK(parse_host_os("linux") == HostOs::linux_host);
    CHECK(parse_host_os("Windows") == HostOs::windows_native);
    CHECK(parse_host_os("WSL2") == HostOs::windows_wsl2);
    CHECK(parse_host_os("macOS") == HostOs::macos);
    auto refused = [](std::string_view text) {
        try {
            parse_host_os(text);
        } catch (const Error& e) {
            return e.code() == ErrorCode::invalid_input ? e.message() + " | " + e.hint() : std::string("other error");
        }
        return std::string("accepted");
    };
    CHECK(refused("osx")
        == "unknown operating system 'osx' | use linux, windows (native Windows), wsl2 (WSL 2 on Windows) or macos");
}

TEST_CASE("no framework build sees an NVIDIA GPU on macOS, TensorFlow's but for 1.0 and 1.1", "[resolve]")
{
    // OneTrainer#169: torch==2.1.2+cu118 on an M2 Mac; pytorch#4516: no macOS + CUDA binaries
    Report torch = check({ .frameworks = { "torch==2.1.2+cu118" }, .python = "3.10", .os = "macos" });
    SHOW(torch);
    CHECK(torch.verdict() == Verdict::fail);
    CHECK(problems(torch) == Codes { "framework-no-macos-gpu" });
    CHECK(finding(torch, "framework-no-macos-gpu")->message
        == "torch 2.1.2 has no CUDA on macOS: torch's macOS wheels are CPU builds, so it sees no NVIDIA GPU there");
    CHECK(suggests(
        torch, "run torch 2.1.2 on Linux with an NVIDIA GPU (or in dlenv's Linux image); on macOS it runs on the CPU"));
    // the GPU, driver and cuDNN rules have nothing to judge there
    Report gpu = check({ .frameworks = { "torch==2.1.2" }, .driver = "418.39", .gpus = { "GTX 1080" }, .os = "macos" });
    SHOW(gpu);
    CHECK(problems(gpu) == Codes { "framework-no-macos-gpu" });
    // tensorflow's install guide: 'As of version 1.2, TensorFlow no longer provides GPU support on macOS'
    Report tf = check({ .frameworks = { "tensorflow==2.14.0" }, .cuda = "11.8", .python = "3.12", .os = "macos" });
    SHOW(tf);
    CHECK(problems(tf) == Codes { "python-unsupported", "framework-no-macos-gpu" });
    CHECK(finding(tf, "framework-no-macos-gpu")->message
        == "tensorflow 2.14.0 has no CUDA on macOS: tensorflow's macOS wheels are CPU builds after 1.1, so it sees "
           "no NVIDIA GPU there");
    CHECK_FALSE(
        has_code(check({ .frameworks = { "tensorflow-gpu==1.1.0" }, .os = "macos" }), "framework-no-macos-gpu"));
    CHECK(problems(check({ .frameworks = { "jax[cuda12]==0.4.30" }, .os = "macos" }))
        == Codes { "framework-no-macos-gpu" });
}

TEST_CASE("TensorFlow after 2.10 has no GPU on native Windows, and does under WSL 2", "[resolve]")
{
    // tensorflow#85006: TF 2.18.0 on Windows 11, driver 561.17, RTX 4080: CPU only
    Report native = check({ .frameworks = { "tensorflow==2.18.0" },
        .driver = "561.17",
        .gpus = { "RTX 4080" },
        .python = "3.11",
        .os = "windows" });
    SHOW(native);
    CHECK(native.verdict() == Verdict::fail);
    CHECK(problems(native) == Codes { "framework-no-windows-gpu" });
    CHECK(finding(native, "framework-no-windows-gpu")->message
        == "tensorflow 2.18.0 has no GPU on native Windows: tensorflow 2.10 was the last release with it, and later "
           "ones run on the CPU there");
    CHECK(suggests(native, "run tensorflow 2.18.0 under WSL 2 (--os wsl2), or pin tensorflow 2.10 on native Windows"));
    // the driver is judged by CUDA 12.5's Windows floor, and native Windows runs no container
    CHECK(finding(native, "driver-backward-compatible")->message
        == "driver 561.17 runs CUDA 12.5 applications (the CUDA 12.5 toolkit driver is 555.85; newer drivers run "
           "older CUDA)");
    CHECK_FALSE(has_code(native, "image-require-cuda"));

    Report wsl2 = check({ .frameworks = { "tensorflow==2.18.0" },
        .driver = "561.17",
        .gpus = { "RTX 4080" },
        .python = "3.11",
        .os = "wsl2" });
    SHOW(wsl2);
    CHECK(wsl2.verdict() == Verdict::ok);
    CHECK(problems(wsl2).empty());
    // WSL 2's container toolkit reads the Windows number: 561.17 meets CUDA 12.5's Windows floor
    CHECK(finding(wsl2, "image-require-cuda")->verdict == Verdict::ok);

    // 2.10 is the last line with GPU on native Windows
    Report last = check({ .frameworks = { "tensorflow==2.10.1" }, .driver = "461.40", .os = "windows" });
    SHOW(last);
    CHECK_FALSE(has_code(last, "framework-no-windows-gpu"));
    CHECK(last.verdict() == Verdict::ok);
}

TEST_CASE(
    "tensorflow[and-cuda] does not install on native Windows: it requires nvidia-nccl-cu12, Linux-only", "[resolve]")
{
    // tensorflow#64525: "Could not find a version that satisfies the requirement
    // nvidia-nccl-cu12==2.19.3; extra == "and-cuda" (from tensorflow[and-cuda])"
    Error e = error_of({ .frameworks = { "tensorflow[and-cuda]==2.16.1" }, .os = "windows" });
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message()
        == "tensorflow[and-cuda]==2.16.1: tensorflow[and-cuda] does not install on native Windows: it requires "
           "nvidia-nccl-cu12, which is published for Linux alone");
    CHECK(
        e.hint() == "run it under WSL 2 (--os wsl2), or in dlenv's Linux image, or drop [and-cuda] for the CPU build");
    // without the extra it installs, and runs on the CPU; under WSL 2 the extra installs
    CHECK(has_code(check({ .frameworks = { "tensorflow==2.16.1" }, .os = "windows" }), "framework-no-windows-gpu"));
    CHECK_FALSE(has_code(
        check({ .frameworks = { "tensorflow[and-cuda]==2.16.1" }, .os = "wsl2" }), "framework-no-windows-gpu"));
}

TEST_CASE("JAX has no GPU on native Windows in any release, and only experimentally under WSL 2", "[resolve]")
{
    Report native = check({ .frameworks = { "jax==0.4.30" }, .gpus = { "RTX 4090" }, .os = "windows" });
    SHOW(native);
    CHECK(native.verdict() == Verdict::fail);
    CHECK(finding(native, "framework-no-windows-gpu")->message
        == "jax 0.4.30 has no GPU on native Windows: no jax release publishes CUDA builds for it");
    CHECK(suggests(native, "run jax under WSL 2 (--os wsl2), or in dlenv's Linux image"));
    CHECK(finding(check({ .frameworks = { "jaxlib==0.4.1" }, .driver = "537.58", .os = "windows" }),
              "framework-no-windows-gpu")
              ->message
        == "jaxlib 0.4.1 has no GPU on native Windows: no jaxlib release publishes CUDA builds for it");

    Report wsl2 = check({ .frameworks = { "jax==0.4.30" }, .os = "wsl2" });
    SHOW(wsl2);
    CHECK(wsl2.verdict() == Verdict::warn);
    CHECK(problems(wsl2) == Codes { "framework-wsl2-experimental" });
    CHECK(finding(wsl2, "framework-wsl2-experimental")->message
        == "jax's GPU support under WSL 2 is experimental in its own words");

    // torch publishes CUDA wheels for Windows
    CHECK_FALSE(
        has_code(check({ .frameworks = { "torch==2.4.1+cu121" }, .os = "windows" }), "framework-no-windows-gpu"));

    // a CUDA jaxlib named by its label is a wheel pip on Windows does not find
    Error e = error_of({ .frameworks = { "jaxlib==0.4.9+cuda12.cudnn88" }, .os = "windows" });
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message()
        == "jaxlib==0.4.9+cuda12.cudnn88: jaxlib 0.4.9+cuda12.cudnn88 is not published for native Windows: no jaxlib "
           "release publishes CUDA builds for it");
    CHECK(e.hint() == "run it under WSL 2 (--os wsl2), or in dlenv's Linux image");
    CHECK(check({ .frameworks = { "jaxlib==0.4.9+cuda12.cudnn88" }, .os = "wsl2" }).verdict() == Verdict::warn);
}

TEST_CASE("torch from PyPI is the CPU build on native Windows: its CUDA builds come from PyTorch's index", "[resolve]")
{
    // uv's PyTorch guide: PyPI "hosts CPU-only wheels for Windows and macOS"
    Report pip = check({ .frameworks = { "torch==2.7.0" }, .gpus = { "RTX 4090" }, .os = "windows" });
    SHOW(pip);
    CHECK(pip.verdict() == Verdict::warn);
    CHECK(problems(pip) == Codes { "framework-windows-pypi-cpu" });
    CHECK(finding(pip, "framework-windows-pypi-cpu")->message
        == "pip's torch 2.7.0 from PyPI is the CPU build on native Windows: judged as the cu126 build, which installs "
           "from https://download.pytorch.org/whl/cu126");
    CHECK(suggests(pip,
        "on native Windows install torch 2.7.0 with --index-url https://download.pytorch.org/whl/cu126, or name its "
        "build (torch==2.7.0+cu126)"));
    CHECK(finding(pip, "framework-build")->message
        == "torch==2.7.0 runs as torch 2.7.0 cu126: CUDA 12.6, cuDNN 9.5.1.17, NCCL 2.26.2 (PyPI's default build on "
           "Linux)");

    // a build named by its label or its CUDA comes from PyTorch's index; WSL 2 installs Linux's wheel
    for (const auto& ask : { Ask { .frameworks = { "torch==2.7.0+cu126" }, .os = "windows" },
             Ask { .frameworks = { "torch==2.7.0" }, .cuda = "12.8", .os = "windows" },
             Ask { .frameworks = { "torch==2.7.0" }, .os = "wsl2" } }) {
        Report named = check(ask);
        SHOW(named);
        CHECK(named.verdict() == Verdict::ok);
        CHECK_FALSE(has_code(named, "framework-windows-pypi-cpu"));
    }
    CHECK_THAT(finding(check({ .frameworks = { "torch==2.7.0" }, .os = "wsl2" }), "framework-build")->message,
        EndsWith("(the PyPI default build)"));
}

TEST_CASE("a plain wheel with no GPU named runs as asked where pip's build is a CPU one: macOS, torch on Windows",
    "[resolve]")
{
    // developer.apple.com/metal/pytorch: 'pip3 install torch' on a Mac with Python 3.10 or later
    Report macos = check({ .frameworks = { "torch==2.11.0" }, .python = "3.12", .os = "macos" });
    SHOW(macos);
    CHECK(macos.verdict() == Verdict::ok);
    CHECK(finding(macos, "framework-macos-cpu")->message
        == "pip's torch 2.11.0 on macOS is its CPU build, with no CUDA: no GPU, driver or CUDA is named, so it runs "
           "as asked");
    CHECK_THAT(finding(macos, "framework-build")->message, EndsWith("(PyPI's default build on Linux)"));
    // its Python rules and companions are judged as anywhere: no macOS wheel of 2.11 for 3.9
    Report old_python = check({ .frameworks = { "torch==2.11.0" }, .python = "3.9", .os = "macos" });
    CHECK(problems(old_python) == Codes { "python-unsupported" });
    CHECK(problems(check({ .frameworks = { "torch==2.8.0", "torchvision==0.21.0" }, .os = "macos" }))
        == Codes { "companion-mismatch" });
    CHECK(check({ .frameworks = { "tensorflow==2.15.0" }, .python = "3.11", .os = "macos" }).verdict() == Verdict::ok);
    // a GPU, a driver, a CUDA label or a CUDA extra asks for what macOS has not
    for (const auto& ask : { Ask { .frameworks = { "torch==2.11.0" }, .gpus = { "RTX 4090" }, .os = "macos" },
             Ask { .frameworks = { "torch==2.11.0" }, .driver = "580.95.05", .os = "macos" },
             Ask { .frameworks = { "torch==2.11.0+cu130" }, .os = "macos" },
             Ask { .frameworks = { "torch==2.8.0", "torchvision==0.23.0+cu128" }, .os = "macos" },
             Ask { .frameworks = { "jax[cuda12]==0.4.30" }, .os = "macos" } }) {
        Report cuda = check(ask);
        SHOW(cuda);
        CHECK(problems(cuda) == Codes { "framework-no-macos-gpu" });
    }

    // pytorch#144430: 2.6.0 ships Python 3.13 Windows wheels; uv's PyTorch guide: PyPI's are CPU builds
    Report windows = check({ .frameworks = { "torch==2.6.0" }, .python = "3.13", .os = "windows" });
    SHOW(windows);
    CHECK(windows.verdict() == Verdict::ok);
    CHECK(finding(windows, "framework-windows-pypi-cpu")->message
        == "pip's torch 2.6.0 from PyPI is the CPU build on native Windows: no GPU or driver is named, so it runs as "
           "asked; for CUDA, the cu124 build, which installs from https://download.pytorch.org/whl/cu124");
    CHECK(suggests(windows,
        "on native Windows install torch 2.6.0 with --index-url https://download.pytorch.org/whl/cu124, or name its "
        "build (torch==2.6.0+cu124)"));
    // TensorFlow's Windows wheels after 2.10 lost the GPU their earlier ones had: still a failure
    CHECK(problems(check({ .frameworks = { "tensorflow==2.12.0" }, .python = "3.10", .os = "windows" }))
        == Codes { "framework-no-windows-gpu" });
}

TEST_CASE("JAX's native Windows wheels are experimental CPU builds from jaxlib 0.4.13, none before", "[resolve]")
{
    // jax's CHANGELOG, jaxlib 0.4.13: 'Added Windows CPU-only wheels'; its installation guide lists
    // 'Windows, x86_64 (experimental)' among the CPU wheels
    Report cpu = check({ .frameworks = { "jax[cpu]==0.4.13" }, .python = "3.11", .os = "windows" });
    SHOW(cpu);
    CHECK(cpu.verdict() == Verdict::warn);
    CHECK(problems(cpu) == Codes { "framework-windows-cpu-experimental" });
    CHECK(finding(cpu, "framework-windows-cpu-experimental")->message
        == "pip's jax 0.4.13 on native Windows is its CPU build (no jax release publishes CUDA builds for it), "
           "experimental in jax's own words: no GPU, driver or CUDA is named, so it runs as asked");
    // jax#16533, the README of the release: 'Windows, x86-64 (experimental)' among jaxlib's wheels
    Report pair = check({ .frameworks = { "jax==0.4.13", "jaxlib==0.4.13" }, .os = "windows" });
    CHECK(problems(pair) == Codes { "framework-windows-cpu-experimental" });
    CHECK(finding(pair, "framework-windows-cpu-experimental")->message
        == "pip's jaxlib 0.4.13 on native Windows is its CPU build (no jaxlib release publishes CUDA builds for it), "
           "experimental in jax's own words: no GPU, driver or CUDA is named, so it runs as asked");
    // jax#2187: 'pip install jax==0.1.57 jaxlib==0.1.37' on Windows finds no jaxlib ('we don't support
    // Windows yet'), nor does it for the jaxlib jax 0.2.26 requires
    Report none = check({ .frameworks = { "jax==0.2.26", "jaxlib==0.1.74" }, .os = "windows" });
    SHOW(none);
    CHECK(problems(none) == Codes { "framework-no-windows-wheel" });
    CHECK(finding(none, "framework-no-windows-wheel")->message
        == "jaxlib 0.1.74 publishes no wheels for native Windows: jaxlib's Windows wheels, CPU builds, start at "
           "0.4.13, so pip finds none there");
    CHECK(suggests(none, "use jaxlib >= 0.4.13 on native Windows, or run jaxlib 0.1.74 under WSL 2 (--os wsl2)"));
}

TEST_CASE(
    "tensorflow-cpu runs on native Windows after 2.10, where a plain tensorflow is asked for its GPU", "[resolve]")
{
    Report cpu = check({ .frameworks = { "tensorflow-cpu==2.15.0" }, .python = "3.11", .os = "windows" });
    SHOW(cpu);
    CHECK(cpu.verdict() == Verdict::ok);
    CHECK(finding(cpu, "framework-windows-cpu")->message
        == "pip's tensorflow 2.15.0 on native Windows is its CPU build (tensorflow 2.10 was the last release with GPU "
           "there): no GPU, driver or CUDA is named, so it runs as asked");
    CHECK(problems(check({ .frameworks = { "tensorflow==2.15.0" }, .python = "3.11", .os = "windows" }))
        == Codes { "framework-no-windows-gpu" });
}

TEST_CASE("torch 2.5's experimental Python 3.13 has no Windows wheels: they begin with 2.6", "[resolve]")
{
    // pytorch/pytorch#144430: no torch-2.5.1-cp313-cp313-win_amd64.whl, "part of an upcoming 2.6.0"
    Report windows = check({ .frameworks = { "torch==2.5.1+cu124" }, .python = "3.13", .os = "windows" });
    SHOW(windows);
    CHECK(windows.verdict() == Verdict::fail);
    CHECK(problems(windows) == Codes { "python-unsupported" });
    CHECK(finding(windows, "python-unsupported")->message
        == "torch 2.5.1 cu124 has no Python 3.13 wheels for Windows: its support of it is experimental, and on Linux "
           "only");
    CHECK(suggests(windows, "use Python 3.9-3.12 with torch 2.5.1 cu124, or torch >= 2.6 with Python 3.13"));
    // on Linux it is the experimental support PyTorch's matrix names, without torch.compile
    CHECK(problems(check({ .frameworks = { "torch==2.5.1+cu124" }, .python = "3.13" }))
        == Codes { "python-experimental", "torch-compile-unsupported-python" });
    CHECK(problems(check({ .frameworks = { "torch==2.6.0+cu124" }, .python = "3.13", .os = "windows" })).empty());
    // #130249's table: 2.5's 3.13 wheels are Linux ones, none for macOS either
    Report macos = check({ .frameworks = { "torch==2.5.1" }, .python = "3.13", .os = "macos" });
    CHECK(problems(macos) == Codes { "python-unsupported" });
    CHECK(finding(macos, "python-unsupported")->message
        == "torch 2.5.1 cu124 has no Python 3.13 wheels for macOS: its support of it is experimental, and on Linux "
           "only");
}

TEST_CASE("torch 1.13's Python 3.11 wheels are experimental Linux ones", "[resolve]")
{
    // python_readiness's test against PyPI: torch-1.13.0-cp311-cp311-manylinux1_x86_64.whl, the first
    // cp311 wheel; #92826: none for Windows in 1.13.1; #86566: nor for macOS
    for (const char* torch : { "torch==1.13.0", "torch==1.13.1" }) {
        Report linux = check({ .frameworks = { torch }, .python = "3.11", .os = "linux" });
        SHOW(linux);
        CHECK(linux.verdict() == Verdict::warn);
        CHECK(problems(linux) == Codes { "python-experimental" });
        for (const char* os : { "windows", "macos" })
            CHECK(problems(check({ .frameworks = { torch }, .python = "3.11", .os = os }))
                == Codes { "python-unsupported" });
    }
    CHECK(problems(check({ .frameworks = { "torch==1.12.1" }, .python = "3.11", .os = "linux" }))
        == Codes { "python-unsupported" });
}

TEST_CASE("under WSL 2 the image gate reads the Windows driver's number", "[resolve]")
{
    // SyneRBI/PETRIC2#27: Docker Desktop on WSL 2, Windows driver 551.78, a CUDA 12.8 image
    // refused ("unsatisfied condition: cuda>=12.8")
    Report old = check({ .cuda = "12.8", .driver = "551.78", .gpus = { "RTX 4090" }, .os = "wsl2" });
    SHOW(old);
    CHECK(old.verdict() == Verdict::fail);
    CHECK(has_code(old, "image-require-cuda"));
    CHECK_THAT(finding(old, "image-require-cuda")->message,
        StartsWith("the image dlenv builds for CUDA 12.8 will not start on driver 551.78 under the NVIDIA container "
                   "toolkit"));
    // a Windows number inside a brand term's branch is admitted, as the toolkit compares it
    CHECK(finding(
              check({ .cuda = "12.8", .driver = "572.16", .gpus = { "RTX 4090" }, .os = "wsl2" }), "image-require-cuda")
              ->verdict
        == Verdict::ok);
    // CUDA 13 lists no Windows driver: its cuda term cannot be read
    Report cuda13 = check({ .cuda = "13.0", .driver = "581.29", .gpus = { "RTX 5080" }, .os = "wsl2" });
    SHOW(cuda13);
    CHECK(finding(cuda13, "image-require-cuda-wsl2")->message
        == "whether the NVIDIA container toolkit under WSL 2 starts the image dlenv builds for CUDA 13.0 is not "
           "judged: "
           "under WSL 2 its NVIDIA_REQUIRE_CUDA's cuda term is read by CUDA's Windows driver floors, and NVIDIA lists "
           "none for CUDA 13.0");
}

TEST_CASE("a Windows driver is held to CUDA's Windows floors, not Linux's", "[resolve]")
{
    // CUDA 11.2 GA: Linux 460.27.03, Windows 460.82; CUDA 11 minor-version floor: Windows 452.39
    Report r = check({ .frameworks = { "tensorflow==2.10.1" }, .driver = "456.71", .os = "windows" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::warn);
    CHECK(problems(r) == Codes { "driver-minor-version-compat" });
    CHECK(finding(r, "driver-minor-version-compat")->message
        == "driver 456.71 is older than the CUDA 11.2 toolkit driver 460.82; it runs CUDA 11.x applications under "
           "minor-version compatibility (>= 452.39) with a limited feature set, and cannot JIT-compile PTX from a "
           "newer toolchain (cudaErrorUnsupportedPtxVersion, 222)");
    CHECK(finding(r, "driver-windows")->message
        == "driver 456.71 is read as a Windows driver (native Windows): CUDA's floors judge it in NVIDIA's Windows "
           "numbers, a GPU architecture's last series by the series its number falls in; those the matrix keeps "
           "in Linux numbers only (cuDNN's, a GPU architecture's first release) do not, and whether it is a "
           "released Windows driver is not known");

    // NVIDIA's release notes list no Windows driver for CUDA 13
    Report cuda13 = check({ .frameworks = { "torch==2.9.0+cu130" }, .driver = "581.57", .os = "windows" });
    SHOW(cuda13);
    CHECK(finding(cuda13, "driver-floor-unknown")->message
        == "the Windows driver CUDA 13.0 needs is not on record: NVIDIA's release notes list none");
    CHECK(finding(cuda13, "driver-floor-unknown")->verdict == Verdict::unknown);

    // a Kepler's last Windows drivers number 474.xx, past the Linux branch 470 it ends with
    Report kepler = check({ .cuda = "11.4", .driver = "474.44", .gpus = { "GTX 780 Ti" }, .os = "windows" });
    SHOW(kepler);
    CHECK_FALSE(has_code(kepler, "driver-dropped-gpu"));
    CHECK(has_code(check({ .cuda = "11.4", .driver = "474.44", .gpus = { "GTX 780 Ti" } }), "driver-dropped-gpu"));
}

TEST_CASE("a Windows driver past an architecture's last series does not drive it", "[resolve]")
{
    // Windows 591.44 is a 590-series driver, and the 580 series is Pascal's last
    for (const char* os : { "windows", "wsl2" }) {
        Report r = check({ .driver = "591.44", .gpus = { "GTX 1070" }, .os = os });
        SHOW(r);
        CHECK(r.verdict() == Verdict::fail);
        CHECK(problems(r) == Codes { "driver-dropped-gpu" });
        CHECK(finding(r, "driver-dropped-gpu")->message
            == "driver 591.44 (a Windows driver of the 590 series) does not support NVIDIA GeForce GTX 1070: the 580 "
               "series "
               "is the last that supports Pascal (compute capability 6.1)");
        CHECK(finding(r, "driver-dropped-gpu")->why.find("https://docs.nvidia.com/datacenter/tesla/")
            != std::string::npos);
        CHECK(suggests(r, "use a 580-series (or older) driver for NVIDIA GeForce GTX 1070"));
    }
    // 582.66 is a security release of the 580 series, which still drives Pascal
    Report security = check({ .driver = "582.66", .gpus = { "GTX 1080 Ti" }, .os = "windows" });
    SHOW(security);
    CHECK_FALSE(has_code(security, "driver-dropped-gpu"));
    CHECK(security.verdict() == Verdict::ok);
    // a 495-series Windows driver is past Kepler's last
    CHECK(has_code(check({ .driver = "496.13", .gpus = { "GTX 780 Ti" }, .os = "windows" }), "driver-dropped-gpu"));
    CHECK_FALSE(
        has_code(check({ .driver = "596.21", .gpus = { "GTX 1660 Ti" }, .os = "windows" }), "driver-dropped-gpu"));
    // past the newest branch on record, the branch is a floor
    CHECK_THAT(
        finding(check({ .driver = "631.02", .gpus = { "GTX 1070" }, .os = "windows" }), "driver-dropped-gpu")->message,
        StartsWith("driver 631.02 (a Windows driver of the 610 series or a later one) does not support"));
}

TEST_CASE("a driver of a branch Linux never had reads as a Windows driver's number", "[resolve]")
{
    Report r = check({ .frameworks = { "tensorflow==2.18.0" }, .driver = "561.17", .gpus = { "RTX 4080" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::warn);
    CHECK(problems(r) == Codes { "driver-windows-number" });
    CHECK(finding(r, "driver-windows-number")->message
        == "driver 561.17 is no Linux driver: the Linux releases on record have no branch 561, and Windows drivers "
           "carry numbers of their own (native Windows and WSL 2 report them)");
    CHECK(suggests(r, "on Windows pass --os windows, or --os wsl2 under WSL 2, to judge it by CUDA's Windows floors"));
    // a branch past the newest on record is not known either way
    CHECK(finding(check({ .driver = "700.10" }), "driver-release-unknown")->verdict == Verdict::ok);
}

TEST_CASE("on Windows a driver branch alone is refused: the matrix lists Linux releases only", "[resolve]")
{
    try {
        check({ .frameworks = { "tensorflow==2.10.1" }, .driver = "560", .os = "windows" });
        FAIL("accepted");
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        CHECK(e.message() == "driver 560 names a branch, whose releases the matrix lists for Linux only");
        CHECK(e.hint() == "on native Windows give the Windows driver's number nvidia-smi shows (561.17)");
    }
}

TEST_CASE("torch's Windows wheels carry GPU code of their own: 2.7's cu128 runs a Pascal GPU there, not on Linux",
    "[resolve]")
{
    Report windows = check({ .frameworks = { "torch==2.7.1+cu128" }, .gpus = { "GTX 1080" }, .os = "windows" });
    SHOW(windows);
    CHECK(finding(windows, "gpu-cubin")->message
        == "torch 2.7.1 cu128 carries sm_61 kernels for NVIDIA GeForce GTX 1080");
    CHECK(finding(windows, "gpu-cubin")->why
        == "https://github.com/nikopueringer/CorridorKey/pull/141 | "
           "https://github.com/pytorch/pytorch/blob/475876a47c24b83254c1f167d11af42deff75ff5/.ci/pytorch/windows/"
           "cuda128.bat");
    CHECK_FALSE(has_code(windows, "gpu-no-kernel"));

    // the Linux cu128 wheels begin at 7.5
    Report linux = check({ .frameworks = { "torch==2.7.1+cu128" }, .gpus = { "GTX 1080" } });
    CHECK(linux.verdict() == Verdict::fail);
    CHECK(has_code(linux, "gpu-no-kernel"));

    // 2.1's Windows cu121 lists 6.1, where Linux's 6.0 cubins serve it
    CHECK(has_code(
        check({ .frameworks = { "torch==2.1.2+cu121" }, .gpus = { "GTX 1080" }, .os = "windows" }), "gpu-cubin"));
    CHECK(has_code(check({ .frameworks = { "torch==2.1.2+cu121" }, .gpus = { "GTX 1080" } }), "gpu-cubin-compatible"));

    // without a Windows list on record, the Linux wheels' stands for it, with its own sources
    Report cu118 = check({ .frameworks = { "torch==2.7.1+cu118" }, .gpus = { "GTX 1080" }, .os = "windows" });
    CHECK(has_code(cu118, "gpu-cubin-compatible"));
    CHECK_THAT(finding(cu118, "gpu-cubin-compatible")->why, StartsWith("https://github.com/pytorch/pytorch/blob/"));
}

TEST_CASE("a known bug of torch's Windows wheels is told on native Windows alone", "[resolve]")
{
    // pytorch/pytorch#131662: 2.4.0's fbgemm.dll needs libomp140.x86_64.dll, fixed in 2.4.1
    Report fbgemm = check({ .frameworks = { "torch==2.4.0+cu121" }, .os = "windows" });
    SHOW(fbgemm);
    CHECK(fbgemm.verdict() == Verdict::warn);
    CHECK(problems(fbgemm) == Codes { "framework-known-issue" });
    CHECK_THAT(finding(fbgemm, "framework-known-issue")->message,
        StartsWith("torch 2.4.0 cu121's Windows wheel ships with a known bug: importing torch fails (\"OSError: "
                   "[WinError 126]"));
    CHECK_THAT(finding(fbgemm, "framework-known-issue")->message, EndsWith("(fixed in 2.4.1)"));
    CHECK(suggests(fbgemm, "use torch==2.4.1+cu121, which fixes it"));
    // pip's CPU wheel on Windows is a 2.4.0 Windows wheel too
    CHECK(has_code(check({ .frameworks = { "torch==2.4.0" }, .os = "windows" }), "framework-known-issue"));
    CHECK(problems(check({ .frameworks = { "torch==2.4.0+cu121" }, .os = "linux" })).empty());
    CHECK(problems(check({ .frameworks = { "torch==2.4.0+cu121" }, .os = "wsl2" })).empty());
    CHECK(problems(check({ .frameworks = { "torch==2.4.1+cu121" }, .os = "windows" })).empty());

    // the 2.8.0 release notes: the Windows cu129 wheel is built without torch.segment_reduce
    Report segment = check({ .frameworks = { "torch==2.8.0+cu129" }, .os = "windows" });
    CHECK(segment.verdict() == Verdict::warn);
    CHECK(finding(segment, "framework-known-issue")->message
        == "torch 2.8.0 cu129's Windows wheel ships with a known bug: torch.segment_reduce is left out of it, as CUDA "
           "12.9.1's compiler crashes building it for Windows (#156181)");
    CHECK(problems(check({ .frameworks = { "torch==2.8.0+cu128" }, .os = "windows" })).empty());
    CHECK(problems(check({ .frameworks = { "torch==2.8.0+cu129" }, .os = "linux" })).empty());
}

TEST_CASE("a torch build published for Linux alone names no Windows wheel", "[resolve]")
{
    // pytorch.github.io#959: "There are no CUDA-10.2 binaries on Windows, please use 11.3" (1.11.0)
    Error never = error_of({ .frameworks = { "torch==1.11.0+cu102" }, .os = "windows" });
    CHECK(never.code() == ErrorCode::invalid_input);
    CHECK(never.message() == "torch==1.11.0+cu102: torch 1.11.0 has no cu102 build for Windows");
    CHECK(never.hint()
        == "its Windows builds: cu115 and cu113: pin one of them, or run it under WSL 2 (--os wsl2), or in dlenv's "
           "Linux image");
    CHECK(problems(check({ .frameworks = { "torch==1.11.0+cu113" }, .os = "windows" })).empty());
    CHECK(problems(check({ .frameworks = { "torch==1.11.0+cu102" }, .os = "linux" })).empty());
    CHECK(problems(check({ .frameworks = { "torch==1.11.0+cu102" }, .os = "wsl2" })).empty());
}

TEST_CASE("jax ships no free-threaded wheels for Windows", "[resolve][jax]")
{
    // jax-ml/jax#30068: "We ship Mac and Linux, and have no plans to ship Windows at this time."
    Report windows = check({ .frameworks = { "jaxlib==0.7.1" }, .python = "3.13t", .os = "windows" });
    SHOW(windows);
    CHECK(windows.verdict() == Verdict::fail);
    CHECK(has_code(windows, "python-free-threaded-unsupported"));
    CHECK_THAT(finding(windows, "python-free-threaded-unsupported")->message,
        EndsWith("wheels for the free-threaded Python 3.13t are Linux and macOS ones: jax has none for Windows"));
    CHECK_FALSE(has_code(check({ .frameworks = { "jaxlib==0.7.1" }, .python = "3.13t", .os = "linux" }),
        "python-free-threaded-unsupported"));
}
