"""A stand-in for a CPU-only machine's view of a CUDA torch build: its versions answer,
its GPUs do not. framework_tier_test.py puts it on PYTHONPATH."""
__version__ = "2.7.1+cu128"


class version(object):
    cuda = "12.8"


class cuda(object):
    @staticmethod
    def is_available():
        return False


class backends(object):
    class cudnn(object):
        @staticmethod
        def version():
            return 90800
