/*
 * runtime/cuda/drv_integrity.c: the INTEGRITY_CHECK table's slot 1,
 * with which the static CUDA runtime establishes that it talks to a
 * genuine driver (drv_export.h).  Without the right answer every
 * runtime call fails with cudaErrorSoftwareValidityNotEstablished.
 *
 * slot 1 (unsigned version, uint64_t unix_seconds, uint64_t out[2]):
 * the runtime calls it with its version plus 0, 1 and 2 (13000, 13001,
 * 13002 for CUDA 13.0).  As ZLUDA found (github.com/vosen/ZLUDA,
 * dark_api/src/lib.rs, integrity_check): for version % 10 of 0 and 1
 * the answer is a constant; otherwise it is HMAC-MD2 under a fixed
 * 16-byte key of a 48-byte record (driver version, version, process
 * id, thread, the addresses of the runtime-interface table, of this
 * table and of this slot's function, the seconds) followed, for each
 * device, by its UUID and PCI domain, bus and device numbers (28
 * bytes).  ZLUDA's code computes that hash in seven passes over one
 * MD2 state; they are MD2 inside HMAC (drv_md2.c).  The runtime computes the same hash from what the
 * driver told it (cuDriverGetVersion, cuDeviceGetUuid, the PCI
 * attributes, the tables' addresses), so those must agree.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "runtime/cuda/drv_export.h"

/* ------------------------------------------------------------ check */

/* The key and the two constant answers, as ZLUDA found them. */
static const uint8_t hmac_key[16] = {
    0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52,
    0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f};
static const uint64_t answer[2][2] = {
    {0x3341181c03cb675cull, 0x8ed383aa1f4cd1e8ull},
    {0x1841181c03cb675cull, 0x8ed383aa1f4cd1e8ull}};

/* The hashed record: native byte order, no padding (4 + 4 * 4 + 3 * 8
 * + 8 = 48 bytes on LP64). */
typedef struct Record {
    uint32_t driver_version;
    uint32_t version;
    uint32_t pid;
    uint32_t thread;
    uint64_t cudart_table;
    uint64_t integrity_table;
    uint64_t function;
    uint64_t seconds;
} Record;

typedef struct DeviceRecord {
    uint8_t uuid[16];
    int32_t pci_domain, pci_bus, pci_device;
} DeviceRecord;

_Static_assert(sizeof(Record) == 48, "integrity record layout");
_Static_assert(sizeof(DeviceRecord) == 28, "device record layout");

CUresult drv_integrity_check(unsigned version, uint64_t unix_seconds,
                             uint64_t result[2])
{
    if (!result) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (version % 10 < 2) {
        memcpy(result, answer[version % 10], 16);
        return CUDA_SUCCESS;
    }
    int drv_version = 0;
    CUresult r = cuDriverGetVersion(&drv_version);
    if (r != CUDA_SUCCESS) {
        return r;
    }
    const void *const *itab = drv_export_table(ETBL_INTEGRITY);
    Record rec = {
        .driver_version = (uint32_t)drv_version,
        .version = version,
        .pid = (uint32_t)getpid(),
        .thread = (uint32_t)(uintptr_t)pthread_self(),
        .cudart_table = (uint64_t)(uintptr_t)drv_export_table(ETBL_CUDART),
        .integrity_table = (uint64_t)(uintptr_t)itab,
        .function = (uint64_t)(uintptr_t)itab[1],
        .seconds = unix_seconds,
    };
    /* One emulated device. */
    DeviceRecord dev;
    memset(&dev, 0, sizeof(dev));
    CUuuid uuid;
    int dom = 0, bus = 0, slot = 0;
    if (cuDeviceGetUuid_v2(&uuid, 0) != CUDA_SUCCESS ||
        drv_attribute(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, &dom) ||
        drv_attribute(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, &bus) ||
        drv_attribute(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, &slot)) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    memcpy(dev.uuid, uuid.bytes, 16);
    dev.pci_domain = dom;
    dev.pci_bus = bus;
    dev.pci_device = slot;
    uint8_t msg[sizeof(rec) + sizeof(dev)];
    memcpy(msg, &rec, sizeof(rec));
    memcpy(msg + sizeof(rec), &dev, sizeof(dev));
    uint8_t mac[16];
    drv_hmac_md2(hmac_key, msg, sizeof(msg), mac);
    memcpy(result, mac, 16);
    return CUDA_SUCCESS;
}
