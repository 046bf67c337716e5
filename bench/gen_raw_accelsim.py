# Synthetic raw Accel-Sim trace (tracer 3 layout, lineinfo off) and its post-processed .traceg,
# for the reading-speed measurement of bench/RESULTS.md (issue 32). Usage: gen_raw_accelsim.py DIR
import os
import random
import sys
random.seed(1)
OUT = sys.argv[1] if len(sys.argv) > 1 else "."
GX, WARPS, N = 2000, 8, 60
hdr = ("-kernel name = speed\n-kernel id = 1\n-grid dim = (%d,1,1)\n-block dim = (256,1,1)\n"
       "-shmem = 0\n-nregs = 32\n-binary version = 80\n-cuda stream id = 0\n"
       "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007f0001000000\n"
       "-nvbit version = 1.5.3\n-accelsim tracer version = 3\n\n"
       "#traces format = threadblock_x threadblock_y threadblock_z warpid_tb PC mask dest_num "
       "[reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n") % GX
def body(b, w, i):
    pc = 0x100 + 16 * i
    base = 0x7f0010000000 + (b << 16) + (w << 11) + i * 128
    k = i % 5
    if k == 0: return "%04x ffffffff 1 R2 LDG.E 1 R4 4 1 0x%x 4" % (pc, base)
    if k == 1: return "%04x ffffffff 0 STG.E 2 R4 R2 4 1 0x%x 4" % (pc, base)
    if k == 2: return "%04x ffffffff 1 R3 IMAD 2 R2 R3 0" % pc
    if k == 3: return "%04x 0000ffff 1 R2 LDG.E.64 1 R4 8 0 %s" % (pc, " ".join("0x%x" % (base + 8 * l) for l in range(16)))
    return "%04x ffffffff 1 R5 FFMA 3 R1 R2 R3 0" % pc
raw = open(os.path.join(OUT, "kernel-1.trace"), "w")
raw.write(hdr)
blocks = {}
live = []
nb = 0
while nb < GX or live:
    while nb < GX and len(live) < 64:  # 64 resident blocks, their warps interleaved
        live.append([nb, [0] * WARPS]); nb += 1
    j = random.randrange(len(live))
    b, pos = live[j]
    w = random.randrange(WARPS)
    if pos[w] < N:
        line = body(b, w, pos[w]); pos[w] += 1
        raw.write("%d 0 0 %d %s\n" % (b, w, line))
        blocks.setdefault(b, [[] for _ in range(WARPS)])[w].append(line)
    if all(p == N for p in pos): live.pop(j)
raw.close()
with open(os.path.join(OUT, "kernel-1.traceg"), "w") as g:
    g.write(hdr)
    for b in sorted(blocks):
        g.write("\n#BEGIN_TB\n\nthread block = %d,0,0\n" % b)
        for w, ls in enumerate(blocks[b]):
            g.write("\nwarp = %d\ninsts = %d\n" % (w, len(ls)))
            g.write("".join(l + "\n" for l in ls))
        g.write("\n#END_TB\n")
