"""graphmem's benchmarks, outside the library (``docs/benchmarks.md``).

``python -m bench --help`` lists the commands: LoCoMo retrieval quality
(:mod:`bench.locomo`), memory over time (:mod:`bench.lifecycle`), speed
(:mod:`bench.perf`); ``bench/user_path`` and ``bench/extraction`` hold the user-path
and extraction benchmarks, the other modules here calibration and ablation scripts.
The package uses graphmem's public API only; the library never imports it.
"""
