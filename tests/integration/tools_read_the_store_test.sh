#!/usr/bin/env bash
# Tools no one here wrote read what dlenv builds: skopeo inspects and copies the store,
# umoci unpacks the image with the files, owners and modes the lock asks for.
source "$(dirname "$0")/lib.sh"

store=$scratch/store/.dlenv
build_quickstart "$store"
digest=$(image_digest "$store" quickstart latest)

inspected=$(skopeo inspect --raw "oci:$store:quickstart:latest" | sha256sum | cut -d' ' -f1)
expect_eq "skopeo reads the manifest dlenv tagged" "sha256:$inspected" "$digest"
expect_eq "skopeo sees the lock's CUDA label" \
  "$(skopeo inspect "oci:$store:quickstart:latest" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Labels"]["dev.dlenv.cuda"])')" "11.8.0"

skopeo copy --quiet --preserve-digests "oci:$store:quickstart:latest" "oci:$scratch/copy:quickstart"
copied=$(skopeo inspect --raw "oci:$scratch/copy:quickstart" | sha256sum | cut -d' ' -f1)
expect_eq "skopeo copy keeps the digest" "sha256:$copied" "$digest"

umoci unpack --image "$store:quickstart:latest" "$scratch/bundle" >/dev/null
rootfs=$scratch/bundle/rootfs
expect_eq "app file owner and mode" "$(stat -c '%u:%g %a' "$rootfs/app/hello.sh")" "0:0 755"
expect_eq "app file mtime is the lock's epoch" "$(stat -c '%Y' "$rootfs/app/hello.sh")" "1700000000"
expect_eq "kit owner and mode" "$(stat -c '%u:%g %a' "$rootfs/opt/dlenv/dlenv.lock.json")" "0:0 644"
expect_eq "the kit holds the lock" "$(cmp -s "$rootfs/opt/dlenv/dlenv.lock.json" "$scratch/store/quickstart.lock.json" && echo same)" "same"
expect_eq "kit scripts' owner and mode" "$(stat -c '%u:%g %a' "$rootfs/opt/dlenv/kit/gpu_tier.py" "$rootfs/opt/dlenv/kit/dlenv_kit/cuda.py")" $'0:0 644\n0:0 644'
expect_eq "kit directories' mode" "$(stat -c '%a' "$rootfs/opt/dlenv/kit" "$rootfs/opt/dlenv/kit/dlenv_kit")" $'755\n755'
expect_eq "the kit holds kit/'s scripts" "$(diff -r -x '*.md' -x __pycache__ "$source_dir/kit" "$rootfs/opt/dlenv/kit" && echo same)" "same"
expect_eq "the unpacked gpu tier reads the image's lock and reports, the driver first" \
  "$(python3 "$rootfs/opt/dlenv/kit/gpu_tier.py" --lock "$rootfs/opt/dlenv/dlenv.lock.json" |
     python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["kit"], d["tier"], d["findings"][0]["code"])')" "1 gpu cuda-driver"
expect_eq "the base's shell is there" "$(stat -c '%a' "$rootfs/bin/sh")" "755"
expect_eq "the image's config runs the app" \
  "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["process"]["args"][0])' "$scratch/bundle/config.json")" "/app/hello.sh"

"$dlenv" build "$scratch/store/quickstart.lock.json" --store "$store" \
  --base "docker-archive:$scratch/store/quickstart-base.tar" --archive "$scratch/quickstart.tar" >/dev/null
archived=$(skopeo inspect "docker-archive:$scratch/quickstart.tar")
expect_eq "skopeo reads the docker archive's layers" \
  "$(python3 -c 'import json,sys; print(len(json.load(sys.stdin)["Layers"]))' <<<"$archived")" "3"
expect_eq "skopeo reads the docker archive's labels" \
  "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["Labels"]["dev.dlenv.framework"])' <<<"$archived")" "torch 2.1.2+cu118"
expect_eq "the archive's manifest.json tags the image" \
  "$(tar -xOf "$scratch/quickstart.tar" manifest.json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["RepoTags"])')" "['quickstart:latest']"
