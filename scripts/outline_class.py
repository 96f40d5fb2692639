#!/usr/bin/env python3
"""Moves the member function bodies of one C++ class out of its body (issue 18).

Input: clang's JSON AST of SOURCE for the class, e.g.

    clang++-19 -std=c++20 -I. -isystem /usr/lib/llvm-19/include -fsyntax-only \
        -Xclang -ast-dump=json -Xclang -ast-dump-filter=CLASS SOURCE > ast.json
    python3 scripts/outline_class.py SOURCE ast.json CLASS OUTDIR --map "title=file" ...

Writes OUTDIR/class.txt (the source up to the class's end, member bodies over
--keep-lines replaced by declarations; constructors stay) and OUTDIR/NAME.txt per
group: out-of-line definitions (default arguments dropped, the name qualified,
nested return types given with --nested qualified). Groups come from the class's
"  // --- title" section lines (--map title-prefix=NAME) or --fn NAME=GROUP; member
templates go to group "header". Assembling the files is left to the caller;
scripts/check_identical.py then proves the outputs unchanged.
"""
import argparse, json, re, sys

def load(path):
    s = open(path).read(); dec = json.JSONDecoder(); i = 0; out = []
    while True:
        i = s.find('{', i)
        if i < 0: break
        o, i = dec.raw_decode(s, i); out.append(o)
    return out

def end_of(src, r):  # byte offset just past the range's last token
    e = r['end']; return e['offset'] + e['tokLen']

ap = argparse.ArgumentParser()
ap.add_argument('source'); ap.add_argument('ast'); ap.add_argument('cls'); ap.add_argument('outdir')
ap.add_argument('--map', action='append', default=[])
ap.add_argument('--fn', action='append', default=[])
ap.add_argument('--keep-lines', type=int, default=2)
ap.add_argument('--nested', default='')
a = ap.parse_args()
src = open(a.source, 'rb').read()
objs = load(a.ast)
c = [o for o in objs if o.get('kind') == 'CXXRecordDecl' and o.get('name') == a.cls and o.get('completeDefinition')][0]
nested = [n for n in a.nested.split(',') if n]
cls_begin = c['range']['begin']['offset']; cls_end = end_of(src, c['range'])
if src[cls_end:cls_end+1] == b';': cls_end += 1
# section markers
markers = [(m.start(), m.group(1).decode()) for m in re.finditer(rb'\n  // --- ([^\n]*?) -*\n', src[:cls_end]) if m.start() > cls_begin]
def section(off):
    t = 'head'
    for o, title in markers:
        if o < off: t = title
    return t
def group(title):
    for m in a.map:
        k, v = m.split('=', 1)
        if title.startswith(k): return v
    return 'main'

edits = []   # (begin, end, replacement) within the class
defs = {}    # group -> [text]
for m in c['inner']:
    kind = m['kind']
    if m.get('isImplicit'): continue
    tmpl = None
    if kind == 'FunctionTemplateDecl':
        tmpl = m
        m = [x for x in m['inner'] if x['kind'] in ('CXXMethodDecl',)][0]
        kind = m['kind']
    if kind not in ('CXXMethodDecl', 'CXXConstructorDecl', 'CXXDestructorDecl'): continue
    body = [x for x in m.get('inner', []) if x['kind'] == 'CompoundStmt']
    if not body: continue
    outer = tmpl or m
    b = outer['range']['begin']['offset']; e = end_of(src, outer['range'])
    lines = src[b:e].count(b'\n') + 1
    if kind == 'CXXConstructorDecl' or lines <= a.keep_lines: continue
    bb = body[0]['range']['begin']['offset']
    decl = src[b:bb].rstrip() + b';'
    # definition: drop default arguments, static, qualify the name and nested return types
    text = bytearray(src[b:e]); base = b
    cuts = []
    for p in m.get('inner', []):
        if p['kind'] != 'ParmVarDecl' or 'init' not in p: continue
        ex = p['inner'][0]; xb = ex['range']['begin']['offset']
        eq = src.rfind(b'=', 0, xb)
        # the default argument runs to the next top-level ',' or ')'
        xe, depth = eq + 1, 0
        while not (depth == 0 and src[xe:xe+1] in (b',', b')')):
            ch = src[xe:xe+1]
            if ch in (b'(', b'{', b'[', b'<'): depth += 1
            elif ch in (b')', b'}', b']', b'>'): depth -= 1
            xe += 1
        while eq > 0 and src[eq-1:eq] == b' ': eq -= 1
        cuts.append((eq, xe, b''))
    name_off = m['loc']['offset']
    cuts.append((name_off, name_off, a.cls.encode() + b'::'))
    for s0, s1, rep in sorted(cuts, reverse=True):
        text[s0-base:s1-base] = rep
    head = bytes(text[:name_off-base]); rest = bytes(text[name_off-base:])
    head = re.sub(rb'\bstatic\s+', b'', head, count=1)
    for n in nested:
        head = re.sub(rb'(?<![:\w])' + n.encode() + rb'\b', a.cls.encode() + b'::' + n.encode(), head)
    text = head + rest
    # dedent by the class's two spaces
    out = b'\n'.join(l[2:] if l.startswith(b'  ') else l for l in text.split(b'\n'))
    fnmap = dict(x.split('=', 1) for x in a.fn)
    g = 'header' if tmpl else fnmap.get(m['name']) or group(section(b))
    defs.setdefault(g, []).append(out.decode())
    edits.append((b, e, decl))

cls_text = bytearray(src[:cls_end])
for b, e, rep in sorted(edits, reverse=True):
    cls_text[b:e] = rep
open(f'{a.outdir}/class.txt', 'wb').write(bytes(cls_text))
for g, ds in defs.items():
    open(f'{a.outdir}/{g}.txt', 'w').write('\n\n'.join(ds) + '\n')
    print(g, len(ds), sum(d.count('\n') + 1 for d in ds))
print('kept lines in class', bytes(cls_text[cls_begin:]).count(b'\n'))
