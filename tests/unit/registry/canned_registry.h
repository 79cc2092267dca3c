#pragma once

#include "core/file.h"
#include "registry/session.h"
#include "support/scratch.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>

// canned_registry.py on 127.0.0.1: answers each "METHOD /path" as `answers` says, so a
// test can make a registry say exactly what it wants, lies included, and see what it was asked.
struct CannedRegistry {
    Scratch scratch;
    std::string host; // "127.0.0.1:PORT"
    ::pid_t pid = 0;

    explicit CannedRegistry(const nlohmann::json& answers)
    {
        dlenv::write_file_atomic(scratch / "answers.json", answers.dump());
        scratch.sh("python3 '" + std::string(DLENV_SOURCE_DIR)
            + "/tests/unit/registry/canned_registry.py' answers.json port requests >/dev/null 2>&1 & echo $! >pid");
        pid = std::stoi(dlenv::read_file(scratch / "pid"));
        for (int i = 0; i < 500 && !std::filesystem::exists(scratch / "port"); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        host = "127.0.0.1:" + dlenv::read_file(scratch / "port");
    }
    // "METHOD PATH" lines, one per request so far.
    std::string requests() const
    {
        return std::filesystem::exists(scratch / "requests") ? dlenv::read_file(scratch / "requests") : "";
    }

    ~CannedRegistry() { ::kill(pid, SIGTERM); }
    CannedRegistry(const CannedRegistry&) = delete;
    CannedRegistry& operator=(const CannedRegistry&) = delete;

    // A session that talks plain HTTP to it anonymously, retrying once at most.
    dlenv::registry::Session session() const
    {
        dlenv::registry::RegistryOptions options;
        options.insecure = true;
        options.retry = { 2, std::chrono::milliseconds(0), std::chrono::milliseconds(0) };
        return dlenv::registry::Session(host, host, options, std::nullopt);
    }
};
