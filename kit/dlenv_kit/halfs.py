"""FP16 and BF16 as 16-bit patterns in array('H'), converted with struct only."""
import array
import os
import struct


def half_bits(value):
    return struct.unpack("<H", struct.pack("<e", value))[0]


def half_value(bits):
    return struct.unpack("<e", struct.pack("<H", bits))[0]


def bf16_bits(value):
    """Round to nearest even, as the float32 -> bfloat16 conversion of CUDA does."""
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


def bf16_value(bits):
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


ENCODE = {"fp16": half_bits, "bf16": bf16_bits}
DECODE = {"fp16": half_value, "bf16": bf16_value}


def encode(values, kind):
    return array.array("H", [ENCODE[kind](v) for v in values])


def decode(bits, kind):
    return [DECODE[kind](b) for b in bits]


def random_tile(kind, count):
    """`count` random values of magnitude 0.5 to 1 with random signs, as bit patterns:
    throughput runs on data like a model's, not on zeros."""
    raw = array.array("H", os.urandom(2 * count))
    if kind == "fp16":
        return array.array("H", [(b & 0x83FF) | 0x3800 for b in raw])
    return array.array("H", [(b & 0x807F) | 0x3F00 for b in raw])
