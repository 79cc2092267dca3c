#pragma once

#include <functional>
#include <string_view>

namespace dlenv::oci {

// Where a stage of the layer pipeline hands its output. Called in stream order, on the
// thread that drives the stage; it may throw, and the stage then stops.
using ByteSink = std::function<void(std::string_view bytes)>;

// A stage that takes a byte stream in order and passes what it makes of it to a sink.
// `finish` flushes everything to the sink; nothing may be written after it. A stream
// destroyed without `finish` (an error on the way) drops what it holds.
class ByteStream {
public:
    virtual ~ByteStream() = default;
    virtual void write(std::string_view bytes) = 0;
    virtual void finish() = 0;
};

} // namespace dlenv::oci
