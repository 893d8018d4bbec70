"""``python -m bench``: see :mod:`bench.cli.app`."""

from bench.cli.app import main

if __name__ == "__main__":
    main()
