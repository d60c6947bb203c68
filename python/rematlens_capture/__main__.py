import sys

try:
    from .cli import main
except ModuleNotFoundError as error:
    if error.name not in ("torch", "torchvision"):
        raise
    print("rematlens_capture: error: %s is not installed for %s: install python3-torch and python3-torchvision "
          "(apt install python3-torch python3-torchvision)" % (error.name, sys.executable), file=sys.stderr)
    sys.exit(1)

sys.exit(main())
