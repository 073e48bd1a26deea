/*
 * timing/gpu/mem/dram_presets.c: DRAM presets, as data, each with where
 * its numbers come from.  Values are in command-clock cycles at `mhz`,
 * in DramT order: tRCD tRP tRAS tRC CL WL tCCDS tCCDL tRRD tWR tWTR tRTW
 * tRTP tBURST tRFC tREFI tFAW.  No source below gives a four-activate
 * window (GPGPU-Sim's timing options have none), so tFAW is left out (0:
 * not enforced) and set with dram.tFAW.
 *
 * GPGPU-Sim's -gpgpu_dram_timing_opt names map as: CCD = tCCDS, CDLR
 * (last data-in to read) = tWTR, RTPL = tRTP; its configs do not model
 * refresh, so those presets have tREFI 0 (off).  Where a source gives no
 * read-to-write turnaround, tRTW = CL + tBURST + 2 - WL (the RD-to-WR
 * rule of Ramulator 2's HBM3 and GDDR6 models); tBURST is the burst
 * length divided by the data-to-command clock ratio, and burst_bytes
 * the channel width times the burst length, as GPGPU-Sim computes its
 * "atom" size.  Numbers are kept as their sources give them, even where
 * they disagree with each other (Accel-Sim's scaled GDDR6 tRC is under
 * tRAS + tRP; dram.c's ACT-PRE-ACT path enforces tRAS + tRP anyway).
 */
#include "timing/gpu/mem/dram.h"

#include <string.h>

const char *const dram_t_names[DT_COUNT] = {
    [DT_RCD] = "tRCD", [DT_RP] = "tRP", [DT_RAS] = "tRAS", [DT_RC] = "tRC",
    [DT_CL] = "CL", [DT_WL] = "WL", [DT_CCDS] = "tCCDS",
    [DT_CCDL] = "tCCDL", [DT_RRD] = "tRRD", [DT_WR] = "tWR",
    [DT_WTR] = "tWTR", [DT_RTW] = "tRTW", [DT_RTP] = "tRTP",
    [DT_BURST] = "tBURST", [DT_RFC] = "tRFC", [DT_REFI] = "tREFI",
    [DT_FAW] = "tFAW",
};

const DramPreset dram_presets[] = {
    {"gddr3",
     "GPGPU-Sim 3.x: the default of -gpgpu_dram_timing_opt in gpu-sim.cc "
     "(nbk=4 tCCD=2 tRRD=8 tRCD=12 tRAS=21 tRP=13 tRC=34 CL=9 WL=4 "
     "tCDLR=5 tWR=13, one bank group) and the DRAM clock of its "
     "QuadroFX5800 (GT200) config (-gpgpu_clock_domains "
     "325:650:650:800); 32-bit channel, burst of 4 on a double data rate",
     800.0, 1, 4, 16,
     /* RCD RP RAS RC CL WL CCDS CCDL RRD WR WTR RTW RTP BURST RFC REFI */
     {12, 13, 21, 34, 9, 4, 2, 2, 8, 13, 5, 9, 0, 2, 0, 0}},
    {"gddr5",
     "GPGPU-Sim's GTX480 (Fermi) config: -gpgpu_dram_timing_opt "
     "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:"
     "WR=12:nbkgrp=4:CCDL=3:RTPL=2, from Hynix H5GQ1H24AFR, DRAM clock "
     "924 MHz; 32-bit channel, burst of 8 at 4 data beats per clock",
     924.0, 4, 16, 32,
     {12, 12, 28, 40, 12, 4, 2, 3, 6, 12, 5, 12, 2, 2, 0, 0}},
    {"gddr6",
     "Accel-Sim's SM86_RTX3070 config: the GDDR5 timing scaled to "
     "3500 MHz, nbk=16:CCD=4:RRD=10:RCD=20:RAS=50:RP=20:RC=62:CL=20:WL=8:"
     "CDLR=9:WR=20:nbkgrp=4:CCDL=4:RTPL=4; 16-bit channel, burst of 16, "
     "data-to-command ratio 4",
     3500.0, 4, 16, 32,
     {20, 20, 50, 62, 20, 8, 4, 4, 10, 20, 9, 18, 4, 4, 0, 0}},
    {"hbm2",
     "Accel-Sim's HBM timing (util/tuner hw_def common.h: from JESD235 "
     "and O'Connor et al., HPCA 2017) at 1000 MHz, nbk=16:CCD=1:RRD=4:"
     "RCD=14:RAS=33:RP=14:RC=47:CL=14:WL=2:CDLR=3:WR=12:nbkgrp=4:CCDL=2:"
     "RTPL=4; 128-bit channel, burst of 2",
     1000.0, 4, 16, 32,
     {14, 14, 33, 47, 14, 2, 1, 2, 4, 12, 3, 15, 4, 1, 0, 0}},
    {"hbm3",
     "Ramulator 2's HBM3_2Gbps preset (src/dram/impl/HBM3.cpp, JESD238): "
     "tCK 1 ns, nBL 4, nCL 7, nRCD 7, nRP 7, nRAS 17, nRC 19, nWR 8, "
     "nRTPS 2, nCWL 2, nCCDS 1, nCCDL 2, nRRDS 2, nWTRS 3, nRTW 3, "
     "nREFI 3900 and nRFC 160 (2 Gb); 4 bank groups of 4 banks per "
     "pseudo-channel, 64 bits x burst of 4",
     1000.0, 4, 16, 32,
     {7, 7, 17, 19, 7, 2, 1, 2, 2, 8, 3, 3, 2, 4, 160, 3900}},
};

const uint32_t dram_npresets = sizeof dram_presets / sizeof dram_presets[0];

const DramPreset *dram_preset_find(const char *name)
{
    for (uint32_t i = 0; i < dram_npresets; i++) {
        if (strcmp(dram_presets[i].name, name) == 0) {
            return &dram_presets[i];
        }
    }
    return NULL;
}
