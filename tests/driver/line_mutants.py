"""Random line mutations of a Python file for the driver's robustness tests
(nested_kernels_test.py, sibling_modules_test.py, tile_static_test.py): each mutant is the
file with one to three edits, and pykc must end it in exit 0, or exit 1 with a diagnostic."""


def mutate(lines, rng, ops=4):
    """One mutant of `lines` (a list of lines with their line breaks): one to three edits,
    each deleting a line, doubling it, swapping it with another (`ops` 4) or cutting it short."""
    mutant = list(lines)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(mutant))
        op = rng.randrange(ops)
        if op == 0:
            del mutant[i]
        elif op == 1:
            mutant.insert(i, mutant[i])
        elif op == 2 and ops == 4:
            j = rng.randrange(len(mutant))
            mutant[i], mutant[j] = mutant[j], mutant[i]
        else:
            mutant[i] = mutant[i][: rng.randrange(len(mutant[i]) + 1)] + "\n"
        if not mutant:
            mutant = ["\n"]
    return mutant


def clean(r):
    """Whether a finished `pykc` run ended as it should: exit 0, or 1 with an `error:` line,
    and no internal error."""
    if r.returncode not in (0, 1) or "internal" in r.stderr.lower():
        return False
    return r.returncode == 0 or "error:" in r.stderr


def check_mutants(lines, rng, count, compile_mutant, failures, label="mutant", ops=4):
    """Compiles `count` mutants of `lines`: `compile_mutant(text, n)` returns pykc's finished
    run. A run that does not end cleanly (or times out) is printed and added to `failures`.
    Prints and returns how many compiled and how many were refused with a diagnostic."""
    import subprocess
    counts = {0: 0, 1: 0}
    for n in range(count):
        mutant = "".join(mutate(lines, rng, ops))
        try:
            r = compile_mutant(mutant, n)
        except subprocess.TimeoutExpired:
            failures.append(f"{label} {n}: timed out")
            continue
        if not clean(r):
            print(f"FAIL {label} {n}: rc {r.returncode}\n{mutant}\n{r.stderr[-1500:]}")
            failures.append(f"{label} {n}")
        else:
            counts[r.returncode] += 1
    print(f"ok   {count} {label}s: {counts[0]} compiled, {counts[1]} refused with a diagnostic")
    return counts
