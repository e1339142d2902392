"""Only the native frame scanner; everything else is in setup.cfg.

``optional=True``: where it cannot be compiled (no C compiler, no zlib or Python
headers) the install goes on and ``proxy.protocol.frame_scan`` uses its pure-Python
scanner, which gives the same answers, more slowly.
"""
from setuptools import Extension, setup

setup(ext_modules=[Extension("proxy.protocol._framescan", ["proxy/protocol/_framescan.c"],
                             libraries=["z"], extra_compile_args=["-O2"], optional=True)])
