// `dlenv check` on Jetson modules against the embedded matrix: the CUDA their newest JetPack
// ships or upgrades to, and the framework wheels that carry no code for them.

#include "resolve/targets.h"
#include "support/check_ask.h"

using namespace dlenv;
using namespace dlenv::resolve;
using namespace dlenv::resolve::check_support;
using Catch::Matchers::Contains;

TEST_CASE("a Jetson Nano runs CUDA up to 10.2, the CUDA of JetPack 4.6, which no upgrade package raises", "[resolve]")
{
    Report r = check({ .cuda = "12.1", .gpus = { "Jetson Nano" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "jetson-cuda-beyond-jetpack" });
    CHECK(finding(r, "jetson-cuda-beyond-jetpack")->message
        == "Jetson Nano runs CUDA up to 10.2: its newest JetPack, 4.6, ships CUDA 10.2, and no CUDA upgrade package "
           "serves it; CUDA 12.1 cannot run there");
    CHECK_THAT(finding(r, "jetson-cuda-beyond-jetpack")->why,
        Contains("https://developer.nvidia.com/embedded/linux-tegra-r3272"));
    CHECK(suggests(r, "on Jetson Nano build for CUDA <= 10.2, the CUDA of JetPack 4.6"));

    Report shipped = check({ .cuda = "10.2.89", .gpus = { "Jetson TX2" } });
    CHECK(shipped.verdict() == Verdict::ok);
    CHECK(finding(shipped, "jetson-cuda-in-jetpack")->message
        == "Jetson TX2's JetPack 4.6 ships CUDA 10.2, which runs CUDA 10.2 applications");
}

TEST_CASE("a Jetson Xavier takes CUDA 11.8-12.2 through JetPack 5's upgrade packages, and nothing later", "[resolve]")
{
    Report upgraded = check({ .cuda = "11.8", .gpus = { "Jetson Xavier NX" } });
    SHOW(upgraded);
    CHECK(upgraded.verdict() == Verdict::warn);
    CHECK(problems(upgraded) == Codes { "jetson-cuda-upgrade-package" });
    CHECK(finding(upgraded, "jetson-cuda-upgrade-package")->message
        == "CUDA 11.8 on Jetson Xavier NX needs NVIDIA's CUDA upgrade package (cuda-compat-11-8) on JetPack 5.1, "
           "which ships CUDA 11.4");

    Report beyond = check({ .cuda = "12.4", .gpus = { "Jetson AGX Xavier" } });
    CHECK(problems(beyond) == Codes { "jetson-cuda-beyond-jetpack" });
    CHECK(finding(beyond, "jetson-cuda-beyond-jetpack")->message
        == "Jetson AGX Xavier runs CUDA up to 12.2: its newest JetPack, 5.1, ships CUDA 11.4, and NVIDIA's upgrade "
           "packages bring it up to 12.2; CUDA 12.4 cannot run there");
}

TEST_CASE("torch and TensorFlow from PyPI carry no CUDA for a Jetson before Thor: NVIDIA builds them for JetPack",
    "[resolve]")
{
    // pytorch/pytorch#67997: pip's torch on a Xavier NX, torch.cuda.is_available() is False.
    Report orin = check({ .frameworks = { "torch==2.1.0" }, .gpus = { "Jetson AGX Orin" } });
    SHOW(orin);
    CHECK(orin.verdict() == Verdict::fail);
    CHECK(problems(orin) == Codes { "jetson-needs-jetpack-build" });
    CHECK(finding(orin, "jetson-needs-jetpack-build")->message
        == "torch 2.1.0 cu121 from PyPI or download.pytorch.org carries no CUDA for Jetson AGX Orin (sm_87): its "
           "aarch64 wheels are CPU-only or built for server GPUs, so the framework does not see the GPU; torch's CUDA "
           "13.0 and later wheels run there under JetPack 7.2");
    CHECK(suggests(orin, "on Jetson AGX Orin install NVIDIA's torch build for the JetPack the device runs"));
    CHECK_FALSE(has_code(orin, "gpu-cubin-compatible")); // the x86 wheels' kernels are beside the point

    // the Nano fails on both counts: the wheels, and the CUDA 12.1 of torch 2.1's build
    Report nano = check({ .frameworks = { "torch==2.1.0" }, .gpus = { "Jetson Nano" } });
    CHECK(problems(nano) == Codes { "jetson-cuda-beyond-jetpack", "jetson-needs-jetpack-build" });
    CHECK(problems(check({ .frameworks = { "tensorflow==2.15.0" }, .gpus = { "Jetson Orin Nano" } }))
        == Codes { "jetson-needs-jetpack-build" });

    // on a Jetson --cuda is the JetPack's CUDA, not a wheel's (naseemap47/streamlit-yolo#22: an
    // Orin NX with CUDA 12.2 and torch 2.3, "cuda is not available")
    Report jetpack = check({ .frameworks = { "torch==2.3" }, .cuda = "12.2", .gpus = { "Jetson Orin NX" } });
    CHECK(problems(jetpack) == Codes { "jetson-needs-jetpack-build" });
    CHECK(finding(jetpack, "jetson-cuda-in-jetpack")->message
        == "Jetson Orin NX's JetPack 7.2 ships CUDA 13.2, which runs CUDA 12.2 applications");

    // from CUDA 13 torch's aarch64 wheels run on Orin too, JetPack 7.2 having moved it to the
    // server-Arm CUDA: on their sm_80 code, PyTorch warning of the GPU (holohub#1687)
    Report jetpack7 = check({ .frameworks = { "torch==2.11.0+cu130" }, .cuda = "13.0", .gpus = { "Jetson AGX Orin" } });
    SHOW(jetpack7);
    CHECK(problems(jetpack7) == Codes { "jetson-upstream-wheel" });
    CHECK(finding(jetpack7, "jetson-upstream-wheel")->message
        == "torch 2.11.0 cu130's aarch64 wheel runs on Jetson AGX Orin under JetPack 7.2's server-Arm CUDA, on older "
           "8.x code: it carries no sm_87, and PyTorch warns at start-up that the GPU is not one it was built for");
    CHECK(has_code(jetpack7, "gpu-cubin-compatible"));
    // its CUDA 12 wheels do not, and a CUDA 12 JetPack runs none
    CHECK_THAT(finding(check({ .frameworks = { "torch==2.11.0+cu128" }, .gpus = { "Jetson AGX Orin" } }),
                   "jetson-needs-jetpack-build")
                   ->message,
        Catch::Matchers::EndsWith("; torch's CUDA 13.0 and later wheels run there under JetPack 7.2"));
    Report jetpack6
        = check({ .frameworks = { "torch==2.11.0+cu130" }, .cuda = "12.6", .gpus = { "Jetson Orin Nano" } });
    CHECK(finding(jetpack6, "jetson-needs-jetpack-build")->message
        == "torch 2.11.0 cu130's aarch64 wheel runs on Jetson Orin Nano only under JetPack 7.2, whose CUDA is the "
           "server-Arm one: under the JetPack of CUDA 12.6 the framework does not see the GPU");
    CHECK(jetpack6.verdict() == Verdict::fail);

    // Thor's CUDA 13 aarch64 wheels carry sm_110: no JetPack build needed
    Report thor = check({ .frameworks = { "torch==2.9.0+cu130" }, .gpus = { "Jetson Thor" } });
    CHECK_FALSE(has_code(thor, "jetson-needs-jetpack-build"));
    CHECK(has_code(thor, "jetson-cuda-in-jetpack"));
}

TEST_CASE("JAX's CUDA 12 aarch64 wheels list a Jetson Orin's GPU and then have no kernel for it", "[resolve]")
{
    // jax-ml/jax#40487: jax[cuda12] 0.11.1 on an Orin, jax.devices() lists it, the first op fails
    // with "no kernel image is available"; jax#22723: the same with 0.4.30 on an Orin Nano
    Report orin = check({ .frameworks = { "jax[cuda12]==0.11.1" }, .gpus = { "Jetson AGX Orin" } });
    SHOW(orin);
    CHECK(orin.verdict() == Verdict::fail);
    CHECK(problems(orin) == Codes { "jetson-needs-jetpack-build" });
    CHECK(finding(orin, "jetson-needs-jetpack-build")->message
        == "jax 0.11.1 cuda12's aarch64 wheels are built for server-Arm CUDA, which Jetson AGX Orin (sm_87) runs from "
           "CUDA 13.0 (JetPack 7.2) only: jax can list the GPU, then fail at its first operation with 'no kernel "
           "image is available for execution on the device'");
    CHECK(suggests(orin, "on Jetson AGX Orin use jax's CUDA 13 wheels (jax[cuda13]) under JetPack 7.2"));
    CHECK(problems(check({ .frameworks = { "jax[cuda12]==0.4.30" }, .gpus = { "Jetson Orin Nano" } }))
        == Codes { "jetson-needs-jetpack-build" });

    // a Jetson no upstream wheel runs needs a jaxlib built for it
    Report nano = check({ .frameworks = { "jax[cuda12]==0.4.30" }, .gpus = { "Jetson Nano" } });
    CHECK(problems(nano) == Codes { "jetson-cuda-beyond-jetpack", "jetson-needs-jetpack-build" });
    CHECK(suggests(nano, "on Jetson Nano build jaxlib and its CUDA plugin from source for sm_53"));

    // its CUDA 13 wheels are server-Arm CUDA that JetPack 7.2 runs: the GPU rules judge them
    Report cuda13 = check({ .frameworks = { "jax[cuda13]==0.11.1" }, .gpus = { "Jetson AGX Orin" } });
    CHECK_FALSE(has_code(cuda13, "jetson-needs-jetpack-build"));
    CHECK(has_code(cuda13, "jetson-cuda-in-jetpack"));
}

TEST_CASE("the Jetson Orin Nano Super is the Orin Nano module, its clocks raised by JetPack", "[resolve]")
{
    // calabi-inc/rtsm#19 validates on a "Jetson Orin Nano Super, JetPack 6.2.x, CUDA 12.6"
    GpuTarget super = resolve_gpu(matrix::Matrix::embedded(), "Jetson Orin Nano Super");
    CHECK(super.label == "Jetson Orin Nano");
    CHECK(super.compute_capability.text() == "8.7");
    CHECK(problems(check({ .cuda = "12.6", .gpus = { "Jetson Orin Nano Super" }, .python = "3.10" })).empty());
}

TEST_CASE("a Jetson's driver is JetPack's: the desktop driver rules do not judge its number", "[resolve]")
{
    // modular/mojo-gpu-puzzles#257: JetPack 6 on a Jetson Orin Nano, nvidia-smi 'Driver Version: 540.4.0  CUDA
    // Version: 12.6', and the CUDA 12.6 puzzles pass
    Report orin = check({ .cuda = "12.6", .driver = "540.4.0", .gpus = { "Jetson Orin Nano" } });
    SHOW(orin);
    CHECK(orin.verdict() == Verdict::ok);
    CHECK(problems(orin).empty());
    CHECK(finding(orin, "driver-jetpack")->message
        == "driver 540.4.0 is read as the driver JetPack installs on Jetson Orin Nano, which nvidia-smi numbers apart "
           "from the desktop releases: JetPack's CUDA decides what runs there, not the desktop drivers' floors or "
           "NVIDIA's amd64 images");
    CHECK_FALSE(has_code(orin, "driver-windows-number"));
    CHECK_FALSE(has_code(orin, "image-require-cuda"));
    // vllm-project/vllm#34470: torch 2.10.0+cu130 on Thor reports 'Nvidia driver version: 580.00', and CUDA is
    // available; 580.00 is below CUDA 13.0's desktop floor 580.65.06
    Report thor = check({ .frameworks = { "torch==2.10.0+cu130" },
        .cuda = "13.0",
        .driver = "580.00",
        .gpus = { "Jetson AGX Thor" },
        .python = "3.12" });
    SHOW(thor);
    CHECK_FALSE(has_code(thor, "driver-too-old"));
    CHECK_FALSE(has_code(thor, "driver-not-released"));
    CHECK(has_code(thor, "driver-jetpack"));
    // beside a discrete GPU the driver is a desktop one, judged as such
    Report mixed = check({ .cuda = "12.6", .driver = "540.4.0", .gpus = { "Jetson Orin Nano", "RTX 4090" } });
    CHECK_FALSE(has_code(mixed, "driver-jetpack"));
    CHECK(has_code(mixed, "driver-windows-number"));
}

TEST_CASE("no desktop floor judges JetPack's driver, and cuDNN's support matrix no Jetson", "[resolve]")
{
    // vllm-project/vllm#34470: Thor under JetPack 7 reports driver 580.00, below the 580.65.06 that cuDNN's
    // CUDA 13 build asks of a desktop driver, and its support matrix lists no compute capability 11.0
    Report thor = check({ .cuda = "13.0", .cudnn = "9.17.0", .driver = "580.00", .gpus = { "Jetson AGX Thor" } });
    SHOW(thor);
    CHECK(thor.verdict() == Verdict::ok);
    CHECK(problems(thor).empty());
    CHECK(finding(thor, "cudnn-jetpack-build")->message
        == "on Jetson T5000 cuDNN 9.17.0 is the Jetson build JetPack installs, whose GPUs the support matrix of "
           "cuDNN's x86_64 and server-Arm builds does not list");
    // the same driver beside a desktop GPU is a desktop one, below cuDNN's floor
    Report mixed
        = check({ .cuda = "13.0", .cudnn = "9.17.0", .driver = "580.00", .gpus = { "Jetson AGX Thor", "RTX 5090" } });
    CHECK(finding(mixed, "cudnn-driver-too-old")->message
        == "cuDNN 9.17.0 (CUDA 13.0-13.1 build) needs driver >= 580.65.06, not 580.00");
    CHECK(has_code(mixed, "cudnn-jetpack-build"));
    CHECK_FALSE(has_code(mixed, "cudnn-gpu-unsupported"));
}
