#pragma once
/// Reads measured counters from three CSV layouts:
///  - Nsight Compute's raw page (`ncu --csv --page raw --print-units base`): a header row that
///    starts with "ID", an optional units row, one row per kernel launch, one column per metric;
///    program output and ==PROF== lines may come before the header (ncu mixes them in);
///  - Nsight Compute's long layout (default page: "Metric Name","Metric Unit","Metric Value"
///    columns, one row per metric);
///  - the ground-truth file tests/groundtruth/h200_counters.csv (`kernel_id,name,metric...`).
/// Values are in base units; thousands separators are dropped, and a units row with a scaled
/// byte unit (Kbyte, Mbyte, Gbyte) is converted back to bytes.

#include <map>
#include <string>
#include <vector>

namespace gms {

enum class MeasuredLayout { NcuRaw, NcuLong, Groundtruth };

/// One profiled kernel launch.
struct MeasuredKernel {
  std::string id;    ///< ncu's launch ID, or the ground-truth kernel_id
  std::string name;  ///< "Kernel Name" (as ncu prints it) or the ground-truth name
  std::map<std::string, double> metrics;  ///< metric -> value in base units; absent = not reported
  int line = 0;                           ///< line of the file where the launch starts
};

struct MeasuredTable {
  MeasuredLayout layout = MeasuredLayout::NcuRaw;
  std::vector<MeasuredKernel> kernels;  ///< in file order
};

/// Parses CSV text read from `origin`; throws SimError naming it and the line.
MeasuredTable parse_measured_csv(const std::string& text, const std::string& origin);

/// Reads and parses a file.
MeasuredTable read_measured_csv(const std::string& path);

/// The layout's name for messages: "ncu raw", "ncu long", "groundtruth".
const char* layout_name(MeasuredLayout layout);

}  // namespace gms
