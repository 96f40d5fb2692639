"""numba types of the corpus `--sig` spellings that numba's own `normalize_signature` cannot
read, for run_vs_numba.py: records written as numba prints them
(`Record(a[type=int8;offset=0],b[type=float64;offset=1];9;False)`, nested-array fields as
`nestedarray(int32, (20,))`) and 0-d arrays (`int64[()]`, pykc's spelling of a NumPy array of
shape ()). Everything else goes through numba's parser, one argument at a time.
"""
from sig_text import sig_params, split_top


def _scalar_dtype(text: str):
    """The NumPy dtype of a numba scalar type name (`int32`, `float64`, `bool`)."""
    import numpy as np
    name = text.strip()
    return np.dtype(bool) if name in ("bool", "boolean", "bool_") else np.dtype(name)


def _field_format(text: str):
    """A record field's NumPy format: a scalar dtype, or (dtype, shape) of a nested array."""
    text = text.strip()
    if text.startswith("nestedarray(") and text.endswith(")"):
        dtype, shape = split_top(text[len("nestedarray("):-1], ",")
        dims = tuple(int(d) for d in shape.strip("()").split(",") if d.strip())
        return (_scalar_dtype(dtype), dims)
    return _scalar_dtype(text)


def record_dtype(text: str):
    """The NumPy dtype of numba's `Record(field[type=T;offset=N],...;SIZE;ALIGNED)`."""
    import numpy as np
    if not (text.startswith("Record(") and text.endswith(")")):
        raise ValueError(f"not a record: {text!r}")
    fields, size, aligned = split_top(text[len("Record("):-1], ";")
    names, formats, offsets = [], [], []
    for f in split_top(fields, ","):
        name, _, rest = f.partition("[")
        attrs = dict(kv.split("=", 1) for kv in split_top(rest[:-1], ";"))
        names.append(name.strip())
        formats.append(_field_format(attrs["type"]))
        offsets.append(int(attrs["offset"]))
    return np.dtype({"names": names, "formats": formats, "offsets": offsets,
                     "itemsize": int(size)}, align=aligned.strip() == "True")


def _array_spec(text: str):
    """(element text, ndim, layout) of `ELEM[...]`, or None for a scalar."""
    if not text.endswith("]"):
        return None
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        depth += (text[i] == "]") - (text[i] == "[")
        if depth == 0:
            elem, dims = text[:i], text[i + 1:-1].replace(" ", "")
            break
    else:
        raise ValueError(f"unbalanced brackets in {text!r}")
    if dims == "()":
        return elem, 0, "C"
    axes = dims.split(",")
    layout = "C" if axes[-1] == "::1" else ("F" if axes[0] == "::1" else "A")
    return elem, len(axes), layout


def numba_type(text: str):
    """The numba type of one argument's spelling (see the module's docstring)."""
    from numba import from_dtype
    from numba.core import sigutils, types
    text = text.strip()
    spec = _array_spec(text)
    if spec is not None and (text.startswith("Record(") or spec[1] == 0):
        elem, ndim, layout = spec
        dtype = from_dtype(record_dtype(elem)) if elem.startswith("Record(") \
            else sigutils.normalize_signature(f"void({elem})")[0][0]
        return types.Array(dtype, ndim, layout)
    if text.startswith("Record("):
        return from_dtype(record_dtype(text))
    return sigutils.normalize_signature(f"void({text})")[0][0]


def numba_argtypes(sig: str) -> tuple:
    """The numba argument types of a corpus signature `name(T1, T2, ...)`."""
    return tuple(numba_type(t) for t in sig_params(sig))
