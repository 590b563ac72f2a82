#!/usr/bin/env python3
"""Finds calls between the files of a part that go both ways.

Usage: file_deps.py [--show] OBJ_DIR [OBJ_DIR ...]

Each OBJ_DIR is the build folder of one static library's objects
(build/layer/libovershade_layer_core.a.p, ...).  With `nm` it lists the
symbols each object file defines and the ones it references, maps every
reference to the file that defines it, and looks for loops among all the
files given: file A referring to file B while B, directly or through other
files, refers back to A.  Data flows downward, so there must be none.

Prints each loop as `a.c -> b.c -> a.c` with the symbols behind every step.
--show also prints the edges of every file.  Exits 0 with no loop, 1 with
one or more, 99 when nm fails or an OBJ_DIR holds no object files.
"""
import glob
import os
import subprocess
import sys


def build_root(path):
    """The build folder above `path`: the one holding build.ninja."""
    d = os.path.abspath(path)
    while d != os.path.dirname(d):
        if os.path.exists(os.path.join(d, 'build.ninja')):
            return d
        d = os.path.dirname(d)
    return os.path.dirname(os.path.abspath(path))


def source_name(obj):
    """build/layer/x.a.p/lyr_capture.c.o -> layer/lyr_capture.c (generated
    sources, meson-generated_.._x.c.o, likewise)"""
    base = os.path.basename(obj)[:-len('.o')]
    base = base.replace('meson-generated_', '').replace('.._', '')
    part = os.path.relpath(os.path.dirname(os.path.dirname(os.path.abspath(obj))),
                           build_root(obj))
    return os.path.join(part, base)


def symbols(obj):
    out = subprocess.run(['nm', '-P', obj], check=True, capture_output=True,
                         text=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == 'U':
            used.add(name)
        elif kind in 'TDBRCGS':
            defined.add(name)
    return defined, used


def edges_of(obj_dirs):
    """Which file refers to which, over all the libraries together, so a
    loop through two libraries counts too."""
    objs = []
    for d in obj_dirs:
        found = sorted(glob.glob(os.path.join(d, '*.o')))
        if not found:
            raise FileNotFoundError(f'no object files in {d}')
        objs += found
    owner, uses = {}, {}
    for o in objs:
        name = source_name(o)
        defined, used = symbols(o)
        for d in defined:
            owner[d] = name
        uses[name] = used
    edges = {n: {} for n in uses}
    for name, used in uses.items():
        for sym in used:
            other = owner.get(sym)
            if other and other != name:
                edges[name].setdefault(other, set()).add(sym)
    return edges


def loops(edges):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def cycle_in(edges, comp):
    """One cycle through the component's first file, for the message."""
    start = comp[0]
    members = set(comp)
    path, seen = [start], {start}

    def walk(v):
        for w in sorted(edges[v]):
            if w == start and len(path) > 1:
                return True
            if w in members and w not in seen:
                seen.add(w)
                path.append(w)
                if walk(w):
                    return True
                path.pop()
        return False

    walk(start)
    return path + [start]


def main(argv):
    show = '--show' in argv
    dirs = [a for a in argv if a != '--show']
    if not dirs:
        print(__doc__.strip(), file=sys.stderr)
        return 99
    try:
        edges = edges_of(dirs)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f'cannot read object files: {e}', file=sys.stderr)
        return 99
    if show:
        for v in sorted(edges):
            for w in sorted(edges[v]):
                print(f'{v} -> {w}: {" ".join(sorted(edges[v][w]))}')
    found = loops(edges)
    for comp in found:
        cyc = cycle_in(edges, comp)
        rest = sorted(set(comp) - set(cyc))
        print(f'loop: {" -> ".join(cyc)}' + (f' (with {", ".join(rest)})' if rest else ''))
        for a, b in zip(cyc, cyc[1:]):
            print(f'    {a} -> {b}: {" ".join(sorted(edges[a][b]))}')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
