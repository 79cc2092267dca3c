#pragma once

#include "core/file.h"
#include "support/scratch.h"

#include <csignal>
#include <string>

namespace dlenv::testing {

// The reference registry (Debian's docker-registry), anonymous and plain HTTP, on a free
// port of 127.0.0.1 with its storage in a scratch directory, as the integration tests
// start it (tests/integration/registry_lib.sh). Stopped and removed with the object.
struct LocalRegistry {
    Scratch scratch;
    std::string host; // "127.0.0.1:PORT"
    ::pid_t pid = 0;

    LocalRegistry()
    {
        scratch.sh(
            R"sh(port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf '%s' "$port" >port
cat >config.yml <<YAML
version: 0.1
log:
  level: error
storage:
  filesystem:
    rootdirectory: $PWD/storage
http:
  addr: 127.0.0.1:$port
YAML
docker-registry serve config.yml >registry.log 2>&1 &
echo $! >pid
for _ in $(seq 100); do
  curl -s -o /dev/null "http://127.0.0.1:$port/v2/" && exit 0
  sleep 0.1
done
cat registry.log >&2
kill "$(cat pid)"
exit 1)sh");
        pid = std::stoi(read_file(scratch / "pid"));
        host = "127.0.0.1:" + read_file(scratch / "port");
    }
    ~LocalRegistry() { ::kill(pid, SIGKILL); }
    LocalRegistry(const LocalRegistry&) = delete;
    LocalRegistry& operator=(const LocalRegistry&) = delete;
};

} // namespace dlenv::testing
