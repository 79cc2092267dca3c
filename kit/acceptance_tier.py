"""dlenv verify's acceptance tier, run in the container with the GPUs injected (or on the
CPU where there are none):
    python3 /opt/dlenv/kit/acceptance_tier.py --data-dir DIR [--lock PATH] [options]
A standard training job: a torchvision model (ResNet-50 by default) with AMP on CUDA, a
torch DataLoader reading the JPEG files of the ImageFolder set in DIR (a synthetic set is
written there when DIR is empty), each step's wait for data timed and, on GPUs, their
utilisation sampled through NVML every 100 ms; with several GPUs, DDP over NCCL against
one GPU. Prints one JSON object (the kit contract) and exits 0, whatever it found."""
import os
import sys

sys.dont_write_bytecode = True  # the image's kit directory may be read-only
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dlenv_kit import acceptance  # noqa: E402
from dlenv_kit.report import run_tier  # noqa: E402


def add_arguments(parser):
    parser.add_argument("--data-dir", required=True, help="an ImageFolder directory of JPEG files, or an empty one")
    parser.add_argument("--model", default="resnet50", help="a torchvision.models constructor (default %(default)s)")
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--image-size", type=int, default=224, help="the crop the model trains on")
    parser.add_argument("--num-workers", type=int, default=8)
    parser.add_argument("--prefetch-factor", type=int, default=2)
    parser.add_argument("--steps", type=int, default=50, help="measured steps, after the warm-up")
    parser.add_argument("--warmup", type=int, default=5, help="steps left out of the figures")
    parser.add_argument("--synthetic-images", type=int, default=1280, help="images written into an empty data dir")
    parser.add_argument("--synthetic-size", type=int, default=256, help="their width and height")
    parser.add_argument("--limit", type=int, default=1800, help="seconds the training job may take")


if __name__ == "__main__":
    run_tier("acceptance", acceptance.run, ["acceptance-data", "acceptance-train", "utilization-sampling", "ddp-scaling"],
             add_arguments)
