// `dlenv check` of JAX releases against the embedded matrix: their builds, CUDA, cuDNN,
// Python and GPUs.

#include "support/check_ask.h"

#include <tuple>

using namespace dlenv;
using namespace dlenv::resolve;
using namespace dlenv::resolve::check_support;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

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

TEST_CASE("jax[cuda11_pip] 0.4.11-0.4.25 pins cuDNN 8.8 from pip, which torch 2.1's cuDNN 8.7 pin rules out",
    "[resolve][coexist][jax]")
{
    // setup.py at jax-v0.4.11 on: nvidia-cudnn-cu11>=8.8, for a jaxlib built with 8.6
    Report r = check({ .frameworks = { "torch==2.1.2+cu118", "jax[cuda11_pip]==0.4.23" } });
    SHOW(r);
    CHECK(problems(r) == Codes { "frameworks-cudnn" });
    CHECK(finding(r, "frameworks-cudnn")->message
        == "torch 2.1.2 cu118 carries cuDNN 8.7.0.84 and jax 0.4.23 cuda11_pip needs cuDNN 8.8-8.99 (its "
           "[cuda11_pip] extra's pin): one environment holds one nvidia-cudnn-cu11, so they cannot be installed "
           "together");
    // 0.4.10's extra pins >=8.6, and the local extra loads the system's cuDNN
    CHECK(finding(check({ .frameworks = { "torch==2.1.2+cu118", "jax[cuda11_pip]==0.4.10" } }), "frameworks-cudnn")
              ->verdict
        == Verdict::ok);
    CHECK(finding(check({ .frameworks = { "torch==2.1.2+cu118", "jax[cuda11_local]==0.4.23" } }), "frameworks-cudnn")
              ->verdict
        == Verdict::ok);
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
    CHECK(problems(r) == Codes { "gpu-below-framework-minimum", "torch-compile-unsupported-gpu" });
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

TEST_CASE("jax[cuda] and jax[cuda12_pip] are the other names setup.py gives a build's extra", "[resolve][jax]")
{
    // from 0.4.30 jax[cuda] is jax[cuda12], still where the default became cuda13 (0.8.0)
    Report plugin = check({ .frameworks = { "jax[cuda]==0.4.30" } });
    SHOW(plugin);
    CHECK(plugin.verdict() == Verdict::ok);
    CHECK(finding(plugin, "framework-build")->message
        == "jax[cuda]==0.4.30 runs as jax 0.4.30 cuda12: CUDA 12.1, cuDNN 9.0");
    CHECK(finding(plugin, "jax-extra-alias")->message
        == "jax[cuda]==0.4.30 is judged as jax[cuda12]: jax 0.4.30's setup.py gives 'cuda' the same CUDA requirements");
    Report newest = check({ .frameworks = { "jax[cuda]==0.8.0" }, .gpus = { "V100 SXM2 16GB" } });
    CHECK(problems(newest) == Codes { "cudnn-gpu-deprecated" }); // not the cuda13 build's SM 7.5 floor
    CHECK(finding(newest, "jax-extra-alias")->message
        == "jax[cuda]==0.8.0 is judged as jax[cuda12]: jax 0.8.0's setup.py gives 'cuda' the same CUDA requirements "
           "(its default is jax[cuda13])");
    CHECK(finding(newest, "framework-build")->message
        == "jax[cuda]==0.8.0 runs as jax 0.8.0 cuda12: CUDA 12.1, cuDNN 9.8");

    // before 0.4.26 it is the CUDA 11 jaxlib on the host's CUDA, as jax[cuda11_local] is
    Report host = check({ .frameworks = { "jax[cuda]==0.4.20" }, .cuda = "12.2" });
    SHOW(host);
    CHECK(problems(host) == Codes { "jax-host-cuda-outside-build" });
    CHECK(finding(host, "jax-host-cuda-outside-build")->message
        == "jax[cuda]==0.4.20 loads the CUDA installed on the host, and needs CUDA 11.8-11.99 there, not 12.2");
    CHECK(check({ .frameworks = { "jax[cuda]==0.4.20" }, .cuda = "11.8" }).verdict() == Verdict::ok);

    // jax[cuda12_pip]: the guide's extra in 0.4.26-0.4.29, a deprecated alias in 0.4.30-0.5.3, gone in 0.6.0
    CHECK(finding(check({ .frameworks = { "jax[cuda12_pip]==0.4.28" } }), "jax-extra-alias")->verdict == Verdict::ok);
    Report deprecated = check({ .frameworks = { "jax[cuda12_pip]==0.5.0" } });
    SHOW(deprecated);
    CHECK(deprecated.verdict() == Verdict::warn);
    CHECK(problems(deprecated) == Codes { "jax-extra-deprecated" });
    CHECK(finding(deprecated, "jax-extra-deprecated")->message
        == "jax[cuda12_pip]==0.5.0 is judged as jax[cuda12]: jax 0.5.0's setup.py keeps 'cuda12_pip' as its "
           "deprecated alias (jax 0.5.3 is the last release with it)");
    CHECK(deprecated.suggestions == std::vector<std::string> { "write jax[cuda12]==0.5.0" });
    Error gone = error_of({ .frameworks = { "jax[cuda12_pip]==0.6.0" } });
    CHECK(gone.message() == "jax[cuda12_pip]==0.6.0: jax 0.6.0 has no extra 'cuda12_pip'");

    // pip compares extras normalized (PEP 685): cuda12_local is 0.6.0's cuda12-local, and_cuda TensorFlow's and-cuda
    Report local = check({ .frameworks = { "jax[cuda12_local]==0.6.0" }, .cuda = "12.0" });
    CHECK(problems(local) == Codes { "jax-host-cuda-outside-build" });
    CHECK_FALSE(has_code(local, "jax-extra-alias"));
    Report and_cuda = check({ .frameworks = { "tensorflow[and_cuda]==2.16.1" } });
    CHECK(problems(and_cuda) == Codes { "pip-extra-libraries-not-found" });
    CHECK(problems(and_cuda) == problems(check({ .frameworks = { "tensorflow[and-cuda]==2.16.1" } })));
}

TEST_CASE("jax 0.4.1-0.4.7 run on the system's CUDA 11 with the cuDNN their label names, and 0.4.4 dropped Kepler",
    "[resolve][jax]")
{
    // jax[cuda] installed jaxlib+cuda11.cudnn86: CUDA 11.8 or newer, cuDNN 8.6 or newer
    Report r = check({ .frameworks = { "jax[cuda]==0.4.3" }, .gpus = { "Tesla K80" } });
    SHOW(r);
    CHECK(finding(r, "framework-build")->message
        == "jax[cuda]==0.4.3 runs as jax 0.4.3 cuda11_cudnn86: CUDA 11.8, cuDNN 8.6");
    CHECK(finding(r, "gpu-framework-minimum")->verdict == Verdict::ok);
    CHECK(
        finding(check({ .frameworks = { "jax[cuda]==0.4.4" }, .gpus = { "Tesla K80" } }), "gpu-below-framework-minimum")
            ->message
        == "JAX's cuda11_cudnn86 build supports compute capability 5.2 and newer; Tesla K80 is 3.7");
    // the label's cuDNN picks the cudnn82 wheel of the same CUDA major
    CHECK(
        finding(check({ .frameworks = { "jaxlib==0.4.7+cuda11.cudnn82" }, .cuda = "11.4" }), "framework-build")->message
        == "jaxlib==0.4.7+cuda11.cudnn82 runs as jaxlib 0.4.7 cuda11_cudnn82: CUDA 11.4, cuDNN 8.2");
    // jax#15268: the cudnn86 wheel on cuDNN 8.5
    Report old_cudnn = check({ .frameworks = { "jax==0.4.6" }, .cuda = "11.8", .cudnn = "8.5" });
    CHECK(finding(old_cudnn, "cudnn-outside-framework-range")->message
        == "JAX's cuda11_cudnn86 build needs cuDNN 8.6-8.99, not 8.5");
    CHECK(finding(check({ .frameworks = { "jax==0.4.7" } }), "framework-build")->message
        == "jax==0.4.7 runs as jax 0.4.7 cuda12_pip: CUDA 12.0, cuDNN 8.8");
}

TEST_CASE("a jax release older than the line's rows is not on record, one between them is no release", "[resolve][jax]")
{
    // 0.4.0 was yanked
    Error older = error_of({ .frameworks = { "jax==0.4.0" } });
    CHECK(older.message() == "the matrix has no jax 0.4.0 (its jax 0.4 releases begin at 0.4.1)");
    CHECK(older.hint()
        == "releases before 0.4.1 are not on record: check jax 0.4.1 or newer, or add the release to DIR/jax.json "
           "from its sources and pass --matrix DIR");
    // after the newest release of the newest line, a release after the matrix: the refresh lists it
    Error after = error_of({ .frameworks = { "jax[cuda12]==0.11.9" } });
    CHECK(after.message() == "the matrix has no jax 0.11.9 (its newest jax release is 0.11.1)");
    CHECK(after.hint()
        == "a release newer than the matrix: `dlenv matrix refresh --out DIR` lists its releases; add the release to "
           "its line's row to DIR/jax.json from the vendor's tested builds, then pass --matrix DIR");
    Error e = error_of({ .frameworks = { "jax==0.4.39" } });
    CHECK(e.message() == "jax 0.4.39 is not a release");
    CHECK(e.hint()
        == "releases of jax 0.4: 0.4.1, 0.4.2, 0.4.3, 0.4.4, 0.4.5, 0.4.6, 0.4.7, 0.4.8, 0.4.9, 0.4.10, 0.4.11, "
           "0.4.12, 0.4.13, 0.4.14, 0.4.15, 0.4.16, 0.4.17, 0.4.18, "
           "0.4.19, 0.4.20, 0.4.21, 0.4.22, 0.4.23, 0.4.24, 0.4.25, 0.4.26, 0.4.27, 0.4.28, 0.4.29, 0.4.30, 0.4.31, "
           "0.4.32, 0.4.33, 0.4.34, 0.4.35, 0.4.36, 0.4.37 and 0.4.38");
    // jax 0.1 is older than every jaxlib on record, whose 0.1.66-0.1.76 served jax 0.2
    CHECK(error_of({ .frameworks = { "jax==0.1.74" } }).message()
        == "the matrix has no jax 0.1 (its oldest jax line is 0.2)");
}

TEST_CASE("jax before 0.6 dies on a Blackwell GPU where its XLA falls back to sm_90a, and 0.6.0 is built for it",
    "[resolve][jax]")
{
    Report old = check({ .frameworks = { "jax==0.4.30" }, .cuda = "12.8", .gpus = { "RTX 5090" } });
    SHOW(old);
    CHECK(old.verdict() == Verdict::fail);
    CHECK(problems(old) == Codes { "jax-xla-unknown-gpu" });
    CHECK(finding(old, "jax-xla-unknown-gpu")->message
        == "jax 0.4.30 cannot run on NVIDIA GeForce RTX 5090 (sm_120): its XLA does not know compute capability 12.0, "
           "and the kernels it compiles for it fail at ptxas");
    CHECK(finding(old, "jax-xla-unknown-gpu")->why
        == "https://github.com/3587jjh/HuRo/pull/3 | https://github.com/NVIDIA/JAX-Toolbox/pull/1301");
    CHECK(suggests(old, "for NVIDIA GeForce RTX 5090 use jax >= 0.6.0, the first release known to run on sm_120"));

    Report built = check({ .frameworks = { "jax==0.6.0" }, .cuda = "12.8", .gpus = { "B200" } });
    SHOW(built);
    CHECK(built.verdict() == Verdict::ok);
    CHECK(finding(built, "jax-runs-on-gpu")->message
        == "jax 0.6.0 runs on NVIDIA B200 (sm_100): its XLA compiles for compute capability 10.0");

    // AlphaFold 3 on jax 0.4.34 and an RTX 5090 (alphafold3#387), and the releases before it
    // lie between it and 0.4.30; compute capability 10.0 is not on record for them (0.4.38 runs on a B200)
    for (const auto* version : { "jax==0.4.34", "jax==0.4.31" }) {
        CAPTURE(version);
        CHECK(
            problems(check({ .frameworks = { version }, .gpus = { "RTX 5090" } })) == Codes { "jax-xla-unknown-gpu" });
        CHECK(finding(check({ .frameworks = { version }, .gpus = { "B200" } }), "jax-gpu-unconfirmed")->verdict
            == Verdict::unknown);
    }
    CHECK_THAT(finding(check({ .frameworks = { "jaxlib==0.4.34" }, .gpus = { "sm_120" } }), "jax-xla-unknown-gpu")->why,
        Contains("https://github.com/google-deepmind/alphafold3/issues/387"));
    CHECK(has_code(check({ .frameworks = { "jax==0.4.35" }, .gpus = { "RTX 5090" } }), "jax-gpu-unconfirmed"));

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
    "jax's pip ptxas is the newest of its CUDA major, which an older driver compiles with in serial", "[resolve][jax]")
{
    // jax#19821 and conda-forge/tensorflow-feedstock#417: 'XLA is disabling parallel compilation'
    Report r = check({ .frameworks = { "jax[cuda12]==0.4.31" }, .driver = "550.54.14" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::warn);
    CHECK(problems(r) == Codes { "jax-ptxas-newer-than-driver" });
    CHECK(finding(r, "jax-ptxas-newer-than-driver")->message
        == "jax[cuda12] brings the newest nvidia-cuda-nvcc-cu12 from pip, whose ptxas (CUDA 12.9) wants driver >= "
           "575.51.03; on driver 550.54.14 XLA disables parallel compilation (\"the driver is older than the PTX "
           "compiler version\"), so compiling is slower");
    CHECK(suggests(r, "upgrade the driver to >= 575.51.03, or pin nvidia-cuda-nvcc-cu12 to the CUDA the driver runs"));
    // a named CUDA is the CUDA installed; the local extra uses the system's ptxas
    CHECK_FALSE(has_code(check({ .frameworks = { "jax[cuda12]==0.4.31" }, .cuda = "12.4", .driver = "550.54.14" }),
        "jax-ptxas-newer-than-driver"));
    CHECK_FALSE(has_code(check({ .frameworks = { "jax[cuda12_local]==0.4.31" }, .driver = "550.54.14" }),
        "jax-ptxas-newer-than-driver"));
    CHECK_FALSE(has_code(
        check({ .frameworks = { "jax[cuda12]==0.4.31" }, .driver = "575.64.05" }), "jax-ptxas-newer-than-driver"));
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

TEST_CASE("jaxlib before 0.4 has rows of its own versions, and jax 0.2 finds the jaxlib its jax[cuda] installs",
    "[resolve][jax]")
{
    // jax 0.2.25's setup.py: jax[cuda] installs jaxlib==0.1.73+cuda11.cudnn82
    CHECK(finding(check({ .frameworks = { "jax==0.2.25" } }), "framework-build")->message
        == "jax==0.2.25 runs as jax 0.2.25 cuda11_cudnn82: CUDA 11.1, cuDNN 8.2");
    CHECK(finding(check({ .frameworks = { "jaxlib==0.1.74+cuda11.cudnn805" } }), "framework-build")->message
        == "jaxlib==0.1.74+cuda11.cudnn805 runs as jaxlib 0.1.74 cuda11_cudnn805: CUDA 11.1, cuDNN 8.0.5");
    // a three-digit label names the CUDA minor: AlphaFold 2.0's jaxlib
    CHECK(finding(check({ .frameworks = { "jaxlib==0.1.69+cuda111" } }), "framework-build")->message
        == "jaxlib==0.1.69+cuda111 runs as jaxlib 0.1.69 cuda111: CUDA 11.1, cuDNN 8.0.5");
    CHECK(finding(check({ .frameworks = { "jaxlib==0.1.69+cuda110" } }), "framework-build")->message
        == "jaxlib==0.1.69+cuda110 runs as jaxlib 0.1.69 cuda110: CUDA 11.0, cuDNN 8.0.5");
    // 0.1.71 dropped CUDA 11.0 and 10.1 (CHANGELOG)
    Error dropped = error_of({ .frameworks = { "jaxlib==0.1.71+cuda110" } });
    CHECK(dropped.message() == "jaxlib==0.1.71+cuda110: jaxlib 0.1.71 has no cuda110 build");
    CHECK(dropped.hint()
        == "its CUDA builds: CUDA 11.1 or newer with cuDNN 8.0.5 and CUDA 10.2 with cuDNN 7.6: pin one of them, or "
           "drop the label for the release's default build");
    // a label's cuDNN outside every build of its CUDA names a wheel never published: jaxlib 0.4.12's
    // CUDA 12 wheel is cudnn89 (its setup.py asked for a cudnn88 one, jax#16421), 0.4.29's cudnn91
    for (const auto& [text, message, builds] : {
             std::tuple { "jaxlib==0.4.12+cuda12.cudnn88", "jaxlib 0.4.12 has no cuda12.cudnn88 build",
                 "CUDA 12.0 or newer with cuDNN 8.9 and CUDA 11.8 or newer with cuDNN 8.6" },
             std::tuple { "jaxlib==0.4.12+cuda11.cudnn82", "jaxlib 0.4.12 has no cuda11.cudnn82 build",
                 "CUDA 12.0 or newer with cuDNN 8.9 and CUDA 11.8 or newer with cuDNN 8.6" },
             std::tuple { "jaxlib==0.4.29+cuda12.cudnn89", "jaxlib 0.4.29 has no cuda12.cudnn89 build",
                 "CUDA 12.1 or newer with cuDNN 9.1" },
         }) {
        CAPTURE(text);
        Error never = error_of({ .frameworks = { text } });
        CHECK(never.message() == std::string(text) + ": " + message);
        CHECK_THAT(never.hint(), StartsWith(std::string("its CUDA builds: ") + builds + ": pin one of them"));
    }
    CHECK(problems(check({ .frameworks = { "jaxlib==0.4.12+cuda12.cudnn89" } })).empty());
    CHECK(problems(check({ .frameworks = { "jaxlib==0.4.29+cuda12.cudnn91" } })).empty());
    // Python 3.11 arrived with jaxlib 0.3.24
    CHECK(check({ .frameworks = { "jax==0.3.25" }, .python = "3.11" }).verdict() == Verdict::ok);
    CHECK(finding(check({ .frameworks = { "jax==0.3.23" }, .python = "3.11" }), "python-unsupported")->message
        == "jax 0.3.23 cuda11_cudnn82 supports Python 3.7-3.10, not 3.11");
    // jaxlib's 0.1 is not jax's: jaxlib 0.1.54 is older than the rows, jax 0.2.10 had no CUDA extra
    CHECK(error_of({ .frameworks = { "jaxlib==0.1.54" } }).message()
        == "the matrix has no jaxlib 0.1.54 (its jaxlib 0.1 releases begin at 0.1.55)");
    CHECK(error_of({ .frameworks = { "jax==0.2.10" } }).message()
        == "the matrix has no jax 0.2.10 (its jax 0.2 releases begin at 0.2.11)");
}

TEST_CASE(
    "jaxlib 0.1.55-0.1.65 build for one CUDA release each, with the cuDNN minor they were built with", "[resolve][jax]")
{
    // build_jaxlib_wheels.sh and install_cuda.sh at each jaxlib tag; jax 0.2.13's jax[cuda112] pins 0.1.65
    CHECK(finding(check({ .frameworks = { "jax[cuda112]==0.2.13" } }), "framework-build")->message
        == "jax[cuda112]==0.2.13 runs as jax 0.2.13 cuda112: CUDA 11.2, cuDNN 8.1");
    CHECK(finding(check({ .frameworks = { "jaxlib==0.1.60+cuda111" } }), "framework-build")->message
        == "jaxlib==0.1.60+cuda111 runs as jaxlib 0.1.60 cuda111: CUDA 11.1, cuDNN 8.0.4");
    // "Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0" (jax#6517)
    Report older_cudnn = check({ .frameworks = { "jaxlib==0.1.65+cuda112" }, .cuda = "11.2", .cudnn = "8.0.5" });
    CHECK(finding(older_cudnn, "cudnn-outside-framework-range")->message
        == "JAX's cuda112 build needs cuDNN 8.1-8.99, not 8.0.5");
    // before 0.1.66 a wheel is for its CUDA release alone
    Report other_minor = check({ .frameworks = { "jaxlib==0.1.65+cuda111" }, .cuda = "11.2" });
    CHECK(problems(other_minor) == Codes { "jax-host-cuda-outside-build" });
    CHECK(finding(other_minor, "jax-host-cuda-outside-build")->message
        == "jaxlib==0.1.65+cuda111 loads the CUDA installed on the host, and needs CUDA 11.1 there, not 11.2");
    // "We haven't released wheels for Python 3.9 yet" (jax#4461); 0.1.57 has them
    CHECK(finding(check({ .frameworks = { "jaxlib==0.1.55" }, .python = "3.9" }), "python-unsupported")->message
        == "jaxlib 0.1.55 cuda110 supports Python 3.6-3.8, not 3.9");
    CHECK(check({ .frameworks = { "jaxlib==0.1.57" }, .python = "3.9" }).verdict() == Verdict::ok);
    // 0.1.57 dropped CUDA 10.0 (CHANGELOG)
    CHECK(error_of({ .frameworks = { "jaxlib==0.1.57+cuda100" } }).hint()
        == "its CUDA builds: CUDA 11.1 with cuDNN 8.0.4, CUDA 11.0 with cuDNN 8.0, CUDA 10.2 with cuDNN 7.6 and CUDA "
           "10.1 with cuDNN 7.6: pin one of them, or drop the label for the release's default build");
    CHECK(problems(check({ .frameworks = { "jaxlib==0.1.56+cuda100" } })).empty());
}

TEST_CASE("jaxlib 0.1.73-0.1.76 want driver 470.82.01 on a GPU their wheels carry no kernels for", "[resolve][jax]")
{
    // jax#8731: jaxlib 0.1.74+cuda11.cudnn82, CUDA 11.3, driver 465.19.01, RTX 3080 and GTX 1080 Ti:
    // "the provided PTX was compiled with an unsupported toolchain"
    Report r = check({ .frameworks = { "jaxlib==0.1.74" },
        .cuda = "11.3",
        .cudnn = "8.2.1",
        .driver = "465.19.01",
        .gpus = { "RTX 3080", "GTX 1080 Ti" },
        .python = "3.8" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "jax-driver-too-old" });
    CHECK(finding(r, "jax-driver-too-old")->message
        == "jaxlib 0.1.74 cuda11_cudnn82 needs driver >= 470.82.01: its wheels carry no kernels for RTX 3080 "
           "(compute capability 8.6; they carry 3.5, 5.2, 6.0, 6.1 and 7.0), so the driver JIT-compiles "
           "their PTX, which driver 465.19.01 refuses (\"the provided PTX was compiled with an unsupported "
           "toolchain\")");
    CHECK(suggests(r, "upgrade the driver to >= 470.82.01"));

    // 0.1.76 carries sm_80 kernels, which an sm_86 GPU runs: the older driver may do
    Report sm80
        = check({ .frameworks = { "jaxlib==0.1.76" }, .cuda = "11.3", .driver = "465.19.01", .gpus = { "RTX 3080" } });
    SHOW(sm80);
    CHECK(sm80.verdict() == Verdict::warn);
    CHECK(problems(sm80) == Codes { "jax-driver-below-recommended" });
    CHECK(finding(sm80, "jax-driver-below-recommended")->message
        == "jaxlib 0.1.76 cuda11_cudnn82 needs driver >= 470.82.01 in JAX's guide; driver 465.19.01 may do only on "
           "GPUs "
           "its wheels carry kernels for (3.5, 5.2, 6.0, 7.0 and 8.0), as every GPU named is");
    // from the recommended driver on, nothing to say
    CHECK_FALSE(has_code(
        check({ .frameworks = { "jaxlib==0.1.74" }, .cuda = "11.3", .driver = "470.82.01", .gpus = { "RTX 3080" } }),
        "jax-driver-too-old"));
}

TEST_CASE("jaxlib 0.4.12's CUDA 12 wheel is the cudnn89 one, which needs cuDNN 8.9", "[resolve][jax]")
{
    // jax#16362: the cudnn88 wheel jax 0.4.12's extras asked for was never published (CHANGELOG 0.4.13)
    Report r = check({ .frameworks = { "jax[cuda12_local]==0.4.12" }, .cudnn = "8.8", .gpus = { "RTX A6000" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(
        finding(r, "cudnn-outside-framework-range")->message == "JAX's cuda12_pip build needs cuDNN 8.9-8.99, not 8.8");
    // 0.4.11's is still the cudnn88 wheel
    CHECK_FALSE(has_code(
        check({ .frameworks = { "jax[cuda12_local]==0.4.11" }, .cudnn = "8.8" }), "cudnn-outside-framework-range"));
}

TEST_CASE("jax 0.2.15's CUDA extras name jaxlib by a URL, which pip refuses from PyPI", "[resolve][jax]")
{
    // jax-ml/jax#7153: "This is a problem with the 0.2.15 release"; 0.2.14 and 0.2.16 install
    Report r = check({ .frameworks = { "jax[cuda101]==0.2.15" }, .python = "3.8" });
    SHOW(r);
    CHECK(problems(r) == Codes { "pip-extra-uninstallable" });
    CHECK(finding(r, "pip-extra-uninstallable")->message
        == "jax[cuda101]==0.2.15 cannot be installed: its extra names jaxlib by a URL (jaxlib @ "
           "https://storage.googleapis.com/jax-releases/...), which pip refuses for a package from PyPI (\"Packages "
           "installed from PyPI cannot depend on packages which are not also hosted on PyPI\")");
    CHECK(r.suggestions == std::vector<std::string> { "use jax[cuda101]==0.2.16, which installs" });
    CHECK(has_code(check({ .frameworks = { "jax[cuda111]==0.2.15" } }), "pip-extra-uninstallable"));
    for (const char* fine : { "jax[cuda101]==0.2.14", "jax[cuda101]==0.2.16", "jaxlib==0.1.67+cuda101" }) {
        CAPTURE(fine);
        CHECK_FALSE(has_code(check({ .frameworks = { fine } }), "pip-extra-uninstallable"));
    }
}

TEST_CASE(
    "jax 0.4.12's CUDA 12 extras ask for a jaxlib never published, and 0.4.13 names the right one", "[resolve][jax]")
{
    for (const auto* extra : { "cuda12_pip", "cuda12_local" }) {
        CAPTURE(extra);
        // cuDNN 8.9 named: the extra's unbounded cuDNN pin held below 9
        Report r = check({ .frameworks = { "jax[" + std::string(extra) + "]==0.4.12" }, .cudnn = "8.9" });
        CHECK(problems(r) == Codes { "pip-extra-uninstallable" });
        CHECK(finding(r, "pip-extra-uninstallable")->message
            == "jax[" + std::string(extra)
                + "]==0.4.12 cannot be installed: its extra asks for jaxlib==0.4.12+cuda12.cudnn88, a wheel never "
                  "published (jaxlib 0.4.12's CUDA 12 wheel is +cuda12.cudnn89)");
        CHECK(r.suggestions
            == std::vector<std::string> { "use jax[" + std::string(extra) + "]==0.4.13, which installs" });
    }
    // the wheel itself, pinned by its label, and the CUDA 11 extra install
    CHECK(problems(check({ .frameworks = { "jaxlib==0.4.12+cuda12.cudnn89" } })).empty());
    CHECK(problems(check({ .frameworks = { "jax[cuda11_pip]==0.4.12" } })).empty());
    CHECK(problems(check({ .frameworks = { "jax[cuda12_pip]==0.4.13" }, .cudnn = "8.9" })).empty());
}

TEST_CASE(
    "jax's cuda12_pip extras before 0.4.26 let pip install cuDNN 9, which their jaxlib cannot load", "[resolve][jax]")
{
    // setup.py to 0.4.25 pins nvidia-cudnn-cu12>=8.9.7.29 (or >=8.9); jax#20455: pip takes
    // nvidia-cudnn-cu12 9.0.0.312 for it; 0.4.26 bounds the pin <9.0
    Report r = check({ .frameworks = { "jax[cuda12_pip]==0.4.25" } });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "pip-extra-library-too-new" });
    CHECK(finding(r, "pip-extra-library-too-new")->message
        == "jax[cuda12_pip]==0.4.25 leaves the GPU unused: its extra pins nvidia-cudnn-cu12 with no upper bound, so "
           "pip installs cuDNN 9, which a jaxlib built with cuDNN 8.9 cannot load, and jax falls back to the CPU (pin "
           "nvidia-cudnn-cu12<9 beside it)");
    CHECK(suggests(r, "use jax 0.4.26 or newer, whose extra bounds the pin"));
    // the local extra loads the host's cuDNN, and a cuDNN 8 named is the pin held below 9
    CHECK(problems(check({ .frameworks = { "jax[cuda12_local]==0.4.25" } })).empty());
    CHECK(problems(check({ .frameworks = { "jax[cuda12_pip]==0.4.25" }, .cudnn = "8.9.7" })).empty());
    CHECK(check({ .frameworks = { "jax[cuda12]==0.4.26" } }).verdict() == Verdict::ok);
}

TEST_CASE("jax and jaxlib named together are one framework, whose CUDA build is jaxlib's", "[resolve][jax]")
{
    // jax#16063: jax 0.4.8 was released without a jaxlib 0.4.8; it runs on jaxlib 0.4.7
    Report pair = check({ .frameworks = { "jax==0.4.8", "jaxlib==0.4.7" } });
    SHOW(pair);
    CHECK(finding(pair, "framework-build")->message
        == "jaxlib==0.4.7 runs as jaxlib 0.4.7 cuda12_pip: CUDA 12.0, cuDNN 8.8");
    Error twice = error_of({ .frameworks = { "jax==0.3.16", "jax==0.3.17" } });
    CHECK(twice.message() == "one environment holds one jax: jax==0.3.16 and jax==0.3.17");
}

TEST_CASE("JAX before 0.4.8 needs a driver at least as new as the system CUDA toolkit's", "[resolve][jax]")
{
    // jax#11967: jax 0.3.16 on jaxlib 0.3.15 with CUDA 11.6 and driver 470: "no kernel image is
    // available" until CUDA was downgraded to 11.4
    Report r = check({ .frameworks = { "jax==0.3.16", "jaxlib==0.3.15" }, .cuda = "11.6", .driver = "470.141.03" });
    SHOW(r);
    CHECK(r.verdict() == Verdict::fail);
    CHECK(problems(r) == Codes { "driver-minor-version-compat", "jax-driver-below-toolkit" });
    CHECK(finding(r, "jax-driver-below-toolkit")->message
        == "jaxlib 0.3.15 cuda11_cudnn82 needs a driver at least as new as the CUDA 11.6 toolkit's, >= 510.39.01 "
           "(\"a strict requirement\" in JAX's guide: it JIT-compiles with that toolkit's ptxas); driver 470.141.03 "
           "runs CUDA 11.6 only under minor-version compatibility");
    CHECK(suggests(r, "upgrade the driver to >= 510.39.01, or use the CUDA toolkit the driver ships with"));
    CHECK_FALSE(suggests_containing(r, "cuda11_cudnn805")); // the toolkit is the system's, whichever build
    // jax#12213: jaxlib 0.3.15 on a Tesla T4 with driver 460.32.03 (CUDA 11.2) runs - as its
    // cuda11_cudnn805 build, not the default cuda11_cudnn82 (CUDA 11.4)
    Report older
        = check({ .frameworks = { "jax==0.3.17", "jaxlib==0.3.15" }, .driver = "460.32.03", .gpus = { "T4" } });
    SHOW(older);
    CHECK(has_code(older, "jax-driver-below-toolkit"));
    CHECK(suggests(older,
        "use jaxlib 0.3.15's cuda11_cudnn805 build, for CUDA 11.1 and later: driver 460.32.03 meets the CUDA 11.1 "
        "toolkit's (>= 455.23)"));
    // CUDA 11.4, the toolkit of R470, runs
    CHECK_FALSE(has_code(check({ .frameworks = { "jaxlib==0.3.15" }, .cuda = "11.4", .driver = "470.141.03" }),
        "jax-driver-below-toolkit"));
    // from 0.4.8 the CUDA comes from pip, and minor-version compatibility stays a warning
    CHECK_FALSE(has_code(check({ .frameworks = { "jax==0.4.30" }, .cuda = "12.4", .driver = "535.104.05" }),
        "jax-driver-below-toolkit"));
}

TEST_CASE("jax ships no free-threaded wheels in 0.4.34-0.4.38, 3.13t and 3.14t from 0.7.1, and drops 3.13t in 0.11.0",
    "[resolve][jax]")
{
    Report dropped = check({ .frameworks = { "jax==0.11.0" }, .python = "3.13t" });
    SHOW(dropped);
    CHECK(dropped.verdict() == Verdict::fail);
    CHECK(problems(dropped) == Codes { "python-free-threaded-unsupported" });
    CHECK(finding(dropped, "python-free-threaded-unsupported")->message
        == "jax 0.11.0 cuda13 ships no wheels for the free-threaded Python 3.13t (its free-threaded wheels: 3.14t)");
    CHECK_THAT(finding(dropped, "python-free-threaded-unsupported")->why,
        StartsWith("https://github.com/jax-ml/jax/blob/cec06d116c05f0d52adfceee3d3b730fdbcb0ce5/CHANGELOG.md"));

    Report experimental = check({ .frameworks = { "jax==0.10.2" }, .python = "3.13t" });
    CHECK(experimental.verdict() == Verdict::warn);
    CHECK(finding(experimental, "python-free-threaded")->message
        == "jax 0.10.2 cuda13 ships wheels for the free-threaded Python 3.13t, an experimental build in JAX's words "
           "(CPython supports its free-threaded build from 3.14)");

    for (const char* jax : { "jax==0.7.1", "jax==0.11.0" }) {
        Report supported = check({ .frameworks = { jax }, .python = "3.14t" });
        CAPTURE(jax);
        CHECK(supported.verdict() == Verdict::ok);
        CHECK(finding(supported, "python-free-threaded")->verdict == Verdict::ok);
    }

    // Linux had free-threaded builds before 0.7.1, from 0.5.1 (google/tensorstore#218, jax#27413)
    for (const char* jax : { "jax==0.5.1", "jax==0.5.3", "jax==0.6.0", "jax==0.7.0" }) {
        CAPTURE(jax);
        CHECK(problems(check({ .frameworks = { jax }, .python = "3.13t" })) == Codes { "python-free-threaded" });
    }
    CHECK(problems(check({ .frameworks = { "jax==0.5.0" }, .python = "3.13t" }))
        == Codes { "python-free-threaded-unsupported" });
    // 0.4.34 brought Python 3.13 wheels: "Free-threading mode is not yet supported"
    Report first = check({ .frameworks = { "jax==0.4.38" }, .python = "3.13t" });
    CHECK(problems(first) == Codes { "python-free-threaded-unsupported" });
    CHECK(finding(first, "python-free-threaded-unsupported")->message
        == "jax 0.4.38 cuda12 ships no wheels for the free-threaded Python 3.13t");
    CHECK(check({ .frameworks = { "jax==0.4.38" }, .python = "3.13" }).verdict() == Verdict::ok);
}

TEST_CASE("a jax release with a known problem warns and names the release that fixes it", "[resolve][jax]")
{
    // PyPI yanked 0.4.32 for a TPU-only bug; an exact pin still installs it
    Report yanked = check({ .frameworks = { "jax[cuda12]==0.4.32" } });
    SHOW(yanked);
    CHECK(yanked.verdict() == Verdict::warn);
    CHECK(problems(yanked) == Codes { "framework-known-issue" });
    CHECK(finding(yanked, "framework-known-issue")->message
        == "jax 0.4.32 cuda12 ships with a known bug: PyPI yanked it for a TPU-only data corruption bug, so pip "
           "installs it only when pinned exactly (fixed in 0.4.33)");
    CHECK(
        finding(yanked, "framework-known-issue")->why == "https://github.com/jax-ml/jax/blob/jax-v0.4.33/CHANGELOG.md");
    CHECK(suggests(yanked, "use jax 0.4.33 or newer, which fixes it"));
    // the releases beside it, and a line that stands for its newest release, are clean
    for (const char* clean : { "jax[cuda12]==0.4.31", "jax[cuda12]==0.4.33", "jax[cuda12]==0.4" })
        CHECK_FALSE(has_code(check({ .frameworks = { clean } }), "framework-known-issue"));
}

TEST_CASE("a jaxlib before 0.4.12 runs on Hopper after a long PTX JIT", "[resolve][jax]")
{
    // jaxlib 0.4.12's CHANGELOG: "Includes PTX/SASS for Hopper (SM version 9.0+) GPUs. Previous
    // versions of jaxlib should work on Hopper but would have a long JIT-compilation delay"
    Report old = check({ .frameworks = { "jaxlib==0.4.11+cuda11.cudnn86" }, .gpus = { "H100" } });
    SHOW(old);
    CHECK(old.verdict() == Verdict::warn);
    CHECK(problems(old) == Codes { "gpu-ptx-jit" });
    CHECK(finding(old, "gpu-ptx-jit")->message
        == "jaxlib 0.4.11 carries no sm_90 code: on H100 (sm_90) it runs on PTX the driver compiles, with a long "
           "delay the first time each operation runs (jaxlib 0.4.12 on carries it)");
    CHECK(suggests(old, "for H100 use jax >= 0.4.12, whose jaxlib carries sm_90 code"));
    CHECK_FALSE(has_code(check({ .frameworks = { "jax[cuda12_pip]==0.4.12" }, .gpus = { "H100" } }), "gpu-ptx-jit"));
    // an Ampere GPU is not Hopper's: its sm_80 SASS came with jaxlib 0.1.76
    CHECK_FALSE(
        has_code(check({ .frameworks = { "jaxlib==0.4.11+cuda11.cudnn86" }, .gpus = { "A100" } }), "gpu-ptx-jit"));
    Report ampere = check({ .frameworks = { "jaxlib==0.1.75+cuda11.cudnn82" }, .gpus = { "RTX 3090" } });
    CHECK(finding(ampere, "gpu-ptx-jit")->message
        == "jaxlib 0.1.75 carries no sm_80 code: on NVIDIA GeForce RTX 3090 (sm_86) it runs on PTX the driver "
           "compiles, "
           "with a long delay the first time each operation runs (jaxlib 0.1.76 on carries it)");
    CHECK_FALSE(
        has_code(check({ .frameworks = { "jaxlib==0.1.76+cuda11.cudnn82" }, .gpus = { "RTX 3090" } }), "gpu-ptx-jit"));
}
