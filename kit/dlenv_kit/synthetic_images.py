"""A small ImageNet-shaped set of real JPEG files in torchvision's ImageFolder layout
(DIR/<class>/<image>.JPEG), written when the data directory is empty."""
import os
import random

CLASSES = 10


def write(directory, count, size, seed=0):
    """Writes `count` JPEG images of `size` x `size` pixels over CLASSES class folders:
    smooth colour fields with noise, so that they compress like photographs do."""
    from PIL import Image, ImageFilter

    rng = random.Random(seed)
    for index in range(count):
        label = index % CLASSES
        folder = os.path.join(directory, "n%08d" % label)
        if not os.path.isdir(folder):
            os.mkdir(folder)
        small = Image.new("RGB", (8, 8))
        small.putdata([tuple(rng.randrange(256) for _ in range(3)) for _ in range(64)])
        image = small.resize((size, size), Image.BILINEAR).filter(ImageFilter.GaussianBlur(2))
        image.save(os.path.join(folder, "synthetic_%06d.JPEG" % index), "JPEG", quality=90)


def class_folders(directory):
    """The class folders of an ImageFolder directory, sorted: its directories but the
    file system's lost+found and hidden ones (.snapshot, .Trash-0)."""
    return sorted(name for name in os.listdir(directory) if name != "lost+found" and not name.startswith(".")
                  and os.path.isdir(os.path.join(directory, name)))


def is_empty(directory):
    return not class_folders(directory)
