#!/usr/bin/env python3
"""Where the session kinds are named: only in their own files and the
registry.  HACKING.md promises that a kind is files of its own plus a line
in kind.c's table, one in tui/kinds.c's, a block of kinds.mk and its pages
in man/; this checks it of every kind there is, so a change that makes the
core name a kind again (a case in main.c, a declaration in a folder's
header, a test listed in a shared fragment) fails here, naming the place.

A kind's own files are those its block of kinds.mk names, directly or in
the fragments the block includes.  Its names are the identifiers of the
layers' prefixes followed by the kind or one of its own files' stems
(store_heap_block, analyze_heapmap_zoom, tui_calls_new), its files'
paths, and the kind as a C string ("heap").  TAP on stdout."""
import os
import re
import subprocess
import sys

top = os.environ.get('top_srcdir', '.')
LAYERS = ('ingest', 'store', 'analyze', 'report', 'tui')
# The registry: what a new kind may edit.
REGISTRY = ('kind.c', 'tui/kinds.c', 'kinds.mk', 'man/profview.1',
    'man/profview-formats.5')


def read(path):
    with open(os.path.join(top, path), encoding='utf-8',
        errors='replace') as f:
        return f.read()


def tree():
    """The files the core is made of: sources of the layers and the top,
    and every build and test fragment (capture/, tests' own sources and
    data, bench/ and examples/ are a tool's or a kind's own)."""
    try:
        out = subprocess.run(['git', '-C', top, 'ls-files'],
            capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        out = []
        for d, _, fs in os.walk(top):
            for f in fs:
                out.append(os.path.relpath(os.path.join(d, f), top))
    keep = []
    for f in out:
        parts = f.split('/')
        if len(parts) == 1 and re.search(r'\.(c|h|am|ac|mk)$', f):
            keep.append(f)
        elif parts[0] in LAYERS and re.search(r'\.(c|h|mk)$', f):
            keep.append(f)
        elif parts[0] == 'man':
            keep.append(f)
        elif f.endswith('.mk') or f in ('tests/fuzz/run.sh',
            'tests/fuzz/build.sh'):
            keep.append(f)
    return sorted(set(keep))


def blocks():
    """kinds.mk's blocks: kind -> files named (directly and in the
    fragments included), and kind -> the kinds it says it uses."""
    kinds = {}
    uses = {}
    cur = None
    text = read('kinds.mk').replace('\\\n', ' ')
    for line in text.split('\n'):
        m = re.match(r'#\s*([a-z0-9_]+):', line)
        if m:
            cur = m.group(1)
            kinds[cur] = set()
            uses[cur] = set()
        if cur is not None and line.startswith('#'):
            m = re.search(r'uses:\s*([a-z0-9_, ]+)', line)
            if m:
                uses[cur] |= set(re.findall(r'[a-z0-9_]+', m.group(1)))
            continue
        if cur is None:
            continue
        m = re.match(r'include\s+\$\(srcdir\)/(\S+)', line)
        if m:
            frag = m.group(1)
            kinds[cur].add(frag)
            body = read(frag)
            kinds[cur] |= set(re.findall(
                r'(?<![\w/$(])((?:[a-z0-9_-]+/)+[\w.-]+\.(?:c|h|sh|py))\b',
                body))
            continue
        kinds[cur] |= set(re.findall(
            r'(?<![\w/$(])((?:[a-z0-9_-]+/)*[\w-]+\.(?:c|h|sh))\b', line))
    return kinds, uses


def registered():
    return re.findall(r'^\t\{\s*"([a-z0-9_]+)",', read('kind.c'), re.M)


def main():
    files = tree()
    own, uses = blocks()
    names = registered()
    checks = []
    missing = sorted(set(names) ^ set(own))
    checks.append((not missing and bool(names),
        'every kind of kind.c has a block in kinds.mk and no block is '
        'of another: %s' % ' '.join(names),
        ['in one only: %s' % ' '.join(missing)] if missing else []))
    used = set()
    for k in names:
        mine = own.get(k, set())
        # The files of kinds that say they use k's may name it.
        users = set()
        for u, used_kinds in uses.items():
            if k in used_kinds:
                users |= own[u]
        stems = {k}
        for f in mine:
            if f.split('/')[0] in LAYERS:
                stems.add(re.sub(r'\.[ch]$', '', os.path.basename(f)))
        alt = '|'.join(sorted(stems, key=len, reverse=True))
        pat = re.compile(
            r'\b(?:%s)_(?:%s)(?:_\w*)?\b' % ('|'.join(LAYERS), alt) +
            r'|\b(?:%s)/(?:%s)\.[ch]\b' % ('|'.join(LAYERS), alt) +
            r'|"%s"' % re.escape(k))
        places = []
        for f in files:
            if f in mine or f in users:
                continue
            for n, line in enumerate(read(f).split('\n'), 1):
                m = pat.search(line)
                if not m:
                    continue
                if f in REGISTRY:
                    used.add(f)
                    continue
                places.append('%s:%d: %s' % (f, n, m.group(0)))
        where = sorted({p.split(':')[0] for p in places})
        checks.append((not places,
            '%s: named only in its own files and the registry%s' % (k,
            '' if not places else ' (also in %d files: %s)' % (len(where),
            ' '.join(where))), places))
    touched = sorted(used)
    checks.append((set(touched) <= set(REGISTRY) and len(REGISTRY) <= 5,
        'outside their own files the kinds are named in %d files, all of '
        'the five a new kind edits: %s' % (len(touched),
        ' '.join(touched)), []))
    print('1..%d' % len(checks))
    for i, (ok, what, diag) in enumerate(checks, 1):
        print('%s %d - %s' % ('ok' if ok else 'not ok', i, what))
        for d in diag[:40]:
            print('# ' + d)
        if len(diag) > 40:
            print('# ... and %d more' % (len(diag) - 40))
    return 0


sys.exit(main())
