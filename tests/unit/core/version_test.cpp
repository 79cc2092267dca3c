#include "core/error.h"
#include "core/pep440.h"
#include "core/version.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using namespace dlenv;

namespace {

using Parts = std::vector<std::uint32_t>;

// Runs `parse` and returns the Error it throws; fails the test when it does not throw.
template <typename Parse> Error error_of(Parse parse)
{
    try {
        parse();
    } catch (const Error& e) {
        return e;
    }
    FAIL("expected an Error");
    throw;
}

// try_parse, recording a failed check (not aborting the test) when the text is refused.
std::optional<Pep440Version> pep(const std::string& text)
{
    auto v = Pep440Version::try_parse(text);
    INFO("parse " << text);
    CHECK(v.has_value());
    return v;
}

} // namespace

// --- CudaVersion -------------------------------------------------------------

TEST_CASE("a CUDA version has two or three numeric parts and keeps its text", "[core]")
{
    auto [text, parts] = GENERATE(table<std::string, Parts>({
        { "11.8", { 11, 8 } },
        { "12.2.2", { 12, 2, 2 } },
        { "10.2.89", { 10, 2, 89 } },
        { "13.0", { 13, 0 } },
    }));
    CAPTURE(text);
    auto v = CudaVersion::parse(text);
    CHECK(v.parts() == parts);
    CHECK(v.text() == text);
    CHECK(v.major() == parts[0]);
    CHECK(v.minor() == parts[1]);
    CHECK(CudaVersion::try_parse(text).has_value());
}

TEST_CASE("a malformed CUDA version is rejected, naming it and showing how to write one", "[core]")
{
    auto text
        = GENERATE(as<std::string> {}, "12", "12.a", "", "1.2.3.4", "12.", ".8", "12..2", "-12.1", "12.1 ", "v12.1");
    CAPTURE(text);
    CHECK_FALSE(CudaVersion::try_parse(text).has_value());
    Error e = error_of([&] { CudaVersion::parse(text); });
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message() == "'" + text + "' is not a CUDA version");
    CHECK(e.hint() == "write it as 11.8 or 12.2.2");
}

TEST_CASE("the error for CUDA '12' reads exactly", "[core]")
{
    Error e = error_of([] { CudaVersion::parse("12"); });
    CHECK(std::string(e.what()) == "'12' is not a CUDA version");
    CHECK(e.hint() == "write it as 11.8 or 12.2.2");
}

TEST_CASE("CUDA versions order numerically, missing parts counting as zero", "[core]")
{
    auto [lower, higher] = GENERATE(table<std::string, std::string>({
        { "11.8", "12.0" },
        { "12.1", "12.1.1" },
        { "12.2", "12.10" },
        { "9.2", "10.0" },
        { "12.2.2", "12.3" },
    }));
    CAPTURE(lower, higher);
    CHECK(CudaVersion::parse(lower) < CudaVersion::parse(higher));
    CHECK(CudaVersion::parse(higher) > CudaVersion::parse(lower));
    CHECK(CudaVersion::parse(lower) != CudaVersion::parse(higher));
}

TEST_CASE("CUDA 11.8 equals 11.8.0 but keeps the text it was written with", "[core]")
{
    auto a = CudaVersion::parse("11.8");
    auto b = CudaVersion::parse("11.8.0");
    CHECK(a == b);
    CHECK((a <=> b) == std::strong_ordering::equal);
    CHECK(a.text() == "11.8");
    CHECK(b.text() == "11.8.0");
}

// --- DriverVersion -----------------------------------------------------------

TEST_CASE("a driver version has two to four parts and keeps its leading zeros", "[core]")
{
    auto [text, parts] = GENERATE(table<std::string, Parts>({
        { "570.26", { 570, 26 } },
        { "525.60.13", { 525, 60, 13 } },
        { "450.80.02", { 450, 80, 2 } },
        { "535.104.05", { 535, 104, 5 } },
        { "1.2.3.4", { 1, 2, 3, 4 } },
    }));
    CAPTURE(text);
    auto v = DriverVersion::parse(text);
    CHECK(v.parts() == parts);
    CHECK(v.text() == text);
}

TEST_CASE("a malformed driver version is rejected with an example", "[core]")
{
    auto text = GENERATE(as<std::string> {}, "570", "", "1.2.3.4.5", "535.x", "535..05", "R535");
    CAPTURE(text);
    CHECK_FALSE(DriverVersion::try_parse(text).has_value());
    Error e = error_of([&] { DriverVersion::parse(text); });
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message() == "'" + text + "' is not a driver version");
    CHECK(e.hint() == "write it as 535.104.05");
}

TEST_CASE("driver versions compare part by part as numbers, not as text", "[core]")
{
    auto [lower, higher] = GENERATE(table<std::string, std::string>({
        { "450.80.02", "450.80.3" }, // 2 < 3: the leading zero is not a decimal point
        { "470.57.02", "525.60.13" },
        { "570.26", "570.124.06" }, // 26 < 124
        { "525.60.13", "525.85.12" },
        { "560.35.03", "570.26" },
        { "575.57.08", "580.65.06" },
    }));
    CAPTURE(lower, higher);
    CHECK(DriverVersion::parse(lower) < DriverVersion::parse(higher));
    CHECK_FALSE(DriverVersion::parse(higher) < DriverVersion::parse(lower));
}

TEST_CASE("driver 450.80.02 equals 450.80.2 though the texts differ", "[core]")
{
    auto a = DriverVersion::parse("450.80.02");
    auto b = DriverVersion::parse("450.80.2");
    CHECK(a == b);
    CHECK(a.text() == "450.80.02");
    CHECK(b.text() == "450.80.2");
}

// --- CudnnVersion ------------------------------------------------------------

TEST_CASE("a cuDNN version has one to four parts", "[core]")
{
    auto [text, parts] = GENERATE(table<std::string, Parts>({
        { "8", { 8 } },
        { "8.9", { 8, 9 } },
        { "8.9.2.26", { 8, 9, 2, 26 } },
        { "9.10.2.21", { 9, 10, 2, 21 } },
    }));
    CAPTURE(text);
    CHECK(CudnnVersion::parse(text).parts() == parts);

    auto bad = GENERATE(as<std::string> {}, "", "8.9.2.26.1", "8.x");
    CAPTURE(bad);
    Error e = error_of([&] { CudnnVersion::parse(bad); });
    CHECK(e.message() == "'" + bad + "' is not a cuDNN version");
    CHECK(e.hint() == "write it as 8.9 or 8.9.2.26");
}

TEST_CASE("a cuDNN version is a prefix of another when every part it has agrees", "[core]")
{
    auto [shorter, longer, prefix] = GENERATE(table<std::string, std::string, bool>({
        { "8.9", "8.9.2.26", true },
        { "8", "8.9.2.26", true },
        { "8.9.2.26", "8.9.2.26", true },
        { "8.9", "8.10", false },
        { "8.9", "8.10.0", false },
        { "8.9.2.26", "8.9", false }, // longer is never a prefix of shorter
        { "9.1", "9.10.2.21", false },
        { "8.9.2", "8.9.7.29", false },
    }));
    CAPTURE(shorter, longer);
    CHECK(CudnnVersion::parse(shorter).is_prefix_of(CudnnVersion::parse(longer)) == prefix);
}

TEST_CASE("cuDNN versions order numerically", "[core]")
{
    auto [lower, higher] = GENERATE(table<std::string, std::string>({
        { "8.9", "8.10" },
        { "8.9.2.26", "8.9.7.29" },
        { "8.9.7", "9.0" },
        { "9.1.0.70", "9.10.2.21" },
    }));
    CAPTURE(lower, higher);
    CHECK(CudnnVersion::parse(lower) < CudnnVersion::parse(higher));
}

// --- VersionRange ------------------------------------------------------------

TEST_CASE("a Python range up to 3.11 contains every 3.11.x, compared on the bound's parts", "[core]")
{
    PythonRange range { PythonVersion::parse("3.8"), PythonVersion::parse("3.11") };
    auto [version, inside] = GENERATE(table<std::string, bool>({
        { "3.8", true },
        { "3.8.0", true },
        { "3.10", true },
        { "3.11", true },
        { "3.11.8", true },
        { "3.12", false },
        { "3.12.0", false },
        { "3.7", false },
        { "3.7.17", false },
        { "2.7", false },
    }));
    CAPTURE(version);
    CHECK(range.contains(PythonVersion::parse(version)) == inside);
    CHECK(range.describe() == "3.8-3.11");
}

TEST_CASE("an open-ended range has no bound on that side and says so", "[core]")
{
    CudaRange from { CudaVersion::parse("12.1"), std::nullopt };
    CudaRange upto { std::nullopt, CudaVersion::parse("12.4") };
    CudaRange any {};
    CudaRange single { CudaVersion::parse("11.8"), CudaVersion::parse("11.8") };

    CHECK(from.contains(CudaVersion::parse("13.0")));
    CHECK_FALSE(from.contains(CudaVersion::parse("12.0")));
    CHECK(upto.contains(CudaVersion::parse("12.4.1")));
    CHECK(upto.contains(CudaVersion::parse("10.2")));
    CHECK_FALSE(upto.contains(CudaVersion::parse("12.5")));
    CHECK(any.contains(CudaVersion::parse("9.0")));
    CHECK(single.contains(CudaVersion::parse("11.8.0")));
    CHECK_FALSE(single.contains(CudaVersion::parse("11.7")));

    CHECK(from.describe() == ">=12.1");
    CHECK(upto.describe() == "<=12.4");
    CHECK(any.describe() == "any");
    CHECK(single.describe() == "11.8");
}

TEST_CASE("truncated keeps the leading parts and writes them without leading zeros", "[core]")
{
    CHECK(CudaVersion::parse("12.2.2").truncated(2).text() == "12.2");
    CHECK(CudaVersion::parse("12.2.2").truncated(2) == CudaVersion::parse("12.2"));
    CHECK(CudaVersion::parse("11.8").truncated(3).text() == "11.8");
    CHECK(DriverVersion::parse("450.80.02").truncated(3).text() == "450.80.2");
}

TEST_CASE("compare_truncated compares only as many parts as the bound has", "[core]")
{
    auto v = PythonVersion::parse("3.11.8");
    CHECK(v.compare_truncated(PythonVersion::parse("3.11")) == std::strong_ordering::equal);
    CHECK(v.compare_truncated(PythonVersion::parse("3.12")) == std::strong_ordering::less);
    CHECK(v.compare_truncated(PythonVersion::parse("3.11.7")) == std::strong_ordering::greater);
}

// --- ComputeCapability -------------------------------------------------------

TEST_CASE("a compute capability reads as X.Y or sm_XY, with an optional a/f suffix", "[core]")
{
    auto [text, major, minor, sm] = GENERATE(table<std::string, std::uint32_t, std::uint32_t, std::string>({
        { "8.9", 8, 9, "sm_89" },
        { "sm_89", 8, 9, "sm_89" },
        { "SM_86", 8, 6, "sm_86" },
        { "sm_90a", 9, 0, "sm_90" },
        { "sm_100f", 10, 0, "sm_100" },
        { "sm_120", 12, 0, "sm_120" },
        { "12.0", 12, 0, "sm_120" },
        { "3.7", 3, 7, "sm_37" },
    }));
    CAPTURE(text);
    auto cc = ComputeCapability::parse(text);
    CHECK(cc.major() == major);
    CHECK(cc.minor() == minor);
    CHECK(cc.sm_name() == sm);
    CHECK(cc.text() == std::to_string(major) + "." + std::to_string(minor));
}

TEST_CASE("a malformed compute capability is rejected with an example", "[core]")
{
    auto text = GENERATE(as<std::string> {}, "sm_", "sm_8", "89", "8.10", "", "0.5", "8.9.1", "sm_8x", "compute_89");
    CAPTURE(text);
    CHECK_FALSE(ComputeCapability::try_parse(text).has_value());
    Error e = error_of([&] { ComputeCapability::parse(text); });
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message() == "'" + text + "' is not a compute capability");
    CHECK(e.hint() == "write it as 8.9 or sm_89");
}

TEST_CASE("compute capabilities order by major, then minor", "[core]")
{
    CHECK(ComputeCapability::parse("8.6") < ComputeCapability::parse("8.9"));
    CHECK(ComputeCapability::parse("8.9") < ComputeCapability::parse("9.0"));
    CHECK(ComputeCapability::parse("9.0") < ComputeCapability::parse("sm_100"));
    CHECK(ComputeCapability::parse("sm_120") == ComputeCapability(12, 0));
}

// --- Pep440Version -----------------------------------------------------------

TEST_CASE("PEP 440 versions parse into parts and print in normal form", "[core]")
{
    struct Row {
        std::string text;
        std::string normal;
        std::string public_part;
        std::string local;
    };
    auto row = GENERATE(values<Row>({
        { "2.1.2+cu118", "2.1.2+cu118", "2.1.2", "cu118" },
        { "2.1.2", "2.1.2", "2.1.2", "" },
        { "1.0RC1", "1.0rc1", "1.0rc1", "" },
        { "1.0rc1", "1.0rc1", "1.0rc1", "" },
        { "1.0-rc.1", "1.0rc1", "1.0rc1", "" },
        { "1.0alpha2", "1.0a2", "1.0a2", "" },
        { "1.0b", "1.0b0", "1.0b0", "" },
        { "1.0-1", "1.0.post1", "1.0.post1", "" },
        { "1.0.post1", "1.0.post1", "1.0.post1", "" },
        { "1.0post2", "1.0.post2", "1.0.post2", "" },
        { "v1.0", "1.0", "1.0", "" },
        { "V1.0", "1.0", "1.0", "" },
        { "1.0.dev0", "1.0.dev0", "1.0.dev0", "" },
        { "1.0dev3", "1.0.dev3", "1.0.dev3", "" },
        { "1!2.0", "1!2.0", "1!2.0", "" },
        { "  2.0  ", "2.0", "2.0", "" },
        { "2.0+Ubuntu-1", "2.0+ubuntu.1", "2.0", "ubuntu.1" },
    }));
    CAPTURE(row.text);
    auto v = Pep440Version::try_parse(row.text);
    REQUIRE(v.has_value());
    CHECK(v->str() == row.normal);
    CHECK(v->public_str() == row.public_part);
    CHECK(v->local_str() == row.local);
}

TEST_CASE("a version's base is its release alone, without pre-, post-, dev- or local parts", "[core]")
{
    auto [text, base] = GENERATE(table<std::string, std::string>({
        { "2.1.2", "2.1.2" },
        { "2.6.0rc1", "2.6.0" },
        { "2.7.0.dev20250301+cu128", "2.7.0" },
        { "2.15.0.post1", "2.15.0" },
        { "1!2.0a1", "1!2.0" },
    }));
    CAPTURE(text);
    CHECK(Pep440Version::parse(text).base_str() == base);
}

TEST_CASE("2.1.2+cu118 has release 2.1.2 and the local label cu118", "[core]")
{
    auto v = Pep440Version::parse("2.1.2+cu118");
    CHECK(v.epoch() == 0);
    CHECK(v.release() == std::vector<std::uint64_t> { 2, 1, 2 });
    CHECK_FALSE(v.pre().has_value());
    CHECK_FALSE(v.post().has_value());
    CHECK_FALSE(v.dev().has_value());
    REQUIRE(v.local().size() == 1);
    CHECK(std::get<std::string>(v.local()[0]) == "cu118");
    CHECK_FALSE(v.is_prerelease());
    CHECK(v.without_local().str() == "2.1.2");
}

TEST_CASE("the parts of pre-, post-, dev-releases and epochs are read", "[core]")
{
    auto rc = Pep440Version::parse("1.0RC1");
    REQUIRE(rc.pre().has_value());
    CHECK(rc.pre()->kind == Pep440Version::PreKind::rc);
    CHECK(rc.pre()->number == 1);
    CHECK(rc.is_prerelease());

    auto post = Pep440Version::parse("1.0-1");
    CHECK(post.post() == std::optional<std::uint64_t>(1));
    CHECK_FALSE(post.is_prerelease());

    auto epoch = Pep440Version::parse("1!2.0");
    CHECK(epoch.epoch() == 1);
    CHECK(epoch.release() == std::vector<std::uint64_t> { 2, 0 });

    auto dev = Pep440Version::try_parse("1.0.dev0");
    REQUIRE(dev.has_value());
    CHECK(dev->dev() == std::optional<std::uint64_t>(0));
    CHECK(dev->is_prerelease());
}

TEST_CASE("PEP 440 versions order dev < pre < final < local < post", "[core]")
{
    // Each row sorts strictly before the next.
    std::vector<std::string> ascending = {
        "1.0.dev0",
        "1.0a1",
        "1.0a2",
        "1.0b1",
        "1.0rc1",
        "1.0",
        "1.0+local",
        "1.0.post1",
        "1.0.post2",
        "1.1",
    };
    for (std::size_t i = 0; i + 1 < ascending.size(); ++i) {
        CAPTURE(ascending[i], ascending[i + 1]);
        auto a = pep(ascending[i]);
        auto b = pep(ascending[i + 1]);
        if (a && b) {
            CHECK(*a < *b);
            CHECK(*b > *a);
        }
    }
}

TEST_CASE("PEP 440 release parts compare numerically, local labels sort after the public version", "[core]")
{
    auto [lower, higher] = GENERATE(table<std::string, std::string>({
        { "2.1.2", "2.1.2+cu118" },
        { "2.1.9", "2.1.10" },
        { "2.1.2+cu118", "2.1.2+cu121" },
        { "2.1.2+abc", "2.1.2+1" }, // numeric local segments sort after alphanumeric ones
        { "2.1.2+cu118", "2.1.3" },
        { "9.0", "1!0.1" }, // the epoch outranks the release
        { "1.0a1", "1.0a1.post1" },
        { "1.0a1.dev1", "1.0a1" },
    }));
    CAPTURE(lower, higher);
    auto a = Pep440Version::try_parse(lower);
    auto b = Pep440Version::try_parse(higher);
    REQUIRE(a.has_value());
    REQUIRE(b.has_value());
    CHECK(*a < *b);
}

TEST_CASE("PEP 440 versions that differ only in trailing zeros or spelling are equal", "[core]")
{
    auto [a, b] = GENERATE(table<std::string, std::string>({
        { "1.0", "1.0.0" },
        { "1.0RC1", "1.0rc1" },
        { "1.0-1", "1.0.post1" },
        { "v1.0", "1.0" },
        { "0!1.0", "1.0" },
        { "1.0alpha1", "1.0a1" },
    }));
    CAPTURE(a, b);
    auto x = Pep440Version::try_parse(a);
    auto y = Pep440Version::try_parse(b);
    REQUIRE(x.has_value());
    REQUIRE(y.has_value());
    CHECK(*x == *y);
}

TEST_CASE("text that is not a PEP 440 version is rejected with examples", "[core]")
{
    auto text = GENERATE(as<std::string> {}, "", "abc", "1.0+", "1..0", "1.0.", ".1", "1.0+cu 118", "1.0++a",
        "1.0 rc1x", "2.1.2+cu118.");
    CAPTURE(text);
    CHECK_FALSE(Pep440Version::try_parse(text).has_value());
    Error e = error_of([&] { Pep440Version::parse(text); });
    CHECK(e.code() == ErrorCode::invalid_input);
    CHECK(e.message() == "'" + text + "' is not a PEP 440 version");
    CHECK(e.hint() == "write it as 2.1.2, 2.1.2+cu118 or 2.2.0rc1");
}

TEST_CASE("PEP 440 numbers beyond 64 bits are rejected, not wrapped or thrown out of the parser", "[core]")
{
    auto text
        = GENERATE(as<std::string> {}, "18446744073709551616", "1.18446744073709551616", "1.0rc18446744073709551616",
            "1.0.post99999999999999999999", "2.1.2+c-210010000150015101090", "2.1.2+18446744073709551616");
    CAPTURE(text);
    CHECK_FALSE(Pep440Version::try_parse(text).has_value());
    Error e = error_of([&] { Pep440Version::parse(text); });
    CHECK(e.message() == "'" + text + "' is not a PEP 440 version");
}

TEST_CASE("PEP 440 numbers up to 2^64 - 1 are read exactly", "[core]")
{
    auto v = Pep440Version::parse("18446744073709551615!1.18446744073709551615+18446744073709551615");
    CHECK(v.epoch() == 18446744073709551615u);
    CHECK(v.release() == std::vector<std::uint64_t> { 1, 18446744073709551615u });
    CHECK(v.local_str() == "18446744073709551615");
}
