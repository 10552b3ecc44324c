"""Builds the Python package with CMake (python/CMakeLists.txt): the module shufl._shufl over the
same library objects as the `shufl` binary, plus the pure-Python files of python/shufl.
pyproject.toml holds the metadata; the version is CMakeLists.txt's project(VERSION)."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(shufl VERSION ([0-9.]+)", text).group(1)


class cmake_build_ext(build_ext):
    """Configures and builds the target shufl_python in build-python/, then copies the module
    where setuptools packs the extension."""

    def build_extension(self, ext):
        # build-python/ beside build/: the same depth, so ccache (CCACHE_BASEDIR) shares the
        # library's objects with a CMake build of the clone.
        build = ROOT / "build-python"
        args = [
            f"-DPython_EXECUTABLE={sys.executable}",
            "-DCMAKE_BUILD_TYPE=Release",
            "-DSHUFL_PYTHON=ON",
            "-DSHUFL_BUILD_TESTS=OFF",
            "-DSHUFL_BUILD_BENCH=OFF",
        ]
        # SHUFL_CMAKE_ARGS: more -D options (e.g. -DSHUFL_WERROR=ON, to share ccache with a CI build).
        args += os.environ.get("SHUFL_CMAKE_ARGS", "").split()
        env = dict(os.environ)
        if shutil.which("ccache"):
            args.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
            env.setdefault("CCACHE_BASEDIR", str(ROOT))
            env.setdefault("CCACHE_NOHASHDIR", "1")
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), *args], check=True, env=env)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", str(build), "--target", "shufl_python", "-j", jobs], check=True, env=env)
        built = next((build / "python" / "shufl").glob("_shufl*.so"))
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


# Everything setuptools writes goes under build-python/ too, away from a CMake build/ and the sources.
(ROOT / "build-python").mkdir(exist_ok=True)

setup(
    version=version(),
    options={"build": {"build_base": "build-python/setuptools"}, "egg_info": {"egg_base": "build-python"}},
    package_dir={"": "python"},
    packages=["shufl"],
    package_data={"shufl": ["*.pyi", "py.typed"]},
    ext_modules=[Extension("shufl._shufl", sources=[])],
    cmdclass={"build_ext": cmake_build_ext},
    zip_safe=False,
)
