#!/usr/bin/env python3
"""Lists an artifact of another tool, or a forged dlenv report, among the referrers of an
image in a registry without the referrers API (the sha256-<hex> tag schema index).

    push_referrer.py REGISTRY REPOSITORY IMAGE_DIGEST MODE [REPORT_MANIFEST]

MODE other: a signature-like artifact (application/vnd.example.signature.v1+json) whose
subject is the image. MODE annotation / content: REPORT_MANIFEST (a dlenv report's
manifest) copied with its dev.dlenv.image.digest annotation, or the image its content
reports on, changed to another digest; MODE uuid: with its dev.dlenv.node.gpu-uuids
annotation naming another GPU (the UUID of tests/fixtures/nvidia_smi/l4-driver-555.xml).
Each replaces the dlenv reports the index lists.
Prints the pushed manifest's digest.
"""
import hashlib
import json
import sys
import urllib.request

INDEX = "application/vnd.oci.image.index.v1+json"
REPORT = "application/vnd.dlenv.verification.v1+json"
OTHER_IMAGE = "sha256:" + "2" * 64
OTHER_GPU = "GPU-c5533cd4-5a60-059e-348d-b6d7466932e4"


def request(url, data=None, method=None, headers=None):
    return urllib.request.urlopen(urllib.request.Request(url, data=data, method=method, headers=headers or {}))


def put_blob(base, registry, data):
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    location = request(base + "/blobs/uploads/", method="POST").headers["Location"]
    if not location.startswith("http"):
        location = f"http://{registry}{location}"
    separator = "&" if "?" in location else "?"
    request(f"{location}{separator}digest={digest}", data, "PUT", {"Content-Type": "application/octet-stream"})
    return {"digest": digest, "size": len(data)}


def main():
    registry, repository, image, mode = sys.argv[1:5]
    base = f"http://{registry}/v2/{repository}"
    if mode == "other":
        put_blob(base, registry, b"{}")
        subject = request(base + "/manifests/" + image, headers={"Accept": "application/vnd.oci.image.manifest.v1+json"})
        subject_bytes = subject.read()
        layer = put_blob(base, registry, b"signature")
        manifest = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
                    "artifactType": "application/vnd.example.signature.v1+json",
                    "config": {"mediaType": "application/vnd.oci.empty.v1+json",
                               "digest": "sha256:" + hashlib.sha256(b"{}").hexdigest(), "size": 2},
                    "layers": [dict(layer, mediaType="application/vnd.example.signature.v1+json")],
                    "subject": {"mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": image,
                                "size": len(subject_bytes)}}
    else:
        manifest = json.load(open(sys.argv[5]))
        content = json.loads(request(base + "/blobs/" + manifest["layers"][0]["digest"]).read())
        if mode == "annotation":
            manifest["annotations"]["dev.dlenv.image.digest"] = OTHER_IMAGE
        elif mode == "uuid":
            manifest["annotations"]["dev.dlenv.node.gpu-uuids"] = OTHER_GPU
        else:
            content["image"] = OTHER_IMAGE
        manifest["layers"][0].update(put_blob(base, registry, json.dumps(content).encode()))
    body = json.dumps(manifest).encode()
    digest = "sha256:" + hashlib.sha256(body).hexdigest()
    request(f"{base}/manifests/{digest}", body, "PUT", {"Content-Type": manifest["mediaType"]})

    url = f"{base}/manifests/sha256-{image.split(':')[1]}"
    index = json.load(request(url, headers={"Accept": INDEX}))
    if mode != "other":
        index["manifests"] = [m for m in index["manifests"] if m.get("artifactType") != REPORT]
    entry = {"mediaType": manifest["mediaType"], "digest": digest, "size": len(body),
             "artifactType": manifest["artifactType"]}
    if "annotations" in manifest:
        entry["annotations"] = manifest["annotations"]
    index["manifests"].append(entry)
    request(url, json.dumps(index).encode(), "PUT", {"Content-Type": INDEX})
    print(digest)


main()
