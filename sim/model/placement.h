#pragma once
/// Where a kernel's CTAs run and how much L1 they leave: resident CTAs per SM, the shared-memory
/// carve-out the driver would choose, and the SM of a record whose trace has no SM id.

#include <cstdint>

#include "sim/config/config.h"
#include "sim/core/records.h"
#include "sim/model/address_map.h"

namespace gms {

struct KernelPlacement {
  std::uint32_t resident_ctas_per_sm = 1;
  std::uint32_t carveout_kb = 0;  ///< shared memory carved out of the unified array
  std::uint64_t l1_bytes = 0;     ///< L1 capacity left per SM
  bool carveout_from_trace = false;
};

/// An unsigned `#kernel` parameter `name` into `out`, when the line has it; throws SimError
/// naming the kernel and key when its value is not an unsigned integer.
bool kernel_param(const KernelInfo& kernel, const char* name, std::uint32_t& out);

/// Resident CTAs per SM = the smallest of the CTA, thread, register (when the trace gives
/// `regs`) and shared-memory limits; carve-out = the smallest supported size holding the
/// resident CTAs' shared memory (plus the per-CTA reservation), unless the `#kernel` line records
/// the launch's: `carveout_pct` (the smallest supported size holding that share of the largest
/// and one CTA) or exactly `carveout_kb`; a recorded carve-out then limits the resident CTAs to
/// those whose shared memory fits it. L1 = the unified array minus the carve-out (or
/// l1.size_kb for a separate L1). Throws SimError when one CTA cannot fit an SM.
KernelPlacement place_kernel(const KernelInfo& kernel, const SimConfig& cfg);

/// The SM of a record: the trace's SM id when it has one (modulo gpu.sm_count, so traces from a
/// bigger GPU replay on a smaller one), else CTA c runs on SM c mod sm_count: the hardware's
/// round-robin dispatch, wave after wave. `sms` divides by gpu.sm_count (a hardware divide per
/// record was 7% of a cold run).
inline std::uint32_t sm_of(const WarpInstr& w, const FastDiv32& sms) {
  return sms.mod(w.sm != kUnknownSm ? w.sm : w.cta);
}

}  // namespace gms
