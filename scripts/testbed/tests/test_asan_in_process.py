"""scripts/testbed/asan-in-process on real processes: a Python that preloads the ASan runtime
and loads an ASan-built library passes; without the runtime, or with the plain build, it fails.
The library is loaded from a copy deleted once loaded, as the JNI library's loader does."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

CHECK = Path(__file__).resolve().parent.parent / "asan-in-process"
SOURCE = "int element(int *p, int i) { return p[i]; }\n"


@pytest.fixture(scope="module")
def libraries(tmp_path_factory):
    d = tmp_path_factory.mktemp("asan")
    (d / "e.c").write_text(SOURCE)
    built = {}
    for kind, flags in (("asan", ["-fsanitize=address"]), ("plain", [])):
        out = d / f"libdemo-{kind}.so"
        subprocess.run(["gcc", "-shared", "-fPIC", *flags, "-o", str(out), str(d / "e.c")],
                       check=True)
        built[kind] = out
    runtime = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True,
                             text=True, check=True).stdout.strip()
    return built, runtime


def check(tmp_path, library, preload):
    """Runs a process that copies LIBRARY, loads the copy, deletes it and waits; checks it."""
    copy = tmp_path / "vertx-rpma-123.so"
    code = ("import ctypes, os, shutil, sys, time\n"
            f"shutil.copy({str(library)!r}, {str(copy)!r})\n"
            f"ctypes.CDLL({str(copy)!r}); os.unlink({str(copy)!r})\n"
            "print('loaded', flush=True); time.sleep(2)\n")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    if preload:
        env.update(LD_PRELOAD=preload, ASAN_OPTIONS="detect_leaks=0")
    proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout.readline().strip() == "loaded"
        result = subprocess.run([str(CHECK), str(proc.pid), "vertx-rpma-"], capture_output=True,
                                text=True, timeout=30, check=False)
    finally:
        proc.kill()
        proc.wait()
    return result.returncode, result.stdout


def test_the_runtime_and_an_asan_build_pass(tmp_path, libraries):
    built, runtime = libraries
    rc, out = check(tmp_path, built["asan"], runtime)

    assert rc == 0, out
    assert "has the ASan runtime and an ASan build of vertx-rpma- mapped" in out


def test_without_the_runtime_preloaded_it_fails(tmp_path, libraries):
    built, runtime = libraries
    rc, out = check(tmp_path, built["plain"], None)

    assert rc == 1
    assert "never mapped the ASan runtime" in out


def test_the_plain_build_fails_even_with_the_runtime(tmp_path, libraries):
    built, runtime = libraries
    rc, out = check(tmp_path, built["plain"], runtime)

    assert rc == 1
    assert "which is not an ASan build" in out
    assert "never mapped the ASan runtime" not in out


def test_a_process_that_never_loads_the_library_fails(tmp_path, libraries):
    built, runtime = libraries
    proc = subprocess.Popen(["sleep", "2"], env={"LD_PRELOAD": runtime, "ASAN_OPTIONS": "detect_leaks=0"})
    try:
        result = subprocess.run([str(CHECK), str(proc.pid), "vertx-rpma-"], capture_output=True,
                                text=True, timeout=30, check=False)
    finally:
        proc.kill()
        proc.wait()

    assert result.returncode == 1
    assert "never mapped a library named vertx-rpma-*" in result.stdout
