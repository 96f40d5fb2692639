"""The architecture the JIT compiles for (pykc.cuda._dispatcher.target_arch)."""
from pykc.cuda import _dispatcher
from pykc.cuda._dispatcher import device_target, target_arch


def test_hopper_gets_its_arch_specific_target():
    # wgmma (the tile dialect's Hopper products) exists only on sm_90a; every compute
    # capability 9.0 GPU runs an sm_90a cubin.
    assert device_target("sm_90") == "sm_90a"


def test_other_gpus_keep_their_arch():
    for arch in ("sm_80", "sm_86", "sm_89", "sm_100", "sm_120", "sm_90a"):
        assert device_target(arch) == arch


def test_pykc_arch_overrides_the_device(monkeypatch):
    monkeypatch.setenv("PYKC_ARCH", "sm_90")
    assert target_arch() == "sm_90"


def test_the_device_arch_is_mapped(monkeypatch):
    class FakeRuntime:
        arch = "sm_90"
    monkeypatch.delenv("PYKC_ARCH", raising=False)
    monkeypatch.setattr(_dispatcher._runtime, "runtime", lambda: FakeRuntime())
    assert target_arch() == "sm_90a"
