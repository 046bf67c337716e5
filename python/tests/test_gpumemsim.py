"""The Python module against the program: the same reports (JSON kernels, CSV rows), the same
traces written, the same error messages; the builder's checks; the GIL released in replays.
CTest runs this with PYTHONPATH=build/python, GMS_CLI (the program) and GMS_SOURCE_DIR."""

import io
import json
import os
import subprocess
import threading
import time

import numpy as np
import pandas as pd
import pytest

import gpumemsim

SRC = os.environ["GMS_SOURCE_DIR"]
CLI = os.environ["GMS_CLI"]
EXAMPLE = os.path.join(SRC, "tests/data/example_stream.wtrace")


def cli(*args, check=True):
    r = subprocess.run([CLI, *args], capture_output=True, text=True)
    if check:
        assert r.returncode == 0, r.stderr
    return r


def transpose_builder(n=64):
    """A naive transpose of an n x n float matrix: row reads (coalesced), column writes."""
    b = gpumemsim.TraceBuilder()
    b.kernel(id=1, name="transpose", grid=(n // 32, n), block=32, shmem=0, flops=0)
    lane = np.arange(32, dtype=np.uint64)
    rows = []
    for y in range(n):
        for bx in range(n // 32):
            x = bx * 32 + lane
            rows.append((0, "LDG", 0x10000000 + 4 * (y * n + x), y * (n // 32) + bx))
            rows.append((1, "STG", 0x20000000 + 4 * (x * n + y), y * (n // 32) + bx))
    for inst, op, addrs, cta in rows:
        b.add(inst=inst, op=op, size=4, cta=cta, warp=0, mask=0xFFFFFFFF, addrs=addrs)
    return b


def test_kernels_are_the_json_reports_kernels():
    r = gpumemsim.run(EXAMPLE, config="volta-v100", mode="both")
    want = json.loads(cli("run", EXAMPLE, "--config", "volta-v100", "--mode", "both",
                          "--format", "json").stdout)
    assert r.kernels == want["kernels"]
    assert r.config == want["config"]
    assert [k["mode"] for k in r.kernels] == ["cold", "cached"] * 5


def test_set_and_kernels_as_the_program_takes_them():
    r = gpumemsim.run([EXAMPLE], set={"coalescer.segment_bytes": 64}, kernels=[2, 4], threads=1)
    want = json.loads(cli("run", EXAMPLE, "--set", "coalescer.segment_bytes=64", "--kernel", "2",
                          "--kernel", "4",
                          "--format", "json").stdout)
    assert r.kernels == want["kernels"]
    assert [k["id"] for k in r.kernels] == [2, 4]


def test_threads_give_the_same_results():
    one = gpumemsim.run(EXAMPLE, mode="both", threads=1)
    for threads in (2, 3, None):
        assert gpumemsim.run(EXAMPLE, mode="both", threads=threads).kernels == one.kernels
    with pytest.raises(gpumemsim.Error, match="threads=0"):
        gpumemsim.run(EXAMPLE, threads=0)


def test_order_is_the_programs():
    for order in ("lockstep", "timed"):
        want = json.loads(cli("run", EXAMPLE, "--mode", "cached", "--order", order,
                              "--format", "json").stdout)
        got = gpumemsim.run(EXAMPLE, mode="cached", order=order)
        assert got.kernels == want["kernels"]
    assert "schedule" in got.kernels[0]["totals"]["time"]
    with pytest.raises(gpumemsim.Error, match="run: order 'soon': expected file, lockstep or timed"):
        gpumemsim.run(EXAMPLE, order="soon")


def test_instruction_frame_is_the_csv_report():
    r = gpumemsim.run(EXAMPLE, config="kepler-k40-ca", mode="cached")
    csv = cli("run", EXAMPLE, "--config", "kepler-k40-ca", "--mode", "cached",
              "--format", "csv").stdout
    want = pd.read_csv(io.StringIO(csv), comment="#")
    got = r.to_pandas("instruction")
    pd.testing.assert_frame_equal(got, want)
    assert len(got) > 0


def test_kernel_frame_has_one_row_per_kernel():
    r = gpumemsim.run(EXAMPLE, mode="both")
    df = r.to_pandas("kernel")
    assert list(df["mode"]) == [k["mode"] for k in r.kernels]
    assert list(df["totals.global_load.sectors"]) == [
        k["totals"]["global_load"]["sectors"] for k in r.kernels]
    assert "instructions" not in df.columns
    with pytest.raises(ValueError):
        r.to_pandas("warp")


@pytest.mark.parametrize("ext", [".wtrace", ".wtrace.zst", ".gmt"])
def test_builder_saves_what_it_replays(tmp_path, ext):
    b = transpose_builder()
    path = tmp_path / ("t" + ext)
    b.save(path)
    direct = gpumemsim.run(b, config="volta-v100")
    want = json.loads(cli("run", str(path), "--config", "volta-v100", "--format", "json").stdout)
    assert direct.kernels == want["kernels"]
    assert gpumemsim.run(str(path), config="volta-v100").kernels == want["kernels"]
    k = direct.kernels[0]
    assert k["grid"] == [2, 64, 1] and k["block"] == [32, 1, 1] and k["records"] == b.records


def test_add_many_writes_the_records_add_writes(tmp_path):
    one, many = gpumemsim.TraceBuilder(), gpumemsim.TraceBuilder()
    for b in (one, many):
        b.kernel(id=3, name="k", grid=4, block=(64, 1, 1))
    addrs = (np.arange(8, dtype=np.uint64)[:, None] * 4096 + 8 * np.arange(32, dtype=np.uint64))
    masks = np.array([0xFFFFFFFF, 0x0000FFFF, 1, 0x80000001] * 2, dtype=np.uint64)
    ops = ["LDG", "STG", "LDS", "ATOMG"] * 2
    for i in range(8):
        active = [addrs[i, lane] for lane in range(32) if int(masks[i]) >> lane & 1]
        one.add(inst=i % 4, op=ops[i], size=8, cta=i // 2, warp=i % 2, mask=int(masks[i]),
                addrs=np.array(active, dtype=np.uint64), sm=i, instrs_before=3 * (i % 3),
                waits_for_load=i % 2)
    many.add_many(inst=np.arange(8) % 4, op=ops, size=8, cta=np.arange(8) // 2,
                  warp=np.arange(8) % 2, mask=masks, addrs=addrs, sm=np.arange(8),
                  instrs_before=3 * (np.arange(8) % 3), waits_for_load=np.arange(8) % 2)
    one.save(tmp_path / "one.wtrace")
    many.save(tmp_path / "many.wtrace")
    assert (tmp_path / "one.wtrace").read_bytes() == (tmp_path / "many.wtrace").read_bytes()
    assert many.records == 8
    # instrs_before and waits_for_load are wtrace's +N and ^K fields (none where 0).
    lines = [l for l in (tmp_path / "one.wtrace").read_text().splitlines() if l[0] != "#"]
    assert [w for l in lines for w in l.split() if w[0] in "+^"] == [
        "+3", "^1", "+6", "^1", "+3", "+6", "^1", "+3", "^1"]


def test_errors_carry_the_programs_message(tmp_path, monkeypatch):
    # The same folders for both (the program's own differ from the module's).
    monkeypatch.setenv("GPUMEMSIM_PRESETS", os.path.join(SRC, "configs"))
    missing = str(tmp_path / "missing.wtrace")
    for args, kwargs in [((missing,), {}), ((EXAMPLE,), {"config": "no-such-gpu"}),
                         ((EXAMPLE,), {"set": ["coalescer.nope=1"]}),
                         ((EXAMPLE,), {"kernels": [99]})]:
        cmd = ["run", *args]
        if "config" in kwargs:
            cmd += ["--config", kwargs["config"]]
        for s in kwargs.get("set", []):
            cmd += ["--set", s]
        for k in kwargs.get("kernels", []):
            cmd += ["--kernel", str(k)]
        r = cli(*cmd, check=False)
        assert r.returncode == 1
        with pytest.raises(gpumemsim.Error) as e:
            gpumemsim.run(*args, **kwargs)
        assert r.stderr == f"gpumemsim: error: {e.value}\n"


def test_builder_checks_records_as_the_reader_does(tmp_path):
    b = gpumemsim.TraceBuilder()
    with pytest.raises(gpumemsim.Error, match="before any kernel"):
        b.add(inst=0, op="LDG", size=4, cta=0, warp=0, mask=1, addrs=[0])
    b.kernel(id=0, name="k", grid=1, block=32)
    with pytest.raises(gpumemsim.Error, match="duplicate kernel id 0"):
        b.kernel(id=0, name="again", grid=1, block=32)
    for bad, match in [({"op": "LDX"}, "unknown op 'LDX'"), ({"size": 3}, "bad access size 3"),
                       ({"mask": 0}, "mask is 00000000"),
                       ({"addrs": [0, 4]}, "2 addresses, but mask 00000001 has 1 active")]:
        args = dict(inst=0, op="LDG", size=4, cta=0, warp=0, mask=1, addrs=[0x100]) | bad
        with pytest.raises(gpumemsim.Error, match=match):
            b.add(**args)
    assert b.records == 0
    with pytest.raises(gpumemsim.Error):
        b.save(tmp_path / "t.txt")  # not one of our formats
    assert not list(tmp_path.iterdir())


def test_builder_allocations_are_alloc_lines(tmp_path):
    b = gpumemsim.TraceBuilder().alloc(0x10000, 4096, "x")
    b.kernel(id=1, name="k", grid=1, block=32)
    b.add(inst=0, op="LDG", size=4, cta=0, warp=0, mask=1, addrs=[0x10000])
    b.alloc(0x20000, 128)
    b.save(tmp_path / "a.wtrace")
    assert (tmp_path / "a.wtrace").read_text().splitlines()[:3] == [
        "#wtrace 1", "#alloc base=0x10000 bytes=4096 name=x",
        "#kernel id=1 name=k grid=1,1,1 block=32,1,1 shmem=0"]
    assert "#alloc base=0x20000 bytes=128" in (tmp_path / "a.wtrace").read_text()
    assert "allocations: 2" in cli("info", str(tmp_path / "a.wtrace")).stdout
    for bad, match in [((0x1000, 0), "at least 1 byte"), ((0x1000, 8, "a b"), "has a blank")]:
        with pytest.raises(gpumemsim.Error, match=match):
            b.alloc(*bad)
    assert b._native.allocations == 2


def test_sweep_frame_is_the_sweep_csv():
    df = gpumemsim.sweep(EXAMPLE, vary={"preset": ["kepler-k40-ca", "volta-v100"],
                                        "coalescer.segment_bytes": [32, 128]}, jobs=1)
    csv = cli("sweep", "--trace", EXAMPLE, "--vary", "preset=kepler-k40-ca,volta-v100",
              "--vary", "coalescer.segment_bytes=32,128", "--no-progress").stdout
    pd.testing.assert_frame_equal(df, pd.read_csv(io.StringIO(csv), comment="#"))
    assert len(df) == 4 * 5  # configurations x the example's kernels


def test_explain_frame_is_the_explain_csv():
    trace = os.path.join(SRC, "tests/data/a4_stride8.wtrace")
    df = gpumemsim.explain(trace, mode="both")
    want = pd.read_csv(io.StringIO(cli("explain", trace, "--mode", "both", "--format",
                                       "csv").stdout), comment="#")
    pd.testing.assert_frame_equal(df, want)
    # A4, lane t at 32t: 32 sectors; fixed, the 128 bytes at 4t take 4.
    assert list(df["pattern"]) == ["strided 8", "strided 8"]
    assert list(df["sectors_before"]) == [32, 32]
    assert list(df["sectors_after"]) == [4, 4]
    assert gpumemsim.explain(trace, format="table") == cli("explain", trace).stdout


def test_explain_takes_a_builder():
    b = transpose_builder(64)
    df = gpumemsim.explain(b, mode="cold", top=1, suggest_layouts=False)
    # The column writes (inst 1) waste the most bytes: 32 lanes 256 bytes apart, one sector each
    # for 4 bytes; the row reads (inst 0) waste none.
    assert list(df["inst"]) == [1]
    assert list(df["kind"]) == ["instruction"]
    assert df["saved_ns"].iloc[0] > 0


def test_explain_names_a_builders_arrays():
    # The builder's alloc() reaches explain (saved to wtrace, which keeps it): the column
    # writes' array is `out`, and transposing it makes them rows.
    b = transpose_builder(64)
    b.alloc(0x20000000, 64 * 64 * 4, "out")
    df = gpumemsim.explain(b, mode="cold", layouts=["transpose:out:256"],
                           suggest_layouts=False)
    row = df[df["kind"] == "layout"].iloc[0]
    assert row["layout"] == "transpose:out:256"
    assert row["kernel_sectors_after"] < row["kernel_sectors_before"]


def test_explain_layout_rows():
    # B5: the six fields of 24-byte structures; the diagnosis suggests the structure of arrays,
    # which moves all six loads, and the six loads merged into vector loads; --layout adds the
    # transpose of the same array.
    trace = os.path.join(SRC, "tests/data/b5_aos24_all.wtrace")
    df = gpumemsim.explain(trace, mode="cold", layouts=["transpose:g0:96"])
    layouts = df[df["kind"] == "layout"]
    assert sorted(layouts["layout"]) == ["soa:g0:24", "transpose:g0:96", "vector:0,1,2,3,4,5"]
    soa = layouts[layouts["layout"] == "soa:g0:24"].iloc[0]
    assert soa["instructions_touched"] == 6
    assert soa["kernel_sectors_after"] < soa["kernel_sectors_before"]
    assert set(df["kind"]) == {"instruction", "layout"}


def test_presets_are_the_programs():
    names = cli("presets", "--format", "names").stdout.split()
    got = gpumemsim.presets()
    assert [p["name"] for p in got] == names
    volta = next(p for p in got if p["name"] == "volta-v100")
    assert volta["gpu"].startswith("NVIDIA Tesla V100")
    assert os.path.samefile(volta["file"], os.path.join(SRC, "configs/volta-v100.ini"))


def test_replays_release_the_gil():
    b = gpumemsim.TraceBuilder()
    b.kernel(id=0, name="big", grid=1024, block=1024)
    n = 100_000
    rng = np.random.default_rng(1)
    b.add_many(inst=0, op="LDG", size=4, cta=np.arange(n) % 1024, warp=np.arange(n) % 32,
               mask=0xFFFFFFFF, addrs=rng.integers(0, 1 << 36, size=(n, 32), dtype=np.uint64))
    done = threading.Event()
    ticks = 0

    def replay():
        gpumemsim.run(b, mode="cached")
        done.set()

    t = threading.Thread(target=replay)
    start = time.perf_counter()
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    t.join()
    elapsed = time.perf_counter() - start
    # Holding the GIL, the replay would keep this loop from running until it returned.
    assert elapsed > 0.05, "the replay was too short to tell"
    assert ticks >= 10, f"{ticks} ticks in {elapsed:.2f} s"


def test_example_script_runs():
    r = subprocess.run([os.sys.executable, os.path.join(SRC, "examples/transpose_kepler_volta.py"),
                        "--no-plot"], capture_output=True, text=True, env=os.environ)
    assert r.returncode == 0, r.stderr
    assert "kepler-k40-ca" in r.stdout and "volta-v100" in r.stdout


def test_manual_python_example_prints_what_the_manual_shows(tmp_path):
    """docs/python.md: its python block, run from a folder holding tests/ (the bundled traces),
    prints exactly the text block that follows it."""
    section = open(os.path.join(SRC, "docs", "python.md")).read()
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    shown = section.split("```text\n", 1)[1].split("```", 1)[0]
    os.symlink(os.path.join(SRC, "tests"), tmp_path / "tests")
    r = subprocess.run([os.sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=tmp_path, env=os.environ)
    assert r.returncode == 0, r.stderr
    assert r.stdout == shown


def python_without(code, *blocked, path=None):
    """`code` run in a fresh interpreter that cannot import the `blocked` packages (a None entry
    in sys.modules makes `import` raise ImportError, as a missing package does)."""
    prelude = "".join(f"import sys; sys.modules[{b!r}] = None\n" for b in blocked)
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = str(path)  # and run there: sys.path starts with the current folder
    return subprocess.run([os.sys.executable, "-c", prelude + code], capture_output=True,
                          text=True, env=env, cwd=path)


def test_replays_and_reports_need_neither_numpy_nor_pandas():
    r = python_without(f"import gpumemsim\n"
                       f"r = gpumemsim.run({EXAMPLE!r}, kernels=1)\n"
                       f"print(len(r.kernels), r.report('csv').count(chr(10)) > 1)\n"
                       f"print(len(gpumemsim.presets()) > 0)\n", "numpy", "pandas")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "1 True\nTrue\n"


def test_a_missing_numpy_or_pandas_names_the_feature_and_the_interpreter():
    r = python_without("import gpumemsim\n"
                       "b = gpumemsim.TraceBuilder().kernel(id=0, name='k', grid=1, block=32)\n"
                       "b.add(inst=0, op='LDG', size=4, cta=0, warp=0, mask=1, addrs=[4096])\n",
                       "numpy")
    assert r.returncode != 0
    assert "gpumemsim: TraceBuilder.add needs numpy" in r.stderr
    assert os.sys.executable in r.stderr
    r = python_without(f"import gpumemsim\ngpumemsim.run({EXAMPLE!r}).to_pandas()\n", "pandas")
    assert r.returncode != 0
    assert "gpumemsim: Result.to_pandas needs pandas" in r.stderr


def test_a_module_that_does_not_load_names_the_interpreter_it_was_built_for(tmp_path):
    """The package without a loadable _gpumemsim (as another Python version finds it): the
    ImportError says which interpreter the module was built for and how to build it for this one."""
    import shutil

    package = os.path.dirname(gpumemsim.__file__)
    (tmp_path / "gpumemsim").mkdir()
    for name in ("__init__.py", "_paths.py"):
        shutil.copy(os.path.join(package, name), tmp_path / "gpumemsim" / name)
    r = python_without("import gpumemsim\n", path=tmp_path)
    assert r.returncode != 0
    from gpumemsim import _paths

    assert f"It was built for {_paths.PYTHON} (Python {_paths.PYTHON_VERSION})" in r.stderr
    assert f"-DPython3_EXECUTABLE={os.sys.executable}" in r.stderr
