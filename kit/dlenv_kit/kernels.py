"""The CUDA C++ the kit compiles with NVRTC at run time: no headers, extern "C" names."""

SOURCE = r"""
extern "C" __global__ void saxpy(int n, float a, const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

// One partial sum per block by a tree in shared memory, added to *out atomically.
extern "C" __global__ void reduce_sum(int n, const float* x, float* out)
{
    __shared__ float partial[256];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += x[i];
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(out, partial[0]);
}

// A device-memory copy, 16 bytes per thread: it reads and writes n * 16 bytes.
extern "C" __global__ void copy_bandwidth(unsigned long long n, const float4* in, float4* out)
{
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

// Eight independent FMA chains per thread, 16 steps per iteration: 256 flops an iteration.
extern "C" __global__ void fma_throughput(int iterations, float a, float b, float* out)
{
    float x0 = threadIdx.x * 1e-3f, x1 = x0 + 1.0f, x2 = x0 + 2.0f, x3 = x0 + 3.0f;
    float x4 = x0 + 4.0f, x5 = x0 + 5.0f, x6 = x0 + 6.0f, x7 = x0 + 7.0f;
    for (int i = 0; i < iterations; ++i) {
#pragma unroll
        for (int j = 0; j < 16; ++j) {
            x0 = fmaf(x0, a, b); x1 = fmaf(x1, a, b); x2 = fmaf(x2, a, b); x3 = fmaf(x3, a, b);
            x4 = fmaf(x4, a, b); x5 = fmaf(x5, a, b); x6 = fmaf(x6, a, b); x7 = fmaf(x7, a, b);
        }
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}
"""

NAMES = ["saxpy", "reduce_sum", "copy_bandwidth", "fma_throughput"]

FMA_FLOPS_PER_ITERATION = 16 * 8 * 2
