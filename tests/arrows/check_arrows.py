#!/usr/bin/env python3
"""Fails when an #include crosses an arrow that docs/architecture.md forbids.

The rules are the table between the markers `<!-- arrows:begin -->` and
`<!-- arrows:end -->` in docs/architecture.md, so the document and the check cannot
drift apart. A row: | from | must not include | except | why |
  from:             path prefixes of including files (relative to the repository);
                    a prefix written !p excludes files under p
  must not include: prefixes of the included name as written in the #include
                    ("core/emulator/", "imgui" for <imgui.h>, ...)
  except:           included prefixes the row still allows
usage: check_arrows.py REPO_ROOT            check the tree
       check_arrows.py --self-test          check that a planted arrow is caught
"""
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
CODE = ('.h', '.hpp', '.cpp', '.c', '.in')


def cells(text):
    return [c.strip().strip('`') for c in re.split(r',\s*', text.strip()) if c.strip().strip('`')]


def read_rules(doc_path):
    text = open(doc_path, encoding='utf-8').read()
    m = re.search(r'<!-- arrows:begin -->(.*?)<!-- arrows:end -->', text, re.S)
    if not m:
        sys.exit(f'check_arrows: {doc_path} has no <!-- arrows:begin --> ... <!-- arrows:end --> table')
    rules = []
    for line in m.group(1).splitlines():
        line = line.strip()
        if not line.startswith('|') or set(line) <= set('|-: '):
            continue
        cols = [c.strip() for c in line.strip('|').split('|')]
        if cols[0].lower() == 'from':
            continue
        if len(cols) < 4:
            sys.exit(f'check_arrows: a row of the arrows table needs 4 columns: {line}')
        frm = cells(cols[0])
        rules.append({'from': [p for p in frm if not p.startswith('!')],
                      'not_from': [p[1:] for p in frm if p.startswith('!')],
                      'forbid': cells(cols[1]), 'allow': cells(cols[2]), 'why': cols[3]})
    if not rules:
        sys.exit('check_arrows: the arrows table is empty')
    return rules


def violations(root, rules):
    found = []
    for top in ('app',):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith(CODE):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, root).replace(os.sep, '/')
                includes = INCLUDE.findall(open(path, encoding='utf-8', errors='replace').read())
                for rule in rules:
                    if not any(rel.startswith(p) for p in rule['from']):
                        continue
                    if any(rel.startswith(p) for p in rule['not_from']):
                        continue
                    for inc in includes:
                        if any(inc.startswith(p) for p in rule['forbid']) and \
                           not any(inc.startswith(p) for p in rule['allow']):
                            found.append(f'{rel} includes "{inc}": {rule["why"]}')
    return found


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, 'docs'))
        os.makedirs(os.path.join(root, 'app/core/trace'))
        with open(os.path.join(root, 'docs/architecture.md'), 'w') as f:
            f.write('<!-- arrows:begin -->\n| from | must not include | except | why |\n|---|---|---|---|\n'
                    '| `app/core/` | `ui/` | | headless |\n<!-- arrows:end -->\n')
        src = os.path.join(root, 'app/core/trace/x.cpp')
        open(src, 'w').write('#include "core/trace/trace.h"\n')
        assert not violations(root, read_rules(os.path.join(root, 'docs/architecture.md')))
        open(src, 'w').write('#include "ui/widgets/theme.h"\n')
        assert violations(root, read_rules(os.path.join(root, 'docs/architecture.md')))
    print('check_arrows: self-test passed (a planted arrow is caught, a clean tree passes)')


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    rules = read_rules(os.path.join(root, 'docs/architecture.md'))
    found = violations(root, rules)
    for v in found:
        print(v)
    if found:
        sys.exit(f'check_arrows: {len(found)} forbidden arrow(s); docs/architecture.md lists the rules')
    print(f'check_arrows: {len(rules)} rules, no forbidden arrow')


if __name__ == '__main__':
    main()
