"""``python -m verify``: the same command-line interface as the ``verify`` script."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
