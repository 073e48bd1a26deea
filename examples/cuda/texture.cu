// examples/cuda/texture.cu: CUDA arrays with texture and surface
// objects.  A float image in a CUDA array is resampled at twice its
// size through a texture object with bilinear filtering and normalized
// coordinates; a surface object then brightens an 8-bit RGBA image in
// place; a 3-D array makes a round trip through cudaMemcpy3D.  Every
// result is checked against the CUDA programming guide's texture
// fetching formulas (9-bit fixed-point filter weights) on the host.
#include <cmath>

#include "check.h"

constexpr int W = 16, H = 12;

__global__ void resample(cudaTextureObject_t t, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float u = (x + 0.5f) / w, v = (y + 0.5f) / h;
        out[y * w + x] = tex2D<float>(t, u, v);
    }
}

__global__ void brighten(cudaSurfaceObject_t s, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        uchar4 p = surf2Dread<uchar4>(s, x * sizeof(uchar4), y);
        p.x = p.x > 205 ? 255 : p.x + 50;
        p.y = p.y / 2;
        surf2Dwrite(p, s, x * sizeof(uchar4), y);
    }
}

static float texel(int i, int j)
{
    return std::sin(0.7f * i) * 10.0f + j * j * 0.25f;
}

static int clampi(int v, int n)
{
    return v < 0 ? 0 : v >= n ? n - 1 : v;
}

// The guide's bilinear fetch with clamp addressing.
static float bilinear(float u, float v)
{
    float xb = u * W - 0.5f, yb = v * H - 0.5f;
    float fi = std::floor(xb), fj = std::floor(yb);
    double a = std::round((xb - fi) * 256.0) / 256.0;
    double b = std::round((yb - fj) * 256.0) / 256.0;
    int i = (int)fi, j = (int)fj;
    double t00 = texel(clampi(i, W), clampi(j, H));
    double t10 = texel(clampi(i + 1, W), clampi(j, H));
    double t01 = texel(clampi(i, W), clampi(j + 1, H));
    double t11 = texel(clampi(i + 1, W), clampi(j + 1, H));
    return (float)((1 - a) * (1 - b) * t00 + a * (1 - b) * t10 +
                   (1 - a) * b * t01 + a * b * t11);
}

int main()
{
    // 1. Bilinear resampling through a texture object.
    static float img[H][W];
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++)
            img[j][i] = texel(i, j);
    cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CHECK(cudaMallocArray(&arr, &fdesc, W, H));
    CHECK(cudaMemcpy2DToArray(arr, 0, 0, img, sizeof img[0], sizeof img[0],
                              H, cudaMemcpyHostToDevice));
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    cudaTextureObject_t tex;
    CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));
    constexpr int OW = 2 * W, OH = 2 * H;
    float *dout;
    static float out[OH][OW];
    CHECK(cudaMalloc(&dout, sizeof out));
    dim3 block(8, 8), grid((OW + 7) / 8, (OH + 7) / 8);
    resample<<<grid, block>>>(tex, dout, OW, OH);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int y = 0; y < OH; y++)
        for (int x = 0; x < OW; x++) {
            float want = bilinear((x + 0.5f) / OW, (y + 0.5f) / OH);
            float tol = 1e-4f * (1 + std::fabs(want));
            EXPECT(std::fabs(out[y][x] - want) <= tol,
                   "resample (%d, %d): %g, want %g", x, y, out[y][x], want);
        }
    cudaChannelFormatDesc got;
    CHECK(cudaGetChannelDesc(&got, arr));
    EXPECT(got.x == 32 && got.y == 0 && got.f == cudaChannelFormatKindFloat,
           "channel desc %d %d %d", got.x, got.y, (int)got.f);
    CHECK(cudaDestroyTextureObject(tex));
    CHECK(cudaFreeArray(arr));
    CHECK(cudaFree(dout));

    // 2. A surface object over an RGBA8 array, changed in place.
    constexpr int SW = 20, SH = 9;
    static uchar4 rgba[SH][SW], back[SH][SW];
    for (int y = 0; y < SH; y++)
        for (int x = 0; x < SW; x++)
            rgba[y][x] = make_uchar4(x * 13, y * 29, x ^ y, 255);
    cudaChannelFormatDesc cdesc = cudaCreateChannelDesc<uchar4>();
    cudaArray_t sarr;
    CHECK(cudaMallocArray(&sarr, &cdesc, SW, SH, cudaArraySurfaceLoadStore));
    CHECK(cudaMemcpy2DToArray(sarr, 0, 0, rgba, sizeof rgba[0],
                              sizeof rgba[0], SH, cudaMemcpyHostToDevice));
    cudaResourceDesc sres = {};
    sres.resType = cudaResourceTypeArray;
    sres.res.array.array = sarr;
    cudaSurfaceObject_t surf;
    CHECK(cudaCreateSurfaceObject(&surf, &sres));
    brighten<<<dim3((SW + 7) / 8, (SH + 7) / 8), dim3(8, 8)>>>(surf, SW, SH);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy2DFromArray(back, sizeof back[0], sarr, 0, 0,
                                sizeof back[0], SH, cudaMemcpyDeviceToHost));
    for (int y = 0; y < SH; y++)
        for (int x = 0; x < SW; x++) {
            uchar4 p = rgba[y][x], q = back[y][x];
            int wx = p.x > 205 ? 255 : p.x + 50;
            EXPECT(q.x == wx && q.y == p.y / 2 && q.z == p.z && q.w == p.w,
                   "surface (%d, %d): %d %d %d %d", x, y, q.x, q.y, q.z,
                   q.w);
        }
    CHECK(cudaDestroySurfaceObject(surf));
    CHECK(cudaFreeArray(sarr));

    // 3. A 3-D array in and a box of it out with cudaMemcpy3D.
    constexpr int X = 7, Y = 5, Z = 4;
    static int vol[Z][Y][X], box[2][3][4];
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++)
                vol[z][y][x] = x + 10 * y + 100 * z;
    cudaChannelFormatDesc idesc = cudaCreateChannelDesc<int>();
    cudaArray_t varr;
    CHECK(cudaMalloc3DArray(&varr, &idesc, make_cudaExtent(X, Y, Z)));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(vol, X * sizeof(int), X, Y);
    p.dstArray = varr;
    p.extent = make_cudaExtent(X, Y, Z);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    p = {};
    p.srcArray = varr;
    p.srcPos = make_cudaPos(2, 1, 1);
    p.dstPtr = make_cudaPitchedPtr(box, 4 * sizeof(int), 4, 3);
    p.extent = make_cudaExtent(4, 3, 2);
    p.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&p));
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 4; x++)
                EXPECT(box[z][y][x] == vol[z + 1][y + 1][x + 2],
                       "3-D box (%d, %d, %d): %d", x, y, z, box[z][y][x]);
    cudaExtent ext;
    unsigned flags;
    CHECK(cudaArrayGetInfo(nullptr, &ext, &flags, varr));
    EXPECT(ext.width == X && ext.height == Y && ext.depth == Z && !flags,
           "array info %zu %zu %zu %u", ext.width, ext.height, ext.depth,
           flags);
    CHECK(cudaFreeArray(varr));
    return passed();
}
