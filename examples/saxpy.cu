// examples/saxpy.cu: y[i] = a * x[i] + y[i] for i < n (BLAS saxpy), one
// thread per element.  Regenerate saxpy.ptx with examples/regen.sh.
//
//   ptxemu run examples/saxpy.ptx --kernel saxpy --grid 8 --block 128 \
//       --arg u32:1000 --arg f32:2.5 --arg buf:f32:1000:iota \
//       --arg buf:f32:1000:fill=1 --print 3:8
extern "C" __global__ void saxpy(unsigned n, float a, const float *x,
                                 float *y)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}
