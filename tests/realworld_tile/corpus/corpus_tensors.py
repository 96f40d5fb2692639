"""The tensors of tests/realworld_tile/corpus/run_vs_cutile.py's GPU runs (its child
processes): corpus.json's `inputs` as CUDA tensors, generic random tensors, deep copies, and
the comparison of pykc's outputs with cuTile's two runs (`compare`'s tolerances per dtype).
PyTorch is passed in, so that importing this needs none."""

# (rtol, atol) per dtype; atol is scaled by max(1, the largest |value| of cuTile's output)
TOLERANCE = {"float64": (1e-9, 1e-12), "float32": (1e-4, 1e-5), "tfloat32": (2e-3, 1e-3),
             "float16": (1e-2, 1e-3), "bfloat16": (2e-2, 1e-2), "float8_e4m3fn": (0.25, 0.05),
             "float8_e5m2": (0.5, 0.1), "float8_e8m0fnu": (1.0, 0.0)}
# The precisions a kernel computes in, besides its outputs' own: a float output computed from
# float16/bfloat16 inputs, or through tfloat32 products (`ct.astype(x, ct.tfloat32)`), carries
# their rounding (one ulp of an intermediate in a different place in either build), so its
# tolerance is the looser of its own dtype's and theirs. 8-bit floats are left out: their
# products are exact in float32 and the 8-bit tolerances would hide real differences.
COMPUTE_DTYPES = ("tfloat32", "float16", "bfloat16")


def compute_dtypes(args, torch, uses_tf32: bool) -> list:
    """The COMPUTE_DTYPES among the kernel's array arguments' dtypes (and tfloat32 where the
    kernel's file casts to it), for compare's tolerances."""
    names = {str(t.dtype).replace("torch.", "") for t in tensors(args, torch)}
    found = [n for n in COMPUTE_DTYPES if n in names]
    return (["tfloat32"] if uses_tf32 else []) + found


def tolerance(name: str, compute=()) -> tuple:
    """(rtol, atol) for a float output of dtype `name` computed in the `compute` dtypes."""
    tols = [TOLERANCE.get(name, (1e-4, 1e-5))] + [TOLERANCE[c] for c in compute if c in TOLERANCE]
    return max(r for r, _ in tols), max(a for _, a in tols)


def torch_constructors(torch, gen) -> dict:
    """corpus_inputs' array constructors as CUDA tensors (float32 or int64 until
    given_value casts them to the parameter's dtype)."""
    import corpus_inputs  # (NumPy: the GPU child has it)

    def shape(dims):
        return [int(d) for d in dims]
    return {
        "rand": lambda *s: torch.rand(shape(s), generator=gen, device="cuda"),
        "ints": lambda lo, hi, *s: torch.randint(int(lo), int(hi), shape(s), generator=gen, device="cuda"),
        "unit": lambda *s: corpus_inputs.unit(lambda *t: torch.rand(shape(t), generator=gen, device="cuda"),
                                              lambda t: torch.stack([torch.cos(t), torch.sin(t)], -1), *s),
        "zeros": lambda *s: torch.zeros(shape(s), device="cuda"),
        "full": lambda value, *s: torch.full(shape(s), value, device="cuda"),
        "arange": lambda *a: torch.arange(*a, device="cuda"),
        "array": lambda v: torch.tensor(v, device="cuda"),
    }


def given_value(spec: dict, value, torch):
    """corpus.json's value for one argument as the kernel takes it: a CUDA tensor of the
    manifest's dtype and layout, or a Python number."""
    if "value" in spec:
        return spec["value"]
    t = value.to(getattr(torch, spec["dtype"]))
    if spec["layout"] == "F" and t.dim() > 1:
        t = t.permute(*reversed(range(t.dim()))).contiguous().permute(*reversed(range(t.dim())))
    return t.contiguous() if spec["layout"] != "F" else t


def make_array(spec: dict, gen, torch):
    dtype = getattr(torch, spec["dtype"])
    shape = spec["shape"]
    if "strides" in spec:
        size = 1 + sum((d - 1) * abs(s) for d, s in zip(shape, spec["strides"]) if d > 0)
        flat = _random(torch, gen, [size], dtype)
        return flat.as_strided(shape, spec["strides"])
    if spec["layout"] == "F" and len(shape) > 1:
        t = _random(torch, gen, shape[::-1], dtype)
        return t.permute(*reversed(range(len(shape))))
    return _random(torch, gen, shape, dtype)


def _random(torch, gen, shape, dtype):
    if dtype == torch.bool:
        return torch.rand(shape, generator=gen, device="cuda") < 0.5
    if dtype.is_floating_point:
        return (torch.rand(shape, generator=gen, device="cuda") + 0.5).to(dtype)
    return torch.randint(0, 16, shape, generator=gen, device="cuda").to(dtype)


def clone(v, torch):
    """A deep copy of an argument: each tensor's whole storage copied and viewed with the
    same shape, strides and offset (F order, stride-0 views and all)."""
    if isinstance(v, list):
        return [clone(i, torch) for i in v]
    if isinstance(v, tuple):
        return tuple(clone(i, torch) for i in v)
    if isinstance(v, torch.Tensor):
        n = v.untyped_storage().nbytes() // v.element_size()
        whole = torch.as_strided(v, [n], [1], 0).clone()
        return whole.as_strided(v.shape, v.stride(), v.storage_offset())
    return v


def tensors(v, torch):
    if isinstance(v, torch.Tensor):
        yield v
    elif isinstance(v, (tuple, list)):
        for i in v:
            yield from tensors(i, torch)


def _bytes(x, torch):
    x = x.reshape(-1)
    return x.view(torch.uint8) if x.numel() else x


def compare(ours, theirs, again, torch, compute=()):
    """(verdict, why, details) for the tensors of three argument lists after the launches:
    pykc's, cuTile's, cuTile's second run; `compute` (compute_dtypes) loosens the float
    tolerances. A float output within tolerance of cuTile's first run is close even where
    cuTile's two runs differ (atomics: details record it); cutile-varies is left for
    outputs that are not (integers written in a different order by racing blocks)."""
    verdict, why, details = "same", "", []
    trip = zip(*(list(tensors(v, torch)) for v in (ours, theirs, again)))
    for k, (a, b, c) in enumerate(trip):
        a, b, c = (x.detach().contiguous().cpu() for x in (a, b, c))
        if torch.equal(_bytes(a, torch), _bytes(b, torch)):
            continue
        varies = not torch.equal(_bytes(b, torch), _bytes(c, torch))
        name = str(a.dtype).replace("torch.", "")
        detail = {"arg": k, "dtype": name, "elements": a.numel(), "cutile_varies": varies}
        if a.dtype.is_floating_point:
            af, bf = a.double().reshape(-1), b.double().reshape(-1)
            rtol, atol = tolerance(name, compute)
            finite = bf[torch.isfinite(bf)]
            scale = max(1.0, float(finite.abs().max()) if finite.numel() else 1.0)
            ok = torch.isclose(af, bf, rtol=rtol, atol=atol * scale, equal_nan=True)
            err = (af - bf).abs()
            err = err[torch.isfinite(err)]
            detail.update(mismatched=int((~ok).sum()), max_abs_err=float(err.max()) if err.numel() else None,
                          max_abs_cutile=scale, rtol=rtol, atol=atol * scale)
            details.append(detail)
            if bool(ok.all()):
                verdict = "close" if verdict == "same" else verdict
                continue
            bad = ~ok
            show = (af, bf)
        else:
            ai, bi = a.reshape(-1).to(torch.int64), b.reshape(-1).to(torch.int64)
            bad = ai != bi
            detail["mismatched"] = int(bad.sum())
            details.append(detail)
            show = (ai, bi)
        if varies:
            verdict, why = "cutile-varies", why or f"arg {k}: cuTile's two runs differ"
            continue
        i = int(torch.nonzero(bad)[0]) if bool(bad.any()) else 0
        return "differs", (f"arg {k} ({name}): {int(bad.sum())} of {a.numel()} differ (first at "
                           f"{i}: {show[0][i].item()!r} vs cuTile {show[1][i].item()!r})"), details
    return verdict, why, details
