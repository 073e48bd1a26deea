// examples/cuda/mipmap.cu: a mipmapped texture.  A 32x16 float image
// and its box-filtered pyramid (16x8 ... 1x1, six levels) go into a
// CUDA mipmapped array level by level; a texture object over it with
// bilinear filtering inside a level and linear filtering between levels
// is sampled with tex2DLod (explicit levels of detail) and tex2DGrad
// (the level of the longer gradient, in texels of level 0).  The host
// recomputes every sample: the programming guide's bilinear fetch
// (9-bit weights) on the two levels around the level of detail, blended
// by its fraction.  The levels of detail used are exact quarters and
// the gradients powers of two, so no rounding of the hardware's level
// computation can move a sample.
#include <cmath>

#include "check.h"

constexpr int W = 32, H = 16, LEVELS = 6;

__global__ void by_lod(cudaTextureObject_t t, const float4 *q, float *out,
                       int n)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n)
        out[k] = tex2DLod<float>(t, q[k].x, q[k].y, q[k].z);
}

__global__ void by_grad(cudaTextureObject_t t, const float4 *q, float *out,
                        int n)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n)
        out[k] = tex2DGrad<float>(t, q[k].x, q[k].y,
                                  make_float2(q[k].z / W, 0.0f),
                                  make_float2(0.0f, q[k].w / H));
}

static float pyr[LEVELS][H][W];     // level l uses [0, h_l) x [0, w_l)

static int lw(int l) { return W >> l ? W >> l : 1; }
static int lh(int l) { return H >> l ? H >> l : 1; }

static int clampi(int v, int n)
{
    return v < 0 ? 0 : v >= n ? n - 1 : v;
}

// The guide's bilinear fetch on level l with clamp addressing.
static double bilinear(int l, float u, float v)
{
    int w = lw(l), h = lh(l);
    float xb = u * w - 0.5f, yb = v * h - 0.5f;
    float fi = std::floor(xb), fj = std::floor(yb);
    double a = std::round((xb - fi) * 256.0) / 256.0;
    double b = std::round((yb - fj) * 256.0) / 256.0;
    int i = (int)fi, j = (int)fj;
    double t00 = pyr[l][clampi(j, h)][clampi(i, w)];
    double t10 = pyr[l][clampi(j, h)][clampi(i + 1, w)];
    double t01 = pyr[l][clampi(j + 1, h)][clampi(i, w)];
    double t11 = pyr[l][clampi(j + 1, h)][clampi(i + 1, w)];
    return (1 - a) * (1 - b) * t00 + a * (1 - b) * t10 +
           (1 - a) * b * t01 + a * b * t11;
}

// Linear filtering between levels: the level of detail clamped to the
// levels there are, the two levels around it blended by its fraction.
static float trilinear(float u, float v, double lod)
{
    lod = lod < 0 ? 0 : lod > LEVELS - 1 ? LEVELS - 1 : lod;
    int l0 = (int)std::floor(lod);
    int l1 = l0 + 1 < LEVELS ? l0 + 1 : l0;
    double f = lod - l0;
    return (float)((1 - f) * bilinear(l0, u, v) + f * bilinear(l1, u, v));
}

int main()
{
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++)
            pyr[0][j][i] = std::sin(0.45f * i) * 8.0f + 0.3f * j * j;
    for (int l = 1; l < LEVELS; l++)
        for (int j = 0; j < lh(l); j++)
            for (int i = 0; i < lw(l); i++) {
                int h = lh(l - 1), w = lw(l - 1);
                pyr[l][j][i] = 0.25f * (pyr[l - 1][clampi(2 * j, h)][2 * i] +
                               pyr[l - 1][clampi(2 * j, h)][2 * i + 1] +
                               pyr[l - 1][clampi(2 * j + 1, h)][2 * i] +
                               pyr[l - 1][clampi(2 * j + 1, h)][2 * i + 1]);
            }

    // Asking for more levels than 1 + log2(32) gives six.
    cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t mip;
    CHECK(cudaMallocMipmappedArray(&mip, &fdesc, make_cudaExtent(W, H, 0),
                                   LEVELS + 2));
    for (int l = 0; l < LEVELS; l++) {
        cudaArray_t level;
        CHECK(cudaGetMipmappedArrayLevel(&level, mip, l));
        cudaChannelFormatDesc c;
        cudaExtent e;
        unsigned flags;
        CHECK(cudaArrayGetInfo(&c, &e, &flags, level));
        EXPECT((int)e.width == lw(l) && (int)e.height == lh(l),
               "level %d is %zux%zu", l, e.width, e.height);
        CHECK(cudaMemcpy2DToArray(level, 0, 0, pyr[l], sizeof pyr[l][0],
                                  lw(l) * sizeof(float), lh(l),
                                  cudaMemcpyHostToDevice));
    }
    cudaArray_t none;
    EXPECT(cudaGetMipmappedArrayLevel(&none, mip, LEVELS) ==
               cudaErrorInvalidValue, "level %d exists", LEVELS);
    (void)cudaGetLastError();

    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeMipmappedArray;
    res.res.mipmap.mipmap = mip;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.mipmapFilterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    td.maxMipmapLevelClamp = LEVELS - 1;
    cudaTextureObject_t tex;
    CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));

    // Sample points: an 8x4 grid of (u, v) for each level of detail or
    // pair of gradient lengths (texels of level 0 along x and y).
    static const float lods[] = {0.0f, 0.25f, 1.0f, 1.5f, 2.75f, 4.5f,
                                 5.0f, 9.0f, -2.0f};
    static const float grads[][2] = {{1, 1}, {2, 1}, {1, 4}, {8, 2},
                                     {0.5f, 0.25f}, {64, 64}, {4, 16}};
    constexpr int NL = sizeof lods / sizeof lods[0];
    constexpr int NG = sizeof grads / sizeof grads[0];
    constexpr int PTS = 32, N = PTS * (NL + NG);
    static float4 q[N];
    static float out[N];
    for (int k = 0; k < N; k++) {
        int p = k % PTS, s = k / PTS;
        float u = (p % 8 + 0.3f) / 8, v = (p / 8 + 0.6f) / 4;
        if (s < NL)
            q[k] = make_float4(u, v, lods[s], 0);
        else
            q[k] = make_float4(u, v, grads[s - NL][0], grads[s - NL][1]);
    }
    float4 *dq;
    float *dout;
    CHECK(cudaMalloc(&dq, sizeof q));
    CHECK(cudaMalloc(&dout, sizeof out));
    CHECK(cudaMemcpy(dq, q, sizeof q, cudaMemcpyHostToDevice));
    int nl = NL * PTS, ng = NG * PTS;
    by_lod<<<(nl + 63) / 64, 64>>>(tex, dq, dout, nl);
    CHECK(cudaGetLastError());
    by_grad<<<(ng + 63) / 64, 64>>>(tex, dq + nl, dout + nl, ng);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int k = 0; k < N; k++) {
        double lod = q[k].z;
        if (k >= nl) {
            // tex2DGrad: log2 of the longer gradient in texels
            double g = q[k].z > q[k].w ? q[k].z : q[k].w;
            lod = std::log2(g);
        }
        float want = trilinear(q[k].x, q[k].y, lod);
        float tol = 1e-4f * (1 + std::fabs(want));
        EXPECT(std::fabs(out[k] - want) <= tol,
               "%s sample %d at (%g, %g), %g %g: %g, want %g",
               k < nl ? "tex2DLod" : "tex2DGrad", k % PTS, q[k].x, q[k].y,
               q[k].z, q[k].w, out[k], want);
    }
    CHECK(cudaDestroyTextureObject(tex));
    CHECK(cudaFreeMipmappedArray(mip));
    CHECK(cudaFree(dq));
    CHECK(cudaFree(dout));
    return passed();
}
