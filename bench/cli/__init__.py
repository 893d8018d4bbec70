"""The commands of ``python -m bench`` (:mod:`bench.cli.app`)."""
