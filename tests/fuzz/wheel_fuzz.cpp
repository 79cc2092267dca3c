// A wheel file (a zip) installed into an image tree as `dlenv build` installs the
// lock's packages: the zip's central directory, the dist-info directory, METADATA,
// WHEEL, RECORD and entry_points.txt, then a check that nothing outside the tree
// changed. The file is named as a wheel of demo-pkg 1.0 for any Python.
#include "fuzz_input.h"
#include "pypi/installer.h"
#include "pypi/metadata.h"
#include "sandbox.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace dlenv;
    static const fuzz::Sandbox sandbox;
    static const std::filesystem::path wheel = sandbox.work() / "demo_pkg-1.0-py3-none-any.whl";
    static const pypi::InstallScheme scheme
        = pypi::InstallScheme::for_prefix("usr/local", PythonVersion::parse("3.11"));
    fuzz::write_bytes(wheel, fuzz::text_of(data, size));
    fuzz::expect_only_error([&] { pypi::read_wheel_metadata(wheel); });
    fuzz::expect_only_error([&] { pypi::install_wheel(wheel, scheme, sandbox.root()); });
    sandbox.check();
    sandbox.reset();
    return 0;
}
