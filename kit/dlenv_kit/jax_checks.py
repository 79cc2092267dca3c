"""The framework tier for JAX: GPUs visible, CUDA and cuDNN as the lock pins them, a
BF16 training step, and a psum across every visible GPU (NCCL underneath)."""
from . import framework
from .report import Failed, Skipped

CODES = ["jax-gpu", "jax-cuda-version", "jax-cudnn-version", "jax-amp-step", "jax-nccl-allreduce"]


def check_gpu(jax):
    try:
        gpus = jax.devices("gpu")
    except RuntimeError as e:
        raise Failed("JAX %s has no GPU backend (%s): install the lock's jax[cuda] plugin and run the container "
                     "with the GPUs injected" % (jax.__version__, e))
    return "JAX %s sees %d GPU(s): %s" % (jax.__version__, len(gpus), ", ".join(str(d) for d in gpus))


def runtime_version(what):
    """jaxlib's CUDA or cuDNN version, from jax._src.lib.cuda_versions when this jaxlib has it."""
    try:
        from jax._src.lib import cuda_versions
    except ImportError:
        cuda_versions = None
    if cuda_versions is None:
        raise Skipped("this jaxlib does not report its %s version" % what)
    if what == "CUDA":
        value = cuda_versions.cuda_runtime_get_version()
        return value // 1000, value % 1000 // 10
    return framework.cudnn_version_from_int(cuda_versions.cudnn_get_version())


def check_amp_step(jax):
    """Three SGD steps of a small MLP computed in bfloat16 on float32 weights."""
    jnp = jax.numpy
    keys = jax.random.split(jax.random.PRNGKey(0), 4)
    x = jax.random.normal(keys[0], (32, 64))
    y = jax.nn.one_hot(jax.random.randint(keys[1], (32,), 0, 10), 10)
    params = [jax.random.normal(keys[2], (64, 128)) * 0.1, jax.random.normal(keys[3], (128, 10)) * 0.1]

    def loss_fn(params):
        hidden = jax.nn.relu(jnp.dot(x.astype(jnp.bfloat16), params[0].astype(jnp.bfloat16)))
        logits = jnp.dot(hidden, params[1].astype(jnp.bfloat16)).astype(jnp.float32)
        return -jnp.mean(jnp.sum(y * jax.nn.log_softmax(logits), axis=-1))

    step = jax.jit(jax.value_and_grad(loss_fn))
    losses = []
    for _ in range(3):
        loss, grads = step(params)
        if not all(bool(jnp.all(jnp.isfinite(g))) for g in grads):
            raise Failed("the BF16 training step gave non-finite gradients")
        params = [p - 0.1 * g for p, g in zip(params, grads)]
        losses.append(float(loss))
    if not losses[-1] < losses[0]:
        raise Failed("the BF16 training step did not lower the loss (%s)" % losses)
    return "BF16 forward, backward and update on %s: loss %.4f -> %.4f" % (jax.devices()[0], losses[0], losses[-1])


def check_allreduce(jax):
    count = len(jax.devices("gpu"))
    framework.need_several(count)
    summed = jax.pmap(lambda v: jax.lax.psum(v, "i"), axis_name="i")(jax.numpy.arange(1.0, count + 1.0))
    return framework.check_sums(dict(enumerate(float(v) for v in summed)), count, "pmap psum")


def run(stack, report):
    framework.run_checks(report, stack, CODES, ("jax", "JAX"), check_gpu, [
        lambda jax: framework.compare_version("CUDA", runtime_version("CUDA"), stack.cuda[:2], "jaxlib"),
        lambda jax: framework.compare_version("cuDNN", runtime_version("cuDNN"), stack.cudnn, "jaxlib"),
    ], [(check_amp_step, 120), (check_allreduce, 300)])
