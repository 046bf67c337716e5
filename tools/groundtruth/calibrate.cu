/// gms_calibrate: runs the calibration kernels on an NVIDIA GPU.
///
///   gms_calibrate --list                       id,name of every kernel, in launch order
///   gms_calibrate --capture DIR [--only IDS] [--loads-in-flight TABLE]
///                                              run each kernel with the capture on; write
///                                              DIR/<id>-<name>.wtrace.zst, or
///                                              DIR/<id>-<name>.recipe when the compressed trace
///                                              would pass 1 MiB, and DIR/captures.csv; compare
///                                              every trace with the host model (kernel_model.h);
///                                              exit 1 on a mismatch. TABLE (gms_sass_loads'
///                                              CSV of this binary's SASS) puts each kernel's
///                                              loads_in_flight on its #kernel line
///   gms_calibrate --plain [--only IDS] [--latency FILE]
///                                              run each kernel once without capture (for ncu);
///                                              with --latency, write the pointer chase (id 110)
///                                              results as CSV
///
/// IDS is a comma-separated list of kernel ids. Traces are written sorted by (cta, warp,
/// program order), not in execution order (tools/capture/wtrace_host.h).

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tools/capture/capture.cuh"
#include "tools/capture/sha256.h"
#include "tools/capture/trace_output.h"
#include "tools/groundtruth/calibrate_kernels.cuh"
#include "tools/groundtruth/kernel_model.h"
#include "tools/groundtruth/loads_table.h"

namespace gt = gms::groundtruth;
namespace cap = gms::capture;

namespace {

constexpr std::size_t kMaxStoredTraceBytes = std::size_t{1} << 20;

/// Device buffers shared by all kernels (the stream arrays are 256 MiB each).
struct Buffers {
  float* pattern = nullptr;
  float* a = nullptr;
  float* b = nullptr;
  float* c = nullptr;
  float* sink = nullptr;
  char* chase = nullptr;
  std::uint64_t* info = nullptr;
};

void check(cudaError_t e, const char* what) {
  cap::check_cuda(e, what);
}

Buffers allocate(bool need_chase) {
  Buffers b;
  const std::size_t stream_bytes = gt::kStreamElems * sizeof(float);
  check(cudaMalloc(&b.pattern, gt::kPatternBufferBytes), "cudaMalloc(pattern)");
  check(cudaMalloc(&b.a, stream_bytes), "cudaMalloc(a)");
  check(cudaMalloc(&b.b, stream_bytes), "cudaMalloc(b)");
  check(cudaMalloc(&b.c, stream_bytes), "cudaMalloc(c)");
  check(cudaMalloc(&b.sink, gt::kStreamThreads * sizeof(float)), "cudaMalloc(sink)");
  check(cudaMalloc(&b.info, 4096), "cudaMalloc(info)");
  check(cudaMemset(b.pattern, 0, gt::kPatternBufferBytes), "cudaMemset");
  check(cudaMemset(b.a, 0, stream_bytes), "cudaMemset");
  check(cudaMemset(b.b, 0, stream_bytes), "cudaMemset");
  check(cudaMemset(b.c, 0, stream_bytes), "cudaMemset");
  check(cudaMemset(b.info, 0, 4096), "cudaMemset");
  if (need_chase) {
    check(cudaMalloc(&b.chase, gt::kChaseBufferBytes), "cudaMalloc(chase)");
    // Line i of region f holds the address of line ring[i] (kernel_model.h chase_ring).
    for (int f = 0; f < gt::kChaseFootprints; ++f) {
      const std::uint64_t bytes = gt::chase_footprint_bytes(f);
      const std::uint64_t nodes = bytes / gt::kChaseLineBytes;
      const auto region = reinterpret_cast<std::uint64_t>(b.chase) + gt::chase_region_offset(f);
      const std::vector<std::uint32_t> ring = gt::chase_ring(nodes);
      std::vector<std::uint64_t> host(bytes / 8, 0);
      for (std::uint64_t i = 0; i < nodes; ++i)
        host[i * (gt::kChaseLineBytes / 8)] = region + std::uint64_t{ring[i]} * gt::kChaseLineBytes;
      check(cudaMemcpy(reinterpret_cast<void*>(region), host.data(), bytes, cudaMemcpyHostToDevice),
            "cudaMemcpy(ring)");
    }
  }
  return b;
}

/// Kernel arguments and the model's base addresses of one kernel.
gt::KernelArgs args_for(const gt::KernelSpec& s, const Buffers& b,
                        std::vector<std::uint64_t>& bases) {
  gt::KernelArgs a;
  a.sink = b.sink;
  a.info = b.info;
  auto addr = [](const void* p) { return reinterpret_cast<std::uint64_t>(p); };
  switch (s.family) {
    case gt::Family::Pattern:
      a.in = b.pattern;
      bases = {addr(b.pattern)};
      break;
    case gt::Family::SharedBank:
      bases = {0};
      break;  // filled from info[0] after the run
    case gt::Family::StreamLoad:
    case gt::Family::Reuse:
    case gt::Family::Window:
      a.in = b.a;
      bases = {addr(b.a)};
      break;
    case gt::Family::StreamStore:
      a.out = b.a;
      bases = {addr(b.a)};
      break;
    case gt::Family::AddStream:
      a.in = b.a;
      a.in2 = b.b;
      a.out = b.c;
      bases = {addr(b.a), addr(b.b), addr(b.c)};
      break;
    case gt::Family::Copy:
      a.in = b.a;
      a.out = b.b;
      bases = {addr(b.a), addr(b.b)};
      break;
    case gt::Family::Chase:
      a.in = reinterpret_cast<const float*>(b.chase);
      bases = {addr(b.chase), addr(b.info)};
      break;
  }
  return a;
}

struct Launch {
  const void* fn;
  std::size_t dyn_smem;
  int carveout_pct;  // -1: not set
};

template <bool C>
Launch prepare(const gt::KernelSpec& s) {
  const char* name = nullptr;
  const void* fn = gt::kernel_function<C>(s.id, &name);
  if (fn == nullptr || s.name != name)
    throw std::runtime_error("kernel table and model disagree on id " + std::to_string(s.id));
  Launch l{fn, 0, -1};
  if (s.family == gt::Family::Window) {
    l.dyn_smem = gt::window_dynamic_smem(s.id);
    l.carveout_pct = gt::window_carveout_pct(s.id);
    check(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(l.dyn_smem)),
          "cudaFuncSetAttribute(max dynamic smem)");
    check(cudaFuncSetAttribute(fn, cudaFuncAttributePreferredSharedMemoryCarveout, l.carveout_pct),
          "cudaFuncSetAttribute(carveout)");
  }
  return l;
}

void launch(const gt::KernelSpec& s, const Launch& l, gt::KernelArgs a) {
  void* params[] = {&a};
  check(cudaLaunchKernel(l.fn, dim3(s.grid), dim3(s.block), params, l.dyn_smem, nullptr),
        "cudaLaunchKernel");
  check(cudaDeviceSynchronize(), s.name.data());
}

std::string arch_name() {
  int dev = 0;
  cudaDeviceProp p{};
  check(cudaGetDevice(&dev), "cudaGetDevice");
  check(cudaGetDeviceProperties(&p, dev), "cudaGetDeviceProperties");
  return "sm_" + std::to_string(p.major * 10 + p.minor);
}

/// Captures one kernel; returns false when the GPU's trace differs from the model.
bool capture_one(const gt::KernelSpec& s, const Buffers& b, const std::string& dir,
                 std::ofstream& summary, const std::map<int, std::uint32_t>& loads_in_flight) {
  std::vector<std::uint64_t> bases;
  gt::KernelArgs a = args_for(s, b, bases);
  const std::uint64_t expected = gt::record_count(s);
  cap::Capture capture(expected + 1);
  a.cap = capture.device();
  const Launch l = prepare<true>(s);
  launch(s, l, a);
  std::vector<cap::CaptureRecord> recs = capture.download();
  if (s.family == gt::Family::SharedBank)
    check(cudaMemcpy(&bases[0], b.info, 8, cudaMemcpyDeviceToHost), "cudaMemcpy(info)");
  cap::sort_records(recs);

  // The SM of every CTA (all warps of a CTA run on one SM).
  std::vector<std::uint32_t> sm_of_cta(s.grid, cap::kUnknownSm);
  bool sm_consistent = true;
  for (const auto& r : recs) {
    if (r.cta >= s.grid) continue;
    if (sm_of_cta[r.cta] == cap::kUnknownSm)
      sm_of_cta[r.cta] = r.sm;
    else if (sm_of_cta[r.cta] != r.sm)
      sm_consistent = false;
  }

  // The #kernel line: shared memory and registers of the uninstrumented kernel.
  const Launch plain = prepare<false>(s);
  cudaFuncAttributes attr{};
  check(cudaFuncGetAttributes(&attr, plain.fn), "cudaFuncGetAttributes");
  cap::KernelHeader h = gt::kernel_header(s, bases);
  h.shmem_bytes = attr.sharedSizeBytes + l.dyn_smem;
  h.arch = arch_name();
  h.extra.emplace_back("regs", std::to_string(attr.numRegs));
  if (l.carveout_pct >= 0) {
    h.extra.emplace_back("carveout_pct", std::to_string(l.carveout_pct));
    h.extra.emplace_back("dynamic_smem", std::to_string(l.dyn_smem));
  }
  // The plain kernel's loads in flight per warp, read from its SASS (gms_sass_loads): the
  // time model's memory-level parallelism for this kernel instead of the preset's default.
  if (const auto it = loads_in_flight.find(s.id); it != loads_in_flight.end())
    h.extra.emplace_back("loads_in_flight", std::to_string(it->second));
  const std::string kline = cap::kernel_line(h);

  cap::TraceOutput out(kMaxStoredTraceBytes, 12);
  cap::Sha256 model_sha;
  out.append(cap::wtrace_magic());
  out.append(kline);
  model_sha.update(cap::wtrace_magic());
  model_sha.update(kline);
  std::string chunk, model_line, got_line;
  std::uint64_t index = 0, mismatches = 0;
  gt::generate_records(s, bases, sm_of_cta, [&](const cap::CaptureRecord& m) {
    model_line.clear();
    cap::append_record_line(m, model_line);
    model_sha.update(model_line);
    got_line.clear();
    if (index < recs.size()) cap::append_record_line(recs[index], got_line);
    if (got_line != model_line && ++mismatches <= 5)
      std::fprintf(stderr, "id %d record %llu:\n  gpu:   %s  model: %s", s.id,
                   static_cast<unsigned long long>(index), got_line.c_str(), model_line.c_str());
    ++index;
  });
  for (const auto& r : recs) {
    cap::append_record_line(r, chunk);
    if (chunk.size() > (1u << 22)) {
      out.append(chunk);
      chunk.clear();
    }
  }
  out.append(chunk);
  out.finish();
  const std::string model_hash = model_sha.hex_digest();
  const bool match =
      mismatches == 0 && recs.size() == expected && sm_consistent && model_hash == out.sha256();

  const std::string stem = std::to_string(s.id) + "-" + std::string(s.name);
  std::string stored;
  if (out.fits()) {
    cap::write_file(dir + "/" + stem + ".wtrace.zst", out.compressed());
    stored = "zst";
  } else {
    std::string sms;
    for (std::size_t i = 0; i < sm_of_cta.size(); ++i)
      sms += (i ? "," : "") +
             (sm_of_cta[i] == cap::kUnknownSm ? std::string("-") : std::to_string(sm_of_cta[i]));
    std::ostringstream r;
    r << "# gms groundtruth recipe: the captured trace of kernel " << s.id
      << " was too large to store.\n"
      << "# Regenerate it with: gms_gt_recipe " << stem << ".recipe > " << stem << ".wtrace\n"
      << "kernel_line=" << kline.substr(0, kline.size() - 1) << "\n"
      << "sm_of_cta=" << sms << "\n"
      << "records=" << recs.size() << "\n"
      << "text_bytes=" << out.text_bytes() << "\n"
      << "sha256=" << out.sha256() << "\n";
    if (!match) r << "sha256_model=" << model_hash << "\n";
    cap::write_file(dir + "/" + stem + ".recipe", r.str());
    stored = "recipe";
  }
  summary << s.id << "," << s.name << "," << recs.size() << "," << out.text_bytes() << ","
          << out.sha256() << "," << stored << "," << (match ? "yes" : "NO") << "\n";
  std::fprintf(stderr, "captured %-4d %-12s %10zu records %12llu text bytes  %s  %s\n", s.id,
               s.name.data(), recs.size(), static_cast<unsigned long long>(out.text_bytes()),
               stored.c_str(), match ? "matches the model" : "DIFFERS FROM THE MODEL");
  if (!match)
    std::fprintf(stderr, "  %llu differing records, %zu records for %llu expected%s\n",
                 static_cast<unsigned long long>(mismatches), recs.size(),
                 static_cast<unsigned long long>(expected),
                 sm_consistent ? "" : ", warps of one CTA on different SMs");
  return match;
}

void plain_one(const gt::KernelSpec& s, const Buffers& b, const std::string& latency_path) {
  std::vector<std::uint64_t> bases;
  const gt::KernelArgs a = args_for(s, b, bases);
  const Launch l = prepare<false>(s);
  launch(s, l, a);
  if (s.family == gt::Family::Chase && !latency_path.empty()) {
    std::vector<std::uint64_t> res(2 * gt::kChaseFootprints);
    check(cudaMemcpy(res.data(), b.info, res.size() * 8, cudaMemcpyDeviceToHost),
          "cudaMemcpy(results)");
    std::ofstream f(latency_path);
    f << "footprint_bytes,steps,cycles,ns,cycles_per_load,ns_per_load\n";
    for (int i = 0; i < gt::kChaseFootprints; ++i) {
      const double cyc = static_cast<double>(res[2 * i]);
      const double ns = static_cast<double>(res[2 * i + 1]);
      f << gt::chase_footprint_bytes(i) << "," << gt::kChaseSteps << "," << res[2 * i] << ","
        << res[2 * i + 1] << "," << cyc / gt::kChaseSteps << "," << ns / gt::kChaseSteps << "\n";
    }
    if (!f) throw std::runtime_error("cannot write " + latency_path);
  }
}

std::set<int> parse_ids(const std::string& list) {
  std::set<int> ids;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) ids.insert(std::stoi(item));
  return ids;
}

int usage() {
  std::fprintf(stderr,
               "usage: gms_calibrate --list | --capture DIR [--only IDS] [--loads-in-flight "
               "TABLE] | --plain [--only IDS] [--latency FILE]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode, dir, latency, loads_path;
  std::set<int> only;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(arg + " needs a value");
      return argv[++i];
    };
    try {
      if (arg == "--list" || arg == "--plain")
        mode = arg;
      else if (arg == "--capture")
        mode = arg, dir = value();
      else if (arg == "--only")
        only = parse_ids(value());
      else if (arg == "--latency")
        latency = value();
      else if (arg == "--loads-in-flight")
        loads_path = value();
      else
        return usage();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return usage();
    }
  }
  if (mode.empty()) return usage();
  std::vector<gt::KernelSpec> selected;
  for (const auto& s : gt::kernel_specs())
    if (only.empty() || only.count(s.id)) selected.push_back(s);
  if (mode == "--list") {
    for (const auto& s : selected) std::printf("%d,%s\n", s.id, s.name.data());
    return 0;
  }
  try {
    bool need_chase = false;
    for (const auto& s : selected) need_chase |= s.family == gt::Family::Chase;
    const Buffers b = allocate(need_chase);
    if (mode == "--plain") {
      for (const auto& s : selected) plain_one(s, b, latency);
      return 0;
    }
    std::map<int, std::uint32_t> loads_in_flight;
    if (!loads_path.empty()) {
      std::ifstream in(loads_path);
      if (!in) throw std::runtime_error("cannot read " + loads_path);
      loads_in_flight = gt::read_loads_table(in, loads_path, arch_name());
    }
    std::ofstream summary(dir + "/captures.csv");
    if (!summary) throw std::runtime_error("cannot write " + dir + "/captures.csv");
    summary << "kernel_id,name,records,text_bytes,sha256,stored,matches_model\n";
    bool all_match = true;
    for (const auto& s : selected) all_match &= capture_one(s, b, dir, summary, loads_in_flight);
    if (!all_match) {
      std::fprintf(stderr, "FAILED: some captured traces differ from the model\n");
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gms_calibrate: %s\n", e.what());
    return 1;
  }
}
