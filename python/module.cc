// The gpumemsim Python module's native part (_gpumemsim): runs, sweeps, presets and the trace
// builder over the same library the program uses. python/gpumemsim/__init__.py wraps it: the
// reports come back as the program's own JSON and CSV text (sim/report), which the wrapper turns
// into Python lists and pandas DataFrames. Replays release the GIL.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <optional>
#include <sstream>

#include "python/trace_builder.h"
#include "sim/core/error.h"
#include "sim/diagnosis/explain.h"
#include "sim/replay/simulator.h"
#include "sim/report/report.h"
#include "tools/study/presets.h"
#include "tools/study/sweep.h"
#include "trace/import/formats.h"

namespace py = pybind11;

namespace gms::python {

namespace {

/// One run's results, printed on demand by the report code.
struct Result {
  RunReport report;
  std::string print(const std::string& format) const {
    std::ostringstream out;
    print_report(out, report, parse_report_format(format));
    return out.str();
  }
};

std::vector<std::string> resolve(const std::vector<std::string>& configs,
                                 const std::vector<std::string>& dirs) {
  std::vector<std::string> files;
  for (const std::string& c : configs) files.push_back(find_preset(c, dirs));
  return files;
}

Result run(const std::vector<std::string>& traces, const TraceBuilder* builder,
           const std::vector<std::string>& configs, const std::vector<std::string>& sets,
           const std::vector<std::string>& dirs, const std::string& mode,
           const std::vector<std::uint32_t>& kernels, std::optional<unsigned> threads,
           const std::string& order) {
  Result r;
  r.report.config = load_config({resolve(configs, dirs), sets});
  RunOptions opts;
  opts.mode = parse_sim_mode(mode);
  opts.order = parse_order(order, "run: order");
  opts.kernel_ids = kernels;
  // As `gpumemsim run --threads`: None lets the program choose (sim/replay/thread_choice.h);
  // 1 replays on the calling thread only.
  if (threads && *threads == 0) fail("run: threads=0 (at least 1; None lets the program choose)");
  opts.threads = threads ? *threads : 0;
  if (opts.threads == 1) opts.read_ahead = false;
  {
    py::gil_scoped_release release;
    if (builder != nullptr) {
      r.report.traces = {"TraceBuilder"};
      auto reader = builder->reader();
      r.report.kernels = simulate(*reader, r.report.config, opts);
    } else {
      r.report.traces = traces;
      r.report.kernels = simulate(traces, r.report.config, opts);
    }
  }
  for (std::uint32_t id : kernels)
    if (std::none_of(r.report.kernels.begin(), r.report.kernels.end(),
                     [id](const KernelStats& k) { return k.kernel.id == id; }))
      fail("run: kernel id {} is not in the given traces", id);
  return r;
}

std::string sweep(const std::vector<std::string>& traces, const std::vector<std::string>& vary,
                  const std::vector<std::string>& configs, const std::vector<std::string>& sets,
                  const std::vector<std::string>& dirs, const std::string& mode,
                  bool per_instruction, unsigned jobs) {
  SweepSpec spec;
  spec.traces = traces;
  spec.preset_dirs = dirs;
  spec.base = {resolve(configs, dirs), sets};
  for (const std::string& v : vary) spec.axes.push_back(parse_sweep_axis(v));
  spec.mode = parse_sim_mode(mode);
  spec.per_instruction = per_instruction;
  py::gil_scoped_release release;
  return run_sweep_csv(spec, {}, jobs);
}

/// `gpumemsim explain` printed in `format` (the wrapper reads the CSV into a DataFrame).
std::string explain_text(const std::vector<std::string>& traces,
                         const std::vector<std::string>& configs,
                         const std::vector<std::string>& sets, const std::vector<std::string>& dirs,
                         const std::string& mode, const std::vector<std::uint32_t>& kernels,
                         std::size_t top, unsigned jobs, const std::string& format,
                         const std::vector<std::string>& layouts, bool suggest_layouts) {
  const SimConfig cfg = load_config({resolve(configs, dirs), sets});
  RunOptions opts;
  opts.mode = parse_sim_mode(mode);
  opts.kernel_ids = kernels;
  ExplainOptions eo;
  eo.top = top;
  eo.jobs = jobs;
  eo.layouts = layouts;
  eo.suggest_layouts = suggest_layouts;
  const ReportFormat f = parse_report_format(format);
  std::ostringstream out;
  {
    py::gil_scoped_release release;
    print_explain(out, explain(traces, cfg, opts, eo), f);
  }
  return out.str();
}

/// Addresses of one record from a 1-D array (active lanes, or 32).
std::span<const Addr> lanes(const py::array_t<Addr, py::array::c_style | py::array::forcecast>& a) {
  if (a.ndim() != 1)
    fail("TraceBuilder.add(): addrs must be a 1-D array (got {} dimensions)", a.ndim());
  return {a.data(), static_cast<std::size_t>(a.shape(0))};
}

template <class T>
using Column = py::array_t<T, py::array::c_style | py::array::forcecast>;

/// add_many: one record per row; every column has n entries (a scalar is broadcast by the
/// wrapper), addrs is n x 32 (one address per lane, inactive lanes ignored).
void add_many(TraceBuilder& b, const Column<std::uint32_t>& inst,
              const std::vector<std::string>& ops, const Column<std::uint32_t>& size,
              const Column<std::uint32_t>& cta, const Column<std::uint32_t>& warp,
              const Column<std::uint32_t>& mask, const Column<Addr>& addrs,
              const Column<std::uint32_t>& sm, const Column<std::uint32_t>& instrs_before,
              const Column<std::uint32_t>& waits_for_load) {
  const auto n = static_cast<std::size_t>(inst.size());
  for (const py::ssize_t s : {size.size(), cta.size(), warp.size(), mask.size(), sm.size(),
                              instrs_before.size(), waits_for_load.size()})
    if (static_cast<std::size_t>(s) != n)
      fail("TraceBuilder.add_many(): columns of different lengths ({} and {})", n, s);
  if (ops.size() != n) fail("TraceBuilder.add_many(): {} ops for {} records", ops.size(), n);
  if (addrs.ndim() != 2 || static_cast<std::size_t>(addrs.shape(0)) != n ||
      addrs.shape(1) != kWarpSize)
    fail("TraceBuilder.add_many(): addrs must be an array of shape ({}, 32)", n);
  const Addr* a = addrs.data();
  for (std::size_t i = 0; i < n; ++i)
    b.add(inst.data()[i], ops[i], size.data()[i], cta.data()[i], warp.data()[i], mask.data()[i],
          {a + i * kWarpSize, static_cast<std::size_t>(kWarpSize)}, sm.data()[i],
          instrs_before.data()[i], waits_for_load.data()[i]);
}

}  // namespace

}  // namespace gms::python

PYBIND11_MODULE(_gpumemsim, m) {
  using namespace gms;
  using namespace gms::python;
  m.doc() = "gpumemsim's native part; use the gpumemsim package";
  py::register_exception<SimError>(m, "Error", PyExc_RuntimeError);
  m.attr("unknown_sm") = kUnknownSm;

  py::class_<Result>(m, "Result").def("print", &Result::print, py::arg("format"));

  py::class_<TraceBuilder>(m, "TraceBuilder")
      .def(py::init<>())
      .def("kernel", &TraceBuilder::kernel, py::arg("line"))
      .def(
          "add",
          [](TraceBuilder& b, std::uint32_t inst, const std::string& op, unsigned size,
             std::uint32_t cta, std::uint32_t warp, std::uint32_t mask,
             const py::array_t<Addr, py::array::c_style | py::array::forcecast>& addrs,
             std::uint32_t sm, std::uint32_t instrs_before, std::uint32_t waits_for_load) {
            b.add(inst, op, size, cta, warp, mask, lanes(addrs), sm, instrs_before, waits_for_load);
          },
          py::arg("inst"), py::arg("op"), py::arg("size"), py::arg("cta"), py::arg("warp"),
          py::arg("mask"), py::arg("addrs"), py::arg("sm"), py::arg("instrs_before"),
          py::arg("waits_for_load"))
      .def("add_many", &add_many)
      .def("save", &TraceBuilder::save, py::arg("path"))
      .def("alloc", &TraceBuilder::alloc, py::arg("base"), py::arg("bytes"), py::arg("name"))
      .def_property_readonly("allocations", &TraceBuilder::allocations)
      .def_property_readonly("kernels", &TraceBuilder::kernels)
      .def_property_readonly("records", &TraceBuilder::records);

  m.def("run", &run, py::arg("traces"), py::arg("builder"), py::arg("configs"), py::arg("sets"),
        py::arg("dirs"), py::arg("mode"), py::arg("kernels"), py::arg("threads"), py::arg("order"));
  m.def("sweep", &sweep, py::arg("traces"), py::arg("vary"), py::arg("configs"), py::arg("sets"),
        py::arg("dirs"), py::arg("mode"), py::arg("per_instruction"), py::arg("jobs"));
  m.def("explain", &explain_text, py::arg("traces"), py::arg("configs"), py::arg("sets"),
        py::arg("dirs"), py::arg("mode"), py::arg("kernels"), py::arg("top"), py::arg("jobs"),
        py::arg("format"), py::arg("layouts"), py::arg("suggest_layouts"));
  m.def("preset_dirs", &preset_dirs, py::arg("own"));
  m.def("presets", [](const std::vector<std::string>& dirs) {
    py::list out;
    for (const PresetInfo& p : list_presets(dirs)) {
      py::dict d;
      d["name"] = p.name;
      d["gpu"] = p.gpu;
      d["sources"] = p.sources;
      d["assumptions"] = p.assumptions;
      d["file"] = p.file;
      out.append(d);
    }
    return out;
  });
}
