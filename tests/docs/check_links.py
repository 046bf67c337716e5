#!/usr/bin/env python3
"""Every relative link of the README and the manual resolves (issue 60).

usage: check_links.py SOURCE_DIR     check README.md, the other top-level *.md and docs/**/*.md
       check_links.py --self-test    check the checker on a folder of sample pages

A link is a Markdown link or image, `[text](target)` or `![alt](target)`, outside code spans
and fenced code blocks. Targets with a scheme (`https:`, `mailto:`) are not checked. A relative
target must name an existing file or folder, relative to the page that holds it; a `#fragment`
on a Markdown target (or alone, for the same page) must name one of that page's headings, as
GitHub or MkDocs spell its anchor (lower case, punctuation dropped, spaces as `-`).
Exit status 0 when every link resolves, 1 listing each broken one as FILE:LINE: TARGET (why).
"""
import glob
import os
import re
import sys

import doc_check  # tests/docs/doc_check.py: the shared command line
import tempfile

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"`+[^`]*`+")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def anchors(path, cache={}):
    """The anchors of a Markdown file's headings, in both GitHub's and MkDocs' spelling."""
    if path not in cache:
        found = set()
        fence = False
        for line in open(path, encoding="utf-8"):
            if line.startswith("```"):
                fence = not fence
            m = None if fence else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                text = m.group(1).strip().lower()
                github = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
                mkdocs = re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", text).strip())
                found |= {github, mkdocs}
        cache[path] = found
    return cache[path]


def page_links(path):
    """(line number, target) of every link of a Markdown page outside code."""
    fence = False
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        if fence:
            continue
        for m in LINK.finditer(CODE_SPAN.sub("", line)):
            yield n, m.group(1)


def broken(path, target):
    """Why the link `target` of page `path` does not resolve, or None."""
    if SCHEME.match(target):
        return None
    file_part, _, fragment = target.partition("#")
    dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
    if not os.path.exists(dest):
        return "no such file"
    if fragment and dest.endswith(".md") and fragment.lower() not in anchors(dest):
        return f"no heading with the anchor #{fragment}"
    return None


def pages(src):
    return sorted(set(glob.glob(os.path.join(src, "*.md")) +
                      glob.glob(os.path.join(src, "docs", "**", "*.md"), recursive=True)))


def check(src):
    problems, count = [], 0
    for path in pages(src):
        for n, target in page_links(path):
            count += 1
            why = broken(path, target)
            if why:
                problems.append(f"{os.path.relpath(path, src)}:{n}: {target} ({why})")
    for p in problems:
        print(p)
    if problems:
        print(f"check_links: {len(problems)} of {count} links do not resolve")
        return 1
    print(f"check_links: {count} links in {len(pages(src))} pages, every one resolves")
    return 0


def self_test():
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "docs"))
        with open(os.path.join(d, "docs", "a.md"), "w") as f:
            f.write("# A page\n\n## Time model and roofline\n\n### Parallel replay (`--threads`)\n")
        good = ["[a](docs/a.md)", "[t](docs/a.md#time-model-and-roofline)",
                "[p](docs/a.md#parallel-replay-threads)", "[p](docs/a.md#parallel-replay---threads)",
                "![pic](docs)", "[web](https://example.org/x.md)", "`[not a link](nowhere.md)`",
                "```\n[in a fence](nowhere.md)\n```"]
        bad = ["[gone](docs/b.md)", "[anchor](docs/a.md#nowhere)", "![img](docs/x.png)",
               "[self](#missing)"]
        wrong = []
        for text, want in [(g, 0) for g in good] + [(b, 1) for b in bad]:
            with open(os.path.join(d, "README.md"), "w") as f:
                f.write("# Readme\n\n" + text + "\n")
            with open(os.devnull, "w") as null:
                saved, sys.stdout = sys.stdout, null
                try:
                    got = check(d)
                finally:
                    sys.stdout = saved
            if got != want:
                wrong.append(text)
        for w in wrong:
            print(f"check_links self-test: wrong verdict on: {w}")
        if not wrong:
            print(f"check_links self-test: {len(bad)} broken links caught, {len(good)} good passed")
        return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(doc_check.run(__doc__, check, self_test))
