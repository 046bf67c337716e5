#!/usr/bin/env python3
"""Holds every #include of the libraries to the layer order of the CMake link graph.

The layers are the gms_layer(NAME DIRS ... DEPS ...) calls of the root CMakeLists.txt (and the
gpumemsim executable's link line for tools/cli). A file in a layer's folder may include a
project header only from its own layer or from a layer that its target links, directly or
through another layer. Any file under sim/, trace/ or tools/{cli,gen,study}/ outside every
layer's folder is an error too, so a new folder cannot slip past the check.

Usage: check_layers.py SOURCE_DIR      exits 1 and lists each violation
       check_layers.py --self-test     checks that a violating tree is caught
"""
import pathlib
import re
import sys
import tempfile

from checker_main import run_checker

LAYER_CALL = re.compile(r"^gms_layer\((\w+)\s+DIRS\s+([^)]*?)\s+DEPS\s+([^)]*)\)", re.M)
CLI_LINK = re.compile(r"^target_link_libraries\(gpumemsim\s+PRIVATE\s+([^)]*)\)", re.M)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
CHECKED_ROOTS = ("sim/", "trace/", "tools/cli/", "tools/gen/", "tools/study/")


def read_layers(root: pathlib.Path):
    text = (root / "CMakeLists.txt").read_text()
    dirs, deps = {}, {}
    for name, dir_list, dep_list in LAYER_CALL.findall(text):
        dirs[name] = dir_list.split()
        deps[name] = [d for d in dep_list.split() if d.startswith("gms_")]
    cli = CLI_LINK.search(text)
    if cli:
        dirs["gpumemsim"] = ["tools/cli"]
        deps["gpumemsim"] = [d for d in cli.group(1).split() if d.startswith("gms_")]
    if not dirs:
        sys.exit("check_layers: no gms_layer() calls found in CMakeLists.txt")
    reach = {}

    def closure(name, seen=()):
        if name in seen:
            sys.exit(f"check_layers: layers link in a cycle: {' -> '.join(seen + (name,))}")
        if name not in reach:
            out = {name}
            for d in deps.get(name, []):
                out |= closure(d, seen + (name,))
            reach[name] = out
        return reach[name]

    for name in dirs:
        closure(name)
    folder_layer = {d: name for name, ds in dirs.items() for d in ds}
    return folder_layer, reach


def check(root: pathlib.Path):
    folder_layer, reach = read_layers(root)
    errors = []
    for path in sorted(root.glob("**/*")):
        rel = path.relative_to(root).as_posix()
        if not path.is_file() or path.suffix not in (".h", ".cc", ".in"):
            continue
        if not rel.startswith(CHECKED_ROOTS):
            continue
        folder = path.parent.relative_to(root).as_posix()
        layer = folder_layer.get(folder)
        if layer is None:
            errors.append(f"{rel}: folder {folder} belongs to no layer (add it to a gms_layer())")
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = m.group(1)
            target_folder = target.rsplit("/", 1)[0] if "/" in target else ""
            target_layer = folder_layer.get(target_folder)
            if target_layer is None:
                if (root / target).exists() and target.startswith(CHECKED_ROOTS):
                    errors.append(f"{rel}:{n}: includes {target}, in no layer")
                continue
            if target_layer not in reach[layer]:
                errors.append(f"{rel}:{n}: {layer} includes {target} of {target_layer}, "
                              f"which it does not link (it links {sorted(reach[layer] - {layer})})")
    return errors


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / "CMakeLists.txt").write_text(
            "gms_layer(gms_core DIRS sim/core DEPS fmt::fmt)\n"
            "gms_layer(gms_model DIRS sim/model DEPS gms_core)\n")
        for folder, text in (("sim/core", '#include "sim/model/b.h"\n'),
                             ("sim/model", '#include "sim/core/a.h"\n')):
            (root / folder).mkdir(parents=True)
        (root / "sim/core/a.h").write_text('#include "sim/model/b.h"\n')
        (root / "sim/model/b.h").write_text('#include "sim/core/a.h"\n')
        errors = check(root)
        if len(errors) != 1 or "sim/core/a.h:1" not in errors[0]:
            sys.exit(f"self-test: expected one violation in sim/core/a.h, got {errors}")
        (root / "sim/stray").mkdir()
        (root / "sim/stray/c.h").write_text("\n")
        if not any("belongs to no layer" in e for e in check(root)):
            sys.exit("self-test: a file outside every layer went unnoticed")
    print("self-test passed")


if __name__ == "__main__":
    run_checker(__doc__, check, self_test, "includes follow the layer order")
