#!/usr/bin/env python3
"""docs/hardware.md and the presets agree (issue 36).

usage: check_hardware_doc.py SOURCE_DIR

For every configs/NAME.ini:
  - docs/hardware.md has a section `## NAME` (the anchor the preset's header and the `sources`
    column of `gpumemsim presets` cite);
  - every table row of that section, "| `SECTION.KEY` | `VALUE` | source |", holds the preset's
    value of that key, and names a key the preset has;
  - every key of the preset has a row, in its own section or, when the section says "every other
    key is as in [BASE](#BASE)", in BASE's section with the same value.
Every key of every preset carries a kind (a `{kind}` mark in the comment above it, or
`{key: kind}` in that comment: docs/hardware.md "How sure a figure is"; the rules are those of
tools/study/preset_kinds.cc), and a row's kind column (`| key | value | kind | source |`) is
that kind. And every source tag a preset's comments use ([GB], [AS:SM7_QV100], ...) is explained in the
page's "Sources" section, so that a citation always leads to a source.
Exit status 0 when all hold, 1 listing each disagreement.
"""
import glob
import os
import re
import sys

ROW = re.compile(r"^\| `([a-z0-9_]+\.[a-z0-9_]+)` \| `([^`]*)` \|")
KIND_ROW = re.compile(r"^\| `([a-z0-9_]+\.[a-z0-9_]+)` \| `[^`]*` \| ([a-z]+) \|")
MARK = re.compile(r"\{(?:([a-z0-9_]+):\s*)?([a-z]+)\}")
KINDS = ("measured", "vendor", "sibling", "fitted", "assumed", "model")
INHERITS = re.compile(r"every other key is as in \[([a-z0-9-]+)\]\(#\1\)")
TAG = re.compile(r"\[([A-Za-z0-9][A-Za-z0-9:_ *.-]*)\]")


def preset_values(path):
    """{section.key: value} of an ini file, and the source tags its comments use."""
    values, tags, section = {}, set(), None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("#"):
                tags.update(TAG.findall(line))
            elif line.startswith("["):
                section = line.strip("[]")
            elif "=" in line:
                key, value = (x.strip() for x in line.split("=", 1))
                values[f"{section}.{key}"] = value
    return values, tags


def preset_kinds(path):
    """{section.key: kind} of an ini file ("" where no mark applies): a comment block's `{kind}`
    covers the keys below it up to the next comment; `{key: kind}` names one of them."""
    kinds, section, header, in_block, block, overrides = {}, None, True, False, "", {}
    with open(path) as f:
        for line in f:
            t = line.strip()
            if t.startswith("#"):
                if header:
                    continue
                if not in_block:
                    block, overrides, in_block = "", {}, True
                for m in MARK.finditer(t):
                    if m.group(2) not in KINDS:
                        continue
                    if m.group(1):
                        overrides[m.group(1)] = m.group(2)
                    else:
                        block = m.group(2)
                continue
            in_block = False
            if t.startswith("["):
                header, section, block, overrides = False, t.strip("[]"), "", {}
            elif "=" in t:
                key = t.split("=", 1)[0].strip()
                kinds[f"{section}.{key}"] = overrides.get(key, block)
    return kinds


def doc_sections(path):
    """{title: [lines]} of the `## ` sections of a markdown file."""
    sections, title = {}, None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("## "):
                title = line[3:].strip()
                sections[title] = []
            elif title is not None:
                sections[title].append(line)
    return sections


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    src = sys.argv[1]
    doc = os.path.join(src, "docs/hardware.md")
    sections = doc_sections(doc)
    sources = "\n".join(sections.get("Sources", []))
    problems = []

    def rows(name):
        return {m.group(1): m.group(2) for m in map(ROW.match, sections.get(name, [])) if m}

    def kind_rows(name):
        return {m.group(1): m.group(2) for m in map(KIND_ROW.match, sections.get(name, [])) if m}

    presets = sorted(glob.glob(os.path.join(src, "configs/*.ini")))
    for path in presets:
        name = os.path.basename(path)[:-4]
        values, tags = preset_values(path)
        if name not in sections:
            problems.append(f"docs/hardware.md has no section '## {name}'")
            continue
        own = rows(name)
        kinds = preset_kinds(path)
        for key, kind in kinds.items():
            if not kind:
                problems.append(f"configs/{name}.ini: {key} has no {{kind}} mark")
        for key, kind in kind_rows(name).items():
            if key in kinds and kinds[key] and kind != kinds[key]:
                problems.append(f"docs/hardware.md#{name}: {key} is '{kind}', "
                                f"configs/{name}.ini marks it '{kinds[key]}'")
        if any(k not in kind_rows(name) for k in own):
            problems.append(f"docs/hardware.md#{name}: a row without a kind column")
        for key, value in own.items():
            if key not in values:
                problems.append(f"docs/hardware.md#{name}: row {key}, a key {name}.ini lacks")
            elif values[key] != value:
                problems.append(f"docs/hardware.md#{name}: {key} = {value}, "
                                f"configs/{name}.ini says {values[key]}")
        inherited = {}
        base = INHERITS.search(" ".join(sections[name]))
        if base:
            inherited = rows(base.group(1))
        for key, value in values.items():
            if key in own:
                continue
            if key not in inherited:
                problems.append(f"docs/hardware.md#{name}: no row for {key}")
            elif inherited[key] != value:
                problems.append(f"docs/hardware.md#{name}: {key} = {value} in {name}.ini but "
                                f"{inherited[key]} in #{base.group(1)}, and no row of its own")
        for tag in sorted(tags):
            if tag in {"gpu", "coalescer", "shared", "l1", "l2", "dram"}:
                continue
            needle = tag[3:] if tag.startswith("AS:") else f"[{tag}]"
            if needle not in sources:
                problems.append(f"configs/{name}.ini cites [{tag}], which docs/hardware.md "
                                "'Sources' does not explain")
    for p in problems:
        print(p)
    if problems:
        print(f"check_hardware_doc: {len(problems)} disagreement(s)")
        return 1
    print(f"check_hardware_doc: {len(presets)} presets, every value and tag in docs/hardware.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
