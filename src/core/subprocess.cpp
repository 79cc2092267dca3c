#include "core/subprocess.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace dlenv {
namespace {

// Runs argv with `stdin_fd` (when not -1) as its standard input and collects its output.
std::optional<ProcessResult> spawn(const std::vector<std::string>& argv, int stdin_fd)
{
    if (argv.empty())
        return std::nullopt;
    int out_pipe[2];
    int exec_pipe[2]; // closed on exec; carries errno when exec fails
    if (::pipe2(out_pipe, O_CLOEXEC) != 0)
        return std::nullopt;
    if (::pipe2(exec_pipe, O_CLOEXEC) != 0) {
        ::close(out_pipe[0]);
        ::close(out_pipe[1]);
        return std::nullopt;
    }
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);

    pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(out_pipe[1], STDOUT_FILENO);
        if (stdin_fd != -1)
            ::dup2(stdin_fd, STDIN_FILENO);
        ::execvp(args[0], args.data());
        int err = errno;
        (void)!::write(exec_pipe[1], &err, sizeof err);
        ::_exit(127);
    }
    ::close(out_pipe[1]);
    ::close(exec_pipe[1]);
    if (pid < 0) {
        ::close(out_pipe[0]);
        ::close(exec_pipe[0]);
        return std::nullopt;
    }

    ProcessResult result;
    char buffer[4096];
    for (ssize_t n; (n = ::read(out_pipe[0], buffer, sizeof buffer)) != 0;) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        result.out.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(out_pipe[0]);
    int exec_errno = 0;
    bool exec_failed = ::read(exec_pipe[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno;
    ::close(exec_pipe[0]);

    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    if (exec_failed)
        return std::nullopt;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return result;
}

} // namespace

std::optional<ProcessResult> run_process(const std::vector<std::string>& argv)
{
    return spawn(argv, -1);
}

std::optional<ProcessResult> run_process(const std::vector<std::string>& argv, std::string_view input)
{
    if (input.size() > k_max_process_input)
        return std::nullopt;
    int in_pipe[2];
    if (::pipe2(in_pipe, O_CLOEXEC) != 0)
        return std::nullopt;
    // An empty pipe holds far more than k_max_process_input, so this write never blocks.
    bool written = ::write(in_pipe[1], input.data(), input.size()) == static_cast<ssize_t>(input.size());
    ::close(in_pipe[1]);
    std::optional<ProcessResult> result = written ? spawn(argv, in_pipe[0]) : std::nullopt;
    ::close(in_pipe[0]);
    return result;
}

} // namespace dlenv
