// Texture and surface objects (bindless, cudaTextureObject_t /
// cudaSurfaceObject_t .u64 handles): tex.1d/2d/3d fetches, tex.level,
// tex.grad, tld4 (tex2Dgather), suld / sust / sured, and txq / suq /
// istypep queries.
#include <cuda_runtime.h>

extern "C" __global__ void tex_fetch(cudaTextureObject_t t1, cudaTextureObject_t t2,
                                     cudaTextureObject_t t3, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float u = (x + 0.5f) / w, v = (y + 0.5f) / h;
    float a = tex1Dfetch<float>(t1, y * w + x);
    float b = tex1D<float>(t1, u);
    float4 c = tex2D<float4>(t2, u, v);
    float d = tex3D<float>(t3, u, v, 0.5f);
    float e = tex2DLod<float4>(t2, u, v, 1.5f).y;
    float f = tex2DGrad<float4>(t2, u, v, make_float2(0.01f, 0.0f), make_float2(0.0f, 0.01f)).z;
    float4 g = tex2Dgather<float4>(t2, u, v, 1);
    int4 l = tex2Dgather<int4>(t3, u, v, 0);
    out[y * w + x] = a + b + c.x + c.w + d + e + f + g.x + g.w + (float)l.y;
}

extern "C" __global__ void tex_layered(cudaTextureObject_t tl, cudaTextureObject_t tc, float *out,
                                       int w, int layers)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= w)
        return;
    float s = 0.0f;
    for (int l = 0; l < layers; l++)
        s += tex2DLayered<float>(tl, (float)x, 0.5f, l);
    s += texCubemap<float>(tc, 1.0f, (float)x / w, -0.5f);
    out[x] = s;
}

extern "C" __global__ void surf_copy(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float4 v = surf2Dread<float4>(src, x * (int)sizeof(float4), y);
    uchar4 c;
    surf2Dread(&c, src, x * 4, y, cudaBoundaryModeClamp);
    v.x += c.x;
    surf2Dwrite(v, dst, x * (int)sizeof(float4), h - 1 - y);
    int i = surf1Dread<int>(src, x * 4, cudaBoundaryModeZero);
    surf1Dwrite(i + 1, dst, x * 4, cudaBoundaryModeTrap);
}

// Raw PTX queries on texture / surface handles
extern "C" __global__ void tex_query(cudaTextureObject_t t, cudaSurfaceObject_t s, int *out)
{
    int tw, th, td, tf, sw, sh;
    asm("txq.width.b32 %0, [%1];" : "=r"(tw) : "l"(t));
    asm("txq.height.b32 %0, [%1];" : "=r"(th) : "l"(t));
    asm("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(td) : "l"(t));
    asm("txq.channel_order.b32 %0, [%1];" : "=r"(tf) : "l"(t));
    asm("suq.width.b32 %0, [%1];" : "=r"(sw) : "l"(s));
    asm("suq.height.b32 %0, [%1];" : "=r"(sh) : "l"(s));
    out[0] = tw;
    out[1] = th;
    out[2] = td;
    out[3] = tf;
    out[4] = sw;
    out[5] = sh;
    unsigned ist, iss;
    asm("{\n\t.reg .pred p;\n\tistypep.texref p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(ist) : "l"(t));
    asm("{\n\t.reg .pred p;\n\tistypep.surfref p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(iss) : "l"(s));
    out[6] = (int)(ist + 2 * iss);
    // surface reduction: atomically add 1 to element 0 of a 1D u32 surface
    asm volatile("sured.b.add.1d.u32.trap [%0, {%1}], %2;" :: "l"(s), "r"(0), "r"(1u) : "memory");
}
