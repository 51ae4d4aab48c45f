import sys

from hexproof.cli import console_main

sys.exit(console_main())
