"""Every balance claim the shipped games state (``balance.claims`` in each game.yaml) holds
when measured as `warbook check --balance` does, at 600 games, through the real command line.

The one test of the suite's longest (about three minutes on two cores), in a file of its own
so that, with ``--dist loadfile``, the rest of the lab's tests run on the other worker."""

from __future__ import annotations

import pytest
from helpers import run_warbook


@pytest.mark.slow
def test_every_shipped_claim_holds():
    proc = run_warbook("check", "--balance", "--games", "600", timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # 26 claims of the first seven games, 5 of Happy Families (counted in their game.yaml)
    assert "31 borne out, 0 not" in proc.stdout
