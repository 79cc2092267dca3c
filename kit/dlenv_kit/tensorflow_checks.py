"""The framework tier for TensorFlow: GPUs visible, CUDA and cuDNN as the lock pins them,
a loss-scaled FP16 training step, and an NCCL all-reduce across every visible GPU."""
from . import framework
from . import lock as locks
from .report import Failed, Skipped

CODES = ["tensorflow-gpu", "tensorflow-cuda-version", "tensorflow-cudnn-version", "tensorflow-amp-step",
         "tensorflow-nccl-allreduce"]


def check_gpu(tf):
    gpus = tf.config.list_physical_devices("GPU")
    if not gpus:
        raise Failed("TensorFlow %s sees no GPU (built with CUDA: %s): the container sees no GPU or the image "
                     "lacks CUDA libraries TensorFlow needs; its stderr names the missing one"
                     % (tf.__version__, tf.test.is_built_with_cuda()))
    return "TensorFlow %s sees %d GPU(s): %s" % (tf.__version__, len(gpus), ", ".join(g.name for g in gpus))


def build_version(tf, key):
    info = tf.sysconfig.get_build_info()
    if key not in info:
        raise Skipped("tf.sysconfig.get_build_info() has no %s" % key)
    return locks.version_tuple(str(info[key]))


def check_amp_step(tf):
    """Three SGD steps of a small MLP whose matmuls run in float16 on float32 weights,
    with a loss scale: forward, backward, unscale, finite check, update."""
    tf.random.set_seed(0)
    with tf.device("/GPU:0"):
        x = tf.random.normal((32, 64))
        y = tf.one_hot(tf.random.uniform((32,), maxval=10, dtype=tf.int32), 10)
        weights = [tf.Variable(tf.random.normal((64, 128), stddev=0.1)), tf.Variable(tf.random.normal((128, 10),
                                                                                                      stddev=0.1))]
        before = [w.numpy().copy() for w in weights]
        scale = 1024.0
        losses = []
        for _ in range(3):
            with tf.GradientTape() as tape:
                hidden = tf.nn.relu(tf.matmul(tf.cast(x, tf.float16), tf.cast(weights[0], tf.float16)))
                logits = tf.matmul(hidden, tf.cast(weights[1], tf.float16))
                loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(y, tf.cast(logits, tf.float32)))
                scaled = loss * scale
            grads = [g / scale for g in tape.gradient(scaled, weights)]
            if not all(bool(tf.reduce_all(tf.math.is_finite(g))) for g in grads):
                raise Failed("the loss-scaled FP16 step gave non-finite gradients at loss scale %g" % scale)
            for w, g in zip(weights, grads):
                w.assign_sub(0.1 * g)
            losses.append(float(loss))
        if logits.dtype != tf.float16:
            raise Failed("the matmuls ran in %s, not float16" % logits.dtype.name)
    changed = any((b != w.numpy()).any() for b, w in zip(before, weights))
    if not changed:
        raise Failed("the FP16 training step left the weights unchanged (losses %s)" % losses)
    return "FP16 forward, backward and loss-scaled update on /GPU:0: loss %.4f -> %.4f" % (losses[0], losses[-1])


def check_allreduce(tf):
    gpus = tf.config.list_physical_devices("GPU")
    framework.need_several(len(gpus))
    strategy = tf.distribute.MirroredStrategy(cross_device_ops=tf.distribute.NcclAllReduce())

    def replica():
        context = tf.distribute.get_replica_context()
        value = tf.cast(context.replica_id_in_sync_group, tf.float32) + 1.0
        return context.all_reduce(tf.distribute.ReduceOp.SUM, value)

    per_replica = strategy.experimental_local_results(strategy.run(replica))
    values = dict((i, float(v)) for i, v in enumerate(per_replica))
    return framework.check_sums(values, len(gpus), "MirroredStrategy NCCL all-reduce")


def run(stack, report):
    source = "tf.sysconfig.get_build_info()"
    framework.run_checks(report, stack, CODES, ("tensorflow", "TensorFlow"), check_gpu, [
        lambda tf: framework.compare_version("CUDA", build_version(tf, "cuda_version"), stack.cuda[:2], source),
        lambda tf: framework.compare_version("cuDNN", build_version(tf, "cudnn_version"), stack.cudnn, source),
    ], [(check_amp_step, 120), (check_allreduce, 300)])
