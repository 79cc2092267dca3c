#pragma once

#include "core/file.h"
#include "pypi/simple_index.h"
#include "support/scratch.h"

#include <chrono>
#include <csignal>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

// A wheel set of make_wheels.py in a wheelhouse (wheels/), the same wheels laid out as
// a simple API by make_index.py (root/), served by serve_index.py on 127.0.0.1 in
// `mode`: "" for http.server's own handler, "json", or "ranges"; the last two log each
// file request to requests().
struct IndexServer {
    Scratch scratch;
    std::string url; // "http://127.0.0.1:PORT/"
    ::pid_t pid = 0;

    explicit IndexServer(const std::string& mode, const std::string& set = "resolve")
    {
        const std::string fixtures = std::string(DLENV_SOURCE_DIR) + "/tests/fixtures/wheels/";
        scratch.sh("python3 '" + fixtures + "make_wheels.py' wheels " + set + "\n" + "python3 '" + fixtures
            + "make_index.py' wheels root\n" + "python3 '" + fixtures + "serve_index.py' root port '" + mode
            + "' requests >/dev/null 2>&1 & echo $! >pid");
        pid = std::stoi(dlenv::read_file(scratch / "pid"));
        for (int i = 0; i < 500 && !std::filesystem::exists(scratch / "port"); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        url = "http://127.0.0.1:" + dlenv::read_file(scratch / "port") + "/";
    }
    ~IndexServer() { ::kill(pid, SIGTERM); }

    std::shared_ptr<dlenv::pypi::SimpleIndex> index() const
    {
        return std::make_shared<dlenv::pypi::SimpleIndex>(
            url + "simple", dlenv::http::ClientOptions {}, dlenv::http::RetryPolicy { 1 });
    }

    // "PATH RANGE STATUS BYTES" lines, one per file request so far.
    std::string requests() const
    {
        return std::filesystem::exists(scratch / "requests") ? dlenv::read_file(scratch / "requests") : "";
    }
};
