"""Every balance claim the shipped games state (``balance.claims`` in each game.yaml) holds
when measured as `warbook check --balance` does, at 200 games a line-up (50 for a line-up
with the search bot, whose games are most of the cost: at 100 they took 31 of the test's
39 s alone), through the real command line.

One of the suite's longest tests (about a minute beside the other worker's tests; at 600 games and
200 with the search bot it took five and a half minutes alone, and over ten beside them), in a file of
its own so that, with ``--dist loadfile``, the rest of the lab's tests run on the other worker.
A claim fails only when the games contradict it (builder/lab/claims.py), so fewer games
test the claims less sharply; the build's "By the numbers" figures (2,000 games a line-up)
and `warbook check --balance` at its default test them at full strength."""

from __future__ import annotations

import pytest
from helpers import run_warbook


@pytest.mark.slow
def test_every_shipped_claim_holds():
    proc = run_warbook("check", "--balance", "--games", "200", "--search-games", "50",
                       timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # 26 claims of the first seven games, 5 of Happy Families (counted in their game.yaml)
    assert "31 borne out, 0 not" in proc.stdout
