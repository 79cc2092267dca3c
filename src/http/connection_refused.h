#pragma once

#include "core/error.h"

namespace dlenv::http {

// The Error(network) a request throws when no connection could be made (libcurl's
// CURLE_COULDNT_CONNECT): nothing listens at the host and port, so the host answered
// with RST, or the host cannot be reached. A server that answered before may be
// restarting; one that never has is most likely not there at all.
class ConnectionRefused : public Error {
public:
    using Error::Error;
};

} // namespace dlenv::http
