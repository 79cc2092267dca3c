"""The acceptance kit's arithmetic, which a machine without GPUs cannot run for real: the
DDP scaling efficiency (N GPUs against one) and the fractions of a Measurement over
batches as the DataLoader hands them over (images, labels, read s, decode s, bytes)."""
import support  # noqa: F401 (puts the kit on sys.path)

from dlenv_kit.acceptance import Measurement, scaling_efficiency


class Column(object):
    """A batch's column as torch gives it: .sum() and, for the images, .shape."""

    def __init__(self, values):
        self.values = values
        self.shape = (len(values),)

    def sum(self):
        return sum(self.values)


def batch(size, read, decode, nbytes):
    return [Column([0] * size), Column([0] * size), Column([read] * size), Column([decode] * size),
            Column([nbytes] * size)]


support.expect_eq("8 GPUs at 7.2 times one GPU's throughput scale at 0.9", scaling_efficiency(7200.0, 1000.0, 8), 0.9)
support.expect_eq("two GPUs at twice one GPU's scale at 1.0", scaling_efficiency(2000.0, 1000.0, 2), 1.0)
support.expect_eq("no single-GPU figure gives 0, not a division by zero", scaling_efficiency(100.0, 0.0, 2), 0.0)

measured = Measurement()
measured.add(0.5, 2.0, batch(128, 0.01, 0.002, 110000))
measured.add(0.1, 2.0, batch(128, 0.01, 0.002, 110000))
support.expect_eq("256 images in two steps of 2 s: 64 images/s", measured.images_per_second(), 64.0)
support.expect_eq("0.6 s of 4 s waiting for data", measured.wait_fraction(), 0.15)
support.expect_eq("the workers' read time summed over the images", round(measured.read_seconds, 9), 2.56)
support.expect_eq("and their bytes", measured.bytes, 256 * 110000)
support.expect_eq("an empty measurement has no rate", Measurement().images_per_second(), 0.0)
