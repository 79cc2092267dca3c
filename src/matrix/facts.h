#pragma once

#include "core/pep440.h"
#include "core/version.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlenv {

// Two ranges are equal when both ends are: the rows below compare field by field.
template <typename Version> bool operator==(const VersionRange<Version>& a, const VersionRange<Version>& b)
{
    return a.min == b.min && a.max == b.max;
}

} // namespace dlenv

namespace dlenv::matrix {

enum class Confidence { confirmed, secondary, unconfirmed };
std::string_view to_string(Confidence confidence); // "confirmed", "secondary", "unconfirmed"

struct Source {
    std::string key;
    std::string title;
    std::string url;

    bool operator==(const Source&) const = default;
};

// A source as the rows that cite it share it: a matrix holds each of its sources once,
// however many rows cite it (about 3000 citations of 430 sources).
using SourceRef = std::shared_ptr<const Source>;

// Where a fact comes from and how sure we are of it.
struct Provenance {
    std::vector<SourceRef> sources;
    Confidence confidence = Confidence::confirmed;
    std::string note;

    bool unconfirmed() const { return confidence == Confidence::unconfirmed; }
    std::string cite() const; // URLs (or titles where there is no URL), " | "-joined
    std::string cite_with(const Provenance& other) const; // both facts' sources, each once

    // The same sources cited, wherever each is held.
    bool operator==(const Provenance& other) const;
};

struct CudaToolkit {
    CudaVersion version; // three parts: 12.2.2
    std::string name; // "12.2 Update 2"
    std::optional<DriverVersion> driver_linux;
    std::optional<DriverVersion> driver_windows;
    Provenance provenance;

    bool operator==(const CudaToolkit&) const = default;
};

// The oldest driver that runs any application of a CUDA major under minor-version compatibility.
struct MinorVersionFloor {
    std::uint32_t major;
    DriverVersion driver_linux;
    std::optional<DriverVersion> driver_windows;
    Provenance provenance;

    bool operator==(const MinorVersionFloor&) const = default;
};

enum class GpuSegment { datacenter, workstation, geforce, jetson };
std::string_view to_string(GpuSegment segment);

struct ForwardCompatibility {
    std::vector<GpuSegment> segments; // the GPUs the cuda-compat package works on
    Provenance provenance;

    bool operator==(const ForwardCompatibility&) const = default;
};

struct DriverBranch {
    std::uint32_t branch; // 535
    std::string designation;
    std::string end_of_life;
    std::optional<std::uint32_t> max_cuda_major;
    Provenance provenance;

    bool operator==(const DriverBranch&) const = default;
};

// The Linux driver releases of one driver branch (driver_releases.json), with the drivers the
// CUDA runfiles of that branch bundle (cuda.json) merged in, oldest first.
// The CUDA a driver branch reports (nvidia-smi's "CUDA Version": the newest its releases run),
// on record where the branch's first release reports it, so every release does.
struct ReportedCuda {
    CudaVersion cuda;
    Provenance provenance;

    bool operator==(const ReportedCuda&) const = default;
};

struct DriverReleases {
    std::uint32_t branch; // 535
    std::vector<DriverVersion> releases;
    // Every Linux release of the branch up to this one is listed; none: the list is partial.
    std::optional<DriverVersion> complete_through;
    Provenance provenance;
    // none: not on record
    std::optional<ReportedCuda> reports_cuda;

    // True when `driver` is listed.
    bool lists(const DriverVersion& driver) const;
    // True when the list says whether `driver` was released: it is complete up to or past it.
    bool knows(const DriverVersion& driver) const;
    // The releases nearest `driver`: those that share its first two parts, else the ones on
    // either side of it.
    std::vector<DriverVersion> nearest(const DriverVersion& driver) const;

    bool operator==(const DriverReleases&) const = default;
};

// The oldest and newest driver branches whose Linux releases the matrix lists.
struct DriverBranchSpan {
    std::uint32_t oldest;
    std::uint32_t newest;
};

// How NVIDIA numbers Windows drivers (driver_releases.json): a branch's Windows releases run
// from the branch's own number up to the next branch's (R570: 572.83, 573.48), so a Windows
// driver belongs to the newest branch at or below its number.
struct WindowsDriverNumbering {
    Provenance provenance;

    bool operator==(const WindowsDriverNumbering&) const = default;
};

// One NVIDIA_REQUIRE_CUDA value that NVIDIA's own nvidia/cuda images of a release carry,
// and where: the base Dockerfile sets it per architecture stage.
struct NvidiaRequireCuda {
    std::string value; // "cuda>=12.1 brand=tesla,driver>=470,driver<471 ..."
    std::vector<std::string> platforms; // "ubuntu22.04/amd64", "ubi8/ppc64le", ...
    Provenance provenance;

    bool operator==(const NvidiaRequireCuda&) const = default;
};

// The driver gate of NVIDIA's images of one CUDA release (nvidia_require_cuda.json).
struct NvidiaImageRelease {
    CudaVersion cuda; // three parts: 12.1.1
    std::vector<NvidiaRequireCuda> require_cuda;
    Provenance provenance;

    // The value the release's images for `architecture` ("amd64", "arm64") carry; null
    // when none of them is for it.
    const NvidiaRequireCuda* require_cuda_for(std::string_view architecture) const;

    bool operator==(const NvidiaImageRelease&) const = default;
};

// A shared library file of a CUDA component, as NVIDIA's packages install it.
struct LibraryFile {
    std::string soname; // "libcublas.so.12"
    std::string file; // the real file the soname links to: "libcublas.so.12.1.3.1"

    bool operator==(const LibraryFile&) const = default;
};

// The flavour of NVIDIA's images that first installs a component: the base flavour has
// cuda-cudart alone, runtime adds cuda-libraries-X-Y; later flavours hold both.
enum class ImageFlavour { base, runtime };

// One library component of a CUDA release, with its own version (cuBLAS 12.1.3.1 in CUDA
// 12.1.1): NVIDIA versions each component apart from the toolkit.
struct CudaLibrary {
    std::string component; // the redistributable's key: "libcublas"
    std::string name; // "CUDA cuBLAS"
    std::string version;
    ImageFlavour flavour;
    std::vector<LibraryFile> files;

    bool operator==(const CudaLibrary&) const = default;
};

// The library components of one CUDA release (cuda_components.json, derived from
// nvidia_images.json by scripts/derive_cuda_components.py).
struct CudaComponents {
    CudaVersion cuda; // three parts: 12.1.1
    std::vector<CudaLibrary> libraries;
    Provenance provenance;

    bool operator==(const CudaComponents&) const = default;
};

// What a Jetson architecture can run: its CUDA comes with JetPack, not with a driver, so
// the newest JetPack that supports it bounds the CUDA it runs.
struct JetsonSoftware {
    std::string newest_jetpack; // "4.6"
    CudaVersion cuda; // what that JetPack ships
    // The newest CUDA NVIDIA's upgrade packages (cuda-compat) bring to that JetPack; none: no
    // upgrade path (JetPack 4) or none beyond `cuda`.
    std::optional<CudaVersion> upgrade_cuda;
    // The first CUDA whose aarch64 wheels from PyPI and download.pytorch.org run there: the
    // CUDA of the JetPack that moved it to NVIDIA's server-Arm CUDA (Thor from JetPack 7.0,
    // Orin from 7.2). None: no upstream wheel does, and a framework needs NVIDIA's build for
    // JetPack.
    std::optional<CudaVersion> upstream_wheels_from;
    Provenance provenance;

    bool operator==(const JetsonSoftware&) const = default;
};

struct Architecture {
    ComputeCapability compute_capability;
    std::string name;
    CudaVersion min_cuda; // the first toolkit that can target it
    std::optional<CudaVersion> max_cuda; // the last one; none while still supported
    // The first toolkit whose release notes deprecate it (Kepler in 11.0; Maxwell, Pascal and
    // Volta in 12.8); none: not deprecated, or not on record.
    std::optional<CudaVersion> deprecated_from;
    std::optional<DriverVersion> min_driver_linux;
    // The last driver series that supports it (Volta: 580); none while supported or not known.
    std::optional<std::uint32_t> max_driver_branch;
    // The segments NVIDIA sells parts of it in (sm_80: data center only); none: not known.
    std::optional<std::vector<GpuSegment>> segments;
    Provenance provenance;
    std::optional<JetsonSoftware> jetson; // Jetson architectures only

    bool operator==(const Architecture&) const = default;
};

struct CudnnBuild {
    CudaRange cuda;
    std::optional<DriverVersion> driver_linux;
    std::vector<ComputeCapability> compute_capabilities; // empty: not known

    bool operator==(const CudnnBuild&) const = default;
};

// The shared libraries of a cuDNN major: the shim applications link (libcudnn.so.9) and
// the sub-libraries it loads with dlopen, which no DT_NEEDED names.
struct CudnnLibraries {
    std::uint32_t major;
    std::string shim;
    std::vector<std::string> loaded;
    Provenance provenance;

    bool operator==(const CudnnLibraries&) const = default;
};

// The CUDA NVIDIA's support matrix recommends a cuDNN release with on GPUs of some
// architectures ("Pascal/Maxwell with CUDA 11.8").
struct CudnnRecommendation {
    std::vector<std::string> architectures; // cuda.json architecture names: "Pascal"
    CudaRange cuda;

    bool operator==(const CudnnRecommendation&) const = default;
};

struct CudnnRelease {
    CudnnVersion version;
    std::vector<CudnnBuild> builds; // empty: not known
    // Architectures the release supports only as deprecated (its support matrix footnotes them).
    std::vector<std::string> deprecated_architectures;
    std::vector<CudnnRecommendation> recommended;
    Provenance provenance;

    bool operator==(const CudnnRelease&) const = default;
};

// The oldest GPU the cuDNN releases from `from` on carry code for, in every build they have:
// from 9.11 the CUDA 12 build drops compute capabilities below 7.5, and its CUDA 13 build
// never had them, while the CUDA 11 build ends at 9.10.
struct CudnnGpuFloor {
    CudnnVersion from; // 9.11.0
    ComputeCapability min; // 7.5
    CudnnVersion last_below; // 9.10.2: the newest release that still carries the older GPUs' code
    Provenance provenance;

    bool operator==(const CudnnGpuFloor&) const = default;
};

// The GPU code of a torch variant's wheels for one platform, built with a TORCH_CUDA_ARCH_LIST
// of their own: Windows' (2.7's cu128 from 5.0 where Linux x86_64's starts at 7.5; 6.1 listed
// where Linux relies on 6.0), Linux aarch64's (2.12's cu130 adds Thor's 11.0, and drops 7.5 and
// 8.6, which no Grace or Jetson part is).
struct PlatformGpuCode {
    std::vector<ComputeCapability> arch_list;
    std::vector<ComputeCapability> ptx; // empty: no PTX
    Provenance provenance;

    bool operator==(const PlatformGpuCode&) const = default;
};

// A bug the wheels of a torch build, or a jax release, ship with in given releases, fixed in a
// later one.
struct KnownIssue {
    std::vector<Pep440Version> versions; // the releases it hits
    // it hits a GPU of a compute capability above this one alone; none: whatever the GPU
    std::optional<ComputeCapability> above_capability;
    bool windows_only = false; // it hits the native Windows wheels alone
    bool fails = false; // the stack does not work (an error); else it runs with the bug (a warning)
    std::string detail; // what goes wrong, as a clause: "convolutions fail: ..."
    std::optional<Pep440Version> fixed_in; // none: no fix on record
    Provenance provenance;

    bool operator==(const KnownIssue&) const = default;
};

struct TorchVariant {
    std::string tag; // "cu118"
    CudaVersion cuda;
    std::optional<CudaVersion> cuda_full;
    bool experimental = false;
    bool pypi_default = false; // false also where it is not known
    // Its wheels carry no local label (the default builds of 1.3 to 1.6): no "+cu101" wheel
    // exists. False also where it is not known.
    bool unlabelled = false;
    std::optional<CudnnVersion> cudnn;
    std::optional<NcclVersion> nccl;
    std::optional<std::vector<ComputeCapability>> arch_list; // none: not known
    std::optional<std::vector<ComputeCapability>> ptx; // none: not known; empty: no PTX
    // none: not on record, and the platform is judged by the Linux x86_64 wheels' code
    std::optional<PlatformGpuCode> windows;
    std::optional<PlatformGpuCode> linux_aarch64;
    bool no_windows_wheels = false; // published for Linux alone (1.11.0's cu102); false also where not known
    std::vector<KnownIssue> known_issues; // empty: none on record
    Provenance provenance;

    bool operator==(const TorchVariant&) const = default;
};

// The CUDA a PyTorch variant tag names: "cu124" is 12.4 (the last digit is the minor);
// none for "cpu", "rocm6.2" and any other tag.
std::optional<CudaVersion> variant_cuda(std::string_view tag);

struct CompanionSet {
    Pep440Version torch;
    std::optional<Pep440Version> torchvision;
    std::optional<Pep440Version> torchaudio;
    // Its torchvision's wheels carry no local label (0.8.0's: the index lists "0.8.0" alone), so
    // no torchvision==0.8.0+cu110 exists. False also where it is not known.
    bool torchvision_unlabelled = false;
    Provenance provenance;

    bool operator==(const CompanionSet&) const = default;
};

struct TorchRelease {
    std::string line; // "2.1"
    std::vector<Pep440Version> versions; // oldest first
    PythonRange python;
    // Pythons beyond `python` the line supports experimentally (2.5: 3.13), per PyTorch's
    // release compatibility matrix.
    std::vector<PythonVersion> python_experimental;
    // Whether those experimental Pythons have wheels for Linux alone, none for Windows or macOS
    // (1.13's 3.11, 2.5's 3.13); not known: not on record.
    std::optional<bool> python_experimental_linux_only;
    // Whether torchvision and torchaudio of the line have wheels for those experimental Pythons
    // (2.5's 3.13 has torch wheels alone); not known: not on record.
    std::optional<bool> python_experimental_companions;
    // The Pythons whose free-threaded build ("3.13t") the line ships wheels for; empty: none;
    // not known: not on record.
    std::optional<std::vector<PythonVersion>> python_free_threaded;
    // Those of them PyTorch's compatibility matrix calls experimental (2.9: 3.14t, not 3.13t);
    // not known: all of them, as it said of every one until 2.9.
    std::optional<std::vector<PythonVersion>> python_free_threaded_experimental;
    // Whether those free-threaded wheels include Windows ones (2.6's 3.13t are Linux x86_64
    // only); not known: not on record.
    std::optional<bool> python_free_threaded_windows;
    // Pythons the line has wheels for but whose torch.compile raises there ("Dynamo is not
    // supported on Python 3.12+"): eager mode runs. Empty: none on record.
    std::vector<PythonVersion> python_without_compile;
    std::vector<TorchVariant> variants;
    std::vector<CompanionSet> companions;
    Provenance provenance;

    bool operator==(const TorchRelease&) const = default;
};

// torch's wheels for Linux aarch64 (the Grace hosts of GH200 and GB200): PyTorch's index
// carries CUDA builds from one release on, while PyPI's wheel stays the CPU build for a while.
struct TorchAarch64 {
    Pep440Version first_cuda_release; // download.pytorch.org's first aarch64 CUDA wheel
    Pep440Version pypi_cpu_only_through; // the last line whose PyPI aarch64 wheel is the CPU build
    Provenance provenance;

    bool operator==(const TorchAarch64&) const = default;
};

// From this torchaudio release on, torchaudio is built against PyTorch's stable ABI and runs
// with its own torch release and every later one, where older releases pair with one torch.
struct TorchaudioStableAbi {
    Pep440Version from; // 2.11
    Provenance provenance;

    bool operator==(const TorchaudioStableAbi&) const = default;
};

// The oldest GPU torch.compile's default backend compiles for, from the release that brought
// it: Inductor generates Triton kernels, and Triton supports compute capability 7.0 and newer,
// so below it torch.compile raises while eager mode runs.
struct TorchCompileGpuMinimum {
    Pep440Version from; // 2.0
    ComputeCapability min; // 7.0
    Provenance provenance;

    bool operator==(const TorchCompileGpuMinimum&) const = default;
};

// The oldest GPU TensorFlow's Linux pip wheels run on, for its lines through `through`, whose
// GPU code is not on record: below it TensorFlow ignores the GPU at start-up ("The minimum
// required Cuda capability is 3.5").
struct TensorflowGpuMinimum {
    Pep440Version through; // 2.0
    ComputeCapability min; // 3.5
    Provenance provenance;

    bool operator==(const TensorflowGpuMinimum&) const = default;
};

// The TensorFlow lines, through `none_through`, none of which ships wheels for a free-threaded
// CPython (cp313t).
struct TensorflowFreeThreaded {
    Pep440Version none_through; // 2.21
    Provenance provenance;

    bool operator==(const TensorflowFreeThreaded&) const = default;
};

// The torch releases whose start-up check (torch.cuda's capability check) warns of a GPU above
// the newest architecture its wheel was built for, though that major's cubins run it: GB10's 12.1
// on 12.0 code. 2.11 replaced the check with one that knows binary compatibility.
struct TorchCapabilityRangeWarning {
    Pep440Version from; // 2.9
    Pep440Version until; // 2.11: the first release without it
    Provenance provenance;

    bool operator==(const TorchCapabilityRangeWarning&) const = default;
};

// The nvidia-nccl-cuN versions a pip extra requires (an == pin is a range of one), with
// its own sources: they are read from the wheels, not from the tested configurations.
struct PipNccl {
    NcclRange versions;
    Provenance provenance;

    bool operator==(const PipNccl&) const = default;
};

// The GPU code a TensorFlow release's wheels carry (TF_CUDA_COMPUTE_CAPABILITIES of its
// release build): cubins for some architectures and PTX for the newest, with its own
// sources: they are read from the build configuration, not from the tested configurations.
struct TensorflowGpuCode {
    std::vector<ComputeCapability> cubins;
    std::vector<ComputeCapability> ptx;
    Provenance provenance;
    // Where on record: XLA hands the kernels its CUDA's ptxas cannot compile for a GPU to the
    // driver's compiler ("Your CUDA software stack is old"), so a GPU the wheels' cubins serve
    // runs, more slowly, though that CUDA cannot target it.
    std::optional<Provenance> driver_fallback;
    // Where on record: a GPU newer than its CUDA, with no cubin of its major, runs the wheels'
    // PTX once the driver has JIT-compiled it, after a start-up of minutes.
    std::optional<Provenance> driver_jit;

    bool operator==(const TensorflowGpuCode&) const = default;
};

// A known failure of a release's pip extra, with its own sources: pip cannot install it (a
// pin no index a user has serves), or it installs but the framework does not find the NVIDIA
// libraries it brought, so the GPU goes unused.
struct PipExtraIssue {
    // libraries_not_found: the framework does not look where the extra puts its libraries;
    // library_too_new: the extra lets pip install a library major the build cannot load
    enum class Kind { uninstallable, libraries_not_found, library_too_new };
    Kind kind;
    std::vector<Pep440Version> versions; // the releases it hits; empty: every release of the row
    std::optional<PythonVersion> python_from; // the oldest Python it hits; none: every one
    std::string extra; // the one extra it hits, where a build has a pip and a local one; empty: both
    std::string detail; // what goes wrong: "pins tensorrt-libs==8.6.1, which only pypi.nvidia.com publishes"
    std::optional<Pep440Version> fixed_in; // the release that drops it; none: none on record
    Provenance provenance;

    bool operator==(const PipExtraIssue&) const = default;
};

// "uninstallable", "libraries-not-found", "library-too-new"
std::string_view to_string(PipExtraIssue::Kind kind);

struct TensorflowRelease {
    std::string line;
    std::vector<Pep440Version> versions;
    PythonRange python;
    CudaVersion cuda;
    CudnnVersion cudnn;
    std::string pip_extra; // "and-cuda": the extra that brings CUDA from pip (2.14 on); "": none
    std::optional<PipNccl> nccl; // none: not on record
    std::optional<TensorflowGpuCode> gpu_code; // none: not on record
    std::vector<PipExtraIssue> pip_extra_issues; // of `pip_extra`
    Provenance provenance;

    bool operator==(const TensorflowRelease&) const = default;
};

// One CUDA build of JAX: the `jax[<extra>]` install, whose plugin brings CUDA, cuDNN and
// NCCL as NVIDIA's pip wheels (`jax[<local_extra>]` uses the system's instead).
struct JaxBuild {
    std::string extra; // "cuda12"
    std::string local_extra; // "cuda12_local" (before 0.6.0), "cuda12-local"
    // Whether `extra` brings CUDA as NVIDIA's pip wheels (from 0.4.7); before, every extra
    // loads the CUDA installed on the host.
    bool pip_cuda = false;
    std::string plugin; // "jax-cuda12-plugin"
    std::string pjrt; // "jax-cuda12-pjrt"; "" where the plugin carries its own PJRT (before 0.4.29)
    // Whether JAX's own wheel page serves its CUDA packages, not PyPI: every CUDA jaxlib
    // (plugin ""), and jax-cuda12-plugin before 0.4.26 ("plugin_wheel_page" in jax.json).
    bool wheel_page = false;
    CudaRange cuda;
    CudnnRange cudnn;
    NcclRange nccl;
    std::optional<DriverVersion> driver_linux;
    std::optional<ComputeCapability> min_compute_capability;
    // The architectures its wheels carry kernels for, where JAX's guide names them: a GPU
    // among them may run on a driver below driver_linux. None: not on record.
    std::optional<std::vector<ComputeCapability>> cubins;
    // Runs only on a driver at least as new as the system CUDA toolkit's, not under
    // minor-version compatibility: JAX's guide calls it a strict requirement (JIT compiling).
    bool toolkit_driver_required = false;
    // The cuDNN `extra` pins from pip where that floor is above the build's own (jax[cuda11_pip]
    // 0.4.11-0.4.25 pin nvidia-cudnn-cu11>=8.8 for a wheel built with 8.6); none: the build's.
    std::optional<CudnnVersion> pip_cudnn_min;
    std::vector<PipExtraIssue> pip_extra_issues; // of `extra` and `local_extra`

    bool operator==(const JaxBuild&) const = default;
};

// What a JAX release does on a Blackwell GPU (compute capability 10.0 and newer). XLA
// compiles its kernels at run time for the GPU it finds; one that does not know the GPU
// compiles for the newest architecture it knows as arch-conditional PTX (sm_90a), which
// ptxas cannot compile for a newer GPU. The release's XLA decides, not jaxlib's cubins.
struct JaxBlackwell {
    std::vector<ComputeCapability> runs_on; // the Blackwell architectures it is known to run on
    std::vector<ComputeCapability> fails_on; // those it is known to fail on
    bool others_fail = false; // all but runs_on fail; false: whether the others run is not on record
    Provenance provenance;

    bool operator==(const JaxBlackwell&) const = default;
};

// Another name a release's setup.py gives the extra of one of its builds: jax[cuda] installs
// what jax[cuda11_local] does before 0.4.26 and jax[cuda12] from 0.4.30; jax[cuda12_pip] is
// jax[cuda12]'s deprecated alias in 0.4.30-0.5.3.
struct JaxExtraAlias {
    std::string name; // "cuda"
    std::string means; // the build extra it installs the same as: "cuda12", "cuda11_local"
    bool deprecated = false; // setup.py calls it deprecated
    Provenance provenance;

    bool operator==(const JaxExtraAlias&) const = default;
};

// Releases of JAX that share their requirements; a line may have several rows (0.4.30 needs
// cuDNN 9.0, 0.4.31 9.1), newest first.
struct JaxRelease {
    std::string line; // "0.4"
    std::vector<Pep440Version> versions;
    // Before 0.4 jax and jaxlib were numbered apart, and a row holds jaxlib's releases (line
    // 0.1: jaxlib 0.1.74) with the jax releases whose jax[cuda] installs one of them; empty:
    // no jax release does (before jax 0.2.11 jaxlib was installed by its own name). Not
    // known: `versions` are both.
    std::optional<std::vector<Pep440Version>> jax_versions;
    PythonRange python;
    // The Pythons whose free-threaded build ("3.13t") the row's releases ship wheels for;
    // empty: none; not known: not on record.
    std::optional<std::vector<PythonVersion>> python_free_threaded;
    std::vector<JaxBuild> builds; // the default build first
    std::vector<JaxExtraAlias> extra_aliases;
    std::optional<JaxBlackwell> blackwell; // none: not on record
    std::vector<KnownIssue> known_issues; // empty: none on record
    Provenance provenance;

    // Its builds' own extras, each build's pip one and local one, as setup.py spells them.
    std::vector<std::string> build_extras() const;

    bool operator==(const JaxRelease&) const = default;
};

// A jax release and the jaxlib release a table pairs it with.
struct JaxJaxlibPair {
    Pep440Version jax;
    Pep440Version jaxlib;

    bool operator==(const JaxJaxlibPair&) const = default;
};

// The oldest jaxlib each jax release imports (jax/version.py's _minimum_jaxlib_version): jax
// refuses an older one at import.
struct MinimumJaxlib {
    std::vector<JaxJaxlibPair> rows; // from each row's jax release on, to the next row; oldest first
    Provenance provenance;

    // The oldest jaxlib `jax` imports; none: the release is older than every row.
    std::optional<Pep440Version> for_jax(const Pep440Version& jax) const;

    bool operator==(const MinimumJaxlib&) const = default;
};

// The jax releases published without a jaxlib of their number (patch releases of jax alone,
// 0.4.37 and 0.5.2), each with the jaxlib its extras install (setup.py's
// _current_jaxlib_version at the release's tag).
struct JaxAloneReleases {
    std::vector<JaxJaxlibPair> rows; // oldest first
    Provenance provenance;

    // The row of `jax`; none: jaxlib has a release of its number.
    const JaxJaxlibPair* find(const Pep440Version& jax) const;

    bool operator==(const JaxAloneReleases&) const = default;
};

// Where a framework's CUDA builds run on Windows (the "windows" block of its file): on native
// Windows in no release, or up to one, and from which index; under WSL 2, supported or
// experimental.
struct WindowsGpuSupport {
    bool native_gpu = false;
    std::optional<Pep440Version> native_gpu_through; // the last release with it; none: every release
    // PyPI's Windows wheel is the CPU build: the CUDA builds come from the framework's own index
    bool pypi_cpu_only = false;
    std::optional<bool> wsl2_experimental; // none: not on record
    // A package the pip CUDA extra requires that publishes Linux wheels alone, so the extra does
    // not install on native Windows ("nvidia-nccl-cu12"); empty: none on record.
    std::string pip_extra_linux_only;
    // the first release with wheels for native Windows, CPU builds where `native_gpu` is false
    // (jaxlib 0.4.13); none: every release
    std::optional<Pep440Version> cpu_wheels_from;
    bool cpu_experimental = false; // the framework calls its Windows CPU wheels experimental
    // Whether it publishes wheels for a free-threaded Python on native Windows (jax: none);
    // none: not on record here (torch's lines say it per line).
    std::optional<bool> free_threaded_wheels;
    Provenance provenance;

    bool operator==(const WindowsGpuSupport&) const = default;
};

// Whether a framework's macOS builds carry CUDA (the "macos" block of its file): NVIDIA's CUDA
// ended its macOS support with 10.2, and the frameworks' macOS wheels are CPU (or Metal) builds.
struct MacosGpuSupport {
    std::optional<Pep440Version> cuda_through; // the last release whose macOS build had CUDA; none: no release
    Provenance provenance;

    bool operator==(const MacosGpuSupport&) const = default;
};

// JAX's `cpu` extra (the "cpu_extra" block of jax.json): jaxlib alone, the CPU-only build.
struct JaxCpuExtra {
    Pep440Version from; // the first release whose setup.py has it
    Provenance provenance;

    bool operator==(const JaxCpuExtra&) const = default;
};

// An architecture whose code jaxlib carries from a release on (the "native_code" rows of
// jax.json); older jaxlibs run there on PTX the driver compiles at first use.
struct JaxNativeCode {
    ComputeCapability capability; // 9.0: the GPUs of its major from it on
    Pep440Version from; // the first jaxlib release that carries it
    Provenance provenance;

    bool operator==(const JaxNativeCode&) const = default;
};

// Dense tensor-core peaks (no 2:4 sparsity, FP32 accumulation) in TFLOPS, each with
// where it comes from; nullopt where the model has no such tensor path (V100: no BF16).
struct TensorPeak {
    std::optional<double> fp16;
    std::optional<double> bf16;
    Provenance provenance;

    bool operator==(const TensorPeak&) const = default;
};

struct Gpu {
    std::string name;
    std::vector<std::string> aliases;
    std::string family; // the product family of a model sold in variants ("A100"), else ""
    ComputeCapability compute_capability;
    std::string architecture;
    GpuSegment segment;
    std::optional<double> memory_gb;
    std::string memory_type;
    std::optional<double> bandwidth_gb_s;
    std::optional<TensorPeak> tensor_tflops; // none: no sourced peak for this model
    Provenance provenance;
    bool host_aarch64 = false; // sold only with NVIDIA's Arm CPU (Grace): its host is Linux aarch64

    bool operator==(const Gpu&) const = default;
};

// One python-build-standalone install_only archive: a .tar.gz whose one top directory
// python/ holds CPython's own install tree (bin/, lib/, include/, share/).
struct PythonRuntimeArchive {
    std::string url;
    std::string sha256; // lowercase hex, as the release's SHA256SUMS publishes it

    bool operator==(const PythonRuntimeArchive&) const = default;
};

// The python-build-standalone build of one CPython minor that dlenv installs into bases
// without a Python (python_runtimes.json): the newest release of that minor.
struct PythonRuntimeBuild {
    PythonVersion python; // the full CPython version: 3.10.19
    std::string release; // python-build-standalone's release tag: "20251031"
    std::map<std::string, PythonRuntimeArchive> archives; // by machine: "x86_64", "aarch64"
    Provenance provenance;

    bool operator==(const PythonRuntimeBuild&) const = default;
};

} // namespace dlenv::matrix
