#include "core/error.h"
#include "core/json_reader.h"

#include <catch2/catch.hpp>

using namespace dlenv;

namespace {

// The message and hint parse_document refuses `text` with.
std::string refusal(const std::string& text)
{
    try {
        JsonReader::parse_document("x.json", text);
    } catch (const Error& e) {
        CHECK(e.code() == ErrorCode::invalid_input);
        return std::string(e.what()) + " | " + e.hint();
    }
    return "accepted";
}

std::string nested(std::size_t depth)
{
    return std::string(depth, '[') + std::string(depth, ']');
}

} // namespace

TEST_CASE("a document nested deeper than 64 levels is refused naming the file and the depth", "[core]")
{
    const std::string too_deep = "x.json: arrays and objects nest deeper than 64 levels | dlenv reads JSON nested at "
                                 "most 64 levels deep; this is not a file it wrote or expects";
    CHECK(refusal(std::string(100000, '[')) == too_deep);
    CHECK(refusal(nested(65)) == too_deep);
    std::string mixed;
    for (int i = 0; i < 33; ++i)
        mixed += R"([{"a": )";
    CHECK(refusal(mixed) == too_deep);
    CHECK(refusal(nested(64)) == "accepted");
    CHECK(JsonReader::parse_document_or_null(std::string(100000, '[')).is_null());
}

TEST_CASE("a number too large for a double or a syntax error is refused naming the file, in a short message", "[core]")
{
    CHECK(refusal(R"({"stack": {"cuda": 1e400}})")
        == "x.json: not valid JSON: number overflow parsing '1e400' | dlenv reads numbers that fit in a double");
    CHECK(refusal("{\n  \"a\": tru\n}")
        == "x.json:2:11: not valid JSON: syntax error while parsing value - invalid "
           "literal; last read: '\"a\": tru<U+000A>' | fix the syntax at that position");
    CHECK(refusal("\"" + std::string(1000, 's') + "\x01\"")
        == "x.json:1:1002: not valid JSON: syntax error while parsing value - invalid string: control character "
           "U+0001 (SOH) must be escaped to \\u0001; last read: '\""
            + std::string(35, 's') + "... | fix the syntax at that position");
}

TEST_CASE("a value of the wrong type is named by its type and a short excerpt, never whole", "[core]")
{
    nlohmann::json document = JsonReader::parse_document(
        "x.json", R"({"list": [[1, 2, 3]], "map": {"a": 1, "b": 2}, "long": ")" + std::string(1000, 'x') + R"("})");
    JsonReader doc("x.json", document);
    CHECK_THROWS_WITH(doc.at("list").string(), "x.json: list: expected a string, got an array (1 items)");
    CHECK_THROWS_WITH(doc.at("map").items(), "x.json: map: expected an array, got an object (2 fields)");
    CHECK_THROWS_WITH(
        doc.at("long").number(), "x.json: long: expected a number, got \"" + std::string(36, 'x') + "... (string)");
}
