"""Where the lab's games are played: the executor interface.

:func:`.run.play_ranges` cuts the work into the same seeded chunks whoever plays them
(tasks ``(job, start, stop)``: games ``start`` to ``stop - 1`` of a job, each game seeded
by its index alone), and an executor plays the chunks and hands back each chunk's records
**in task order**. So a seed gives the same figures, byte for byte, whatever the executor
and the number of its workers.

Two executors:

* :class:`LocalPool` (the default, what ``--workers`` chooses): this machine's cores, on
  forked worker processes (:func:`.run.play_local`).
* :class:`.cluster.DaskCluster` (``--cluster ADDRESS``): the workers of a Dask
  distributed scheduler. The game reaches them as its content folder, shipped with the
  work, never assumed installed there (:mod:`.cluster`).

An executor is used for one command (``with connect(...) as executor``) and bound to the
game being played with :meth:`Executor.for_game` (the cluster ships that game's folder);
:func:`.connect.connect` chooses one from the command's flags.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .run import Job, Record, Task, play_local

if TYPE_CHECKING:
    from ..model import Game


class Executor:
    """Plays the lab's chunks somewhere and hands back each chunk's records in task
    order; a fault of the game's own code is raised located, as the local pool raises it
    (:mod:`builder.faults`)."""

    #: how the executor is named in messages
    name = "executor"

    def for_game(self, game: Game) -> Executor:
        """The executor to play ``game``'s jobs with (the same one, unless the executor
        has to ship the game to its workers)."""
        return self

    def play(self, jobs: list[Job], tasks: list[Task]) -> list[list[Record]]:
        raise NotImplementedError

    def close(self) -> None:
        """Let go of what the executor holds (a connection); it is not used again."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class LocalPool(Executor):
    """This machine's cores: ``workers`` forked processes (default: every core), or this
    process with one worker or a single chunk."""

    name = "the local pool"

    def __init__(self, workers: int | None = None):
        self.workers = workers

    def play(self, jobs: list[Job], tasks: list[Task]) -> list[list[Record]]:
        return play_local(jobs, tasks, self.workers)
