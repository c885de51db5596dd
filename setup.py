"""Build configuration beyond pyproject.toml: the optional compiled replay of .mat files.

``tourney.rules.records._fastmat`` makes ``validate_mat`` many times faster on clean
records. It is optional: where it cannot be built (no C compiler), the install goes on
and ``validate_mat`` runs its Python reader and replay alone, with the same results.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "tourney.rules.records._fastmat",
            ["tourney/rules/records/_fastmat.c"],
            optional=True,
            extra_compile_args=["-O2"],
        )
    ]
)
