"""Create or refresh the checkout's one environment, ``.venv``: verify installed editable with
its ``test`` and ``docs`` extras, torch and the rest installed once.

Every tox environment runs its commands in it (tox.ini: tox's own environments stay empty),
and a user activates it (README, "Set up": ``python3 -m venv .venv && . .venv/bin/activate &&
pip install -e '.[test]'`` builds the same one by hand). Why not tox's environments: tox 4
rebuilds an environment directory another tox environment created, so two of them cannot
share one, and each would hold its own 1.6 GB of torch.

pip runs only when ``.venv`` lacks verify or pytest, or ``pyproject.toml`` changed since the
last install here (its hash is kept in ``.venv/.verify-install``).
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
STAMP = VENV / ".verify-install"
EXTRAS = ".[test,docs]"


def _python() -> Path:
    return VENV / "bin" / "python"


def _wanted() -> str:
    return hashlib.sha1((ROOT / "pyproject.toml").read_bytes()).hexdigest() + " " + EXTRAS


def _ready() -> bool:
    if not _python().exists() or not STAMP.exists() or STAMP.read_text() != _wanted():
        return False
    probe = subprocess.run([str(_python()), "-c", "import verify, pytest, sphinx"],
                           capture_output=True)
    return probe.returncode == 0


def main() -> int:
    if _ready():
        return 0
    if not _python().exists():
        print(f"creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print(f"installing verify{EXTRAS[1:]} (editable) into {VENV}", flush=True)
    subprocess.run([str(_python()), "-m", "pip", "install", "-q", "-e", EXTRAS], cwd=ROOT,
                   check=True)
    STAMP.write_text(_wanted())
    return 0


if __name__ == "__main__":
    sys.exit(main())
