// tests/fatbin/src/rdc_lib.cu: second translation unit of the
// relocatable-device-code fixture.
__device__ int scale(int x)
{
    return 3 * x + 1;
}
