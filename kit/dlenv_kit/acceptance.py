"""The acceptance run: a standard training job (a torchvision model, AMP on CUDA, a
torch DataLoader reading the JPEG files of an ImageFolder directory) that times each
step's wait for data and, on GPUs, samples their utilisation through NVML. It reports
raw figures; the host holds them to its thresholds."""
import io
import os
import time

from . import nvml, synthetic_images
from .report import Failed, Skipped

TRANSFORM_MEAN = [0.485, 0.456, 0.406]  # ImageNet's, as torchvision's references normalise
TRANSFORM_STD = [0.229, 0.224, 0.225]


class TimedFolder(object):
    """The samples of an ImageFolder, each read and decoded with its own timing: item i
    is (image tensor, label, seconds reading the file, seconds decoding and transforming
    it, bytes read)."""

    def __init__(self, samples, transform):
        self.samples = samples
        self.transform = transform

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, index):
        from PIL import Image

        path, label = self.samples[index]
        start = time.perf_counter()
        with open(path, "rb") as f:
            data = f.read()
        read = time.perf_counter()
        image = self.transform(Image.open(io.BytesIO(data)).convert("RGB"))
        return image, label, read - start, time.perf_counter() - read, len(data)


class Measurement(object):
    """The measured steps of one run (warm-up steps left out)."""

    def __init__(self):
        self.steps = 0
        self.images = 0
        self.wait_seconds = 0.0  # waiting for the DataLoader's next batch
        self.step_seconds = 0.0  # the wait and the training step together
        self.read_seconds = 0.0  # in the workers, reading files
        self.decode_seconds = 0.0  # in the workers, decoding and transforming
        self.bytes = 0

    def add(self, wait, step, batch):
        self.steps += 1
        self.images += int(batch[0].shape[0])
        self.wait_seconds += wait
        self.step_seconds += step
        self.read_seconds += float(batch[2].sum())
        self.decode_seconds += float(batch[3].sum())
        self.bytes += int(batch[4].sum())

    def images_per_second(self):
        return self.images / self.step_seconds if self.step_seconds > 0 else 0.0

    def wait_fraction(self):
        return self.wait_seconds / self.step_seconds if self.step_seconds > 0 else 0.0


def scaling_efficiency(parallel_images_per_second, single_images_per_second, world):
    """Data-parallel scaling: what N GPUs together reach over N times what one reaches."""
    if single_images_per_second <= 0 or world < 1:
        return 0.0
    return parallel_images_per_second / (world * single_images_per_second)


def prepare_data(arguments):
    """Writes the synthetic set into an empty data directory; says which data is used."""
    directory = arguments.data_dir
    if not os.path.isdir(directory):
        raise Failed("the data directory %s is not in the container" % directory)
    if not synthetic_images.is_empty(directory):
        return "reading the ImageFolder set in %s" % directory
    start = time.perf_counter()
    synthetic_images.write(directory, arguments.synthetic_images, arguments.synthetic_size)
    return "wrote %d synthetic %dx%d JPEG images in %d ImageFolder classes to %s in %.1f s" % (
        arguments.synthetic_images, arguments.synthetic_size, arguments.synthetic_size, synthetic_images.CLASSES,
        directory, time.perf_counter() - start)


def make_loader(torch, arguments, sampler_of=None):
    """The DataLoader over the ImageFolder set (its samples through TimedFolder) and the
    number of classes; `sampler_of(dataset)` gives a DDP rank its sampler."""
    from torchvision import transforms

    from torchvision.datasets import folder

    classes = synthetic_images.class_folders(arguments.data_dir)
    samples = folder.make_dataset(arguments.data_dir, dict((name, index) for index, name in enumerate(classes)),
                                  extensions=folder.IMG_EXTENSIONS)
    transform = transforms.Compose([
        transforms.RandomResizedCrop(arguments.image_size), transforms.RandomHorizontalFlip(),
        transforms.ToTensor(), transforms.Normalize(TRANSFORM_MEAN, TRANSFORM_STD)])
    dataset = TimedFolder(samples, transform)
    sampler = sampler_of(dataset) if sampler_of else None
    options = {"batch_size": arguments.batch_size, "num_workers": arguments.num_workers, "drop_last": True,
               "pin_memory": torch.cuda.is_available(), "shuffle": sampler is None, "sampler": sampler}
    if arguments.num_workers > 0:
        options.update(prefetch_factor=arguments.prefetch_factor, persistent_workers=True)
    loader = torch.utils.data.DataLoader(dataset, **options)
    if len(loader) == 0:
        raise Failed("the data directory %s holds %d images, fewer than one batch of %d"
                     % (arguments.data_dir, len(samples), arguments.batch_size))
    return loader, len(classes)


def batches(loader):
    """The loader's batches, epoch after epoch."""
    while True:
        for batch in loader:
            yield batch


def train(torch, torchvision, arguments, device, loader, classes, model_wrapper=None):
    """Runs warm-up and measured steps on `device`; returns the Measurement."""
    constructor = getattr(torchvision.models, arguments.model, None)
    if not callable(constructor):
        raise Failed("torchvision %s has no model %r: name one of torchvision.models as "
                     "\"model\" in the profile's validation.acceptance" % (torchvision.__version__, arguments.model))
    model = constructor(num_classes=classes).to(device)
    if model_wrapper:
        model = model_wrapper(model)
    amp = device.type == "cuda"
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scaler = torch.cuda.amp.GradScaler(enabled=amp)
    criterion = torch.nn.CrossEntropyLoss()
    measured = Measurement()
    source = batches(loader)
    for step in range(arguments.warmup + arguments.steps):
        start = time.perf_counter()
        batch = next(source)
        waited = time.perf_counter() - start
        images = batch[0].to(device, non_blocking=True)
        labels = batch[1].to(device, non_blocking=True)
        with torch.autocast(device_type=device.type, enabled=amp):
            loss = criterion(model(images), labels)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        if amp:
            torch.cuda.synchronize(device)
        if step >= arguments.warmup:
            measured.add(waited, time.perf_counter() - start, batch)
    return measured


def describe(torch, index):
    properties = torch.cuda.get_device_properties(index)
    return {"index": index, "name": properties.name, "compute_capability": "%d.%d" % (properties.major,
            properties.minor), "multiprocessors": properties.multi_processor_count,
            "memory_bytes": properties.total_memory}


def report_figures(report, measured, arguments):
    report.figure("images_per_second", None, measured.images_per_second(), "images/s")
    report.figure("data_wait_fraction", None, measured.wait_fraction(), "fraction")
    report.figure("step_seconds", None, measured.step_seconds / measured.steps, "s")
    report.figure("data_wait_seconds", None, measured.wait_seconds / measured.steps, "s")
    megabytes = measured.bytes / 1e6
    report.figure("read_megabytes_per_second", None, megabytes / measured.read_seconds if measured.read_seconds else 0,
                  "MB/s")
    report.figure("read_milliseconds_per_image", None, 1000 * measured.read_seconds / measured.images, "ms")
    report.figure("decode_milliseconds_per_image", None, 1000 * measured.decode_seconds / measured.images, "ms")
    report.figure("num_workers", None, arguments.num_workers, "workers")
    report.figure("batch_size", None, arguments.batch_size, "images")
    report.figure("cpu_cores", None, len(os.sched_getaffinity(0)), "cores")


def ddp_worker(rank, world, port, arguments, results):
    """One rank of the data-parallel run, in a spawned process: puts (rank, images/s, error)."""
    try:
        import torch
        import torch.distributed as dist
        import torchvision

        torch.cuda.set_device(rank)
        dist.init_process_group("nccl", init_method="tcp://127.0.0.1:%d" % port, rank=rank, world_size=world)
        loader, classes = make_loader(torch, arguments, torch.utils.data.distributed.DistributedSampler)
        device = torch.device("cuda", rank)
        measured = train(torch, torchvision, arguments, device, loader, classes,
                         lambda model: torch.nn.parallel.DistributedDataParallel(model, device_ids=[rank]))
        dist.destroy_process_group()
        results.put((rank, measured.images_per_second(), None))
    except Exception as e:
        results.put((rank, None, "%s: %s" % (type(e).__name__, e)))


def measure_scaling(arguments, world, single, report):
    """DDP over NCCL on `world` GPUs against the single-GPU run."""
    import multiprocessing

    from .framework import free_port

    spawn = multiprocessing.get_context("spawn")
    results = spawn.Queue()
    port = free_port()
    processes = [spawn.Process(target=ddp_worker, args=(rank, world, port, arguments, results))
                 for rank in range(world)]
    for process in processes:
        process.start()
    answers = [results.get() for _ in range(world)]
    for process in processes:
        process.join()
    errors = sorted((rank, error) for rank, _, error in answers if error)
    if errors:
        raise Failed("DDP over NCCL on %d GPUs failed: %s; run with NCCL_DEBUG=INFO for the cause"
                     % (world, "; ".join("rank %d: %s" % e for e in errors)))
    parallel = sum(value for _, value, _ in answers)
    efficiency = scaling_efficiency(parallel, single, world)
    report.figure("ddp_images_per_second", None, parallel, "images/s")
    report.figure("ddp_scaling_efficiency", None, efficiency, "fraction")
    return "DDP over NCCL on %d GPUs: %.1f images/s against %.1f on one GPU, scaling efficiency %.3f" % (
        world, parallel, single, efficiency)


def run_single(torch, torchvision, arguments, report, state):
    cuda = torch.cuda.is_available()
    device = torch.device("cuda", 0) if cuda else torch.device("cpu")
    loader, classes = make_loader(torch, arguments)
    sampler = None
    if cuda:
        report.devices.extend(describe(torch, index) for index in range(torch.cuda.device_count()))
        try:
            sampler = nvml.Sampler(nvml.Nvml(), [0])
        except nvml.NvmlMissing as e:
            state["nvml"] = str(e)
        if sampler:
            sampler.start()
    measured = train(torch, torchvision, arguments, device, loader, classes)
    if sampler:
        sampler.stop()
        report.figure("utilization", 0, sampler.mean(0), "fraction")
    report_figures(report, measured, arguments)
    state["images_per_second"] = measured.images_per_second()
    state["cuda"] = cuda
    return "trained %s for %d steps (after %d warm-up) of batch %d at %dx%d on %s, AMP %s, %d DataLoader workers " \
        "(prefetch factor %d): %.1f images/s, waiting for data %.3f of each step" % (
            arguments.model, arguments.steps, arguments.warmup, arguments.batch_size, arguments.image_size,
            arguments.image_size, torch.cuda.get_device_name(0) if cuda else "the CPU", "on" if cuda else "off",
            arguments.num_workers, arguments.prefetch_factor, measured.images_per_second(), measured.wait_fraction())


def utilization_verdict(state):
    if not state.get("cuda"):
        raise Skipped("no CUDA device in the container: GPU utilisation is not measured, the job ran on the CPU")
    if "nvml" in state:
        raise Failed("GPU utilisation cannot be sampled: %s; the driver's NVML library was not injected"
                     % state["nvml"])
    return "sampled GPU 0's utilisation through NVML every %d ms" % int(nvml.SAMPLE_SECONDS * 1000)


def run(stack, report, arguments):
    import torch
    import torchvision

    state = {}
    if not report.check("acceptance-data", lambda: prepare_data(arguments), 600):
        return
    if not report.check("acceptance-train", lambda: run_single(torch, torchvision, arguments, report, state),
                        arguments.limit):
        report.skip_all(["utilization-sampling", "ddp-scaling"], "not run: the training job did not finish")
        return
    report.check("utilization-sampling", lambda: utilization_verdict(state), 10)
    world = torch.cuda.device_count() if state["cuda"] else 0
    if world > 1:
        report.check("ddp-scaling", lambda: measure_scaling(arguments, world, state["images_per_second"], report),
                     arguments.limit)
    else:
        report.add("ddp-scaling", "skip", "not run: %d GPU(s) in the container, DDP scaling needs two or more"
                   % world)
