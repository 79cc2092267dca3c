"""The framework tier for torch: CUDA and cuDNN as the lock pins them, an AMP training
step, and an NCCL all-reduce across every visible GPU."""
import multiprocessing
import time

from . import framework
from . import lock as locks
from .report import Failed

CODES = ["torch-cuda-available", "torch-cuda-version", "torch-cudnn-version", "torch-amp-step",
         "torch-nccl-allreduce"]


def check_available(torch):
    if not torch.cuda.is_available():
        raise Failed("torch %s: torch.cuda.is_available() is False (built for CUDA %s): the container sees no GPU "
                     "or its driver is older than torch's CUDA; run the gpu tier for the cause"
                     % (torch.__version__, torch.version.cuda))
    names = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
    return "torch %s sees %d GPU(s): %s" % (torch.__version__, len(names), ", ".join(names))


def check_cuda_version(torch, stack):
    if torch.version.cuda is None:
        raise Failed("torch %s is a CPU-only build (torch.version.cuda is None); the lock pins CUDA %s"
                     % (torch.__version__, locks.dotted(stack.cuda)))
    return framework.compare_version("CUDA", locks.version_tuple(torch.version.cuda), stack.cuda[:2],
                                     "torch.version.cuda")


def check_cudnn_version(torch, stack):
    reported = framework.cudnn_version_from_int(torch.backends.cudnn.version())
    return framework.compare_version("cuDNN", reported, stack.cudnn, "torch.backends.cudnn.version()")


def check_amp_step(torch):
    """Three SGD steps of a small MLP under FP16 autocast with a GradScaler."""
    torch.manual_seed(0)
    device = torch.device("cuda", 0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    amp = getattr(torch, "amp", None)
    if amp is not None and hasattr(amp, "GradScaler"):
        scaler = amp.GradScaler("cuda", init_scale=1024.0)
    else:
        scaler = torch.cuda.amp.GradScaler(init_scale=1024.0)
    x = torch.randn(32, 64, device=device)
    y = torch.randint(0, 10, (32,), device=device)
    before = [p.detach().clone() for p in model.parameters()]
    losses = []
    for _ in range(3):
        optimizer.zero_grad()
        with torch.autocast(device_type="cuda", dtype=torch.float16):
            out = model(x)
            loss = torch.nn.functional.cross_entropy(out, y)
        if out.dtype != torch.float16:
            raise Failed("autocast ran the linear layers in %s, not float16" % out.dtype)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        losses.append(float(loss))
    torch.cuda.synchronize()
    changed = any(not torch.equal(b, p.detach()) for b, p in zip(before, model.parameters()))
    if not all(l == l and abs(l) != float("inf") for l in losses) or not changed:
        raise Failed("the AMP training step went wrong (losses %s, parameters %s): FP16 autocast or the GradScaler "
                     "does not work on this GPU" % (losses, "updated" if changed else "unchanged"))
    return "FP16 autocast forward, backward and GradScaler step on %s: loss %.4f -> %.4f" % (
        torch.cuda.get_device_name(0), losses[0], losses[-1])


def allreduce_worker(rank, world, port, results):
    """One rank of the all-reduce, in a spawned process: puts (rank, value, error)."""
    try:
        import torch
        import torch.distributed as dist
        torch.cuda.set_device(rank)
        dist.init_process_group("nccl", init_method="tcp://127.0.0.1:%d" % port, rank=rank, world_size=world)
        tensor = torch.full((1 << 20,), float(rank + 1), device="cuda")
        dist.all_reduce(tensor)
        torch.cuda.synchronize()
        low, high = float(tensor.min()), float(tensor.max())
        dist.destroy_process_group()
        results.put((rank, low if low == high else (low, high), None))
    except Exception as e:
        results.put((rank, None, "%s: %s" % (type(e).__name__, e)))


def check_allreduce(torch, limit_s):
    world = torch.cuda.device_count()
    framework.need_several(world)
    spawn = multiprocessing.get_context("spawn")
    results = spawn.Queue()
    port = framework.free_port()
    processes = [spawn.Process(target=allreduce_worker, args=(rank, world, port, results)) for rank in range(world)]
    for process in processes:
        process.start()
    values, errors = {}, {}
    deadline = time.time() + limit_s
    try:
        while len(values) + len(errors) < world and time.time() < deadline:
            try:
                rank, value, error = results.get(timeout=1)
            except Exception:  # queue.Empty: see whether a rank died without a word
                if not any(p.is_alive() for p in processes) and results.empty():
                    break
                continue
            (errors if error else values)[rank] = error or value
    finally:
        for process in processes:
            process.join(5)
            if process.is_alive():
                process.terminate()
    if errors or len(values) < world:
        missing = sorted(set(range(world)) - set(values) - set(errors))
        raise Failed("NCCL all-reduce across %d GPUs (torch.distributed over tcp://127.0.0.1) failed: %s%s; run "
                     "with NCCL_DEBUG=INFO for the cause" % (world, "; ".join("rank %d: %s" % e for e in sorted(
                         errors.items())), (" ranks %s gave no answer within %d s" % (missing, limit_s)) if missing
                         else ""))
    from torch.cuda import nccl  # not imported by `import torch` in every release

    version = nccl.version()
    nccl = ".".join(str(p) for p in version) if isinstance(version, tuple) else str(version)
    return framework.check_sums(values, world, "NCCL %s all-reduce" % nccl)


def run(stack, report):
    framework.run_checks(report, stack, CODES, ("torch", "torch"), check_available, [
        lambda torch: check_cuda_version(torch, stack),
        lambda torch: check_cudnn_version(torch, stack),
    ], [(check_amp_step, 120), (lambda torch: check_allreduce(torch, 240), 300)])
