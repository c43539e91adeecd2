"""``python -m sim`` = the ``sim`` command (useful from a source checkout)."""
from sim.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
