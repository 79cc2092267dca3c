#!/usr/bin/env python3
"""Writes profiles/compat/cuda_components.json from nvidia_images.json.

The matrix loads the small derived table at start-up, not the whole image model: per CUDA
release, each library component of NVIDIA's runtime images with its own version, its
sonames and its real file names, and the flavour that first installs it. With --check it
writes nothing and exits 1 when the committed table differs from what it would write.
"""
import json
import pathlib
import sys

COMPAT = pathlib.Path(__file__).resolve().parent.parent / "profiles" / "compat"
# cuda-cudart-X-Y is what the base flavour installs; cuda-libraries-X-Y (runtime) the rest.
BASE_COMPONENTS = {"cuda_cudart"}


def derive(images):
    used = set()
    releases = []
    for image in images["images"]:
        components = image.get("components") or {}
        libraries = []
        for library in components.get("libraries", []):
            if not library.get("files"):
                continue
            libraries.append({
                "component": library["redist_key"],
                "name": library["component"],
                "version": library["version"],
                "flavour": "base" if library["redist_key"] in BASE_COMPONENTS else "runtime",
                "files": library["files"],
            })
        if not libraries:
            continue
        sources = components["source"] + images["soname_rule"]["source"]
        used.update(sources)
        releases.append({
            "cuda": image["cuda"],
            "libraries": libraries,
            "source": sources,
            "confidence": components["confidence"],
            "note": "versions: " + components["confidence"] + "; files: " + images["soname_rule"]["confidence"]
            + " (" + images["soname_rule"]["rule"] + ")",
        })
    return {
        "format": "dlenv.compat/v1",
        "sources": {key: images["sources"][key] for key in sorted(used)},
        "releases": releases,
    }


def main():
    images = json.loads((COMPAT / "nvidia_images.json").read_text())
    text = json.dumps(derive(images), indent=2, ensure_ascii=False) + "\n"
    target = COMPAT / "cuda_components.json"
    if sys.argv[1:] == ["--check"]:
        if target.read_text() != text:
            print(f"{target}: differs from what {sys.argv[0]} derives from nvidia_images.json; run it to rewrite",
                  file=sys.stderr)
            return 1
        return 0
    target.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
