#pragma once

#include "sbom/subject.h"

#include <string>
#include <vector>

namespace dlenv::sbom {

enum class ItemKind {
    image, // the image itself
    base, // the image it descends from
    carried, // CUDA, cuDNN, NCCL, as the base says it carries them
    python, // a Python package the lock pins
    system, // a Debian package the lock pins
    layer, // a layer dlenv added
};

// One thing a bill of materials lists, as every format writes it.
struct Item {
    ItemKind kind;
    std::string ref; // unique in the bill, of A-Z a-z 0-9 . -: "Image", "PyPI-torch", "Deb-libstdc.2B.2B6"
    std::string name;
    std::string version;
    std::string purl; // "" when it has none
    std::string sha256; // lowercase hex; "" when it has none
    std::string download; // where it was fetched from; "" when not known
    std::string file_name; // "" when not known
    std::string supplier; // an organisation: "NVIDIA Corporation"; "" when not known
    std::string comment;
    std::string parent; // the ref of what holds it (the image, or its base); "" for the image
};

// What `subject` is made of, the image first: its base (by the digest the lock pinned, else
// by the manifest it was built on) and what the base carries by the lock's account, the
// Python packages and the system packages in the lock's order, the layers lowest first.
std::vector<Item> inventory(const Subject& subject);

} // namespace dlenv::sbom
