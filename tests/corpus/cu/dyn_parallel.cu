// Dynamic parallelism (CUDA device runtime): a parent kernel launching child
// grids from the device. Needs -rdc=true; the launch becomes calls to
// cudaGetParameterBufferV2 / cudaLaunchDeviceV2 (.extern .func).
// regen: -rdc=true
extern "C" __global__ void child_scale(float *data, float factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= factor;
}

extern "C" __global__ void parent_launch(float *data, const int *segments, int nseg)
{
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= nseg)
        return;
    int begin = segments[s], end = segments[s + 1];
    int len = end - begin;
    if (len <= 0)
        return;
    child_scale<<<(len + 127) / 128, 128>>>(data + begin, (float)(s + 1), len);
    if (cudaGetLastError() != cudaSuccess)
        data[begin] = -1.0f;
}
