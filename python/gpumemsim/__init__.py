"""gpumemsim from Python: replay traces, build them from numpy arrays, sweep configurations.

    import gpumemsim, numpy as np
    b = gpumemsim.TraceBuilder()
    b.kernel(id=0, name="copy", grid=1, block=32)
    b.add(inst=0, op="LDG", size=4, cta=0, warp=0, mask=0xFFFFFFFF,
          addrs=0x1000 + 4 * np.arange(32, dtype=np.uint64))
    r = gpumemsim.run(b, config="volta-v100")
    r.kernels[0]["totals"]["global_load"]["sectors"]      # the JSON report's kernels list
    r.to_pandas("instruction")                            # the CSV report as a DataFrame

Results are the program's own reports (`gpumemsim run --format json` and `--format csv`), so
every key and value is the same as there. Errors raise gpumemsim.Error with the message the
program prints. Replays release the GIL: runs in several Python threads proceed in parallel.
"""

import io
import json
import os
import sys

from . import _paths

try:
    from . import _gpumemsim
except ImportError as e:  # most often: built for another interpreter (another Python version)
    import glob
    import importlib.machinery

    _here = os.path.dirname(os.path.abspath(__file__))
    _found = sorted(os.path.basename(p) for p in glob.glob(os.path.join(_here, "_gpumemsim*")))
    raise ImportError(
        f"gpumemsim: cannot load its native module: this interpreter looks for "
        f"_gpumemsim{importlib.machinery.EXTENSION_SUFFIXES[0]} in {_here}, which holds "
        f"{', '.join(_found) or 'no _gpumemsim module'} ({e}). It was built for "
        f"{_paths.PYTHON} (Python {_paths.PYTHON_VERSION}); this is {sys.executable} (Python "
        f"{sys.version_info.major}.{sys.version_info.minor}). Build it for this interpreter: "
        f"cmake -S . -B build -DPython3_EXECUTABLE={sys.executable} && cmake --build build"
    ) from e

Error = _gpumemsim.Error


def _need(package, what):
    """numpy or pandas, imported when a feature that needs it is used (the rest works without
    them); a missing one raises an ImportError that says which feature and which interpreter."""
    try:
        return __import__(package)
    except ImportError as e:
        raise ImportError(
            f"gpumemsim: {what} needs {package}, which {sys.executable} cannot import ({e}); "
            f"install {package} for this interpreter, or use {_paths.PYTHON}, the one the module "
            f"was built for (Debian's python3-{package})") from e

__all__ = ["Error", "Result", "TraceBuilder", "explain", "presets", "run", "sweep"]


def _strings(value, what):
    """None, one string (or path) or a list of them, as a list of str."""
    if value is None:
        return []
    if isinstance(value, (str, os.PathLike)):
        return [os.fspath(value)]
    try:
        return [os.fspath(v) if isinstance(v, os.PathLike) else str(v) for v in value]
    except TypeError:
        raise TypeError(f"{what}: expected a string or a list of strings, got {value!r}") from None


def _items(value):
    """One value (an int, a numpy integer or 0-d array, a string) or a sequence of them, as a
    tuple: what numpy's atleast_1d made of it, without numpy."""
    if isinstance(value, (str, bytes)):
        return (value,)
    try:
        return tuple(value)
    except TypeError:
        return (value,)


def _sets(value):
    """--set overrides: a dict {"section.key": value} or "section.key=value" strings."""
    if isinstance(value, dict):
        return [f"{k}={_cell(v)}" for k, v in value.items()]
    return _strings(value, "set")


def _cell(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(str(x) for x in v)
    return str(v)


def _dirs():
    return _gpumemsim.preset_dirs(_paths.PRESET_DIRS)


def presets():
    """The presets `config=NAME` finds: a list of dicts (name, gpu, sources, assumptions, file),
    searched as the program searches (GPUMEMSIM_PRESETS replaces the folders)."""
    return _gpumemsim.presets(_dirs())


class Result:
    """One run: `.kernels` is the JSON report's kernels list; `.config` its configuration."""

    def __init__(self, native):
        self._native = native
        report = json.loads(native.print("json"))
        self.kernels = report["kernels"]
        self.config = report["config"]
        self.traces = report["traces"]

    def report(self, format="table"):
        """The report as the program prints it: table, csv, json or html."""
        return self._native.print(format)

    def to_pandas(self, level="kernel"):
        """A DataFrame: level="instruction" is the CSV report (one row per kernel and
        instruction, every statistic a column); level="kernel" is one row per kernel, the JSON
        kernel's fields flattened with dots (totals.global_load.sectors, totals.time.bound)."""
        pd = _need("pandas", "Result.to_pandas")

        if level == "instruction":
            return pd.read_csv(io.StringIO(self._native.print("csv")), comment="#")
        if level == "kernel":
            rows = [{k: v for k, v in kern.items() if k != "instructions"}
                    for kern in self.kernels]
            return pd.json_normalize(rows, sep=".")
        raise ValueError(f"to_pandas: level must be 'kernel' or 'instruction', not {level!r}")


class TraceBuilder:
    """A trace built in memory: kernel() starts a kernel, add() and add_many() append its
    records (checked as the wtrace reader checks them), alloc() names an array, save() writes
    .wtrace, .wtrace.zst or .gmt, and run() replays it directly."""

    def __init__(self):
        self._native = _gpumemsim.TraceBuilder()

    def kernel(self, id, name, grid, block, shmem=0, **params):
        def dim(v):
            v = _items(v)
            return ",".join(str(int(x)) for x in v + (1,) * (3 - len(v)))

        fields = [f"id={int(id)}", f"name={name}", f"grid={dim(grid)}", f"block={dim(block)}",
                  f"shmem={int(shmem)}"] + [f"{k}={_cell(v)}" for k, v in params.items()]
        self._native.kernel(" ".join(fields))
        return self

    def alloc(self, base, bytes, name=""):
        """Names a block of device memory (an array) before the next kernel, as a wtrace
        `#alloc` line does: explain's layout what-ifs group accesses by it."""
        self._native.alloc(int(base), int(bytes), str(name))
        return self

    def add(self, inst, op, size, cta, warp, mask, addrs, sm=None, instrs_before=0,
            waits_for_load=0):
        """One record: addrs holds the active lanes' addresses (popcount(mask) of them) or one
        per lane (32); sm=None when unknown; instrs_before: the warp's instructions since its
        previous record that are not records (wtrace's +N; the timed order's issue cycles);
        waits_for_load: K when it uses the data of its warp's K-th most recent load (^K)."""
        np = _need("numpy", "TraceBuilder.add")
        self._native.add(int(inst), str(op), int(size), int(cta), int(warp), int(mask),
                         np.asarray(addrs, dtype=np.uint64),
                         _gpumemsim.unknown_sm if sm is None else int(sm), int(instrs_before),
                         int(waits_for_load))
        return self

    def add_many(self, inst, op, size, cta, warp, mask, addrs, sm=None, instrs_before=0,
                 waits_for_load=0):
        """n records at once: addrs is an (n, 32) array (inactive lanes ignored); every other
        argument is a length-n array or one value for all."""
        np = _need("numpy", "TraceBuilder.add_many")
        addrs = np.ascontiguousarray(addrs, dtype=np.uint64)
        if addrs.ndim != 2:
            raise ValueError(f"add_many: addrs must have shape (n, 32), not {addrs.shape}")
        n = addrs.shape[0]

        def column(v, dtype=np.uint32):
            return np.ascontiguousarray(np.broadcast_to(np.asarray(v), (n,)), dtype=dtype)

        ops = [str(op)] * n if isinstance(op, str) else [str(o) for o in op]
        sms = column(_gpumemsim.unknown_sm if sm is None else sm)
        self._native.add_many(column(inst), ops, column(size), column(cta), column(warp),
                              column(mask), addrs, sms, column(instrs_before),
                              column(waits_for_load))
        return self

    def save(self, path):
        self._native.save(os.fspath(path))

    @property
    def records(self):
        return self._native.records


def run(traces, config=None, set=None, mode="cold", kernels=None, threads=None, order="file"):
    """Replays `traces` (a path, a list of paths, or a TraceBuilder) as `gpumemsim run` does.
    config: preset names or .ini files applied in order over the built-in hopper-h200; set: a
    dict {"section.key": value} or "section.key=value" strings; mode: cold, cached or both;
    kernels: replay only these ids; threads: the replay's threads (None, the default: the
    program chooses, as `gpumemsim run` does; 1: the calling thread only), the results are the same for any number;
    order: file, lockstep or timed, as `gpumemsim run --order` (docs/timing.md)."""
    builder = traces._native if isinstance(traces, TraceBuilder) else None
    paths = [] if builder is not None else _strings(traces, "traces")
    ids = [] if kernels is None else [int(k) for k in _items(kernels)]
    return Result(_gpumemsim.run(paths, builder, _strings(config, "config"), _sets(set), _dirs(),
                                 mode, ids, threads, order))


def explain(traces, config=None, set=None, mode="cached", kernels=None, top=5, jobs=0,
            format=None, layouts=None, suggest_layouts=True):
    """`gpumemsim explain` as a DataFrame: one row per candidate and mode, ranked by the kernel
    time the change saves: an instruction made ideal (kind "instruction") or an array's layout
    changed for every instruction (kind "layout": the --layout specs in `layouts`, and those
    the diagnosis suggests unless suggest_layouts=False). The CSV columns: kind, layout,
    instructions_touched, pattern, reading, sectors_before/after, conflicts_before/after,
    dram_bytes_before/after, time_ns_before/after, saved_ns, ... traces: paths or a
    TraceBuilder (saved to a temporary .gmt, since the what-ifs read it several times; to
    .wtrace.zst where it names arrays with alloc(), which .gmt cannot keep).
    format="table", "json" or "html" returns that text instead."""
    import tempfile

    ids = [] if kernels is None else [int(k) for k in _items(kernels)]
    with tempfile.TemporaryDirectory() as tmp:
        if isinstance(traces, TraceBuilder):
            # .gmt has no allocation record: a builder that names arrays goes to wtrace.
            ext = ".wtrace.zst" if traces._native.allocations else ".gmt"
            path = os.path.join(tmp, "builder" + ext)
            traces.save(path)
            paths = [path]
        else:
            paths = _strings(traces, "traces")
        text = _gpumemsim.explain(paths, _strings(config, "config"), _sets(set), _dirs(), mode,
                                  ids, int(top), int(jobs), format or "csv",
                                  _strings(layouts, "layouts"), bool(suggest_layouts))
    if format is not None:
        return text
    pd = _need("pandas", "explain")
    return pd.read_csv(io.StringIO(text), comment="#")


def sweep(traces, vary=None, config=None, set=None, mode="cold", per_instruction=False, jobs=0):
    """`gpumemsim sweep` as a DataFrame: every trace under the cross product of `vary`
    ({"key": [values]}, or "key=v1,v2" strings; "preset" varies presets), a row per trace x
    configuration x kernel (x instruction), the varied values in cfg.KEY columns."""
    pd = _need("pandas", "sweep")

    if isinstance(vary, dict):
        axes = [f"{k}=" + (";" if any("," in _cell(v) for v in vals) else ",").join(
            _cell(v) for v in vals) for k, vals in vary.items()]
    else:
        axes = _strings(vary, "vary")
    csv = _gpumemsim.sweep(_strings(traces, "traces"), axes, _strings(config, "config"),
                           _sets(set), _dirs(), mode, bool(per_instruction), int(jobs))
    return pd.read_csv(io.StringIO(csv), comment="#")
