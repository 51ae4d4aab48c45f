import sys

from hexproof.cli import main

sys.exit(main())
