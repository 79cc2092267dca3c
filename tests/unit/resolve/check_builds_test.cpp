// `dlenv check` of framework builds as reports name them (companions, local labels, post-
// and pre-releases, free-threaded Pythons) and of the GPU names nvidia-smi prints, against the
// embedded matrix.

#include "resolve/targets.h"
#include "support/check_ask.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>

using namespace dlenv;
using namespace dlenv::resolve;
using namespace dlenv::resolve::check_support;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

namespace {

// The embedded matrix with its file `name` changed by `edit`.
matrix::Matrix embedded_with(const std::string& name, const std::function<void(nlohmann::json&)>& edit)
{
    std::map<std::string, std::string> files;
    for (const auto& file : matrix::embedded_matrix_files())
        files[std::string(file.name)] = std::string(file.contents);
    auto doc = nlohmann::json::parse(files.at(name));
    edit(doc);
    files[name] = doc.dump();
    return matrix::Matrix::load(files, "m");
}

} // namespace

TEST_CASE("a companion built for another CUDA than torch fails where its import check refuses it", "[resolve]")
{
    Report major = check({ .frameworks = { "torch==2.11.0+cu130", "torchaudio==2.11.0+cu128" } });
    SHOW(major);
    CHECK(major.verdict() == Verdict::fail);
    CHECK(problems(major) == Codes { "companion-cuda-mismatch" });
    CHECK(finding(major, "companion-cuda-mismatch")->message
        == "torchaudio 2.11.0+cu128 is built for CUDA 12.8 and torch 2.11.0 cu130 for CUDA 13.0: torchaudio 2.11.0 "
           "refuses, on import, a torch compiled for another CUDA major");
    CHECK(suggests(major, "install the companion of the same build: torchaudio==2.11.0+cu130"));

    // torchvision before 0.16 compared the minor too ('PyTorch has CUDA Version=11.7 and torchvision has CUDA
    // Version=11.8'); from 0.16 the major alone (vision#7726)
    Report old_vision = check({ .frameworks = { "torch==2.0.1+cu118", "torchvision==0.15.2+cu117" } });
    SHOW(old_vision);
    CHECK(problems(old_vision) == Codes { "companion-cuda-mismatch" });
    CHECK(finding(old_vision, "companion-cuda-mismatch")->message
        == "torchvision 0.15.2+cu117 is built for CUDA 11.7 and torch 2.0.1 cu118 for CUDA 11.8: torchvision 0.15.2 "
           "refuses, on import, a torch compiled for another CUDA minor");
    Report new_vision = check({ .frameworks = { "torch==2.4.0+cu124", "torchvision==0.19.0+cu121" } });
    SHOW(new_vision);
    CHECK(problems(new_vision).empty());
    CHECK(finding(new_vision, "companion-cuda-minor")->message
        == "torchvision 0.19.0+cu121 is built for CUDA 12.1 and torch 2.4.0 cu124 for CUDA 12.4: torchvision from "
           "0.16 checks the CUDA major alone, and it loads");

    // torchaudio's _check_cuda_version, from 0.13, compares major and minor (autocut#106: 'PyTorch has CUDA
    // version 11.8 whereas TorchAudio has CUDA version 11.7'); before 0.13 it checked nothing
    Report audio = check({ .frameworks = { "torch==2.0.1+cu118", "torchaudio==2.0.2+cu117" } });
    SHOW(audio);
    CHECK(problems(audio) == Codes { "companion-cuda-mismatch" });
    CHECK(finding(audio, "companion-cuda-mismatch")->message
        == "torchaudio 2.0.2+cu117 is built for CUDA 11.7 and torch 2.0.1 cu118 for CUDA 11.8: torchaudio 2.0.2 "
           "refuses, on import, a torch compiled for another CUDA minor");
    CHECK_THAT(finding(audio, "companion-cuda-mismatch")->why, Contains("src/torchaudio/_extension/utils.py"));
    Report unchecked = check({ .frameworks = { "torch==1.12.1+cu116", "torchaudio==0.12.1+cu113" } });
    SHOW(unchecked);
    CHECK(problems(unchecked).empty());
    CHECK(finding(unchecked, "companion-cuda-unchecked")->verdict == Verdict::unknown);

    Report cpu = check({ .frameworks = { "torch==2.1.2+cu121", "torchvision==0.16.2+cpu" } });
    CHECK(problems(cpu) == Codes { "companion-cpu-build" });
    CHECK(check({ .frameworks = { "torch==2.1.2+cu121", "torchvision==0.16.2+cu121" } }).verdict() == Verdict::ok);
}

TEST_CASE("a companion without a label is the build of torch's index, which pip prefers", "[resolve]")
{
    // PyTorch's previous-versions command for 1.12.0 + CUDA 11.6 pins torchaudio==0.12.0 with
    // --extra-index-url .../cu116: pip takes 0.12.0+cu116, a higher version than PyPI's 0.12.0
    CHECK(
        problems(check({ .frameworks = { "torch==1.12.0+cu116", "torchvision==0.13.0+cu116", "torchaudio==0.12.0" } }))
            .empty());
}

TEST_CASE("a companion named alone of a version no torch pairs with is refused as unknown", "[resolve]")
{
    // guomics-lab/DIA-BERT#11: "there is no torchvision=2.5.1", torch's number written for torchvision's
    Error numbered = error_of({ .frameworks = { "torchvision==2.5.1" } });
    CHECK(numbered.code() == ErrorCode::invalid_input);
    CHECK(numbered.message() == "torchvision 2.5.1 is not a release the matrix knows");
    CHECK(numbered.hint() == "torch 2.5.1 pairs with torchvision 0.20.1");
    CHECK(error_of({ .frameworks = { "torchaudio==0.99" } }).hint() == "check the version, or name torch beside it");
    // a known release (0.20 is 0.20.0, as pip reads it) is judged with the torch it is built for
    for (const char* known : { "torchvision==0.20.1", "torchvision==0.20", "torchaudio==2.5.1" })
        CHECK(has_code(check({ .frameworks = { known } }), "companion-paired"));
}

TEST_CASE("the default builds of torch 1.3 to 1.8.0 carry no label, so naming theirs is refused", "[resolve]")
{
    // pytorch#37113: 'torch==1.4.0+cu101' cannot be found, 'the 10.1 wheels for torch 1.4.0 don't have a suffix';
    // pip's listing of the index (#42999) has 1.5.0+cu101 and 1.6.0+cu101, no +cu102; a later one
    // (#143953) 1.7.0+cu101, 1.7.1+cu110 and 1.8.0+cu111, no +cu102 before 1.8.1+cu102 (#53821)
    auto [text, message, hint] = GENERATE(table<std::string, std::string, std::string>({
        { "torch==1.7.0+cu102",
            "torch==1.7.0+cu102 names no published wheel: the cu102 build of torch 1.7.0 carries no label",
            "write torch==1.7.0, the name its cu102 wheels carry" },
        { "torch==1.8.0+cu102",
            "torch==1.8.0+cu102 names no published wheel: the cu102 build of torch 1.8.0 carries no label",
            "write torch==1.8.0, the name its cu102 wheels carry" },
        { "torch==1.4.0+cu101",
            "torch==1.4.0+cu101 names no published wheel: the cu101 build of torch 1.4.0 carries no label",
            "write torch==1.4.0, the name its cu101 wheels carry" },
        { "torch==1.6.0+cu102",
            "torch==1.6.0+cu102 names no published wheel: the cu102 build of torch 1.6.0 carries no label",
            "write torch==1.6.0, the name its cu102 wheels carry" },
    }));
    CAPTURE(text);
    Error refused = error_of({ .frameworks = { text } });
    CHECK(refused.code() == ErrorCode::invalid_input);
    CHECK(refused.message() == message);
    CHECK(refused.hint() == hint);
    // the labelled builds beside them, and the default named by its version, are judged
    CHECK(check({ .frameworks = { "torch==1.6.0+cu101" } }).verdict() == Verdict::ok);
    CHECK(check({ .frameworks = { "torch==1.8.1+cu102" } }).verdict() == Verdict::ok);
    CHECK_THAT(finding(check({ .frameworks = { "torch==1.4.0" } }), "framework-build")->message,
        Contains("runs as torch 1.4.0 cu101"));
}

TEST_CASE("torchvision 0.8.0 carries no label: its CUDA 11.0 build by label is its fix release's", "[resolve]")
{
    // vision#2912: "Cannot pip install torchvision==0.8.0+cu110", the index lists 0.8.0 alone;
    // "will have to issue a v0.8.1 to resolve this"
    Error refused = error_of({ .frameworks = { "torch==1.7.0+cu110", "torchvision==0.8.0+cu110" } });
    CHECK(refused.code() == ErrorCode::invalid_input);
    CHECK(refused.message()
        == "torchvision==0.8.0+cu110: torchvision 0.8.0 names no published wheel: its wheels carry no local label");
    CHECK(refused.hint()
        == "use torchvision==0.8.1+cu110, built with the same torch 1.7.0, whose wheels carry the label");
    CHECK(check({ .frameworks = { "torch==1.7.0+cu110", "torchvision==0.8.1+cu110" } }).verdict() == Verdict::ok);
    // the CPU label names no wheel either; a label torch has no build for is refused as such
    CHECK(error_of({ .frameworks = { "torch==1.7.0+cu110", "torchvision==0.8.0+cpu" } }).hint()
        == "use torchvision==0.8.1+cpu, built with the same torch 1.7.0, whose wheels carry the label");
    CHECK(error_of({ .frameworks = { "torch==1.7.0+cu110", "torchvision==0.8.0+cu121" } }).message()
        == "torchvision==0.8.0+cu121: torchvision 0.8.0 has no cu121 build");
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
    CHECK_THAT(build->message, Contains("runs as jaxlib 0.4.20 cuda11_pip: CUDA 11.8, cuDNN 8.6"));
    CHECK(has_code(cuda11, "cudnn-outside-framework-range"));
    Report cuda12 = check({ .frameworks = { "jaxlib==0.4.20+cuda12.cudnn89" } });
    CHECK_THAT(finding(cuda12, "framework-build")->message, Contains("cuda12_pip: CUDA 12.2, cuDNN 8.9"));
    CHECK_THROWS_WITH(check({ .frameworks = { "jaxlib==0.4.20+rocm60" } }),
        "'rocm60' in jaxlib==0.4.20+rocm60 names no CUDA build of jaxlib");
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

TEST_CASE("TensorFlow's Linux wheels through 2.0 ignore a GPU below compute capability 3.5", "[resolve]")
{
    // tensorflow/tensorflow#17445, #24126: the pip builds ignore a compute capability 3.0 GPU, "The
    // minimum required Cuda capability is 3.5"
    Report kepler = check({ .frameworks = { "tensorflow==1.13.1" }, .gpus = { "GTX 650 Ti" } });
    SHOW(kepler);
    CHECK(kepler.verdict() == Verdict::fail);
    CHECK(problems(kepler) == Codes { "gpu-below-framework-minimum" });
    CHECK(finding(kepler, "gpu-below-framework-minimum")->message
        == "tensorflow 1.13.1's Linux wheels support compute capability 3.5 and newer; NVIDIA GeForce GTX 650 Ti is "
           "3.0, so TensorFlow ignores it (\"The minimum required Cuda capability is 3.5\")");
    CHECK(suggests(kepler, "use a GPU of compute capability 3.5 or newer, or build TensorFlow from source for sm_30"));
    CHECK(problems(check({ .frameworks = { "tensorflow-gpu==2.0.0" }, .gpus = { "Quadro K2000M" } }))
        == Codes { "gpu-below-framework-minimum" });
    // 3.5 and up run; from 2.1 the rows' own GPU code judges; Windows' CMake wheels carried 3.0 (#6092)
    CHECK(problems(check({ .frameworks = { "tensorflow==1.13.1" }, .gpus = { "Tesla K80" } })).empty());
    CHECK(problems(check({ .frameworks = { "tensorflow==2.3.0" }, .gpus = { "GTX 650 Ti" } }))
        == Codes { "gpu-no-kernel" });
    CHECK_FALSE(has_code(check({ .frameworks = { "tensorflow==1.13.1" }, .gpus = { "GTX 650 Ti" }, .os = "windows" }),
        "gpu-below-framework-minimum"));
    // WSL 2 runs the Linux wheels; 1.0-1.1's macOS CUDA builds are not on record
    CHECK(has_code(check({ .frameworks = { "tensorflow==1.13.1" }, .gpus = { "GTX 650 Ti" }, .os = "wsl2" }),
        "gpu-below-framework-minimum"));
    CHECK_FALSE(has_code(check({ .frameworks = { "tensorflow-gpu==1.1" }, .gpus = { "GT 750M" }, .os = "macos" }),
        "gpu-below-framework-minimum"));
}

TEST_CASE("torch 2.3.0's convolutions warn that a cuDNN plan failed, which 2.3.1 fixes", "[resolve]")
{
    // pytorch/pytorch#121834 (the release's own fp16 conv2d smoke test) and #126605 (2.3.0+cu118,
    // training goes on); Nerogar/OneTrainer#397: 'installing Torch 2.3.1 fixed this'
    for (const char* build : { "torch==2.3.0+cu118", "torch==2.3.0+cu121" }) {
        CAPTURE(build);
        Report plan = check({ .frameworks = { build }, .gpus = { "A100" } });
        CHECK(plan.verdict() == Verdict::warn);
        CHECK(problems(plan) == Codes { "framework-known-issue" });
        CHECK_THAT(finding(plan, "framework-known-issue")->message,
            EndsWith("ships with a known bug: its convolutions print \"UserWarning: Plan failed with a "
                     "cudnnException: CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR: cudnnFinalize Descriptor Failed "
                     "cudnn_status: CUDNN_STATUS_NOT_SUPPORTED\" (from its cuDNN v8 API path, Conv_v8.cpp), and run "
                     "(fixed in 2.3.1)"));
    }
    CHECK(problems(check({ .frameworks = { "torch==2.3.1+cu121" }, .gpus = { "A100" } })).empty());
}

TEST_CASE("a torch build's known bug warns for the releases it hits, and names the fix", "[resolve]")
{
    // pytorch/pytorch#97041: 2.0.0+cu118's bundled cuDNN 8.7 loads libnvrtc.so, which the wheel
    // lacks; 2.0.1 works around it (#98644). A CUDA toolkit on the loader path hides it, as on
    // the L4 and H100 hosts public reports ran this build on, so it warns.
    Report conv = check({ .frameworks = { "torch==2.0.0+cu118" } });
    SHOW(conv);
    CHECK(conv.verdict() == Verdict::warn);
    CHECK(problems(conv) == Codes { "framework-known-issue" });
    CHECK(finding(conv, "framework-known-issue")->message
        == "torch 2.0.0 cu118 ships with a known bug: the cuDNN 8.7 it bundles loads libnvrtc.so, which the wheel does "
           "not carry, so convolutions abort (\"libnvrtc.so: cannot open shared object file\") unless a CUDA toolkit "
           "on the loader path provides it (fixed in 2.0.1)");
    CHECK(suggests(conv, "use torch==2.0.1+cu118, which fixes it"));
    // the fix, the other build, and the line (its newest release) are clear of it
    for (const char* clear : { "torch==2.0.1+cu118", "torch==2.0.0+cu117", "torch==2.0+cu118" }) {
        CAPTURE(clear);
        CHECK_FALSE(has_code(check({ .frameworks = { clear } }), "framework-known-issue"));
    }
    // pytorch/pytorch#47658: 1.7.0's CUDA 11.0 NVRTC does not know sm_86; a GPU it knows is clear
    Report ampere = check({ .frameworks = { "torch==1.7.0+cu110" }, .gpus = { "RTX 3090" } });
    CHECK(ampere.verdict() == Verdict::warn);
    CHECK(finding(ampere, "framework-known-issue")->subject == "NVIDIA GeForce RTX 3090");
    CHECK_THAT(finding(ampere, "framework-known-issue")->message,
        StartsWith("torch 1.7.0 cu110 on NVIDIA GeForce RTX 3090 (sm_86) ships with a known bug: code it compiles at "
                   "run time"));
    CHECK_FALSE(
        has_code(check({ .frameworks = { "torch==1.7.0+cu110" }, .gpus = { "V100" } }), "framework-known-issue"));
    CHECK_FALSE(has_code(check({ .frameworks = { "torch==1.7.0+cu110" } }), "framework-known-issue"));
}

TEST_CASE(
    "torch 1.8-1.12's CUDA 11.1-11.6 NVRTC fails on sm_89, and the hint names a 1.13 build that exists", "[resolve]")
{
    // pytorch/pytorch#87595: only CUDA 11.8's NVRTC knows sm_89; 1.13 clamps the architecture
    // it asks for (#87611). 1.13 has no cu113, so the hint moves to its nearest newer CUDA.
    Report ada = check({ .frameworks = { "torch==1.10.0+cu113" }, .gpus = { "RTX 4090" } });
    SHOW(ada);
    CHECK(ada.verdict() == Verdict::warn);
    CHECK(problems(ada) == Codes { "framework-known-issue", "gpu-extension-target" });
    CHECK_THAT(finding(ada, "framework-known-issue")->message,
        StartsWith("torch 1.10.0 cu113 on NVIDIA GeForce RTX 4090 (sm_89) ships with a known bug: code it compiles at "
                   "run time (jiterator's element-wise and reduction kernels, TorchScript fusion) asks its CUDA 11.3 "
                   "NVRTC"));
    CHECK(suggests(ada, "use torch==1.13.0+cu116, which fixes it"));
    // a variant 1.13 kept is named as it is
    CHECK(suggests(check({ .frameworks = { "torch==1.12.1+cu116" }, .gpus = { "RTX 4090" } }),
        "use torch==1.13.0+cu116, which fixes it"));
    // sm_86 is known to these NVRTCs, and 1.13 carries the fix
    CHECK_FALSE(
        has_code(check({ .frameworks = { "torch==1.10.0+cu113" }, .gpus = { "RTX 3090" } }), "framework-known-issue"));
    CHECK_FALSE(
        has_code(check({ .frameworks = { "torch==1.13.0+cu116" }, .gpus = { "RTX 4090" } }), "framework-known-issue"));
}

TEST_CASE("TensorFlow on a GPU its CUDA cannot target runs on a cubin of the GPU's major, XLA falling back to the "
          "driver",
    "[resolve]")
{
    // tensorflow/tensorflow#43718, #46933: 2.4 (CUDA 11.0) on an RTX 3090 logs "Your CUDA software
    // stack is old" and trains.
    Report ampere = check({ .frameworks = { "tensorflow==2.4.1" }, .gpus = { "RTX 3090" } });
    SHOW(ampere);
    CHECK(ampere.verdict() == Verdict::warn);
    CHECK(problems(ampere) == Codes { "tensorflow-ptxas-fallback" });
    CHECK(finding(ampere, "tensorflow-ptxas-fallback")->message
        == "tensorflow 2.4.1's sm_80 cubins run on NVIDIA GeForce RTX 3090 (sm_86), but its CUDA 11.0 cannot target "
           "sm_86: XLA hands the kernels ptxas cannot compile to the driver (\"Your CUDA software stack is old. We "
           "fallback to the NVIDIA driver for some compilation\"), which is slower");
    CHECK_THAT(finding(ampere, "tensorflow-ptxas-fallback")->why,
        StartsWith("https://github.com/tensorflow/tensorflow/issues/43718 | "
                   "https://github.com/tensorflow/tensorflow/issues/46933"));
    CHECK(suggests(ampere,
        "for NVIDIA GeForce RTX 3090 use tensorflow >= 2.5, the first line built with a CUDA that targets sm_86"));
    // the CUDA 11.2 lines on an RTX 4090 alike, pointed at 2.12, the first CUDA 11.8 line
    Report ada = check({ .frameworks = { "tensorflow==2.11.0" }, .gpus = { "RTX 4090" } });
    CHECK(problems(ada) == Codes { "tensorflow-ptxas-fallback" });
    CHECK(suggests(ada,
        "for NVIDIA GeForce RTX 4090 use tensorflow >= 2.12, the first line built with a CUDA that targets sm_89"));
    // with no cubin of the GPU's major (CUDA 10.1 knows no 8.x), 2.3 fails there
    // (tensorflow#43701: "device kernel image is invalid")
    CHECK(problems(check({ .frameworks = { "tensorflow==2.3.1" }, .gpus = { "RTX 3080" } }))
        == Codes { "cuda-cannot-target-gpu" });
    // while 2.1 and 2.2, with PTX for every capability they list, start after the driver's JIT
    // (tensorflow#45635: 2.1 on an RTX 3060 Ti, "creating GPU device take about 5 Minutes")
    Report jit = check({ .frameworks = { "tensorflow==2.1.0" }, .cuda = "10.1", .gpus = { "RTX 3060 Ti" } });
    SHOW(jit);
    CHECK(jit.verdict() == Verdict::warn);
    CHECK(problems(jit) == Codes { "gpu-ptx-jit" });
    CHECK(finding(jit, "gpu-ptx-jit")->message
        == "tensorflow 2.1.0 has no cubin for sm_86 (3.5+PTX;3.7+PTX;5.2+PTX;6.0+PTX;6.1+PTX;7.0+PTX), which its CUDA "
           "10.1 cannot target: the driver JIT-compiles its 7.0 PTX when NVIDIA GeForce RTX 3060 Ti first runs it (a "
           "start-up TensorFlow puts at up to 30 minutes)");
    CHECK_THAT(finding(jit, "gpu-ptx-jit")->why,
        StartsWith("https://github.com/tensorflow/docs/blob/66e2ecd5e7ff172f2fc1fd4aab76a78782e538e4/site/en/install/"
                   "gpu.md | https://github.com/tensorflow/tensorflow/issues/45635"));
    CHECK(suggests(jit,
        "for NVIDIA GeForce RTX 3060 Ti use tensorflow >= 2.5, the first line built with a CUDA that targets sm_86"));
    CHECK(
        problems(check({ .frameworks = { "tensorflow==2.2.0" }, .gpus = { "RTX 3070" } })) == Codes { "gpu-ptx-jit" });
}

TEST_CASE("no TensorFlow line targets Blackwell, and a newer CUDA on the host does not change that", "[resolve]")
{
    // tensorflow/tensorflow#99592: 2.20 with CUDA 12.9 on the host, on an RTX 50-series GPU,
    // fails with CUDA_ERROR_INVALID_PTX; the wheel brings CUDA 12.5, which knows no sm_120
    Report host_cuda = check(
        { .frameworks = { "tensorflow==2.20.0" }, .cuda = "12.9", .driver = "575.57.08", .gpus = { "RTX 5090" } });
    SHOW(host_cuda);
    CHECK(host_cuda.verdict() == Verdict::fail);
    CHECK(problems(host_cuda) == Codes { "framework-cuda-untested", "cuda-cannot-target-gpu" });
    CHECK(finding(host_cuda, "cuda-cannot-target-gpu")->message
        == "CUDA 12.5 cannot target sm_120 (NVIDIA GeForce RTX 5090, Blackwell): compute capability 12.0 needs CUDA "
           ">= 12.8");
    CHECK(host_cuda.suggestions
        == std::vector<std::string> { "no tensorflow line on record is built with a CUDA that targets sm_120 (CUDA "
                                      ">= 12.8): a newer CUDA on the host does not change the CUDA 12.5 that "
                                      "tensorflow 2.20.0's kernels were built with" });
    // B200 (sm_100) alike: no line is built with CUDA 12.8
    CHECK(check({ .frameworks = { "tensorflow==2.19.0" }, .gpus = { "B200" } }).suggestions
        == std::vector<std::string> { "no tensorflow line on record is built with a CUDA that targets sm_100 (CUDA "
                                      ">= 12.8): a newer CUDA on the host does not change the CUDA 12.5 that "
                                      "tensorflow 2.19.0's kernels were built with" });
    // where the driver's JIT of its PTX runs the line anyway, no line is no news: nothing to suggest
    Report jit = check({ .frameworks = { "tensorflow==2.2.0" }, .gpus = { "RTX 5090" } });
    CHECK(problems(jit) == Codes { "gpu-ptx-jit" });
    CHECK(jit.suggestions.empty());
}

TEST_CASE("Rubin (compute capability 10.7) needs CUDA 13.4 and runs sm_100 cubins", "[resolve]")
{
    // CUDA 13.4 adds (preview) support for Rubin; pytorch/pytorch#190654 reads it as 10.7, whose
    // instructions are compatible with sm_100
    Report old = check({ .cuda = "13.0", .gpus = { "sm_107" } });
    SHOW(old);
    CHECK(old.verdict() == Verdict::fail);
    CHECK(finding(old, "cuda-cannot-target-gpu")->message
        == "CUDA 13.0 cannot target sm_107 (sm_107, Rubin): compute capability 10.7 needs CUDA >= 13.4");
    CHECK(suggests(old, "use CUDA >= 13.4, or compile for sm_103 (its cubin runs on 10.7)"));
    CHECK(check({ .cuda = "13.4", .gpus = { "10.7" } }).verdict() == Verdict::ok);
    Report torch = check({ .frameworks = { "torch==2.9.0+cu130" }, .gpus = { "sm_107" } });
    SHOW(torch);
    CHECK(problems(torch) == Codes { "gpu-extension-target" });
    CHECK_THAT(finding(torch, "gpu-cubin-compatible")->message,
        Catch::Matchers::EndsWith(
            "its sm_100 cubins run on 10.7 (same major, higher minor), without kernels specific to Rubin"));
}

TEST_CASE(
    "torch 2.9 and 2.10 warn at start-up of a GPU above their newest architecture, and 2.11 does not", "[resolve]")
{
    // pytorch/pytorch#172629: torch 2.9.1 on GB10, "Found GPU0 NVIDIA GB10 which is of cuda
    // capability 12.1. Minimum and Maximum cuda capability supported by this version of PyTorch is
    // (8.0) - (12.0)"; PR #166185, in 2.11, checks binary compatibility instead
    Report spark = check({ .frameworks = { "torch==2.9.1+cu130" }, .gpus = { "GB10" } });
    SHOW(spark);
    CHECK(spark.verdict() == Verdict::warn);
    CHECK(problems(spark) == Codes { "gpu-capability-range-warning" });
    CHECK(finding(spark, "gpu-capability-range-warning")->message
        == "torch 2.9.1 cu130 has no sm_121 kernels (7.5;8.0;8.6;9.0;10.0;12.0 (PTX not on record)); its sm_120 "
           "cubins run on 12.1 (same major, higher minor), and torch 2.9 warns at start-up that 12.1 is above the "
           "capabilities it supports");
    CHECK_THAT(finding(spark, "gpu-capability-range-warning")->why, Contains("172629"));
    CHECK(problems(check({ .frameworks = { "torch==2.10.0+cu130" }, .gpus = { "GB10" } }))
        == Codes { "gpu-capability-range-warning" });
    CHECK(has_code(check({ .frameworks = { "torch==2.11.0+cu130" }, .gpus = { "GB10" } }), "gpu-cubin-compatible"));
    // within the range, a GPU between two architectures is not warned of: an RTX 4090 on sm_86
    Report ada = check({ .frameworks = { "torch==2.9.1+cu128" }, .gpus = { "RTX 4090" } });
    CHECK(ada.verdict() == Verdict::ok);
    CHECK(has_code(ada, "gpu-cubin-compatible"));
}

TEST_CASE("torch 2.11 drops Volta from its CUDA 12.8 build and publishes CUDA 13.0 on PyPI", "[resolve]")
{
    Report v100 = check({ .frameworks = { "torch==2.11.0+cu128" }, .gpus = { "V100" } });
    SHOW(v100);
    // nor does the cuDNN 9.17 it bundles; cu126 keeps 9.10.2, which still carries Volta
    CHECK(problems(v100) == Codes { "cudnn-gpu-unsupported", "gpu-no-kernel" });
    CHECK(problems(check({ .frameworks = { "torch==2.11.0+cu126" }, .gpus = { "V100" } }))
        == Codes { "cudnn-gpu-deprecated" });
    Report pypi = check({ .frameworks = { "torch==2.11.0" }, .driver = "550.163.01", .gpus = { "T4" } });
    SHOW(pypi);
    CHECK_THAT(finding(pypi, "framework-build")->message,
        Contains("cu130: CUDA 13.0") && Contains("(the PyPI default build)"));
    CHECK(pypi.verdict() == Verdict::fail);
    CHECK(has_code(pypi, "driver-too-old"));
}

TEST_CASE("torch's cu129 wheels outside RELEASE.md are builds of 2.9.0 to 2.13.0, less 2.12.0", "[resolve]")
{
    // NVIDIA's cuML tests install torch==2.10.0+cu129: judged, not refused
    Report cuml = check({ .frameworks = { "torch==2.10.0+cu129" }, .driver = "575.57.08", .gpus = { "A100" } });
    SHOW(cuml);
    CHECK(problems(cuml).empty());
    CHECK_THAT(finding(cuml, "framework-build")->message, Contains("cu129: CUDA 12.9, cuDNN 9.10.2.21"));
    // --cuda 12.9 now has a build of its own to pick
    CHECK_THAT(finding(check({ .frameworks = { "torch==2.11" }, .cuda = "12.9" }), "framework-build")->message,
        Contains("cu129: CUDA 12.9, cuDNN 9.17.1.4"));
    // 2.11 built it without Volta, as its CUDA 12.8 build, beside a cuDNN without it
    CHECK(problems(check({ .frameworks = { "torch==2.11.0+cu129" }, .gpus = { "V100" } }))
        == Codes { "cudnn-gpu-unsupported", "gpu-no-kernel" });
    // 2.12.1's and 2.13.0's GPU code is not on record
    CHECK(
        has_code(check({ .frameworks = { "torch==2.12.1+cu129" }, .gpus = { "RTX 4090" } }), "gpu-arch-list-unknown"));
    // 2.12.0 was built without CUDA 12.9, and 2.14.0 dropped it
    Error first = error_of({ .frameworks = { "torch==2.12.0+cu129" } });
    CHECK(first.message() == "torch==2.12.0+cu129: torch 2.12.0 has no cu129 build");
    CHECK(first.hint()
        == "its builds: cu126 (CUDA 12.6), cu130 (CUDA 13.0) and cu132 (CUDA 13.2, experimental): pin one of them, "
           "or drop the label for the release's default build");
    CHECK(error_of({ .frameworks = { "torch==2.14.0+cu129" } }).code() == ErrorCode::invalid_input);
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

TEST_CASE("tensorflow 2.11.1 has 2.12's Python window, not its own line's", "[resolve]")
{
    // tensorflow#60176: 2.11.1, published beside 2.12.0, has no Python 3.7 wheels; 2.11.0 has
    Report r = check({ .frameworks = { "tensorflow==2.11.1" }, .python = "3.7" });
    SHOW(r);
    CHECK(problems(r) == Codes { "python-unsupported" });
    CHECK_THAT(finding(r, "python-unsupported")->message, Contains("supports Python 3.8-3.11, not 3.7"));
    CHECK(problems(check({ .frameworks = { "tensorflow==2.11.0" }, .python = "3.7" })).empty());
    // the line stands for its newest release
    CHECK(problems(check({ .frameworks = { "tensorflow==2.11" }, .python = "3.11" })).empty());
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

TEST_CASE("TensorFlow 2.5, a CUDA 11.2 build, loads libcusolver.so.11, which CUDA 11.0 does not ship", "[resolve]")
{
    // tensorflow/tensorflow#43947: CUDA 11.0 "has issues importing libcusolver.so.11 since only
    // libcusolver.so.10 is available there"; TensorFlow 2.5 ran once CUDA 11.3 was installed
    Report r = check({ .frameworks = { "tensorflow==2.5.0" }, .cuda = "11.0" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "framework-cuda-untested" });
    CHECK(finding(r, "framework-cuda-untested")->message
        == "tensorflow 2.5.0 was built with CUDA 11.2 and loads its cuSOLVER as libcusolver.so.11, which CUDA 11.0 "
           "does not have (it ships libcusolver.so.10)");
    CHECK(suggests(r, "tensorflow 2.4 is tested with CUDA 11.0 and cuDNN 8.0"));
    // 11.1 ships libcusolver.so.11: an untested minor, not a missing library
    CHECK(problems(check({ .frameworks = { "tensorflow==2.5.0" }, .cuda = "11.1" }))
        == Codes { "framework-cuda-untested" });
    CHECK(check({ .frameworks = { "tensorflow==2.5.0" }, .cuda = "11.1" }).verdict() == Verdict::warn);
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
    // pytorch/audio's matrix pairs torch 1.6.0 with torchaudio 0.6.0 (Kaggle/docker-python#858:
    // torchaudio 0.5 beside torch 1.6 fails on an undefined symbol)
    CHECK(problems(check({ .frameworks = { "torch==1.6.0", "torchaudio==0.5.0" } })) == Codes { "companion-mismatch" });
    CHECK(problems(check({ .frameworks = { "torch==1.6.0", "torchaudio==0.6.0" } })).empty());
}

TEST_CASE("torchaudio 0.3.0-0.3.2 pair with torch 1.2.0-1.3.1, before torchaudio's own matrix begins", "[resolve]")
{
    // pytorch/audio#171: torchaudio after 0.2.0 beside torch 1.1.0 fails on import
    Report r = check({ .frameworks = { "torch==1.1.0", "torchaudio==0.3.0" } });
    SHOW(r);
    CHECK(problems(r) == Codes { "companion-mismatch" });
    CHECK(finding(r, "companion-mismatch")->message
        == "torchaudio 0.3.0 is built for torch 1.2.0 and cannot be used with torch 1.1.0 cu100 (companion binaries "
           "are compiled against one torch release)");
    for (const auto& [torch, audio] : { std::pair { "1.2.0", "0.3.0" }, { "1.3.0", "0.3.1" }, { "1.3.1", "0.3.2" } }) {
        Report paired
            = check({ .frameworks = { std::string("torch==") + torch, std::string("torchaudio==") + audio } });
        CAPTURE(torch);
        CHECK(finding(paired, "companion-paired")->message
            == std::string("torchaudio ") + audio + " is built for torch " + torch);
    }
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

TEST_CASE("a GPU name reads alike without its spaces or hyphens, as a model or as a family", "[resolve]")
{
    auto [typed, read_as] = GENERATE(table<std::string, std::string>({
        { "RTX3090", "NVIDIA GeForce RTX 3090" }, { "GTX1080Ti", "NVIDIA GeForce GTX 1080 Ti" },
        { "rtx-4090", "NVIDIA GeForce RTX 4090" }, { "GeForce RTX4070 Ti", "NVIDIA GeForce RTX 4070 Ti" },
        { "RTXA6000", "NVIDIA RTX A6000" }, { "RTX3080", "RTX 3080" }, // the family of the 10GB and 12GB models
    }));
    CAPTURE(typed);
    GpuTarget target = resolve_gpu(matrix::Matrix::embedded(), typed);
    CHECK(target.label == read_as);
    // spellings that differ in more than spacing are still refused, with the nearest names
    CHECK_THROWS_WITH(resolve_gpu(matrix::Matrix::embedded(), "RTX3095"), "unknown GPU 'RTX3095'");
}

TEST_CASE("an RTX Ada sold only as a laptop GPU reads as it by its bare name", "[resolve]")
{
    // tensorflow/tensorflow#61691 writes "RTX 3500 Ada" for the laptop GPU, the only one of the name
    for (std::string name : { "RTX 3500 Ada", "NVIDIA RTX 3500 Ada Generation", "RTX 500 Ada", "RTX 1000 Ada",
             "RTX 3000 Ada Generation" }) {
        CAPTURE(name);
        GpuTarget target = resolve_gpu(matrix::Matrix::embedded(), name);
        REQUIRE(target.model);
        CHECK_THAT(target.label, StartsWith("NVIDIA RTX ") && Contains(" Ada Generation Laptop GPU"));
    }
    // where a desktop part shares the name, the bare name stays the desktop's
    CHECK(resolve_gpu(matrix::Matrix::embedded(), "RTX 4000 Ada").label == "NVIDIA RTX 4000 Ada Generation");
}

TEST_CASE("a GPU name with its memory size reads as the variants of that size", "[resolve]")
{
    const auto& matrix = matrix::Matrix::embedded();
    // a family's variants of that size: one is the model, several stay a family
    GpuTarget sized = resolve_gpu(matrix, "A100 40GB");
    CHECK(sized.label == "A100 40GB");
    CHECK(sized.model == nullptr);
    REQUIRE(sized.variants.size() == 2);
    CHECK(sized.variants[0]->memory_gb == 40);
    CHECK(sized.variants[1]->memory_gb == 40);
    CHECK(sized.compute_capability.text() == "8.0");
    // a model whose memory is that size, or not on record, is the model
    CHECK(resolve_gpu(matrix, "RTX 4060 Ti 16GB").label == "NVIDIA GeForce RTX 4060 Ti");
    CHECK(resolve_gpu(matrix, "RTX 2060 6 GB").label == "NVIDIA GeForce RTX 2060");
    // one sold with another size shares its compute capability and segment, not its memory
    GpuTarget other = resolve_gpu(matrix, "RTX 2060 12GB");
    CHECK(other.label == "RTX 2060 12GB");
    CHECK(other.model == nullptr);
    CHECK(other.variants.empty());
    CHECK(other.compute_capability.text() == "7.5");
    CHECK(other.segment == matrix::GpuSegment::geforce);
    // a size no variant of a family has names them
    CHECK_THROWS_WITH(resolve_gpu(matrix, "A100 32GB"), "no A100 is sold with 32GB");
    CHECK_THROWS_WITH(resolve_gpu(matrix, "RTX 4099 16GB"), "unknown GPU 'RTX 4099 16GB'");
    // a size of more digits than any GPU's is no size, however long
    const std::string huge = "A100 " + std::string(400, '9') + "GB";
    CHECK_THROWS_WITH(resolve_gpu(matrix, huge), "unknown GPU '" + huge + "'");
}

TEST_CASE("every GPU name of the matrix, run together, reads as its model or the model's family", "[resolve]")
{
    const matrix::Matrix& m = matrix::Matrix::embedded();
    for (const auto& gpu : m.gpus()) {
        std::vector<std::string> names = gpu.aliases;
        names.push_back(gpu.name);
        for (const auto& name : names) {
            std::string run_together;
            for (char c : name)
                if (c != ' ' && c != '-')
                    run_together += c;
            CAPTURE(name, run_together);
            GpuTarget target = resolve_gpu(m, run_together);
            CHECK((target.model == &gpu || (!gpu.family.empty() && target.label == gpu.family)));
        }
    }
}

TEST_CASE(
    "conda's pytorch is torch, and a build from source is judged by its release with its own code unknown", "[resolve]")
{
    CHECK(FrameworkRequest::parse("pytorch==2.1").framework == Framework::torch);
    CHECK(check({ .frameworks = { "pytorch==2.1" }, .gpus = { "RTX 3090" } }).verdict() == Verdict::ok);

    // NVIDIA's PyTorch container 23.08 ships torch 2.1.0a0+29c30b1 built with CUDA 12.2, a
    // CUDA no torch 2.1 wheel has
    Report ngc = check({ .frameworks = { "torch==2.1.0a0+29c30b1" }, .cuda = "12.2", .gpus = { "H100" } });
    SHOW(ngc);
    CHECK(ngc.verdict() == Verdict::warn);
    CHECK(problems(ngc) == Codes { "framework-source-build", "gpu-arch-list-unknown" });
    CHECK(finding(ngc, "framework-build")->message == "torch==2.1.0a0+29c30b1 runs as torch 2.1.0a0: CUDA 12.2");
    CHECK(finding(ngc, "framework-source-build")->message
        == "torch==2.1.0a0+29c30b1 is a build from source (its label '29c30b1', as NVIDIA's containers and Jetson "
           "wheels carry): judged by the facts of torch 2.1.0 with CUDA 12.2; its cuDNN, NCCL and GPU code are its "
           "builder's, not on record");
    // without --cuda it stands in for the release's PyPI build, and says so
    CHECK_THAT(finding(check({ .frameworks = { "torch==2.1.0a0+29c30b1" } }), "framework-source-build")->message,
        Contains("with CUDA 12.1, its PyPI build's (give --cuda for the one it was built with)"));
    // NVIDIA's Jetson wheels are such builds, so they do not need one
    Report jetson = check({ .frameworks = { "torch==2.0.0+nv23.05" }, .cuda = "11.4", .gpus = { "Jetson AGX Orin" } });
    CHECK(problems(jetson) == Codes { "framework-source-build", "gpu-arch-list-unknown" });

    // wheel variants stay wheel variants: the CPU build says what it is where a GPU is named
    Report cpu = check({ .frameworks = { "torch==2.1.0+cpu" }, .gpus = { "RTX 3090" } });
    CHECK(cpu.verdict() == Verdict::fail);
    CHECK(finding(cpu, "framework-no-cuda-build")->message
        == "torch 2.1.0+cpu is the CPU-only build, with no CUDA; its CUDA builds: cu118 (CUDA 11.8) and cu121 (CUDA "
           "12.1, experimental)");
    // its C++11-ABI wheels (download.pytorch.org/whl/cpu-cxx11-abi) are CPU builds too
    CHECK(finding(check({ .frameworks = { "torch==2.1.0+cpu.cxx11.abi" }, .gpus = { "RTX 3090" } }),
              "framework-no-cuda-build")
              ->message
        == "torch 2.1.0+cpu.cxx11.abi is the CPU-only build, with no CUDA; its CUDA builds: cu118 (CUDA 11.8) and "
           "cu121 (CUDA 12.1, experimental)");
    // so do the builds for other vendors' GPUs, which the matrix does not hold
    CHECK(finding(check({ .frameworks = { "torch==2.6.0+rocm6.2.4" } }), "framework-no-cuda-build")->message
        == "torch 2.6.0+rocm6.2.4 is a build for AMD GPUs (ROCm 6.2.4), with no CUDA; its CUDA builds: cu118 (CUDA "
           "11.8), cu124 (CUDA 12.4) and cu126 (CUDA 12.6, experimental)");
    CHECK(finding(check({ .frameworks = { "torch==2.7.0+xpu" } }), "framework-no-cuda-build")->message
        == "torch 2.7.0+xpu is a build for Intel GPUs (XPU), with no CUDA; its CUDA builds: cu118 (CUDA 11.8), cu126 "
           "(CUDA 12.6) and cu128 (CUDA 12.8, experimental)");
    // a CUDA label the release has no build of names a wheel never published: bad input
    Error never = error_of({ .frameworks = { "torch==2.7.0+cu121" } });
    CHECK(never.code() == ErrorCode::invalid_input);
    CHECK(never.message() == "torch==2.7.0+cu121: torch 2.7.0 has no cu121 build");
    CHECK(never.hint()
        == "its builds: cu118 (CUDA 11.8), cu126 (CUDA 12.6) and cu128 (CUDA 12.8, experimental): pin one of them, or "
           "drop the label for the release's default build");
    // a nightly's are its own: judged against the release's builds, not refused
    CHECK(
        problems(check({ .frameworks = { "torch==2.7.0.dev20250310+cu124" } })) == Codes { "framework-no-cuda-build" });
    // a companion is published for the builds of the torch it is built with (pytorch/pytorch#124587)
    Error companion = error_of({ .frameworks = { "torch==2.2.2+cu121", "torchvision==0.6.0+cu121" } });
    CHECK(companion.code() == ErrorCode::invalid_input);
    CHECK(companion.message() == "torchvision==0.6.0+cu121: torchvision 0.6.0 has no cu121 build");
    CHECK(companion.hint()
        == "torchvision 0.6.0 is built with torch 1.5.0, whose builds are cu102 (CUDA 10.2), cu101 (CUDA 10.1) and "
           "cu92 (CUDA 9.2): pin one of them, or drop the label for the release's default build");
    // one it has is judged, with or without its torch named; torch 1.10's cu113 wheels are
    // recorded from the builder's scripts, and so are its companions'
    CHECK(problems(check({ .frameworks = { "torchvision==0.6.0+cu102" } })).empty());
    CHECK(problems(check({ .frameworks = { "torch==1.10.0+cu113", "torchvision==0.11.1+cu113" } })).empty());
    // torchaudio on the stable ABI is published for later torch releases' builds
    CHECK_NOTHROW(check({ .frameworks = { "torch==2.12.1+cu132", "torchaudio==2.11.0+cu132" } }));
    CHECK(problems(check({ .frameworks = { "torch==2.2.2+cu121", "torchvision==0.17.2+cu121" } })).empty());
    CHECK_FALSE(FrameworkRequest::parse("torch==2.1.0+rocm5.6").names_source_build());
    CHECK_FALSE(FrameworkRequest::parse("torch==2.1.0+cu121").names_source_build());
    CHECK(FrameworkRequest::parse("torch==2.1.0a0+41361538.nv23.06").names_source_build());
}

TEST_CASE("a CUDA label written with its dot names no PyTorch wheel", "[resolve]")
{
    // sunsmarterjie/iTPN#11 reports torch==1.7.1+cu11.0, a wheel never published: the label is cu110
    Error dotted = error_of({ .frameworks = { "torch==1.7.1+cu11.0" } });
    CHECK(dotted.message()
        == "'+cu11.0' in torch==1.7.1+cu11.0 names no wheel: PyTorch's CUDA labels write the version without its dot");
    CHECK(dotted.hint() == "write torch==1.7.1+cu110");
    CHECK(error_of({ .frameworks = { "torch==1.7.1", "torchvision==0.8.2+cu11.0" } }).hint()
        == "write torchvision==0.8.2+cu110");
    // ROCm's labels carry their dot, and a source build's label is its own
    CHECK_FALSE(FrameworkRequest::parse("torch==2.1.0+rocm5.6").names_source_build());
    CHECK(FrameworkRequest::parse("torch==2.1.0a0+cu.nv23").names_source_build());
}

TEST_CASE("a free-threaded Python needs wheels built for it: torch ships 3.13t from 2.6, experimentally until 2.9",
    "[resolve]")
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
    // pytorch/pytorch#144357, #151584: 2.6's 3.13t wheels are Linux x86_64 ones; on Windows,
    // 3.13t fails to load torch ("Failed to load PyTorch C extensions")
    Report windows = check({ .frameworks = { "torch==2.6.0" }, .python = "3.13t", .os = "windows" });
    SHOW(windows);
    CHECK(windows.verdict() == Verdict::fail);
    CHECK(problems(windows) == Codes { "python-free-threaded-unsupported" });
    CHECK(finding(windows, "python-free-threaded-unsupported")->message
        == "torch 2.6.0 cu124's wheels for the free-threaded Python 3.13t are Linux ones: it has none for Windows");
    CHECK(suggests(windows, "use Python 3.13 (with the GIL) with torch 2.6.0 cu124 on Windows, or run it under WSL 2"));
    // a line whose Windows wheels are not on record says so, beside the experimental warning
    Report later = check({ .frameworks = { "torch==2.7.0" }, .python = "3.13t", .os = "windows" });
    CHECK(problems(later) == Codes { "python-free-threaded" });
    CHECK(finding(later, "python-free-threaded-windows-unknown")->message
        == "whether torch 2.7.0 cu126's wheels for the free-threaded Python 3.13t include Windows ones is not on "
           "record");
    CHECK(problems(check({ .frameworks = { "torch==2.6.0" }, .python = "3.13t", .os = "wsl2" }))
        == Codes { "python-free-threaded" });
    CHECK(finding(check({ .frameworks = { "torch==2.12.1" }, .python = "3.13t" }), "python-free-threaded-unsupported")
              ->message
        == "torch 2.12.1 cu130 ships no wheels for the free-threaded Python 3.13t (its free-threaded wheels: 3.14t)");
    // From 2.9 PyTorch's matrix calls only 3.14t experimental (pytorch/ao#3243 runs 2.9.0+cu130 on
    // 3.13t), but CPython's own 3.13t build still is
    Report settled = check({ .frameworks = { "torch==2.9.0+cu130" }, .cuda = "13.0", .python = "3.13t" });
    CHECK(settled.verdict() == Verdict::warn);
    CHECK(finding(settled, "python-free-threaded")->message
        == "torch 2.9.0 cu130 ships wheels for the free-threaded Python 3.13t, which PyTorch no longer calls "
           "experimental; CPython's own 3.13t build is experimental (PEP 703)");
    CHECK(finding(check({ .frameworks = { "torch==2.9.0+cu130" }, .python = "3.14t" }), "python-free-threaded")->message
        == "torch 2.9.0 cu130 ships wheels for the free-threaded Python 3.14t, which PyTorch supports experimentally");
    // 3.13t left PyTorch's build matrix before 2.13, whose newest free-threaded build is experimental
    CHECK(finding(check({ .frameworks = { "torch==2.13.0" }, .python = "3.13t" }), "python-free-threaded-unsupported")
              ->message
        == "torch 2.13.0 cu130 ships no wheels for the free-threaded Python 3.13t (its free-threaded wheels: 3.14t "
           "and 3.15t)");
    Report newest = check({ .frameworks = { "torch==2.13.0" }, .python = "3.15t" });
    CHECK(newest.verdict() == Verdict::warn);
    CHECK(finding(newest, "python-free-threaded")->message
        == "torch 2.13.0 cu130 ships wheels for the free-threaded Python 3.15t, which PyTorch supports experimentally");
    // No TensorFlow release ships free-threaded wheels.
    Report tensorflow = check({ .frameworks = { "tensorflow==2.20.0" }, .python = "3.13t" });
    SHOW(tensorflow);
    CHECK(tensorflow.verdict() == Verdict::fail);
    CHECK(finding(tensorflow, "python-free-threaded-unsupported")->message
        == "tensorflow 2.20.0 ships no wheels for the free-threaded Python 3.13t");
    CHECK(finding(tensorflow, "python-free-threaded-unsupported")->why
        == "https://github.com/tensorflow/tensorflow/issues/115828 | "
           "https://github.com/tensorflow/tensorflow/pull/125493");
    // Not on record is said so, and the verdict is the rest of the stack's.
    const Ask unrecorded { .frameworks = { "tensorflow==2.20.0" }, .python = "3.13t" };
    Report unknown = resolve::check(
        embedded_with("tensorflow.json", [](nlohmann::json& d) { d.erase("free_threaded"); }), unrecorded.query());
    CHECK(unknown.verdict() == Verdict::ok);
    CHECK(has_code(unknown, "python-free-threaded-unknown"));
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
    const std::string wanted = outcome; // clang before 16 cannot capture a structured binding
    bool found = std::any_of(r.findings.begin(), r.findings.end(),
        [&](const Finding& f) { return f.message.find(wanted) != std::string::npos; });
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

TEST_CASE("a local label on tensorflow is refused: its wheels carry none", "[resolve]")
{
    Error labelled = error_of({ .frameworks = { "tensorflow==2.15.0+cu121" } });
    CHECK(labelled.code() == ErrorCode::invalid_input);
    CHECK(labelled.message()
        == "'+cu121' in tensorflow==2.15.0+cu121 names no TensorFlow wheel: TensorFlow's wheels carry no local label");
    CHECK(labelled.hint() == "drop it: tensorflow==2.15.0 is the release's one build");
    CHECK(error_of({ .frameworks = { "tensorflow[and-cuda]==2.16.1+cu123" } }).hint()
        == "drop it: tensorflow[and-cuda]==2.16.1 is the release's one build");
    CHECK_NOTHROW(check({ .frameworks = { "tensorflow==2.15.0" } }));
}

TEST_CASE("a CPU-only build with nothing of a GPU named runs as asked, and has no CUDA where one is", "[resolve]")
{
    // download.pytorch.org/whl/cpu: torch 2.1.0+cpu for the CPython 3.8-3.11 of its release
    Report torch = check({ .frameworks = { "torch==2.1.0+cpu" }, .python = "3.11" });
    SHOW(torch);
    CHECK(torch.verdict() == Verdict::ok);
    CHECK(problems(torch).empty());
    CHECK(finding(torch, "framework-build")->message
        == "torch==2.1.0+cpu runs as torch 2.1.0 cpu, the CPU-only build, with no CUDA: no GPU, driver or CUDA is "
           "named, so it runs as asked");
    CHECK(
        problems(check({ .frameworks = { "torch==2.1.0+cpu" }, .python = "3.12" })) == Codes { "python-unsupported" });
    // its companions of the same build, or unlabelled from the same index, pair with it
    CHECK(problems(check({ .frameworks = { "torch==2.1.0+cpu", "torchvision==0.16.0+cpu" } })).empty());
    CHECK(problems(check({ .frameworks = { "torch==2.1.0+cpu", "torchvision==0.15.2" } }))
        == Codes { "companion-mismatch" });

    // jax's setup.py: extras_require 'cpu' from jax 0.2.11, jaxlib alone
    Report jax = check({ .frameworks = { "jax[cpu]==0.4.30" }, .python = "3.12" });
    SHOW(jax);
    CHECK(jax.verdict() == Verdict::ok);
    CHECK(finding(jax, "framework-build")->message
        == "jax[cpu]==0.4.30 runs as jax 0.4.30 cpu, the CPU-only build, with no CUDA: no GPU, driver or CUDA is "
           "named, so it runs as asked");
    CHECK(
        problems(check({ .frameworks = { "jax[cpu]==0.4.30" }, .python = "3.13" })) == Codes { "python-unsupported" });
    // pip compares extras lowercased (PEP 685); beside a CUDA framework it shares no CUDA library
    CHECK(problems(check({ .frameworks = { "jax[CPU]==0.4.30" } })).empty());
    Report beside = check({ .frameworks = { "torch==2.4.0", "jax[cpu]==0.4.30" } });
    CHECK(problems(beside).empty());
    CHECK_FALSE(has_code(beside, "frameworks-cudnn"));
    // a release before the extra has none (the matrix holds none, so one that starts later stands in)
    const auto later = embedded_with("jax.json", [](nlohmann::json& d) { d["cpu_extra"]["from"] = "0.4.14"; });
    try {
        resolve::check(later, Ask { .frameworks = { "jax[cpu]==0.4.13" } }.query());
        FAIL("jax[cpu] of a release before the extra was not refused");
    } catch (const Error& before) {
        CHECK(before.code() == ErrorCode::invalid_input);
        CHECK(before.message() == "jax[cpu]==0.4.13: jax 0.4.13 has no extra 'cpu', which jax 0.4.14 added");
        CHECK(before.hint() == "drop [cpu] and install jaxlib beside jax 0.4.13: jaxlib alone is its CPU build");
    }

    Error both = error_of({ .frameworks = { "jax[cpu]==0.4.30+cuda12.cudnn89" } });
    CHECK(both.message()
        == "jax[cpu]==0.4.30+cuda12.cudnn89 names both jax's CPU build and the label of a CUDA jaxlib "
           "('cuda12.cudnn89')");
    CHECK(both.hint() == "drop [cpu] for that CUDA build, or the label for the CPU one");

    // a GPU named asks for CUDA, which the CPU build has not
    Report gpu = check({ .frameworks = { "jax[cpu]==0.4.30" }, .driver = "550.54.14", .gpus = { "RTX 4090" } });
    SHOW(gpu);
    CHECK(problems(gpu) == Codes { "framework-no-cuda-build" });
    CHECK(finding(gpu, "framework-no-cuda-build")->message
        == "jax[cpu]==0.4.30 is the CPU-only build of jax 0.4.30 (jaxlib alone), with no CUDA; its CUDA builds: CUDA "
           "12.1 or newer with cuDNN 9.0");
    CHECK(gpu.suggestions == std::vector<std::string> { "use jax[cuda12]==0.4.30, its CUDA 12.1-12.99 build" });
    // so has tensorflow-cpu, whose GPU build is tensorflow-gpu before 2.1
    Report tensorflow = check({ .frameworks = { "tensorflow-cpu==2.15.0" }, .gpus = { "RTX 4090" } });
    CHECK(problems(tensorflow) == Codes { "framework-no-cuda-build" });
    CHECK(finding(tensorflow, "framework-no-cuda-build")->message
        == "tensorflow-cpu==2.15.0 is TensorFlow's CPU-only build, with no CUDA; its GPU build is tensorflow==2.15.0");
    CHECK(tensorflow.suggestions
        == std::vector<std::string> { "use tensorflow==2.15.0, or tensorflow[and-cuda]==2.15.0 for CUDA from pip" });
    CHECK(
        finding(check({ .frameworks = { "tensorflow-cpu==1.14.0" }, .driver = "418.87.01" }), "framework-no-cuda-build")
            ->message
        == "tensorflow-cpu==1.14.0 is TensorFlow's CPU-only build, with no CUDA; its GPU build is "
           "tensorflow-gpu==1.14.0");
}
