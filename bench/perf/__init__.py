"""The speed benchmarks (``docs/performance.md``): recall latency on synthetic memories
(:mod:`bench.perf.latency`, built by :mod:`bench.perf.synthetic`) or on LoCoMo
(:mod:`bench.perf.real`), the neo4j-graphrag peers timed beside it
(:mod:`bench.perf.peers`), and ingest throughput (:mod:`bench.perf.ingest`)."""
