import sys

from hexproof.cli import console_main

# Guarded: a spawned worker process (the GUI's analysis pool, play/analysis/executor.py) imports
# the parent's main module as ``__mp_main__``; it must not start the command line again.
if __name__ == "__main__":
    sys.exit(console_main())
