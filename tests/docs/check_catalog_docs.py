#!/usr/bin/env python3
"""Docs that name every rung or every lesson, checked against the data they describe.

README.md's kernel table ("### Kernels") against the catalog (kernels/ladder.json), and
docs/guide.md's lesson sections ("### N. ...", one per assets/lessons/N_*.json).

  check_catalog_docs.py ROOT            check both; one line per problem, saying how to fix it
  check_catalog_docs.py ROOT --write    regenerate the README's table: rows in ladder order, each
                                        rung's own text kept, a new rung's row taking its
                                        ladder.json "lesson" (edit it after)
  check_catalog_docs.py --self-test     the checks catch a missing, an extra and a misplaced row

CTest runs the first as Docs.CatalogListsMatchTheCatalog and the last as
Docs.AWrongListIsCaught. Exit status 1 when anything differs.
"""
import json
import os
import re
import sys
import tempfile

HEADER = "| rung | idea |"
ROW = re.compile(r"^\| `([^`]+)` \| (.*) \|\s*$")
FIX = "run `python3 tests/docs/check_catalog_docs.py . --write` from the source root to regenerate it"


def catalog(root):
    with open(os.path.join(root, "kernels", "ladder.json"), encoding="utf-8") as f:
        return [(r["name"], r.get("lesson", "")) for r in json.load(f)["rungs"]]


def find_table(lines):
    """(first row index, end index) of the table's body; raises ValueError when absent."""
    try:
        head = lines.index(HEADER)
    except ValueError:
        raise ValueError("README.md has no kernel table (a line '" + HEADER + "' under '### Kernels')")
    start = head + 2  # past the |---|---| line
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return start, end


def problems(readme_text, rungs):
    lines = readme_text.split("\n")
    start, end = find_table(lines)
    names = []
    out = []
    for i in range(start, end):
        m = ROW.match(lines[i])
        if not m:
            out.append("README.md line %d is not a row '| `rung` | idea |': %s" % (i + 1, lines[i]))
            continue
        names.append(m.group(1))
    want = [n for n, _ in rungs]
    for n in want:
        if n not in names:
            before = want[want.index(n) - 1] if want.index(n) else None
            out.append("README.md's kernel table has no row for rung '%s'%s" %
                       (n, " (it goes after '%s')" % before if before else " (it goes first)"))
    for n in names:
        if n not in want:
            out.append("README.md's kernel table has a row for '%s', which kernels/ladder.json does not have" % n)
    if not out and names != want:
        out.append("README.md's kernel table lists the rungs as %s; kernels/ladder.json has them as %s" %
                   (", ".join(names), ", ".join(want)))
    return out


def regenerate(readme_text, rungs):
    lines = readme_text.split("\n")
    start, end = find_table(lines)
    ideas = {}
    for i in range(start, end):
        m = ROW.match(lines[i])
        if m:
            ideas[m.group(1)] = m.group(2)
    rows = ["| `%s` | %s |" % (n, ideas.get(n, lesson)) for n, lesson in rungs]
    return "\n".join(lines[:start] + rows + lines[end:])


LESSON_FILE = re.compile(r"^(\d+)_.*\.json$")
LESSON_HEAD = re.compile(r"^### (\d+)\. ")


def lesson_problems(guide_text, lesson_files):
    """docs/guide.md's '## The lessons' has a '### N. ' section per lesson file N_*.json, in order."""
    want = sorted(int(LESSON_FILE.match(f).group(1)) for f in lesson_files if LESSON_FILE.match(f))
    lines = guide_text.split("\n")
    try:
        start = lines.index("## The lessons")
    except ValueError:
        return ["docs/guide.md has no '## The lessons' section"]
    have = []
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        m = LESSON_HEAD.match(line)
        if m:
            have.append(int(m.group(1)))
    out = []
    for n in want:
        if n not in have:
            out.append("docs/guide.md's '## The lessons' has no section '### %d. ...' for assets/lessons/%d_*.json; "
                       "write one (what the lesson shows, step by step)" % (n, n))
    for n in have:
        if n not in want:
            out.append("docs/guide.md has a section '### %d. ...' but assets/lessons/ has no %d_*.json" % (n, n))
    if not out and have != want:
        out.append("docs/guide.md's lesson sections are in the order %s; put them in lesson order" % have)
    return out


def self_test(root):
    rungs = catalog(root)
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        good = regenerate(f.read(), rungs)
    assert problems(good, rungs) == [], problems(good, rungs)
    lines = good.split("\n")
    start, _ = find_table(lines)
    missing = "\n".join(lines[:start + 1] + lines[start + 2:])
    extra = "\n".join(lines[:start] + ["| `no_such_rung` | x |"] + lines[start:])
    swapped = "\n".join(lines[:start] + [lines[start + 1], lines[start]] + lines[start + 2:])
    for text, needle in ((missing, "no row for rung '%s'" % rungs[1][0]), (extra, "'no_such_rung'"),
                         (swapped, "lists the rungs as")):
        found = problems(text, rungs)
        if not any(needle in p for p in found):
            print("self-test: a wrong table was not caught (wanted %r, got %r)" % (needle, found))
            return 1
        if problems(regenerate(text, rungs), rungs):
            print("self-test: --write did not repair %r" % needle)
            return 1
    files = sorted(f for f in os.listdir(os.path.join(root, "assets", "lessons")) if f.endswith(".json"))
    with open(os.path.join(root, "docs", "guide.md"), encoding="utf-8") as f:
        guide = f.read()
    if lesson_problems(guide, files):
        print("self-test: the lesson check fails on the real guide: %s" % lesson_problems(guide, files))
        return 1
    for extra, needle in (("99_new.json", "no section '### 99."), ):
        if not any(needle in p for p in lesson_problems(guide, files + [extra])):
            print("self-test: a lesson without a section in docs/guide.md was not caught")
            return 1
    if not any("assets/lessons/ has no" in p for p in lesson_problems(guide, files[1:])):
        print("self-test: a section for a lesson that does not exist was not caught")
        return 1
    print("self-test: a missing, an extra and a misplaced row are caught, and --write repairs each; "
          "a lesson without a section in docs/guide.md and a section without a lesson are caught")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    if len(argv) not in (2, 3) or (len(argv) == 3 and argv[2] != "--write"):
        print("usage: check_catalog_docs.py ROOT [--write] | --self-test", file=sys.stderr)
        return 2
    root = argv[1]
    readme = os.path.join(root, "README.md")
    rungs = catalog(root)
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    try:
        if len(argv) == 3:
            new = regenerate(text, rungs)
            if new != text:
                fd, tmp = tempfile.mkstemp(dir=root, prefix=".README.md.")
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(new)
                os.chmod(tmp, os.stat(readme).st_mode & 0o777)
                os.replace(tmp, readme)
                print("README.md: kernel table regenerated from kernels/ladder.json")
            return 0
        found = problems(text, rungs)
        lessons = sorted(f for f in os.listdir(os.path.join(root, "assets", "lessons")) if f.endswith(".json"))
        with open(os.path.join(root, "docs", "guide.md"), encoding="utf-8") as f:
            lesson_found = lesson_problems(f.read(), lessons)
    except ValueError as e:
        print(e)
        return 1
    for p in found:
        print(p + "; " + FIX)
    for p in lesson_found:
        print(p)
    return 1 if found or lesson_found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
