#!/usr/bin/env python3
"""sass-diff.py: compares two CUDA libraries' SASS function by function, to
show that a change left the kernels it did not mean to touch as they were
(results/diropt-1000 quotes it: "every other kernel's SASS is unchanged").

  sass-diff.py BASE.sass NEW.sass

Each file is `cuobjdump -sass LIB` of one build. Before comparing, the
instructions lose their addresses and encodings, and both the
instructions and the function names lose the anonymous namespace's hash
(_GLOBAL__N__<hash>_..., which changes with the file's text). A function of
NEW that BASE lacks is matched with trailing `Lb0E` template arguments
dropped (and `Li1E`), so that an instance that gained a defaulted `bool =
false` or `int = 1` template parameter is compared with its old self.
Prints NEW, GONE or DIFF for each function that is not identical, then
the count of identical ones; exits 1 if any existing function differs or
is gone.

To build a commit's library beside the working tree's, in a scratch
worktree (nvcc and the same flags as the working tree's build):

  git worktree add --detach /tmp/base REV
  make -C /tmp/base --no-print-directory -f mk/cuda.mk lib/libdiropt.so
  cuobjdump -sass /tmp/base/lib/libdiropt.so > base.sass
  make --no-print-directory -f mk/cuda.mk lib/libdiropt.so
  cuobjdump -sass lib/libdiropt.so > new.sass
  python3 scripts/sass-diff.py base.sass new.sass
  git worktree remove --force /tmp/base
"""
import re
import sys

ANON = re.compile(r"_GLOBAL__N__[0-9a-f]+_\d+_\w+?_cu_[0-9a-f]+")
FUNC = re.compile(r"\s*Function : (\S+)")


def functions(path):
    """The file's functions: normalised name -> normalised instructions."""
    out, name, body = {}, None, []
    with open(path) as f:
        for line in f:
            m = FUNC.match(line)
            if m:
                if name is not None:
                    out[name] = body
                name, body = ANON.sub("ANON", m.group(1)), []
                continue
            if name is None:
                continue
            line = re.sub(r"/\*[0-9a-f]{4,}\*/", "", line)  # the address
            line = re.sub(r"/\* 0x[0-9a-f]+ \*/", "", line)  # the encoding
            line = re.sub(r"0x7f[0-9a-f]{8,}", "ADDR", line)  # absolute branch targets
            line = ANON.sub("ANON", line).strip()
            if line:
                body.append(line)
    if name is not None:
        out[name] = body
    return out


def older(name, base):
    """name as base knows it: with trailing defaulted template arguments (a
    false bool or an int 1) dropped."""
    n = name
    while n not in base:
        m = re.match(r"(.*)(?:Lb0E|Li1E)(E+vNS_.*)", n)
        if not m:
            return None
        n = m.group(1) + m.group(2)
    return n


def main():
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    base, new = functions(sys.argv[1]), functions(sys.argv[2])
    same, bad, seen = 0, 0, set()
    for name in sorted(new):
        old = name if name in base else older(name, base)
        if old is None:
            print("NEW ", name)
            continue
        seen.add(old)
        if base[old] == new[name]:
            same += 1
        else:
            bad += 1
            print("DIFF", name, "(%d and %d instructions)" % (len(base[old]), len(new[name])))
    for name in sorted(set(base) - seen):
        bad += 1
        print("GONE", name)
    print("identical %d of %d" % (same, len(base)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
