// examples/cuda/nbody.cu: all-pairs gravitational n-body, a few leapfrog
// steps with the bodies staged through shared memory in tiles, against
// the same integration done on the host in double precision.
#include "check.h"

#include <cmath>
#include <cstring>

constexpr int TILE = 64;
constexpr float SOFT2 = 0.01f;              // softening, squared
constexpr float DT = 0.01f;

// p: x, y, z, mass; v: velocity.
__global__ void step(const float4 *p, float4 *pnext, float3 *v, int n)
{
    __shared__ float4 tile[TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = i < n ? p[i] : make_float4(0, 0, 0, 0);
    float3 acc = make_float3(0, 0, 0);
    for (int t = 0; t < n; t += TILE) {
        int j = t + threadIdx.x;
        tile[threadIdx.x] = j < n ? p[j] : make_float4(0, 0, 0, 0);
        __syncthreads();
        for (int k = 0; k < TILE; k++) {
            float4 o = tile[k];
            float dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
            float r2 = dx * dx + dy * dy + dz * dz + SOFT2;
            float inv = rsqrtf(r2);
            float s = o.w * inv * inv * inv;
            acc.x += dx * s;
            acc.y += dy * s;
            acc.z += dz * s;
        }
        __syncthreads();
    }
    if (i < n) {
        float3 vi = v[i];
        vi.x += acc.x * DT;
        vi.y += acc.y * DT;
        vi.z += acc.z * DT;
        v[i] = vi;
        pnext[i] = make_float4(me.x + vi.x * DT, me.y + vi.y * DT,
                               me.z + vi.z * DT, me.w);
    }
}

static void host_step(double *p, double *v, int n)
{
    double *next = (double *)malloc(4 * n * sizeof(double));
    for (int i = 0; i < n; i++) {
        double ax = 0, ay = 0, az = 0;
        for (int j = 0; j < n; j++) {
            double dx = p[4 * j] - p[4 * i], dy = p[4 * j + 1] - p[4 * i + 1];
            double dz = p[4 * j + 2] - p[4 * i + 2];
            double r2 = dx * dx + dy * dy + dz * dz + SOFT2;
            double s = p[4 * j + 3] / (r2 * sqrt(r2));
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        v[3 * i] += ax * DT;
        v[3 * i + 1] += ay * DT;
        v[3 * i + 2] += az * DT;
        for (int d = 0; d < 3; d++) {
            next[4 * i + d] = p[4 * i + d] + v[3 * i + d] * DT;
        }
        next[4 * i + 3] = p[4 * i + 3];
    }
    memcpy(p, next, 4 * n * sizeof(double));
    free(next);
}

int main()
{
    const int n = 200, steps = 3;
    float4 *p = (float4 *)malloc(n * sizeof(float4));
    float3 *v = (float3 *)malloc(n * sizeof(float3));
    double *hp = (double *)malloc(4 * n * sizeof(double));
    double *hv = (double *)calloc(3 * n, sizeof(double));
    for (int i = 0; i < n; i++) {
        // Bodies on a slightly irregular lattice, masses 1..4.
        p[i] = make_float4((float)(i % 7) + 0.13f * (i % 3),
                           (float)((i / 7) % 6) - 0.21f * (i % 5),
                           (float)(i / 42) + 0.05f * (i % 4),
                           1.0f + (float)(i % 4));
        v[i] = make_float3(0, 0, 0);
        hp[4 * i] = p[i].x;
        hp[4 * i + 1] = p[i].y;
        hp[4 * i + 2] = p[i].z;
        hp[4 * i + 3] = p[i].w;
    }
    float4 *dp[2];
    float3 *dv;
    CHECK(cudaMalloc(&dp[0], n * sizeof(float4)));
    CHECK(cudaMalloc(&dp[1], n * sizeof(float4)));
    CHECK(cudaMalloc(&dv, n * sizeof(float3)));
    CHECK(cudaMemcpy(dp[0], p, n * sizeof(float4), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dv, v, n * sizeof(float3), cudaMemcpyHostToDevice));
    for (int s = 0; s < steps; s++) {
        step<<<(n + TILE - 1) / TILE, TILE>>>(dp[s % 2], dp[(s + 1) % 2],
                                              dv, n);
        CHECK(cudaGetLastError());
        host_step(hp, hv, n);
    }
    CHECK(cudaMemcpy(p, dp[steps % 2], n * sizeof(float4),
                     cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(v, dv, n * sizeof(float3), cudaMemcpyDeviceToHost));

    // Single precision with an approximate rsqrt against double: a
    // relative 1e-3 of the velocity scale, far above float rounding and
    // far below what a wrong force or a missed body changes.
    double vscale = 0;
    for (int i = 0; i < 3 * n; i++) {
        vscale = fmax(vscale, fabs(hv[i]));
    }
    EXPECT(vscale > 0.1, "the bodies did not move (|v| <= %g)", vscale);
    for (int i = 0; i < n; i++) {
        const float *pi = &p[i].x, *vi = &v[i].x;
        for (int d = 0; d < 3; d++) {
            EXPECT(fabs(pi[d] - hp[4 * i + d]) < 1e-4,
                   "body %d coordinate %d = %.7g, want %.7g", i, d, pi[d],
                   hp[4 * i + d]);
            EXPECT(fabs(vi[d] - hv[3 * i + d]) < 1e-3 * vscale,
                   "body %d velocity %d = %.7g, want %.7g", i, d, vi[d],
                   hv[3 * i + d]);
        }
    }
    CHECK(cudaFree(dp[0]));
    CHECK(cudaFree(dp[1]));
    CHECK(cudaFree(dv));
    free(p);
    free(v);
    free(hp);
    free(hv);
    return passed();
}
