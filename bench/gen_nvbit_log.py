# A synthetic NVBit mem_trace log (the tool's current record form: one LAUNCH line, then a
# MEMTRACE record per warp-level memory instruction with 32 addresses), for the reading-speed
# measurement of bench/RESULTS.md (issue 32). Usage: gen_nvbit_log.py FILE [RECORDS]
import random
import sys

random.seed(1)
out = sys.argv[1]
records = int(sys.argv[2]) if len(sys.argv) > 2 else 400000
ctas = (records + 63) // 64
ctx = "MEMTRACE: CTX 0x00005581c6a4e120"
with open(out, "w") as f:
    f.write(f"{ctx} - LAUNCH - Kernel pc 0x00007f3a2c000100 - Kernel name speed(float*) - "
            f"grid launch id 0 - grid size {ctas},1,1 - block size 256,1,1 - nregs 32 - "
            "shmem 0 - cuda stream id 0\n")
    for r in range(records):
        cta, warp = r // 64, (r // 8) % 8
        i = r % 8
        base = 0x7f0010000000 + (cta << 16) + (warp << 11) + i * 128
        if i == 5:  # a scattered gather
            addrs = [0x7f0080000000 + random.randrange(1 << 24) * 4 for _ in range(32)]
        else:  # unit stride, 4-byte lanes
            addrs = [base + 4 * lane for lane in range(32)]
        op = "STG.E" if i in (2, 6) else "LDG.E"
        f.write(f"{ctx} - grid_launch_id 0 - CTA {cta},0,0 - warp {warp} - {op} - " +
                " ".join(f"0x{a:016x}" for a in addrs) + " \n")
