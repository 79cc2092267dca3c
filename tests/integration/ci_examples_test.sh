#!/usr/bin/env bash
# The pipelines of examples/ci run as written: every dlenv command of every job, in job
# order, on a copy of the repository, with REGISTRY pointing at the reference registry
# (HTTPS with its own certificate, Basic authentication from the secret the files name).
# The jobs without a GPU pass and push the image under the commit's SHA; the GPU job
# builds the same digest and stops where this machine has no GPU, with exit 3.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/registry_lib.sh"

registry_tls_dir=$scratch/tls
mkdir -p "$registry_tls_dir"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" \
  -keyout "$registry_tls_dir/key.pem" -out "$registry_tls_dir/cert.pem" 2>/dev/null
password=Ci-Secret-0
htpasswd -Bbn ci "$password" >"$scratch/htpasswd"
start_registry "$scratch/registry" "$(printf 'auth:\n  htpasswd:\n    realm: dlenv-ci\n    path: %s' "$scratch/htpasswd")"
unset DLENV_REGISTRY_AUTH DLENV_STORE
export DOCKER_CONFIG=$scratch/no-docker-config SSL_CERT_FILE=$registry_tls_dir/cert.pem
sha=0123456789abcdef0123456789abcdef01234567
# The pipelines send a lock to /dev/null: here it goes to a private device of the same
# numbers, so that no mistake can touch the machine's own.
null=$scratch/null
mknod -m 666 "$null" c 1 3 || { echo "skipped: needs root to make a device node"; exit 77; }

# Writes one script per job of FILE (github or gitlab), in the order the jobs run, into DIR,
# and prints their names. Steps that only check out are left out; the set-up step
# (`bash scripts/setup.sh quickstart`, which builds dlenv and then runs the quickstart)
# runs only its quickstart part, since the binary under test is already built.
job_scripts() { # job_scripts FILE KIND DIR
  python3 - "$@" "$registry_port" "$password" "$sha" "$null" <<'PY'
import os, shlex, sys, yaml
path, kind, out, port, password, sha, null = sys.argv[1:]
pipeline = yaml.safe_load(open(path))
registry = f"127.0.0.1:{port}/ml"
secrets = {"${{ secrets.REGISTRY_AUTH }}": f"ci:{password}"}
setup = "bash scripts/setup.sh quickstart"
def commands_of(lines):
    for line in lines:
        yield ('DLENV="$PWD/build/src/dlenv" bash examples/quickstart/run.sh build/quickstart/.dlenv'
               if line.strip() == setup else line.replace("/dev/null", null))
jobs = []
if kind == "github":
    env = dict(pipeline.get("env", {}))
    done = set()
    while len(done) < len(pipeline["jobs"]):
        for name, job in pipeline["jobs"].items():
            needs = job.get("needs", [])
            needs = [needs] if isinstance(needs, str) else needs
            if name in done or not set(needs) <= done:
                continue
            job_env = {**env, **job.get("env", {}), "GITHUB_SHA": sha}
            lines = [step["run"] for step in job["steps"] if "run" in step]
            jobs.append((name, job_env, lines))
            done.add(name)
else:
    env = dict(pipeline.get("variables", {}))
    for stage in pipeline["stages"]:
        for name, job in pipeline.items():
            if isinstance(job, dict) and job.get("stage") == stage:
                jobs.append((name, {**env, "CI_COMMIT_SHA": sha, "DLENV_REGISTRY_AUTH": f"ci:{password}"}, job["script"]))
for name, job_env, lines in jobs:
    job_env["REGISTRY"] = registry
    with open(os.path.join(out, name + ".sh"), "w") as script:
        script.write("set -euo pipefail\n")
        for key, value in job_env.items():
            script.write(f"export {key}={shlex.quote(secrets.get(str(value), str(value)))}\n")
        script.write("\n".join(commands_of(lines)) + "\n")
    print(name)
PY
}

# A fresh copy of what a clone holds, with the binary under test where the set-up puts it.
fresh_repo() { # fresh_repo DIR
  rm -rf "$1"
  mkdir -p "$1/build/src"
  cp -r "$source_dir"/{examples,lockfiles,profiles,scripts,templates} "$1/"
  ln -s "$dlenv" "$1/build/src/dlenv"
}

for example in github-actions:github gitlab-ci:gitlab; do
  file=$source_dir/examples/ci/${example%%:*}.yml
  kind=${example#*:}
  jobs=$scratch/jobs-$kind
  mkdir -p "$jobs"
  for job in $(job_scripts "$file" "$kind" "$jobs"); do
    fresh_repo "$scratch/repo"
    set +e
    (cd "$scratch/repo" && bash "$jobs/$job.sh") >"$scratch/out" 2>"$scratch/err"
    rc=$?
    set -e
    case $job in
      gpu | environment-gpu)
        expect_eq "$kind $job: stops where there is no GPU, exit 3" "$rc" 3
        expect_eq "$kind $job: says why" "$(tail -1 "$scratch/err")" \
          "dlenv: the gpu tier was not run: no NVIDIA driver or GPU on this machine; run this tier on a GPU machine (\`--tier static\` works without one)"
        expect_eq "$kind $job: builds the digest the image job pushed" \
          "$(image_digest "$scratch/repo/build/quickstart/.dlenv" quickstart latest)" "$pushed"
        ;;
      *)
        [[ $rc == 0 ]] || { cat "$scratch/out" "$scratch/err"; fail "$kind $job exited $rc"; }
        echo "ok: $kind $job passes"
        if grep -q " push " "$jobs/$job.sh"; then
          pushed=$(image_digest "$scratch/repo/build/quickstart/.dlenv" quickstart latest)
          expect_eq "$kind $job: the registry holds the image under the commit's SHA" \
            "$(skopeo inspect --raw --tls-verify=false --creds "ci:$password" "docker://127.0.0.1:$registry_port/ml/quickstart:$sha" | sha256sum | cut -d' ' -f1)" \
            "${pushed#sha256:}"
        fi
        ;;
    esac
  done
done
expect_eq "the private /dev/null is still a character device" "$(stat -c %F "$null")" "character special file"
