#!/usr/bin/env bash
# Builds the image `quickstart` into STORE without the network: the base is a small root
# filesystem made from this machine's /bin/sh and cat, packed the way `docker save`
# writes an image; the profile adds app/hello.sh; dlenv adds the validation kit. The
# base archive and the lockfile are left beside STORE.
#   examples/quickstart/run.sh STORE      (DLENV=path/to/dlenv, default build/src/dlenv)
set -euo pipefail

store=$(realpath -m "${1:?usage: $0 STORE}") # the archive is written from another directory
here=$(cd "$(dirname "$0")" && pwd)
dlenv=${DLENV:-$here/../../build/src/dlenv}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A root filesystem: the programs and the shared libraries they load.
rootfs=$work/rootfs
mkdir -p "$rootfs/bin" "$rootfs/tmp"
for program in /bin/sh /bin/cat; do
  cp -L "$program" "$rootfs/bin/"
  for library in $(ldd "$program" | grep -o '/[^ ]*'); do
    mkdir -p "$rootfs$(dirname "$library")"
    cp -L "$library" "$rootfs$library"
  done
done

# The `docker save` format: manifest.json, the config named by its digest, one layer.tar.
(cd "$rootfs" && tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf "$work/layer.tar" -- *)
diff_id=$(sha256sum "$work/layer.tar" | cut -d' ' -f1)
mkdir -p "$work/archive/$diff_id"
mv "$work/layer.tar" "$work/archive/$diff_id/layer.tar"
printf '{"architecture":"amd64","os":"linux","config":{"Env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],"Cmd":["/app/hello.sh"]},"rootfs":{"type":"layers","diff_ids":["sha256:%s"]},"history":[{"created":"1970-01-01T00:00:00Z","created_by":"examples/quickstart/run.sh: /bin/sh and cat from the build machine"}]}' \
  "$diff_id" >"$work/config.json"
config=$(sha256sum "$work/config.json" | cut -d' ' -f1)
mv "$work/config.json" "$work/archive/$config.json"
printf '[{"Config":"%s.json","RepoTags":["quickstart-base:latest"],"Layers":["%s/layer.tar"]}]' \
  "$config" "$diff_id" >"$work/archive/manifest.json"
mkdir -p "$(dirname "$store")"
base=$(dirname "$store")/quickstart-base.tar
(cd "$work/archive" && tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf "$base" -- *)

# Lock the profile next to the store, build, and show the result.
lockfile=$(dirname "$store")/quickstart.lock.json
"$dlenv" lock "$here/quickstart.json" -o "$lockfile" --offline
"$dlenv" build "$lockfile" --store "$store" --base "docker-archive:$base"
"$dlenv" images --store "$store"
"$dlenv" fsck --store "$store"
