"""The corpus `--sig` spellings as text, for the corpus tools (corpus_inputs.py,
numba_sig_text.py, ../../realworld_tile/corpus/run_vs_cutile.py): one splitter at the top
level of brackets and parentheses. Python 3 standard library only, so that importing it
costs a runner nothing at start-up."""


def split_top(text: str, sep: str = ",") -> list:
    """`text` split at `sep` outside brackets and parentheses, the parts stripped
    (`a, T(b, c)[:, ::1], d` -> three parts); empty parts at the end dropped."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch in "([") - (ch in ")]")
        if ch == sep and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return parts + [cur.strip()] if cur.strip() else parts


def sig_params(sig: str) -> list:
    """The parameter types of a corpus signature `name(T1, T2, ...)` ([] without parentheses)."""
    return split_top(sig[sig.index("(") + 1:sig.rindex(")")]) if "(" in sig else []
